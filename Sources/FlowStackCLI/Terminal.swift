import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output (coloured only on a terminal) or a file.
struct Terminal {
    /// Whether ANSI colours are used.
    let colors: Bool

    /// Standard output; colours when it is a terminal and `NO_COLOR` is not set.
    static var standardOutput: Terminal {
        Terminal(colors: isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    /// Writes a line to standard output at once (no buffering, so pipes see it immediately).
    func line(_ text: String = "") {
        Terminal.write(text + "\n")
    }

    /// Writes text to standard output at once.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Text in green, red, yellow, dim or bold when colours are on.
    func green(_ text: String) -> String { paint(text, "32") }
    func red(_ text: String) -> String { paint(text, "31") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func bold(_ text: String) -> String { paint(text, "1") }

    /// The time of day as `HH:mm:ss`, the prefix of the lines `watch` and `serve` print per save.
    static func clockTime() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }

    private func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Writes `text` to `path`, creating directories; explains what to do when it cannot.
func writeFile(_ text: String, to path: String, option: String? = "--output") throws {
    let url = URL(fileURLWithPath: path)
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    } catch {
        let what = option.map { "pass a writable path to \($0)" } ?? "check that its folder is writable"
        throw CommandFailure("cannot write \(path): \(error.localizedDescription); \(what)")
    }
}
