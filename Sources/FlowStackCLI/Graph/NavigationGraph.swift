import FlowScript
import FlowTesting
import Foundation

/// The navigation graph observed while running flows: routes as nodes, steps as edges.
///
/// Applied steps are solid edges labelled with their kind; refused ones (blocked or
/// redirected by a rule) are dashed edges labelled with the kind and the rule's reason.
/// Steps between the same two routes are merged into one edge per style, each label with
/// its count (`push ×3`). A route whose navigation the rules answered with a dialog
/// (`flow.redirect("dialog", ...)`, as the flows ran) has a dashed edge to a dialog node. A held
/// navigation that ran once the rules allowed it (`flow.redirect(..., { resume = true })`) is an
/// edge labelled `(resume)`.
struct NavigationGraph {
    /// One edge: every applied (or every refused) step from one route to another.
    struct Edge {
        let from: String
        let to: String
        let refused: Bool
        /// The distinct labels, in order of first appearance, with their counts.
        var labels: [(text: String, count: Int)]

        /// The labels with their counts (`push ×3`).
        var labelTexts: [String] {
            labels.map { $0.count > 1 ? "\($0.text) ×\($0.count)" : $0.text }
        }
    }

    private struct Key: Hashable {
        let from: String
        let to: String
        let refused: Bool
    }

    /// The routes, in order of first appearance (the root first).
    private(set) var nodes: [String] = []
    /// The edges, grouped by their source route in node order.
    var edges: [Edge] {
        let order = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, $0) })
        return storage.enumerated().sorted { lhs, rhs in
            let a = (order[lhs.element.from] ?? 0, order[lhs.element.to] ?? 0, lhs.element.refused ? 1 : 0, lhs.offset)
            let b = (order[rhs.element.from] ?? 0, order[rhs.element.to] ?? 0, rhs.element.refused ? 1 : 0, rhs.offset)
            return a < b
        }.map(\.element)
    }
    /// Routes the manifest declares that no flow reached.
    private(set) var unreached: [String] = []
    /// The root route, drawn with a heavier border.
    let root: String?
    /// How many applied and refused steps there were.
    private(set) var totals = (applied: 0, refused: 0)
    /// The navigations the rules answer with a dialog: an edge from each guarded route to its dialog.
    private(set) var dialogAnswers: [DialogAnswer] = []
    /// The dialogs those edges lead to, in order of first appearance.
    var dialogs: [String] {
        var seen: Set<String> = []
        return dialogAnswers.map(\.dialog).filter { seen.insert($0).inserted }
    }

    /// Tabs: each declared tab with the routes drawn in its cluster (its root, then the routes
    /// flows reached on its stack, each in the first tab it was reached in).
    private(set) var tabClusters: [(name: String, routes: [String])] = []

    private var storage: [Edge] = []
    private var index: [Key: Int] = [:]
    private var nodeSet: Set<String> = []

    /// Builds the graph from test results; `declared` adds the manifest's routes no flow reached,
    /// `dialogAnswers` the dialogs the rules answer navigations with.
    init(
        results: [FlowTestResult], root: String?, declared: [String], dialogAnswers: [DialogAnswer] = [],
        tabs: [(name: String, root: String)] = []
    ) {
        self.init(steps: results.flatMap(\.steps), root: root, declared: declared, dialogAnswers: dialogAnswers, tabs: tabs)
    }

    /// Builds the graph from navigation steps (the flows', or every distinct step exploration
    /// tried: `graph --explore`); `tabs` draws a cluster per tab around its root and the routes
    /// reached on its stack.
    init(
        steps: [FlowNavigationStep], root: String?, declared: [String], dialogAnswers: [DialogAnswer] = [],
        tabs: [(name: String, root: String)] = []
    ) {
        self.root = root ?? tabs.first?.root
        if let root = self.root { addNode(root) }
        for tab in tabs { addNode(tab.root) }
        var clusterOf: [String: String] = [:]
        for tab in tabs where clusterOf[tab.root] == nil { clusterOf[tab.root] = tab.name }
        for step in steps {
            add(step)
            if let tab = step.tab, clusterOf[step.to] == nil { clusterOf[step.to] = tab }
        }
        tabClusters = tabs.map { tab in (tab.name, nodes.filter { clusterOf[$0] == tab.name }) }
        unreached = declared.sorted().filter { !nodeSet.contains($0) }
        for answer in dialogAnswers where !nodeSet.contains(answer.route) && !unreached.contains(answer.route) {
            addNode(answer.route)
        }
        self.dialogAnswers = dialogAnswers
    }

    private mutating func addNode(_ name: String) {
        if nodeSet.insert(name).inserted { nodes.append(name) }
    }

    private mutating func add(_ step: FlowNavigationStep) {
        addNode(step.from)
        addNode(step.to)
        var label = step.kind
        switch step.source {
        case "user": label += " (user)"
        case "deeplink": label += " (link)"
        // A held navigation run once the rules allowed it: the edge of a resuming redirect.
        case "resume": label += " (resume)"
        default: break
        }
        // The variants the deciding rules read: the arm that takes this edge.
        if !step.experiments.isEmpty {
            label += " [" + step.experiments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + "]"
        }
        if step.applied {
            totals.applied += 1
        } else {
            totals.refused += 1
            label += ": " + Self.shortReason(step.reason ?? "blocked")
        }
        let key = Key(from: step.from, to: step.to, refused: !step.applied)
        guard let position = index[key] else {
            index[key] = storage.count
            storage.append(Edge(from: step.from, to: step.to, refused: !step.applied, labels: [(label, 1)]))
            return
        }
        if let labelIndex = storage[position].labels.firstIndex(where: { $0.text == label }) {
            storage[position].labels[labelIndex].count += 1
        } else {
            storage[position].labels.append((label, 1))
        }
    }

    /// A reason short enough for an edge label: a script error shows as its location; the
    /// words a transaction wraps a refusal in (`transaction rolled back at step 2: `) become
    /// `step 2: `, so that the rule's own reason, the useful part, is what shows.
    static func shortReason(_ reason: String) -> String {
        var firstLine = reason.split(separator: "\n").first.map(String.init) ?? reason
        var step = ""
        if let match = firstLine.firstMatch(of: #/^transaction rolled back at step (\d+): /#) {
            step = "step \(match.output.1): "
            firstLine = String(firstLine[match.range.upperBound...])
        }
        if let match = firstLine.firstMatch(of: #/^([^\s:]+\.lua:\d+): /#) {
            return step + "script error at \(match.output.1)"
        }
        return step + (firstLine.count > 48 ? String(firstLine.prefix(45)) + "..." : firstLine)
    }
}
