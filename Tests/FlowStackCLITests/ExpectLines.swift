import FlowStackTestSupport
import Testing

/// Expects, for each of `prefixes`, a line of `output`'s standard output that starts with it
/// (the report names the missing one and shows the whole output).
func expectLines(of output: CLIRunner.Output, startingWith prefixes: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for prefix in prefixes {
        #expect(output.lines.contains { $0.hasPrefix(prefix) }, "missing: \(prefix)\n\(output.stdout)", sourceLocation: sourceLocation)
    }
}
