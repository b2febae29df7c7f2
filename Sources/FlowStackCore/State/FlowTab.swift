import Foundation

/// A tab type: the app's own `Hashable` enum of its tabs, each with a stable name.
///
/// Rules, flows, the manifest and the history name tabs by `flowTabName`. An enum with `String`
/// raw values gets both requirements for free (the raw value is the name):
///
/// ```swift
/// enum AppTab: String, FlowTab { case feed, search, profile }
/// ```
public protocol FlowTab: Hashable {
    /// The tab's name as scripts, the manifest and the history see it (stable, unique per tab).
    var flowTabName: String { get }
    /// The tab with this name, or `nil` when none has it.
    init?(flowTabName: String)
}

extension FlowTab where Self: RawRepresentable, RawValue == String {
    /// The raw value.
    public var flowTabName: String { rawValue }

    /// The case whose raw value is `flowTabName`.
    public init?(flowTabName: String) {
        self.init(rawValue: flowTabName)
    }
}

/// One tab of a tabbed router: its name and its own root stack (root, path, identities).
///
/// A plain value, `Codable` when `Route` is. The selected tab's stack is the one on screen,
/// `FlowRouter.stacks[0]`.
public struct FlowTabState<Route: Hashable>: Hashable {
    /// The tab's name (`FlowTab.flowTabName`).
    public var name: String
    /// The tab's root stack.
    public var stack: FlowStackState<Route>

    /// Creates a tab.
    public init(name: String, stack: FlowStackState<Route>) {
        self.name = name
        self.stack = stack
    }
}

extension FlowTabState: Codable where Route: Codable {}
extension FlowTabState: Sendable where Route: Sendable {}
