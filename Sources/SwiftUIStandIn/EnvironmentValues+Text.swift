// Text-related environment values (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled:
// every read returns SwiftUI's default value).

#if !canImport(SwiftUI)

extension EnvironmentValues {
    /// An environment value that indicates how a text view aligns its lines when the content
    /// wraps or contains newlines.
    public var multilineTextAlignment: TextAlignment {
        get { .leading }
        set {}
    }
}

#endif
