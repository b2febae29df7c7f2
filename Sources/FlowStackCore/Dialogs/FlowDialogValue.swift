import Foundation

/// A global dialog as scripts and rules see it: an id (`"networkError"`) and, when it was given
/// as a table, its other fields (`{ id = "deleteConfirmation", item = "42" }`).
///
/// The dialog type of the routers the flow-test runner drives, and the erased form in which
/// any app dialog type crosses into the rules (see `FlowDialogConvertible`). It is
/// `Identifiable` by its id, so rules see `ctx.dialog` as the id string. The shape, `Codable`
/// form and Lua conversion are those of every ``FlowNamedValue``.
public typealias FlowDialogValue = FlowNamedValue<FlowDialogRole>

/// The role of ``FlowDialogValue``: named by `id`; a dialog given as a plain id stays one.
public enum FlowDialogRole: FlowNamedValueRole {
    /// `"dialog"`.
    public static var noun: String { "dialog" }
    /// `"id"`.
    public static var nameField: String { "id" }
    /// `"field"`.
    public static var fieldNoun: String { "field" }
    /// `"fields"`.
    public static var fieldsKey: String { "fields" }
    /// `true`: `"networkError"` stays a string for the rules.
    public static var keepsPlainForm: Bool { true }

    /// The dialog for messages: `"networkError"`, `{ id = "deleteConfirmation", item = "42" }`.
    public static func describe(_ dialog: FlowDialogValue) -> String {
        guard let fields = dialog.fields else { return FlowScriptValue.string(dialog.id).description }
        return FlowScriptValue.table(fields.merging(["id": .string(dialog.id)]) { _, id in id }).description
    }
}

extension FlowNamedValue: Identifiable where Role == FlowDialogRole {
    /// Creates a dialog; `fields` is `nil` for a dialog given as a plain id.
    @inlinable
    public init(id: String, fields: [String: FlowScriptValue]? = nil) {
        self.init(name: id, fields: fields)
    }

    /// The dialog's id.
    @inlinable
    public var id: String { name }
}
