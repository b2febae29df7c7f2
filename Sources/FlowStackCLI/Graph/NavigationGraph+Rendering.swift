import FlowTesting
import Foundation

extension NavigationGraph {
    /// The graph as a Mermaid flowchart (paste into Markdown, or mermaid.live).
    func mermaid(title: String) -> String {
        var lines = ["flowchart LR"]
        lines.append("  %% \(FlowMermaidText.comment(title)): \(summary)")
        var ids: [String: String] = [:]
        for name in nodes + unreached {
            let id = Self.mermaidID(name, taken: Set(ids.values))
            ids[name] = id
            let text = Self.mermaidText(name)
            lines.append(name == root ? "  \(id)([\"\(text)\"])" : "  \(id)(\"\(text)\")")
        }
        // Tabs: a subgraph per tab around the routes of its stack.
        for (position, cluster) in tabClusters.enumerated() where !cluster.routes.isEmpty {
            lines.append("  subgraph tab_\(position + 1)[\"tab \(Self.mermaidText(cluster.name))\"]")
            lines += cluster.routes.compactMap { ids[$0].map { "    \($0)" } }
            lines.append("  end")
        }
        var dialogIDs: [String: String] = [:]
        for dialog in dialogs {
            let id = Self.mermaidID("dialog_" + dialog, taken: Set(ids.values).union(dialogIDs.values))
            dialogIDs[dialog] = id
            lines.append("  \(id)>\"\(Self.mermaidText(dialog))\"]")
        }
        var refused: [Int] = []
        for (position, edge) in edges.enumerated() {
            let arrow = edge.refused ? "-.->" : "-->"
            let label = edge.labelTexts.map(Self.mermaidText).joined(separator: edge.refused ? "<br/>" : ", ")
            lines.append("  \(ids[edge.from]!) \(arrow)|\"\(label)\"| \(ids[edge.to]!)")
            if edge.refused { refused.append(position) }
        }
        for answer in dialogAnswers {
            let label = Self.mermaidText(Self.dialogLabel(answer))
            lines.append("  \(ids[answer.route]!) -.->|\"\(label)\"| \(dialogIDs[answer.dialog]!)")
        }
        if let root, let id = ids[root] {
            lines.append("  classDef root stroke-width:3px")
            lines.append("  class \(id) root")
        }
        if !unreached.isEmpty {
            lines.append("  %% declared in routes.lua, reached by no flow:")
            lines.append("  classDef unreached stroke-dasharray: 4 4,color:#888888")
            lines.append("  class \(unreached.map { ids[$0]! }.joined(separator: ",")) unreached")
        }
        if !dialogIDs.isEmpty {
            lines.append("  %% dialogs the rules answer a navigation with:")
            lines.append("  classDef dialog fill:#fff8dc,stroke:#b8860b")
            lines.append("  class \(dialogs.map { dialogIDs[$0]! }.joined(separator: ",")) dialog")
        }
        if !refused.isEmpty {
            lines.append("  linkStyle \(refused.map(String.init).joined(separator: ",")) stroke:#cc3333,color:#cc3333")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz DOT (`dot -Tsvg`).
    func dot(title: String) -> String {
        var lines = ["digraph flowstack {"]
        lines.append("  // \(FlowDOTText.comment(title)): \(summary)")
        lines.append("  rankdir=LR;")
        lines.append("  node [shape=box, style=rounded, fontname=\"Helvetica\"];")
        lines.append("  edge [fontname=\"Helvetica\", fontsize=10];")
        for name in nodes {
            let style = name == root ? " [style=\"rounded,bold\", penwidth=2]" : ""
            lines.append("  \(Self.dotQuoted(name))\(style);")
        }
        // Tabs: a cluster per tab around the routes of its stack.
        for (position, cluster) in tabClusters.enumerated() where !cluster.routes.isEmpty {
            lines.append("  subgraph cluster_tab_\(position + 1) {")
            lines.append("    label=\(Self.dotQuoted("tab " + cluster.name));")
            lines.append("    style=dashed; color=\"#5577aa\";")
            lines += cluster.routes.map { "    \(Self.dotQuoted($0));" }
            lines.append("  }")
        }
        if !unreached.isEmpty { lines.append("  // declared in routes.lua, reached by no flow:") }
        for name in unreached {
            lines.append("  \(Self.dotQuoted(name)) [style=\"rounded,dashed\", fontcolor=\"#888888\", color=\"#888888\"];")
        }
        if !dialogs.isEmpty { lines.append("  // dialogs the rules answer a navigation with:") }
        for dialog in dialogs {
            lines.append("  \(Self.dotQuoted(Self.dotDialogID(dialog))) [shape=note, style=filled, fillcolor=\"#fff8dc\", label=\(Self.dotQuoted(dialog))];")
        }
        for edge in edges {
            let label = Self.dotQuoted(edge.labelTexts.joined(separator: edge.refused ? "\n" : ", "))
            let style = edge.refused ? ", style=dashed, color=\"#cc3333\", fontcolor=\"#cc3333\"" : ""
            lines.append("  \(Self.dotQuoted(edge.from)) -> \(Self.dotQuoted(edge.to)) [label=\(label)\(style)];")
        }
        for answer in dialogAnswers {
            let label = Self.dotQuoted(Self.dialogLabel(answer))
            lines.append("  \(Self.dotQuoted(answer.route)) -> \(Self.dotQuoted(Self.dotDialogID(answer.dialog))) [label=\(label), style=dashed];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The comment line's counts.
    private var summary: String {
        let steps = "\(totals.applied) applied steps (solid), \(totals.refused) refused (dashed, red)"
        guard !dialogAnswers.isEmpty else { return steps }
        return steps + ", \(dialogAnswers.count) answered with a dialog (dashed, to a dialog)"
    }

    /// The label of a dialog edge: the guard's reason, when the rule spells it.
    private static func dialogLabel(_ answer: DialogAnswer) -> String {
        "dialog" + (answer.reason.map { ": " + shortReason($0) } ?? "")
    }

    /// The DOT node id of a dialog (apart from the routes': a dialog may share a route's name).
    private static func dotDialogID(_ dialog: String) -> String {
        "dialog:" + dialog
    }

    /// A Mermaid node id: the route name when it is a plain identifier, else a safe one.
    private static func mermaidID(_ name: String, taken: Set<String>) -> String {
        let reserved: Set<String> = ["end", "graph", "flowchart", "subgraph", "style", "class", "classdef", "click", "linkstyle", "direction"]
        let plain = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
        var id = plain && !name.isEmpty && !reserved.contains(name.lowercased()) ? name : "route_" + String(name.unicodeScalars.map {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_"
        })
        while taken.contains(id) { id += "_" }
        return id
    }

    /// Text safe inside a quoted Mermaid label.
    private static func mermaidText(_ text: String) -> String {
        FlowMermaidText.label(text)
    }

    /// A DOT double-quoted string (newlines as `\n`).
    private static func dotQuoted(_ text: String) -> String {
        FlowDOTText.quoted(text)
    }
}
