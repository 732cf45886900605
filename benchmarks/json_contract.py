"""Save the JSON that snapsolve produces for a fixed set of inputs, or compare it with an earlier save.

Usage:
  python benchmarks/json_contract.py --save /work/json_baseline        # on the reference commit
  python benchmarks/json_contract.py --compare /work/json_baseline     # after a change: "identical"
  python benchmarks/json_contract.py --compare DIR --allow-added grids[].mistakes[].entry,grids[].progress.entries

The inputs (docs/DESIGN.md's JSON contract is additive: fields may be added, never renamed or removed):

- the command line (``snapsolve ... --json --no-image``, run as a subprocess from the checkout's root) on the
  photos of ``samples/`` and ``tests/data/photos/``, plain, with ``--hint`` and with ``--explain``;
- the same photos and a few puzzles twice through one ``--db`` file: the second run's objects are the stored
  ones read back (`InputResult.from_json` then `to_json`, with ``"cached": true``);
- the first --puzzles puzzles of ../shared/puzzles/top1465.txt (else tests/data/puzzles) on standard input,
  plain, and the first 50 with ``--explain``;
- positions: the first 30 of those puzzles with digits entered by hand (some wrong), with ``--hint`` and
  with ``--explain``;
- with ``--cluster`` (needs the cluster extra): a few photos and puzzles on ``--cluster local:1``;
- the web API (``POST /api/solve`` through FastAPI's TestClient on `snapsolve.web.app.create_app`): two
  sample photos (with hint, explain and the plain photo) and a position; the base64 JPEGs ``image`` and
  ``photo`` are compared by their SHA-256.

Fields that vary from run to run are left out: ``seconds`` and ``cpu_seconds`` (timings). ``--compare``
prints every field that differs (its path, the old and the new value) and counts them; it exits 1 when
any differs, except fields named with --allow-added that are new (present now, absent in the save):
those are listed too, as allowed. A field pattern is the path inside one object with list indices written
``[]``, e.g. ``grids[].progress.entries``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_PUZZLES = ROOT.parent / "shared" / "puzzles"
#: Fields whose values change from run to run (timings), left out of every object.
VARYING = {"seconds", "cpu_seconds"}
#: Fields holding base64 JPEG data, compared by their digest.
DIGESTED = {"image", "photo"}
#: The save's file inside the folder.
SAVE_FILE = "contract.json"


def photos() -> list[str]:
    """The photos, relative to the checkout's root: the samples, then the test photos."""
    found = sorted((ROOT / "samples").glob("*.jpg")) + sorted((ROOT / "tests" / "data" / "photos").glob("*.jpg"))
    return [str(p.relative_to(ROOT)) for p in found]


