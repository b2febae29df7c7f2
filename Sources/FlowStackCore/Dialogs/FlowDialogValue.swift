import Foundation

/// A global dialog as scripts and rules see it: an id (`"networkError"`) and, when it was given
/// as a table, its other fields (`{ id = "deleteConfirmation", item = "42" }`).
///
/// The dialog type of the routers the flow-test runner drives, and the erased form in which
/// any app dialog type crosses into the rules (see `FlowDialogConvertible`). It is
/// `Identifiable` by its id, so rules see `ctx.dialog` as the id string. (The Lua conversions
/// are in FlowScript.)
public struct FlowDialogValue: Hashable, Sendable, Identifiable, Codable {
    /// The dialog's id.
    public let id: String
    /// The table's other fields, or `nil` when the dialog was given as a string.
    public let fields: [String: FlowScriptValue]?

    /// Creates a dialog; `fields` is `nil` for a dialog given as a plain id.
    public init(id: String, fields: [String: FlowScriptValue]? = nil) {
        self.id = id
        self.fields = fields
    }
}
