import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack --help")
struct HelpTests {
    @Test("every command's help shows a real example", arguments: [
        ([], "flowstack test Scripts --filter paywall"),
        (["test"], "flowstack test Scripts --format junit --output"),
        (["check"], "flowstack check Scripts"),
        (["watch"], "flowstack watch Scripts --filter paywall"),
        (["graph"], "flowstack graph Scripts --format dot | dot -Tsvg"),
        (["types"], "flowstack types Scripts > Scripts/flowstack-types.lua"),
        (["keygen"], "flowstack keygen --private-key rules.key --public-key rules.pub"),
        (["bundle"], "flowstack bundle Scripts --key rules.key --version 1.4.0"),
    ])
    func example(command: [String], example: String) async throws {
        let output = try await CLIRunner.run(command + ["--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Examples:"))
        #expect(output.stdout.contains(example), "\(output.stdout)")
    }

    @Test("an unknown option says what is accepted")
    func unknownOption() async throws {
        let output = try await CLIRunner.run(["test", "--format", "xml"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("pretty"))
        #expect(output.stderr.contains("junit"))
    }

    @Test("--version names FlowStack's version and the Lua release it runs")
    func version() async throws {
        let output = try await CLIRunner.run(["--version"])
        #expect(output.status == 0)
        let line = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.range(of: #"^flowstack \d+\.\d+\.\d+ \(Lua 5\.4\.\d+\)$"#, options: .regularExpression) != nil, "\(line)")
    }
}
