/// Finds an entry's position in a list of names, for the blobs records name: open addressing
/// over the names' own bits (a SHA-256 digest's are uniform, so no hash function is run),
/// about one cache miss a lookup. Built once, then read by many threads.
struct EntryTable: Sendable {
    private let names: [EntryName]
    /// Positions in `names`, -1 where empty; a power of two at least twice as many.
    private let slots: [Int32]

    /// Indexes `names`, each once.
    init(_ names: [EntryName]) {
        self.names = names
        var capacity = 16
        while capacity < 2 * names.count { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        for (index, name) in names.enumerated() {
            var slot = name.bucket & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(index)
        }
        self.slots = slots
    }

    /// The position of `name` in the list indexed, or nil.
    func index(of name: EntryName) -> Int? {
        var slot = name.bucket & (slots.count - 1)
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if names[index] == name { return index }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }
}
