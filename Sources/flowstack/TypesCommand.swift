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
            `facts`, `host`, `expect` and the test functions, with the
            manifest's route names, payload fields, dialogs and facts. Save it
            in the project (outside rules/ and flows/) so that the Lua language
            server completes names and flags typos while you edit.

            Examples:
              flowstack types Scripts > Scripts/flowstack-types.lua
              flowstack types Scripts --output Scripts/flowstack-types.lua
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("Write the annotations to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @MainActor
    mutating func run() async throws {
        let project = try self.project.load()
        let generator = LuaTypesGenerator(
            manifest: project.manifest, hostNames: HostNames.scan(project.rules), projectName: self.project.directory)
        let text = generator.render()
        if let output {
            try writeFile(text, to: output)
        } else {
            Terminal.write(text)
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
