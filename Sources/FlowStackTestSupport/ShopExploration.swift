// The example shop explored by `flowstack explore`, once per test process. Not a product: never shipped.
import Foundation

/// `flowstack explore` on `Tests/Fixtures/explore-shop` with the bounds the tests explore it
/// with, run once for every test that needs it (the CLI's JSON checks, the library's determinism
/// check): an exploration of the shop takes seconds of a core, and the tests share the same one.
public enum ShopExploration {
    /// The fixture, relative to the package root.
    public static let directory = "Tests/Fixtures/explore-shop"
    /// Steps from the root: every planted problem is within them.
    public static let depth = 2
    /// Screens per stack.
    public static let maxStack = 2
    /// Presented stacks at once.
    public static let maxPresented = 1
    /// Distinct states, over all fact combinations (the explorer's default).
    public static let maxStates = 500_000

    /// The command's arguments: these bounds, JSON output.
    public static let arguments = [
        "explore", directory, "--depth", String(depth), "--max-stack", String(maxStack),
        "--max-presented", String(maxPresented), "--max-states", String(maxStates), "--format", "json",
    ]

    /// The run, started by the first test that asks for it.
    private static let run = Task { try await CLIRunner.run(arguments, timeout: 600) }

    /// What the run printed and its exit status.
    public static var output: CLIRunner.Output {
        get async throws { try await run.value }
    }
}
