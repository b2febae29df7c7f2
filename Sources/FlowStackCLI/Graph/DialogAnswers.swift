import FlowScript
import FlowTesting
import Foundation

/// A navigation the rules answered with a dialog, as the flows ran it: the rules decided (a
/// guard returned `flow.redirect("dialog", dialog, reason)`, however it got there: a loop, a
/// helper function) and the router recorded the answer, for `flowstack graph`.
struct DialogAnswer: Hashable {
    /// The route whose navigation was answered (the guarded route).
    let route: String
    /// The dialog's id.
    let dialog: String
    /// The rule's reason, when it gave one.
    let reason: String?

    /// Every dialog answer of the flows' steps, in test and step order, each once.
    static func observed(in results: [FlowTestResult]) -> [DialogAnswer] {
        observed(in: results.flatMap(\.steps))
    }

    /// Every dialog answer of `steps`, in order, each once.
    static func observed(in steps: [FlowNavigationStep]) -> [DialogAnswer] {
        var answers: [DialogAnswer] = []
        var seen: Set<DialogAnswer> = []
        for step in steps {
            guard let dialog = step.dialog else { continue }
            // Without a reason of its own the rules record "answered by <file:line> with the dialog 'id'".
            let reason = step.reason.flatMap { $0.hasPrefix("answered by ") || $0.hasPrefix("answered with the dialog ") ? nil : $0 }
            let answer = DialogAnswer(route: step.to, dialog: dialog, reason: reason)
            if seen.insert(answer).inserted { answers.append(answer) }
        }
        return answers
    }
}
