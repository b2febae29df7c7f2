import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system side of bundles: which files belong to one, and reading them safely.
///
/// A bundle's files (`FlowRuleBundle.Contents.allFiles`) are every entry under its directory
/// except the top-level `bundle.json` and `bundle.sig` and hidden entries (any path component
/// starting with `.`, such as `.DS_Store` or `.git/`), which are skipped whole; a project's
/// (`rulesAndManifest`) are `routes.lua` and the `*.lua` files below `rules/`, what
/// `flowstack test` and `check` read. Symbolic links are
/// allowed when they resolve to a regular file inside the bundle directory; a link that
/// resolves outside is refused.
enum FlowRuleBundlePaths {
    /// The largest file a bundle may hold (`FlowRuleBundleLimits.maximumFileBytes`).
    static var maximumFileBytes: Int { FlowRuleBundleLimits.maximumFileBytes }

    /// Checks one path listed in a manifest: relative, normalized, not hidden, not a bundle file.
    static func checkListed(_ path: String, bundle: String) throws(FlowRuleBundleError) {
        if path.hasPrefix("/") {
            throw .pathEscapesBundle(bundle: bundle, file: path, detail: "an absolute path")
        }
        if path.contains("\\") || path.contains("\0") {
            throw .malformedManifest(bundle: bundle, detail: "the path \(path) contains a backslash or NUL; paths are /-separated")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains("..") {
            throw .pathEscapesBundle(bundle: bundle, file: path, detail: "a \"..\" component")
        }
        if parts.contains(where: { $0.isEmpty || $0 == "." }) {
            throw .malformedManifest(bundle: bundle, detail: "the path \"\(path)\" is not a normalized relative path")
        }
        if parts.contains(where: { $0.hasPrefix(".") }) {
            throw .malformedManifest(bundle: bundle, detail: "the path \(path) is hidden; hidden files are never part of a bundle")
        }
        if path == FlowRuleBundle.manifestFileName || path == FlowRuleBundle.signatureFileName {
            throw .malformedManifest(bundle: bundle, detail: "the manifest lists \(path), which is never hashed")
        }
        try FlowRuleBundleLimits.check(path: path, bundle: bundle)
    }

    /// The directory's real path (every symbolic link resolved), or a refusal when it is not a
    /// directory.
    static func resolvedDirectory(_ directory: URL) throws(FlowRuleBundleError) -> String {
        let path = directory.path
        guard let real = realPath(path), kind(of: real, followingLinks: false) == .directory else {
            throw .notADirectory(bundle: path)
        }
        return real
    }

    /// Every file of the bundle rooted at `root` (a real path), relative and in lexical order:
    /// all of them, or `routes.lua` and the `*.lua` files below `rules/`.
    ///
    /// Refuses a file deeper or a listing longer than `FlowRuleBundleLimits` allow.
    static func listFiles(root: String, bundle: String, contents: FlowRuleBundle.Contents = .allFiles) throws(FlowRuleBundleError) -> [String] {
        var files: [String] = []
        switch contents {
        case .allFiles:
            try collect(root: root, relative: "", bundle: bundle, into: &files)
        case .rulesAndManifest:
            let manifest = FlowRuleBundle.projectManifestPath
            switch kind(of: root + "/" + manifest, followingLinks: false) {
            case .missing: break
            case .directory: throw .unreadable(bundle: bundle, file: manifest, detail: "a folder, not a file")
            case .symbolicLink:
                try checkLink(manifest, root: root, bundle: bundle)
                files.append(manifest)
            case .regular, .other: files.append(manifest)
            }
            let rules = FlowRuleBundle.projectRulesFolder
            switch kind(of: root + "/" + rules, followingLinks: false) {
            case .missing: break
            case .directory:
                var below: [String] = []
                try collect(root: root, relative: rules, bundle: bundle, into: &below)
                files += below.filter { $0.hasSuffix(".lua") }
            case .symbolicLink, .regular, .other:
                throw .unreadable(bundle: bundle, file: rules, detail: "not a folder (a link to a folder is not followed)")
            }
        }
        return files.sorted(by: FlowRuleBundleManifest.lexicallyPrecedes)
    }

    private static func collect(root: String, relative: String, bundle: String, into files: inout [String]) throws(FlowRuleBundleError) {
        let directory = relative.isEmpty ? root : root + "/" + relative
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadable(bundle: bundle, file: relative, detail: "the directory cannot be listed")
        }
        for name in names where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            if relative.isEmpty, name == FlowRuleBundle.manifestFileName || name == FlowRuleBundle.signatureFileName {
                continue
            }
            switch kind(of: root + "/" + child, followingLinks: false) {
            case .directory:
                try collect(root: root, relative: child, bundle: bundle, into: &files)
            case .symbolicLink:
                try checkLink(child, root: root, bundle: bundle)
                try FlowRuleBundleLimits.check(path: child, bundle: bundle)
                files.append(child)
            case .regular, .other, .missing:
                try FlowRuleBundleLimits.check(path: child, bundle: bundle)
                files.append(child)
            }
            guard files.count <= FlowRuleBundleLimits.maximumFileCount else {
                throw .overLimit(
                    bundle: bundle, file: nil,
                    detail: "it holds more than \(FlowRuleBundleLimits.maximumFileCount) files, the limit")
            }
        }
    }

    /// Refuses a symbolic link whose target resolves outside the bundle.
    private static func checkLink(_ relative: String, root: String, bundle: String) throws(FlowRuleBundleError) {
        let path = root + "/" + relative
        guard let real = realPath(path) else {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw .unreadable(bundle: bundle, file: relative, detail: "a symbolic link to \(target), which does not exist")
        }
        guard real.hasPrefix(root + "/") else {
            throw .pathEscapesBundle(bundle: bundle, file: relative, detail: "a symbolic link to \(real)")
        }
    }

    /// Reads one file of the bundle: its real path must stay inside `root` and be a regular file.
    ///
    /// The file is opened once and its bytes are returned: callers hash and use those same
    /// bytes, so nothing can change between checking and loading.
    package static func read(_ relative: String, root: String, bundle: String) throws(FlowRuleBundleError) -> (url: URL, data: Data) {
        let path = root + "/" + relative
        if kind(of: path, followingLinks: false) == .missing {
            throw .missingFile(bundle: bundle, file: relative)
        }
        guard let real = realPath(path) else {
            throw .unreadable(bundle: bundle, file: relative, detail: "a symbolic link whose target does not exist")
        }
        guard real.hasPrefix(root + "/") else {
            throw .pathEscapesBundle(bundle: bundle, file: relative, detail: "it resolves to \(real)")
        }
        let descriptor = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .unreadable(bundle: bundle, file: relative, detail: String(cString: strerror(errno)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(bundle: bundle, file: relative, detail: "not a regular file")
        }
        guard Int(info.st_size) <= maximumFileBytes else {
            throw .overLimit(bundle: bundle, file: relative, detail: "it holds \(info.st_size) bytes, more than the limit of \(maximumFileBytes >> 20) MiB per file")
        }
        do {
            let data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
            guard data.count <= maximumFileBytes else {
                throw FlowRuleBundleError.overLimit(
                    bundle: bundle, file: relative, detail: "it holds more than the limit of \(maximumFileBytes >> 20) MiB per file")
            }
            return (URL(fileURLWithPath: path), data)
        } catch let error as FlowRuleBundleError {
            throw error
        } catch {
            throw .unreadable(bundle: bundle, file: relative, detail: "\(error)")
        }
    }

    /// Reads a top-level bundle file (`bundle.json`, `bundle.sig`), or `nil` when it is absent.
    static func readBundleFile(_ name: String, root: String, bundle: String) throws(FlowRuleBundleError) -> Data? {
        guard kind(of: root + "/" + name, followingLinks: false) != .missing else { return nil }
        return try read(name, root: root, bundle: bundle).data
    }

    /// What a path is.
    package enum Kind {
        case missing, regular, directory, symbolicLink, other
    }

    /// What a path is, looking at a link itself unless `followingLinks`.
    package static func kind(of path: String, followingLinks: Bool) -> Kind {
        var info = stat()
        let status = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard status == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The path with every symbolic link resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
