"""Entries left unclear, measured against the player's own right copies alone: what would OWN_APART take?

`repair.read_entries`' second round reads a question as the solution's digit
when its mark lies nearer, under the image distortion model, the player's own
right copies of that digit than their own right copies of any other digit,
the digit read among them (`SecondLook.own_apart` at most `repair.second_look.OWN_APART`),
and their nearest copy of it lies at most `repair.second_look.OWN_APART_NEAR` times as far
as the model's nearest sample of any digit. This script reads the photos of
`benchmarks/handwriting.py` with that rule switched off, and for every entry
left unclear whose player wrote right copies of both the solution's digit and
the digit read, records the two measures (against the player's right entries
as the reading ends), labelled right or wrong by the photo's truth. It reports,
over all the runs, how many right and wrong entries each pair of limits would
take, and the wrong entries nearest the line.

    python benchmarks/own_copies.py [--runs 24:all:0 7001:all:0 45:all:10 9001:all:10 24:mnist:0 9001:mnist:10]
        [--photos 120] [--save FILE] [--load FILE ...]

A run is SEED:HANDS:EXTRA_GIVENS. The default runs are those OWN_APART and
OWN_APART_NEAR were chosen on; report accuracy on others
(`benchmarks/handwriting.py`). Each run takes two to three minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
from unittest import mock

import numpy as np
from handwriting import make_photos  # benchmarks/handwriting.py, beside this script

from snapsolve import repair
from snapsolve.pipeline import _second_look, decide, default_model, player_entries, read_grids

#: Limits of `SecondLook.own_apart` reported (OWN_APART's candidates; rows of the table).
APART = (0.5, 0.6, 0.7, 0.8, 0.9)
#: Limits of `SecondLook.own_over_model` reported (OWN_APART_NEAR's candidates; columns).
NEAR = (1.5, 2.0, 2.5, float("inf"))


def record(seed: int, hands: str, extra: int, photos: int) -> list[dict]:
    """The entries left unclear on `make_photos(photos, seed, extra, hands)` with OWN_APART switched off, each
    with `own_apart` (`SecondLook.own_apart` of the solution's digit against the digit read) and `near`
    (`SecondLook.own_over_model` of the solution's digit), measured
    against the player's right entries as the reading ends; entries without right copies of both digits are
    left out."""
    model = default_model()
    out = []
    for index, photo in enumerate(make_photos(photos, seed, extra, hands)):
        readings = read_grids(photo["image"], model)
        if not readings:
            continue
        reading = readings[0]
        decision = decide(reading, model=model)
        if decision.solution is None:
            continue
        solution = decision.solution
        entries = player_entries(reading, decision, model)
        own = repair.second_look.right_entries(entries.sure, decision.givens, solution)
        for entry in entries.unclear:
            if entry.cell not in photo["written"]:
                continue
            digit = solution[entry.cell]
            look = _second_look(reading, model, [entry.cell], [digit], own)
            if look is None:
                continue
            apart = look.own_apart(0, digit, entry.read)
            if not np.isfinite(apart):
                continue
            out.append(
                {
                    "run": f"{seed}:{hands}:{extra}",
                    "photo": index,
                    "cell": entry.cell,
                    "hand": photo["hand"],
                    "read": entry.read,
                    "solution": digit,
                    "right": photo["written"][entry.cell] == photo["solution"][entry.cell],
                    "own_apart": apart,
                    "near": look.own_over_model(0, digit),
                }
            )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs",
        nargs="+",
        default=["24:all:0", "7001:all:0", "45:all:10", "9001:all:10", "24:mnist:0", "9001:mnist:10"],
    )
    parser.add_argument("--photos", type=int, default=120)
    parser.add_argument("--save", help="write the records to this JSON file")
    parser.add_argument("--load", nargs="+", default=[], help="report from these saved records, no photo read")
    args = parser.parse_args()
    rows: list[dict] = []
    if args.load:
        for name in args.load:
            with open(name) as saved:
                rows += json.load(saved)
    else:
        for run in args.runs:
            seed, hands, extra = run.split(":")
            # the rule off: what it would take stays unclear
            with mock.patch.object(repair.second_look, "OWN_APART", 0.0):
                recorded = record(int(seed), hands, int(extra), args.photos)
            rows += recorded
            print(f"recorded {run}: {len(recorded)} unclear with copies of both digits", file=sys.stderr)
        if args.save:
            with open(args.save, "w") as out:
                json.dump(rows, out)
    right = sum(r["right"] for r in rows)
    print(
        f"{len(rows)} unclear entries with the player's right copies of both digits: "
        f"{right} right, {len(rows) - right} wrong"
    )
    print("own_apart at most | " + " | ".join(f"near at most {n:g}: right / wrong" for n in NEAR))
    for apart in APART:
        cells = []
        for near in NEAR:
            taken = [r for r in rows if r["own_apart"] <= apart and r["near"] <= near]
            cells.append(f"{sum(r['right'] for r in taken)} / {sum(not r['right'] for r in taken)}")
        print(f"{apart:g} | " + " | ".join(cells))
    print("wrong entries nearest the line (own_apart, near, run, photo, cell, hand, solution -> read):")
    for r in sorted((r for r in rows if not r["right"]), key=lambda r: r["own_apart"])[:5]:
        print(
            f"  {r['own_apart']:.3f} {r['near']:.2f} {r['run']} {r['photo']} {r['cell']} {r['hand']} "
            f"{r['solution']} -> {r['read']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
