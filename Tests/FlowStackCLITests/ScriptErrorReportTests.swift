import FlowStackTestSupport
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("flowstack test: script errors the rules raise")
struct ScriptErrorReportTests {
    /// A project whose guard calls a host no test stubs: the navigation is refused, the test
    /// (which does not look at the result) passes.
    static func project() throws -> TemporaryProject {
        try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": """
                flow.guard("detail", function(op)
                  if not host.verify() then return false, "not verified" end
                end)
                """,
            "flows/a.lua": """
                it("opens detail", function() router.push({ name = "detail", id = "1" }) end)
                it("stays home", function() expect(router.top()).to_equal({ name = "home" }) end)
                """,
        ])
    }

    @Test("pretty: listed with file:line before the summary; --strict fails the run")
    func pretty() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let lenient = try await CLIRunner.run(["test", project.path])
        #expect(lenient.status == 0, "\(lenient.stdout)")
        let lines = lenient.lines
        let header = try #require(lines.firstIndex { $0.hasPrefix("Script errors the rules raised (the tests' expectations decide; --strict fails them):") }, "\(lenient.stdout)")
        #expect(lines[header + 1].hasPrefix("  rules/auth.lua:2: script error in a rule (it refused push detail"), "\(lines[header + 1])")
        #expect(lines[header + 1].hasSuffix("(flows/a.lua › opens detail)"))
        #expect(lines.last == "2 passed, 0 failed")
        #expect(lines.contains { $0.contains("2 tests in") && $0.contains("1 script error") })

        let strict = try await CLIRunner.run(["test", project.path, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.lines.last == "1 passed, 1 failed", "\(strict.stdout)")
        #expect(strict.stdout.contains("  ✗ opens detail"))

        // The pretty report written to a file lists them before the summary too.
        let file = project.url.appendingPathComponent("report.txt")
        #expect(try await CLIRunner.run(["test", project.path, "--output", file.path]).status == 0)
        let written = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(written.last == "2 passed, 0 failed")
        #expect(written.dropLast().last?.hasPrefix("rules/auth.lua:2: script error in a rule") == true, "\(written)")
    }

    @Test("TAP: a comment line per script error; --strict makes the test not ok")
    func tap() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let lenient = try await CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(lenient.status == 0)
        #expect(lenient.lines.contains("ok 1 - flows/a.lua › opens detail"), "\(lenient.stdout)")
        #expect(lenient.lines.contains { $0.hasPrefix("# rules/auth.lua:2: script error in a rule") }, "\(lenient.stdout)")
        let strict = try await CLIRunner.run(["test", project.path, "--format", "tap", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.lines.contains("not ok 1 - flows/a.lua › opens detail"), "\(strict.stdout)")
        #expect(strict.lines.contains("  file: \"rules/auth.lua\""))
    }

    @Test("JUnit: <system-err> of the test case; --strict makes it an <error>")
    func junit() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let lenient = try await CLIRunner.run(["test", project.path, "--format", "junit"])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("<system-err>rules/auth.lua:2: script error in a rule"), "\(lenient.stdout)")
        #expect(!lenient.stdout.contains("<error"))
        let strict = try await CLIRunner.run(["test", project.path, "--format", "junit", "--strict"])
        #expect(strict.status == 1)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(strict.stdout.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        let top = try #require(collector.elements.first)
        #expect(top.attributes["errors"] == "1", "\(strict.stdout)")
        let error = try #require(collector.elements.first { $0.name == "error" })
        #expect(error.attributes["message"]?.hasPrefix("rules/auth.lua:2: script error in a rule") == true)
    }
}

@Suite("flowstack test --strict on the example")
struct StrictExampleTests {
    @Test("the example passes --strict: its expected script errors are taken with app.scriptErrors()")
    func example() async throws {
        let output = try await CLIRunner.run(["test", "Scripts", "--strict"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains("Script errors the rules raised"), "\(output.stdout)")
    }
}

@Suite("flowstack watch: pending tests and script errors")
struct WatchPendingTests {
    @Test("pending tests are listed as pending, not as failures")
    func pending() throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/f.lua": "it(\"runs\", function() end)\npending(\"later\")\nit(\"someday\")\n",
        ])
        defer { project.remove() }
        let command = try RunningCommand(["watch", project.path])
        defer { command.stop() }
        let output = command.output
        let summary = output.waitForLine(containing: "1 passed, 0 failed", timeout: 30)
        #expect(summary?.contains(", 2 pending") == true, "\(output.text)")
        #expect(!output.text.contains("✗"), "\(output.text)")
        #expect(output.text.contains("- flows/f.lua › later (pending)"), "\(output.text)")
    }

    @Test("script errors are listed; --strict makes them failures")
    func scriptErrors() throws {
        let project = try ScriptErrorReportTests.project()
        defer { project.remove() }
        let command = try RunningCommand(["watch", project.path, "--strict"])
        defer { command.stop() }
        let output = command.output
        let summary = output.waitForLine(containing: "1 passed, 1 failed", timeout: 30)
        #expect(summary != nil, "\(output.text)")
        #expect(output.text.contains("✗ flows/a.lua › opens detail"), "\(output.text)")
        #expect(output.text.contains("! rules/auth.lua:2: script error in a rule"), "\(output.text)")
    }
}
