import FlowStackTestSupport
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("flowstack test --format")
struct ReportFormatTests {
    /// A project with one passing test, one failing test and one flow that does not load.
    static func mixedProject() throws -> TemporaryProject {
        try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/a.lua": """
                describe("detail <&> \\"quotes\\"", function()
                  it("passes", function() expect(router.top()).to_equal({ name = "home" }) end)
                  it("fails # with a hash", function()
                    print("printed <output>")
                    expect(router.push({ name = "detail", id = "1" }).applied).to_be(true)
                  end)
                end)
                """,
            "flows/b.lua": "it(\"x\", function(\n",
        ])
    }

    @Test("TAP: version, one test line per test, YAML blocks for failures, the plan")
    func tap() async throws {
        let project = try Self.mixedProject()
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(output.status == 1)
        let lines = output.lines
        #expect(lines.first == "TAP version 13")
        let tests = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(tests.count == 3)
        #expect(tests[0] == "ok 1 - flows/a.lua › detail <&> \"quotes\" › passes")
        #expect(tests[1] == "not ok 2 - flows/a.lua › detail <&> \"quotes\" › fails \\# with a hash")
        #expect(tests[2].hasPrefix("not ok 3 - flows/b.lua › did not load"))
        #expect(lines.contains("1..3"))
        #expect(lines.last == "# 1 passed, 2 failed")
        // Every line is TAP: a version, a test line, the plan, a comment, or an indented YAML block.
        var inYAML = false
        for line in lines {
            if line == "  ---" { inYAML = true; continue }
            if line == "  ..." { inYAML = false; continue }
            if inYAML {
                #expect(line.hasPrefix("  "), "YAML block lines are indented: \(line)")
                continue
            }
            let valid = line.hasPrefix("TAP version") || line.hasPrefix("ok ") || line.hasPrefix("not ok ")
                || line.hasPrefix("#") || line.wholeMatch(of: /1\.\.\d+/) != nil
            #expect(valid, "not a TAP line: \(line)")
        }
        #expect(output.stdout.contains("  message: \"expect(actual).to_be(expected): the values differ\""))
        #expect(output.stdout.contains("  at: \"flows/a.lua:5\""))
        #expect(output.stdout.contains("  line: 5"), "numbers are typed")
        #expect(output.stdout.contains("  severity: fail"))
        #expect(output.stdout.contains("  expected: \"true\""))
        #expect(output.stdout.contains("  actual: \"false\""))
    }

    @Test("TAP: a list item whose first word ends with a colon is written so that prove reads it as text")
    func tapListItemsWithColons() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "flows/a.lua": """
                it("fails", function()
                  print("auth: signed out")
                  print("at:")
                  print("no colon here, then: one")
                  expect({ id = "1", text = string.rep("a", 70) }).to_equal({ id = "2", text = string.rep("a", 70) })
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(output.status == 1)
        #expect(output.lines.contains(#"    - "auth\x3A signed out""#), "\(output.stdout)")
        #expect(output.lines.contains(#"    - "at\x3A""#))
        #expect(output.lines.contains(#"    - "no colon here, then: one""#))
        #expect(output.lines.contains(#"    - ".id\x3A expected \"2\", got \"1\"""#))
        // No list line of the report starts with a word that ends with a colon.
        for line in output.lines where line.hasPrefix("    - ") {
            #expect(line.dropFirst(6).wholeMatch(of: /\S+:( .*)?/) == nil, "prove reads this line as a mapping: \(line)")
        }
    }

    @Test("JUnit: valid XML with a suite per flow file and a failure per failed test")
    func junit() async throws {
        let project = try Self.mixedProject()
        defer { project.remove() }
        let reportURL = project.url.appendingPathComponent("out/report.xml")
        let output = try await CLIRunner.run(["test", project.path, "--format", "junit", "--output", reportURL.path])
        #expect(output.status == 1)
        #expect(output.lines.last == "1 passed, 2 failed", "the summary still ends standard output")
        let data = try Data(contentsOf: reportURL)
        let collector = XMLCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        #expect(parser.parse(), "invalid XML: \(parser.parserError.map { "\($0)" } ?? "")\n\(String(decoding: data, as: UTF8.self))")
        #expect(collector.elements.first?.name == "testsuites")
        #expect(collector.elements.first?.attributes["tests"] == "2")
        #expect(collector.elements.first?.attributes["failures"] == "1")
        #expect(collector.elements.first?.attributes["errors"] == "1", "the flow file that did not load")
        let suites = collector.elements.filter { $0.name == "testsuite" }
        #expect(suites.compactMap { $0.attributes["name"] } == ["flows/a.lua", "flows/b.lua"])
        #expect(suites[1].attributes["tests"] == "0")
        #expect(suites[1].attributes["errors"] == "1")
        let cases = collector.elements.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["name"] } == [
            "detail <&> \"quotes\" › passes", "detail <&> \"quotes\" › fails # with a hash",
        ], "no pseudo test case for the file that did not load")
        #expect(cases[1].attributes["line"] == "3")
        #expect(collector.elements.filter { $0.name == "failure" }.count == 1)
        #expect(collector.text.contains("did not load: flows/b.lua:2"), "\(collector.text)")
        // The counts agree with the elements.
        let testsuites = try #require(collector.elements.first)
        let total = suites.reduce(0) { $0 + Int($1.attributes["tests"] ?? "0")! }
        #expect(Int(testsuites.attributes["tests"] ?? "") == total)
        #expect(total == cases.count)
        #expect(collector.text.contains("printed <output>"))
    }

    @Test("JUnit without --output goes to standard output as a whole XML document")
    func junitToStandardOutput() async throws {
        let output = try await CLIRunner.run(["test", "Scripts", "--format", "junit", "--filter", "dialogs"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("<?xml"))
        #expect(output.lines.last == "</testsuites>")
        let parser = XMLParser(data: Data(output.stdout.utf8))
        #expect(parser.parse())
    }
}

