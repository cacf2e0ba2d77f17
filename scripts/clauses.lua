#!/usr/bin/env lua5.4
--[[
clauses.lua -- the clause index of the OnePath spec and its traceability checks.

  lua5.4 scripts/clauses.lua index     print the index (the text of spec/clauses.tsv)
  lua5.4 scripts/clauses.lua check     exit 1 on: an id defined twice, a malformed definition,
                                       an id cited but defined nowhere, or a committed
                                       spec/clauses.tsv that differs from the spec text
  lua5.4 scripts/clauses.lua accept    rewrite spec/clauses.tsv (alias: --accept)
  lua5.4 scripts/clauses.lua sections  rewrite the "implemented in" column of spec/README.md's
                                       Sections table from the header comments of ref/'s
                                       files (each names its section as spec/NAME.md);
                                       check fails when the column is stale or a ref/ file
                                       names no (or an unknown) spec file
  lua5.4 scripts/clauses.lua coverage INFO [OUT.md]
                                       map an lcov .info file back to clauses
                                       (used by scripts/coverage.sh)
  option --root DIR                    work on another tree (tests/fixtures/clauses/...)

The rules this script enforces are written down in spec/README.md ("Clauses", "The clause
index") and docs/spec-authoring.md. Used as a module by scripts/matrix.lua:
require("clauses") returns the table M below without running a command.
]]

-- The shared file helpers (scripts/lib/files.lua), found beside this script.
package.path = (debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/?.lua;" ..
  package.path
local F = require("lib.files")

local M = {}

-- Known section prefixes (spec/README.md, "Sections").
M.PREFIX_LIST = { "CONF", "MATH", "FMT", "MESH", "SNAP", "LVL", "SPAN", "REG", "POLY", "RT",
  "G2D", "T2D", "QRY" }
M.PREFIXES = {}
for i, p in ipairs(M.PREFIX_LIST) do M.PREFIXES[p] = i end

-- The section file that owns each prefix; a definition with a prefix in another file is
-- malformed. Kept equal to the table in spec/README.md.
M.SECTION_OF = {
  CONF = "conformance.md", MATH = "math.md", FMT = "navmesh-format.md",
  MESH = "navmesh-mesh.md", SNAP = "navmesh-snapshot.md", LVL = "levels.md",
  SPAN = "build3d-spans.md", REG = "build3d-regions.md", POLY = "build3d-polys.md",
  RT = "build3d-runtime.md", G2D = "build2d-geometry.md", T2D = "build2d-tiles.md",
  QRY = "query.md",
}

-- Folders whose files may cite clauses, and the extensions read there.
M.CITING_DIRS = { "ref", "port", "tests", "conformance", "fuzz", "scripts", "docs" }
M.TEXT_EXT = { c = true, h = true, lua = true, md = true, sh = true, cmake = true, txt = true,
  ["in"] = true, inc = true }
-- Paths (prefixes, relative to the root) never scanned for citations: the tools' own
-- test fixtures hold made-up clauses.
M.SKIP = { "tests/fixtures/" }

M.INDEX_HEADER = "id\tsection\tline\thash\tfirst_words"

---------------------------------------------------------------------------- utilities

-- FNV-1a, 64 bits, over the bytes of s; Lua 5.4 integers wrap modulo 2^64, which is
-- exactly the arithmetic FNV needs. Returns 16 lower-case hex digits.
function M.fnv1a64(s)
  local h = 0xcbf29ce484222325 -- offset basis (wraps to a negative integer: fine)
  local prime = 0x100000001b3
  for i = 1, #s do
    h = (h ~ s:byte(i)) * prime
  end
  return string.format("%016x", h)
end

-- Whitespace runs become one space; leading and trailing whitespace is dropped.
function M.normalise(s)
  return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

local read_file, split_lines, walk = F.read_file, F.split_lines, F.walk
local is_dir, is_file, sorted_entries = F.is_dir, F.is_file, F.sorted_entries
M.read_file, M.split_lines, M.walk = read_file, split_lines, walk
M.script_dir, M.default_root = F.script_dir, F.default_root

-- Calls fn(pos, prefix, number, token) for each citation token PREFIX-NNN with a known
-- prefix: an upper-case word, a hyphen and exactly three digits, not inside a longer word
-- or number.
function M.each_token(s, fn)
  for pos, prefix, num in s:gmatch("()%f[%w](%u[%u%d]*)%-(%d%d%d)%f[%D]") do
    if M.PREFIXES[prefix] then fn(pos, prefix, num, prefix .. "-" .. num) end
  end
end

-- Like each_token, and also reads ranges: "ABC-010 .. ABC-015", "ABC-010..ABC-015" and
-- "ABC-010..015" (same prefix, first < last, at most 200 apart; white space, line breaks
-- included, may surround the ".."). Calls fn(pos, token, via_range) for every token, and
-- for every number strictly inside a range with via_range = true (the caller keeps those
-- only when the clause is defined: gaps in a range are normal). The short form's last
-- number is reported as a token of its own.
function M.each_citation(s, fn)
  M.each_token(s, function(pos, prefix, num, tok)
    fn(pos, tok, false)
    local rest = s:sub(pos + #tok, pos + #tok + 40)
    local sep, p2, n2 = rest:match("^(%s*%.%.%s*)(%u[%u%d]*)%-(%d%d%d)%f[%D]")
    local short = false
    if not sep then
      sep, n2 = rest:match("^(%s*%.%.%s*)(%d%d%d)%f[%D]")
      p2, short = prefix, true
    end
    if sep and p2 == prefix then
      local a, b = tonumber(num), tonumber(n2)
      if b > a and b - a <= 200 then
        for k = a + 1, b - 1 do
          fn(pos, string.format("%s-%03d", prefix, k), true)
        end
        if short then fn(pos + #tok + #sep, string.format("%s-%03d", prefix, b), false) end
      end
    end
  end)
end

---------------------------------------------------------------------------- spec parsing

local function blank(l) return l:match("^%s*$") ~= nil end
local function heading(l) return l:match("^ ? ? ?#") ~= nil end
local function fence(l) return l:match("^%s*```") or l:match("^%s*~~~") end
local function table_row(l) return l:match("^%s*|") ~= nil end
local function indent_of(l) return #l:match("^(%s*)") end

-- A list item: returns marker indent, content column, content.
local function list_item(l)
  local ind, mark, sp, rest = l:match("^(%s*)([-*+])(%s+)(.*)$")
  if not ind then ind, mark, sp, rest = l:match("^(%s*)(%d+[.)])(%s+)(.*)$") end
  if not ind then return nil end
  return #ind, #ind + #mark + #sp, rest
end

-- If text starts with a clause marker, returns id, rest-of-text; else nil.
local function marker(text)
  local id, rest = text:match("^%*%*%[([^%]]*)%]%*%*(.*)$")
  return id, rest
end

-- Classifies a line: returns kind ("item" | "para"), indent, text after any list marker.
local function line_content(l)
  local ind, ccol, rest = list_item(l)
  if ind then return "item", ind, rest, ccol end
  return "para", indent_of(l), l:gsub("^%s*", ""), indent_of(l)
end

-- Does this line start a clause (a marker after an optional list marker)?
local function starts_clause(l)
  local _, _, rest = line_content(l)
  return rest:match("^%*%*%[") ~= nil
end

--[[
Parses one spec file. Returns a list of definitions {id, prefix, num, file, line, last,
text, hash, words}, a list of malformed-definition errors {file, line, msg}, and a list
of cross-references {id, file, line} (tokens in the text that are not markers).

A definition is **[ID]** at the start of a paragraph (indented at most three spaces, after
a blank line, a heading or the start of the file) or at the start of a list item. Its text:
 - a paragraph clause runs to the next blank line, heading, fence or clause marker;
 - a list-item clause runs to the next list item at the same or a smaller indent, the next
   clause marker, a heading, or a blank line followed by a line not indented past the
   item's marker (so nested items and indented continuations belong to it);
 - when that text ends with ':', the block right after it (a table, a list, or a fenced
   code block, after blank lines) belongs to the clause too, up to the first clause marker
   inside it.
Fenced code blocks and indented code blocks are never scanned for definitions.
]]
function M.parse_spec_file(root, rel)
  local lines = split_lines(read_file(root .. "/" .. rel) or "")
  local file = rel:match("[^/]*$")
  local defs, errs, refs = {}, {}, {}
  local n = #lines
  local in_fence = false
  local prev_blank = true -- start of file counts as after a blank line
  local prev_item = false -- previous non-blank line belonged to a list item
  local consumed = {}     -- line -> true when already part of a clause

  local function err(line, msg) errs[#errs + 1] = { file = rel, line = line, msg = msg } end

  -- Reports markers that do not open the line (inline code spans are skipped). When
  -- opens_ok, a marker at the start of the line's content is the definition itself.
  local function midline_markers(k, opens_ok)
    local plain = lines[k]:gsub("`[^`]*`", function(x) return string.rep(" ", #x) end)
    local _, _, content = line_content(plain)
    local first = #plain - #content + 1
    local from = 1
    while true do
      local a, b, inner = plain:find("%*%*%[(%u[%u%d]*%-%w+)%]%*%*", from)
      if not a then break end
      if not (opens_ok and a == first) then
        err(k, string.format("clause marker [%s] in the middle of a line: a clause " ..
          "must start a paragraph or list item", inner))
      end
      from = b + 1
    end
  end

  -- Collect the extent of a clause starting at line s.
  local function extent(s, kind, ind)
    local j = s + 1
    local last = s
    if kind == "para" then
      while j <= n and not blank(lines[j]) and not heading(lines[j]) and not fence(lines[j])
        and not starts_clause(lines[j]) do
        last = j; j = j + 1
      end
    else
      while j <= n do
        local l = lines[j]
        if blank(l) then
          local k = j
          while k <= n and blank(lines[k]) do k = k + 1 end
          if k > n or indent_of(lines[k]) <= ind or starts_clause(lines[k]) then break end
          j = k
        else
          local li = list_item(l)
          if (li and li <= ind) or heading(l) or starts_clause(l) then break end
          if fence(l) then
            -- a fenced block inside the item: take it whole
            local k = j + 1
            while k <= n and not fence(lines[k]) do k = k + 1 end
            j = math.min(k, n)
          end
          last = j; j = j + 1
        end
      end
    end
    -- The attached block after a colon.
    local text = {}
    for k = s, last do text[#text + 1] = lines[k] end
    local joined = table.concat(text, "\n")
    if joined:match(":%s*$") then
      local k = last + 1
      while k <= n and blank(lines[k]) do k = k + 1 end
      if k <= n and not starts_clause(lines[k]) then
        local l = lines[k]
        if table_row(l) then
          while k <= n and table_row(lines[k]) do last = k; k = k + 1 end
        elseif fence(l) then
          local e = k + 1
          while e <= n and not fence(lines[e]) do e = e + 1 end
          last = math.min(e, n)
        elseif list_item(l) then
          local base = list_item(l)
          while k <= n do
            local m = lines[k]
            if blank(m) then
              local q = k
              while q <= n and blank(lines[q]) do q = q + 1 end
              if q > n or starts_clause(lines[q]) then break end
              local qi = list_item(lines[q])
              if not (qi and qi >= base) and indent_of(lines[q]) <= base then break end
              k = q
            else
              if starts_clause(m) or heading(m) then break end
              last = k; k = k + 1
            end
          end
        end
      end
    end
    return last
  end

  local i = 1
  while i <= n do
    local l = lines[i]
    if fence(l) then
      in_fence = not in_fence
      prev_blank = false
      i = i + 1
    elseif in_fence then
      i = i + 1
    elseif blank(l) then
      prev_blank = true
      i = i + 1
    elseif heading(l) then
      -- a heading ends any paragraph: what follows starts a new one
      M.each_token(l, function(_, _, _, tok)
        refs[#refs + 1] = { id = tok, file = rel, line = i }
      end)
      prev_blank, prev_item = true, false
      i = i + 1
    else
      local kind, ind, rest = line_content(l)
      local is_code_block = kind == "para" and ind >= 4 and prev_blank and not prev_item
      local id, body = marker(rest)
      if id and not is_code_block and not consumed[i] then
        local ok = true
        local prefix, num = id:match("^(%u[%u%d]*)%-(%d%d%d)$")
        if not prefix then
          err(i, string.format("malformed clause id [%s]: want PREFIX-NNN (three digits)", id))
          ok = false
        elseif not M.PREFIXES[prefix] then
          err(i, string.format("clause [%s]: unknown prefix %s (known: %s)", id, prefix,
            table.concat(M.PREFIX_LIST, " ")))
          ok = false
        elseif M.SECTION_OF[prefix] and file ~= "README.md" and M.SECTION_OF[prefix] ~= file then
          err(i, string.format("clause [%s] is defined in %s but prefix %s belongs to %s",
            id, file, prefix, M.SECTION_OF[prefix]))
          ok = false
        end
        if kind == "para" and not prev_blank and ok then
          err(i, string.format("clause [%s] does not start a paragraph or list item " ..
            "(put a blank line before it)", id))
          ok = false
        end
        local last = extent(i, kind, ind)
        local buf = { body }
        midline_markers(i, true)
        for k = i + 1, last do
          buf[#buf + 1] = lines[k]
          consumed[k] = true
          midline_markers(k, false)
        end
        local text = M.normalise(table.concat(buf, "\n"))
        if ok and text == "" then
          err(i, string.format("clause [%s] has no text", id))
          ok = false
        end
        if ok then
          local words = text:sub(1, 60):gsub("\t", " ")
          if #text > 60 then words = words:gsub("%s*[^%s]*$", "") .. " ..." end
          defs[#defs + 1] = { id = id, prefix = prefix, num = tonumber(num), file = file,
            path = rel, line = i, last = last, text = text, hash = M.fnv1a64(text),
            words = words }
        end
        -- cross-references inside the clause text (not the marker itself)
        for k = i, last do
          local src = k == i and body or lines[k]
          M.each_token(src, function(_, _, _, tok)
            refs[#refs + 1] = { id = tok, file = rel, line = k }
          end)
        end
        prev_blank = false
        prev_item = kind == "item"
        i = last + 1
      else
        if not is_code_block then
          -- marker-like text that is not a definition
          if rest:match("^%*%*%u+%-%d+%*%*") then
            err(i, "bold clause id without brackets: write **[PREFIX-NNN]**")
          elseif rest:match("^%[%u+%-%d+%]") and not rest:match("^%[%u+%-%d+%]%(") then
            err(i, "clause id in brackets but not bold: write **[PREFIX-NNN]**")
          end
          midline_markers(i, false)
          M.each_token(l, function(_, _, _, tok)
            refs[#refs + 1] = { id = tok, file = rel, line = i }
          end)
        end
        prev_blank = false
        prev_item = kind == "item" or (prev_item and ind > 0)
        i = i + 1
      end
    end
  end
  return defs, errs, refs
end

-- Reads the "Sections" table of spec/README.md (rows "| `file.md` | PREFIX | ..."): each row
-- makes PREFIX known and owned by file.md. Without a README the built-in table above holds.
function M.load_sections(root)
  local s = read_file(root .. "/spec/README.md")
  if not s then return end
  for file, prefix in s:gmatch("\n|%s*`([%w%-_]+%.md)`%s*|%s*(%u[%u%d]*)%s*|") do
    if not M.PREFIXES[prefix] then
      M.PREFIX_LIST[#M.PREFIX_LIST + 1] = prefix
      M.PREFIXES[prefix] = #M.PREFIX_LIST
    end
    M.SECTION_OF[prefix] = file
  end
end

-- All spec/*.md files: definitions, malformed, cross-references (README.md excluded from
-- the cross-references: it quotes example ids).
function M.parse_spec(root)
  M.load_sections(root)
  local defs, errs, refs = {}, {}, {}
  for _, e in ipairs(sorted_entries(root .. "/spec")) do
    if e:match("%.md$") and is_file(root .. "/spec/" .. e) then
      local d, er, rf = M.parse_spec_file(root, "spec/" .. e)
      for _, x in ipairs(d) do defs[#defs + 1] = x end
      for _, x in ipairs(er) do errs[#errs + 1] = x end
      if e ~= "README.md" then
        for _, x in ipairs(rf) do x.kind = "spec"; refs[#refs + 1] = x end
      end
    end
  end
  return defs, errs, refs
end

---------------------------------------------------------------------------- citations

local function line_index(s)
  local starts = { 1 }
  for p in s:gmatch("\n()") do starts[#starts + 1] = p end
  return starts
end

local function line_of(starts, pos)
  local lo, hi = 1, #starts
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if starts[mid] <= pos then lo = mid else hi = mid - 1 end
  end
  return lo
end

-- Finds every clause list of a scenario file or of a scenario library: `clauses = { ... }`,
-- `clauses = helper({ ... })` and `CLAUSES = { ... }` (a library's list that its scenarios
-- pass on). A list of {start, end}.
local LIST_OPENERS = { "%f[%w_]clauses%s*=%s*{", "%f[%w_]clauses%s*=%s*[%w_%.]+%(%s*{",
                       "%f[%w_]CLAUSES%s*=%s*{" }
local function scenario_lists(s)
  local out = {}
  for _, opener in ipairs(LIST_OPENERS) do
    local from = 1
    while true do
      local a, b = s:find(opener, from)
      if not a then break end
      local depth, p = 1, b + 1
      while p <= #s and depth > 0 do
        local c = s:sub(p, p)
        if c == "{" then depth = depth + 1 elseif c == "}" then depth = depth - 1 end
        p = p + 1
      end
      out[#out + 1] = { b, p - 1 }
      from = p
    end
  end
  return out
end

local function default_kind(rel)
  if rel:match("^ref/") or rel:match("^port/") or rel:match("^conformance/runner/") then
    if rel:match("%.[ch]$") then return "code" end
  end
  if rel:match("^fuzz/") then return "fuzz" end
  return "mention"
end

--[[
Every citation in the citing folders: {id, file, line, kind, name}. kind is
  code      a tag in ref/, port/ or conformance/runner/ C code
  scenario  an entry of a scenario's `clauses` list (name: the scenario, e.g. format/x), or
            of a scenario library's list (conformance/lib/x.lua, name lib/x)
  test      the clause string of an OPT_TEST(name, "...") in tests/test_*.c (name: file:test)
  fuzz      any mention under fuzz/
  mention   any other occurrence (comments in tests, docs, scripts, scenario comments)
]]
function M.scan_citations(root)
  local cites = {}
  local files = {}
  for _, d in ipairs(M.CITING_DIRS) do walk(root, d, files) end
  for _, rel in ipairs(files) do
    local skip = false
    for _, p in ipairs(M.SKIP) do
      if rel:sub(1, #p) == p then skip = true end
    end
    local ext = rel:match("%.([%w]+)$")
    if not skip and ext and M.TEXT_EXT[ext] then
      local s = read_file(root .. "/" .. rel) or ""
      if not s:find("\0", 1, true) then
        local starts = line_index(s)
        local regions = {}
        if rel:match("^conformance/scenarios/.*%.lua$") or rel:match("^conformance/lib/.*%.lua$") then
          for _, ab in ipairs(scenario_lists(s)) do
            regions[#regions + 1] = { a = ab[1], b = ab[2], kind = "scenario",
              name = rel:gsub("^conformance/scenarios/", ""):gsub("^conformance/", "")
                        :gsub("%.lua$", "") }
          end
        end
        if rel:match("^tests/.*test_[^/]*%.c$") then
          for p, name, q, e in s:gmatch("()OPT_TEST%s*%(%s*([%w_]+)%s*,%s*()\"[^\"]*\"()") do
            local _ = p
            regions[#regions + 1] = { a = q, b = e, kind = "test",
              name = rel:match("([^/]*)%.c$") .. ":" .. name }
          end
        end
        local dk = default_kind(rel)
        M.each_citation(s, function(pos, tok, via_range)
          local kind, name = dk, nil
          for _, r in ipairs(regions) do
            if pos >= r.a and pos <= r.b then kind, name = r.kind, r.name end
          end
          cites[#cites + 1] = { id = tok, file = rel, line = line_of(starts, pos), kind = kind,
            name = name, via_range = via_range or nil }
        end)
      end
    end
  end
  return cites
end

---------------------------------------------------------------------------- the index

local function id_less(a, b)
  local pa, na = a:match("^(.-)%-(%d+)$")
  local pb, nb = b:match("^(.-)%-(%d+)$")
  local ia, ib = M.PREFIXES[pa] or 99, M.PREFIXES[pb] or 99
  if ia ~= ib then return ia < ib end
  if pa ~= pb then return pa < pb end
  return tonumber(na) < tonumber(nb)
end
M.id_less = id_less

-- Everything at once: definitions (sorted by id), by-id map, malformed errors,
-- duplicates, citations (spec cross-references included, kind "spec").
function M.collect(root)
  local defs, errs, refs = M.parse_spec(root)
  table.sort(defs, function(a, b)
    if a.id ~= b.id then return id_less(a.id, b.id) end
    if a.file ~= b.file then return a.file < b.file end
    return a.line < b.line
  end)
  local by_id, dups = {}, {}
  for _, d in ipairs(defs) do
    if by_id[d.id] then
      dups[#dups + 1] = { first = by_id[d.id], again = d }
    else
      by_id[d.id] = d
    end
  end
  local cites = {}
  for _, ci in ipairs(M.scan_citations(root)) do
    -- the inside of a range cites only clauses that exist
    if not ci.via_range or by_id[ci.id] then cites[#cites + 1] = ci end
  end
  for _, r in ipairs(refs) do cites[#cites + 1] = r end
  local by_cite = {}
  for _, c in ipairs(cites) do
    by_cite[c.id] = by_cite[c.id] or {}
    table.insert(by_cite[c.id], c)
  end
  return { defs = defs, by_id = by_id, errs = errs, dups = dups, cites = cites,
    cites_of = by_cite }
end

function M.index_text(defs)
  local out = { M.INDEX_HEADER }
  for _, d in ipairs(defs) do
    out[#out + 1] = table.concat({ d.id, d.file, tostring(d.line), d.hash, d.words }, "\t")
  end
  return table.concat(out, "\n") .. "\n"
end

function M.parse_index(text)
  local rows, order = {}, {}
  for i, l in ipairs(split_lines(text)) do
    if i > 1 and l ~= "" then
      local id, file, line, hash, words = l:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t?(.*)$")
      if id then
        rows[id] = { id = id, file = file, line = tonumber(line), hash = hash, words = words }
        order[#order + 1] = id
      end
    end
  end
  return rows, order
end

---------------------------------------------------------------------------- commands

local function say(fmt, ...) io.stdout:write(string.format(fmt, ...), "\n") end

local function evidence_lines(c, id, indent)
  local list = c.cites_of[id] or {}
  if #list == 0 then
    say("%s(no evidence cites it)", indent)
  end
  for _, e in ipairs(list) do
    say("%s%s:%d  [%s]%s", indent, e.file, e.line, e.kind, e.name and (" " .. e.name) or "")
  end
end

-- Returns the number of problems found (0 = clean).
function M.check(root)
  local c = M.collect(root)
  local problems = 0
  for _, e in ipairs(c.errs) do
    say("%s:%d: malformed definition: %s", e.file, e.line, e.msg)
    problems = problems + 1
  end
  for _, d in ipairs(c.dups) do
    say("spec/%s:%d: clause %s defined twice (first at spec/%s:%d)", d.again.file, d.again.line,
      d.again.id, d.first.file, d.first.line)
    problems = problems + 1
  end
  local undefined = {}
  for _, ci in ipairs(c.cites) do
    if not c.by_id[ci.id] then
      undefined[#undefined + 1] = ci
    end
  end
  table.sort(undefined, function(a, b)
    if a.file ~= b.file then return a.file < b.file end
    if a.line ~= b.line then return a.line < b.line end
    return id_less(a.id, b.id)
  end)
  local undef_ids, n_undef_ids = {}, 0
  for _, ci in ipairs(undefined) do
    say("%s:%d: %s is cited [%s] but defined nowhere in spec/", ci.file, ci.line, ci.id, ci.kind)
    problems = problems + 1
    if not undef_ids[ci.id] then undef_ids[ci.id] = true; n_undef_ids = n_undef_ids + 1 end
  end
  if #undefined > 0 then
    say("%d citation(s) of %d undefined id(s)", #undefined, n_undef_ids)
  end


  -- The committed index against the text.
  local idx_path = root .. "/spec/clauses.tsv"
  local committed = read_file(idx_path)
  local fresh = M.index_text(c.defs)
  if #c.dups == 0 then
    if not committed then
      say("spec/clauses.tsv is missing: run `lua5.4 scripts/clauses.lua accept` and commit it")
      problems = problems + 1
    elseif committed ~= fresh then
      local old, old_order = M.parse_index(committed)
      local changed, added, removed, moved = {}, {}, {}, {}
      for _, d in ipairs(c.defs) do
        local o = old[d.id]
        if not o then added[#added + 1] = d
        elseif o.hash ~= d.hash then changed[#changed + 1] = d
        elseif o.file ~= d.file or o.line ~= d.line or o.words ~= d.words then
          moved[#moved + 1] = d
        end
      end
      for _, id in ipairs(old_order) do
        if not c.by_id[id] then removed[#removed + 1] = old[id] end
      end
      say("")
      say("spec/clauses.tsv differs from the spec text:")
      for _, d in ipairs(changed) do
        say("  WORDING CHANGED  %s (spec/%s:%d) \"%s\"", d.id, d.file, d.line, d.words)
        if old[d.id].words ~= d.words then say("    was: \"%s\"", old[d.id].words) end
        say("    evidence that cites it, to review against the new wording:")
        evidence_lines(c, d.id, "      ")
      end
      for _, o in ipairs(removed) do
        say("  REMOVED          %s (was spec/%s:%d) \"%s\"", o.id, o.file, o.line, o.words)
        say("    evidence that still cites it:")
        evidence_lines(c, o.id, "      ")
      end
      for _, d in ipairs(added) do
        say("  NEW              %s (spec/%s:%d) \"%s\"", d.id, d.file, d.line, d.words)
      end
      for _, d in ipairs(moved) do
        local o = old[d.id]
        say("  MOVED            %s spec/%s:%d -> spec/%s:%d (wording unchanged)", d.id, o.file,
          o.line, d.file, d.line)
      end
      if #changed + #removed + #added + #moved == 0 then
        say("  (rows are equal but the file's layout differs: regenerate it)")
      end
      say("")
      say("%d changed, %d removed, %d new, %d moved. Review the evidence listed for each " ..
        "changed or removed clause (code, scenarios, tests), update it where the new wording " ..
        "requires, then run `lua5.4 scripts/clauses.lua accept` and commit spec/clauses.tsv " ..
        "with the change.", #changed, #removed, #added, #moved)
      problems = problems + 1
    end
  end
  problems = problems + M.check_sections(root)
  if problems == 0 then
    say("clauses: %d defined, %d citations, index up to date: ok", #c.defs, #c.cites)
  else
    say("clauses: %d problem(s)", problems)
  end
  return problems
end

function M.accept(root)
  local c = M.collect(root)
  if #c.dups > 0 or #c.errs > 0 then
    for _, e in ipairs(c.errs) do say("%s:%d: malformed definition: %s", e.file, e.line, e.msg) end
    for _, d in ipairs(c.dups) do
      say("spec/%s:%d: clause %s defined twice (first at spec/%s:%d)", d.again.file,
        d.again.line, d.again.id, d.first.file, d.first.line)
    end
    say("not accepted: fix the definitions first")
    return 1
  end
  local path = root .. "/spec/clauses.tsv"
  local f = assert(io.open(path, "wb"))
  f:write(M.index_text(c.defs))
  f:close()
  say("wrote spec/clauses.tsv: %d clauses", #c.defs)
  return 0
end

---------------------------------------------------------------------------- sections

--[[
The "implemented in" column of spec/README.md's Sections table, generated from the header
comments of ref/'s files (ref/README.md, "Header comment"): every .c/.h file of ref/ opens
with a comment that names the spec file(s) it implements as `spec/NAME.md`. A section's
cell lists, in path order, the .c files that name it, a whole folder written as
`ref/folder/` when every .c file under it names the section (the highest such folder);
entries outside ref/ (`port/`, ...) are hand-kept and stay after the generated ones.
]]

-- The leading comment of a C file (/* ... */ or a run of // lines), or nil.
function M.header_comment(text)
  local t = text:gsub("^\239\187\191", ""):gsub("^%s*", "")
  if t:sub(1, 2) == "/*" then
    local e = t:find("*/", 3, true)
    return e and t:sub(1, e + 1) or t
  elseif t:sub(1, 2) == "//" then
    local buf = {}
    for l in (t .. "\n"):gmatch("(.-)\n") do
      if not l:match("^%s*//") then break end
      buf[#buf + 1] = l
    end
    return table.concat(buf, "\n")
  end
  return nil
end

-- ref/ files -> the spec files their header comments name. Returns a list of {rel, specs
-- (list), set} and a list of problems {file, line, msg}.
function M.ref_headers(root)
  local out, probs = {}, {}
  for _, rel in ipairs(walk(root, "ref")) do
    if rel:match("%.[ch]$") then
      local hc = M.header_comment(read_file(root .. "/" .. rel) or "")
      local specs, set = {}, {}
      if not hc then
        probs[#probs + 1] = { file = rel, line = 1, msg = "no header comment (ref/README.md, " ..
          "\"Header comment\": what the file is, and spec/NAME.md of the section(s) it implements)" }
      else
        for name in hc:gmatch("spec/([%w%-_]+%.md)") do
          if not set[name] then
            set[name] = true
            specs[#specs + 1] = name
            if not is_file(root .. "/spec/" .. name) then
              probs[#probs + 1] = { file = rel, line = 1, msg = "header comment names spec/" ..
                name .. ", which does not exist" }
            end
          end
        end
        if #specs == 0 then
          probs[#probs + 1] = { file = rel, line = 1, msg = "header comment names no spec " ..
            "file: name the section(s) the file implements as spec/NAME.md" }
        end
      end
      out[#out + 1] = { rel = rel, specs = specs, set = set }
    end
  end
  return out, probs
end

-- The generated ref/ entries of one section's cell.
local function section_entries(files, section)
  local named, total = {}, {}
  for _, f in ipairs(files) do
    if f.rel:match("%.c$") then
      local d = f.rel:match("^(.*)/[^/]*$")
      while d and d ~= "ref" do
        total[d] = (total[d] or 0) + 1
        if f.set[section] then named[d] = (named[d] or 0) + 1 end
        d = d:match("^(.*)/[^/]*$")
      end
    end
  end
  local entries, seen = {}, {}
  for _, f in ipairs(files) do
    if f.rel:match("%.c$") and f.set[section] then
      -- the highest folder whose every .c file names the section
      local best
      local d = f.rel:match("^(.*)/[^/]*$")
      while d and d ~= "ref" do
        if named[d] == total[d] then best = d end
        d = d:match("^(.*)/[^/]*$")
      end
      local e = best and (best .. "/") or f.rel
      if not seen[e] then seen[e] = true; entries[#entries + 1] = e end
    end
  end
  table.sort(entries)
  return entries
end

-- Returns the README text with the column regenerated (or nil and a reason when the table
-- has no "implemented in" column), and the header problems.
function M.sections_text(root)
  local text = read_file(root .. "/spec/README.md")
  if not text then return nil, "no spec/README.md" end
  local files, probs = M.ref_headers(root)
  local lines = split_lines(text)
  local col, in_sections, changed, found = nil, false, false, false
  for i, l in ipairs(lines) do
    if l:match("^#") then
      in_sections = l:match("^#+%s*Sections%s*$") ~= nil
      col = nil
    elseif in_sections and l:match("^%s*|") then
      local cells = F.table_cells(l)
      if not col then
        for k, c in ipairs(cells) do
          if c:match("^%s*implemented in%s*$") then col, found = k, true end
        end
      else
        local file = cells[1]:match("^%s*`([%w%-_]+%.md)`%s*$")
        if file and cells[col] then
          local kept = {}
          for e in cells[col]:gmatch("`([^`]+)`") do
            if not e:match("^ref/") then kept[#kept + 1] = e end
          end
          local entries = section_entries(files, file)
          for _, e in ipairs(kept) do entries[#entries + 1] = e end
          local cell
          if #entries == 0 then cell = " — "
          else cell = " `" .. table.concat(entries, "`, `") .. "` " end
          if cell ~= cells[col] then
            cells[col] = cell
            cells[#cells] = nil -- the empty piece after the last bar
            lines[i] = "|" .. table.concat(cells, "|") .. "|"
            changed = true
          end
        end
      end
    end
  end
  if not found then return nil, "spec/README.md's Sections table has no \"implemented in\" column", probs end
  return table.concat(lines, "\n") .. "\n", changed, probs
end

-- check: the column is up to date and every ref/ file names its section(s). Returns the
-- number of problems; 0 (and silence) when the tree has no such column.
function M.check_sections(root)
  if not is_dir(root .. "/ref") then return 0 end
  local text, changed, probs = M.sections_text(root)
  if not text then return 0 end
  local n = 0
  for _, p in ipairs(probs) do
    say("%s:%d: %s", p.file, p.line, p.msg)
    n = n + 1
  end
  if changed then
    say("spec/README.md: the \"implemented in\" column differs from the header comments of " ..
      "ref/'s files: run `lua5.4 scripts/clauses.lua sections` and commit spec/README.md")
    n = n + 1
  end
  return n
end

function M.write_sections(root)
  local text, changed, probs = M.sections_text(root)
  if not text then say("sections: %s", changed); return 1 end
  for _, p in ipairs(probs) do say("%s:%d: %s", p.file, p.line, p.msg) end
  if changed then
    local f = assert(io.open(root .. "/spec/README.md", "wb"))
    f:write(text)
    f:close()
    say("wrote spec/README.md: \"implemented in\" column regenerated")
  else
    say("spec/README.md: \"implemented in\" column up to date")
  end
  return #probs == 0 and 0 or 1
end

---------------------------------------------------------------------------- coverage

--[[
Code blocks of clause tags in C files (docs/spec-authoring.md, "Coverage by clause").
A tag is a comment holding one or more ids.
 - A tag after code on the same line covers that line.
 - A tag on lines of its own covers what follows it: if the first code line after it
   opens a brace block (a function, or a braced if/for/while/switch), the block runs to
   the matching closing brace; otherwise it runs up to (not including) the first blank
   line, the next tag comment, or the closing brace of the block the tag sits in.
Returns a list {id, file, line (of the tag), from, to}.
]]
function M.code_blocks(root, rel, defined)
  local s = read_file(root .. "/" .. rel) or ""
  local lines = split_lines(s)
  local n = #lines
  -- Per line: depth at start, code text (comments/strings removed), comment text.
  local depth_at, code_of, comment_of = {}, {}, {}
  local depth, in_comment = 0, false
  for i = 1, n do
    local l = lines[i]
    depth_at[i] = depth
    local code, com = {}, {}
    local p = 1
    while p <= #l do
      local c2 = l:sub(p, p + 1)
      local c = l:sub(p, p)
      if in_comment then
        if c2 == "*/" then in_comment = false; p = p + 2
        else com[#com + 1] = c; p = p + 1 end
      elseif c2 == "/*" then in_comment = true; p = p + 2
      elseif c2 == "//" then com[#com + 1] = l:sub(p + 2); break
      elseif c == '"' or c == "'" then
        local q = p + 1
        while q <= #l and l:sub(q, q) ~= c do
          if l:sub(q, q) == "\\" then q = q + 1 end
          q = q + 1
        end
        code[#code + 1] = c .. c
        p = q + 1
      else
        if c == "{" then depth = depth + 1 elseif c == "}" then depth = depth - 1 end
        code[#code + 1] = c
        p = p + 1
      end
    end
    code_of[i] = table.concat(code)
    comment_of[i] = table.concat(com)
  end
  local function has_tag(i)
    local found = false
    M.each_token(comment_of[i], function() found = true end)
    return found
  end
  local blocks = {}
  for i = 1, n do
    local ids = {}
    local seen = {}
    M.each_citation(comment_of[i], function(_, tok, via_range)
      if not seen[tok] and (not via_range or not defined or defined[tok]) then
        seen[tok] = true
        ids[#ids + 1] = tok
      end
    end)
    if #ids > 0 then
      local from, to = i, i
      if not code_of[i]:match("^%s*$") and not code_of[i]:match("^%s*[{}]?%s*$") then
        -- trailing tag: this line only (or, when code precedes the comment, this line)
        from, to = i, i
      else
        local d = depth_at[i]
        -- skip the rest of the comment (lines without code)
        local j = i + 1
        while j <= n and code_of[j]:match("^%s*$") and not blank(lines[j]) do j = j + 1 end
        -- does the first statement opened here start a brace block?
        local opens = false
        local k = j
        while k <= n and k < j + 12 do
          local cd = code_of[k]
          if cd:find("{", 1, true) then opens = true; break end
          if cd:find(";", 1, true) or blank(lines[k]) then break end
          k = k + 1
        end
        if opens and j <= n then
          local e = k + 1
          while e <= n and depth_at[e] > d do e = e + 1 end
          -- line e - 1 holds the closing brace (depth returns to d after it)
          to = math.min(e - 1, n)
          if to < k then to = k end
        else
          local e = j
          while e <= n do
            if blank(lines[e]) or (e > i and has_tag(e)) then break end
            if depth_at[e] < d or (code_of[e]:match("^%s*}") and depth_at[e] <= d) then break end
            e = e + 1
          end
          to = math.max(i, e - 1)
        end
      end
      for _, id in ipairs(ids) do
        blocks[#blocks + 1] = { id = id, file = rel, line = i, from = from, to = to }
      end
    end
  end
  return blocks
end

-- Reads an lcov tracefile: returns map abs-or-rel path -> {line -> count}.
function M.read_lcov(path)
  local data, cur = {}, nil
  for l in io.lines(path) do
    local sf = l:match("^SF:(.*)$")
    if sf then
      cur = data[sf] or {}
      data[sf] = cur
    else
      local ln, cnt = l:match("^DA:(%d+),(%-?%d+)")
      if ln and cur then
        ln, cnt = tonumber(ln), tonumber(cnt)
        cur[ln] = math.max(cur[ln] or 0, cnt)
      elseif l == "end_of_record" then
        cur = nil
      end
    end
  end
  return data
end

function M.coverage(root, info_path, out_path)
  local c = M.collect(root)
  local lcov = M.read_lcov(info_path)
  -- lcov paths are absolute; match each tagged file by path suffix.
  local function lines_for(rel)
    for sf, t in pairs(lcov) do
      if sf == rel or sf:sub(-(#rel + 1)) == "/" .. rel then return t end
    end
    return nil
  end
  local files = {}
  for _, d in ipairs({ "ref", "port", "conformance/runner" }) do walk(root, d, files) end
  local per = {} -- id -> {sites, lines, executed}
  for _, rel in ipairs(files) do
    if rel:match("%.[ch]$") then
      local counts = lines_for(rel) or {}
      for _, b in ipairs(M.code_blocks(root, rel, c.by_id)) do
        local p = per[b.id] or { sites = {}, lines = 0, executed = 0 }
        per[b.id] = p
        local nl, ne = 0, 0
        for ln = b.from, b.to do
          if counts[ln] then
            nl = nl + 1
            if counts[ln] > 0 then ne = ne + 1 end
          end
        end
        p.lines, p.executed = p.lines + nl, p.executed + ne
        p.sites[#p.sites + 1] = string.format("%s:%d-%d", rel, b.from, b.to)
      end
    end
  end
  local out = {}
  local function w(fmt, ...) out[#out + 1] = string.format(fmt, ...) end
  w("# Coverage by clause")
  w("")
  w("Generated by `scripts/coverage.sh` from `%s`. A clause is *executed* when any", info_path:match("[^/]*$"))
  w("instrumented line of a code block tagged with it ran (block rule: docs/spec-authoring.md).")
  w("")
  local sections, sec_order = {}, {}
  local rows = {}
  for _, d in ipairs(c.defs) do
    local p = per[d.id]
    local scen = {}
    for _, ci in ipairs(c.cites_of[d.id] or {}) do
      if ci.kind == "scenario" then scen[#scen + 1] = ci.name end
    end
    local status
    if not p then status = "no code tag"
    elseif p.lines == 0 then status = "no instrumented line"
    elseif p.executed > 0 then status = "executed"
    else status = "NOT executed" end
    rows[#rows + 1] = { d = d, p = p, scen = scen, status = status }
    local s = sections[d.file]
    if not s then
      s = { file = d.file, n = 0, tagged = 0, executed = 0 }
      sections[d.file] = s
      sec_order[#sec_order + 1] = d.file
    end
    s.n = s.n + 1
    if p then s.tagged = s.tagged + 1 end
    if status == "executed" then s.executed = s.executed + 1 end
  end
  w("## Totals")
  w("")
  w("| section | clauses | tagged in code | executed |")
  w("|---|---:|---:|---:|")
  local tn, tt, te = 0, 0, 0
  for _, f in ipairs(sec_order) do
    local s = sections[f]
    w("| %s | %d | %d | %d |", f, s.n, s.tagged, s.executed)
    tn, tt, te = tn + s.n, tt + s.tagged, te + s.executed
  end
  w("| **all** | %d | %d | %d |", tn, tt, te)
  w("")
  w("## Clauses")
  w("")
  w("| clause | status | lines | executed lines | blocks | scenarios |")
  w("|---|---|---:|---:|---|---|")
  for _, r in ipairs(rows) do
    w("| %s | %s | %d | %d | %s | %s |", r.d.id, r.status, r.p and r.p.lines or 0,
      r.p and r.p.executed or 0, r.p and table.concat(r.p.sites, "<br>") or "",
      table.concat(r.scen, "<br>"))
  end
  local unknown = {}
  for id in pairs(per) do if not c.by_id[id] then unknown[#unknown + 1] = id end end
  table.sort(unknown, id_less)
  if #unknown > 0 then
    w("")
    w("Tags naming undefined clauses: %s", table.concat(unknown, ", "))
  end
  local text = table.concat(out, "\n") .. "\n"
  if out_path then
    local f = assert(io.open(out_path, "wb"))
    f:write(text)
    f:close()
  end
  local n_not, n_noline = 0, 0
  for _, r in ipairs(rows) do
    if r.status == "NOT executed" then n_not = n_not + 1 end
    if r.status == "no instrumented line" then n_noline = n_noline + 1 end
  end
  say("coverage by clause: %d clauses, %d tagged in code, %d executed, %d tagged but not " ..
    "executed (%d NOT executed, %d tagged only on declarations or comments)", tn, tt, te,
    tt - te, n_not, n_noline)
  for _, r in ipairs(rows) do
    if r.status == "NOT executed" then say("  not executed: %s (%s)", r.d.id,
      table.concat(r.p.sites, ", ")) end
  end
  return 0
end

---------------------------------------------------------------------------- main

local function usage()
  io.stderr:write([[
usage: lua5.4 scripts/clauses.lua [--root DIR] index | check | accept | sections | coverage INFO [OUT.md]
]])
  return 2
end

function M.main(argv)
  local root, cmd, rest = nil, nil, {}
  local i = 1
  while i <= #argv do
    local a = argv[i]
    if a == "--root" then root = argv[i + 1]; i = i + 1
    elseif a == "--accept" then cmd = "accept"
    elseif a == "--check" then cmd = "check"
    elseif a == "-h" or a == "--help" then return usage()
    elseif not cmd then cmd = a
    else rest[#rest + 1] = a end
    i = i + 1
  end
  root = root or M.default_root()
  if not is_dir(root .. "/spec") then
    io.stderr:write("clauses.lua: no spec/ folder under " .. root .. "\n")
    return 2
  end
  if cmd == "index" then
    local c = M.collect(root)
    io.stdout:write(M.index_text(c.defs))
    return 0
  elseif cmd == "check" then
    return M.check(root) == 0 and 0 or 1
  elseif cmd == "accept" then
    return M.accept(root)
  elseif cmd == "sections" then
    return M.write_sections(root)
  elseif cmd == "coverage" then
    if not rest[1] then return usage() end
    return M.coverage(root, rest[1], rest[2])
  end
  return usage()
end

if ... == "clauses" then
  return M
end
os.exit(M.main(arg or {}))
