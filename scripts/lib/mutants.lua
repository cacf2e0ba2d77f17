--[[
mutants.lua -- the mutant generator of scripts/mutate.lua: reads one C file, finds the places
a mutation operator applies, and picks a deterministic sample. Pure functions of the text:
nothing here builds or runs anything.

  local MU = require("lib.mutants")
  local list = MU.generate(path, text, types)   -- every mutant of one file
  local pick = MU.select(all, seed, n)          -- the sample (rule below)

Operators (mutatorName in the reports):
  RelationalOperator   <  <=  >  >=  swapped in pairs (< <-> <=, > <-> >=)
  EqualityOperator     == <-> !=
  ArithmeticOperator   binary + <-> -, binary * <-> /, += <-> -=, *= <-> /=
  LogicalOperator      && <-> ||
  NumericLiteral       an integer literal n -> n+1, and n -> n-1 when n > 0 (suffix and
                       hexadecimal form kept); floating literals are not touched
  NegationRemoved      a unary ! deleted
  StatementDeletion    a line holding one whole expression statement (an assignment, a call,
                       break, continue, goto) replaced by ";"
  ReturnValue          return E; -> return 0; (return 0 / OP_OK / false -> 1, return 1 / true
                       -> 0, return -1 -> 0, return NULL untouched)
Never mutated: comments, string and character literals, preprocessor lines (and their
continuations), lines holding "assert(", array sizes in declarations, the arguments of
malloc/calloc/realloc and of the counted opc_malloc/opc_calloc/opc_realloc (a buffer's size is no behaviour a port can show: a larger one changes
nothing, a smaller one is the sanitizer build's business), the deletion of free() and *_free()
calls (a leak is not observable by the matrix; the ASan build of the suite checks leaks), ++/--
(they turn loops endless: timeouts cost ten clean runs each).

Sample rule (deterministic in the seed): every mutant gets the key
  FNV-1a-64( seed "|" file "|" trimmed line text "|" k "|" column within the trimmed text "|"
             mutatorName "|" replacement )
where k counts earlier lines of the same file with the same trimmed text; the sample of size N
is the N mutants with the smallest keys (unsigned order), run in file-then-line order. The key
does not depend on line numbers, so an edit elsewhere in a file does not reshuffle the sample.
]]

local M = {}

-- C keywords and the standard type names; identifiers of typedefs are added by collect_types.
local KEYWORDS = {}
for w in ([[auto break case char const continue default do double else enum extern float for
  goto if inline int long register restrict return short signed sizeof static struct switch
  typedef union unsigned void volatile while _Bool _Static_assert _Alignof _Alignas _Noreturn
  bool]]):gmatch("%S+") do KEYWORDS[w] = true end
local STD_TYPES = {}
for w in ([[size_t ptrdiff_t intptr_t uintptr_t int8_t int16_t int32_t int64_t uint8_t uint16_t
  uint32_t uint64_t FILE va_list char int long short double float void unsigned signed const
  struct union enum bool _Bool static volatile]]):gmatch("%S+") do STD_TYPES[w] = true end

-- The names declared by typedef in text (added to the set types).
function M.collect_types(text, types)
  types = types or {}
  for name in text:gmatch("typedef[^;{]-([%a_][%w_]*)%s*;") do types[name] = true end
  for name in text:gmatch("}%s*([%a_][%w_]*)%s*;") do types[name] = true end
  for name in text:gmatch("typedef%s+struct%s+([%a_][%w_]*)") do types[name] = true end
  for name in text:gmatch("typedef[^;]-%(%s*%*%s*([%a_][%w_]*)%s*%)") do types[name] = true end
  for k in pairs(KEYWORDS) do if not STD_TYPES[k] then types[k] = nil end end
  return types
end

local function is_type(t, types) return STD_TYPES[t] or (types and types[t]) end

-- The code of each line with comments, string and character literals blanked (same
-- columns), and a flag per line: 1 preprocessor (or continuation), nil code.
function M.mask_lines(lines)
  local out, pp = {}, {}
  local in_comment, pp_cont = false, false
  for i, line in ipairs(lines) do
    local buf, j, n = {}, 1, #line
    local this_pp = pp_cont or (not in_comment and line:match("^%s*#") ~= nil)
    while j <= n do
      local c = line:sub(j, j)
      if in_comment then
        if line:sub(j, j + 1) == "*/" then in_comment = false; buf[#buf + 1] = "  "; j = j + 2
        else buf[#buf + 1] = " "; j = j + 1 end
      elseif line:sub(j, j + 1) == "/*" then
        in_comment = true; buf[#buf + 1] = "  "; j = j + 2
      elseif line:sub(j, j + 1) == "//" then
        buf[#buf + 1] = string.rep(" ", n - j + 1); j = n + 1
      elseif c == '"' or c == "'" then
        local k = j + 1
        while k <= n do
          local d = line:sub(k, k)
          if d == "\\" then k = k + 2
          elseif d == c then break
          else k = k + 1 end
        end
        buf[#buf + 1] = c .. string.rep(" ", math.max(0, math.min(k, n) - j - 1)) .. (k <= n and c or "")
        j = k + 1
      else
        buf[#buf + 1] = c; j = j + 1
      end
    end
    local s = table.concat(buf)
    out[i] = s:sub(1, n) .. string.rep(" ", n - #s)
    pp[i] = this_pp or nil
    pp_cont = this_pp and line:match("\\%s*$") ~= nil
  end
  return out, pp
end

local PUNCT3 = { [">>="] = true, ["<<="] = true, ["..."] = true }
local PUNCT2 = {}
for w in ("-> ++ -- << >> <= >= == != && || *= /= %= += -= &= ^= |= ##"):gmatch("%S+") do
  PUNCT2[w] = true
end

-- Tokens of one masked line: {t = text, k = "id" | "num" | "p" | "str", c = first column,
-- e = last column}.
function M.tokenize(s)
  local toks, j, n = {}, 1, #s
  while j <= n do
    local c = s:sub(j, j)
    if c:match("%s") then
      j = j + 1
    elseif c:match("[%a_]") then
      local e = s:find("[^%w_]", j) or n + 1
      toks[#toks + 1] = { t = s:sub(j, e - 1), k = "id", c = j, e = e - 1 }
      j = e
    elseif c:match("%d") or (c == "." and s:sub(j + 1, j + 1):match("%d")) then
      local e = j
      while e <= n do
        local d = s:sub(e, e)
        if d:match("[%w_.]") then e = e + 1
        elseif (d == "+" or d == "-") and s:sub(e - 1, e - 1):match("[eEpP]")
          and not s:sub(j, j + 1):match("^0[xX]") then e = e + 1
        elseif (d == "+" or d == "-") and s:sub(e - 1, e - 1):match("[pP]") then e = e + 1
        else break end
      end
      toks[#toks + 1] = { t = s:sub(j, e - 1), k = "num", c = j, e = e - 1 }
      j = e
    elseif c == '"' or c == "'" then
      local e = s:find(c, j + 1, true) or n
      toks[#toks + 1] = { t = s:sub(j, e), k = "str", c = j, e = e }
      j = e + 1
    else
      local w3, w2 = s:sub(j, j + 2), s:sub(j, j + 1)
      local w = PUNCT3[w3] and w3 or PUNCT2[w2] and w2 or c
      toks[#toks + 1] = { t = w, k = "p", c = j, e = j + #w - 1 }
      j = j + #w
    end
  end
  return toks
end

-- An integer literal's value, its form and suffix; nil for floating literals.
local function parse_int(t)
  local hex, suf = t:match("^0[xX](%x+)([uUlL]*)$")
  if hex then return tonumber(hex, 16), "hex", suf, #hex end
  local dec
  dec, suf = t:match("^(%d+)([uUlL]*)$")
  if dec then
    if #dec > 1 and dec:sub(1, 1) == "0" then return nil end -- octal: left alone
    return tonumber(dec), "dec", suf
  end
  return nil
end

local function fmt_int(v, form, suf, width)
  if form == "hex" then return string.format("0x%0" .. (width or 1) .. "X", v) .. suf end
  return string.format("%d", v) .. suf
end

-- The token before index i is a value (so that the operator at i is binary). A ')' is a
-- value unless it closes an if/while/for/switch condition or a cast.
local CONTROL = { ["if"] = true, ["while"] = true, ["for"] = true, ["switch"] = true }
local function value_before(toks, i, types)
  local p = toks[i - 1]
  if not p then return false end
  if p.k == "num" or p.k == "str" then return true end
  if p.t == ")" then
    local open = toks.match and toks.match[i - 1]
    if not open then return true end
    local before, inside = toks[open - 1], toks[open + 1]
    if before and CONTROL[before.t] then return false end
    if before and before.t == "sizeof" then return true end
    if inside and inside.k == "id" and is_type(inside.t, types) and not (before and before.k == "id") then
      return false
    end
    return true
  end
  if p.t == "]" then return true end
  if p.k == "id" then return not KEYWORDS[p.t] and not is_type(p.t, types) end
  return false
end

local function value_after(toks, i)
  local q = toks[i + 1]
  if not q then return false end
  return q.k == "id" or q.k == "num" or q.t == "(" or q.t == "-" or q.t == "!" or q.t == "~"
end

local ALLOC = { malloc = true, calloc = true, realloc = true, -- and the counted ones (ref/core/alloc.h)
  opc_malloc = true, opc_calloc = true, opc_realloc = true }
local SWAP = {
  ["<"] = { "<=", "RelationalOperator" }, ["<="] = { "<", "RelationalOperator" },
  [">"] = { ">=", "RelationalOperator" }, [">="] = { ">", "RelationalOperator" },
  ["=="] = { "!=", "EqualityOperator" }, ["!="] = { "==", "EqualityOperator" },
  ["&&"] = { "||", "LogicalOperator" }, ["||"] = { "&&", "LogicalOperator" },
  ["+="] = { "-=", "ArithmeticOperator" }, ["-="] = { "+=", "ArithmeticOperator" },
  ["*="] = { "/=", "ArithmeticOperator" }, ["/="] = { "*=", "ArithmeticOperator" },
}
local BINARY = { ["+"] = "-", ["-"] = "+", ["*"] = "/", ["/"] = "*" }

-- The line is a declaration: starts with a type (or a storage class) and a name.
local function is_declaration(toks, types)
  local a, b = toks[1], toks[2]
  if not a or a.k ~= "id" then return false end
  if a.t == "static" or a.t == "const" or a.t == "struct" or a.t == "typedef" or a.t == "enum"
    or a.t == "extern" or a.t == "union" then return true end
  if is_type(a.t, types) then return true end
  if b and b.k == "id" then return true end
  if b and b.t == "*" and toks[3] and toks[3].k == "id" and is_type(a.t, types) then return true end
  return false
end

-- Every mutant of one file: {file, line, col, ecol, mutator, orig, repl, text (the source
-- line)}; col..ecol is the replaced piece (1-based, inclusive).
function M.generate(file, text, types)
  local lines = {}
  for l in (text .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do lines[#lines + 1] = l end
  local masked, pp = M.mask_lines(lines)
  local out = {}
  local function add(i, c, e, mut, orig, repl)
    out[#out + 1] = { file = file, line = i, col = c, ecol = e, mutator = mut, orig = orig,
                      repl = repl, text = lines[i] }
  end
  for i, s in ipairs(masked) do
    if pp[i] or s:find("assert%(") or s:find("static_assert") or s:match("^%s*$") then goto next_line end
    do
      local toks = M.tokenize(s)
      local decl = is_declaration(toks, types)
      -- matching parentheses on this line; the arguments of allocation calls
      local stack, alloc = {}, {}
      toks.match = {}
      for ti, tk in ipairs(toks) do
        if tk.t == "(" then stack[#stack + 1] = ti
        elseif tk.t == ")" and #stack > 0 then
          local o = table.remove(stack)
          toks.match[ti] = o
          local f = toks[o - 1]
          if f and ALLOC[f.t] then for k = o, ti do alloc[k] = true end end
        end
      end
      for _, o in ipairs(stack) do -- an allocation call continued on the next line
        local f = toks[o - 1]
        if f and ALLOC[f.t] then for k = o, #toks do alloc[k] = true end end
      end
      local depth_sq = 0
      for ti, tk in ipairs(toks) do
        if tk.t == "[" then depth_sq = depth_sq + 1 elseif tk.t == "]" then depth_sq = depth_sq - 1 end
        local sw = SWAP[tk.t]
        if alloc[ti] then
          -- allocation sizes: not observable by a port (header of this file)
        elseif sw and tk.k == "p" then
          -- '<' and '>' inside #include are preprocessor lines, skipped above
          add(i, tk.c, tk.e, sw[2], tk.t, sw[1])
        elseif tk.k == "p" and BINARY[tk.t] and value_before(toks, ti, types) and value_after(toks, ti) then
          add(i, tk.c, tk.e, "ArithmeticOperator", tk.t, BINARY[tk.t])
        elseif tk.k == "p" and tk.t == "!" then
          add(i, tk.c, tk.e, "NegationRemoved", "!", "")
        elseif tk.k == "num" and not (decl and depth_sq > 0) then
          local v, form, suf, width = parse_int(tk.t)
          if v and v < 2 ^ 53 then
            add(i, tk.c, tk.e, "NumericLiteral", tk.t, fmt_int(v + 1, form, suf, width))
            if v > 0 then add(i, tk.c, tk.e, "NumericLiteral", tk.t, fmt_int(v - 1, form, suf, width)) end
          end
        end
      end
      -- return E;
      for ti, tk in ipairs(toks) do
        if tk.k == "id" and tk.t == "return" then
          local last = toks[#toks]
          local first = toks[ti + 1]
          if first and first.t ~= ";" and last.t == ";" then
            -- the expression runs to the ';' of this statement; only when it is the last token
            local semi
            for k = ti + 1, #toks do if toks[k].t == ";" then semi = k; break end end
            if semi == #toks then
              local e0, e1 = first.c, toks[semi - 1].e
              local expr = s:sub(e0, e1)
              local repl
              if expr == "0" or expr == "OP_OK" or expr == "false" then repl = "1"
              elseif expr == "1" or expr == "true" or expr == "-1" then repl = "0"
              elseif expr ~= "NULL" then repl = "0" end
              if repl then add(i, e0, e1, "ReturnValue", lines[i]:sub(e0, e1), repl) end
            end
          end
        end
      end
      -- statement deletion: the whole line is one expression statement
      local a = toks[1]
      local last = toks[#toks]
      if a and last and last.t == ";" and not decl then
        local ok = a.k == "id" and not KEYWORDS[a.t] or a.t == "*" or a.t == "("
          or a.t == "break" or a.t == "continue" or a.t == "goto"
        if a.t == "free" or a.t == "return" or a.t:match("_free$") then ok = false end
        local depth, semis = 0, 0
        for _, tk in ipairs(toks) do
          if tk.t == "(" then depth = depth + 1 elseif tk.t == ")" then depth = depth - 1 end
          if depth < 0 then ok = false end
          if tk.t == ";" and depth == 0 then semis = semis + 1 end
          if tk.t == "{" or tk.t == "}" or tk.t == ":" and depth == 0 and not s:find("%?") then ok = false end
        end
        if depth ~= 0 or semis ~= 1 then ok = false end
        if ok then add(i, a.c, last.e, "StatementDeletion", lines[i]:sub(a.c, last.e), ";") end
      end
    end
    ::next_line::
  end
  return out
end

-- The mutated text of a file (lines joined by "\n", the final newline kept).
function M.apply(text, m)
  local out, i = {}, 0
  for l in (text .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do
    i = i + 1
    if i == m.line then l = l:sub(1, m.col - 1) .. m.repl .. l:sub(m.ecol + 1) end
    out[#out + 1] = l
  end
  return table.concat(out, "\n") .. (text:sub(-1) == "\n" and "\n" or "")
end

-- "'<' -> '<=' at col 17": the text a mutant is named by (tests/mutation/equivalent.tsv).
function M.describe(m)
  return string.format("'%s' -> '%s' at col %d", m.orig, m.repl, m.col)
end

-- FNV-1a, 64 bits (Lua integers wrap).
function M.fnv1a64(s)
  local h = -3750763034362895579 -- 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 1099511628211
  end
  return h
end

-- Gives each mutant of one file's list its key for the seed (rule in the header).
function M.assign_keys(list, seed)
  local seen = {}
  local count_by_line = {}
  for _, m in ipairs(list) do
    local trimmed = m.text:match("^%s*(.-)%s*$")
    local lead = #m.text:match("^%s*")
    if not count_by_line[m.line] then
      local k = seen[trimmed] or 0
      count_by_line[m.line] = k
      seen[trimmed] = k + 1
    end
    m.key = M.fnv1a64(table.concat({ tostring(seed), m.file, trimmed, tostring(count_by_line[m.line]),
      tostring(m.col - lead), m.mutator, m.repl }, "|"))
  end
end

-- The sample: the n mutants with the smallest keys (all when n is nil), in file-line order.
function M.select(all, n)
  local t = {}
  for i, m in ipairs(all) do t[i] = m end
  if n and n < #t then
    table.sort(t, function(a, b)
      if a.key ~= b.key then return math.ult(a.key, b.key) end
      return a.file .. a.line .. a.col .. a.repl < b.file .. b.line .. b.col .. b.repl
    end)
    for i = #t, n + 1, -1 do t[i] = nil end
  end
  table.sort(t, function(a, b)
    if a.file ~= b.file then return a.file < b.file end
    if a.line ~= b.line then return a.line < b.line end
    if a.col ~= b.col then return a.col < b.col end
    return a.repl < b.repl
  end)
  return t
end

return M
