-- The handshake: hello names the protocol and lists the session ops.
return {
  title = "hello answers the protocol name, an implementation name and the sorted op list",
  clauses = { "CONF-050", "CONF-025" },
  run = function(t)
    local h = t:call("hello", {})
    t:check(h.protocol == "onepath-port/1", "protocol is onepath-port/1, got " .. tostring(h.protocol))
    t:check(type(h.implementation) == "string" and #h.implementation > 0, "implementation is a non-empty string")
    t:check(type(h.ops) == "table", "ops is a list")
    local seen = {}
    for i, name in ipairs(h.ops or {}) do
      seen[name] = true
      if i > 1 then t:check(h.ops[i - 1] < name, "ops are sorted by byte value without duplicates") end
    end
    for _, op in ipairs({ "hello", "drop", "echo" }) do
      t:check(seen[op], "the session op " .. op .. " is listed")
    end
    -- a second hello in the same session is allowed and changes nothing
    local h2 = t:call("hello")
    t:check(h2.protocol == h.protocol, "hello is repeatable")
  end,
}
