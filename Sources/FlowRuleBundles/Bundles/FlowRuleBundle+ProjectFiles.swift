import Foundation

extension FlowRuleBundle {
    /// Reads one file of a project directory with the checks a bundle's files get.
    ///
    /// `relative` is a `/`-separated path inside `directory` (`routes.lua`, `rules/auth.lua`).
    /// Refuses what `write` and the verifier refuse: a path that is not normalized or is
    /// hidden, a symbolic link that resolves outside the directory, something other than a
    /// regular file, and a file over the per-file limit. The bytes returned are the ones
    /// checked, so nothing can change between checking and using them.
    package static func readProjectFile(_ relative: String, in directory: URL) throws(FlowRuleBundleError) -> Data {
        let bundle = directory.path
        try FlowRuleBundlePaths.checkListed(relative, bundle: bundle)
        let root = try FlowRuleBundlePaths.resolvedDirectory(directory)
        return try FlowRuleBundlePaths.read(relative, root: root, bundle: bundle).data
    }
}
