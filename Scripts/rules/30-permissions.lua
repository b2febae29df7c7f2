-- Permissions: the photo picker sits behind the system's photo-library prompt.
--
-- host.requestPhotoAccess() is an asynchronous host function (it waits for the person to
-- answer the prompt), so it may only run during the async navigation calls: open the picker
-- with pushAsync / sheetAsync / fullScreenCoverAsync. A synchronous call fails closed.

local function opensScreen(op)
  return op.kind ~= "popTo"
end

flow.guard("photoPicker", function(op, stacks, ctx)
  if not opensScreen(op) then
    return
  end
  if host.requestPhotoAccess() then
    return true
  end
  return flow.redirect("sheet", "permissionDenied", "photo access denied")
end)
