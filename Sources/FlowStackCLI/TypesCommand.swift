import ArgumentParser
import FlowScript
import Foundation

/// `flowstack types [DIR]`: LuaLS annotations for editors.
struct TypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Print LuaLS annotations for the project's rules and flows.",
        discussion: """
            Prints a `---@meta` file that describes `flow`, `router`, `app`,
            `facts`, `host`, `expect` and the test functions, explore files'
            `invariant(name, check)` and the state it checks (ExploreState),
            the manifest's shape (Manifest), with the manifest's route
            names, payload fields, dialogs and facts. Every function comes
            from one description of the Lua surface, which check uses too. Save it
            in the project (outside rules/ and flows/) so that the Lua language
            server completes names and flags typos while you edit. Dialogs in
            the rules are declared too: flow.dialog_guard(dialogId, fn) with
            the read-only FlowDialogView (id, policy, source, payload),
            flow.redirect("dialog", dialog, reason, policy),
            flow.op("showDialog", dialog, policy), and router.showDialog
            returning a boolean.

            --luacheck writes DIR/.luacheckrc for luacheck (the linter Lua
            projects run in CI): rules read flow (flow.dialog_guard included),
            facts and host; flows get busted's names plus app, router, expect
            and the other test functions; explore/*.lua files read
            invariant; the annotations file
            (flowstack-types.lua, or --output inside DIR) is left out. luacheck
            reads a .luacheckrc only where it runs: run `luacheck .` in DIR, or
            `luacheck DIR --config DIR/.luacheckrc` from DIR's parent. --luarc writes DIR/.luarc.json, which points the Lua
            language server at the annotations file (--output, or
            flowstack-types.lua). With either flag and no --output, the
            annotations are not printed.

            Examples:
              flowstack types Scripts > Scripts/flowstack-types.lua
              flowstack types Scripts --output Scripts/flowstack-types.lua
              flowstack types Scripts --luacheck
              cd Scripts && luacheck .
              luacheck Scripts --config Scripts/.luacheckrc   (the same, from the parent)
              flowstack types Scripts --output Scripts/flowstack-types.lua --luarc
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("Write the annotations to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Flag(help: "Write DIR/.luacheckrc, the luacheck configuration for the project's rules, flows and explore files.")
    var luacheck = false

    @Flag(help: "Write DIR/.luarc.json, which points the Lua language server at the annotations.")
    var luarc = false

    @MainActor
    mutating func run() async throws {
        let project = try self.project.load()
        let generator = LuaTypesGenerator(
            manifest: project.manifest, hostNames: HostNames.scan(project.rules), projectName: self.project.directory)
        let text = generator.render()
        if let output {
            try writeFile(text, to: output)
        } else if !luacheck && !luarc {
            Terminal.write(text)
        }
        let directory = self.project.url
        let annotations = output.map { path -> String in
            let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .standardizedFileURL.path
            let prefix = directory.path + "/"
            return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
        } ?? "flowstack-types.lua"
        let configs = LinterConfigs(hostNames: HostNames.scan(project.rules), annotationsFile: annotations)
        if luacheck {
            let path = directory.appendingPathComponent(".luacheckrc").path
            try writeFile(configs.luacheckrc(), to: path, option: nil)
            Terminal.error("wrote \(path)")
        }
        if luarc {
            let path = directory.appendingPathComponent(".luarc.json").path
            try writeFile(configs.luarc(), to: path, option: nil)
            Terminal.error("wrote \(path)")
        }
    }
}

/// The `host.<name>` functions rules call.
enum HostNames {
    static func scan(_ sources: [FlowRulesSource]) -> [String] {
        var names: Set<String> = []
        for source in sources {
            for token in LuaTokenizer.tokens(source.text).adjacentTriples() where token.0.text == "host" && token.1.text == "." {
                if token.2.kind == .name { names.insert(token.2.text) }
            }
        }
        return names.sorted()
    }
}
