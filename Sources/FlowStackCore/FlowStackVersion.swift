/// FlowStack's own version, as `flowstack --version` prints it.
public enum FlowStackVersion {
    /// The package's version (semantic versioning).
    public static let current = "1.0.0"
}
