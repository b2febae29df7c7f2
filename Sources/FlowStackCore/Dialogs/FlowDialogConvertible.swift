import Foundation

/// A dialog type that rules scripts can see, guard and show (`flow.dialog_guard`,
/// `flow.redirect("dialog", ...)`, `flow.op("showDialog", ...)`).
///
/// Dialogs cross into Lua as an id and payload fields (`FlowDialogValue`). `Codable` types get
/// both directions for free (an enum's case name becomes the id and its labelled associated
/// values the fields; a struct's `id` field the id and its other fields the fields), and
/// `Identifiable` types with a `String` id get the way into the rules (rules can guard them; a
/// rule can show one only if it also converts back). Declare the conformance
/// (`extension AppDialog: FlowDialogConvertible {}`); a router whose dialog type does not
/// conform shows its dialogs without asking the rules.
public protocol FlowDialogConvertible {
    /// The dialog as rules see it.
    var flowDialog: FlowDialogValue { get }
    /// Builds the dialog a rule names; throws when the id or fields do not fit.
    init(flowDialog: FlowDialogValue) throws
}

/// A dialog a rule named that the app's dialog type cannot represent (the error routes share).
public typealias FlowDialogConversionError = FlowValueConversionError

extension FlowNamedValue: FlowDialogConvertible where Role == FlowDialogRole {
    /// The dialog itself.
    public var flowDialog: FlowDialogValue { self }

    /// The dialog itself.
    public init(flowDialog: FlowDialogValue) {
        self = flowDialog
    }
}

extension FlowDialogConvertible where Self: Identifiable, ID == String {
    /// The dialog as rules see it: its id, without fields.
    public var flowDialog: FlowDialogValue { FlowDialogValue(id: id) }

    /// An `Identifiable` dialog cannot be built from its id alone: implement this initializer
    /// (or make the type `Codable`) so that rules can show it.
    public init(flowDialog: FlowDialogValue) throws {
        throw FlowDialogConversionError(
            "\(Self.self) cannot be built from the dialog \(flowDialog.id): implement init(flowDialog:) or make it Codable")
    }
}

extension FlowDialogConvertible where Self: Codable {
    /// The dialog as rules see it, through its `Codable` shape.
    public var flowDialog: FlowDialogValue { FlowDialogValue(encoding: self) }

    /// Builds the dialog from its `Codable` shape.
    public init(flowDialog: FlowDialogValue) throws {
        self = try flowDialog.decode(as: Self.self)
    }
}

extension FlowDialogConvertible where Self: Codable & Identifiable, ID == String {
    /// The dialog as rules see it, through its `Codable` shape (which also builds it back).
    public var flowDialog: FlowDialogValue { FlowDialogValue(encoding: self) }

    /// Builds the dialog from its `Codable` shape.
    public init(flowDialog: FlowDialogValue) throws {
        self = try flowDialog.decode(as: Self.self)
    }
}
