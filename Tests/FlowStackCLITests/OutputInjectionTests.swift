import FlowLua
import FlowLuaTestSupport
import FlowStackCore
import FlowStackTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Generated hostile names and messages through every writer of the CLI, the output read back
/// by a real parser where one exists: Lua's own `load` for emitted flows and annotations, an XML
/// parser for JUnit, `prove` for TAP when it is installed (a strict line check always), the
/// table shape of the Markdown comment. No name or message may add, end or forge a record.
@Suite("Output property: hostile names and messages through every CLI writer")
struct OutputInjectionTests {
    /// The names of one generated project.
    struct Names {
        let route, param, dialog, fact, host, message, reason, file, group, test, failing: String

        init(seed: Int) {
            var names = HostileNames(seed: UInt64(seed) + 1_000)
            route = names.name("r")
            param = names.name("p")
            dialog = names.name("d")
            fact = names.name("f")
            host = names.name("h")
            message = names.name("m")
            reason = names.name("why")
            // A file name holds anything but '/' and NUL.
            file = names.name("file").filter { $0 != "/" && $0 != "\u{0}" }
            group = names.name("g")
            test = names.name("t")
            failing = names.name("x")
        }
    }

    static func project(_ names: Names, rules: String, flows: Bool = true) throws -> TemporaryProject {
        let q = FlowLuaSourceText.string
        var files = [
            "routes.lua": """
                return {
                  root = "home",
                  routes = { home = {}, [\(q(names.route))] = { params = { [\(q(names.param))] = "string" } } },
                  dialogs = { \(q(names.dialog)) },
                  facts = { [\(q(names.fact))] = false },
                  explore = { params = { [\(q(names.param))] = { \(q(names.message)) } } },
                }
                """,
            "rules/guard.lua": rules,
        ]
        if flows {
            files["flows/\(names.file).lua"] = """
                describe(\(q(names.group)), function()
                  it(\(q(names.test)), function()
                    print(\(q(names.message)))
                    router.push({ name = \(q(names.route)), [\(q(names.param))] = "1" })
                  end)
                  it(\(q(names.failing)), function() expect(\(q(names.message))).to_be(\(q(names.reason))) end)
                end)
                """
        }
        return try TemporaryProject(files)
    }

    static func erroring(_ names: Names) -> String {
        "flow.guard(\(FlowLuaSourceText.string(names.route)), function(op) error(\(FlowLuaSourceText.string(names.message))) end)\n"
    }

    static func refusing(_ names: Names) -> String {
        "flow.guard(\(FlowLuaSourceText.string(names.route)), function(op) return false, \(FlowLuaSourceText.string(names.reason)) end)\n"
    }

    /// Whether a line holds a character that ends a line or that a terminal acts on.
    static func isClean(_ line: Substring) -> Bool {
        !line.unicodeScalars.contains { FlowTerminalText.breaksOrControls($0) && $0 != "\t" }
    }

    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("flowstack test: pretty, TAP and JUnit keep one record per line", arguments: 0..<6)
    func testReports(seed: Int) async throws {
        let names = Names(seed: seed)
        let project = try Self.project(names, rules: Self.erroring(names))
        defer { project.remove() }

        let pretty = try await CLIRunner.run(["test", project.path])
        #expect(pretty.status == 1, "\(pretty.stdout)\(pretty.stderr)")
        let prettyLines = Self.lines(pretty.stdout).dropLast()
        for line in prettyLines { #expect(Self.isClean(line), "\(line)") }
        #expect(prettyLines.last == "1 passed, 1 failed", "\(pretty.stdout)")
        #expect(prettyLines.filter { $0.wholeMatch(of: #/\d+ passed, \d+ failed/#) != nil }.count == 1)
        // The two tests, then the failed one again in the recap.
        #expect(prettyLines.filter { $0.hasPrefix("  ✓ ") || $0.hasPrefix("  ✗ ") }.count == 3, "\(pretty.stdout)")
        let header = try #require(prettyLines.firstIndex { $0.hasPrefix("Script errors the rules raised") }, "\(pretty.stdout)")
        #expect(prettyLines[header + 1].hasPrefix("  rules/guard.lua:1: "), "\(prettyLines[header + 1])")

        let tap = try await CLIRunner.run(["test", project.path, "--format", "tap"])
        #expect(tap.status == 1)
        try Self.checkTAP(tap.stdout, tests: 2, failed: 1)

        let junit = try await CLIRunner.run(["test", project.path, "--format", "junit"])
        let document = try XMLDocument(xmlString: junit.stdout, options: [])
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 2, "\(junit.stdout)")
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
    }

