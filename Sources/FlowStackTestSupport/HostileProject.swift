// The hostile projects under Tests/Hostile, as a table. Not a product: never shipped.
import Foundation

/// One hostile project: a rules script that tries to escape the sandbox or break the engine, and
/// where and how its first operation fails closed.
///
/// Its flows (`flows/*.lua`) assert that reason and that the app still navigates afterwards; the
/// table says what they assert, so a reader sees every project's expected `file:line` and
/// message in one place, and a flow that stops asserting them fails a test.
public struct HostileProject: Sendable, CustomStringConvertible {
    /// The folder's name under `Tests/Hostile`.
    public let name: String
    /// The rules file and line the first failing operation's reason names (`rules/escape.lua:2`;
    /// a project whose cases are a loop over lines gives the file and colon only).
    public let location: String
    /// Text the reason contains besides the location (`nil`: the location alone).
    public let message: String?

    /// An entry of the table.
    public init(_ name: String, at location: String, _ message: String?) {
        self.name = name
        self.location = location
        self.message = message
    }

    /// The project's folder.
    public var url: URL { HostileProject.root.appendingPathComponent(name) }

    /// The name, as test output shows a case.
    public var description: String { name }

    /// `Tests/Hostile`.
    public static let root = FlowStackBinary.packageRoot.appendingPathComponent("Tests/Hostile")

