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
    func tap() throws {
        let project = try Self.mixedProject()
        defer { project.remove() }
        let output = try CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(output.status == 1)
        let lines = output.lines
        #expect(lines.first == "TAP version 14")
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
        #expect(output.stdout.contains("  expected: \"true\""))
        #expect(output.stdout.contains("  actual: \"false\""))
    }

    @Test("JUnit: valid XML with a suite per flow file and a failure per failed test")
    func junit() throws {
        let project = try Self.mixedProject()
        defer { project.remove() }
        let reportURL = project.url.appendingPathComponent("out/report.xml")
        let output = try CLIRunner.run(["test", project.path, "--format", "junit", "--output", reportURL.path])
        #expect(output.status == 1)
        #expect(output.lines.last == "1 passed, 2 failed", "the summary still ends standard output")
        let data = try Data(contentsOf: reportURL)
        let collector = XMLCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        #expect(parser.parse(), "invalid XML: \(parser.parserError.map { "\($0)" } ?? "")\n\(String(decoding: data, as: UTF8.self))")
        #expect(collector.elements.first?.name == "testsuites")
        #expect(collector.elements.first?.attributes["tests"] == "3")
        #expect(collector.elements.first?.attributes["failures"] == "2")
        let suites = collector.elements.filter { $0.name == "testsuite" }.compactMap { $0.attributes["name"] }
        #expect(suites == ["flows/a.lua", "flows/b.lua"])
        let cases = collector.elements.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["name"] } == [
            "detail <&> \"quotes\" › passes", "detail <&> \"quotes\" › fails # with a hash", "did not load",
        ])
        #expect(cases[1].attributes["line"] == "3")
        #expect(collector.elements.filter { $0.name == "failure" }.count == 2)
        #expect(collector.text.contains("printed <output>"))
    }

    @Test("JUnit without --output goes to standard output as a whole XML document")
    func junitToStandardOutput() throws {
        let output = try CLIRunner.run(["test", "Scripts", "--format", "junit", "--filter", "dialogs"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("<?xml"))
        #expect(output.lines.last == "</testsuites>")
        let parser = XMLParser(data: Data(output.stdout.utf8))
        #expect(parser.parse())
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
