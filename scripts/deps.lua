#!/usr/bin/env lua5.4
--[[
deps.lua -- the dependency check of the reference library's folders (issue 12).

  lua5.4 scripts/deps.lua [--root DIR] [--lib LIB.a | --nm FILE]

Checks, from the source tree under DIR (default: the parent of this script's folder):

 1. includes   every `#include "..."` of ref/**/*.{c,h} resolves relative to ref/ or
               include/ (no same-folder shortcut, no ../), and obeys the layer order of
               ref/README.md ("Layers" table, the only copy of the order): a file may
               include headers of its own folder, of the folders its folder sits on
               (transitively), and include/*.h;
 2. circles    include circles among the headers of ref/; with --lib (runs `nm -A LIB.a`)
               or --nm (a saved `nm -A` output) also CALL circles among the objects of the
               library (edge a.o -> b.o when a uses a symbol b defines; each strongly
               connected component reported with the symbols on its edges), and calls that
               go from a lower folder to a higher one;
 3. boundary   port/, tools/, fuzz/ and bench/ include nothing from ref/ (no `ref/` in an
               include, no include that resolves only through ref/), and no CMake target
               built from those folders has a ref/ include directory (CMakeLists.txt files);
 4. readmes    every folder of the layer table that exists has a README.md that lists each
               of its .c/.h files (`name` in the first cell of a table row) and none that is gone.

Prints one line per violation, "file:line: message", and exits 1 when there is any; the
last line is a summary. Exit 2 on a usage error or a missing layer table.
]]

-- The shared file helpers (scripts/lib/files.lua), found beside this script.
package.path = (debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/?.lua;" ..
  package.path
local F = require("lib.files")

local M = {}

---------------------------------------------------------------------------- utilities

local read_file, split_lines, walk = F.read_file, F.split_lines, F.walk
local is_dir, is_file, sorted_entries = F.is_dir, F.is_file, F.sorted_entries
local dirname, basename, normpath = F.dirname, F.basename, F.normpath
local default_root = F.default_root

-- The #include lines of a C file: list of {line, name, angle}. Comments are blanked
-- first, so an include inside a comment is not one.
local function includes_of(text)
  local out = {}
  local lines = split_lines(text)
  local in_comment = false
  for i, l in ipairs(lines) do
    local code = {}
    local p = 1
    while p <= #l do
      if in_comment then
        local e = l:find("*/", p, true)
        if not e then p = #l + 1 else in_comment = false; p = e + 2 end
      else
        local s = l:find("/*", p, true)
        local sl = l:find("//", p, true)
        if sl and (not s or sl < s) then code[#code + 1] = l:sub(p, sl - 1); break end
        if not s then code[#code + 1] = l:sub(p); break end
        code[#code + 1] = l:sub(p, s - 1)
        in_comment = true
        p = s + 2
      end
    end
    local c = table.concat(code)
    local q = c:match('^%s*#%s*include%s*"([^"]+)"')
    if q then out[#out + 1] = { line = i, name = q, angle = false }
    else
      local a = c:match("^%s*#%s*include%s*<([^>]+)>")
      if a then out[#out + 1] = { line = i, name = a, angle = true } end
    end
  end
  return out
end
M.includes_of = includes_of

---------------------------------------------------------------------------- layer table

--[[
Reads the "Layers" table of ref/README.md: rows "| N | `folder/` | `lower/`, ... | ..."
(second column the folder, third the folders it sits on, or a dash). Returns the list of
folders in table order, the map folder -> set of folders it may include (itself and the
transitive closure of "sits on"), and a list of problems in the table itself {line, msg}.
A folder may sit only on folders listed above it, so the order has no circle.
]]
function M.read_layers(root)
  local text = read_file(root .. "/ref/README.md")
  if not text then return nil, nil, { { line = 0, msg = "ref/README.md is missing" } } end
  local order, sits, index, probs = {}, {}, {}, {}
  local in_layers = false
  for i, l in ipairs(split_lines(text)) do
    if l:match("^#") then in_layers = l:lower():match("^#+%s*layers") ~= nil
    elseif in_layers and l:match("^%s*|") then
      local cells = F.table_cells(l)
      local folder = cells[2] and cells[2]:match("^%s*`([%w_/]+)/`%s*$")
      if folder then
        if index[folder] then
          probs[#probs + 1] = { line = i, msg = "folder " .. folder .. "/ listed twice" }
        end
        order[#order + 1] = folder
        index[folder] = #order
        sits[folder] = {}
        for low in (cells[3] or ""):gmatch("`([%w_/]+)/`") do
          if not index[low] or low == folder then
            probs[#probs + 1] = { line = i, msg = string.format(
              "%s/ sits on %s/, which is not listed above it", folder, low) }
          else
            sits[folder][#sits[folder] + 1] = low
          end
        end
      end
    end
  end
  if #order == 0 then
    probs[#probs + 1] = { line = 0, msg = "ref/README.md has no \"Layers\" table" }
  end
  local allowed = {}
  for _, f in ipairs(order) do
    local set = { [f] = true }
    for _, low in ipairs(sits[f]) do
      for g in pairs(allowed[low]) do set[g] = true end
    end
    allowed[f] = set
  end
  return order, allowed, probs
end

-- The layer folder of a ref/ path: the longest table folder that is a prefix of it.
local function folder_of(order, rel)
  local inner = rel:match("^ref/(.*)$")
  if not inner then return nil end
  local best
  for _, f in ipairs(order) do
    if inner:sub(1, #f + 1) == f .. "/" and (not best or #f > #best) then best = f end
  end
  return best
end

---------------------------------------------------------------------------- graphs

-- Tarjan's strongly connected components of graph g (node -> {node -> payload}) over the
-- sorted node list; returns the components of more than one node, each sorted, in the
-- order of their smallest node.
local function circles(nodes, g)
  local index, low, on, stack, comps = {}, {}, {}, {}, {}
  local n = 0
  local function strong(v)
    n = n + 1
    index[v], low[v] = n, n
    stack[#stack + 1] = v
    on[v] = true
    local succ = {}
    for w in pairs(g[v] or {}) do succ[#succ + 1] = w end
    table.sort(succ)
    for _, w in ipairs(succ) do
      if not index[w] then
        strong(w)
        if low[w] < low[v] then low[v] = low[w] end
      elseif on[w] and index[w] < low[v] then
        low[v] = index[w]
      end
    end
    if low[v] == index[v] then
      local comp = {}
      repeat
        local w = table.remove(stack)
        on[w] = false
        comp[#comp + 1] = w
      until w == v
      if #comp > 1 then
        table.sort(comp)
        comps[#comps + 1] = comp
      end
    end
  end
  for _, v in ipairs(nodes) do
    if not index[v] then strong(v) end
  end
  table.sort(comps, function(a, b) return a[1] < b[1] end)
  return comps
end
M.circles = circles

---------------------------------------------------------------------------- the checks

local function new_report()
  local r = { lines = {} }
  function r.add(file, line, fmt, ...)
    r.lines[#r.lines + 1] = string.format("%s:%d: " .. fmt, file, line or 0, ...)
  end
  return r
end

-- Check 1 and the include half of check 2.
local function check_ref_includes(root, order, allowed, rep)
  local files = {}
  for _, rel in ipairs(walk(root, "ref")) do
    if rel:match("%.[ch]$") then files[#files + 1] = rel end
  end
  local graph, headers = {}, {}
  local first_line = {}
  for _, rel in ipairs(files) do
    local from = folder_of(order, rel)
    if not from then
      rep.add(rel, 1, "file is in no folder of the layer table (ref/README.md, \"Layers\")")
    end
    if rel:match("%.h$") then headers[#headers + 1] = rel end
    graph[rel] = graph[rel] or {}
    for _, inc in ipairs(includes_of(read_file(root .. "/" .. rel) or "")) do
      local n = inc.name
      local in_ref = normpath("ref/" .. n)
      local in_inc = normpath("include/" .. n)
      local target
      if inc.angle then
        if in_ref and is_file(root .. "/" .. in_ref) then
          rep.add(rel, inc.line, "<%s> names a ref/ header: use quotes", n)
        end
      elseif n:find("..", 1, true) or n:sub(1, 1) == "/" then
        rep.add(rel, inc.line, "include \"%s\": name the header relative to ref/ or " ..
          "include/ (no .., no absolute path)", n)
      elseif in_ref and is_file(root .. "/" .. in_ref) then
        target = in_ref
      elseif in_inc and not n:find("/", 1, true) and is_file(root .. "/" .. in_inc) then
        target = nil -- a public header: always allowed
      elseif in_inc and is_file(root .. "/" .. in_inc) then
        rep.add(rel, inc.line, "include \"%s\": public headers are included by bare name", n)
      else
        local same = normpath(dirname(rel) .. "/" .. n)
        if same and is_file(root .. "/" .. same) then
          rep.add(rel, inc.line, "include \"%s\" resolves only beside the file: name the " ..
            "folder relative to ref/ (\"%s\")", n, same:sub(5))
        else
          rep.add(rel, inc.line, "include \"%s\" resolves neither in ref/ nor in include/", n)
        end
      end
      if target then
        local to = folder_of(order, target)
        if from and to and not allowed[from][to] then
          rep.add(rel, inc.line, "%s/ includes %s (%s/ is not below %s/ in ref/README.md)",
            from, n, to, from)
        end
        if rel:match("%.h$") and target:match("%.h$") then
          graph[rel][target] = true
          first_line[rel .. ">" .. target] = first_line[rel .. ">" .. target] or inc.line
        end
        if target == rel then
          rep.add(rel, inc.line, "header includes itself")
        end
      end
    end
  end
  table.sort(headers)
  for _, comp in ipairs(circles(headers, graph)) do
    local set = {}
    for _, h in ipairs(comp) do set[h] = true end
    for _, h in ipairs(comp) do
      local outs = {}
      for t in pairs(graph[h]) do if set[t] then outs[#outs + 1] = t end end
      table.sort(outs)
      for _, t in ipairs(outs) do
        rep.add(h, first_line[h .. ">" .. t], "include circle {%s}: includes %s",
          table.concat(comp, ", "), t)
      end
    end
  end
  return #files
end

--[[
Reads `nm -A` output: lines "ARCHIVE:MEMBER.o:ADDR TYPE NAME" (ADDR empty for U). Returns
member -> {defs = set, uses = set}. Defined: the global types T D B R (also C G S V W);
lower-case (local) symbols are ignored.
]]
function M.parse_nm(text)
  local objs = {}
  for l in text:gmatch("[^\n]+") do
    local member, rest = l:match("^[^:]*:([^:]+%.o):(.*)$")
    if not member then member, rest = l:match("^([^:]+%.o):(.*)$") end
    if member then
      local ty, sym = rest:match("^%s*%x*%s+(%a)%s+(%S+)%s*$")
      if ty then
        local o = objs[member] or { defs = {}, uses = {} }
        objs[member] = o
        if ty == "U" then o.uses[sym] = true
        elseif ty:match("[TDBRCGSVW]") then o.defs[sym] = true end
      end
    end
  end
  return objs
end

-- First line of a file where the word sym occurs (1 when none does).
local function line_of_word(root, rel, sym)
  local text = read_file(root .. "/" .. rel)
  if not text then return 1 end
  for i, l in ipairs(split_lines(text)) do
    if l:find("%f[%w_]" .. sym:gsub("%p", "%%%0") .. "%f[^%w_]") then return i end
  end
  return 1
end

-- The call half of check 2.
local function check_calls(root, order, allowed, nm_text, rep)
  local objs = M.parse_nm(nm_text)
  -- member "x.c.o" -> ref/ path of x.c (by file name; two sources of one name are reported)
  local by_name = {}
  for _, rel in ipairs(walk(root, "ref")) do
    if rel:match("%.c$") then
      local b = basename(rel) .. ".o"
      if by_name[b] then
        rep.add(rel, 1, "two sources named %s (also %s): their objects cannot be told apart " ..
          "in the archive", basename(rel), by_name[b])
      end
      by_name[b] = by_name[b] or rel
    end
  end
  local path_of = {}
  local nodes = {}
  local definer = {}
  for member, o in pairs(objs) do
    local p = by_name[member] or by_name[member:gsub("%.obj$", ".o")] or ("(object " .. member .. ")")
    path_of[member] = p
    nodes[#nodes + 1] = p
    for s in pairs(o.defs) do definer[s] = definer[s] or p end
  end
  table.sort(nodes)
  local graph = {}
  for member, o in pairs(objs) do
    local a = path_of[member]
    graph[a] = graph[a] or {}
    for s in pairs(o.uses) do
      local b = definer[s]
      if b and b ~= a then
        graph[a][b] = graph[a][b] or {}
        graph[a][b][#graph[a][b] + 1] = s
      end
    end
  end
  for _, outs in pairs(graph) do for _, syms in pairs(outs) do table.sort(syms) end end
  -- calls from a lower folder to a higher one
  for _, a in ipairs(nodes) do
    local fa = folder_of(order, a)
    local outs = {}
    for b in pairs(graph[a] or {}) do outs[#outs + 1] = b end
    table.sort(outs)
    for _, b in ipairs(outs) do
      local fb = folder_of(order, b)
      if fa and fb and not allowed[fa][fb] then
        local syms = graph[a][b]
        rep.add(a, line_of_word(root, a, syms[1]), "%s/ calls %s/ (%s of %s): %s/ is not " ..
          "below %s/ in ref/README.md", fa, fb, table.concat(syms, ", "), b, fb, fa)
      end
    end
  end
  local comps = circles(nodes, graph)
  for k, comp in ipairs(comps) do
    local set = {}
    for _, p in ipairs(comp) do set[p] = true end
    for _, a in ipairs(comp) do
      local outs = {}
      for b in pairs(graph[a] or {}) do if set[b] then outs[#outs + 1] = b end end
      table.sort(outs)
      for _, b in ipairs(outs) do
        local syms = graph[a][b]
        rep.add(a, line_of_word(root, a, syms[1]), "call circle %d of %d {%s}: uses %s of %s",
          k, #comps, table.concat(comp, ", "), table.concat(syms, ", "), b)
      end
    end
  end
  local n = 0
  for _ in pairs(objs) do n = n + 1 end
  return n, #comps
end

M.GUARDED = { "port", "tools", "fuzz", "bench" }
local C_EXT = { c = true, h = true, cc = true, cpp = true, cxx = true, hpp = true, hh = true }

--[[
Splits a CMake file into commands {name, args (list of words), line}. Comments (# to the
end of the line, outside quotes; bracket comments are not used here) are dropped;
parentheses nest.
]]
function M.cmake_commands(text)
  local cmds = {}
  local lines = split_lines(text)
  local cur, depth, word, wline = nil, 0, nil, nil
  local function flush()
    if word and cur then
      cur.args[#cur.args + 1] = word
      cur.lines[#cur.args] = wline
    end
    word = nil
  end
  for i, l in ipairs(lines) do
    local p = 1
    local in_q = false
    while p <= #l do
      local c = l:sub(p, p)
      if not word then wline = i end
      if in_q then
        word = (word or "") .. c
        if c == "\\" then word = word .. l:sub(p + 1, p + 1); p = p + 1
        elseif c == '"' then in_q = false end
      elseif c == "#" then
        break
      elseif not cur then
        local name, rest = l:sub(p):match("^([%w_]+)%s*%(()")
        if name then
          cur = { name = name:lower(), args = {}, lines = {}, line = i }
          depth = 1
          p = p + rest - 2
        end
      elseif c == '"' then
        in_q = true
        word = (word or "") .. c
      elseif c == "(" then
        depth = depth + 1
        word = (word or "") .. c
      elseif c == ")" then
        depth = depth - 1
        if depth == 0 then
          flush()
          cmds[#cmds + 1] = cur
          cur = nil
        else
          word = (word or "") .. c
        end
      elseif c:match("%s") then
        flush()
      else
        word = (word or "") .. c
      end
      p = p + 1
    end
    if cur then flush() end
  end
  return cmds
end

-- Does a CMake word name the ref/ folder or something inside it?
local function names_ref(w)
  w = w:gsub('"', "")
  return w:match("^%${CMAKE_SOURCE_DIR}/ref/?$") or w:match("^%${CMAKE_SOURCE_DIR}/ref/")
    or w:match("^%${PROJECT_SOURCE_DIR}/ref/?") or w:match("^%.%./ref/?") or w:match("^ref/?$")
    or w:match("^ref/") or w:match("/%.%./ref/?$") or w:match("/%.%./ref/")
end

-- Which guarded folder a CMake word points into (port, tools, fuzz, bench), or nil.
local function guarded_in(w)
  w = w:gsub('"', "")
  for _, g in ipairs(M.GUARDED) do
    if w:match("^%${CMAKE_SOURCE_DIR}/" .. g .. "/") or w:match("^%${PROJECT_SOURCE_DIR}/" .. g .. "/") then
      return g
    end
  end
  return nil
end

-- Check 3.
local function check_boundary(root, rep)
  -- a) the sources of the guarded folders
  local nfiles = 0
  for _, g in ipairs(M.GUARDED) do
    for _, rel in ipairs(walk(root, g)) do
      local ext = rel:match("%.([%w]+)$")
      if ext and C_EXT[ext] then
        nfiles = nfiles + 1
        for _, inc in ipairs(includes_of(read_file(root .. "/" .. rel) or "")) do
          local n = inc.name
          local besides = normpath(dirname(rel) .. "/" .. n)
          if n:match("^ref/") or n:match("/ref/") or (besides and besides:match("^ref/")) then
            rep.add(rel, inc.line, "%s/ includes \"%s\" from ref/ (use the public headers " ..
              "of include/)", g, n)
          else
            local ok = (besides and is_file(root .. "/" .. besides))
              or is_file(root .. "/include/" .. n) or is_file(root .. "/" .. g .. "/" .. n)
              or is_file(root .. "/" .. n)
            local r = normpath("ref/" .. n)
            if not ok and r and is_file(root .. "/" .. r) then
              rep.add(rel, inc.line, "%s/ includes \"%s\", which resolves only through ref/ " ..
                "(use the public headers of include/)", g, n)
            end
          end
        end
      end
    end
  end
  -- b) the CMake targets built from them
  local lists = {}
  if is_file(root .. "/CMakeLists.txt") then lists[#lists + 1] = "CMakeLists.txt" end
  for _, g in ipairs(M.GUARDED) do
    for _, rel in ipairs(walk(root, g)) do
      if basename(rel) == "CMakeLists.txt" or rel:match("%.cmake$") then lists[#lists + 1] = rel end
    end
  end
  for _, rel in ipairs(lists) do
    local own = nil
    for _, g in ipairs(M.GUARDED) do
      if rel:sub(1, #g + 1) == g .. "/" then own = g end
    end
    local cmds = M.cmake_commands(read_file(root .. "/" .. rel) or "")
    local var_dirs = {} -- variable -> guarded folder its file list points into
    local target_dir = {} -- target name -> guarded folder
    for _, c in ipairs(cmds) do
      if (c.name == "file" or c.name == "set" or c.name == "list") and c.args[2] then
        local var = c.name == "file" and c.args[2] or (c.name == "set" and c.args[1] or c.args[2])
        for _, w in ipairs(c.args) do
          local g = guarded_in(w)
          if g then var_dirs[var] = g end
        end
      elseif c.name == "add_library" or c.name == "add_executable" then
        local g = own
        for k = 2, #c.args do
          local w = c.args[k]
          g = g or guarded_in(w)
          local v = w:match("^%${([%w_]+)}$")
          if v and var_dirs[v] then g = g or var_dirs[v] end
        end
        if g then target_dir[c.args[1]] = g end
      end
    end
    for _, c in ipairs(cmds) do
      if c.name == "target_include_directories" or c.name == "include_directories" then
        local g
        if c.name == "include_directories" then g = own
        else g = target_dir[c.args[1]] or own end
        if g then
          for k = 1, #c.args do
            if names_ref(c.args[k]) then
              rep.add(rel, c.lines[k] or c.line, "%s target %s has the include directory %s (%s/ may use " ..
                "include/ only)", g, c.name == "include_directories" and "(directory)" or c.args[1],
                c.args[k], g)
            end
          end
        end
      end
    end
  end
  return nfiles
end

-- Check 4: every folder of the layer table has a README.md whose file table lists each of
-- its .c/.h files (as `name` in the first cell of a row), and no file that is gone.
local function check_readmes(root, order, rep)
  for _, f in ipairs(order) do
    local dir = "ref/" .. f
    local readme = dir .. "/README.md"
    local text = read_file(root .. "/" .. readme)
    if not is_dir(root .. "/" .. dir) then
      -- a row for a folder still to come: nothing to list
    elseif not text then
      rep.add(readme, 1, "missing: each ref/ folder has a README.md listing its files")
    else
      local listed = {}
      for i, l in ipairs(split_lines(text)) do
        local first = l:match("^%s*|([^|]*)|") or ""
        for name in first:gmatch("`([%w_%-]+%.[ch])`") do
          listed[name] = true
          if not is_file(root .. "/" .. dir .. "/" .. name) then
            rep.add(readme, i, "lists %s, which is not in %s/", name, dir)
          end
        end
      end
      for _, e in ipairs(sorted_entries(root .. "/" .. dir)) do
        if e:match("%.[ch]$") and is_file(root .. "/" .. dir .. "/" .. e) and not listed[e] then
          rep.add(readme, 1, "does not list %s (one line per file)", e)
        end
      end
    end
  end
end

---------------------------------------------------------------------------- main

local function usage()
  io.stderr:write("usage: lua5.4 scripts/deps.lua [--root DIR] [--lib LIB.a | --nm NM.txt]\n")
  return 2
end

function M.main(argv)
  local root, lib, nmfile
  local i = 1
  while i <= #argv do
    local a = argv[i]
    if a == "--root" then root = argv[i + 1]; i = i + 1
    elseif a == "--lib" then lib = argv[i + 1]; i = i + 1
    elseif a == "--nm" then nmfile = argv[i + 1]; i = i + 1
    else return usage() end
    i = i + 1
  end
  root = root or default_root()
  local order, allowed, probs = M.read_layers(root)
  if #probs > 0 then
    for _, p in ipairs(probs) do
      io.stdout:write(string.format("ref/README.md:%d: %s\n", p.line, p.msg))
    end
    io.stdout:write("deps: the layer table of ref/README.md is unusable\n")
    return 2
  end
  local rep = new_report()
  local nfiles = check_ref_includes(root, order, allowed, rep)
  local nobj, ncirc = nil, 0
  local nm_text
  if lib then
    local f = io.popen("nm -A '" .. lib:gsub("'", "'\\''") .. "' 2>&1")
    nm_text = f:read("a")
    local ok = f:close()
    if not ok then
      io.stdout:write("deps: nm -A " .. lib .. " failed:\n" .. nm_text)
      return 2
    end
  elseif nmfile then
    nm_text = read_file(nmfile)
    if not nm_text then io.stdout:write("deps: cannot read " .. nmfile .. "\n"); return 2 end
  end
  if nm_text then nobj, ncirc = check_calls(root, order, allowed, nm_text, rep) end
  local nguard = check_boundary(root, rep)
  check_readmes(root, order, rep)
  for _, l in ipairs(rep.lines) do io.stdout:write(l, "\n") end
  io.stdout:write(string.format("deps: %d layers, %d ref/ files, %s, %d files in %s: %d " ..
    "violation(s)%s\n", #order, nfiles,
    nobj and string.format("%d objects (%d call circle(s))", nobj, ncirc) or "no library given",
    nguard, table.concat(M.GUARDED, "/ ") .. "/", #rep.lines, #rep.lines == 0 and ": ok" or ""))
  return #rep.lines == 0 and 0 or 1
end

if ... == "deps" then
  return M
end
os.exit(M.main(arg or {}))
