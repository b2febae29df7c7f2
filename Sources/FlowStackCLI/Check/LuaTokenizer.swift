import Foundation

/// One Lua token with its line, for the static checks of `flowstack check`.
struct LuaToken: Equatable {
    enum Kind: UInt8, Equatable {
        case name, string, number, symbol
    }

    let kind: Kind
    /// The name, the symbol, the number's text, or the string's contents (escapes resolved
    /// for the common cases).
    let text: String
    /// The line, stored in 32 bits: a token is 24 bytes, as a file can have millions of them.
    private let storedLine: Int32

    /// The line (1-based).
    var line: Int { Int(storedLine) }

    init(kind: Kind, text: String, line: Int) {
        self.kind = kind
        self.text = text
        self.storedLine = Int32(clamping: line)
    }
}

/// A small Lua 5.4 tokenizer: names, strings (short and long), numbers and symbols; comments
/// and whitespace are skipped. Good enough to find names in calls and table constructors.
///
/// It reads the UTF-8 bytes once, in linear time: names are ASCII letters, digits and `_`, as
/// in Lua; a byte outside ASCII is a one-character symbol (Lua refuses it outside strings and
/// comments).
enum LuaTokenizer {
    static func tokens(_ source: String) -> [LuaToken] {
        var source = source
        return source.withUTF8 { tokens(bytes: $0) }
    }

    /// The one-byte symbols' texts, made once.
    fileprivate static let asciiSymbols: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
    fileprivate static let twoByteSymbols: Set<String> = ["==", "~=", "<=", ">=", "..", "::", "//", "<<", ">>"]