    /// The folders under `Tests/Hostile`, sorted (the table must list exactly these).
    public static func folderNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .map(\.lastPathComponent)
            .sorted()
    }

    /// Every hostile project, by name.
    public static let all: [HostileProject] = [
        HostileProject("assign-facts", at: "rules/facts.lua:2", "facts is read-only (cannot assign 'isPremium')"),
        HostileProject("async-host-in-sync-call", at: "rules/host.lua:2", "is asynchronous: call it from an async navigation"),
        HostileProject("c-stack-coroutines", at: "rules/recursion.lua:2", "stack overflow"),
        HostileProject("c-stack-index", at: "rules/recursion.lua:3", "stack overflow"),
        HostileProject("c-stack-tostring", at: "rules/recursion.lua:2", "stack overflow"),
        HostileProject("call-metamethod-loop", at: "rules/call.lua:2", "__call metamethod must be a function"),
        HostileProject("collectgarbage", at: "rules/gc.lua:", "is not allowed"),
        HostileProject("coroutine-budget-dodge", at: "rules/loop.lua:4", "instruction budget exceeded"),
        HostileProject("coroutine-close-chain", at: "rules/co.lua:5", "coroutine.close nested more than"),
        HostileProject("coroutine-resume-loop", at: "rules/loop.lua:3", "instruction budget exceeded"),
        HostileProject("coroutine-steal", at: "rules/steal.lua:7", "run by FlowStack"),
        HostileProject("debug-library", at: "rules/escape.lua:2", "undeclared global 'debug'"),
        HostileProject("dialog-cyclic-payload", at: "rules/cyclic.lua:1", "contains itself"),
        HostileProject("dialog-guard-loop", at: "rules/loop.lua:2", "instruction budget exceeded"),
        HostileProject("dialog-redirect-cycle", at: "rules/cycle.lua:3", "dialog redirect loop: more than 8 redirects: a → b → a"),
        HostileProject("dialog-view-write", at: "rules/write.lua:", nil),
        HostileProject("dofile", at: "rules/escape.lua:2", "undeclared global 'dofile'"),
        HostileProject("error-locations", at: "rules/where.lua:1", "cannot be turned into text"),
        HostileProject("error-nil", at: "rules/errors.lua:2", "error raised with a nil value"),
        HostileProject("error-table", at: "rules/errors.lua:2", "error object is a table value"),
        HostileProject("error-tostring-fails", at: "rules/errors.lua:2", "error object's __tostring failed"),
        HostileProject("error-tostring-loops", at: "rules/errors.lua:2", "instruction budget exceeded"),
        HostileProject("error-without-position", at: "rules/errors.lua:2", "no position here"),
        HostileProject("format-width", at: "rules/bomb.lua:2", "invalid conversion"),
        HostileProject("frozen-globals", at: "rules/a-tamper.lua:21", "flow is read-only (cannot assign 'redirect')"),
        HostileProject("gc-metamethod", at: "rules/gc.lua:2", "__gc metamethods are not allowed"),
        HostileProject("global-read-undeclared", at: "rules/globals.lua:2", "undeclared global 'isPremium'"),
        HostileProject("global-write-after-load", at: "rules/globals.lua:4", "assignment to undeclared global 'lastRoute'"),
        HostileProject("gsub-replacement-bomb", at: "rules/memory.lua:4", "memory budget exceeded"),
        HostileProject("guard-returns-function", at: "rules/garbage.lua:1", "it returned a function"),
        HostileProject("guard-returns-garbage", at: "rules/garbage.lua:1", "a guard must return nothing, true, false or nil"),
        HostileProject("host-million-arguments", at: "rules/args.lua:2", "20000 arguments"),
        HostileProject("host-throws", at: "rules/host.lua:2", "flows/contained.lua:3: account service unavailable"),
        HostileProject("huge-reasons", at: "rules/big.lua:4", "[cut: "),
        HostileProject("huge-table", at: "rules/memory.lua:3", "instruction budget exceeded"),
        HostileProject("infinite-loop", at: "rules/loop.lua:2", "instruction budget exceeded"),
        HostileProject("io-open", at: "rules/escape.lua:2", "undeclared global 'io'"),
        HostileProject("library-tamper", at: "rules/tamper.lua:2", "table is read-only (cannot assign 'concat')"),
        HostileProject("load-binary-chunk", at: "rules/escape.lua:5", "attempt to load a binary chunk"),
        HostileProject("load-c-reader", at: "rules/load.lua:2", "instruction budget exceeded"),
        HostileProject("load-explicit-env", at: "rules/env.lua:5", "environment honoured"),
        HostileProject("load-runs-budgeted", at: "rules/loop.lua:2", "(load):1: instruction budget exceeded"),
        HostileProject("loadfile", at: "rules/escape.lua:2", "undeclared global 'loadfile'"),
        HostileProject("long-string-compare", at: "rules/slow.lua:6", "time limit exceeded"),
        HostileProject("lua-stack-overflow", at: "rules/recursion.lua:2", "instruction budget exceeded"),
        HostileProject("manifest-fact-typo", at: "rules/typo.lua:2", "did you mean 'isPremium'"),
        HostileProject("memory-kept-across-calls", at: "rules/memory.lua:4", "instruction budget exceeded"),
        HostileProject("op-route-rewrite", at: "rules/a-tamper.lua:9", "guarded target"),
        HostileProject("open-link-while-deciding", at: "rules/open.lua:4", "link unhandled"),
        HostileProject("os-date-bomb", at: "rules/bomb.lua:2", "instruction budget exceeded"),
        HostileProject("os-execute", at: "rules/escape.lua:2", "attempt to call a nil value (field 'execute')"),
        HostileProject("os-exit", at: "rules/escape.lua:2", "field 'exit'"),
        HostileProject("os-getenv", at: "rules/escape.lua:2", "field 'getenv'"),
        HostileProject("os-remove", at: "rules/escape.lua:2", "field 'remove'"),
        HostileProject("os-time-busy-wait", at: "rules/loop.lua:3", "instruction budget exceeded"),
        HostileProject("package-loadlib", at: "rules/escape.lua:2", "undeclared global 'package'"),
        HostileProject("pairs-c-iterator", at: "rules/pairs.lua:1", "instruction budget exceeded"),
        HostileProject("parser-depth", at: "rules/recursion.lua:4", "C stack overflow"),
        HostileProject("pattern-bomb-find", at: "rules/bomb.lua:3", "string.find: pattern '.-.-.-b' is too expensive"),
        HostileProject("pattern-bomb-gmatch", at: "rules/bomb.lua:2", "string.gmatch: pattern 'a*a*b' is too expensive"),
        HostileProject("pattern-bomb-gsub", at: "rules/bomb.lua:3", "string.gsub: pattern"),
        HostileProject("pattern-bomb-match", at: "rules/bomb.lua:3", "string.match: pattern"),
        HostileProject("pcall-swallows-budget", at: "rules/loop.lua:3", "instruction budget exceeded"),
        HostileProject("pcall-swallows-memory", at: "rules/memory.lua:2", "memory budget exceeded"),
        HostileProject("print-flood", at: "rules/print.lua:2", "instruction budget exceeded"),
        HostileProject("print-forgery", at: "rules/print.lua:3", "printed"),
        HostileProject("rawset-facts", at: "rules/facts.lua:2", "facts is read-only (rawset cannot change it)"),
        HostileProject("rawset-globals", at: "rules/globals.lua:2", "assignment to undeclared global 'backdoor'"),
        HostileProject("redirect-bad-route", at: "rules/garbage.lua:2", "bad argument #2 to 'flow.redirect' (route expected, got number)"),
        HostileProject("redirect-loop", at: "rules/loop.lua:1", "redirect loop: more than 8 redirects"),
        HostileProject("redirect-metatable", at: "rules/meta.lua:3", "attempt to index a string value"),
        HostileProject("redirect-unknown-kind", at: "rules/garbage.lua:1", "unknown operation kind 'teleport'"),
        HostileProject("require", at: "rules/escape.lua:2", "undeclared global 'require'"),
        HostileProject("route-parameter-nan", at: "rules/nan.lua:1", "must be a finite number, got nan"),
        HostileProject("setmetatable-facts", at: "rules/facts.lua:2", "facts is read-only (setmetatable cannot change it)"),
        HostileProject("setmetatable-globals", at: "rules/globals.lua:2", "cannot change a protected metatable"),
        HostileProject("shared-op-tampering", at: "rules/tamper.lua:43", "op is read-only"),
        HostileProject("string-doubling", at: "rules/memory.lua:3", "memory budget exceeded"),
        HostileProject("string-dump", at: "rules/escape.lua:2", "field 'dump'"),
        HostileProject("string-dump-method", at: "rules/escape.lua:3", "attempt to call a nil value (local 'dump')"),
        HostileProject("string-metatable", at: "rules/strings.lua:6", "string methods still work: OK, setmetatable on a string refused: true"),
        HostileProject("string-rep-bomb", at: "rules/memory.lua:2", "memory budget exceeded"),
        HostileProject("string-rep-too-large", at: "rules/memory.lua:2", "resulting string too large"),
        HostileProject("style-context-write", at: "rules/style.lua:16", "styles are contained"),
        HostileProject("style-garbage", at: "rules/style.lua:1", "it returned a number"),
        HostileProject("suggestion-huge-name", at: "rules/names.lua:1", "unknown route"),
        HostileProject("table-concat-huge", at: "rules/memory.lua:4", "memory budget exceeded"),
        HostileProject("table-proxy-loop", at: "rules/proxy.lua:3", "instruction budget exceeded"),
        HostileProject("xpcall-handler-loop", at: "rules/loop.lua:3", "instruction budget exceeded"),
        HostileProject("yield-in-sync-guard", at: "rules/yield.lua:2", "attempt to yield from outside a coroutine"),
    ]
}
