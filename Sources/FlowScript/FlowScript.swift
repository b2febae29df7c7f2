// FlowScript: the rules engine. It runs on FlowLua, the Lua VM and its C boundary, whose API is
// `package` but for `FlowScriptError` (what every load and rule error is) and `FlowLuaRelease`:
// re-exported so that `import FlowScript` alone names the errors the engine throws.
@_exported import FlowLua
