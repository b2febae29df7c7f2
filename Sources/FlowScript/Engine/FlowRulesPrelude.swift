import FlowLua
import FlowStackCore

/// The Lua half of the rules engine, run in every rules VM before the rules files.
///
/// It defines the `flow` table scripts register with and keeps the registrations in Lua tables.
/// A whole decision (every matching precondition and guard) runs inside one protected call from
/// Swift, through the C `decide` it builds over those tables (`clua_decide.c`), so a guarded
/// navigation crosses the C boundary once and only the rules' own instructions are traced by the
/// instruction budget's hook. Swift and C helpers arrive in the hidden global `__flow_native`,
/// which the prelude removes before any rules file runs; so do the operation kinds
/// (`FlowRuleKind.allCases`, as `__flow_native.kinds`) and sources (`sources`).
enum FlowRulesPrelude {
    /// The chunk name errors inside the prelude report (`@rules.lua:12:`); the `@` sets it apart
    /// from a project's own files. The prelude's `locate` skips its own frames by it.
    static let chunkName = "@rules.lua"

    /// The operation sources in the order of the prelude's `SOURCES`: a source crosses into Lua
    /// as its 1-based position here (`sourcePosition(_:)`), so names and numbers come from one list.
    package static let sources: [FlowOperationSource] = [.code, .user, .deeplink, .resume, .facts]

    /// A source's 1-based position in `sources`.
    /// A switch, not a search of `sources` (about 30 instructions per decision less, callgrind);
    /// `OperationKindsTests` checks the two agree.
    package static func sourcePosition(_ source: FlowOperationSource) -> Int {
        switch source {
        case .code: 1
        case .user: 2
        case .deeplink: 3
        case .resume: 4
        case .facts: 5
        }
    }

    /// The prelude compiled by the first rules VM of the process (`LuaVM.dump`): later VMs load
    /// it instead of compiling the source again.
    @MainActor static var compiled: [UInt8]?

    /// The prelude's source, `Sources/FlowScript/Prelude/rules.lua` (a resource of the module).
    package static var source: String {
        get throws(FlowScriptError) { try FlowPreludeFile.rules.get() }
    }
}