    /// Every line is one a TAP producer writes; `ok`/`not ok` lines and the plan are exactly
    /// the report's own. Then `prove`, where installed, counts the same tests.
    static func checkTAP(_ text: String, tests: Int, failed: Int) throws {
        var inBlock = false
        var results = 0
        var notOK = 0
        var plans = 0
        for line in lines(text).dropLast() {
            #expect(isClean(line), "\(line)")
            if inBlock {
                #expect(line.hasPrefix("  "), "\(line)")
                if line == "  ..." { inBlock = false }
                continue
            }
            if line == "TAP version 13" || line.hasPrefix("# ") { continue }
            if line == "  ---" { inBlock = true; continue }
            if line.wholeMatch(of: #/1\.\.\d+/#) != nil { plans += 1; continue }
            if line.firstMatch(of: #/^ok \d+ - /#) != nil { results += 1; continue }
            if line.firstMatch(of: #/^not ok \d+ - /#) != nil { results += 1; notOK += 1; continue }
            Issue.record("a line TAP does not know: \(line)")
        }
        #expect(results == tests && notOK == failed && plans == 1, "\(text)")
        guard let prove = ["/usr/bin/prove", "/usr/local/bin/prove", "/opt/homebrew/bin/prove"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-\(UUID().uuidString).tap")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prove)
        process.arguments = ["--exec", "cat", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output.contains("Tests=\(tests),"), "\(output)")
        #expect(!output.contains("Parse errors"), "\(output)")
    }

    @Test("flowstack types: names stay in their annotations; the file loads in Lua", arguments: 0..<6)
    func types(seed: Int) async throws {
        let names = Names(seed: seed)
        let project = try Self.project(names, rules: Self.erroring(names)
            + "local function ask() return host.\(FlowLuaSourceText.isIdentifier(names.host) ? names.host : "x")() end\n")
        defer { project.remove() }
        let plain = try TemporaryProject(["routes.lua": """
            return { root = "home", routes = { home = {}, r = { params = { p = "string" } } }, dialogs = { "d" }, facts = { f = false } }
            """, "rules/guard.lua": "local function ask() return host.x() end\n"])
        defer { plain.remove() }
        let hostile = try await CLIRunner.run(["types", project.path])
        let baseline = try await CLIRunner.run(["types", plain.path])
        #expect(hostile.status == 0 && baseline.status == 0, "\(hostile.stderr)")
        for line in Self.lines(hostile.stdout) { #expect(Self.isClean(line), "\(line)") }
        // Names only ever appear in comments: the code lines are those of a project with plain names.
        let code = { (text: String) in Self.lines(text).filter { !$0.hasPrefix("--") && !$0.isEmpty } }
        let extra = Set(code(hostile.stdout)).symmetricDifference(code(baseline.stdout))
        #expect(code(hostile.stdout).count == code(baseline.stdout).count && extra.isEmpty, "\(extra)")
        try await MainActor.run {
            let vm = try LuaVM()
            #expect(try run(vm, hostile.stdout + "\nreturn 'loaded'", chunkName: "flowstack.d.lua") == [.string("loaded")])
        }
    }

    @Test("flowstack explore: findings one per line; emitted flows load, hold one test each and fail on the broken rules",
          arguments: 0..<4)
    func explore(seed: Int) async throws {
        let names = Names(seed: seed)
        let project = try Self.project(names, rules: Self.erroring(names), flows: false)
        defer { project.remove() }
        let emitted = project.url.appendingPathComponent("emitted")
        let explored = try await CLIRunner.run(["explore", project.path, "--depth", "3", "--emit-flows", emitted.path])
        #expect(explored.status == 1, "\(explored.stdout)\(explored.stderr)")
        let kinds = ["rule-error", "redirect-loop", "trap", "invariant", "unreachable", "dead-rule", "unanswered-host"]
        for line in Self.lines(explored.stdout).dropLast() {
            #expect(Self.isClean(line), "\(line)")
            let known = kinds.contains { line.hasPrefix($0) } || line.hasPrefix("  facts: ") || line.hasPrefix("  trace: ")
                || line.hasPrefix("explored ") || line.hasPrefix("routes shown only") || line.hasPrefix("  ")
            #expect(known, "\(line)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: emitted.path).sorted()
        #expect(!files.isEmpty)
        // Run them as the project's flows: one test per file, each failing while the rules are broken.
        let replay = try TemporaryProject([:])
        defer { replay.remove() }
        try FileManager.default.createDirectory(at: replay.url.appendingPathComponent("flows"), withIntermediateDirectories: true)
        for name in ["routes.lua", "rules"] {
            try FileManager.default.copyItem(at: project.url.appendingPathComponent(name), to: replay.url.appendingPathComponent(name))
        }
        for file in files {
            let text = try String(contentsOf: emitted.appendingPathComponent(file), encoding: .utf8)
            try text.write(to: replay.url.appendingPathComponent("flows/\(file)"), atomically: true, encoding: .utf8)
            try await MainActor.run {
                let vm = try LuaVM()
                _ = try vm.load(source: text, chunkName: "flows/\(file)")
            }
        }
        let listed = try await CLIRunner.run(["test", replay.path, "--list"])
        #expect(listed.lines.last == "\(files.count) test\(files.count == 1 ? "" : "s")", "\(listed.stdout)")
        let replayed = try await CLIRunner.run(["test", replay.path])
        #expect(replayed.lines.last == "0 passed, \(files.count) failed", "\(replayed.stdout)")
    }

    @Test("flowstack diff --format markdown: every row keeps its cells, no text becomes markup", arguments: 0..<6)
    func markdown(seed: Int) async throws {
        let names = Names(seed: seed)
        let old = try Self.project(names, rules: "", flows: false)
        let new = try Self.project(names, rules: Self.refusing(names), flows: false)
        defer { old.remove(); new.remove() }
        let diff = try await CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--format", "markdown"])
        let lines = Self.lines(diff.stdout).dropLast()
        #expect(lines.first == "## Navigation rules diff", "\(diff.stdout)")
        var columns: Int?
        for line in lines.dropFirst() {
            #expect(Self.isClean(line), "\(line)")
            #expect(!line.hasPrefix("#") && !line.hasPrefix(">") && !line.hasPrefix("<"), "\(line)")
            guard line.hasPrefix("|") else { columns = nil; continue }
            let cells = Self.cells(line)
            if let columns { #expect(cells == columns, "\(line)") } else { columns = cells }
        }
        #expect(diff.stdout.contains("more-restrictive") || diff.stdout.contains("changed"), "\(diff.stdout)")
        let pretty = try await CLIRunner.run(["diff", old.path, new.path, "--depth", "2"])
        for line in Self.lines(pretty.stdout) { #expect(Self.isClean(line), "\(line)") }
    }

    @Test("flowstack graph: names stay inside their Mermaid and DOT labels", arguments: 0..<4)
    func graph(seed: Int) async throws {
        let names = Names(seed: seed)
        let project = try Self.project(names, rules: Self.refusing(names))
        defer { project.remove() }
        for format in ["mermaid", "dot"] {
            let graph = try await CLIRunner.run(["graph", project.path, "--format", format])
            #expect(graph.status == 0, "\(graph.stderr)")
            let lines = Self.lines(graph.stdout).dropLast()
            #expect(lines.count > 3, "\(graph.stdout)")
            for line in lines { #expect(Self.isClean(line), "\(line)") }
            // Every statement is one the writer makes: labels quoted, nothing after them but syntax.
            let first = format == "mermaid" ? "flowchart LR" : "digraph flowstack {"
            #expect(lines.first.map(String.init) == first)
            for line in lines.dropFirst() {
                let trimmed = line.drop { $0 == " " }
                #expect(!trimmed.hasPrefix("click") && !trimmed.hasPrefix("style ") && !trimmed.hasPrefix("<"), "\(line)")
                if format == "dot" { #expect(Self.dotBalanced(trimmed), "\(line)") }
            }
        }
    }

    /// Whether every DOT string on the line is closed (quotes not escaped pair up).
    static func dotBalanced(_ line: Substring) -> Bool {
        var inside = false
        var escaped = false
        for character in line {
            if escaped { escaped = false; continue }
            if inside, character == "\\" { escaped = true; continue }
            if character == "\"" { inside.toggle() }
        }
        return !inside
    }

    /// The cells of a GFM table row: its pipes not escaped with a backslash, less one.
    static func cells(_ row: Substring) -> Int {
        var pipes = 0
        var escaped = false
        for character in row {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true } else if character == "|" { pipes += 1 }
        }
        return pipes - 1
    }
}
