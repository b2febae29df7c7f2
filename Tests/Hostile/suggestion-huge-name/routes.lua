return {
  root = "root",
  routes = { root = {}, target = {}, kind = {}, field = {}, after = { params = { id = "string" } } },
}
