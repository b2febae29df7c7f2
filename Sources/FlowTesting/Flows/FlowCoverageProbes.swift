import Foundation

/// Where a rules file counts execution, found by reading its tokens: every statement that
/// starts a line inside a function, and every function. `FlowCoverage` reports these lines
/// (the executable lines of lcov) with the hits the VM's line and call hook recorded for them;
/// the source itself is loaded unchanged.
struct FlowCoverageProbes {
    /// One counting place.
    struct Probe: Hashable {
        enum Kind: Hashable {
            /// A statement starting this line.
            case line
            /// The entry of a function defined on this line, with a name for reports.
            case function(String)
        }

        let kind: Kind
        let line: Int
        /// The last line of a statement continued on the lines below it (`local t = {` ...);
        /// `line` otherwise.
        var lastLine: Int
    }

    /// A token: its text, kind, line and UTF-8 offset.
    private struct Token {
        enum Kind { case name, string, number, symbol }
        let kind: Kind
        let text: String
        let line: Int
        let offset: Int
        /// Whether it is the first token of its line.
        let startsLine: Bool
    }

    private enum Context {
        case expression
        case parameters(line: Int, name: String)
        case parameterList(line: Int, name: String)
        case block(isFunction: Bool)
    }

    private static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]
    private static let statementKeywords: Set<String> = ["local", "return", "if", "for", "while", "repeat", "do", "break", "goto", "function"]
    /// Tokens after which a line continues the statement before it.
    private static let continuing: Set<String> = [
        "=", ",", "(", "{", "[", "..", "+", "-", "*", "/", "//", "%", "^", "#", "==", "~=", "<", ">", "<=", ">=", "and",
        "or", "not", "local", "return", "function", ".", ":", "&", "|", "~", "<<", ">>",
    ]

    /// The probes of `source`, in source order.
    static func probes(in source: String) -> [Probe] {
        let tokens = tokenize(source)
        var probes: [Probe] = []
        var stack: [Context] = []
        var insideFunctions = 0
        var openStatement: Int?
        for (index, token) in tokens.enumerated() {
            let previous = index > 0 ? tokens[index - 1] : nil
            let continues = previous.map { continuing.contains($0.text) && $0.kind != .string } ?? false
            if token.startsLine {
                if continues, let open = openStatement { probes[open].lastLine = token.line } else { openStatement = nil }
            }
            if token.startsLine, insideFunctions > 0, case .block? = stack.last,
               token.kind == .name, !keywords.contains(token.text) || statementKeywords.contains(token.text), !continues {
                probes.append(Probe(kind: .line, line: token.line, lastLine: token.line))
                openStatement = probes.count - 1
            }
            guard token.kind == .name || token.kind == .symbol else { continue }
            switch token.text {
            case "function" where token.kind == .name:
                // Names can come from string literals: no control character reaches a report.
                let name = FlowCoverage.lcovField(functionName(tokens, at: index), escapingCommas: false)
                stack.append(.parameters(line: token.line, name: name))
            case "(":
                if case .parameters(let line, let name)? = stack.last {
                    stack[stack.count - 1] = .parameterList(line: line, name: name)
                } else {
                    stack.append(.expression)
                }
            case ")":
                if case .parameterList(let line, let name)? = stack.last {
                    stack[stack.count - 1] = .block(isFunction: true)
                    insideFunctions += 1
                    probes.append(Probe(kind: .function(name), line: line, lastLine: line))
                } else if case .expression? = stack.last {
                    stack.removeLast()
                }
            case "{", "[":
                stack.append(.expression)
            case "}", "]":
                if case .expression? = stack.last { stack.removeLast() }
            case "then", "do", "repeat":
                if token.kind == .name { stack.append(.block(isFunction: false)) }
            case "elseif", "until":
                if token.kind == .name, case .block? = stack.last { stack.removeLast() }
            case "end":
                if token.kind == .name, case .block(let isFunction)? = stack.last {
                    stack.removeLast()
                    if isFunction { insideFunctions -= 1 }
                }
            default:
                break
            }
        }
        return probes
    }

    /// A readable name for the function whose `function` keyword is at `index`:
    /// `guard(editor)`, `style(screen)`, `deeplink(/products/:id)`, a local or global name, or
    /// `function` (then the line tells it apart).
    private static func functionName(_ tokens: [Token], at index: Int) -> String {
        func text(_ offset: Int) -> String? { index + offset >= 0 && index + offset < tokens.count ? tokens[index + offset].text : nil }
        if text(1) != nil, tokens[index + 1].kind == .name, text(2) == "(" || text(2) == "." || text(2) == ":" {
            var name = text(1)!
            var next = 2
            while text(next) == "." || text(next) == ":", let part = text(next + 1) {
                name += text(next)! + part
                next += 2
            }
            return name
        }
        if text(-1) == ",", index >= 4, tokens[index - 2].kind == .string, text(-3) == "(", let kind = text(-4) {
            return "\(kind)(\(tokens[index - 2].text))"
        }
        if text(-1) == "(", let hook = text(-2), text(-3) == ".", text(-4) == "style" {
            return "style(\(hook))"
        }
        if text(-1) == "=", let name = text(-2), tokens[index - 2].kind == .name {
            return name
        }
        return "function"
    }

    /// Names, strings (short and long), numbers and symbols with their lines and offsets;
    /// comments skipped.
    private static func tokenize(_ source: String) -> [Token] {
        let bytes = Array(source.utf8)
        var tokens: [Token] = []
        var index = 0
        var line = 1
        var lineHasToken = false
        func byte(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func isNameByte(_ b: UInt8) -> Bool { b == 95 || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b >= 128 }
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func longLevel() -> Int? {
            guard byte() == UInt8(ascii: "[") else { return nil }
            var level = 0
            while byte(1 + level) == UInt8(ascii: "=") { level += 1 }
            return byte(1 + level) == UInt8(ascii: "[") ? level : nil
        }
        func skipLong(_ level: Int) {
            index += level + 2
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "]") {
                    var equals = 0
                    while byte(1 + equals) == UInt8(ascii: "=") { equals += 1 }
                    if equals == level, byte(1 + equals) == UInt8(ascii: "]") { index += level + 2; return }
                }
                if bytes[index] == 10 { line += 1; lineHasToken = true }
                index += 1
            }
        }
        func add(_ kind: Token.Kind, _ start: Int, _ startLine: Int, text: String) {
            tokens.append(Token(kind: kind, text: text, line: startLine, offset: start, startsLine: !lineHasToken))
            lineHasToken = true
        }
        while index < bytes.count {
            let b = bytes[index]
            if b == 10 { line += 1; lineHasToken = false; index += 1; continue }
            if b == 32 || b == 9 || b == 13 { index += 1; continue }
            let start = index, startLine = line
            if b == UInt8(ascii: "-"), byte(1) == UInt8(ascii: "-") {
                index += 2
                if let level = longLevel() { skipLong(level) } else {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                }
                continue
            }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                index += 1
                while index < bytes.count, bytes[index] != b, bytes[index] != 10 {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        if bytes[index + 1] == 10 { line += 1 }
                        index += 2
                        continue
                    }
                    index += 1
                }
                index += 1
                let text = String(decoding: bytes[(start + 1)..<min(max(start + 1, index - 1), bytes.count)], as: UTF8.self)
                add(.string, start, startLine, text: text)
                continue
            }
            if let level = longLevel() {
                skipLong(level)
                add(.string, start, startLine, text: "")
                continue
            }
            if isNameByte(b) {
                while let next = byte(), isNameByte(next) || isDigit(next) { index += 1 }
                add(.name, start, startLine, text: String(decoding: bytes[start..<index], as: UTF8.self))
                continue
            }
            if isDigit(b) || (b == UInt8(ascii: ".") && byte(1).map(isDigit) == true) {
                while let next = byte(), isNameByte(next) || isDigit(next) || next == UInt8(ascii: ".") { index += 1 }
                add(.number, start, startLine, text: String(decoding: bytes[start..<index], as: UTF8.self))
                continue
            }
            let three = index + 3 <= bytes.count ? String(decoding: bytes[index..<index + 3], as: UTF8.self) : ""
            let two = index + 2 <= bytes.count ? String(decoding: bytes[index..<index + 2], as: UTF8.self) : ""
            let width = three == "..." ? 3 : ["==", "~=", "<=", ">=", "..", "::", "//", "<<", ">>"].contains(two) ? 2 : 1
            index += width
            add(.symbol, start, startLine, text: String(decoding: bytes[start..<index], as: UTF8.self))
        }
        return tokens
    }
}
