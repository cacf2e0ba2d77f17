#!/usr/bin/env lua5.4
--[==[
mutate.lua -- mutation testing of the reference (ref/) against the conformance matrix
(issue 13; how to run it and how to argue an equivalent mutant: docs/mutation.md).

  lua5.4 scripts/mutate.lua [--seed S] [--sample N | --all] [--files GLOB[,GLOB]] [--jobs J]
                            [--out DIR] [--work DIR] [--unit] [--timeout-factor F]
                            [--list] [--no-vendor] [--ratchet FILE] [--sanitize]

The source tree is never modified. The tree (without build*/, out/, .git) is copied into a
scratch directory (--work, default /tmp/onepath-mutate-$USER/jK), one plain build is
configured there once (Ninja, -DOP_SANITIZE=OFF, the kit's -O2 without -g), and the clean
copy must pass `op-conform run`. Then, per mutant: one ref/**/*.c file of the copy is
rewritten, only op-conform is rebuilt, `op-conform run --quiet --fail-fast` runs under a
timeout of F (default 10) times the clean run, and the file is restored. Outcomes:
  Killed        the matrix failed (a mismatch, an error, a crash)
  Timeout       the matrix did not finish in time (counted as killed)
  Survived      the matrix passed
  CompileError  the mutant does not build (not counted)
  Ignored       listed in tests/mutation/equivalent.tsv, with the reason (not run, not counted)
Score = (Killed + Timeout) / (Killed + Timeout + Survived). With --unit, each survivor is
also run against the unit tests (tests/test_*.c), to tell "killed only by unit tests" apart.
With --sanitize, each survivor is rebuilt in a second build of the copy (-DOP_SANITIZE=ON,
target op-conform_asan: ASan and UBSan, every report fatal) and the matrix is run again
there; a failure is Killed with "sanitizer build" in its detail. This is still the matrix
alone: a mutant that reads past an array or overflows a signed integer without changing an
answer of the plain build is caught by the matrix's sanitizer run (ctest
conformance/inprocess_asan), as a port's own memory error would be by its own tooling.

The operators and the sample rule (a deterministic function of the seed) are in the header
of scripts/lib/mutants.lua. --jobs J splits the sample by file over J workers, each with its
own copy and build (use 1 while others share the machine).

Reports in --out (default out/mutation/): report.md (per spec section = ref/ folder, per file,
every survivor with file:line, the mutation and the nearest clause id cited at or above its
line, every equivalent with its reason), mutation.json (the mutation-testing-elements schema
that Stryker's report viewer reads), index.html (that viewer, vendored from npm at run time
with `npm pack mutation-testing-elements`, else the plain table) and table.html (the plain
table, always).

--only TEXT keeps the mutants whose "file:line:mutation" contains TEXT (re-check one survivor),
--only @FILE those named exactly, one "file:line:mutation" per line;
--regen FILTER writes, in the copy only, the golden files of the scenarios matching FILTER
before the clean run (scenarios being written against --rev).

--ratchet FILE (tests/mutation/ratchet.txt) takes seed, sample and the committed score from
FILE and exits 1 when the sample's score is below it (ctest mutation/ratchet).
--list prints the sample and exits without building.
]==]

