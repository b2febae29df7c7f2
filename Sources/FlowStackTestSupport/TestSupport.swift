// Helpers shared by FlowStack's test targets. Not a product: never shipped.
import FlowStack
