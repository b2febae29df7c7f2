import FlowStackCore
import Foundation

/// The stacks a decision sees, for the lazy `stacks` argument, without the route type.
@MainActor
protocol FlowErasedStacks: AnyObject {
    /// A stack's identity and presentation, 1-based.
    func info(_ index: Int) -> (id: String, presentation: String)?
    /// A stack's number of screens (root included), 1-based.
    func screens(_ index: Int) -> Int?
    /// The route at a 1-based position (1: the root screen) of a 1-based stack.
    func route(stack index: Int, position: Int) -> FlowRouteValue?
}

/// The stacks of one decision.
@MainActor @usableFromInline
final class FlowStacksBox<Route: FlowRouteConvertible>: FlowErasedStacks {
    @exclusivity(unchecked) @usableFromInline var stacks: [FlowStackState<Route>] = []
    unowned(unsafe) let engine: FlowRulesEngine<Route>

    init(engine: FlowRulesEngine<Route>) {
        self.engine = engine
    }

    func info(_ index: Int) -> (id: String, presentation: String)? {
        guard index >= 1, index <= stacks.count else { return nil }
        return (stacks[index - 1].id.flowString, stacks[index - 1].style.rawValue)
    }

    func screens(_ index: Int) -> Int? {
        guard index >= 1, index <= stacks.count else { return nil }
        return stacks[index - 1].pathCount + 1
    }

    func route(stack index: Int, position: Int) -> FlowRouteValue? {
        guard index >= 1, index <= stacks.count, let route = stacks[index - 1].route(atDepth: position - 1) else { return nil }
        return engine.routeValue(route)
    }
}
