-- Self-test of the Lua port's corridor list rules (corridor.lua), on lists of plain numbers
-- standing for references; every expected list derived by hand from the clause it names.
-- usage: lua5.4 corridor_selftest.lua   (from this directory, or with it on LUA_PATH)
local here = arg and arg[0] and arg[0]:match("(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local C = require("corridor")

local function L(t) local r = {} for i, x in ipairs(t) do r[i] = { ref = x, id = { 0, 0, 0, x } } end return r end
local function S(l) local r = {} for i, e in ipairs(l) do r[i] = tostring(e.ref) end return table.concat(r, ",") end
local fails, n = 0, 0
local function eq(got, want, what)
  n = n + 1
  if got ~= want then fails = fails + 1; print("FAIL " .. what .. ": got " .. got .. ", want " .. want) end
end

-- QCR-221: forward along the list: V = (1, 2, 3) from c = (1, 2, 3, 4): i = 2 (c[2] = 3 is the
-- greatest in V), j = 2; new list V[2] .. V[2] then c[3 ..] = (3, 4).
local l, t = C.merge_head(L{1, 2, 3, 4}, L{1, 2, 3}, 8)
eq(S(l), "3,4", "QCR-221 forward"); eq(tostring(t), "false", "QCR-221 forward not cut")
-- sideways: V = (1, 9) from c = (1, 2, 3): i = 0, j = 0; new list (9, 1), then c[1 ..] = (9, 1, 2, 3).
l = C.merge_head(L{1, 2, 3}, L{1, 9}, 8)
eq(S(l), "9,1,2,3", "QCR-221 sideways")
-- back onto the list from off it: V = (9, 8, 2) from c = (9, 1, 2, 3): i = 2 (c[2] = 2), j = 2;
-- new list (2), then (3).
l = C.merge_head(L{9, 1, 2, 3}, L{9, 8, 2}, 8)
eq(S(l), "2,3", "QCR-221 rejoin")
-- QCR-204 after QCR-221: sideways with capacity 3 keeps the first three: (9, 1, 2), cut.
l, t = C.merge_head(L{1, 2, 3}, L{1, 9}, 3)
eq(S(l), "9,1,2", "QCR-204 head cut"); eq(tostring(t), "true", "QCR-204 head cut marked")

-- QCR-222: the tail grows: V = (4, 5, 6) from c = (1, 2, 3, 4): i = 3 (least in V), j = 0;
-- c[0 .. 3] then V[1 ..] = (1, 2, 3, 4, 5, 6).
l, t = C.merge_tail(L{1, 2, 3, 4}, L{4, 5, 6}, 8)
eq(S(l), "1,2,3,4,5,6", "QCR-222 grow"); eq(tostring(t), "false", "QCR-222 grow not cut")
-- the tail shrinks: V = (4, 3, 2) from c = (1, 2, 3, 4): i = 1 (c[1] = 2), j = 2: c[0 .. 1] then
-- V[3 ..] (nothing) = (1, 2).
l = C.merge_tail(L{1, 2, 3, 4}, L{4, 3, 2}, 8)
eq(S(l), "1,2", "QCR-222 shrink")
-- QCR-204 after QCR-222: growth past capacity 5 keeps the head: (1, 2, 3, 4, 5), cut.
l, t = C.merge_tail(L{1, 2, 3, 4}, L{4, 5, 6}, 5)
eq(S(l), "1,2,3,4,5", "QCR-204 tail cut"); eq(tostring(t), "true", "QCR-204 tail cut marked")
-- a repeated polygon (finding 7 of the review): c = (1, 2, 1), V from 1 = (1, 7): i = 0.
l = C.merge_tail(L{1, 2, 1}, L{1, 7}, 8)
eq(S(l), "1,7", "QCR-222 repeat")

-- QCR-242: a shortcut: V = (1, 9, 4) over c = (1, 2, 3, 4, 5): i = 3, j = 2: V[0 .. 1] then c[3 ..].
local sp
l, sp, t = C.splice(L{1, 2, 3, 4, 5}, L{1, 9, 4}, 8)
eq(S(l), "1,9,4,5", "QCR-242 shortcut"); eq(tostring(sp), "true", "QCR-242 spliced")
-- j = 0 (V meets the list only at c[0]): nothing changes.
l, sp = C.splice(L{1, 2, 3}, L{1, 9}, 8)
eq(S(l), "1,2,3", "QCR-242 j = 0"); eq(tostring(sp), "false", "QCR-242 not spliced")
-- V along the list itself: V = (1, 2, 3) over (1, 2, 3, 4): i = 2, j = 2: (1, 2) then (3, 4): the same
-- list, yet `spliced` is true (j > 0).
l, sp = C.splice(L{1, 2, 3, 4}, L{1, 2, 3}, 8)
eq(S(l), "1,2,3,4", "QCR-242 along"); eq(tostring(sp), "true", "QCR-242 along spliced")
-- QCR-204 after QCR-242: a longer detour cut to capacity 4.
l, sp, t = C.splice(L{1, 2, 5}, L{1, 7, 8, 9, 5}, 4)
eq(S(l), "1,7,8,9", "QCR-204 splice cut"); eq(tostring(t), "true", "QCR-204 splice cut marked")

print(string.format("corridor_selftest: %d checks, %d failed", n, fails))
os.exit(fails == 0 and 0 or 1)
