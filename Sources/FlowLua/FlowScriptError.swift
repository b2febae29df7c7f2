/// An error from a Lua script or from the Lua engine, with the script location when known.
///
/// `description` reads like Lua's own messages: `rules/paywall.lua:3: attempt to index a nil
/// value (global 'facts')`.
public struct FlowScriptError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, in categories a caller can act on.
    public enum Kind: String, Sendable, CaseIterable {
        /// The script does not compile.
        case syntax
        /// The script raised an error while running (including `error(...)` calls).
        case runtime
        /// A call ran more VM instructions than its instruction budget allows.
        case instructionBudget
        /// The VM needed more memory than its memory budget allows.
        case memoryBudget
        /// A call ran longer than the VM's time limit (work in C the instruction budget does not
        /// count, such as a loop comparing megabyte strings).
        case timeLimit
        /// A script read or wrote a global that was not declared before the globals were locked.
        case undeclaredGlobal
        /// A script tried to change a read-only table (such as `facts`).
        case readOnly
        /// A script used something the sandbox forbids (binary chunks, `collectgarbage` options, `__gc`).
        case sandbox
        /// A value passed to a host function, or converted to Swift, has the wrong type.
        case typeError
        /// A script function returned something its caller does not accept.
        case badReturn
        /// A host function written in Swift failed.
        case host
        /// An asynchronous host function was called during a synchronous call.
        case asyncHostInSyncCall
        /// The Lua VM was already closed.
        case closed
    }

    /// The category of the error.
    public var kind: Kind
    /// The script file the error points at (the chunk name, relative to the loaded directory), if known.
    public var file: String?
    /// The 1-based line in `file`, if known.
    public var line: Int?
    /// The message without the location prefix.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, file: String? = nil, line: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, `file: message` or just the message, depending on what is known.
    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        case let (file?, nil): return "\(file): \(message)"
        default: return message
        }
    }
}

extension FlowScriptError {
    /// Splits Lua's `file:line: message` form; nil when the first line has no `:<digits>:` run
    /// before its first `: `.
    package static func splitLocation(_ text: String) -> (file: String, line: Int, message: String)? {
        let bytes = Array(text.utf8)
        let colon = UInt8(ascii: ":")
        var index = 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            if bytes[index] == colon {
                var end = index + 1
                while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                if end > index + 1, end < bytes.count, bytes[end] == colon,
                   let line = Int(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) {
                    var start = end + 1
                    if start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
                    return (String(decoding: bytes[..<index], as: UTF8.self), line,
                            String(decoding: bytes[start...], as: UTF8.self))
                }
                // "text: ..." before any location: the message has no location prefix.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: " ") { return nil }
            }
            index += 1
        }
        return nil
    }
}
