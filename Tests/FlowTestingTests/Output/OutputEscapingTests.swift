import FlowLua
import FlowLuaTestSupport
import FlowStackCore
@testable import FlowTesting
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Inputs no writer may let out of their place: quotes, backslashes, every line break, NUL and
/// terminal controls, Lua's long brackets and comments, Markdown and HTML markup, TAP's
/// directives, bytes that are not UTF-8 (decoded as files and processes decode them) and a
/// 100 KB string.
enum HostileText {
    /// The inputs, each named by its first characters shown escaped.
    static var cases: [HostileCase] { texts.map(HostileCase.init) }

    static let texts: [String] = [
        "plain", "", "quote \" and ' apostrophe", "back\\slash\\", "line\nbreak", "carriage\rreturn", "crlf\r\nend",
        "line\u{2028}separator\u{2029}paragraph", "next\u{85}line", "nul\u{0}byte", "esc\u{1B}[2J\u{1B}[1;1H",
        "bel\u{7}\u{8}backspace", "del\u{7F}", "]] and ]=] and [[ and [==[", "-- comment --[[ block", "pipe | cell | ",
        "<b>tag</b> <img src=x onerror=alert(1)>", "a & b &amp; &#10;", "# heading\n## two", "`code` and ``two``",
        "ok 99 - forged", "not ok 1 - forged\n1..1", "[link](http://example.com) ![img](http://t.example/p.png)",
        "*em* _em_ ~~del~~", "\u{1}2 a control then a digit", "tab\there", "bidi \u{202E}desrever\u{202C}",
        "x\") do return end --", "é ✓ 🙂", String(decoding: [0x66, 0xFF, 0xFE, 0x80, 0xC3, 0x28, 0x6F], as: UTF8.self),
        String(repeating: "x\n\"|`#\u{1B}", count: 100_000 / 7),
    ]

    /// Every character that ends a line somewhere (Lua, a terminal, an editor, YAML, Markdown).
    static func hasLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) }
    }

    /// Whether `text` holds a character a terminal acts on (controls but tab).
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { FlowTerminalText.breaksOrControls($0) && $0 != "\t" }
    }

    /// A short name for a case in a failure message.
    static func label(_ text: String) -> String {
        String(FlowTerminalText.line(text).prefix(60))
    }
}

/// One hostile input, named in test output by its first characters shown escaped.
struct HostileCase: Sendable, CustomTestStringConvertible {
    let text: String
    var testDescription: String { HostileText.label(text) }
}

@Suite("Output escaping: one function per format, hostile inputs")
@MainActor
struct OutputEscapingTests {
    @Test("Lua strings read back as exactly the text, on one line", arguments: HostileText.cases)
    func luaString(_ hostile: HostileCase) throws {
        let text = hostile.text
        let literal = FlowLuaSourceText.string(text)
        #expect(!HostileText.hasLineBreak(literal), "\(HostileText.label(text))")
        #expect(!HostileText.hasControl(literal.replacingOccurrences(of: "\t", with: "")))
        let vm = try LuaVM()
        #expect(try run(vm, "return " + literal) == [.string(text)], "\(HostileText.label(text))")
        // As a value of a table, through the value writer.
        #expect(try run(vm, "return (" + FlowScriptValue.table(["k": .string(text)]).luaSource + ").k") == [.string(text)])
    }

    @Test("Lua table keys are bare identifiers or quoted keys that read back", arguments: HostileText.cases + ["end", "1st", "_ok", "name"].map(HostileCase.init))
    func luaKey(_ hostile: HostileCase) throws {
        let name = hostile.text
        let key = FlowLuaSourceText.key(name)
        #expect(!HostileText.hasLineBreak(key))
        #expect(key == name || key.hasPrefix("[\""), "\(HostileText.label(name))")
        let vm = try LuaVM()
        #expect(try run(vm, "local t = { \(key) = 1 } return next(t)") == [.string(name), .integer(1)], "\(HostileText.label(name))")
        #expect(try run(vm, "local t = { \(key) = 2 } return \(FlowLuaSourceText.field("t", name))") == [.integer(2)])
    }

