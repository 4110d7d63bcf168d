/// A FlatBuffers schema reduced to what verification needs: for each table, the kind of value each
/// vtable slot holds. Table and union ids index ``TFLiteSchema``-style arrays.
public enum FlatBufferSchema {
    /// What one vtable slot holds.
    public indirect enum Slot: Sendable {
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
    public struct Table: Sendable {
        public let name: String
        public let slots: [Slot]
        public init(name: String, slots: [Slot]) {
            self.name = name
            self.slots = slots
        }
    }
}
