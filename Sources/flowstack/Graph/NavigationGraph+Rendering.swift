import Foundation

extension NavigationGraph {
    /// The graph as a Mermaid flowchart (paste into Markdown, or mermaid.live).
    func mermaid(title: String) -> String {
        var lines = ["flowchart LR"]
        let totals = self.totals
        lines.append("  %% \(title): \(totals.applied) applied, \(totals.refused) refused (dashed)")
        var ids: [String: String] = [:]
        for (index, name) in (nodes + unreached).enumerated() {
            let id = "r\(index)"
            ids[name] = id
            let text = Self.mermaidText(name)
            lines.append(name == root ? "  \(id)([\"\(text)\"])" : "  \(id)(\"\(text)\")")
        }
        var refused: [Int] = []
        for (index, item) in edges.enumerated() {
            let arrow = item.edge.refused ? "-.->" : "-->"
            let label = Self.mermaidText(Self.label(item.edge, count: item.count))
            lines.append("  \(ids[item.edge.from]!) \(arrow)|\"\(label)\"| \(ids[item.edge.to]!)")
            if item.edge.refused { refused.append(index) }
        }
        if let root, let id = ids[root] {
            lines.append("  classDef root stroke-width:3px")
            lines.append("  class \(id) root")
        }
        if !unreached.isEmpty {
            lines.append("  classDef unreached stroke-dasharray: 4 4,color:#888888")
            lines.append("  class \(unreached.map { ids[$0]! }.joined(separator: ",")) unreached")
        }
        if !refused.isEmpty {
            lines.append("  linkStyle \(refused.map(String.init).joined(separator: ",")) stroke:#cc3333,color:#cc3333")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz DOT (`dot -Tsvg`).
    func dot(title: String) -> String {
        var lines = ["digraph flowstack {"]
        let totals = self.totals
        lines.append("  // \(title): \(totals.applied) applied, \(totals.refused) refused (dashed)")
        lines.append("  rankdir=LR;")
        lines.append("  node [shape=box, style=rounded, fontname=\"Helvetica\"];")
        lines.append("  edge [fontname=\"Helvetica\", fontsize=10];")
        for name in nodes {
            let style = name == root ? " [style=\"rounded,bold\", penwidth=2]" : ""
            lines.append("  \(Self.dotQuoted(name))\(style);")
        }
        for name in unreached {
            lines.append("  \(Self.dotQuoted(name)) [style=\"rounded,dashed\", fontcolor=\"#888888\", color=\"#888888\"];")
        }
        for item in edges {
            let label = Self.dotQuoted(Self.label(item.edge, count: item.count))
            let style = item.edge.refused ? ", style=dashed, color=\"#cc3333\", fontcolor=\"#cc3333\"" : ""
            lines.append("  \(Self.dotQuoted(item.edge.from)) -> \(Self.dotQuoted(item.edge.to)) [label=\(label)\(style)];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe inside a quoted Mermaid label.
    private static func mermaidText(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
    }

    /// A DOT double-quoted string.
    private static func dotQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
