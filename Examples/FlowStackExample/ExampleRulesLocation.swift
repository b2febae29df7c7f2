import Foundation

/// Where the example app loads its Lua rules from, and whether it watches them.
///
/// - In a DEBUG build on the Simulator: the repository's `Scripts/` folder, found from this
///   source file's path (`#filePath`), watched, so an edit in the editor reaches the running
///   app at once. The Simulator reads the Mac's file system; a bundled copy would be a
///   build-time snapshot.
/// - Everywhere else (a device, a release build): the `Scripts` folder bundled with the example
///   as a declared resource, read-only, so nothing is watched. (Loading rules that change on a
///   device is a separate feature.)
struct ExampleRulesLocation: Equatable {
    /// The folder holding `routes.lua` and `rules/`.
    let scripts: URL
    /// Whether the rules reload when their files change.
    let isWatched: Bool

    /// The location for this build: the source folder in a DEBUG Simulator build when it exists,
    /// the bundled folder otherwise; `nil` when neither is there.
    static func current(filePath: String = #filePath) -> ExampleRulesLocation? {
        #if DEBUG && targetEnvironment(simulator)
        if let source = sourceScripts(filePath: filePath) {
            return ExampleRulesLocation(scripts: source, isWatched: true)
        }
        #endif
        return bundledScripts().map { ExampleRulesLocation(scripts: $0, isWatched: false) }
    }

    /// The repository's `Scripts/` folder, from the path of a file in
    /// `Examples/FlowStackExample/`, or `nil` when it is not there (the sources are not on this
    /// machine).
    static func sourceScripts(filePath: String) -> URL? {
        let scripts = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()  // Examples/FlowStackExample
            .deletingLastPathComponent()  // Examples
            .deletingLastPathComponent()  // the repository
            .appendingPathComponent("Scripts", isDirectory: true)
        let manifest = scripts.appendingPathComponent("routes.lua").path
        return FileManager.default.fileExists(atPath: manifest) ? scripts : nil
    }

    /// The `Scripts` folder bundled with the example (the target's resource), or with the app
    /// when an app target copies it itself.
    static func bundledScripts() -> URL? {
        Bundle.module.url(forResource: "Scripts", withExtension: nil)
            ?? Bundle.main.url(forResource: "Scripts", withExtension: nil)
    }
}
