import FlowLua
import FlowStackCore

/// Text in a TAP report (`flowstack test --format tap`): the one place test descriptions,
/// `#` comment lines and YAML values are escaped, so that whatever a flow's name, a file's name
/// or a rule's error holds, every line of the report is one the reporter wrote: nothing can
/// forge an `ok`/`not ok` line, a plan or a directive.
package enum FlowTAPText {
    /// A test description (after `ok 1 - `): one line, `\` and `#` (which starts a directive)
    /// escaped with a backslash, line breaks and controls shown escaped.
    package static func description(_ text: String) -> String {
        FlowTerminalText.line(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#"))
    }

    /// The text of a `# ` comment line: one line, line breaks and controls shown escaped.
    package static func comment(_ text: String) -> String {
        FlowTerminalText.line(text)
    }

    /// A YAML double-quoted scalar for the diagnostics block: one line whatever `text` holds.
    ///
    /// As a list item (`listItem`), a colon that ends the first word (`- "auth: signed out"`) is
    /// written `\x3A`: TAP::Parser's YAMLish reader, which `prove` uses, takes a list line whose
    /// first word ends with a colon for a mapping and stops reading the report there.
    package static func yaml(_ text: String, listItem: Bool = false) -> String {
        var out = "\""
        var firstWord = listItem
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == " " { firstWord = false }
            if firstWord, scalar == ":", index + 1 == scalars.count || scalars[index + 1] == " " {
                out += "\\x3A"
                firstWord = false
                continue
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value <= 0xFF, FlowTerminalText.breaksOrControls(scalar) {
                    out += "\\x" + hex(scalar.value, digits: 2)
                } else if FlowTerminalText.breaksOrControls(scalar) {
                    out += "\\u" + hex(scalar.value, digits: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
