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
        let scalars = text.unicodeScalars
        let firstWordEnd = scalars.firstIndex(of: " ") ?? scalars.endIndex
        guard listItem, firstWordEnd > scalars.startIndex, scalars[scalars.index(before: firstWordEnd)] == ":" else {
            return "\"" + yamlEscaped(text) + "\""
        }
        let colon = scalars.index(before: firstWordEnd)
        let before = String(scalars[..<colon]), after = String(scalars[scalars.index(after: colon)...])
        return "\"" + yamlEscaped(before) + "\\x3A" + yamlEscaped(after) + "\""
    }

    /// The inside of a YAML double-quoted scalar: the backslash escapes, then every other
    /// control as `\xHH` (or `\uHHHH` above U+00FF).
    private static func yamlEscaped(_ text: String) -> String {
        FlowTextEscaping.map(text) { scalar in
            if let escape = FlowTextEscaping.backslashEscape(scalar) { return escape }
            guard FlowTerminalText.breaksOrControls(scalar) else { return nil }
            return scalar.value <= 0xFF ? "\\x" + hex(scalar.value, digits: 2) : "\\u" + hex(scalar.value, digits: 4)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
