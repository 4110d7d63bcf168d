/// A FlatBuffers schema reduced to what verification needs: for each table, the kind of value each
/// vtable slot holds. Table and union ids index ``TFLiteSchema``-style arrays.
package enum FlatBufferSchema {
    /// What one vtable slot holds.
    package indirect enum Slot: Sendable {
        /// An inline scalar (or enum) of this many bytes.
        case scalar(Int)
        /// An offset to a string.
        case string
        /// An offset to a table of this id.
        case table(Int)
        /// An offset to a vector of these elements (only `.scalar`, `.string`, `.table`).
        case vector(Slot)
        /// The 1-byte type of the union in the next slot.
        case unionType
        /// An offset to the union member the previous slot names (union id).
        case union(Int)
    }

    /// One table: its name (for messages) and its slots.
    package struct Table: Sendable {
        package let name: String
        package let slots: [Slot]
        package init(name: String, slots: [Slot]) {
            self.name = name
            self.slots = slots
        }
    }
}
