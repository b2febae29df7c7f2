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

    private var random: SeededRandom

    public init(seed: UInt64) { random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 | 1) }

    /// A name of 2 to 6 pieces, starting with `prefix` so names of one run differ.
    public mutating func name(_ prefix: String) -> String {
        let count = random.int(in: 2...6)
        return prefix + (0..<count).map { _ in random.pick(Self.pieces) }.joined()
    }
}
