import FlowScript
import Foundation

/// The navigation graph observed while running flows: routes as nodes, steps as edges.
///
/// Applied steps are solid edges labelled with their kind; refused ones (blocked or
/// redirected by a rule) are dashed edges labelled with the kind and the rule's reason.
/// Identical edges are merged and counted.
struct NavigationGraph {
    /// One merged edge.
    struct Edge: Hashable {
        let from: String
        let to: String
        let label: String
        let refused: Bool
    }

    /// The routes, in order of first appearance (the root first).
    private(set) var nodes: [String] = []
    /// The edges, in order of first appearance, with how often each was seen.
    private(set) var edges: [(edge: Edge, count: Int)] = []
    /// Routes the manifest declares that no flow reached.
    private(set) var unreached: [String] = []
    /// The root route, drawn with a heavier border.
    let root: String?

    private var edgeIndex: [Edge: Int] = [:]
    private var nodeSet: Set<String> = []

    /// Builds the graph from test results; `declared` adds the manifest's routes no flow reached.
    init(results: [FlowTestResult], root: String?, declared: [String]) {
        self.root = root
        if let root { addNode(root) }
        for result in results {
            for step in result.steps { add(step) }
        }
        unreached = declared.sorted().filter { !nodeSet.contains($0) }
    }

    /// How many applied and refused steps the graph holds (counting repeats).
    var totals: (applied: Int, refused: Int) {
        edges.reduce(into: (0, 0)) { sums, item in
            if item.edge.refused { sums.1 += item.count } else { sums.0 += item.count }
        }
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
        default: break
        }
        if !step.applied {
            label += ": " + Self.shortReason(step.reason ?? "blocked")
        }
        let edge = Edge(from: step.from, to: step.to, label: label, refused: !step.applied)
        if let index = edgeIndex[edge] {
            edges[index].count += 1
        } else {
            edgeIndex[edge] = edges.count
            edges.append((edge, 1))
        }
    }

    /// A reason short enough for an edge label (script errors keep their file:line).
    static func shortReason(_ reason: String) -> String {
        let firstLine = reason.split(separator: "\n").first.map(String.init) ?? reason
        return firstLine.count > 60 ? String(firstLine.prefix(57)) + "..." : firstLine
    }

    /// An edge's label with its count.
    static func label(_ edge: Edge, count: Int) -> String {
        count > 1 ? "\(edge.label) ×\(count)" : edge.label
    }
}
