import FlowStackCore
import Foundation

/// The scalar part of what a decision needs from a request: trivially copyable, so passing it
/// around costs no retains nor value-witness copies.
@usableFromInline
struct FlowDecisionScalars {
    /// The kind's position in the prelude's `KINDS` (1-based; see `FlowRulesEngineKinds`).
    @usableFromInline var kindIndex: Int
    @usableFromInline var count: Int?
    @usableFromInline var target: Int?
    /// The source's position in the prelude's `SOURCES` (1-based).
    @usableFromInline var sourceIndex: Int
    @usableFromInline var isAsync: Bool
    @usableFromInline var runsDefaults: Bool
    @usableFromInline var queued: Int
    /// The number of stacks, and the front-most stack's number of screens (root included).
    @usableFromInline var stackCount: Int
    @usableFromInline var frontScreens: Int

    @inlinable
    init(kindIndex: Int, count: Int?, target: Int?, sourceIndex: Int, isAsync: Bool, runsDefaults: Bool, queued: Int,
         stackCount: Int, frontScreens: Int) {
        self.kindIndex = kindIndex
        self.count = count
        self.target = target
        self.sourceIndex = sourceIndex
        self.isAsync = isAsync
        self.runsDefaults = runsDefaults
        self.queued = queued
        self.stackCount = stackCount
        self.frontScreens = frontScreens
    }

    /// A source's position in the prelude's `SOURCES` list: code, user, deeplink.
    @inlinable
    static func sourceIndex(of source: FlowOperationSource) -> Int {
        switch source {
        case .code: return 1
        case .user: return 2
        case .deeplink: return 3
        }
    }
}

/// What a decision needs from a request, without the app's route type: the part of the engine
/// that talks to Lua is not generic, so it costs the same whatever the route type.
@usableFromInline
struct FlowDecisionInput {
    @usableFromInline var scalars: FlowDecisionScalars
    @usableFromInline var route: FlowRouteValue?
    @usableFromInline var routes: [FlowRouteValue]?
    @usableFromInline var dialog: String?

    @inlinable
    init(scalars: FlowDecisionScalars, route: FlowRouteValue?, routes: [FlowRouteValue]?, dialog: String?) {
        self.scalars = scalars
        self.route = route
        self.routes = routes
        self.dialog = dialog
    }
}

/// A decision before its redirect target is turned into the app's route type.
@usableFromInline
enum FlowErasedDecision {
    case allow
    case block(FlowRuleBlock)
    case redirect(kind: String, route: LuaValue, block: FlowRuleBlock, location: String?)
    case failure(FlowScriptError)
}
