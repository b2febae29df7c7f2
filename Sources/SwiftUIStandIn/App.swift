// App, Scene, SceneBuilder and WindowGroup (stand-in: declarations only, for type-checking SwiftUI
// code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not
// modelled: `main()` starts nothing).

#if !canImport(SwiftUI)

/// A type that represents the structure and behaviour of an app.
@MainActor @preconcurrency
public protocol App {
    /// The type of scene representing the content of the app.
    associatedtype Body: Scene

    /// The content and behaviour of the app.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }

    /// Creates an instance of the app using the body that you define for its content.
    @MainActor @preconcurrency init()
}

extension App {
    /// Initializes and runs the app; the stand-in has no app life cycle, so it returns at once.
    @MainActor @preconcurrency
    public static func main() {}
}

/// A part of an app's user interface with a life cycle managed by the system.
@MainActor @preconcurrency
public protocol Scene {
    /// The type of scene that represents the body of this scene.
    associatedtype Body: Scene

    /// The content and behaviour of the scene.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Scene where Body == Never {
    /// Primitive scenes have no body, as in SwiftUI.
    public var body: Never { primitiveViewHasNoBody(Self.self) }
}

/// `Never` is also the body type of primitive scenes.
extension Never: Scene {}

/// A result builder for composing a collection of scenes into a single composite scene.
@resultBuilder
public struct SceneBuilder {
    /// Passes a scene expression through unmodified.
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }

    /// Passes a single scene through unmodified.
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }

    /// Combines several scenes into one composite scene.
    public static func buildBlock<each Content: Scene>(_ content: repeat each Content) -> some Scene {
        TupleScene((repeat each content))
    }
}

/// The scene a scene builder makes from several scenes.
struct TupleScene<T>: Scene {
    /// Creates a composite scene from a tuple of scenes (kept by type only: nothing renders here).
    nonisolated init(_ value: T) {}

    /// A composite scene is a primitive scene.
    typealias Body = Never
}

/// A scene that presents a group of identically structured windows.
nonisolated public struct WindowGroup<Content: View>: Scene {
    /// The content of each window.
    let content: Content

    /// Creates a window group.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a window group with an identifier.
    public init(id: String, @ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a window group with a text view title.
    public init(_ title: Text, @ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a window group with a localized title string.
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a window group with a title string.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a window group with a text view title and an identifier.
    public init(_ title: Text, id: String, @ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a window group with a localized title string and an identifier.
    public init(_ titleKey: LocalizedStringKey, id: String, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// Creates a window group with a title string and an identifier.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, id: String, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// A window group is a primitive scene.
    public typealias Body = Never
}

#endif
