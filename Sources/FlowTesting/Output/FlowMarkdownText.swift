import FlowLua
import FlowStackCore

/// Text in a Markdown document (`flowstack diff --format markdown`, a pull-request comment):
/// the one place names, reasons and traces are escaped, so that they stay text in their table
/// cell: no line break ends a row, no `|` adds a cell, and no heading, link, image, emphasis,
/// HTML or entity can be made from them.
package enum FlowMarkdownText {
    /// Plain text for a table cell or a paragraph: every ASCII punctuation character that
    /// Markdown or GitHub reads as markup is backslash-escaped (CommonMark makes any escaped
    /// ASCII punctuation literal; `\|` keeps a pipe inside its cell); line breaks and controls
    /// are shown escaped, as in the terminal report.
    package static func text(_ text: String) -> String {
        var out = ""
        for scalar in FlowTerminalText.line(text).unicodeScalars {
            if scalar.isASCII, markup.contains(UInt8(scalar.value)) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// `text` as an inline code span that holds it literally: a fence of one more backtick
    /// than its longest run of backticks, padded with spaces when it starts or ends with one;
    /// `|` escaped (a table would split the cell there), line breaks and controls shown escaped.
    package static func code(_ text: String) -> String {
        let content = FlowTerminalText.line(text).replacingOccurrences(of: "|", with: "\\|")
        var longest = 0
        var run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = content.hasPrefix("`") || content.hasSuffix("`") || content.isEmpty ? " \(content) " : content
        return fence + padded + fence
    }

    /// The characters `text` escapes.
    private static let markup = Set("\\`*_{}[]()<>#+-.!|~&:\"'=$%^@".utf8)
}
