/// Where a deep link was registered, for diagnostics (filled in by the Lua side).
public struct FlowLinkSourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as it should be shown (for example `rules/links.lua`).
    public let file: String
    /// The 1-based line, if known.
    public let line: Int?

    /// Creates a location.
    public init(file: String, line: Int? = nil) {
        self.file = file
        self.line = line
    }

    /// `file:line`, or `file` when the line is unknown.
    public var description: String { line.map { "\(file):\($0)" } ?? file }
}
