import Foundation

/// A fast generator of random (version 4) UUIDs for screens, stacks and history entries.
///
/// `UUID()` asks the system for randomness on every call, which dominates a push on Linux.
/// This generator is seeded once from the system and then runs xoshiro256**, so identities are
/// still unpredictable across launches and unique in practice, at a few nanoseconds each.
@usableFromInline
struct FlowIDGenerator: Sendable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// Seeds the generator from the system's random source.
    @usableFromInline
    init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: (system.next(), system.next(), system.next(), system.next()))
    }

    /// Seeds the generator with fixed words (for reproducible tests).
    init(seed: (UInt64, UInt64, UInt64, UInt64)) {
        s0 = seed.0 | 1
        s1 = seed.1
        s2 = seed.2
        s3 = seed.3
    }

    @inlinable @inline(__always)
    mutating func nextWord() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// Returns a new random version-4 UUID.
    @inlinable
    mutating func next() -> UUID {
        FlowIDGenerator.uuid(nextWord(), nextWord())
    }

    /// A version-4 UUID from two random words.
    @inlinable
    static func uuid(_ a: UInt64, _ b: UInt64) -> UUID {
        let hi = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let lo = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return UUID(uuid: (
            UInt8(truncatingIfNeeded: hi >> 56), UInt8(truncatingIfNeeded: hi >> 48),
            UInt8(truncatingIfNeeded: hi >> 40), UInt8(truncatingIfNeeded: hi >> 32),
            UInt8(truncatingIfNeeded: hi >> 24), UInt8(truncatingIfNeeded: hi >> 16),
            UInt8(truncatingIfNeeded: hi >> 8), UInt8(truncatingIfNeeded: hi),
            UInt8(truncatingIfNeeded: lo >> 56), UInt8(truncatingIfNeeded: lo >> 48),
            UInt8(truncatingIfNeeded: lo >> 40), UInt8(truncatingIfNeeded: lo >> 32),
            UInt8(truncatingIfNeeded: lo >> 24), UInt8(truncatingIfNeeded: lo >> 16),
            UInt8(truncatingIfNeeded: lo >> 8), UInt8(truncatingIfNeeded: lo)
        ))
    }
}
