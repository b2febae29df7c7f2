import FlowScript
import Foundation

/// The navigations the rules answer with a dialog, read from their source (without running
/// them): every `flow.redirect("dialog", dialog [, reason])` inside a route's
/// `flow.guard(route, fn)`, for `flowstack graph`.
struct DialogAnswer: Hashable {
    /// The guarded route.
    let route: String
    /// The dialog's id (a string literal, or the literal `id` of a table).
    let dialog: String
    /// The redirect's reason when it is a string literal.
    let reason: String?

    /// Every dialog answer of the rules, in file and source order, each once.
    static func scan(_ rules: [FlowRulesSource]) -> [DialogAnswer] {
        var answers: [DialogAnswer] = []
        var seen: Set<DialogAnswer> = []
        for source in rules {
            let tokens = LuaTokenizer.tokens(source.text)
            for guardCall in calls(of: "guard", in: tokens) {
                let arguments = tokens.callArguments(after: guardCall)
                guard arguments.count >= 2, let route = tokens.stringLiteral(arguments[0]) else { continue }
                for redirect in calls(of: "redirect", in: tokens, within: arguments[1]) {
                    let redirectArguments = tokens.callArguments(after: redirect)
                    guard tokens.stringLiteral(redirectArguments.first)?.text == "dialog", redirectArguments.count >= 2,
                          let dialog = tokens.dialogID(redirectArguments[1]) else { continue }
                    let reason = redirectArguments.count >= 3 ? tokens.stringLiteral(redirectArguments[2])?.text : nil
                    let answer = DialogAnswer(route: route.text, dialog: dialog.text, reason: reason)
                    if seen.insert(answer).inserted { answers.append(answer) }
                }
            }
        }
        return answers
    }

    /// The indices of the member names of `flow.<member>` calls in `range` (all the tokens by
    /// default).
    private static func calls(of member: String, in tokens: [LuaToken], within range: Range<Int>? = nil) -> [Int] {
        let range = range ?? tokens.indices
        var found: [Int] = []
        for index in range where index >= 2 && tokens[index].kind == .name && tokens[index].text == member {
            let flow = tokens[index - 2]
            guard tokens[index - 1].text == ".", tokens[index - 1].kind == .symbol, flow.kind == .name, flow.text == "flow",
                  index < 3 || ![".", ":"].contains(tokens[index - 3].text) else { continue }
            found.append(index)
        }
        return found
    }
}
