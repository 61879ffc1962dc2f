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
            items = Self.lines(of: text).map { ForeachItem(text: String($0)) }
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

    /// The lines of `text` that are not blank, without the white space around them. Splits the
    /// UTF-8 bytes at line feeds and carriage returns (a `\r\n` gives an empty line between,
    /// skipped): splitting and trimming by `Character` (Foundation's `trimmingCharacters`) cost
    /// a fan-out of 10,000 items more than planning them.
    private static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? utf8.endIndex
            let line = text[start..<end]
            if let first = line.firstIndex(where: { !$0.isWhitespace }),
                let last = line.lastIndex(where: { !$0.isWhitespace })
            {
                lines.append(line[first...last])
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        return lines
    }

    private func jsonItems(_ data: Data) throws(FanOutError) -> [ForeachItem] {
        let array: [JSONItem]
        do {
            array = try JSONDecoder().decode([JSONItem].self, from: data)
        } catch DecodingError.dataCorrupted(let context) {
            throw .invalidJSON(source: source, reason: context.debugDescription)
        } catch {
            throw .invalidJSON(source: source, reason: "\(error)")
        }
        return try array.enumerated().map { (offset, element) throws(FanOutError) in
            switch element {
            case .text(let text):
                return ForeachItem(text: text)
            case .other:
                throw .unsupportedItem(source: source, position: offset + 1)
            case .object(let object):
                var fields: [String: String] = [:]
                for case (let key, .text(let text)) in object { fields[key] = text }
                let id = idField.map { fields[$0] } ?? (fields["name"] ?? fields["id"])
                guard let id else { throw .missingID(source: source, position: offset + 1, field: idField) }
                return ForeachItem(id: id, value: id, fields: fields)
            }
        }
    }

    /// One JSON value of the array: a scalar as text, an object of them, or anything else.
    private enum JSONItem: Decodable {
        case text(String)
        case object([String: JSONItem])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let integer = try? container.decode(Int.self) {
                self = .text(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .text(String(number))
            } else if let object = try? container.decode([String: JSONItem].self) {
                self = .object(object)
            } else {
                self = .other
            }
        }
    }
}
