import FlowLua

/// Text in an XML document (`flowstack test --format junit`): the one place attribute values
/// and element content are escaped.
package enum FlowXMLText {
    /// `text` escaped for XML attributes and content: markup characters as entities, newline
    /// and tab as character references, and the characters XML 1.0 does not allow (the other
    /// C0 controls, U+FFFE, U+FFFF) dropped.
    package static func escaped(_ text: String) -> String {
        FlowTextEscaping.map(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\n": "&#10;"
            case "\t": "&#9;"
            default: scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "" : nil
            }
        }
    }
}
