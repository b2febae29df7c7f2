// FlowScript: the embedded Lua 5.4 rules engine for FlowStack routers.
