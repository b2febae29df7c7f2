import FlowStackCore

/// The Lua half of the rules engine, run in every rules VM before the rules files.
///
/// It defines the `flow` table scripts register with and keeps the registrations in Lua tables.
/// A whole decision (every matching precondition and guard) runs inside one protected call from
/// Swift, through the C `decide` it builds over those tables (`clua_decide.h`), so a guarded
/// navigation crosses the C boundary once and only the rules' own instructions are traced by the
/// instruction budget's hook. Swift and C helpers arrive in the hidden global `__flow_native`,
/// which the prelude removes before any rules file runs; so do the operation kinds
/// (`FlowRulesEngineKinds.names`, as `__flow_native.kinds`) and sources (`sources`).
enum FlowRulesPrelude {
    /// The chunk name errors inside the prelude report.
    static let chunkName = "=flowstack"

    /// The operation sources as the prelude's `SOURCES` lists them: each at the position
    /// `FlowDecisionScalars.sourceIndex(of:)` gives it, the number Swift writes into a decision,
    /// so the names and the numbers come from one place.
    static let sources: [String] = {
        let all: [FlowOperationSource] = [.code, .user, .deeplink]
        var names = [String](repeating: "", count: all.count)
        for source in all { names[FlowDecisionScalars.sourceIndex(of: source) - 1] = source.rawValue }
        return names
    }()

    /// The prelude compiled by the first rules VM of the process (`LuaVM.dump`): later VMs load
    /// it instead of compiling the source again.
    @MainActor static var compiled: [UInt8]?

    /// The prelude's source, `Sources/FlowScript/Prelude/rules.lua` (a resource of the module).
    static var source: String {
        get throws(FlowScriptError) { try FlowPreludeFile.rules.get() }
    }
}
