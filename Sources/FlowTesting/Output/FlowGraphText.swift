import FlowLua
import FlowStackCore

/// Names in a Mermaid flowchart (`flowstack graph --format mermaid`): the one place labels and
/// comments are escaped, so a route, tab or dialog name or a reason stays inside its quoted
/// label, and no line break starts a statement (a `click` directive, a style) of its own.
package enum FlowMermaidText {
    /// Text inside a double-quoted label: one line; `"`, `#`, `<`, `>`, `&` and `|` as Mermaid
    /// entity codes (`#quot;`, `#35;`, ...), so they show as themselves and nothing reads as
    /// HTML.
    package static func label(_ text: String) -> String {
        var out = ""
        for scalar in FlowTerminalText.line(text).unicodeScalars {
            switch scalar {
            case "\"": out += "#quot;"
            case "#", "<", ">", "&", "|": out += "#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text for a `%%` comment: one line.
    package static func comment(_ text: String) -> String {
        FlowTerminalText.line(text)
    }
}

/// Names in a Graphviz DOT graph (`flowstack graph --format dot`): the one place strings and
/// comments are written.
package enum FlowDOTText {
    /// A double-quoted DOT string: `\` and `"` escaped, `\n` as DOT's line break inside the
    /// label, every other line break and control shown escaped; never a raw line break.
    package static func quoted(_ text: String) -> String {
        let pieces = text.split(separator: "\n", omittingEmptySubsequences: false).map { piece in
            FlowTerminalText.line(String(piece)).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        }
        return "\"" + pieces.joined(separator: "\\n") + "\""
    }

    /// Text for a `//` comment: one line.
    package static func comment(_ text: String) -> String {
        FlowTerminalText.line(text)
    }
}
