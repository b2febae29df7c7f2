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
              flowstack explore Scripts              every path under every fact combination
              flowstack diff old-rules new-rules     what a change to the rules changes
              flowstack keygen --private-key rules.key --public-key rules.pub
              flowstack bundle Scripts --key rules.key --version 1.4.0 \\
                  --min-app 2.0 --expires 2027-06-01
            """,
        version: "flowstack \(FlowStackVersion.current) (\(FlowLuaRelease.linked))",
        subcommands: [
            TestCommand.self, CheckCommand.self, WatchCommand.self, GraphCommand.self, TypesCommand.self, BundleCommand.self,
            KeygenCommand.self, ServeCommand.self, ExploreCommand.self, DiffCommand.self,
        ]
    )
}
