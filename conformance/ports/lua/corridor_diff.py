#!/usr/bin/env python3
"""Differential check of the Lua port's corridor.* ops (spec/query-corridor.md) against a
protocol server (the reference), on the meshes the Lua port cannot build (the four build3d
levels, the 2D tile map), built by the reference and opened in the port with mesh.load as
query_diff.py does (same slots and generations, so the same references).

Each session: find path between two random polygon centres, corridor.set from it (capacity
drawn from 3, 8, 256 so that cuts happen), then a random walk of corridor ops: move_position
toward the next corner or a random nearby point, move_target, find_corners, optimize_visibility,
optimize_topology, is_valid and fix with filters, replan. Every answer (ok or error, message
aside) must be equal, numbers compared by their text.

usage: corridor_diff.py [--ref build-rev/onepath-port] [--sessions N] [--steps K] [--seed S] [--only NAME,...]
Informative, not a conformance run.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from query_diff import HERE, ROOT, LEVELS, Server, Diff, centres, tilemap_args  # noqa: E402


def val(x):
    return float(x[1]) if isinstance(x, tuple) else x


def run_mesh(d, name, rmesh, lmesh, polys, sessions, steps, removals):
    rng = d.rng
    filters = [None, None, None, {"exclude": 2}, {"include": 1}, {"costs": [rng.choice([0.5, 1, 2]) for _ in range(64)]}]

    def jit(c, s=0.5):
        return [c[0] + (rng.random() - 0.5) * s, c[1] + 0.2, c[2] + (rng.random() - 0.5) * s]

    o_remove = [removals]
    for k in range(sessions):
        tag = "%s session %d" % (name, k)
        _, a = rng.choice(polys)
        _, b = rng.choice(polys)
        fp = d.ask("query.find_path", {"mesh": rmesh, "start": a, "end": b}, {"mesh": lmesh, "start": a, "end": b}, tag)
        if "ok" not in fp or fp["ok"]["status"] != "found":
            continue
        mp = rng.choice([3, 8, 256])
        rc = d.ref.call("corridor.create", {"max_path": mp})["handle"]
        lc = d.lua.call("corridor.create", {"max_path": mp})["handle"]

        def both(op, args):
            a = d.ask(op, dict(args, corridor=rc, mesh=rmesh), dict(args, corridor=lc, mesh=lmesh), tag)
            ok = a.get("ok")
            sub = None
            if ok is None:
                sub = op + " error " + a["error"]["kind"] + " " + a["error"]["field"].split("[")[0]
            elif op == "corridor.is_valid" and not ok["valid"]:
                sub = op + " invalid, " + ok["reason"]
            elif op == "corridor.fix" and val(ok["kept"]) < len(ok["path"]) + 1 and "kept" in ok:
                sub = op + " changed" if val(ok["kept"]) != len(ok["path"]) or len(ok["path"]) == 1 else None
            elif ok.get("spliced"):
                sub = op + " spliced"
            elif ok.get("truncated"):
                sub = op + " truncated"
            elif ok.get("search_truncated"):
                sub = op + " search_truncated"
            if sub:
                d.kinds["  " + sub] = d.kinds.get("  " + sub, 0) + 1
            return a

        path = [q["ref"] for q in fp["ok"]["path"]]
        st = both("corridor.set", {"start": a, "end": b, "path": path[:mp]})
        if "ok" not in st:
            st = both("corridor.set", {"start": a, "end": b, "path": path[:1]})
            if "ok" not in st:
                continue
        corner = None
        for _ in range(steps):
            r = rng.random()
            flt = rng.choice(filters)
            extra = {} if flt is None else {"filter": flt}
            if r < 0.3:
                fc = both("corridor.find_corners", {"max_corners": rng.choice([1, 2, 16])})
                if "ok" in fc and fc["ok"]["corners"]:
                    corner = [val(x) for x in fc["ok"]["corners"][0]["point"]]
                pos = [val(x) for x in fc["ok"]["position"]] if "ok" in fc else a
                goal = corner if (corner and rng.random() < 0.7) else jit(pos, 3.0)
                if rng.random() < 0.5:  # a step of at most 1.5 toward the goal
                    dx, dz = goal[0] - pos[0], goal[2] - pos[2]
                    n = (dx * dx + dz * dz) ** 0.5
                    if n > 1.5:
                        goal = [pos[0] + dx / n * 1.5, goal[1], pos[2] + dz / n * 1.5]
                both("corridor.move_position", dict(extra, pos=goal, max_visited=rng.choice([2, 8, 256])))
            elif r < 0.4:
                both("corridor.move_target", dict(extra, pos=jit(b, 4.0), max_visited=rng.choice([4, 256])))
            elif r < 0.55:
                nxt = corner if corner else jit(b, 2.0)
                both("corridor.optimize_visibility", dict(extra, next=nxt, range=rng.choice([0.5, 5, 30]),
                                                          max_visited=rng.choice([4, 32])))
            elif r < 0.7:
                both("corridor.optimize_topology", dict(extra, max_nodes=rng.choice([2, 8, 32])))
            elif r < 0.8:
                both("corridor.is_valid", dict(extra, max_look_ahead=rng.choice([1, 4, 65536])))
            elif r < 0.86:
                ref, c = rng.choice(polys)
                pr = json.loads(d.ref.raw("mesh.poly_ref", {"mesh": rmesh, "x": ref[0], "z": ref[1], "layer": ref[2], "poly": ref[3]}))
                if "ok" in pr:
                    both("corridor.fix", dict(extra, safe_poly=pr["ok"]["ref"], safe_pos=jit(c)))
            elif r < 0.9:  # a mesh edit: flags of a polygon of the list (MESH-030), or a tile removed
                sa = both("corridor.state", {})
                if "ok" in sa and sa["ok"]["path"]:
                    e = rng.choice(sa["ok"]["path"])
                    if rng.random() < 0.85 or o_remove[0] <= 0:
                        fl = rng.choice([1, 2, 3])
                        d.ask("mesh.set_poly_flags", {"mesh": rmesh, "ref": e["ref"], "flags": fl},
                              {"mesh": lmesh, "ref": e["ref"], "flags": fl}, tag)
                    else:
                        o_remove[0] -= 1
                        i = [val(x) for x in e["id"]]
                        xz = {"x": int(i[0]), "z": int(i[1]), "layer": int(i[2])}
                        d.ask("mesh.remove_tile", dict(xz, mesh=rmesh), dict(xz, mesh=lmesh), tag)
            else:
                _, b = rng.choice(polys)
                both("corridor.replan", dict(extra, end=b, max_nodes=rng.choice([16, 8192])))
        both("corridor.state", {})
        d.ref.call("drop", {"handle": rc})
        d.lua.call("drop", {"handle": lc})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=os.path.join(ROOT, "build-rev", "onepath-port"))
    ap.add_argument("--lua", default=os.path.join(HERE, "onepath-port-lua"))
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--removals", type=int, default=3, help="tiles removed per mesh at most")
    ap.add_argument("--only", default="")
    o = ap.parse_args()
    only = set(x for x in o.only.split(",") if x)
    ref, lua = Server([o.ref]), Server([o.lua])
    d = Diff(ref, lua, random.Random(o.seed))
    cases = [(n, ("build3d.soup", {"preset": "Humanoid", "partition": L["partition"],
                                   "level": {"name": L["name"], "seed": L["seed"], "size": L["size"]}}))
             for n, L in LEVELS.items()]
    cases.append(("tilemap", ("build2d.tilemap", tilemap_args())))
    for name, (op, args) in cases:
        if only and name not in only:
            continue
        r = ref.call(op, args)
        rmesh = r.get("mesh", r.get("handle"))
        tiles = [t.get("tile", t.get("handle")) for t in r["tiles"]]
        by = ref.call("mesh.save", {"mesh": rmesh})["bytes"]
        lmesh = lua.call("mesh.load", {"bytes": by})["handle"]
        run_mesh(d, name, rmesh, lmesh, centres(ref, tiles), o.sessions, o.steps, o.removals)
        lua.call("drop", {"handle": lmesh})
        print("%-10s %6d answers asked so far, %d differ" % (name, d.asked, d.bad))
        sys.stdout.flush()
    for k in sorted(d.kinds):
        print("  %-40s %d" % (k, d.kinds[k]))
    print("%d answers compared, %d differ" % (d.asked, d.bad))
    ref.close()
    lua.close()
    return 1 if d.bad else 0


if __name__ == "__main__":
    sys.exit(main())
