/// Core Foundation's allocator (only the default one exists here).
public final class CFAllocator: Sendable {}
/// The default allocator (nil, as Core Foundation's `kCFAllocatorDefault`).
public let kCFAllocatorDefault: CFAllocator? = nil
