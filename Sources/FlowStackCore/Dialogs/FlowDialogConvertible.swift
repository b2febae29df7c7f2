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

/// A dialog a rule named that the app's dialog type cannot represent.
public struct FlowDialogConversionError: Error, CustomStringConvertible, Sendable {
    /// What was wrong and what would fit.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

extension FlowDialogValue: FlowDialogConvertible {
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
    public var flowDialog: FlowDialogValue { FlowDialogCoding.value(of: self) }

    /// Builds the dialog from its `Codable` shape.
    public init(flowDialog: FlowDialogValue) throws {
        self = try FlowDialogCoding.make(Self.self, from: flowDialog)
    }
}

extension FlowDialogConvertible where Self: Codable & Identifiable, ID == String {
    /// The dialog as rules see it, through its `Codable` shape (which also builds it back).
    public var flowDialog: FlowDialogValue { FlowDialogCoding.value(of: self) }

    /// Builds the dialog from its `Codable` shape.
    public init(flowDialog: FlowDialogValue) throws {
        self = try FlowDialogCoding.make(Self.self, from: flowDialog)
    }
}

/// The `Codable` conversions of dialogs.
enum FlowDialogCoding {
    /// `{ "<case>": { fields } }` for an enum, `"<raw value>"` for a string enum, `{ "id": ..., fields }`
    /// for a struct.
    static func value<Dialog: Encodable>(of dialog: Dialog) -> FlowDialogValue {
        guard let data = try? JSONEncoder().encode(dialog),
              let shape = try? JSONDecoder().decode(FlowScriptValue.self, from: data) else {
            return FlowDialogValue(id: String(describing: dialog))
        }
        switch shape {
        case .string(let id):
            return FlowDialogValue(id: id)
        case .table(let fields):
            if case .string(let id)? = fields["id"] {
                let rest = fields.filter { $0.key != "id" }
                return FlowDialogValue(id: id, fields: rest.isEmpty ? nil : rest)
            }
            if fields.count == 1, let (name, payload) = fields.first {
                if case .table(let payloadFields) = payload {
                    return FlowDialogValue(id: name, fields: payloadFields.isEmpty ? nil : payloadFields)
                }
                return FlowDialogValue(id: name, fields: ["_0": payload])
            }
            return FlowDialogValue(id: String(describing: dialog))
        default:
            return FlowDialogValue(id: String(describing: dialog))
        }
    }

    /// The dialog of type `Dialog` with this id and fields: an enum case, a string enum's raw
    /// value, or a struct with an `id` field.
    static func make<Dialog: Decodable>(_ type: Dialog.Type, from value: FlowDialogValue) throws -> Dialog {
        let fields = value.fields ?? [:]
        var shapes: [FlowScriptValue] = [.table([value.id: .table(fields)])]
        if fields.isEmpty { shapes.append(.string(value.id)) }
        shapes.append(.table(fields.merging(["id": .string(value.id)]) { _, id in id }))
        var lastError: (any Error)?
        for shape in shapes {
            do {
                return try JSONDecoder().decode(Dialog.self, from: try JSONEncoder().encode(shape))
            } catch {
                lastError = error
            }
        }
        throw FlowDialogConversionError(
            "\(Dialog.self) has no dialog '\(value.id)' with fields \(value.fields.map { "\($0)" } ?? "none") "
                + "(check the id and its payload fields): \(lastError.map { "\($0)" } ?? "no shape fits")")
    }
}
