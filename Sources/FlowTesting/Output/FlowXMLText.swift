/// Text in an XML document (`flowstack test --format junit`): the one place attribute values
/// and element content are escaped.
package enum FlowXMLText {
    /// `text` escaped for XML attributes and content: markup characters as entities, newline
    /// and tab as character references, and the characters XML 1.0 does not allow (the other
    /// C0 controls, U+FFFE, U+FFFF) dropped.
    package static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
