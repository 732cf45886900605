"""Finished puzzles photographed to be checked: is the whole grid found, and is the verdict right?

Each photo is `handwriting.make_photos` with ``finished``: a top1465 puzzle
(10 extra givens by default) ruled as a newspaper's (thick box lines), every
empty cell written in pen by a held-out hand, 0-2 entries wrong; flat, bent
(``--bend``) or under a cast shadow (``--shadow``). Each is read as the
command reads a photo (`snapsolve.pipeline.read_grids`, then `read_puzzle`
with ``--hint``), and scored:

- found: a grid was read;
- the grid located: every corner of the main grid read lies within
  LOCATED cells of the grid's own corner in the photo
  (`handwriting.seen_corners`); otherwise it is sorted by its area against
  the grid's: a box (under BOX_AREA of it: one 3x3 box taken for the grid),
  a part (under PART_AREA: a band, some rows), larger (over LARGER_AREA: the
  grid and the page's margin) or elsewhere;
- solved right: solved to the puzzle's own solution; and every printed given
  read as printed (a given taken for the player's entry, or an entry for a
  given, is counted apart: the solution can still be right);
- every entry right: each written cell's entry is the digit written;
- the verdict right: with no wrong entry, the hint says the grid is solved
  (`solver.Finished`); with wrong entries, each is ringed as a mistake or
  asked about (an entry not read surely is never called a mistake), no right
  entry is ringed, and the hint is a mistake or a question;
- false mistakes (a right entry called a mistake) and entries asked about.

    python benchmarks/finished.py [--photos 30] [--seed 12101] [--bend 0] [--shadow 0] [--hands all|mnist]
        [--size 960x720] [--save DIR]

``--save DIR`` writes each photo (``finished_seedS_N.jpg``, JPEG quality 92) and
``truth.json`` (givens, solution, the entries written, the wrong cells, the
hand, the grid's corners in the photo, the line widths): the fixtures of
``tests/data/finished`` were made so.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from handwriting import (  # benchmarks/handwriting.py, beside this script
    SIZE,
    make_photos,
    photo_size,
    save_photos,
    share_range,
)

from snapsolve.pipeline import default_model, read_grids, read_puzzle
from snapsolve.puzzle import Options
from snapsolve.solver import Finished, Mistake, UnclearEntry
from snapsolve.vision.digits import CellClassifier

#: A grid read whose every corner lies within this many cells of the grid's own is the grid.
LOCATED = 1.0
#: A grid read elsewhere is one box of the grid when its area is under this share of the grid's ...
BOX_AREA = 0.2
#: ... part of it (a band, a few rows) under this share ...
PART_AREA = 0.8
#: ... and the grid with some of the page round it over this share.
LARGER_AREA = 1.25


def located(corners: np.ndarray, truth: np.ndarray) -> str:
    """Where a grid read lies against the grid's own corners ((4, 2) pixels each, any order): "grid", "box",
    "part", "larger" or "elsewhere" (see the module's description)."""
    cell = np.sqrt(cv2.contourArea(np.float32(truth))) / 9
    off = max(float(np.linalg.norm(np.asarray(corners) - t, axis=1).min()) for t in truth)
    if off <= LOCATED * cell:
        return "grid"
    share = cv2.contourArea(np.float32(corners)) / max(cv2.contourArea(np.float32(truth)), 1.0)
    if share < BOX_AREA:
        return "box"
    return "part" if share < PART_AREA else "larger" if share > LARGER_AREA else "elsewhere"


def score(photos: list[dict], model: CellClassifier) -> tuple[Counter, list[str]]:
    """Totals over the photos (see the module's description), and one line per photo that is not found as
    the grid, solved right and judged right."""
    totals: Counter = Counter()
    failures = []
    for index, photo in enumerate(photos):
        totals["photos"] += 1
        wrong, written = photo["wrong"], photo["written"]
        totals["with_wrong"] += bool(wrong)
        readings = read_grids(photo["image"], model)
        if not readings:
            totals["no_grid"] += 1
            failures.append(f"photo {index}: no grid")
            continue
        where = located(readings[0].corners, photo["corners"])
        totals[where] += 1
        grid, _ = read_puzzle(readings[0], Options(write_image=False, hint=True), model)
        right = grid.solved and grid.solution == photo["solution"]
        totals["solved_right"] += right
        totals["givens_right"] += grid.givens == photo["givens"]
        totals["solved_wrong"] += grid.solved and grid.solution != photo["solution"]
        totals["every_entry_right"] += all(grid.entries[c] == d for c, d in written.items())
        mistakes = {m.cell for m in grid.mistakes}
        unclear = {u.cell for u in grid.unclear_entries}
        totals["false_mistakes"] += len(mistakes - wrong)
        totals["unclear"] += len(unclear)
        totals["wrong_ringed"] += len(mistakes & wrong)
        totals["wrong_asked"] += len(unclear & wrong)
        totals["wrong"] += len(wrong)
        if wrong:  # every wrong entry ringed or asked about, no right one ringed, and the hint not "solved"
            caught = wrong <= mistakes | unclear and mistakes <= wrong
            verdict = caught and isinstance(grid.hint, Mistake | UnclearEntry)
        else:
            verdict = isinstance(grid.hint, Finished)
        totals["verdict_right"] += right and verdict
        totals["said_solved"] += right and not wrong and verdict
        if where != "grid" or not right or not verdict:
            failures.append(
                f"photo {index}: located {where}, status {grid.status}, solved right {right}, "
                f"givens right {grid.givens == photo['givens']}, "
                f"mistakes {sorted(mistakes)} (wrong {sorted(wrong)}), unclear {sorted(unclear)}, "
                f"hint {type(grid.hint).__name__}"
            )
    return totals, failures


def truth_of(photo: dict) -> dict:
    """What ``--save`` keeps of a photo in ``truth.json``: givens, solution, the entries written, the wrong
    cells, the hand, the grid's corners and its rules."""
    return {
        "givens": "".join(map(str, photo["givens"])),
        "solution": "".join(map(str, photo["solution"])),
        "entries": "".join(str(photo["written"].get(c, 0)) for c in range(81)),
        "wrong": sorted(photo["wrong"]),
        "hand": photo["hand"],
        "corners": np.round(photo["corners"], 1).tolist(),
        "rules": list(photo["rules"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=30)
    parser.add_argument("--seed", type=int, default=12101)
    parser.add_argument("--extra-givens", type=int, default=10)
    parser.add_argument("--hands", choices=("all", "debian", "npm", "mnist"), default="all")
    parser.add_argument("--size", default="x".join(map(str, SIZE)))
    parser.add_argument("--bend", default="0", help="as handwriting.py's --bend (0.05-0.2: strongly bent pages)")
    parser.add_argument("--shadow", default="0", help="as handwriting.py's --shadow (0.3-0.6: a plain shadow)")
    parser.add_argument("--save", type=Path, help="write the photos and their truth.json into this folder")
    parser.add_argument("--failures", action="store_true", help="print each photo that fails")
    args = parser.parse_args()
    size = photo_size(parser, args.size)
    bend = share_range(parser, "--bend", args.bend, 0.3)
    shadow = share_range(parser, "--shadow", args.shadow, 0.9)
    start = time.perf_counter()
    photos = make_photos(
        args.photos, args.seed, args.extra_givens, args.hands, size=size, bend=bend, shadow=shadow, finished=True
    )
    print(
        f"{len(photos)} finished photos (seed {args.seed}, {args.hands} held-out hands, {size[0]}x{size[1]}, "
        f"bent {bend[0]:g}-{bend[1]:g}, shadow {shadow[0]:g}-{shadow[1]:g}), "
        f"{sum(bool(p['wrong']) for p in photos)} with wrong entries, made in {time.perf_counter() - start:.0f} s"
    )
    if args.save:
        save_photos(photos, args.save, f"finished_seed{args.seed}", truth_of)
    t, failures = score(photos, default_model())
    n = t["photos"]
    print(
        f"  found: {n - t['no_grid']}/{n}; the grid located: {t['grid']}/{n} (box {t['box']}, part {t['part']}, "
        f"larger {t['larger']}, elsewhere {t['elsewhere']}, none {t['no_grid']})"
    )
    print(
        f"  solved right: {t['solved_right']}/{n} (solved wrong {t['solved_wrong']}); every printed given read as "
        f"printed: {t['givens_right']}/{n}"
    )
    print(f"  every entry right: {t['every_entry_right']}/{n}")
    print(
        f"  verdict right: {t['verdict_right']}/{n}: said solved {t['said_solved']}/{n - t['with_wrong']} without "
        f"a wrong entry; with wrong entries, each caught and the hint on one, "
        f"{t['verdict_right'] - t['said_solved']}/{t['with_wrong']} ({t['wrong']} wrong entries: "
        f"{t['wrong_ringed']} ringed as mistakes, {t['wrong_asked']} asked about)"
    )
    print(f"  false mistakes: {t['false_mistakes']}; entries asked about: {t['unclear']}")
    if args.failures:
        for line in failures:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
