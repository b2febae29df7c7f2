import FlowLua
import FlowScript
/// The Lua half of the flow-test runner, run in every flow VM before the flow file.
///
/// It defines `describe`, `it`, `before_each`, `after_each` and `expect`, and makes the `app`
/// and `router` tables (whose functions Swift registered) strict: an unknown name is an error
/// with a "did you mean" suggestion. Swift helpers arrive in the hidden global `__flow_native`,
/// which the prelude removes; so does `matchers` (as `__flow_native.matchers`). The chunk
/// returns a table whose `finish` Swift calls once the flow file has run: it ends the collection
/// and returns the tests.
enum FlowTestPrelude {
    /// The chunk name errors inside the prelude report (`@flows.lua:12:`); the `@` sets it apart
    /// from a project's own files.
    static let chunkName = "@flows.lua"

    /// The names of the matchers `expect(v)` offers (each also as `not_<name>` and after `.never`).
    ///
    /// The prelude checks at load that it implements exactly these.
    static let matchers = FlowLuaSurface.names(of: .expectation)

    /// The prelude's text, or why it cannot be read; read once per process.
    static let file = FlowPreludeFile.read("flows", bundle: .module, module: "FlowTesting")

    /// The prelude's source, `Sources/FlowTesting/Prelude/flows.lua` (a resource of the module):
    /// the collection functions, then `expect` and its matchers, then the strict tables.
    static var source: String {
        get throws(FlowScriptError) { try file.get() }
    }
}
