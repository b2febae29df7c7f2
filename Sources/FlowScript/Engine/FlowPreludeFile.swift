import Foundation

/// The Lua preludes of FlowScript, `.lua` files of `Sources/FlowScript/Prelude` shipped as the
/// module's resource (`Bundle.module`), each read once per process.
enum FlowPreludeFile {
    /// The rules prelude, `Prelude/rules.lua`.
    static let rules = read("rules")
    /// The flow-test prelude, `Prelude/flows.lua`.
    static let flows = read("flows")

    /// The text of `Prelude/<name>.lua`, or an error naming the file and where it was looked for.
    static func read(_ name: String) -> Result<String, FlowScriptError> {
        let file = "Prelude/\(name).lua"
        guard let url = Bundle.module.url(forResource: name, withExtension: "lua", subdirectory: "Prelude") else {
            return .failure(FlowScriptError(
                kind: .runtime, file: "@\(name).lua",
                message: "FlowScript's \(file) is missing from its resource bundle \(Bundle.module.bundlePath); "
                    + "rebuild the package, or ship the bundle beside the executable"))
        }
        do {
            return .success(try String(contentsOf: url, encoding: .utf8))
        } catch {
            return .failure(FlowScriptError(
                kind: .runtime, file: "@\(name).lua", message: "FlowScript's \(file) cannot be read at \(url.path): \(error)"))
        }
    }
}
