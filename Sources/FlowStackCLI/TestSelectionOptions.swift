import ArgumentParser
import FlowTesting
import Foundation

/// `--filter PATTERN`: the flow tests a command runs (`test`, `watch`, `graph`).
struct TestFilterOption: ParsableArguments {
    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp("Run only the tests whose file or name contains PATTERN (case-insensitive).", valueName: "PATTERN"))
    var pattern: String?
}

/// Which tests `flowstack test` runs, and in what order: `--filter`, `--tags`, `--exclude-tags`,
/// `--shuffle`, `--seed`.
struct TestSelectionOptions: ParsableArguments {
    @OptionGroup var filter: TestFilterOption

    @Option(help: ArgumentHelp(
        "Run only the tests tagged with one of TAGS (comma-separated; a tag is a #word in a test's or describe's name).",
        valueName: "TAGS"))
    var tags: String?

    @Option(name: .customLong("exclude-tags"), help: ArgumentHelp("Skip the tests tagged with one of TAGS (comma-separated).", valueName: "TAGS"))
    var excludeTags: String?

    @Flag(help: "Run the flow files and their tests in a random order; the seed is printed, --seed N replays it.")
    var shuffle = false

    @Option(help: ArgumentHelp("Shuffle with this seed (implies --shuffle).", valueName: "N"))
    var seed: UInt64?

    /// Whether an option leaves tests out (`--filter`, `--tags`, `--exclude-tags`).
    var narrows: Bool { filter.pattern != nil || tags != nil || excludeTags != nil }

    /// The selection the runner takes; `--shuffle` without `--seed` draws a seed here.
    var selection: FlowTestSelection {
        func split(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }.filter { !$0.isEmpty }
        }
        let seed = self.seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil)
        return FlowTestSelection(filter: filter.pattern, tags: split(tags), excludedTags: split(excludeTags), seed: seed)
    }
}
