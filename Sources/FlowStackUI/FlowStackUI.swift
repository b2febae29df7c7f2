// FlowStackUI: the SwiftUI host of FlowStack. One import gives the whole API.
@_exported import FlowStack
@_exported import FlowScript
