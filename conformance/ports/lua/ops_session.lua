-- Session ops: hello (CONF-050), drop (CONF-041), echo (CONF-053).
local json = require("json")
local P = require("proto")
local fail = P.fail

return function(OPS, session)
  OPS.hello = function(_)
    local names = {}
    for k in pairs(OPS) do names[#names + 1] = k end
    table.sort(names)
    return { protocol = "onepath-port/1", implementation = "onepath-lua 0.1.0", ops = json.array(names) }
  end

  OPS.drop = function(args)
    local v = args.map.handle
    local h = P.as_int(v)
    if h == nil then fail("argument", "handle", "") end
    if not session.objs[h] then
      fail("argument", "handle", P.vint(h), "no live object has this handle: handle = " .. P.vint(h))
    end
    session.objs[h] = nil
    return {}
  end

  local ECHO = { f64 = true, i64 = true, u64 = true, bytes = true, str = true }
  OPS.echo = function(args)
    for _, k in ipairs(args.keys) do
      if not ECHO[k] then fail("argument", k, "", "echo has no member " .. k) end
    end
    local out = {}
    local function each(name, conv)
      local list = args.map[name]
      if list == nil then return end
      if not P.is_arr(list) then fail("argument", name, "") end
      local r = json.array({})
      for i = 1, list.n do
        local x = conv(list[i])
        if x == nil then fail("argument", name .. "[" .. (i - 1) .. "]", "") end
        r[i] = x
      end
      r.n = list.n
      out[name] = r
    end
    each("f64", function(v) local f = P.as_double(v); return f end)
    each("i64", function(v)
      return P.as_int(v)
    end)
    each("u64", function(v) if P.as_u64(v) then return v end end)
    each("bytes", function(v) if P.as_bytes(v) then return v end end)
    each("str", function(v) if type(v) == "string" then return v end end)
    return out
  end
end
