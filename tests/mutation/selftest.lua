-- selftest.lua -- checks scripts/lib/mutants.lua, the mutant generator of scripts/mutate.lua
-- (ctest mutation/selftest): on tests/mutation/fixture.c it finds exactly the mutants each
-- line's comment names, and the sample rule is a deterministic function of the seed that
-- does not move when lines shift (the rule in the header of scripts/lib/mutants.lua).
package.path = "scripts/?.lua;" .. package.path
local MU = require("lib.mutants")
local F = require("lib.files")

local text = assert(F.read_file("tests/mutation/fixture.c"), "run from the kit's root")
local types = MU.collect_types(text, {})
local list = MU.generate("fixture.c", text, types)
local fails = 0
local function check(ok, msg) if not ok then fails = fails + 1; print("FAIL " .. msg) end end

-- the expected mutants, line by line (derived from the fixture's comments)
local want = {
  [10] = { "ArithmeticOperator '+' -> '-'" },
  [12] = { "RelationalOperator '>=' -> '>'", "NumericLiteral '3' -> '4'", "NumericLiteral '3' -> '2'",
           "LogicalOperator '||' -> '&&'", "NegationRemoved '!' -> ''", "NumericLiteral '0' -> '1'",
           "ReturnValue '0' -> '1'" },
  [14] = { "ArithmeticOperator '*' -> '/'", "NumericLiteral '2' -> '3'", "NumericLiteral '2' -> '1'",
           "StatementDeletion '*out = s * 2;' -> ';'" },
  [16] = { "ReturnValue 's' -> '0'" },
}
local got = {}
for _, m in ipairs(list) do
  got[m.line] = got[m.line] or {}
  table.insert(got[m.line], m.mutator .. " '" .. m.orig .. "' -> '" .. m.repl .. "'")
end
for line = 1, 20 do
  local a, b = want[line] or {}, got[line] or {}
  table.sort(a); table.sort(b)
  check(table.concat(a, "; ") == table.concat(b, "; "),
        string.format("line %d: want [%s], got [%s]", line, table.concat(a, "; "), table.concat(b, "; ")))
end

-- applying a mutant changes exactly its piece
for _, m in ipairs(list) do
  if m.line == 12 and m.mutator == "RelationalOperator" then
    local out = MU.apply(text, m)
    local l12 = F.split_lines(out)[12]
    check(l12:find("if %(s > 3 || !out%) return 0;") ~= nil, "apply: line 12 became " .. l12)
    check(#F.split_lines(out) == #F.split_lines(text), "apply keeps the line count")
  end
end

-- the sample: deterministic in the seed, independent of line numbers
local function sample(src, seed, n)
  local l = MU.generate("fixture.c", src, types)
  MU.assign_keys(l, seed)
  local s = {}
  for _, m in ipairs(MU.select(l, n)) do s[#s + 1] = m.mutator .. m.orig .. m.repl .. m.text end
  return table.concat(s, "\n")
end
check(sample(text, 1, 5) == sample(text, 1, 5), "the same seed gives the same sample")
check(sample(text, 1, 5) ~= sample(text, 2, 5), "another seed gives another sample")
check(sample("\n\n" .. text, 1, 5) == sample(text, 1, 5), "lines shifted by an edit above: the same sample")
check(select(2, sample(text, 1, 5):gsub("\n", "")) == 4, "a sample of 5 has 5 mutants")
local all = MU.generate("fixture.c", text, types)
MU.assign_keys(all, 1)
check(#MU.select(all) == 13, "without a size the sample is every mutant (13), got " .. #MU.select(all))

if fails > 0 then print(fails .. " failure(s)"); os.exit(1) end
print("mutation selftest: ok (" .. #list .. " mutants on the fixture)")
