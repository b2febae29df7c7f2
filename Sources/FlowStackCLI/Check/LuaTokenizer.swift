import Foundation

/// One Lua token with its line, for the static checks of `flowstack check`.
struct LuaToken: Equatable {
    enum Kind: Equatable {
        case name, string, number, symbol
    }

    let kind: Kind
    /// The name, the symbol, the number's text, or the string's contents (escapes resolved
    /// for the common cases).
    let text: String
    let line: Int
}

/// A small Lua 5.4 tokenizer: names, strings (short and long), numbers and symbols; comments
/// and whitespace are skipped. Good enough to find names in calls and table constructors.
enum LuaTokenizer {
    static func tokens(_ source: String) -> [LuaToken] {
        let chars = Array(source.unicodeScalars)
        var tokens: [LuaToken] = []
        var index = 0
        var line = 1

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < chars.count ? chars[index + offset] : nil
        }
        /// The level of a long bracket `[==[` at `index`, or nil.
        func longBracketLevel() -> Int? {
            guard peek() == "[" else { return nil }
            var level = 0
            while peek(1 + level) == "=" { level += 1 }
            return peek(1 + level) == "[" ? level : nil
        }
        /// Skips a long bracket and returns its contents.
        func readLong(level: Int) -> String {
            index += level + 2
            var text = ""
            while index < chars.count {
                if chars[index] == "]" {
                    var equals = 0
                    while peek(1 + equals) == "=" { equals += 1 }
                    if equals == level, peek(1 + equals) == "]" {
                        index += level + 2
                        return text
                    }
                }
                if chars[index] == "\n" { line += 1 }
                text.unicodeScalars.append(chars[index])
                index += 1
            }
            return text
        }

        while index < chars.count {
            let c = chars[index]
            if c == "\n" { line += 1; index += 1; continue }
            if c == " " || c == "\t" || c == "\r" { index += 1; continue }
            if c == "-", peek(1) == "-" {
                index += 2
                if let level = longBracketLevel() {
                    _ = readLong(level: level)
                } else {
                    while index < chars.count, chars[index] != "\n" { index += 1 }
                }
                continue
            }
            if c == "\"" || c == "'" {
                let startLine = line
                index += 1
                var text = ""
                while index < chars.count, chars[index] != c, chars[index] != "\n" {
                    if chars[index] == "\\", index + 1 < chars.count {
                        let next = chars[index + 1]
                        switch next {
                        case "n": text += "\n"
                        case "t": text += "\t"
                        case "\n": text += "\n"; line += 1
                        default: text.unicodeScalars.append(next)
                        }
                        index += 2
                        continue
                    }
                    text.unicodeScalars.append(chars[index])
                    index += 1
                }
                index += 1
                tokens.append(LuaToken(kind: .string, text: text, line: startLine))
                continue
            }
            if let level = longBracketLevel() {
                let startLine = line
                tokens.append(LuaToken(kind: .string, text: readLong(level: level), line: startLine))
                continue
            }
            if c.properties.isAlphabetic || c == "_" {
                var text = ""
                while let next = peek(), next.properties.isAlphabetic || next == "_" || ("0"..."9").contains(next) {
                    text.unicodeScalars.append(next)
                    index += 1
                }
                tokens.append(LuaToken(kind: .name, text: text, line: line))
                continue
            }
            if ("0"..."9").contains(c) {
                var text = ""
                while let next = peek(), next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "." {
                    text.unicodeScalars.append(next)
                    index += 1
                }
                tokens.append(LuaToken(kind: .number, text: text, line: line))
                continue
            }
            let three = String(String.UnicodeScalarView(chars[index..<min(index + 3, chars.count)]))
            if three == "..." {
                tokens.append(LuaToken(kind: .symbol, text: three, line: line))
                index += 3
                continue
            }
            let two = String(String.UnicodeScalarView(chars[index..<min(index + 2, chars.count)]))
            if ["==", "~=", "<=", ">=", "..", "::", "//", "<<", ">>"].contains(two) {
                tokens.append(LuaToken(kind: .symbol, text: two, line: line))
                index += 2
                continue
            }
            tokens.append(LuaToken(kind: .symbol, text: String(c), line: line))
            index += 1
        }
        return tokens
    }
}

extension Array where Element == LuaToken {
    /// Every run of three consecutive tokens.
    func adjacentTriples() -> [(LuaToken, LuaToken, LuaToken)] {
        guard count >= 3 else { return [] }
        return (0..<(count - 2)).map { (self[$0], self[$0 + 1], self[$0 + 2]) }
    }
}
