flow.guard("target", function(op, stacks, ctx)
  error({ code = 42, detail = "nope" })
end)
