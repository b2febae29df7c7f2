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

    @Test("check --help's discussion keeps its column: no line runs past 72 characters")
    func checkHelpWraps() async throws {
        let output = try await CLIRunner.run(["check", "--help"])
        // The discussion: after the overview line, before the usage.
        let discussion = output.stdout.components(separatedBy: "USAGE:").first ?? ""
        let long = discussion.components(separatedBy: "\n").dropFirst().filter { $0.count > 72 }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
        #expect(output.stdout.contains("-- flowstack: ignore"), "\(output.stdout)")
    }

    @Test("every `flowstack test` example of test --help runs as written on the example project, and passes")
    func testExamplesRun() async throws {
        let help = try await CLIRunner.run(["test", "--help"])
        let examples = help.stdout.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("flowstack test") }
        #expect(examples.count >= 10, "\(help.stdout)")
        // A copy of the project and of the paths the examples write (.build/...), in a temporary directory.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-help-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Scripts"), to: directory.appendingPathComponent("Scripts"))
        for example in examples {
            let command = example.components(separatedBy: "  (").first!
            let arguments = command.split(separator: " ").dropFirst().map { $0.replacingOccurrences(of: "\"", with: "") }
            let output = try await CLIRunner.run(arguments, in: directory)
            #expect(output.status == 0, "\(example): \(output.stdout)\(output.stderr)")
            if !arguments.contains("--list") {
                #expect(output.stdout.contains(" passed, 0 failed"), "\(example): \(output.stdout)")
            }
        }
    }

    @Test("an unknown option says what is accepted")
    func unknownOption() async throws {
        let output = try await CLIRunner.run(["test", "--format", "xml"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("pretty"))
        #expect(output.stderr.contains("junit"))
    }

    @Test("a command name that is not one says so, with did you mean and the commands (usage error)")
    func unknownCommand() async throws {
        let output = try await CLIRunner.run(["chek", "Scripts"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("unknown command 'chek' (did you mean 'check'?)"), "\(output.stderr)")
        #expect(output.stderr.contains("test, check, watch, graph, types, bundle, keygen, serve, explore, diff"))
        let far = try await CLIRunner.run(["frobnicate"])
        #expect(far.status == 64)
        #expect(far.stderr.contains("unknown command 'frobnicate'; the commands are"), "\(far.stderr)")
        let helpTypo = try await CLIRunner.run(["help", "expore"])
        #expect(helpTypo.status == 64)
        #expect(helpTypo.stderr.contains("unknown command 'expore' (did you mean 'explore'?)"), "\(helpTypo.stderr)")
        let help = try await CLIRunner.run(["help", "check"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("flowstack check [<directory>]"), "\(help.stdout)")
    }

    @Test("--version names FlowStack's version and the Lua release it runs")
    func version() async throws {
        let output = try await CLIRunner.run(["--version"])
        #expect(output.status == 0)
        let line = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.range(of: #"^flowstack \d+\.\d+\.\d+ \(Lua 5\.4\.\d+\)$"#, options: .regularExpression) != nil, "\(line)")
    }
}
