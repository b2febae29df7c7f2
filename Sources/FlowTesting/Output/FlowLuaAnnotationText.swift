import FlowLua
import FlowStackCore

/// Names in a LuaLS annotation file (`flowstack types`): the one place they are written, so a
/// route, dialog, tab, fact, field or host name stays inside its `---@alias`, `---@field` or
/// `---@class` line (an annotation is a Lua comment: a line break in it would start code).
package enum FlowLuaAnnotationText {
    /// A string literal type (`"home"`): quoted as a Lua string, on one line.
    package static func literal(_ name: String) -> String {
        FlowLuaSourceText.string(name)
    }

    /// A field name: bare when it is a Lua identifier, else `["…"]`.
    package static func field(_ name: String) -> String {
        FlowLuaSourceText.key(name)
    }

    /// A class name made of `prefix` and `name` (`Route.editor`), or `nil` when `name` is not
    /// a Lua identifier (a class name cannot be quoted: such a name gets no class of its own).
    package static func className(_ prefix: String, _ name: String) -> String? {
        FlowLuaSourceText.isIdentifier(name) ? prefix + "." + name : nil
    }

    /// Free text after a tag or in a `--` comment: one line.
    package static func text(_ text: String) -> String {
        FlowLuaSourceText.comment(text)
    }
}
