import Foundation

/// The items of a `foreach: {from: …}` operation, read from the result of the operation it
/// names: a JSON array (strings or numbers, whose id and `${item}` are the text; or objects,
/// whose scalar fields are `${item.field}` and whose id is the field `idField`, else `name`,
/// else `id`), or text with one item per line (blank lines skipped).
struct ResultItems {
    /// The operation whose result is read, for messages.
    let source: String
    /// The object field that is an item's id, if named.
    let idField: String?

    /// The items of `data`, checked: each id valid and unique.
    /// - Throws: `FanOutError`, naming the item and its position (1-based).
    func items(of data: Data) throws(FanOutError) -> [ForeachItem] {
        let text = String(decoding: data, as: UTF8.self)
        let items: [ForeachItem]
        if text.first(where: { !$0.isWhitespace }) == "[" {
            items = try jsonItems(data)
        } else {
            items = text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .map { ForeachItem(text: $0) }
        }
        var firstByID: [String: Int] = [:]
        for (offset, item) in items.enumerated() {
            guard !item.id.isEmpty, !item.id.contains(where: { $0 == "]" || $0 == "[" || $0.isNewline }) else {
                throw .invalidID(source: source, position: offset + 1, id: item.id)
            }
            if let first = firstByID[item.id] {
                throw .duplicateID(source: source, position: offset + 1, id: item.id, first: first)
            }
            firstByID[item.id] = offset + 1
        }
        return items
    }

    private func jsonItems(_ data: Data) throws(FanOutError) -> [ForeachItem] {
        let array: [Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [Any] else {
                throw FanOutError.invalidJSON(source: source, reason: "not an array")
            }
            array = parsed
        } catch let error as FanOutError {
            throw error
        } catch {
            throw .invalidJSON(source: source, reason: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
        }
        return try array.enumerated().map { (offset, element) throws(FanOutError) in
            if let text = Self.scalarText(element) { return ForeachItem(text: text) }
            guard let object = element as? [String: Any] else {
                throw .unsupportedItem(source: source, position: offset + 1)
            }
            var fields: [String: String] = [:]
            for (key, value) in object {
                if let text = Self.scalarText(value) { fields[key] = text }
            }
            let id = idField.map { fields[$0] } ?? (fields["name"] ?? fields["id"])
            guard let id else { throw .missingID(source: source, position: offset + 1, field: idField) }
            return ForeachItem(id: id, value: id, fields: fields)
        }
    }

    /// The text of a JSON string, number or boolean; nil for anything else.
    private static func scalarText(_ value: Any) -> String? {
        switch value {
        case let text as String: return text
        case let flag as Bool where type(of: value) == Bool.self: return flag ? "true" : "false"
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }
}