@Suite("flowstack test: errors, pending, prove and selection")
struct ReportDetailTests {
    static func project() throws -> TemporaryProject {
        try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/a.lua": """
                it("passes #fast", function() end)
                it("fails", function() expect(1).to_be(2) end)
                it("errors #slow", function() error("boom") end)
                pending("later")
                """,
        ])
    }

    @Test("JUnit: a runtime error is an <error> counted in errors; pending is <skipped/>")
    func junitErrors() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path, "--format", "junit"])
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(output.stdout.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        let top = try #require(collector.elements.first)
        #expect(top.attributes["tests"] == "4")
        #expect(top.attributes["failures"] == "1")
        #expect(top.attributes["errors"] == "1")
        #expect(top.attributes["skipped"] == "1")
        #expect(collector.elements.filter { $0.name == "failure" }.count == 1)
        #expect(collector.elements.filter { $0.name == "error" }.count == 1)
        #expect(collector.elements.filter { $0.name == "skipped" }.count == 1)
        let error = try #require(collector.elements.first { $0.name == "error" })
        #expect(error.attributes["message"] == "flows/a.lua:3: boom")
    }

    @Test("prove accepts the TAP output")
    func prove() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prove") else { return }
        let project = try Self.project()
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(output.stdout.contains("ok 4 - flows/a.lua › later # SKIP pending"))
        let tap = project.url.appendingPathComponent("report.tap")
        try Data(output.stdout.utf8).write(to: tap)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prove")
        process.arguments = ["--exec", "cat", tap.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("Failed 2/4 subtests"), "\(text)")
        #expect(text.contains("less 1 skipped subtest"), "\(text)")
        #expect(!text.contains("Parse errors"), "\(text)")
    }

    @Test("--list, --tags, --exclude-tags and --seed")
    func selection() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let list = try await CLIRunner.run(["test", project.path, "--list"])
        #expect(list.status == 0)
        #expect(list.lines == [
            "flows/a.lua:1  passes #fast", "flows/a.lua:2  fails", "flows/a.lua:3  errors #slow",
            "flows/a.lua:4  later (pending)", "4 tests",
        ], "\(list.stdout)")
        let fast = try await CLIRunner.run(["test", project.path, "--tags", "fast"])
        #expect(fast.status == 0)
        #expect(fast.lines.last == "1 passed, 0 failed")
        let notSlow = try await CLIRunner.run(["test", project.path, "--exclude-tags", "slow", "--list"])
        #expect(!notSlow.stdout.contains("errors #slow"))
        let seeded = try await CLIRunner.run(["test", project.path, "--seed", "42"])
        let again = try await CLIRunner.run(["test", project.path, "--seed", "42"])
        #expect(seeded.lines.first == "shuffled with --seed 42")
        #expect(seeded.lines.filter { $0.hasPrefix("  ") } == again.lines.filter { $0.hasPrefix("  ") })
        let shuffled = try await CLIRunner.run(["test", project.path, "--shuffle"])
        #expect(shuffled.lines.first?.wholeMatch(of: /shuffled with --seed \d+/) != nil)
    }

    @Test("What the rules print while they load shows before the tests, in every format")
    func rulesOutputWhileLoading() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": "print(\"auth <rules> loaded\")\n" + TemporaryProject.rules,
            "flows/a.lua": """
                it("pushes home's detail", function()
                  print("in the test")
                  expect(router.push({ name = "detail", id = "1" }).applied).to_be(false)
                end)
                """,
        ])
        defer { project.remove() }
        let pretty = try await CLIRunner.run(["test", project.path])
        #expect(pretty.status == 0, "\(pretty.stdout)")
        #expect(Array(pretty.lines.prefix(2)) == ["rules (printed while loading)", "      print: auth <rules> loaded"], "\(pretty.stdout)")
        #expect(pretty.lines.filter { $0.contains("print: ") } == ["      print: auth <rules> loaded", "      print: in the test"])

        let tap = try await CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(Array(tap.lines.prefix(2)) == ["TAP version 13", "# rules printed while loading: auth <rules> loaded"], "\(tap.stdout)")

        let junitURL = project.url.appendingPathComponent("report.xml")
        _ = try await CLIRunner.run(["test", project.path, "--format", "junit", "--output", junitURL.path])
        let collector = XMLCollector()
        let parser = XMLParser(data: try Data(contentsOf: junitURL))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.elements.first { $0.name == "testsuite" }?.attributes["name"] == "rules")
        #expect(collector.elements.first { $0.name == "testsuite" }?.attributes["tests"] == "0")
        #expect(collector.text.contains("auth <rules> loaded"))

        let file = project.url.appendingPathComponent("report.txt")
        _ = try await CLIRunner.run(["test", project.path, "--output", file.path])
        let written = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        #expect(Array(written.prefix(2)) == ["rules (printed while loading)", "      print: auth <rules> loaded"])
    }
}

/// Collects the elements and text of an XML document.
final class XMLCollector: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
    }

    private(set) var elements: [Element] = []
    private(set) var text = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}
