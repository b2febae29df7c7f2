import ArgumentParser
import FlowScript
import FlowTesting

/// The bounds `explore` and `diff` share: how far from the root, and how large a state may grow.
struct ExploreBounds: ParsableArguments {
    @Option(help: "Steps from the root (every state this far is explored under every fact combination).")
    var depth = 2

    @Option(help: "Screens per stack, its root included.")
    var maxStack = 2

    @Option(help: "Presented stacks at once.")
    var maxPresented = 1

    @Option(help: "Dialogs waiting behind the visible one (each queued dialog is another state).")
    var maxQueued = 0

    @Option(help: "Distinct (facts, state) pairs met, those split on a fact read included: once reached, the depth being explored is finished and the run stops.")
    var maxStates = 50_000

    /// The explorer's options; a bound out of range is a usage error (exit 2).
    func options() throws -> FlowExplorer.Options {
        guard depth >= 0, maxStack >= 1, maxPresented >= 0, maxQueued >= 0, maxStates >= 1 else {
            Terminal.error("error: --depth must be at least 0, --max-stack 1, --max-presented 0, --max-queued 0, --max-states 1")
            throw ExitCode(2)
        }
        return .init(depth: depth, maxStack: maxStack, maxPresented: maxPresented, maxQueued: maxQueued, maxStates: maxStates)
    }
}
