import FlowStackTestSupport
import Foundation
import Testing

/// The README's rules file and flow test, as a new user copies them: every ```lua block of
/// README.md whose first line names a file of the project (`-- Scripts/routes.lua`,
/// `-- Scripts/rules/20-paywall.lua`, `-- Scripts/flows/paywall.lua`) is written there, and
/// `flowstack test` and `flowstack check` must pass on the project they make, with no change.
@Suite("The README's project, copied as it is")
struct ReadmeProjectTests {
    /// The project files the README's Lua blocks name (relative path → the block's text).
    static func readmeFiles() throws -> [String: String] {
        let readme = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var files: [String: String] = [:]
        var block: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if block == nil, line.trimmingCharacters(in: .whitespaces) == "```lua" {
                block = []
            } else if let lines = block, line.trimmingCharacters(in: .whitespaces) == "```" {
                block = nil
                guard let first = lines.first, first.hasPrefix("-- Scripts/") else { continue }
                let path = first.dropFirst("-- ".count).prefix { !$0.isWhitespace && $0 != ":" }
                guard path.hasSuffix(".lua") else { continue }
                files[String(path)] = lines.joined(separator: "\n") + "\n"
            } else if block != nil {
                block?.append(line)
            }
        }
        return files
    }

    @Test("the README's Lua blocks make a project whose flows pass under --strict and which check finds clean")
    func readmeProjectPasses() async throws {
        let files = try Self.readmeFiles()
        let flows = files.filter { $0.key.hasPrefix("Scripts/flows/") }
        #expect(files.keys.contains { $0.hasPrefix("Scripts/rules/") }, "no rules file in the README: \(files.keys.sorted())")
        try #require(!flows.isEmpty, "no flow test in the README: \(files.keys.sorted())")
        // Each `it(` of the README's flows is one test that must pass.
        let tests = flows.values.map { $0.components(separatedBy: "it(\"").count - 1 }.reduce(0, +)

        let project = try TemporaryProject(files)
        defer { project.remove() }
        let scripts = project.url.appendingPathComponent("Scripts").path

        let test = try await CLIRunner.run(["test", scripts, "--strict"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.lines.last == "\(tests) passed, 0 failed", "\(test.stdout)\(test.stderr)")
        #expect(!test.stdout.contains("script error"), "\(test.stdout)")

        let check = try await CLIRunner.run(["check", scripts])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.lines.last?.hasSuffix(": 0 errors, 0 warnings") == true, "\(check.stdout)\(check.stderr)")
    }
}