    @Test("Lua comments stay one line: the code after them runs, none inside them", arguments: HostileText.cases)
    func luaComment(_ hostile: HostileCase) throws {
        let text = hostile.text
        let comment = FlowLuaSourceText.comment(text)
        #expect(!HostileText.hasLineBreak(comment), "\(HostileText.label(text))")
        let vm = try LuaVM()
        #expect(try run(vm, "-- \(comment)\nreturn 42") == [.integer(42)], "\(HostileText.label(text))")
        #expect(try run(vm, "local x = 1 -- \(comment)\nreturn x") == [.integer(1)])
    }

    @Test("The terminal shows any text on one line, without a control a terminal acts on", arguments: HostileText.cases)
    func terminal(_ hostile: HostileCase) {
        let text = hostile.text
        let shown = FlowTerminalText.line(text)
        #expect(!HostileText.hasLineBreak(shown), "\(HostileText.label(text))")
        #expect(!HostileText.hasControl(shown), "\(HostileText.label(text))")
        if !HostileText.hasControl(text) { #expect(shown == text) }
    }

    @Test("Each control is shown by name or code point", arguments: [
        ("a\nb", "a\\nb"), ("a\rb", "a\\rb"), ("a\r\nb", "a\\r\\nb"), ("\u{1B}[2J", "\\u{1B}[2J"), ("\u{0}", "\\u{0}"),
        ("\u{7}", "\\u{7}"), ("\u{2028}\u{2029}", "\\u{2028}\\u{2029}"), ("\u{85}", "\\u{85}"), ("\u{202E}", "\\u{202E}"),
        ("tab\tkept", "tab\tkept"), ("é ✓", "é ✓"),
    ])
    func terminalNames(_ pair: (String, String)) {
        #expect(FlowTerminalText.line(pair.0) == pair.1)
    }

    @Test("TAP descriptions, comments and YAML values are one line; a description holds no directive", arguments: HostileText.cases)
    func tap(_ hostile: HostileCase) {
        let text = hostile.text
        let description = FlowTAPText.description(text)
        #expect(!HostileText.hasLineBreak(description) && !HostileText.hasControl(description), "\(HostileText.label(text))")
        // Every '#' is escaped: reading backslash pairs away, none is left bare.
        var escaped = false
        for character in description {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            #expect(character != "#", "\(HostileText.label(text))")
        }
        let comment = FlowTAPText.comment(text)
        #expect(!HostileText.hasLineBreak(comment) && !HostileText.hasControl(comment))
        for listItem in [false, true] {
            let yaml = FlowTAPText.yaml(text, listItem: listItem)
            #expect(!HostileText.hasLineBreak(yaml) && !HostileText.hasControl(yaml), "\(HostileText.label(text))")
            #expect(yaml.hasPrefix("\"") && yaml.hasSuffix("\"") && yaml.count >= 2)
        }
    }

    @Test("YAML values read back through the escapes YAML defines", arguments: HostileText.cases.filter { $0.text.count < 1_000 })
    func tapYAMLRoundTrip(_ hostile: HostileCase) {
        let text = hostile.text
        #expect(Self.unescapeYAML(FlowTAPText.yaml(text)) == text, "\(HostileText.label(text))")
    }

    @Test("Markdown text is one cell of plain text: every markup character escaped", arguments: HostileText.cases)
    func markdownText(_ hostile: HostileCase) {
        let text = hostile.text
        let cell = FlowMarkdownText.text(text)
        #expect(!HostileText.hasLineBreak(cell) && !HostileText.hasControl(cell), "\(HostileText.label(text))")
        var escaped = false
        for scalar in cell.unicodeScalars {
            if escaped { escaped = false; continue }
            if scalar == "\\" { escaped = true; continue }
            #expect(!"|`*_[]()<>#!&~".unicodeScalars.contains(scalar), "\(HostileText.label(text)): bare \(scalar)")
        }
        #expect(!escaped, "a cell must not end in a lone backslash (it would escape the cell's pipe)")
    }

    @Test("Markdown code spans hold the text literally, fenced longer than any backtick run in it", arguments: HostileText.cases)
    func markdownCode(_ hostile: HostileCase) {
        let text = hostile.text
        let span = FlowMarkdownText.code(text)
        #expect(!HostileText.hasLineBreak(span) && !HostileText.hasControl(span), "\(HostileText.label(text))")
        let fence = span.prefix { $0 == "`" }
        #expect(span.hasSuffix(String(fence)) && span.count > 2 * fence.count)
        let inner = span.dropFirst(fence.count).dropLast(fence.count)
        #expect(!inner.contains(String(fence)), "\(HostileText.label(text))")
        // No bare pipe: a table would split the cell there.
        var previous: Character = " "
        for character in inner {
            #expect(character != "|" || previous == "\\")
            previous = character
        }
    }

    @Test("LuaLS annotation names stay on their line and load as Lua", arguments: HostileText.cases)
    func annotations(_ hostile: HostileCase) throws {
        let name = hostile.text
        let lines = [
            "---@meta test",
            "-- annotations for \(FlowLuaAnnotationText.text(name))",
            "---@alias RouteName \(FlowLuaAnnotationText.literal(name))|\"home\"",
            "---@class Facts",
            "---@field \(FlowLuaAnnotationText.field(name)) boolean",
            "---@field \(FlowLuaAnnotationText.field(name))? string",
        ] + (FlowLuaAnnotationText.className("Route", name).map { ["---@class \($0): Route"] } ?? [])
        for line in lines { #expect(!HostileText.hasLineBreak(line) && !HostileText.hasControl(line), "\(HostileText.label(name))") }
        let vm = try LuaVM()
        #expect(try run(vm, lines.joined(separator: "\n") + "\nreturn 'loaded'") == [.string("loaded")])
        if let className = FlowLuaAnnotationText.className("Route", name) { #expect(FlowLuaSourceText.isIdentifier(String(className.dropFirst(6)))) }
    }

    @Test("XML attributes and content parse back as the text, less what XML 1.0 cannot hold", arguments: HostileText.cases)
    func xml(_ hostile: HostileCase) throws {
        let text = hostile.text
        let escaped = FlowXMLText.escaped(text)
        let document = try XMLDocument(xmlString: "<r a=\"\(escaped)\">\(escaped)</r>", options: [])
        let expected = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" }))
        #expect(document.rootElement()?.attribute(forName: "a")?.stringValue == expected, "\(HostileText.label(text))")
        #expect(document.rootElement()?.stringValue == expected, "\(HostileText.label(text))")
    }

    @Test("Mermaid labels and DOT strings stay inside their quotes, on one line", arguments: HostileText.cases)
    func graphs(_ hostile: HostileCase) {
        let text = hostile.text
        let label = FlowMermaidText.label(text)
        #expect(!HostileText.hasLineBreak(label) && !HostileText.hasControl(label), "\(HostileText.label(text))")
        #expect(!label.contains("\"") && !label.contains("<") && !label.contains(">") && !label.contains("|"))
        let quoted = FlowDOTText.quoted(text)
        #expect(!HostileText.hasLineBreak(quoted) && !HostileText.hasControl(quoted), "\(HostileText.label(text))")
        // Inside the quotes, every quote and backslash is escaped: the string ends at its last character.
        var escaped = false
        for (index, character) in quoted.dropFirst().enumerated() {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "\"" { #expect(index == quoted.count - 2, "\(HostileText.label(text))") }
        }
        for comment in [FlowMermaidText.comment(text), FlowDOTText.comment(text)] {
            #expect(!HostileText.hasLineBreak(comment) && !HostileText.hasControl(comment))
        }
    }

    /// YAML's double-quoted escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\xXX`, `\uXXXX`).
    static func unescapeYAML(_ quoted: String) -> String {
        var scalars = Array(quoted.unicodeScalars.dropFirst().dropLast())
        var out = String.UnicodeScalarView()
        while !scalars.isEmpty {
            let scalar = scalars.removeFirst()
            guard scalar == "\\", let code = scalars.first else { out.append(scalar); continue }
            scalars.removeFirst()
            switch code {
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "t": out.append("\t")
            case "x", "u":
                let count = code == "x" ? 2 : 4
                let digits = String(String.UnicodeScalarView(scalars.prefix(count)))
                scalars.removeFirst(count)
                out.append(Unicode.Scalar(UInt32(digits, radix: 16)!)!)
            default: out.append(code)
            }
        }
        return String(out)
    }
}
