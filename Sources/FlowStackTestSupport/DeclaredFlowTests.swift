// Counting a project's flow tests from its files. Not a product: never shipped.
import Foundation

/// The flow tests a project's files declare, counted from the text: what a run must report.
public enum DeclaredFlowTests {
    /// The number of lines that start an `it(` (indentation allowed) in the `*.lua` files below
    /// `directory`: what a run of the project's flows must have passed, failed or skipped in all.
    public static func count(in directory: URL) throws -> Int {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory.path])
        }
        var count = 0
        for case let file as URL in files where file.pathExtension == "lua" {
            let text = try String(contentsOf: file, encoding: .utf8)
            count += text.split(separator: "\n").filter { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("it(") }.count
        }
        return count
    }
}
