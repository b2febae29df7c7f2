// FlowStack: a navigation router whose whole state and behaviour are plain Swift values.
//
// This module is Foundation-only, so every navigation decision builds and is tested on any
// platform; the SwiftUI host (`FlowStackUI`) only maps this state onto views.
