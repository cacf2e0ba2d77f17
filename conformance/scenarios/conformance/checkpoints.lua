-- CONF-061 .. CONF-064 with the session ops alone: the table kind, its byte encodings, the
-- kinds the runner accepts, and checkpoint names. (The tile, mesh and snapshot kinds and the
-- parts of mesh and snapshot artifacts need tiles: format/checkpoint-parts.) The expected
-- bytes are written from CONF-063: u32 7 is 07 00 00 00, f64 0.5 is 0x3fe0000000000000
-- little-endian, so the table is 12 bytes.
return {
  title = "Checkpoint kinds, table artifacts and checkpoint names",
  clauses = { "CONF-061", "CONF-062", "CONF-063", "CONF-064" },
  run = function(t)
    -- CONF-062, CONF-063: a table artifact has no parts; its bytes are the encodings in order
    local tb = t:table():u32(7):f64(0.5)
    t:check(tb:hex() == "07000000" .. "000000000000e03f", "u32 7 then f64 0.5, little-endian")
    local tab = t:checkpoint("table", "table", tb:hex())
    t:check(tab and tab.length == 12 and #tab.parts == 0, "a table artifact: 12 bytes, no parts")
    -- bytes an op returned can be checkpointed as a table too (echo gives them back)
    local e = t:call("echo", { bytes = { tb:hex() } }).bytes
    t:check(e[1] == tb:hex(), "echo gives the table's bytes back")

    -- CONF-061: no other kind
    t:check(not pcall(t.checkpoint, t, "blob", "blob", "00"), "kind blob is refused")

    -- CONF-064: names of 1 to 80 printable ASCII characters, no outer space
    local hex = t:table():u8(1):hex()
    local bad = { "", string.rep("n", 81), " lead", "trail ", "tab\there", "line\nfeed",
                  "caf\xc3\xa9", "del\x7f" }
    for i, name in ipairs(bad) do
      t:check(not pcall(t.checkpoint, t, name, "table", hex), "bad checkpoint name " .. i .. " is refused")
    end
    t:check(t:checkpoint(string.rep("n", 80), "table", hex) ~= nil, "an 80-character name is accepted")
    t:check(t:checkpoint("~ inner spaces and !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|} ~", "table", hex) ~= nil,
            "printable ASCII with inner spaces is accepted")
    -- names need not be unique: checkpoints are compared by position
    t:check(t:checkpoint("same", "table", hex) ~= nil and t:checkpoint("same", "table", t:table():u8(2):hex()) ~= nil,
            "a repeated name is accepted")
  end,
}
