import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// The configuration files `flowstack types --luacheck` and `--luarc` write: luacheck's
/// `.luacheckrc` (the linter Lua projects run in CI) and the Lua language server's
/// `.luarc.json`, both for a flow project's directory.
struct LinterConfigs {
    let hostNames: [String]
    /// The annotations file `.luarc.json` points the language server at (relative to the project).
    let annotationsFile: String

    /// `.luacheckrc`: Lua 5.4; rules read `flow`, `facts` and `host`; flows get busted's names,
    /// FlowStack's (`app`, `router`, `expect`, `before_all`, ...) and `facts`; explore files
    /// `invariant`. Every name comes from ``FlowLuaSurface``.
    func luacheckrc() -> String {
        func fields(_ names: [String], writable: Set<String> = []) -> String {
            names.map { name in
                FlowLuaSourceText.key(name) + (writable.contains(name) ? " = { read_only = false }" : " = {}")
            }.joined(separator: ", ")
        }
        let flowMembers = FlowLuaSurface.names(of: .flow).filter { $0 != "style" }
        let styleHooks = FlowLuaSurface.names(of: .flowStyle).map { "\($0) = {}" }.joined(separator: ", ")
        let routerMembers = FlowLuaSurface.names(of: .router)
        let writable = Set(FlowLuaSurface.functions(of: .router).filter(\.isProperty).map(\.name))
        let tables: Set<String> = ["app", "router", "facts"]
        let flowGlobals = FlowLuaSurface.globalNames(of: .flows).filter { !tables.contains($0) }
        let exploreGlobals = FlowLuaSurface.globalNames(of: .explore)
        return """
            -- luacheck configuration for a FlowStack project, written by `flowstack types --luacheck`.
            -- Run `luacheck .` in the project's directory, or `luacheck <project> --config <project>/.luacheckrc`
            -- from the directory that holds the project (the patterns below match from either place; luacheck
            -- reads a .luacheckrc only from the directory it runs in, so from elsewhere --config is needed).
            std = "lua54"
            max_line_length = false

            -- The LuaLS annotations `flowstack types` writes declare globals on purpose: not linted.
            exclude_files = { \(excludedFiles.map(FlowLuaSourceText.string).joined(separator: ", ")) }

            -- Rules scripts: flow, facts and host are FlowStack's; helpers they define at the top are allowed.
            files["**/rules/**/*.lua"] = {
              allow_defined_top = true,
              unused_args = false, -- rule callbacks take (op, stacks, ctx) by contract
              read_globals = {
                flow = { fields = { \(fields(flowMembers)), style = { fields = { \(styleHooks) } } } },
                facts = { other_fields = true },
                host = { fields = { \(fields(hostNames)) }, other_fields = true },
              },
            }

            -- Flow scripts (tests): busted's names, then FlowStack's.
            files["**/flows/**/*.lua"] = {
              std = "+busted",
              read_globals = {
                \(flowGlobals.map { "\"\($0)\"" }.joined(separator: ", ")),
                app = { fields = { \(fields(FlowLuaSurface.names(of: .app))) } },
                router = { fields = { \(fields(routerMembers, writable: writable)) } },
                facts = { other_fields = true },
              },
            }

            -- Explore files (invariants for `flowstack explore`): FlowStack's names, nothing else.
            files["**/explore/**/*.lua"] = {
              read_globals = { \(exploreGlobals.map { "\"\($0)\"" }.joined(separator: ", ")) },
            }

            -- The manifest returns a table; nothing else.
            files["**/routes.lua"] = {}

            """
    }

    /// The generated annotations files, as luacheck globs: the annotations file (when it is
    /// inside the project) and the default name.
    var excludedFiles: [String] {
        var files = ["**/flowstack-types.lua"]
        if !annotationsFile.hasPrefix("/"), !files.contains("**/" + annotationsFile) { files.append("**/" + annotationsFile) }
        return files
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? String(decoding: encoder.encode(text), as: UTF8.self)) ?? "\"\""
    }

    /// `.luarc.json`: Lua 5.4, the annotations file as a library, FlowStack's globals known.
    func luarc() -> String {
        let globals = Set(FlowLuaScript.allCases.flatMap(FlowLuaSurface.globalNames(of:))).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {
              "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
              "runtime.version": "Lua 5.4",
              "workspace.library": [\(Self.jsonString(annotationsFile))],
              "workspace.checkThirdParty": false,
              "diagnostics.globals": [\(globals)]
            }

            """
    }
}
