/// FlowStack's own version, as `flowstack --version` prints it.
package enum FlowStackVersion {
    /// The package's version (semantic versioning).
    package static let current = "1.0.0"
}
