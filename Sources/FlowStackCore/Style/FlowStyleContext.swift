import Foundation

/// Where a screen, stack or modal sits in the navigation tree: what style rules look at.
///
/// The platform-neutral half of FlowStack's `FlowNavigationStyle.Context` (the SwiftUI layer
/// uses this type as that context).
public struct FlowStyleContext: Hashable {
    /// The stack's 0-based index (0 is the root stack).
    public let stackIndex: Int
    /// The stack's identity.
    public let stackID: UUID
    /// How the stack is shown.
    public let presentationStyle: FlowPresentationStyle
    /// Whether the stack is the root stack.
    public let isRootStack: Bool
    /// The stack's root route.
    public let rootRoute: AnyHashable
    /// The screen's route (the root route for stack and modal contexts).
    public let screenRoute: AnyHashable
    /// The screen's depth: 0 for the stack's root screen.
    public let screenDepth: Int
    /// Whether the screen is the stack's root screen.
    public let isRootScreen: Bool
    /// The selected tab's name (`ctx.tab` of style rules), or `nil` for a router without tabs.
    public var tab: String?

    /// Creates a context; `isRootStack` and `isRootScreen` follow from the indices.
    public init(
        stackIndex: Int,
        stackID: UUID,
        presentationStyle: FlowPresentationStyle,
        rootRoute: AnyHashable,
        screenRoute: AnyHashable,
        screenDepth: Int
    ) {
        self.stackIndex = stackIndex
        self.stackID = stackID
        self.presentationStyle = presentationStyle
        self.isRootStack = stackIndex == 0
        self.rootRoute = rootRoute
        self.screenRoute = screenRoute
        self.screenDepth = screenDepth
        self.isRootScreen = screenDepth == 0
        self.tab = nil
    }

    /// The root route as the app's route type, or `nil` for another type.
    public func rootRoute<Route>(as type: Route.Type = Route.self) -> Route? {
        rootRoute.base as? Route
    }

    /// The screen route as the app's route type, or `nil` for another type.
    public func screenRoute<Route>(as type: Route.Type = Route.self) -> Route? {
        screenRoute.base as? Route
    }
}
