import FlowLua
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a script file of a project (`routes.lua`, a rules or flow file) without trusting
/// what is on disk: only a regular file is read (a FIFO, a device such as `/dev/zero` or a
/// folder is an error naming it, never a hang), at most `maximumSize` bytes, and its text must
/// be UTF-8.
package enum FlowSourceFile {
    /// The largest script file read (64 MiB): far above any real one, below what would exhaust memory.
    static let maximumSize = 64 << 20

    /// The text of the file at `path`, or an error whose file is `displayName`.
    package static func text(atPath path: String, displayName: String) throws(FlowScriptError) -> String {
        let data = try bytes(atPath: path, displayName: displayName)
        return try text(of: data, displayName: displayName)
    }

    /// The bytes of the regular file at `path` (opened without blocking, checked with `fstat`).
    static func bytes(atPath path: String, displayName: String) throws(FlowScriptError) -> [UInt8] {
        func failure(_ message: String) -> FlowScriptError {
            FlowScriptError(kind: .runtime, file: displayName, message: message)
        }
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            // The path it looked at, when the name alone does not say it (an app's bundled
            // `routes.lua`): where the file was expected is what a missing file's fix needs.
            let place = path == displayName ? "" : " at \(path)"
            throw failure("cannot open the file\(place): \(String(cString: strerror(errno))); check that it exists and can be read")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw failure("cannot read the file: \(String(cString: strerror(errno)))")
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw failure("is \(kind(of: info.st_mode)), not a regular file: replace it with a Lua file")
        }
        let size = Int(info.st_size)
        guard size <= maximumSize else {
            throw failure("is \(size) bytes, more than the \(maximumSize >> 20) MiB a script file may have: split it")
        }
        var result = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = result.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, size - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read the file: \(String(cString: strerror(errno)))") }
            if count == 0 { break }  // the file shrank while being read
            filled += count
        }
        result.removeSubrange(filled...)
        return result
    }

    /// What a file is, from its `st_mode`, as errors say it: "a regular file", "a folder",
    /// "a symbolic link", "a FIFO (named pipe)", "a device", "a socket", or "not a regular file".
    package static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// `bytes` as text, or an error giving the line of the first byte that is not UTF-8.
    package static func text(of bytes: [UInt8], displayName: String) throws(FlowScriptError) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.utf8.elementsEqual(bytes) else { return text }
        var line = 1
        forEachUTF8Piece(of: bytes) { piece, isValid in
            if isValid, piece.first == UInt8(ascii: "\n") { line += 1 }
            return isValid
        }
        throw FlowScriptError(
            kind: .runtime, file: displayName, line: line,
            message: "the file is not UTF-8 text (the first byte that is not is on this line): save it as UTF-8")
    }

    /// A file name's bytes as text: UTF-8 as it is, every other byte as `\xNN`; and whether
    /// the name was UTF-8.
    package static func name(_ bytes: [UInt8]) -> (text: String, isUTF8: Bool) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        if decoded.utf8.elementsEqual(bytes) { return (decoded, true) }
        var text = ""
        forEachUTF8Piece(of: bytes) { piece, isValid in
            if isValid {
                text += String(decoding: piece, as: UTF8.self)
            } else {
                for byte in piece { text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded() }
            }
            return true
        }
        return (text, false)
    }

    /// Walks `bytes` as UTF-8, a piece at a time: one scalar's bytes (`isValid`), or the bytes
    /// that are not UTF-8 there. `body` returns whether to go on.
    private static func forEachUTF8Piece(of bytes: [UInt8], _ body: (_ piece: ArraySlice<UInt8>, _ isValid: Bool) -> Bool) {
        var offset = 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            let length: Int
            let isValid: Bool
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): (length, isValid) = (encoded.count, true)
            case .error(let count): (length, isValid) = (count, false)
            case .emptyInput: return
            }
            guard body(bytes[offset..<offset + length], isValid) else { return }
            offset += length
        }
    }
}

private extension String {
    /// Two hex digits.
    func leftPadded() -> String { count < 2 ? "0" + self : self }
}
