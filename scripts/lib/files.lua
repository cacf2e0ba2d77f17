--[[
files.lua -- the file walking, path and Markdown-table helpers shared by scripts/clauses.lua
(the clause index, spec/README.md "The clause index") and scripts/deps.lua (the layer check
of ref/README.md). Neither script's rules live here: only reading the tree.

  package.path = SCRIPTS_DIR .. "/?.lua;" .. package.path
  local F = require("lib.files")
]]

local lfs = require("lfs")

local M = {}

-- The whole file as a string, or nil when it cannot be opened.
function M.read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- The lines of s (a final newline ends the last line; "\r\n" counts as one break).
function M.split_lines(s)
  local t = {}
  for line in (s .. (s:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\r?\n") do
    t[#t + 1] = line
  end
  return t
end

function M.is_dir(p) return lfs.attributes(p, "mode") == "directory" end
function M.is_file(p) return lfs.attributes(p, "mode") == "file" end

-- The entries of dir that do not start with a dot, sorted; {} when dir is no folder.
function M.sorted_entries(dir)
  local t = {}
  if not M.is_dir(dir) then return t end
  for e in lfs.dir(dir) do
    if e:sub(1, 1) ~= "." then t[#t + 1] = e end
  end
  table.sort(t)
  return t
end

-- Every regular file under root/rel (recursively, sorted), as root-relative paths.
function M.walk(root, rel, out)
  out = out or {}
  local full = root .. "/" .. rel
  if M.is_file(full) then
    out[#out + 1] = rel
  elseif M.is_dir(full) then
    for _, e in ipairs(M.sorted_entries(full)) do M.walk(root, rel .. "/" .. e, out) end
  end
  return out
end

function M.dirname(p) return p:match("^(.*)/[^/]*$") or "." end
function M.basename(p) return p:match("[^/]*$") end

-- Collapses "a/./b" and "a/x/../b"; returns nil when the path climbs above its start.
function M.normpath(p)
  local out = {}
  for part in p:gmatch("[^/]+") do
    if part == ".." then
      if #out == 0 then return nil end
      out[#out] = nil
    elseif part ~= "." then
      out[#out + 1] = part
    end
  end
  return table.concat(out, "/")
end

-- The folder of this module (scripts/lib); the repository root is two levels up.
local function lib_dir()
  local src = debug.getinfo(1, "S").source
  local p = src:sub(1, 1) == "@" and src:sub(2) or "scripts/lib/files.lua"
  return p:match("^(.*)/[^/]*$") or "."
end

-- The folder of the scripts (scripts/).
function M.script_dir()
  local d = lib_dir()
  if d == "lib" or d == "./lib" then return "." end
  return d:match("^(.*)/lib$") or (d .. "/..")
end

-- The default root of both scripts: the parent of scripts/.
function M.default_root()
  local d = M.script_dir()
  if d == "scripts" or d == "./scripts" then return "." end
  if d == "." then return ".." end
  return d:match("^(.+)/scripts$") or (d .. "/..")
end

-- The cells of a Markdown table row "| a | b |" as {" a ", " b ", ""} (the piece after the
-- last bar included, so that a row can be rebuilt with table.concat), or nil when l is no
-- table row.
function M.table_cells(l)
  if not l:match("^%s*|") then return nil end
  local cells = {}
  for c in (l:gsub("^%s*|", "") .. "|"):gmatch("([^|]*)|") do cells[#cells + 1] = c end
  return cells
end

return M
