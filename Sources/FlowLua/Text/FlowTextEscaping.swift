/// Lua source text written by FlowStack (emitted flows, values in messages, LuaLS
/// annotations): the one place that quotes strings, writes table keys and comments, so that
/// no name or message can end a string, a comment or a line of the file it is written into.
package enum FlowLuaSourceText {
    /// `text` as a double-quoted Lua string literal that the Lua lexer reads back as exactly
    /// `text` (what `string.format("%q")` guarantees), and that holds on one line in any editor:
    /// quotes and backslashes escaped, `\n` `\r` `\t` by name, the other C0 controls and DEL as
    /// three-digit `\ddd`, C1 controls, line and paragraph separators and bidirectional
    /// controls as `\u{…}` (hexadecimal).
    package static func string(_ text: String) -> String {
        let body = FlowTextEscaping.map(text) { scalar in
            if let escape = FlowTextEscaping.backslashEscape(scalar) { return escape }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                // Three digits always: `\1` followed by the text's own `2` would read as `\12`.
                let digits = String(scalar.value)
                return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            }
            return FlowTerminalText.breaksOrControls(scalar) ? FlowTextEscaping.braced(scalar) : nil
        }
        return "\"" + body + "\""
    }

    /// `name` as a table key in a constructor or an annotation: bare when it is a Lua
    /// identifier (`isLoggedIn`), else `["…"]` (`["log in"]`).
    package static func key(_ name: String) -> String {
        isIdentifier(name) ? name : "[" + string(name) + "]"
    }

    /// `table.name` when `name` is an identifier, else `table["…"]`.
    package static func field(_ table: String, _ name: String) -> String {
        isIdentifier(name) ? table + "." + name : table + "[" + string(name) + "]"
    }

    /// Whether `name` can be written bare in Lua source: ASCII letters, digits and `_`, not
    /// starting with a digit, not a reserved word.
    package static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return !reserved.contains(name) && name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Text for a `--` comment: one line whatever it holds (every line break and control
    /// character shown escaped, as the terminal report shows them), so a comment can never end
    /// early and start a line of code.
    package static func comment(_ text: String) -> String {
        FlowTerminalText.line(text)
    }

    private static let reserved: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]
}

/// Text from rules, flows, names and files as a terminal report shows it: the one function
/// every pretty writer passes such text through, so a record stays on its line and no text
/// can move the cursor, clear the screen or start a line of the report.
package enum FlowTerminalText {
    /// `text` on one line: every control character (C0 but tab, DEL, C1), line or paragraph
    /// separator and bidirectional control written as a visible escape (`\n`, `\r`,
    /// `\u{1B}`); everything else as is.
    package static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { breaksOrControls($0) && $0 != "\t" }) else { return text }
        return FlowTextEscaping.map(text) { scalar in
            switch scalar {
            case "\t": nil
            case "\n": "\\n"
            case "\r": "\\r"
            default: breaksOrControls(scalar) ? FlowTextEscaping.braced(scalar) : nil
            }
        }
    }

    /// Whether `scalar` ends a line somewhere (in Lua's lexer, a terminal, an editor, YAML or
    /// Markdown) or controls how text shows: C0 and C1 controls, DEL, U+2028/U+2029 and the
    /// bidirectional embedding, override and isolate controls.
    package static func breaksOrControls(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

/// The loop every escaper of the package runs (Lua literals, terminal lines, TAP's YAML, JUnit's
/// XML): each writes only what it replaces a character with.
package enum FlowTextEscaping {
    /// `text` with each Unicode scalar for which `replacement` returns text written as that text
    /// (an empty string drops the scalar), every other scalar as is.
    package static func map(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                out += replaced
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The backslash escape of a double quote, a backslash, a newline, a carriage return or a
    /// tab (`\"`, `\\`, `\n`, `\r`, `\t`), which Lua strings and YAML double-quoted scalars
    /// share; `nil` for any other scalar.
    package static func backslashEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: nil
        }
    }

    /// `\u{1B}`: the scalar's value in upper-case hexadecimal between braces, as Lua and Swift
    /// write it.
    package static func braced(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
