import FlowLua
import Foundation

/// The Lua preludes, `.lua` files of a module's `Prelude` folder shipped as its resource
/// (`Bundle.module`), each read once per process: the rules prelude here (`Sources/FlowScript`),
/// the flow-test prelude in FlowTesting's.
package enum FlowPreludeFile {
    /// The rules prelude, `Prelude/rules.lua`.
    package static let rules = read("rules")

    /// The text of `Prelude/<name>.lua` in `module`'s resource `bundle` (default: FlowScript's),
    /// or an error naming the file and where it was looked for.
    package static func read(_ name: String, bundle: Bundle = .module, module: String = "FlowScript") -> Result<String, FlowScriptError> {
        let file = "Prelude/\(name).lua"
        guard let url = bundle.url(forResource: name, withExtension: "lua", subdirectory: "Prelude") else {
            return .failure(FlowScriptError(
                kind: .runtime, file: "@\(name).lua",
                message: "\(module)'s \(file) is missing from its resource bundle \(bundle.bundlePath); "
                    + "rebuild the package, or ship the bundle beside the executable"))
        }
        do {
            return .success(try String(contentsOf: url, encoding: .utf8))
        } catch {
            return .failure(FlowScriptError(
                kind: .runtime, file: "@\(name).lua", message: "\(module)'s \(file) cannot be read at \(url.path): \(error)"))
        }
    }
}