package.path = (debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/?.lua;" ..
  package.path
local F = require("lib.files")
local MU = require("lib.mutants")
local lfs = require("lfs")

local function die(msg) io.stderr:write("mutate: ", msg, "\n"); os.exit(2) end
local function log(fmt, ...) io.stderr:write(string.format(fmt, ...), "\n"); io.stderr:flush() end

local function shq(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- sh -c CMD; returns the exit code (128 + n for a signal).
local function run(cmd)
  local ok, how, code = os.execute(cmd)
  if how == "signal" then return 128 + code end
  return code or (ok and 0 or 1)
end

local function abspath(p)
  if p:sub(1, 1) == "/" then return p end
  return lfs.currentdir() .. "/" .. p
end

local function now() -- wall clock seconds, to the millisecond
  local p = io.popen("date +%s.%N")
  local s = p:read("l"); p:close()
  return tonumber(s) or os.time()
end

local function write_file(path, s)
  local f = assert(io.open(path, "wb")); f:write(s); f:close()
end

local function mkdir_p(p) run("mkdir -p " .. shq(p)) end

------------------------------------------------------------------------------ options
local opt = { seed = 1, sample = 250, out = "out/mutation", jobs = 1, tfactor = 10, memlimit = 3072 }
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    local function val() i = i + 1; return arg[i] or die("missing value after " .. a) end
    if a == "--seed" then opt.seed = math.tointeger(tonumber(val())) or die("--seed wants an integer")
    elseif a == "--sample" then opt.sample = math.tointeger(tonumber(val())) or die("--sample wants an integer")
    elseif a == "--all" then opt.sample = nil
    elseif a == "--files" then opt.files = val()
    elseif a == "--jobs" then opt.jobs = math.tointeger(tonumber(val())) or die("--jobs wants an integer")
    elseif a == "--out" then opt.out = val()
    elseif a == "--work" then opt.work = val()
    elseif a == "--unit" then opt.unit = true
    elseif a == "--sanitize" then opt.sanitize = true
    elseif a == "--timeout-factor" then opt.tfactor = tonumber(val()) or die("--timeout-factor wants a number")
    elseif a == "--list" then opt.list = true
    elseif a == "--resume" then opt.resume = true
    elseif a == "--report-only" then opt.resume, opt.report_only = true, true
    elseif a == "--only" then opt.only = val()
    elseif a == "--regen" then opt.regen = val()
    elseif a == "--mem-limit" then opt.memlimit = math.tointeger(tonumber(val())) or die("--mem-limit wants MiB")
    elseif a == "--no-vendor" then opt.novendor = true
    elseif a == "--ratchet" then opt.ratchet = val()
    elseif a == "--worker" then opt.worker = math.tointeger(tonumber(val()))
    elseif a == "--root" then opt.root = val()
    elseif a == "--rev" then opt.rev = val()
    elseif a == "--overlay" then opt.overlay = val()
    elseif a == "--patch" then opt.patch = abspath(val())
    elseif a == "-h" or a == "--help" then
      print((debug.getinfo(1, "S").source:match("^@(.*)$") and
        F.read_file(debug.getinfo(1, "S").source:sub(2)):match("%-%-%[==%[(.-)%]==%]")) or "see docs/mutation.md")
      os.exit(0)
    else die("unknown option " .. a .. " (--help)") end
    i = i + 1
  end
end

local function realdir(p)
  local h = io.popen("cd " .. shq(p) .. " 2>/dev/null && pwd")
  local s = h:read("l"); h:close()
  return s
end
local ROOT = realdir(opt.root or F.default_root()) or die("no such folder: " .. tostring(opt.root))
if not F.is_file(ROOT .. "/conformance/lib/conform.lua") then die("not the kit's tree: " .. ROOT) end

local ratchet
if opt.ratchet then
  local txt = F.read_file(opt.ratchet) or F.read_file(ROOT .. "/" .. opt.ratchet) or die("cannot read " .. opt.ratchet)
  ratchet = {}
  for l in txt:gmatch("[^\n]+") do
    local k, v = l:match("^%s*(%a+)%s+(%S+)")
    if k and not l:match("^%s*#") then ratchet[k] = v end
  end
  opt.seed = math.tointeger(tonumber(ratchet.seed)) or die("ratchet file: no seed")
  opt.sample = math.tointeger(tonumber(ratchet.sample)) or die("ratchet file: no sample")
  ratchet.score = tonumber(ratchet.score) or die("ratchet file: no score")
  if ratchet.files then opt.files = ratchet.files end
end

opt.out = abspath(opt.out:sub(1, 1) == "/" and opt.out or (opt.out == "out/mutation" and ROOT .. "/out/mutation" or opt.out))
local WORK_BASE = abspath(opt.work or ("/tmp/onepath-mutate-" .. (os.getenv("USER") or "user")))

-- The snapshot every worker copies: the working tree (without build*/, out/, .git), or with
-- --rev the committed tree of REV (git archive) plus the working-tree files named by
-- --overlay (globs, e.g. 'conformance/scenarios/build3d/tilecache-*.lua,golden/build3d/*').
-- Mutants are read from the snapshot, so the sample does not move while others edit.
local SNAP = WORK_BASE .. "/snapshot"
local function glob_pattern(g)
  local p = g:gsub("[%^%$%(%)%%%.%[%]%+%-]", "%%%0")
  p = p:gsub("%*%*", "\1"):gsub("%*", "[^/]*"):gsub("%?", "[^/]"):gsub("\1", ".*")
  return "^" .. p .. "$"
end
if opt.report_only then SNAP = WORK_BASE .. "/snapshot-report"; end
if not opt.worker then
  run("rm -rf " .. shq(SNAP))
  mkdir_p(SNAP)
  local rc
  if opt.rev then
    rc = run(string.format("git -C %s archive %s | tar xf - -C %s", shq(ROOT), shq(opt.rev), shq(SNAP)))
  else
    rc = run(string.format("cd %s && tar cf - --exclude='./build*' --exclude=./out --exclude=./.git . | (cd %s && tar xf -)",
      shq(ROOT), shq(SNAP)))
  end
  if rc ~= 0 then die("cannot make the snapshot in " .. SNAP) end
  if opt.overlay then
    local n = 0
    for _, top in ipairs(F.sorted_entries(ROOT)) do
      if not top:match("^build") and top ~= "out" then
        for _, p in ipairs(F.walk(ROOT, top)) do
          for g in opt.overlay:gmatch("[^,]+") do
            if p:match(glob_pattern(g)) then
              mkdir_p(SNAP .. "/" .. F.dirname(p))
              write_file(SNAP .. "/" .. p, F.read_file(ROOT .. "/" .. p))
              n = n + 1
              break
            end
          end
        end
      end
    end
    log("mutate: %d file(s) overlaid from the working tree", n)
  end
  if opt.patch and run(string.format("patch -s -p1 -d %s <%s", shq(SNAP), shq(opt.patch))) ~= 0 then
    die("the patch " .. opt.patch .. " does not apply to the snapshot")
  end
end
local TREE = SNAP


------------------------------------------------------------------------------ mutants

local function file_selected(path)
  if not opt.files then return true end
  for g in opt.files:gmatch("[^,]+") do
    if path:match(glob_pattern(g)) or path:match(glob_pattern("ref/" .. g)) then return true end
  end
  return false
end

local header_types = {}
for _, d in ipairs({ "ref", "include" }) do
  for _, p in ipairs(F.walk(TREE, d)) do
    if p:match("%.h$") then MU.collect_types(F.read_file(TREE .. "/" .. p), header_types) end
  end
end

local ALL, SOURCES = {}, {}
for _, p in ipairs(F.walk(TREE, "ref")) do
  if p:match("%.c$") then
    local text = F.read_file(TREE .. "/" .. p)
    SOURCES[p] = text
    local types = {}
    for k in pairs(header_types) do types[k] = true end
    MU.collect_types(text, types)
    local list = MU.generate(p, text, types)
    MU.assign_keys(list, opt.seed)
    for _, m in ipairs(list) do ALL[#ALL + 1] = m end
  end
end

-- tests/mutation/equivalent.tsv: file <TAB> line <TAB> mutation <TAB> reason
local EQUIV, EQUIV_ROWS = {}, {}
do
  local txt = F.read_file(ROOT .. "/tests/mutation/equivalent.tsv") or ""
  local n = 0
  for l in txt:gmatch("[^\n]+") do
    n = n + 1
    if not l:match("^#") and not l:match("^file\t") then
      local file, line, mut, reason = l:match("^([^\t]+)\t(%d+)\t([^\t]+)\t(.+)$")
      if not file then die("tests/mutation/equivalent.tsv line " .. n .. ": want file, line, mutation, reason (tabs)") end
      local key = file .. ":" .. line .. ":" .. mut
      EQUIV[key] = reason
      EQUIV_ROWS[#EQUIV_ROWS + 1] = { key = key, file = file, line = tonumber(line), mut = mut, reason = reason }
    end
  end
end
local function equiv_of(m) return EQUIV[m.file .. ":" .. m.line .. ":" .. MU.describe(m)] end
do -- every entry must name a mutant that exists. A row whose line moved follows its mutant
   -- when exactly one mutant of the file has the row's mutation text within 40 lines (an
   -- edit above shifted it); the run says so, so that the row can be updated.
  local exists, by_text = {}, {}
  for _, m in ipairs(ALL) do
    local d = MU.describe(m)
    exists[m.file .. ":" .. m.line .. ":" .. d] = true
    local k = m.file .. ":" .. d
    by_text[k] = by_text[k] or {}
    table.insert(by_text[k], m.line)
  end
  local stale = 0
  for _, e in ipairs(EQUIV_ROWS) do
    if not exists[e.key] then
      local near = {}
      for _, l in ipairs(by_text[e.file .. ":" .. e.mut] or {}) do
        if math.abs(l - e.line) <= 40 then near[#near + 1] = l end
      end
      if #near == 1 then
        EQUIV[e.file .. ":" .. near[1] .. ":" .. e.mut] = e.reason
        log("mutate: tests/mutation/equivalent.tsv: %s:%d %s is now at line %d (update the row)", e.file, e.line, e.mut, near[1])
      else
        stale = stale + 1
        log("mutate: tests/mutation/equivalent.tsv names no mutant: %s:%d %s (line moved? update it)", e.file, e.line, e.mut)
      end
    end
  end
  if stale > 0 then log("mutate: %d stale row(s) in tests/mutation/equivalent.tsv", stale) end
end

local POOL = {}
local ONLY -- --only TEXT, or --only @FILE: one "file:line:mutation" per line, exact
if opt.only and opt.only:sub(1, 1) == "@" then
  ONLY = {}
  for l in (F.read_file(opt.only:sub(2)) or die("cannot read " .. opt.only:sub(2))):gmatch("[^\n]+") do ONLY[l] = true end
end
for _, m in ipairs(ALL) do
  local ident = m.file .. ":" .. m.line .. ":" .. MU.describe(m)
  if file_selected(m.file) and (not opt.only or (ONLY and ONLY[ident]) or (not ONLY and ident:find(opt.only, 1, true))) then
    POOL[#POOL + 1] = m
  end
end
local SAMPLE = MU.select(POOL, opt.sample)
for i, m in ipairs(SAMPLE) do
  m.id = tostring(i)
  m.reason = equiv_of(m)
  if m.reason then m.status = "Ignored" end
end
if #SAMPLE == 0 then die("no mutant selected (--files " .. tostring(opt.files) .. ")") end

if opt.list then
  for _, m in ipairs(SAMPLE) do
    print(string.format("%s\t%s:%d\t%s\t%s%s", m.id, m.file, m.line, m.mutator, MU.describe(m),
      m.reason and ("\tIgnored: " .. m.reason) or ""))
  end
  os.exit(0)
end

------------------------------------------------------------------------------ the scratch build
local UNIT_TESTS = {}
for _, p in ipairs(F.walk(TREE, "tests")) do
  local name = p:match("^tests/(test_[%w_]+)%.c$")
  if name then UNIT_TESTS[#UNIT_TESTS + 1] = name end
end

-- The sanitizer build's environment: every report ends the run (as in ctest).
local SAN_ENV = "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"

-- Copies the tree into work/src, configures work/build once, builds op-conform, checks
-- the clean matrix; returns the paths and the clean run's time in seconds.
local function setup(work)
  local src, bld = work .. "/src", work .. "/build"
  -- sync src with the snapshot by content: a file is written (new mtime, so the build
  -- redoes it) only when it differs; files the snapshot lacks are removed
  mkdir_p(src)
  local want = {}
  for _, top in ipairs(F.sorted_entries(TREE)) do
    for _, p in ipairs(F.walk(TREE, top)) do
      want[p] = true
      local a = F.read_file(TREE .. "/" .. p)
      if F.read_file(src .. "/" .. p) ~= a then
        mkdir_p(src .. "/" .. F.dirname(p))
        write_file(src .. "/" .. p, a)
        local mode = lfs.attributes(TREE .. "/" .. p, "permissions")
        if mode and mode:sub(3, 3) == "x" then run("chmod +x " .. shq(src .. "/" .. p)) end
      end
    end
  end
  for _, top in ipairs(F.sorted_entries(src)) do
    for _, p in ipairs(F.walk(src, top)) do
      if not want[p] then os.remove(src .. "/" .. p) end
    end
  end
  -- files mutated by an earlier (maybe interrupted) run: their objects may hold a mutant
  local touched = F.read_file(work .. "/touched") or ""
  for p in touched:gmatch("[^\n]+") do run("touch " .. shq(src .. "/" .. p)) end
  os.remove(work .. "/touched")
  if not F.is_file(bld .. "/build.ninja") then
    local gen = run("command -v ninja >/dev/null 2>&1") == 0 and "-G Ninja" or ""
    local rc = run(string.format("cmake %s -S %s -B %s -DOP_SANITIZE=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo " ..
      "'-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG' >%s 2>&1",
      gen, shq(src), shq(bld), shq(work .. "/configure.log")))
    if rc ~= 0 then die("configure failed: see " .. work .. "/configure.log") end
  end
  local j = opt.jobs == 1 and 2 or 1
  if run(string.format("cmake --build %s --target op-conform -j%d >%s 2>&1", shq(bld), j, shq(work .. "/build.log"))) ~= 0 then
    die("the clean copy does not build: see " .. work .. "/build.log")
  end
  if opt.unit then
    run(string.format("cmake --build %s -j%d --target %s >%s 2>&1", shq(bld), j,
      table.concat(UNIT_TESTS, " "), shq(work .. "/build-unit.log")))
  end
  if opt.regen then -- golden files of scenarios being written, made by the clean copy itself
    for f in opt.regen:gmatch("[^,]+") do
      run(string.format("%s/op-conform regen --quiet --filter %s --source %s >>%s 2>&1", shq(bld), shq(f), shq(src),
        shq(work .. "/regen.log")))
    end
  end
  local t0 = now()
  local rc = run(string.format("%s/op-conform run --quiet --source %s >%s 2>&1", shq(bld), shq(src), shq(work .. "/clean.log")))
  local dt = now() - t0
  if rc ~= 0 then die("the clean copy fails the matrix: see " .. work .. "/clean.log") end
  -- a runner without --fail-fast (an older tree) runs every scenario of each mutant
  local ff = run(string.format("%s/op-conform run --quiet --fail-fast --filter @no-such-scenario@ --source %s >/dev/null 2>&1",
    shq(bld), shq(src))) == 0
  local san
  if opt.sanitize then -- the second build, for survivors (--sanitize)
    san = { dir = work .. "/build-san" }
    if not F.is_file(san.dir .. "/build.ninja") then
      local gen = run("command -v ninja >/dev/null 2>&1") == 0 and "-G Ninja" or ""
      if run(string.format("cmake %s -S %s -B %s -DOP_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo " ..
          "'-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG' >%s 2>&1",
          gen, shq(src), shq(san.dir), shq(work .. "/configure-san.log"))) ~= 0 then
        die("configure of the sanitizer build failed: see " .. work .. "/configure-san.log")
      end
    end
    if run(string.format("cmake --build %s --target op-conform_asan -j%d >%s 2>&1", shq(san.dir), j,
        shq(work .. "/build-san.log"))) ~= 0 then
      die("the clean copy's sanitizer build fails: see " .. work .. "/build-san.log")
    end
    local t1 = now()
    if run(string.format("%s %s/op-conform_asan run --quiet --source %s >%s 2>&1", SAN_ENV, shq(san.dir), shq(src),
        shq(work .. "/clean-san.log"))) ~= 0 then
      die("the clean copy fails the matrix in the sanitizer build: see " .. work .. "/clean-san.log")
    end
    san.clean = now() - t1
  end
  return src, bld, dt, ff, san
end

-- Runs the mutants of list in work; returns {id = {status, detail, secs}}.
local function run_mutants(list, work, tag, partial)
  local done = {}
  if opt.resume then
    for l in (F.read_file(partial) or ""):gmatch("[^\n]+") do
      local id, st, det, secs, unit = l:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)$")
      if id then done[id] = { status = st, detail = det ~= "" and det or nil, secs = tonumber(secs), unit = unit == "1" } end
    end
  else
    os.remove(partial)
  end
  if opt.report_only then -- the reports again from partial-K.tsv (equivalents re-read)
    local results = {}
    for _, m in ipairs(list) do
      local r = done[m.file .. ":" .. m.line .. ":" .. MU.describe(m)]
      if r and m.status ~= "Ignored" then results[m.id] = r end
    end
    return results
  end
  local src, bld, clean, ff, san = setup(work)
  local limit = math.max(10, math.ceil(clean * opt.tfactor))
  local san_limit = san and math.max(10, math.ceil(san.clean * opt.tfactor))
  log("mutate%s: clean matrix %.1f s, timeout %d s, %d mutants%s", tag, clean, limit, #list,
    ff and "" or " (the runner has no --fail-fast)")
  local results, touched_now = {}, {}
  local logf = work .. "/mutant.log"
  for i, m in ipairs(list) do
    if m.status == "Ignored" then goto continue end
    local ident = m.file .. ":" .. m.line .. ":" .. MU.describe(m)
    if done[ident] then results[m.id] = done[ident]; goto continue end
    do
      if not touched_now[m.file] then
        touched_now[m.file] = true
        local f = io.open(work .. "/touched", "a"); f:write(m.file, "\n"); f:close()
      end
      local t0 = now()
      local path = src .. "/" .. m.file
      write_file(path, MU.apply(SOURCES[m.file], m))
      local status, detail
      if run(string.format("ninja -C %s op-conform >%s 2>&1 || cmake --build %s --target op-conform >>%s 2>&1",
          shq(bld), shq(logf), shq(bld), shq(logf))) ~= 0 then
        status = "CompileError"
        local txt = F.read_file(logf) or ""
        detail = (txt:match("error: ([^\n]+)") or "does not build"):sub(1, 160)
      elseif (F.read_file(logf) or ""):find("%[%-W(int%-conversion)%]") or (F.read_file(logf) or ""):find("%[%-Wincompatible%-pointer%-types%]")
          or (F.read_file(logf) or ""):find("%[%-Wreturn%-type%]") then
        -- an ill-typed mutant (an integer where a pointer belongs): C compilers of other
        -- versions reject it, so it counts as not building
        status = "CompileError"
        detail = ((F.read_file(logf) or ""):match("warning: ([^\n]+)") or "ill-typed"):sub(1, 160)
      else
        -- a mutant that allocates without end is stopped by the address-space limit (a kill)
        local rc = run(string.format("ulimit -v %d; timeout -k 5 %d %s/op-conform run --quiet %s --source %s >%s 2>&1",
          opt.memlimit * 1024, limit, shq(bld), ff and "--fail-fast" or "", shq(src), shq(logf)))
        local txt = F.read_file(logf) or ""
        if rc == 0 then
          status = "Survived"
        elseif rc == 124 or rc == 137 then
          status, detail = "Timeout", "no result after " .. limit .. " s"
        else
          status = "Killed"
          local scen = txt:match("FAIL%s+(%S+)")
          if rc >= 128 then
            detail = string.format("crash (signal %d)%s", rc - 128, scen and (" in " .. scen) or "")
          else
            detail = scen and ("scenario " .. scen) or ("exit " .. rc)
          end
        end
        if status == "Survived" and san then -- --sanitize: the matrix again, sanitizers on
          local rc2 = run(string.format("(ninja -C %s op-conform_asan || cmake --build %s --target op-conform_asan) >%s 2>&1",
            shq(san.dir), shq(san.dir), shq(logf)))
          if rc2 == 0 then
            rc2 = run(string.format("%s timeout -k 5 %d %s/op-conform_asan run --quiet %s --source %s >%s 2>&1",
              SAN_ENV, san_limit, shq(san.dir), ff and "--fail-fast" or "", shq(src), shq(logf)))
            local txt2 = F.read_file(logf) or ""
            if rc2 == 124 or rc2 == 137 then
              status, detail = "Timeout", "sanitizer build: no result after " .. san_limit .. " s"
            elseif rc2 ~= 0 then
              local scen = txt2:match("FAIL%s+(%S+)")
              local what = txt2:match("ERROR: (%w+Sanitizer: [%w%-]+[%w%- ]*)") or txt2:match("runtime error: ([^\n]+)")
              status = "Killed"
              detail = ("sanitizer build: " .. (what or (rc2 >= 128 and ("signal " .. (rc2 - 128)) or ("exit " .. rc2))) ..
                (scen and (" in " .. scen) or "")):sub(1, 160)
            end
          end
        end
        if status == "Survived" and opt.unit then
          local killers = {}
          if run(string.format("ninja -C %s %s >%s 2>&1", shq(bld), table.concat(UNIT_TESTS, " "), shq(logf))) == 0 then
            for _, t in ipairs(UNIT_TESTS) do
              if run(string.format("cd %s && timeout -k 5 %d %s/%s >/dev/null 2>&1", shq(src), limit, shq(bld), t)) ~= 0 then
                killers[#killers + 1] = t
              end
            end
          end
          if #killers > 0 then detail = "killed only by unit tests: " .. table.concat(killers, ", "); m.unit = true end
        end
      end
      write_file(path, SOURCES[m.file])
      local dt = now() - t0
      results[m.id] = { status = status, detail = detail, secs = dt, unit = m.unit }
      local pf = io.open(partial, "a") -- one line per mutant as it ends: --resume goes on from here
      pf:write(table.concat({ ident, status, (detail or ""):gsub("[\t\n]", " "), string.format("%.2f", dt),
        m.unit and "1" or "0" }, "\t"), "\n")
      pf:close()
      log("[%s%d/%d] %s:%d %s %-12s %s (%.1f s)", tag, i, #list, m.file, m.line, MU.describe(m), status,
        detail or "", dt)
    end
    ::continue::
  end
  -- leave the copy built from the clean sources
  run(string.format("ninja -C %s op-conform >/dev/null 2>&1", shq(bld)))
  if san then run(string.format("ninja -C %s op-conform_asan >/dev/null 2>&1", shq(san.dir))) end
  os.remove(work .. "/touched")
  return results
end

local function save_results(path, results)
  local t = {}
  for id, r in pairs(results) do
    t[#t + 1] = table.concat({ id, r.status, (r.detail or ""):gsub("[\t\n]", " "), string.format("%.2f", r.secs),
      r.unit and "1" or "0" }, "\t")
  end
  write_file(path, table.concat(t, "\n") .. "\n")
end

local function load_results(path, into)
  for l in (F.read_file(path) or ""):gmatch("[^\n]+") do
    local id, st, det, secs, unit = l:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)$")
    if id then into[id] = { status = st, detail = det ~= "" and det or nil, secs = tonumber(secs), unit = unit == "1" } end
  end
end

-- The files of the sample split over J workers (whole files, greedy by mutant count).
local function partition(list, J)
  local per = {}
  local order = {}
  for _, m in ipairs(list) do
    if not per[m.file] then per[m.file] = {}; order[#order + 1] = m.file end
    table.insert(per[m.file], m)
  end
  table.sort(order, function(a, b) return #per[a] > #per[b] or (#per[a] == #per[b] and a < b) end)
  local bins, load = {}, {}
  for k = 1, J do bins[k] = {}; load[k] = 0 end
  for _, f in ipairs(order) do
    local best = 1
    for k = 2, J do if load[k] < load[best] then best = k end end
    for _, m in ipairs(per[f]) do table.insert(bins[best], m) end
    load[best] = load[best] + #per[f]
  end
  for k = 1, J do
    table.sort(bins[k], function(a, b)
      if a.file ~= b.file then return a.file < b.file end
      return tonumber(a.id) < tonumber(b.id)
    end)
  end
  return bins
end

mkdir_p(opt.out)
local J = math.max(1, opt.jobs)
local bins = partition(SAMPLE, J)

if opt.worker then
  local res = run_mutants(bins[opt.worker], WORK_BASE .. "/j" .. opt.worker, "w" .. opt.worker .. " ",
    opt.out .. "/partial-" .. opt.worker .. ".tsv")
  save_results(opt.out .. "/results-" .. opt.worker .. ".tsv", res)
  os.exit(0)
end

local T0 = now()
local RESULTS = {}
if J == 1 then
  RESULTS = run_mutants(bins[1], WORK_BASE .. "/j1", "", opt.out .. "/partial-1.tsv")
else
  local self = debug.getinfo(1, "S").source:sub(2)
  local pass = {}
  for k, a in ipairs(arg) do if a ~= "--jobs" and arg[k - 1] ~= "--jobs" then pass[#pass + 1] = shq(a) end end
  local procs = {}
  for k = 1, J do
    os.remove(opt.out .. "/results-" .. k .. ".tsv")
    local cmd = string.format("%s %s %s --jobs %d --worker %d --out %s --seed %d %s 2>&1",
      shq(arg[-1] or "lua5.4"), shq(self), table.concat(pass, " "), J, k, shq(opt.out), opt.seed,
      opt.sample and ("--sample " .. opt.sample) or "--all")
    procs[k] = io.popen(cmd)
  end
  for k = 1, J do
    for l in procs[k]:lines() do io.stderr:write(l, "\n") end
    procs[k]:close()
    load_results(opt.out .. "/results-" .. k .. ".tsv", RESULTS)
  end
end
local ELAPSED = now() - T0
if opt.report_only then
  ELAPSED = 0
  for _, r in pairs(RESULTS) do ELAPSED = ELAPSED + (r.secs or 0) end
end
for _, m in ipairs(SAMPLE) do
  local r = RESULTS[m.id]
  if r then m.status, m.detail, m.secs, m.unit = r.status, r.detail, r.secs, r.unit end
  if not m.status then m.status, m.detail = "CompileError", "not run (worker failed, or --report-only without a result)" end
end

------------------------------------------------------------------------------ reports
-- spec sections: the layer table of ref/README.md (folder -> spec file)
local SECTIONS = {}
for l in (F.read_file(TREE .. "/ref/README.md") or ""):gmatch("[^\n]+") do
  local cells = F.table_cells(l)
  if cells and #cells >= 6 then
    local folder = cells[2]:match("`([%w_/]+/)`")
    if folder then SECTIONS[#SECTIONS + 1] = { folder = "ref/" .. folder, spec = cells[5]:gsub("^%s+", ""):gsub("%s+$", "") } end
  end
end
local function section_of(file)
  local best
  for _, s in ipairs(SECTIONS) do
    if file:sub(1, #s.folder) == s.folder and (not best or #s.folder > #best.folder) then best = s end
  end
  return best and best.folder or (F.dirname(file) .. "/"), best and best.spec or "?"
end

local CLAUSE_PREFIX = {}
for p in ("CONF MATH FMT MESH SNAP LVL SPAN REG POLY RT G2D T2D"):gmatch("%S+") do CLAUSE_PREFIX[p] = true end
local LINES = {}
local function nearest_clause(m)
  local lines = LINES[m.file]
  if not lines then lines = F.split_lines(SOURCES[m.file]); LINES[m.file] = lines end
  for i = m.line, 1, -1 do
    local found
    for id, pre in lines[i]:gmatch("%f[%w]((%u[%u%d]*)%-%d%d%d)%f[^%w]") do
      if CLAUSE_PREFIX[pre] then found = id end
    end
    if found then return found, i end
  end
  return nil
end

local function is_killed(st) return st == "Killed" or st == "Timeout" end
local function counted(st) return st == "Killed" or st == "Timeout" or st == "Survived" end

local function tally(list)
  local t = { Killed = 0, Timeout = 0, Survived = 0, CompileError = 0, Ignored = 0, unit = 0, total = #list }
  for _, m in ipairs(list) do
    t[m.status] = t[m.status] + 1
    if m.status == "Survived" and m.unit then t.unit = t.unit + 1 end
  end
  t.valid = t.Killed + t.Timeout + t.Survived
  t.score = t.valid > 0 and 100 * (t.Killed + t.Timeout) / t.valid or 100
  return t
end

local by_section, by_file, sec_order, file_order = {}, {}, {}, {}
for _, m in ipairs(SAMPLE) do
  m.section, m.spec = section_of(m.file)
  m.clause = nearest_clause(m)
  if not by_section[m.section] then by_section[m.section] = {}; sec_order[#sec_order + 1] = m.section end
  table.insert(by_section[m.section], m)
  if not by_file[m.file] then by_file[m.file] = {}; file_order[#file_order + 1] = m.file end
  table.insert(by_file[m.file], m)
end
table.sort(sec_order); table.sort(file_order)
local TOTAL = tally(SAMPLE)

local function md_escape(s) return (tostring(s):gsub("|", "\\|")) end

local function pct(x) return string.format("%.1f %%", x) end

local function report_md()
  local o = {}
  local function w(...) o[#o + 1] = string.format(...) end
  w("# Mutation report: the conformance matrix against mutants of ref/\n")
  w("Seed %d, %s; %d mutants (%s); generated by `lua5.4 scripts/mutate.lua` (docs/mutation.md).",
    opt.seed, opt.sample and ("sample of " .. opt.sample) or "all mutants", TOTAL.total,
    opt.files and ("files " .. opt.files) or "all of ref/")
  w("Score = killed by the matrix (mismatch, crash or timeout) over the non-equivalent mutants that build.")
  w("Run time %.0f s.\n", ELAPSED)
  local unitcol = opt.unit and " | of which unit tests kill" or ""
  local unitsep = opt.unit and "---:|" or ""
  w("## Per spec section\n")
  w("| section | spec | mutants | killed | timeout | survived%s | equivalent (argued) | compile error | matrix score |", unitcol)
  w("|---|---|---:|---:|---:|---:|%s---:|---:|---:|", unitsep)
  for _, s in ipairs(sec_order) do
    local t = tally(by_section[s])
    w("| `%s` | %s | %d | %d | %d | %d%s | %d | %d | %s |", s, by_section[s][1].spec, t.total, t.Killed, t.Timeout,
      t.Survived, opt.unit and (" | " .. t.unit) or "", t.Ignored, t.CompileError, pct(t.score))
  end
  w("| **all** | | %d | %d | %d | %d%s | %d | %d | **%s** |\n", TOTAL.total, TOTAL.Killed, TOTAL.Timeout,
    TOTAL.Survived, opt.unit and (" | " .. TOTAL.unit) or "", TOTAL.Ignored, TOTAL.CompileError, pct(TOTAL.score))
  w("## Per file\n")
  w("| file | mutants | killed | timeout | survived | equivalent | compile error | matrix score |")
  w("|---|---:|---:|---:|---:|---:|---:|---:|")
  for _, f in ipairs(file_order) do
    local t = tally(by_file[f])
    w("| `%s` | %d | %d | %d | %d | %d | %d | %s |", f, t.total, t.Killed, t.Timeout, t.Survived, t.Ignored,
      t.CompileError, pct(t.score))
  end
  w("\n## Survivors\n")
  w("Each is a deviation a port could make and still pass every scenario (or an equivalent mutant not yet argued in `tests/mutation/equivalent.tsv`).\n")
  w("| file:line | operator | mutation | nearest clause | line | note |")
  w("|---|---|---|---|---|---|")
  for _, m in ipairs(SAMPLE) do
    if m.status == "Survived" then
      local note = m.detail or ""
      if m.text:find("nomem") or m.text:find("NOMEM") then note = (note ~= "" and note .. "; " or "") .. "out-of-memory path" end
      w("| `%s:%d` | %s | `%s` | %s | `%s` | %s |", m.file, m.line, m.mutator, md_escape(MU.describe(m)),
        m.clause or "—", md_escape(m.text:match("^%s*(.-)%s*$")), md_escape(note))
    end
  end
  w("\n## Equivalent mutants (argued in tests/mutation/equivalent.tsv)\n")
  w("| file:line | mutation | reason |")
  w("|---|---|---|")
  for _, m in ipairs(SAMPLE) do
    if m.status == "Ignored" then w("| `%s:%d` | `%s` | %s |", m.file, m.line, md_escape(MU.describe(m)), md_escape(m.reason)) end
  end
  local ce = {}
  for _, m in ipairs(SAMPLE) do if m.status == "CompileError" then ce[#ce + 1] = m end end
  if #ce > 0 then
    w("\n## Compile errors (not counted)\n")
    for _, m in ipairs(ce) do w("- `%s:%d` `%s`: %s", m.file, m.line, md_escape(MU.describe(m)), md_escape(m.detail or "")) end
  end
  return table.concat(o, "\n") .. "\n"
end

-- JSON
local function jstr(s)
  return '"' .. tostring(s):gsub('[%c"\\]', function(c)
    local map = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
    return map[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

local function report_json()
  local o = {}
  o[#o + 1] = '{"schemaVersion":"2","thresholds":{"high":95,"low":80},'
  o[#o + 1] = '"projectRoot":' .. jstr(ROOT) .. ',"config":{"seed":' .. opt.seed .. ',"sample":' ..
    (opt.sample or "null") .. '},"files":{'
  for fi, f in ipairs(file_order) do
    local ms = {}
    for _, m in ipairs(by_file[f]) do
      local reason = m.reason or m.detail
      if m.clause then reason = (reason and reason .. "; " or "") .. "nearest clause " .. m.clause end
      ms[#ms + 1] = string.format('{"id":%s,"mutatorName":%s,"replacement":%s,"location":{"start":{"line":%d,"column":%d},"end":{"line":%d,"column":%d}},"status":%s%s}',
        jstr(m.id), jstr(m.mutator), jstr(m.repl), m.line, m.col, m.line, m.ecol + 1, jstr(m.status),
        reason and (',"statusReason":' .. jstr(reason)) or "")
    end
    o[#o + 1] = (fi > 1 and "," or "") .. jstr(f) .. ':{"language":"c","source":' .. jstr(SOURCES[f]) ..
      ',"mutants":[' .. table.concat(ms, ",") .. "]}"
  end
  o[#o + 1] = "}}"
  return table.concat(o)
end

local function html_escape(s) return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;")) end

local function table_html()
  local o = { "<!doctype html><html><head><meta charset=\"utf-8\"><title>OnePath mutation report</title>",
    "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}",
    ".Killed,.Timeout{background:#dfd}.Survived{background:#fdd}.Ignored{background:#eee}.CompileError{background:#ffd}</style></head><body>",
    string.format("<h1>OnePath mutation report</h1><p>seed %d, %d mutants, matrix score %.1f %% (%d of %d non-equivalent)</p>",
      opt.seed, TOTAL.total, TOTAL.score, TOTAL.Killed + TOTAL.Timeout, TOTAL.valid),
    "<table><tr><th>section</th><th>spec</th><th>mutants</th><th>killed</th><th>timeout</th><th>survived</th><th>equivalent</th><th>compile error</th><th>score</th></tr>" }
  for _, s in ipairs(sec_order) do
    local t = tally(by_section[s])
    o[#o + 1] = string.format("<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%.1f %%</td></tr>",
      html_escape(s), html_escape(by_section[s][1].spec), t.total, t.Killed, t.Timeout, t.Survived, t.Ignored, t.CompileError, t.score)
  end
  o[#o + 1] = "</table><h2>Mutants</h2><table><tr><th>#</th><th>file:line</th><th>operator</th><th>mutation</th><th>status</th><th>clause</th><th>detail</th></tr>"
  for _, m in ipairs(SAMPLE) do
    o[#o + 1] = string.format("<tr class=\"%s\"><td>%s</td><td>%s:%d</td><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>",
      m.status, m.id, html_escape(m.file), m.line, m.mutator, html_escape(MU.describe(m)), m.status, m.clause or "",
      html_escape(m.reason or m.detail or ""))
  end
  o[#o + 1] = "</table></body></html>\n"
  return table.concat(o, "\n")
end

-- the mutation-testing-elements web component, vendored from npm into out/ at run time
local function vendor_viewer()
  local js = opt.out .. "/vendor/mutation-test-elements.js"
  if F.is_file(js) then return true end
  if opt.novendor or run("command -v npm >/dev/null 2>&1") ~= 0 then return false end
  local tmp = opt.out .. "/vendor/tmp"
  mkdir_p(tmp)
  local rc = run(string.format("cd %s && timeout 120 npm pack mutation-testing-elements@3 >npm.log 2>&1 && tar xzf mutation-testing-elements-*.tgz package/dist/mutation-test-elements.js package/LICENSE && mv package/dist/mutation-test-elements.js %s && mv package/LICENSE %s",
    shq(tmp), shq(js), shq(opt.out .. "/vendor/LICENSE.mutation-testing-elements")))
  run("rm -rf " .. shq(tmp))
  return rc == 0 and F.is_file(js)
end

local json = report_json()
write_file(opt.out .. "/report.md", report_md())
write_file(opt.out .. "/mutation.json", json)
write_file(opt.out .. "/table.html", table_html())
if vendor_viewer() then
  write_file(opt.out .. "/index.html", table.concat({
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>OnePath mutation report</title>",
    "<script src=\"vendor/mutation-test-elements.js\"></script></head><body>",
    "<p><a href=\"table.html\">plain table</a> · <a href=\"report.md\">report.md</a></p>",
    "<mutation-test-report-app title-postfix=\"OnePath ref/ against the conformance matrix\"></mutation-test-report-app>",
    "<script>document.querySelector('mutation-test-report-app').report = " .. json:gsub("</", "<\\/") .. ";</script>",
    "</body></html>\n" }, "\n"))
else
  write_file(opt.out .. "/index.html", table_html())
end

log("mutate: %d mutants: %d killed, %d timeout, %d survived, %d equivalent, %d compile error; matrix score %.1f %% (%d s)",
  TOTAL.total, TOTAL.Killed, TOTAL.Timeout, TOTAL.Survived, TOTAL.Ignored, TOTAL.CompileError, TOTAL.score, math.floor(ELAPSED + 0.5))
log("mutate: reports in %s (report.md, mutation.json, index.html)", opt.out)

if ratchet then
  if TOTAL.score + 1e-9 < ratchet.score then
    log("mutate: RATCHET FAILED: matrix score %.1f %% is below the committed %.1f %% (%s)", TOTAL.score, ratchet.score, opt.ratchet)
    for _, m in ipairs(SAMPLE) do
      if m.status == "Survived" then log("  survivor %s:%d %s (nearest clause %s)", m.file, m.line, MU.describe(m), m.clause or "-") end
    end
    os.exit(1)
  end
  log("mutate: ratchet holds: %.1f %% >= %.1f %%", TOTAL.score, ratchet.score)
end
os.exit(0)
