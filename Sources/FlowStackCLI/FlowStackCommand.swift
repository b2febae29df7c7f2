import ArgumentParser
import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// The `flowstack` command: runs, checks, watches and draws the flow tests of a rules project.
@main
struct FlowStackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowstack",
        abstract: "Test, check, explore and sign FlowStack navigation rules written in Lua.",
        discussion: """
            A flow project is a directory with an optional route manifest, rules and flow tests:

              Scripts/
                routes.lua     the manifest: root, routes, dialogs, facts, links
                rules/*.lua    navigation rules (guards, preconditions, styles, deep links)
                flows/*.lua    flow tests (describe / it / expect)

            Examples:
              flowstack test                         run the flows of ./Scripts
              flowstack test Scripts --filter paywall
              flowstack check Scripts                find mistakes without running flows
              flowstack watch Scripts                re-run the flows on every save
              flowstack graph Scripts > flows.mmd    the navigation graph, as Mermaid
              flowstack types Scripts > Scripts/flowstack-types.lua
              flowstack explore Scripts --max-stack 1 --max-queued 0
                                                     every path, every fact combination
              flowstack diff old-rules Scripts --depth 2 --max-stack 1 --max-queued 0
                                                     what a change to the rules changes
              flowstack keygen --private-key rules.key --public-key rules.pub
              flowstack bundle Scripts --key rules.key --version 1.4.0 \\
                  --min-app 2.0 --expires 2027-06-01
              flowstack --version                    FlowStack's version and its Lua
            """,
        subcommands: [
            TestCommand.self, CheckCommand.self, WatchCommand.self, GraphCommand.self, TypesCommand.self, BundleCommand.self,
            KeygenCommand.self, ServeCommand.self, ExploreCommand.self, DiffCommand.self,
        ]
    )

    /// `flowstack 1.0.0 (Lua 5.4.7)`.
    static var versionText: String { "flowstack \(FlowStackVersion.current) (\(FlowLuaRelease.linked))" }

    /// Runs the command the arguments name; a command name that is not one is a usage error
    /// with the commands and "did you mean" (`flowstack chek`), not "unexpected arguments".
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Not the configuration's `version`: ArgumentParser gives every command that flag, and
        // reads it anywhere, so `bundle --version 1.4.0` with any other mistake (a missing --key,
        // a directory that is not a project) printed the version and exited 0.
        if arguments == ["--version"] {
            print(versionText)
            return
        }
        if let problem = unknownCommand(in: arguments) {
            FileHandle.standardError.write(Data((problem + "\n").utf8))
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // explore and diff promise 2 for a usage error (1 is their findings), not 64.
            if exitCode(for: error) == .validationFailure, let first = arguments.first, ["explore", "diff"].contains(first) {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    /// The error for a first argument that names no command, or `nil`.
    static func unknownCommand(in arguments: [String]) -> String? {
        // `flowstack help chek` as `flowstack chek`.
        let named = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        guard let first = named.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !names.contains(first), first != "help" else { return nil }
        let hint = FlowSuggestion.closest(to: first, in: names).map { " (did you mean '\($0)'?)" } ?? ""
        return "Error: unknown command '\(first)'\(hint); the commands are \(names.joined(separator: ", ")).\n"
            + "Usage: flowstack <command> [DIR] [options] (flowstack --help lists them, flowstack help <command> shows one)"
    }
}
