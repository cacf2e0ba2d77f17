-- conformance/scenarios/build3d/obj-errors.lua
-- Malformed OBJ text: every error is kind format (or out_of_range, limit), field
-- "line N", value the offending token (SPAN-082 .. SPAN-087).

local V3 = "v 0 0 0\nv 1 0 0\nv 0 0 1\n"

return {
  title = "OBJ reader errors name the line and the token",
  clauses = { "SPAN-080", "SPAN-081", "SPAN-082", "SPAN-083", "SPAN-084", "SPAN-086", "SPAN-087",
              "SPAN-092" },
  run = function(t)
    local function bad(text, kind, field, value)
      t:expect_error("obj.parse", { text = text }, { kind = kind, field = field, value = value })
    end
    bad("v 1 2\n", "format", "line 1", "v")
    bad("v 1 2 z\n", "format", "line 1", "z")
    bad("v 1 2 3 w\n", "format", "line 1", "w")
    -- extra numbers are checked for form and magnitude too, one token at a time (SPAN-082)
    bad("v 1 2 3 9e9\n", "out_of_range", "line 1", "9e9")
    bad("v 1 2 3 x 9e9\n", "format", "line 1", "x")
    bad("v 1 2 3 9e9 x\n", "out_of_range", "line 1", "9e9")
    bad("v 9e9 x 0\n", "out_of_range", "line 1", "9e9")
    bad("v inf 0 0\n", "format", "line 1", "inf")
    bad("v 0x1p3 0 0\n", "format", "line 1", "0x1p3")
    bad("v 1.5e 0 0\n", "format", "line 1", "1.5e")
    bad("v 2097153 0 0\n", "out_of_range", "line 1", "2097153")
    bad("v 0 -1e999 0\n", "out_of_range", "line 1", "-1e999")
    bad(V3 .. "f 1 2\n", "format", "line 4", "f")
    bad(V3 .. "f 1 2 0\n", "format", "line 4", "0")
    bad(V3 .. "f 1 2 4\n", "format", "line 4", "4")
    bad(V3 .. "f -4 1 2\n", "format", "line 4", "-4")
    bad(V3 .. "f 1/ 2 3\n", "format", "line 4", "1/")
    bad(V3 .. "f 1 2/x 3\n", "format", "line 4", "2/x")
    bad(V3 .. "f 1 2 3//\n", "format", "line 4", "3//")
    bad(V3 .. "f 1 2 3/4/5/6\n", "format", "line 4", "3/4/5/6")
    bad("f 1 2 3\n" .. V3, "format", "line 1", "1")
    -- the line number counts comments, blank lines and CRLF lines
    bad("# a\r\n\r\n" .. V3 .. "# b\n\n\n\nvt 0 0\ng x\nf 1 2 3\n\n\n\n\nf 3 2 7\n", "format",
        "line 17", "7")
    -- a NUL byte (travels as \u0000): value 00 (CONF-013 bytes); it wins over every other
    -- error of its line, in a comment too, and over errors of later lines (SPAN-080)
    bad(V3 .. "v 1 \0 2 3\n", "format", "line 4", "00")
    bad(V3 .. "v 1 x \0\n", "format", "line 4", "00")
    bad(V3 .. "f 1 2 9 \0\n", "format", "line 4", "00")
    bad(V3 .. "v 0 0 0 # \0\nf 1 2 9\n", "format", "line 4", "00")
    -- a long token is cut to 63 bytes in the value
    local long = string.rep("9", 70) .. "x"
    bad("v 0 0 " .. long .. "\n", "format", "line 1", long:sub(1, 63))
    t:expect_error("obj.parse", { text = 5 }, { kind = "argument", field = "text" })
    t:expect_error("obj.parse", {}, { kind = "argument", field = "text" })
  end,
}
