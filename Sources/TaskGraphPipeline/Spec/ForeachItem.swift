/// One item of a `foreach` operation: what makes its instance id, what `${item}` means in it,
/// and its fields (`${item.name}` …).
package struct ForeachItem: Sendable {
    /// What the instance id shows between brackets: `mountains` in `load[mountains]`.
    package var id: String
    /// What `${item}` stands for: the item as written, or a matched file's path.
    package var value: String
    /// What `${item.field}` stands for, by field: a file's `name`, `stem`, `ext` and `dir`, a
    /// matrix's axes (`photo`, `photo.stem` …).
    package var fields: [String: String] = [:]
    /// For a matrix item, the id of its item on each axis, in axis order.
    package var axes: [(name: String, id: String)] = []

    /// An item written as text (a list entry): its id and value are the text.
    package init(text: String) {
        id = text
        value = text
    }

    /// An item with every field given.
    package init(id: String, value: String, fields: [String: String], axes: [(name: String, id: String)] = []) {
        self.id = id
        self.value = value
        self.fields = fields
        self.axes = axes
    }

    /// The id of its item on the axis `name`, if it is a matrix item with that axis.
    package func axisID(_ name: String) -> String? {
        axes.first { $0.name == name }?.id
    }
}