    fileprivate static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
    }

    fileprivate static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func tokens(bytes: UnsafeBufferPointer<UInt8>) -> [LuaToken] {
        var scanner = LuaScanner(bytes: bytes)
        // At most one token per two bytes in all but contrived code (dense rules have one per
        // three or four): one allocation instead of repeated doubling and copying, and the pages
        // reserved beyond the tokens are never touched.
        scanner.tokens.reserveCapacity(bytes.count / 2 + 16)
        while scanner.index < bytes.count {
            scanner.next()
        }
        return scanner.tokens
    }

    /// The tokenizer's position in the bytes: what it read so far, and the line it is on.
    private struct LuaScanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var line = 1
        var tokens: [LuaToken] = []
        let newline = UInt8(ascii: "\n"), equals = UInt8(ascii: "="), open = UInt8(ascii: "["), close = UInt8(ascii: "]")

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// Reads what starts at `index`: skips whitespace or a comment, or reads one token.
        mutating func next() {
            let count = bytes.count
            let c = bytes[index]
            if c == newline {
                line += 1
                index += 1
            } else if c == 0x20 || c == 0x09 || c == 0x0D {
                index += 1
            } else if c == UInt8(ascii: "-"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "-") {
                skipComment()
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                readShortString(quote: c)
            } else if let level = longBracketLevel(at: index) {
                let startLine = line
                tokens.append(LuaToken(kind: .string, text: readLong(level: level), line: startLine))
            } else if LuaTokenizer.isNameStart(c) {
                read(.name) { LuaTokenizer.isNameStart($0) || LuaTokenizer.isDigit($0) }
            } else if LuaTokenizer.isDigit(c) {
                read(.number) { LuaTokenizer.isNameStart($0) || LuaTokenizer.isDigit($0) || $0 == UInt8(ascii: ".") }
            } else {
                readSymbol(c)
            }
        }

        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// A name or number: the bytes from `index` while `continues` holds.
        mutating func read(_ kind: LuaToken.Kind, while continues: (UInt8) -> Bool) {
            let start = index
            while index < bytes.count, continues(bytes[index]) { index += 1 }
            tokens.append(LuaToken(kind: kind, text: text(start, index), line: line))
        }

        /// `--` to the end of the line, or `--[[ ... ]]`.
        mutating func skipComment() {
            index += 2
            if let level = longBracketLevel(at: index) {
                _ = readLong(level: level)
            } else {
                while index < bytes.count, bytes[index] != newline { index += 1 }
            }
        }

        /// A string in `quote`s, its common escapes resolved; an unclosed one ends at the line's end.
        mutating func readShortString(quote: UInt8) {
            let count = bytes.count
            let startLine = line
            index += 1
            let start = index
            var escaped: [UInt8]?
            while index < count, bytes[index] != quote, bytes[index] != newline {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < count {
                    if escaped == nil { escaped = Array(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                    let next = bytes[index + 1]
                    switch next {
                    case UInt8(ascii: "n"): escaped!.append(newline)
                    case UInt8(ascii: "t"): escaped!.append(0x09)
                    case newline: escaped!.append(newline); line += 1
                    default: escaped!.append(next)
                    }
                    index += 2
                    continue
                }
                escaped?.append(bytes[index])
                index += 1
            }
            let contents = escaped.map { String(decoding: $0, as: UTF8.self) } ?? text(start, min(index, count))
            if index < count, bytes[index] == quote { index += 1 }
            tokens.append(LuaToken(kind: .string, text: contents, line: startLine))
        }

        /// The level of a long bracket `[==[` at `position`, or nil.
        func longBracketLevel(at position: Int) -> Int? {
            let count = bytes.count
            guard position < count, bytes[position] == open else { return nil }
            var level = 0
            while position + 1 + level < count, bytes[position + 1 + level] == equals { level += 1 }
            return position + 1 + level < count && bytes[position + 1 + level] == open ? level : nil
        }

        /// Skips a long bracket of `level` at `index` and returns its contents.
        mutating func readLong(level: Int) -> String {
            let count = bytes.count
            index += level + 2
            let start = index
            while index < count {
                let byte = bytes[index]
                if byte == close {
                    var level2 = 0
                    while index + 1 + level2 < count, bytes[index + 1 + level2] == equals { level2 += 1 }
                    if level2 == level, index + 1 + level2 < count, bytes[index + 1 + level2] == close {
                        let contents = text(start, index)
                        index += level + 2
                        return contents
                    }
                }
                if byte == newline { line += 1 }
                index += 1
            }
            return text(start, count)
        }

        /// A symbol: one character outside ASCII, `...`, a two-byte symbol, or one byte.
        mutating func readSymbol(_ c: UInt8) {
            let count = bytes.count
            if c >= 0x80 {
                // One character outside ASCII: its lead byte and continuation bytes.
                let start = index
                index += 1
                while index < count, bytes[index] & 0xC0 == 0x80 { index += 1 }
                tokens.append(LuaToken(kind: .symbol, text: text(start, index), line: line))
                return
            }
            if c == UInt8(ascii: "."), index + 2 < count, bytes[index + 1] == c, bytes[index + 2] == c {
                tokens.append(LuaToken(kind: .symbol, text: "...", line: line))
                index += 3
                return
            }
            if index + 1 < count, bytes[index + 1] < 0x80 {
                let two = text(index, index + 2)
                if LuaTokenizer.twoByteSymbols.contains(two) {
                    tokens.append(LuaToken(kind: .symbol, text: two, line: line))
                    index += 2
                    return
                }
            }
            tokens.append(LuaToken(kind: .symbol, text: LuaTokenizer.asciiSymbols[Int(c)], line: line))
            index += 1
        }
    }
}

extension Array where Element == LuaToken {
    /// Every run of three consecutive tokens.
    func adjacentTriples() -> [(LuaToken, LuaToken, LuaToken)] {
        guard count >= 3 else { return [] }
        return (0..<(count - 2)).map { (self[$0], self[$0 + 1], self[$0 + 2]) }
    }

    /// The indices of the tokens at depth 1 of the table constructor whose `{` is at `open`
    /// (empty when no `{` is there).
    func tableItems(openedAt open: Int) -> [Int] {
        guard indices.contains(open), self[open].kind == .symbol, self[open].text == "{" else { return [] }
        var depth = 0
        var items: [Int] = []
        for index in open..<count {
            let current = self[index]
            if current.kind == .symbol, ["{", "(", "["].contains(current.text) { depth += 1 }
            if current.kind == .symbol, ["}", ")", "]"].contains(current.text) {
                depth -= 1
                if depth == 0 { break }
            }
            if depth == 1, index != open { items.append(index) }
        }
        return items
    }
}
