-- Malformed requests and unknown ops are answered with argument errors naming the part
-- of the request at fault; the session goes on afterwards.
return {
  title = "malformed requests and unknown ops give argument errors; the session survives",
  clauses = { "CONF-022", "CONF-024", "CONF-026", "CONF-027", "CONF-010", "CONF-011" },
  run = function(t)
    -- not JSON: field "request", value empty (the message says where reading stopped)
    t:raw('{"id":1,', { kind = "argument", field = "request", value = "" })
    t:raw('{"id":1,"op":"hello",}', { kind = "argument", field = "request", value = "" })
    t:raw('{"id":01,"op":"hello"}', { kind = "argument", field = "request", value = "" })
    t:raw('{"id":1,"op":"hello","op":"hello"}', { kind = "argument", field = "request", value = "" })
    -- CONF-022: a UTF-8 byte-order mark before the request is not JSON text here
    t:raw('\xEF\xBB\xBF{"id":1,"op":"hello"}', { kind = "argument", field = "request", value = "" })
    -- JSON, but not a request
    -- nesting deeper than 64 is a limit error, whatever follows
    t:raw('{"id":6,"op":"echo","args":{"str":' .. string.rep("[", 63) .. "x", { kind = "limit", field = "request", value = "" })
    t:raw('{"id":6,"op":"echo","args":{"str":' .. string.rep("[", 62) .. "x", { kind = "argument", field = "request", value = "" })
    t:raw('[1,2]', { kind = "argument", field = "request", value = "" })
    t:raw('{"id":2,"op":"hello","extra":true}', { kind = "argument", field = "request", value = "extra" })
    t:raw('{"op":"hello"}', { kind = "argument", field = "id", value = "" })
    t:raw('{"id":-1,"op":"hello"}', { kind = "argument", field = "id", value = "" })
    t:raw('{"id":9007199254740992,"op":"hello"}', { kind = "argument", field = "id", value = "" })
    t:raw('{"id":3}', { kind = "argument", field = "op", value = "" })
    t:raw('{"id":4,"op":"hello","args":[]}', { kind = "argument", field = "args", value = "" })
    -- the id of a readable request is echoed, also in an error answer
    local a = t:raw('{"id":9007199254740991,"op":"no.such.op"}',
      { kind = "argument", field = "op", value = "no.such.op" })
    t:check(a.id == 9007199254740991, "the largest id is echoed exactly")
    -- unknown op through the normal path
    t:expect_error("tile.frobnicate", {}, { kind = "argument", field = "op", value = "tile.frobnicate" })
    t:expect_error("HELLO", {}, { kind = "argument", field = "op", value = "HELLO" })
    -- a long value text is cut to 63 bytes, never inside a UTF-8 character (CONF-012):
    -- 62 ASCII bytes then a 2-byte character leave 62 bytes
    local long = string.rep("a", 62) .. "\u{e9}" .. "tail"
    t:expect_error(long, {}, { kind = "argument", field = "op", value = string.rep("a", 62) })
    local long2 = string.rep("b", 61) .. "\u{e9}" .. "tail"
    t:expect_error(long2, {}, { kind = "argument", field = "op", value = string.rep("b", 61) .. "\u{e9}" })
    -- args may be left out; the session is still usable
    local h = t:raw('{"id":5,"op":"hello"}')
    t:check(h.id == 5 and h.ok ~= nil, "a request without args is executed")
    t:call("hello", {})
  end,
}
