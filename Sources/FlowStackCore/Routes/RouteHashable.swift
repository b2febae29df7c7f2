import Foundation

/// Settings for the identities `RouteHashable` derives.
public enum FlowRouteIDDiagnostics {
    /// Whether a route id built from a value's plain description prints a warning (such ids are
    /// not stable across releases). Set to `false` to silence it. Safe from any thread: the
    /// setting is kept behind a lock.
    public static var warnsOnFallbackID: Bool {
        get { setting.value }
        set { setting.value = newValue }
    }

    private static let setting = FlowLockedFlag(true)
}

/// A flag read and written under a lock, for a process-wide setting.
final class FlowLockedFlag: @unchecked Sendable {
    // `@unchecked`: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Bool

    init(_ value: Bool) {
        stored = value
    }

    /// The flag.
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A route whose equality and hashing come from a stable string `id`.
///
/// By default `id` is the case name plus its labelled associated values (`detail(id:42)`),
/// skipping closures, so routes may carry callbacks. Override `id` when a payload needs a
/// stable production identity.
public protocol RouteHashable: Hashable, Identifiable where ID == String {}

extension RouteHashable {
    /// The route's derived identity.
    public var id: String {
        FlowRouteIdentity.make(self)
    }

    /// Routes are equal when their ids are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

/// A route identified by an explicit string; subclass it for class-based routes.
open class AnyRouteHashable: RouteHashable {
    /// The route's identity.
    public let id: String

    /// Creates a route with this identity.
    public init(id: String) {
        self.id = id
    }
}

/// Builds route identities by reflection.
enum FlowRouteIdentity {
    static func make(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else {
            return part(value) ?? String(reflecting: value)
        }
        guard let payload = mirror.children.first else {
            return String(describing: value)
        }
        let name = payload.label ?? String(describing: value)
        let fields = fieldsOf(payload.value)
        return fields.isEmpty ? name : "\(name)(\(fields.joined(separator: ",")))"
    }

    private static func fieldsOf(_ payload: Any) -> [String] {
        let mirror = Mirror(reflecting: payload)
        guard mirror.displayStyle == .tuple else {
            return part(payload).map { [$0] } ?? []
        }
        var result: [String] = []
        for child in mirror.children {
            guard let text = part(child.value) else { continue }
            if let label = child.label, !label.hasPrefix(".") {
                result.append("\(label):\(text)")
            } else {
                result.append(text)
            }
        }
        return result
    }

    /// A stable text for one payload value, or `nil` for a closure (skipped).
    static func part(_ value: Any) -> String? {
        switch value {
        case let text as String: return text
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let route as any RouteHashable: return route.id
        case let flag as Bool: return String(flag)
        case let number as any BinaryInteger: return String(describing: number)
        case let number as Double: return String(number)
        case let number as Float: return String(number)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { part($0.value) ?? "nil" } ?? "nil"
        }
        if isFunction(value) { return nil }
        if mirror.displayStyle == .enum { return make(value) }
        if let identity = mirror.children.first(where: { $0.label == "id" }) {
            return part(identity.value) ?? String(describing: identity.value)
        }
        if FlowRouteIDDiagnostics.warnsOnFallbackID {
            FileHandle.standardError.write(Data(
                "FlowStack warning: RouteHashable built an id for \(type(of: value)) from its description; override `id` for a stable route identity (or set FlowRouteIDDiagnostics.warnsOnFallbackID = false).\n".utf8
            ))
        }
        return String(describing: value)
    }

    private static func isFunction(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("->")
    }
}
