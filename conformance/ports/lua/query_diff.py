#!/usr/bin/env python3
"""Differential check of the Lua port's query ops against a protocol server (the reference).

The meshes the query/* scenarios use but the Lua port cannot build (build3d.soup levels, a
build2d tile map, a tile cache's mesh before/after an obstacle) are built by the reference
server, serialized (mesh.save, MESH-040) and opened in the Lua port (mesh.load, MESH-068): the
same slots and generations, so the same references. Then the same query requests go to both
servers and every answer (ok or error) must be equal, member by member; numbers are compared by
their text, which is the shortest round-trip form on both sides (CONF-030), so -0 and 0 differ.

usage: query_diff.py [--ref build-qr/onepath-port] [--lua conformance/ports/lua/onepath-port-lua]
                     [--pairs N] [--seed S] [--only NAME,...]
Exit status 0 when every answer agrees. Informative (spec/query.md), not a conformance run.
"""
import argparse
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def _keep(s):
    return ("#", s)


def parse(line):
    return json.loads(line, parse_float=_keep, parse_int=_keep)


class Server:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.n = 0

    def raw(self, op, args):
        self.n += 1
        self.p.stdin.write(json.dumps({"id": self.n, "op": op, "args": args}) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("server ended on " + op)
        return line

    def call(self, op, args):
        a = json.loads(self.raw(op, args))
        if "ok" not in a:
            raise RuntimeError(op + " failed: " + json.dumps(a["error"]))
        return a["ok"]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def strip_id(a):
    a = dict(a)
    a.pop("id", None)
    if "error" in a:
        a["error"] = {k: v for k, v in a["error"].items() if k != "message"}
    return a


LEVELS = {
    "terrain": {"name": "terrain", "seed": "00000000000000a1", "size": 64, "partition": "watershed"},
    "city": {"name": "city", "seed": "0000000000000007", "size": 5, "partition": "monotone"},
    "stairs": {"name": "stairs", "seed": "00000000000000a1", "size": 24, "partition": "layers"},
    "dungeon": {"name": "dungeon", "seed": "0000000000000003", "size": 40, "partition": "watershed"},
}


def soup_hex(verts, tris):
    import struct
    b = b"OPTS" + struct.pack("<III", 1, len(verts), len(tris))
    for v in verts:
        b += struct.pack("<ddd", *v)
    for t in tris:
        b += struct.pack("<III", *t)
    return b.hex()


def door_soup():
    v = [[0, 0, 0], [0, 0, 6], [20, 0, 6], [20, 0, 0]]
    f = [[0, 1, 2], [0, 2, 3]]

    def box(x0, y0, z0, x1, y1, z1):
        b = len(v)
        v.extend([[x0, y0, z0], [x0, y0, z1], [x1, y0, z1], [x1, y0, z0],
                  [x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]])
        for r in ([0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7], [4, 5, 6, 7]):
            f.append([b + r[0], b + r[1], b + r[2]])
            f.append([b + r[0], b + r[2], b + r[3]])
    box(9.7, 0, -0.5, 10.3, 3, 1.8)
    box(9.7, 0, 4.2, 10.3, 3, 6.5)
    return soup_hex(v, f)


def tilemap_args():
    W, H = 40, 24
    cells = []
    for row in range(H):
        for col in range(W):
            blocked = (8 <= row <= 15 and 12 <= col <= 15) or (col * 7 + row * 3) % 13 == 0
            cells.append(0 if blocked else 1)
    return {"settings": {"preset": "Large", "tile_cells": 16, "agent_radius": 0.5}, "width": W, "height": H,
            "cells": cells, "map_origin": [0, 0], "map_cell": 2,
            "obstacles": [[[40, 20], [48, 20], [48, 26], [40, 26]]]}


def centres(ref, tiles):
    """Polygon centres (world) and the tile layouts of the tiles (tile.view on the reference)."""
    out = []
    for th in tiles:
        v = ref.call("tile.view", {"tile": th})
        W = v["tiling"]["tile_cells"] * v["tiling"]["cell_size"]
        x0 = v["tiling"]["origin"][0] + v["x"] * W
        z0 = v["tiling"]["origin"][2] + v["z"] * W
        for k, p in enumerate(v["polys"]):
            xs = [v["verts"][i] for i in p["verts"]]
            n = len(xs)
            out.append(((v["x"], v["z"], v["layer"], k),
                        [x0 + sum(q[0] for q in xs) / n, v["origin_y"] + sum(q[1] for q in xs) / n,
                         z0 + sum(q[2] for q in xs) / n]))
    return out


class Diff:
    def __init__(self, ref, lua, rng):
        self.ref, self.lua, self.rng = ref, lua, rng
        self.asked = 0
        self.bad = 0
        self.kinds = {}

    def ask(self, op, rargs, largs, tag):
        a = strip_id(parse(self.ref.raw(op, rargs)))
        b = strip_id(parse(self.lua.raw(op, largs)))
        self.asked += 1
        k = op + (" ok" if "ok" in a else " error")
        if op == "query.closest_point" and "ok" in a and not a["ok"]["over"]:
            k = op + " ok, not over"
        self.kinds[k] = self.kinds.get(k, 0) + 1
        if a != b:
            self.bad += 1
            if self.bad <= 10:
                print("DIFF %s %s\n  args %s\n  ref  %s\n  lua  %s" % (tag, op, json.dumps(rargs)[:400],
                      json.dumps(a)[:1500], json.dumps(b)[:1500]))
        return a

    def run_mesh(self, name, rmesh, lmesh, polys, npairs):
        rng = self.rng
        def jitter(c, dy):
            return [c[0] + (rng.random() - 0.5) * 0.5, c[1] + dy, c[2] + (rng.random() - 0.5) * 0.5]
        filters = [None, None, None, {"exclude": 2}, {"include": 1},
                   {"costs": [rng.choice([0, 0.5, 1, 2, 3.25]) for _ in range(64)]}]
        def both(op, args, tag):
            ra = dict(args, mesh=rmesh)
            la = dict(args, mesh=lmesh)
            return self.ask(op, ra, la, tag)
        def val(x):  # protocol text back to a float
            return float(x[1]) if isinstance(x, tuple) else x
        for p in range(npairs):
            tag = "%s pair %d" % (name, p)
            pts, found = [], []
            for _ in range(2):
                _, c = rng.choice(polys)
                pos = jitter(c, rng.choice([0.3, 0.3, 0.0, -0.4, 1.2]))
                he = rng.choice([[1, 2, 1], [0.5, 1, 0.5], [2, 0.3, 2]])
                flt = rng.choice(filters)
                args = {"center": pos, "half_extents": he}
                if flt is not None:
                    args["filter"] = flt
                a = both("query.nearest_poly", args, tag)
                if "ok" in a and a["ok"]["found"]:
                    poly = a["ok"]["poly"]["ref"]
                    pt = [val(x) for x in a["ok"]["point"]]
                    both("query.poly_height", {"poly": poly, "x": pt[0], "z": pt[2]}, tag)
                    both("query.poly_height", {"poly": poly, "x": pos[0], "z": pos[2]}, tag)
                    both("query.closest_point", {"poly": poly, "pos": pos}, tag)
                    both("query.closest_point_boundary", {"poly": poly, "pos": pos}, tag)
                    pts.append(pt)
                    found.append(poly)
                else:
                    pts.append(pos)
            if len(found) == 2:  # a point usually outside the polygon: boundary and its height
                both("query.closest_point", {"poly": found[0], "pos": pts[1]}, tag)
                both("query.closest_point_boundary", {"poly": found[1], "pos": pts[0]}, tag)
            args = {"start": pts[0], "end": pts[1]}
            flt = rng.choice(filters)
            if flt is not None:
                args["filter"] = flt
            r = rng.random()
            if r < 0.1:
                args["max_nodes"] = rng.choice([1, 2, 5, 20])
            elif r < 0.2:
                args["max_path"] = rng.choice([1, 3, 8])
            fp = both("query.find_path", args, tag)
            if "ok" in fp and fp["ok"]["status"] == "found":
                path = [q["ref"] for q in fp["ok"]["path"]]
                for cross in ("none", "area", "all"):
                    both("query.straight_path", {"start": pts[0], "end": pts[1], "path": path,
                                                 "crossings": cross}, tag)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=os.path.join(ROOT, "build-qr", "onepath-port"))
    ap.add_argument("--lua", default=os.path.join(HERE, "onepath-port-lua"))
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--only", default="")
    o = ap.parse_args()
    only = set(x for x in o.only.split(",") if x)
    ref, lua = Server([o.ref]), Server([o.lua])
    d = Diff(ref, lua, random.Random(o.seed))
    cases = []
    for name, L in LEVELS.items():
        cases.append((name, ("build3d.soup", {"preset": "Humanoid", "partition": L["partition"],
                                              "level": {"name": L["name"], "seed": L["seed"], "size": L["size"]}})))
    cases.append(("tilemap", ("build2d.tilemap", tilemap_args())))
    cases.append(("door", ("tilecache.soup", {"preset": "Humanoid", "soup": door_soup()})))
    for name, (op, args) in cases:
        if only and name not in only:
            continue
        r = ref.call(op, args)
        rmesh = r.get("mesh", r.get("handle"))
        tiles = [t.get("tile", t.get("handle")) for t in r["tiles"]]
        states = [("", None)]
        if name == "door":
            states = [("open", None), ("shut", "add"), ("open again", "remove")]
        obstacle = None
        for label, change in states:
            if change == "add":
                obstacle = ref.call("tilecache.add_obstacle", {"cache": r["cache"], "obstacle": {
                    "shape": "cylinder", "center": [10, -1, 3], "radius": 1.5, "height": 5}})
                ref.call("tilecache.update", {"cache": r["cache"]})
            elif change == "remove":
                ref.call("tilecache.remove_obstacle", {"cache": r["cache"], "id": obstacle["id"]})
                ref.call("tilecache.update", {"cache": r["cache"]})
            by = ref.call("mesh.save", {"mesh": rmesh})["bytes"]
            lmesh = lua.call("mesh.load", {"bytes": by})["handle"]
            if name == "door":
                polys = [((0, 0, 0, 0), [2, 0, 3]), ((0, 0, 0, 0), [18, 0, 3]), ((0, 0, 0, 0), [10, 0, 3])]
                n0 = d.asked
                d.ask("query.find_path", {"mesh": rmesh, "start": [2, 0, 3], "end": [18, 0, 3]},
                      {"mesh": lmesh, "start": [2, 0, 3], "end": [18, 0, 3]}, "door " + label)
                d.run_mesh(name + " " + label, rmesh, lmesh, polys, o.pairs // 10)
            else:
                polys = centres(ref, tiles)
                d.run_mesh(name, rmesh, lmesh, polys, o.pairs)
            lua.call("drop", {"handle": lmesh})
            print("%-18s %5d answers asked so far, %d differ" % ((name + " " + label).strip(), d.asked, d.bad))
            sys.stdout.flush()
    for k in sorted(d.kinds):
        print("  %-40s %d" % (k, d.kinds[k]))
    print("%d answers compared, %d differ" % (d.asked, d.bad))
    ref.close()
    lua.close()
    return 1 if d.bad else 0


if __name__ == "__main__":
    sys.exit(main())
