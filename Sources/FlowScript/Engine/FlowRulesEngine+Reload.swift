import FlowLua
import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// Builds a fresh VM from the rules directory (or the given sources) and swaps it in.
    ///
    /// On success the generation increments; on any failure (syntax error, error at top level,
    /// bad registration) the previous rules stay in force and the error is reported with
    /// `file:line`. A reload runs on the main actor, so it lands between operations: a
    /// synchronous navigation never sees two generations, and an async one that is waiting on a
    /// host function finishes with the rules it started with.
    @discardableResult
    public func reload(sources newSources: [FlowRulesSource]? = nil) -> FlowReloadResult {
        reload(sources: newSources, bundle: nil)
    }

    /// `reload(sources:)` recording, on success, the signed bundle the sources came from
    /// (`nil`: rules that came from no bundle), before `onReload` hears of it.
    ///
    /// `restoringGeneration` brings back rules that were in force before under their own
    /// generation instead of the next one (a flow test's rules after the test reloaded them:
    /// the next test sees the generation every test starts with).
    @discardableResult
    package func reload(
        sources newSources: [FlowRulesSource]?, bundle: (any Sendable)?, restoringGeneration: Int? = nil
    ) -> FlowReloadResult {
        let result: FlowReloadResult
        do throws(FlowScriptError) {
            let loaded: [FlowRulesSource]
            if let newSources {
                loaded = newSources
            } else if let directory {
                loaded = try FlowRulesSource.directory(directory)
            } else {
                loaded = sources
            }
            let next = restoringGeneration ?? generation + 1
            let set = try buildRuleSet(from: loaded, generation: next)
            ruleSet?.retire()
            ruleSet = set
            sources = loaded
            generation = next
            loadedBundle = bundle
            lastLoadError = nil
            configuration.logger.info("rules loaded: generation \(generation), \(loaded.count) files")
            result = .loaded(generation: generation)
        } catch {
            lastLoadError = error
            configuration.logger.error("rules reload failed, keeping generation \(generation): \(error.description)")
            result = .failed(error, keptGeneration: generation)
        }
        onReload?(result)
        return result
    }

    /// Watches the rules directory and reloads after changes (debounced: several quick writes,
    /// including editors' write-then-rename saves, give one reload).
    public func startWatching(debounce: Duration = .milliseconds(100)) throws {
        guard let directory else {
            throw FlowScriptError(kind: .runtime, message: "startWatching: this engine was loaded from sources in memory, and only a directory can be watched; "
                + "create it with FlowRulesEngine(directory:) to watch its rules, or call reload(sources:) with new sources")
        }
        guard watcher == nil else { return }
        let watcher = DirectoryWatcher(directory: directory, debounce: debounce, includes: { $0.hasSuffix(".lua") }) { [weak self] in
            self?.reload()
        }
        try watcher.start()
        self.watcher = watcher
    }

    /// Stops watching.
    public func stopWatching() {
        watcher?.stop()
        watcher = nil
    }

    /// Whether the rules directory is being watched.
    package var isWatching: Bool { watcher != nil }
}