def puzzles(count: int) -> list[str]:
    """The first `count` puzzle lines of top1465 (the shared file, else the tree's first 40)."""
    path = SHARED_PUZZLES / "top1465.txt"
    if not path.exists():
        path = ROOT / "tests" / "data" / "puzzles" / "top1465.txt"
    lines = [line.strip()[:81] for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return lines[:count]


def positions(lines: list[str]) -> list[str]:
    """Puzzle lines with a second field of digits entered by hand: every third empty cell's solution digit,
    and in every other puzzle one of them wrong (the next digit)."""
    from snapsolve.solver.exact import solve_unique
    from snapsolve.solver.grid import parse_puzzle

    out = []
    for n, line in enumerate(lines):
        givens = parse_puzzle(line)
        solution = solve_unique(givens).solution
        assert solution is not None
        empty = [c for c in range(81) if not givens[c]]
        entries = ["."] * 81
        for c in empty[::3]:
            entries[c] = str(solution[c])
        if n % 2:
            c = empty[3]
            entries[c] = str(solution[c] % 9 + 1)
        out.append(f"{line} {''.join(entries)}")
    return out


def run_cli(args: list[str], stdin: str | None = None) -> list[dict]:
    """The JSON Lines of one ``snapsolve`` run from the checkout's root (exit status 0 or 1 accepted)."""
    command = [sys.executable, "-m", "snapsolve", *args, "--json", "--no-image"]
    done = subprocess.run(command, cwd=ROOT, input=stdin, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def api_objects(pictures: list[str], position: str) -> dict[str, dict]:
    """The web API's answers: `pictures` with every option, and `position` as a JSON puzzle with --explain."""
    from fastapi.testclient import TestClient

    from snapsolve.web.app import Settings, create_app

    out = {}
    with TestClient(create_app(Settings(workers=1, timeout=120))) as client:
        for picture in pictures:
            for options in ({"hint": "true", "photo": "true"}, {"explain": "true"}):
                with open(ROOT / picture, "rb") as fh:
                    response = client.post(
                        "/api/solve", data=options, files={"image": (Path(picture).name, fh, "image/jpeg")}
                    )
                out[f"{picture} {sorted(options)}"] = {"status": response.status_code, "body": response.json()}
        for options in ({"hint": True}, {"explain": True}):
            response = client.post("/api/solve", json={"puzzle": position, **options})
            out[f"position {sorted(options)}"] = {"status": response.status_code, "body": response.json()}
    return out


def collect(count: int, cluster: bool) -> dict[str, object]:
    """Every case's objects, by case name (see the module's docstring)."""
    pics = photos()
    lines = puzzles(count)
    moves = positions(lines[:30])
    cases: dict[str, object] = {}
    cases["cli photos"] = run_cli(pics)
    cases["cli photos --hint"] = run_cli([*pics, "--hint"])
    cases["cli photos --explain"] = run_cli([*pics, "--explain"])
    cases["cli puzzles"] = run_cli(["-"], "\n".join(lines) + "\n")
    cases["cli puzzles --explain"] = run_cli(["-", "--explain"], "\n".join(lines[:50]) + "\n")
    cases["cli positions --hint"] = run_cli(["-", "--hint"], "\n".join(moves) + "\n")
    cases["cli positions --explain"] = run_cli(["-", "--explain"], "\n".join(moves) + "\n")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "results.db")
        few = [*pics[:3], pics[-1]]
        run_cli([*few, "--hint", "--db", db])
        cases["cli photos --hint --db (read back)"] = run_cli([*few, "--hint", "--db", db])
        listed = Path(folder) / "positions.txt"
        listed.write_text("\n".join(moves[:6]) + "\n")
        run_cli([str(listed), "--explain", "--db", db])
        back = run_cli([str(listed), "--explain", "--db", db])
        for obj in back:  # the temporary file's name varies: keep its line number
            obj["input"] = "positions.txt:" + obj["input"].rsplit(":", 1)[1]
        cases["cli positions --explain --db (read back)"] = back
    if cluster:
        cases["cli --cluster local:1"] = run_cli([*pics[:2], "--hint", "--cluster", "local:1"])
    cases["api"] = api_objects(["samples/image1.jpg", "samples/02_25_honor_view_10_0.jpg"], moves[1])
    return cases


def clean(value: object, key: str | None = None) -> object:
    """`value` without the VARYING fields, base64 images replaced by their digest."""
    if isinstance(value, dict):
        return {k: clean(v, k) for k, v in value.items() if k not in VARYING}
    if isinstance(value, list):
        return [clean(v) for v in value]
    if key in DIGESTED and isinstance(value, str):
        return "sha256:" + hashlib.sha256(value.encode()).hexdigest()
    return value


def flatten(value: object, path: str = "") -> dict[str, object]:
    """Leaf values by path (``.key`` for objects, ``[i]`` for lists; an empty list or object is a leaf)."""
    if isinstance(value, dict) and value:
        out: dict[str, object] = {}
        for k, v in value.items():
            out.update(flatten(v, f"{path}.{k}" if path else k))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, v in enumerate(value):
            out.update(flatten(v, f"{path}[{i}]"))
        return out
    return {path: value}


def field_pattern(path: str) -> str:
    """The path inside one object with list indices as ``[]``: ``grids[].mistakes[].entry``."""
    inner = path.split(" :: ", 1)[-1]
    return re.sub(r"\[\d+\]", "[]", inner)


def objects(cases: dict[str, object]) -> dict[str, object]:
    """Each case's objects by a stable name: ``CASE :: INPUT`` (a list's index when inputs repeat)."""
    out: dict[str, object] = {}
    for case, value in cases.items():
        items = (
            value.items()
            if isinstance(value, dict)
            else [(obj.get("input", str(i)), obj) for i, obj in enumerate(value)]
        )
        for name, obj in items:
            out[f"{case} | {name} :: "] = obj
    return out


def differences(old: dict, new: dict) -> list[tuple[str, str, object, object]]:
    """(kind, path, old, new) for every leaf that was added, removed or changed; kind in added/removed/changed."""
    out = []
    a, b = {}, {}
    for name, obj in objects(old).items():
        a.update({name + k: v for k, v in flatten(obj).items()})
    for name, obj in objects(new).items():
        b.update({name + k: v for k, v in flatten(obj).items()})
    for path in a:
        if path not in b:
            out.append(("removed", path, a[path], None))
        elif a[path] != b[path] or type(a[path]) is not type(b[path]):
            out.append(("changed", path, a[path], b[path]))
    out += [("added", path, None, b[path]) for path in b if path not in a]
    return out


def allowed(kind: str, path: str, patterns: list[str]) -> bool:
    """An added field named by one of `patterns` (equal, or its ending after a dot)."""
    pattern = field_pattern(path)
    return kind == "added" and any(pattern == p or pattern.endswith("." + p) for p in patterns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", type=Path, metavar="DIR", help="save the JSON into DIR")
    action.add_argument("--compare", type=Path, metavar="DIR", help="compare the JSON with the save in DIR")
    parser.add_argument("--puzzles", type=int, default=200, help="puzzles of top1465 (default: %(default)s)")
    parser.add_argument("--cluster", action="store_true", help="also run photos on --cluster local:1 (Dask)")
    parser.add_argument(
        "--allow-added",
        default="",
        metavar="FIELD,...",
        help="new fields that may appear (patterns such as grids[].mistakes[].entry); listed, not failed",
    )
    args = parser.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    cases = clean(collect(args.puzzles, args.cluster))
    assert isinstance(cases, dict)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        (args.save / SAVE_FILE).write_text(json.dumps(cases, indent=1, sort_keys=False) + "\n")
        count = sum(len(v) for v in cases.values())
        print(f"saved {count} objects in {len(cases)} cases to {args.save / SAVE_FILE}")
        return
    old = json.loads((args.compare / SAVE_FILE).read_text())
    patterns = [p.strip() for p in args.allow_added.split(",") if p.strip()]
    found = differences(old, cases)
    bad = 0
    fields: dict[tuple[str, str, bool], int] = {}
    for kind, path, before, after in found:
        ok = allowed(kind, path, patterns)
        bad += not ok
        key = (kind, field_pattern(path), ok)
        fields[key] = fields.get(key, 0) + 1
        where = path.replace(" :: ", ".")
        print(f"{kind}{' (allowed)' if ok else ''}: {where}: {json.dumps(before)} -> {json.dumps(after)}")
    count = sum(len(v) for v in cases.values())
    if not found:
        print(f"identical: {count} objects in {len(cases)} cases")
        return
    print("fields that differ:")
    for (kind, pattern, ok), n in sorted(fields.items()):
        print(f"  {kind}{' (allowed)' if ok else ''} {pattern}: {n}")
    print(f"{len(found)} differences ({len(found) - bad} allowed, {bad} not) in {count} objects")
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
