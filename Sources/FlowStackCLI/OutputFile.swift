import FlowScript
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file the user named on the command line (`--coverage PATH`, keygen's key files) by
/// opening that very path and writing into it, never beside it and renaming over it.
///
/// The last component must be a regular file or absent: a symbolic link is refused, not
/// followed (`O_NOFOLLOW`); a device, FIFO, socket or folder is refused before a byte is
/// written (opened non-blocking, checked with `fstat`, truncated only then). Missing parent
/// folders are created. Every refusal says what the path is and what to pass instead.
enum OutputFile {
    /// Whether an existing file may be replaced.
    enum Existing {
        /// Replace the contents of an existing regular file.
        case replace
        /// Refuse when anything exists at the path (created with `O_EXCL`).
        case refuse(hint: String)
    }

    /// Writes `data` to `path`; a new file gets `permissions` (an existing one gets them too
    /// when `enforcePermissions`). `option` names the command-line option in errors.
    static func write(
        _ data: Data, to path: String, option: String, permissions: mode_t = 0o644,
        existing: Existing = .replace, enforcePermissions: Bool = false
    ) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot write \(path): its folder cannot be created (\(error.localizedDescription)); pass a writable path to \(option)")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            if case .refuse(let hint) = existing {
                throw CommandFailure("\(path) exists already; \(hint)")
            }
            try checkKind(info.st_mode, path: path, option: option)
        }
        var flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        if case .refuse = existing { flags |= O_EXCL }
        let descriptor = open(path, flags, permissions)
        guard descriptor >= 0 else {
            let code = errno
            if case .refuse(let hint) = existing, code == EEXIST {
                throw CommandFailure("\(path) exists already; \(hint)")
            }
            if code == ELOOP || code == EMLINK {
                throw CommandFailure("cannot write \(path): it is a symbolic link, which is not followed; pass the path of a regular file to \(option)")
            }
            if code == ENXIO {
                throw CommandFailure("cannot write \(path): it is a FIFO or device, not a regular file; pass the path of a regular file to \(option)")
            }
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(code))); pass a writable path to \(option)")
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno))); pass a writable path to \(option)")
        }
        try checkKind(info.st_mode, path: path, option: option)
        if enforcePermissions, fchmod(descriptor, permissions) != 0 {
            throw CommandFailure("cannot write \(path): its permissions cannot be set (\(String(cString: strerror(errno))))")
        }
        guard ftruncate(descriptor, 0) == 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno))); pass a writable path to \(option)")
        }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno))); pass a writable path to \(option)")
                }
                offset += written
            }
        }
    }

    /// Refuses anything but a regular file, naming what it is.
    /// Refuses at once a path `write` would refuse for what is there now (a symbolic link, a
    /// folder, a FIFO or device), so that a long run does not end with it.
    static func checkWritable(_ path: String, option: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        try checkKind(info.st_mode, path: path, option: option)
    }

    private static func checkKind(_ mode: mode_t, path: String, option: String) throws {
        guard mode & S_IFMT != S_IFREG else { return }
        let kind = FlowSourceFile.kind(of: mode) + (mode & S_IFMT == S_IFLNK ? ", which is not followed" : "")
        throw CommandFailure("cannot write \(path): it is \(kind); pass the path of a regular file to \(option)")
    }
}

/// `write(2)`, under a name that does not clash with the methods called `write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
