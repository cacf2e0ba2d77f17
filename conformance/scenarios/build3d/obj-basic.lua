-- conformance/scenarios/build3d/obj-basic.lua
-- The OBJ reader on valid files: fans, negative indices, the four reference forms,
-- comments, ignored keywords, CRLF and a missing final line feed; the triangle bytes
-- (LVL-010) are checkpointed and the triangles checked by hand.

local function u32(hex, i) -- little-endian u32 at byte offset i of a hex string
  local b = {}
  for k = 0, 3 do b[k] = tonumber(hex:sub(2 * (i + k) + 1, 2 * (i + k) + 2), 16) end
  return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
end

local function tri(r, t, k) return u32(r.bytes, 16 + 24 * r.nverts + 12 * t + 4 * k) end

return {
  title = "OBJ reader: fans, negative indices, reference forms, comments, line endings",
  clauses = { "SPAN-080", "SPAN-081", "SPAN-082", "SPAN-083", "SPAN-084", "SPAN-085", "SPAN-088",
              "SPAN-092", "LVL-010" },
  run = function(t)
    -- a pentagon fanned from its first vertex: (0,1,2), (0,2,3), (0,3,4)
    local pent = "v 0 0 0\nv 2 0 0\nv 3 0 2\nv 1 0 3\nv -1 0 2\nf 1 5 4 3 2\n"
    local r = t:call("obj.parse", { text = pent })
    t:check(r.nverts == 5 and r.ntris == 3, "pentagon: 5 vertices, 3 triangles")
    t:check(tri(r, 0, 0) == 0 and tri(r, 0, 1) == 4 and tri(r, 0, 2) == 3, "fan 1 = (r0, r1, r2)")
    t:check(tri(r, 2, 0) == 0 and tri(r, 2, 1) == 2 and tri(r, 2, 2) == 1, "fan 3 = (r0, r3, r4)")
    t:checkpoint("pentagon", "table", r.bytes, "soup")

    -- negative indices and reference forms; CRLF, tabs, comments, ignored lines
    local txt = "# exported\r\nmtllib a.mtl\r\no box\r\nv 0 0 0\r\nv 1 0 0\r\nv 1 0 1\r\n" ..
                "v\t0\t0\t1 # comment after\r\nvt 0 0\r\nvn 0 1 0\r\ng top\r\nusemtl m\r\n" ..
                "s 1\r\nf -4/1/1 -1/2/1 -2/3/1\r\nf 1//1 3//1 2//1\r\nf 1/1 4/2 3/3\r\nl 1 2\r\n" ..
                "v 5 0.5 5 1.0\r\nf -1 1 2"
    r = t:call("obj.parse", { text = txt })
    t:check(r.nverts == 5 and r.ntris == 4, "5 vertices (v with w kept), 4 triangles")
    t:check(tri(r, 0, 0) == 0 and tri(r, 0, 1) == 3 and tri(r, 0, 2) == 2, "-4 -1 -2 after 4 vertices")
    t:check(tri(r, 3, 0) == 4, "-1 after the fifth vertex")
    t:checkpoint("crlf-forms", "table", r.bytes, "soup")

    -- numbers: signs, exponents, leading and trailing dots, -0
    r = t:call("obj.parse", { text = "v +1.5 -.25 3.\nv 1e2 -2.5E-1 0.1\nv -0 2097152 -2097152\n" })
    t:check(r.nverts == 3 and r.ntris == 0, "three vertices, no face")
    t:checkpoint("numbers", "table", r.bytes, "soup")

    -- an empty file and a file of comments only
    r = t:call("obj.parse", { text = "" })
    t:check(r.nverts == 0 and r.ntris == 0 and r.bytes == "4f505453010000000000000000000000",
            "empty soup: the 16-byte header only")
    r = t:call("obj.parse", { text = "# nothing\n\n   \n# more\n" })
    t:check(r.nverts == 0 and r.ntris == 0, "comments only")
    -- an empty first line (the CR rule of SPAN-080 looks at no byte before the text)
    r = t:call("obj.parse", { text = "\nv 0 0 0\r\n\r\nv 1 0 0\nv 0 0 1\nf 1 2 3\n" })
    t:check(r.nverts == 3 and r.ntris == 1, "an empty first line, then an empty CRLF line")

    -- a generated level written as OBJ text (17 significant digits, 1-based faces) reads
    -- back to the same bytes: the conversion is correctly rounded (SPAN-084)
    for _, lv in ipairs({ { "terrain", 5 }, { "city", 2 } }) do
      local g = t:call("level.generate", { name = lv[1], seed = "0000000000000002", size = lv[2] })
      local bin = g.bytes:gsub("..", function(h) return string.char(tonumber(h, 16)) end)
      local out, pos = {}, 17
      for _ = 1, g.nverts do
        local x, y, z
        x, y, z, pos = string.unpack("<ddd", bin, pos)
        out[#out + 1] = string.format("v %.17g %.17g %.17g", x, y, z)
      end
      for _ = 1, g.ntris do
        local a, b, c
        a, b, c, pos = string.unpack("<I4I4I4", bin, pos)
        out[#out + 1] = string.format("f %d %d %d", a + 1, b + 1, c + 1)
      end
      local back = t:call("obj.parse", { text = table.concat(out, "\n") .. "\n" })
      t:check(back.bytes == g.bytes, lv[1] .. ": OBJ round trip gives the same bytes")
    end
  end,
}
