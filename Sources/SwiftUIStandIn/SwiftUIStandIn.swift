// A declarations-only stand-in for the part of SwiftUI that FlowStackUI uses. It exists so that
// `swift build` on platforms without SwiftUI type-checks the SwiftUI layer. It is never linked
// on Apple platforms (Package.swift adds it only where SwiftUI does not exist).
