/// Member-name hashing for the JSON reader and the direct model readers: FNV-1a (64-bit) over a
/// name's UTF-8 bytes. Not a defence against chosen collisions, and never needed to be one: a
/// hash match is always confirmed by comparing the names themselves, so a collision costs a
/// comparison, never a wrong answer, and every table here is small and bounded.
package enum MemberNames {
    /// FNV-1a of `name`'s UTF-8 bytes.
    @inline(__always)
    package static func hash(_ name: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return h
    }
}

/// A fixed set of member names, each with a number, looked up by `MemberNames.hash` and an open
/// addressing table (no `Hasher` seeding and finalizing per lookup, as a `[String: Int]` does).
/// Not generic, so that a lookup from another module needs no generic metadata.
package struct MemberNameTable: Sendable {
    private struct Slot: Sendable {
        let hash: UInt64
        let name: String
        let value: Int
    }

    private let slots: [Slot?]
    private let mask: Int

    /// A table of `pairs` (names distinct).
    package init(pairs entries: [(String, Int)]) {
        var capacity = 8
        while capacity < 2 * entries.count { capacity *= 2 }
        var slots = [Slot?](repeating: nil, count: capacity)
        for (name, value) in entries {
            let hash = MemberNames.hash(name)
            var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while let occupied = slots[index] {
                precondition(occupied.name != name, "member name \(name) listed twice")
                index = (index + 1) & (capacity - 1)
            }
            slots[index] = Slot(hash: hash, name: name, value: value)
        }
        self.slots = slots
        self.mask = capacity - 1
    }

    /// The number listed for `name`, or nil.
    package subscript(name: String) -> Int? {
        let hash = MemberNames.hash(name)
        var index = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[index] {
            if slot.hash == hash, slot.name == name { return slot.value }
            index = (index + 1) & mask
        }
        return nil
    }
}
