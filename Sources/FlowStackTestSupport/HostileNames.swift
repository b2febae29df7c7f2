// Generated hostile names for the output writers' property tests. Not a product: never shipped.

/// Hostile names and messages made from pieces that end strings, comments and lines, with a
/// seeded generator (the same names on every run): the property tests of the output writers.
public struct HostileNames: Sendable {
    public static let pieces = [
        "\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{85}", "\u{0}", "\u{1B}[2J", "\u{7}", "]]", "]=]", "--", "--[[", "|", "<",
        ">", "&", "#", "`", "\"", "'", "\\", "\")", "') do return end --", "end)", "describe('INJECTED', function() end)",
        "ok 9 - forged", "not ok", "1..1", "# heading", "[x](http://e.example)", "![i](http://t.example/p.png)", " ", "a", "é",
        "\u{202E}", "%d", "\\n", "\u{1}2",
    ]

    private var state: UInt64

    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A name of 2 to 6 pieces, starting with `prefix` so names of one run differ.
    public mutating func name(_ prefix: String) -> String {
        let count = 2 + Int(next() % 5)
        return prefix + (0..<count).map { _ in Self.pieces[Int(next() % UInt64(Self.pieces.count))] }.joined()
    }
}
