"""Can a person read the entries the tool asks about? A blind sheet of their marks.

The entries `benchmarks/unclear_entries.py` records (left unclear by every
rule but `repair.second_look.SECOND_LOOK_NEAREST`) are mostly deliberately wrong digits,
a quarter right ones in a hand the models never saw. This script cuts the
marks of one run's right ones, mixed with some wrong ones, shuffled, into
one image without labels, so that a person can write down what each mark is
(or that they cannot tell) before looking at the key: how many of the
right entries the tool asks about a reader could have read from the mark
alone, out of the grid's context.

    python benchmarks/unclear_entries.py --seeds 45 --hands all --save records.json
    python benchmarks/legibility_sheet.py records.json --seed 45 --hands all --out sheet.png
    python benchmarks/legibility_sheet.py records.json --seed 45 --hands all --out sheet.png --grade 1,0,3,...

The sheet is written to ``--out``, ten marks a row, each scaled to 80 pixels
at most, ink dark; the key (digit written, solution's digit, digit read,
hand) beside it as ``--out`` with ``.json``. ``--grade`` takes the reader's
answers in sheet order (0 for "cannot tell") and reports, for right and wrong
entries, how many were read and how many as the digit written.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np
from handwriting import make_photos  # benchmarks/handwriting.py, beside this script

from snapsolve.pipeline import default_model, read_grids

#: Pixels of a mark's longer side on the sheet, and of the tile around it.
MARK_SIZE, TILE = 80, 88
#: Marks a row of the sheet.
COLUMNS = 10


def sheet(rows: list[dict], seed: int, hands: str, photos: int) -> tuple[np.ndarray, list[dict]]:
    """The sheet of the marks of `rows` (records of `unclear_entries.py` for one run, in sheet order), shape
    (h, w) uint8, ink dark, and its key: per mark the digit written, the solution's, the digit read and the hand."""
    made = make_photos(photos, seed, 0, hands)
    model = default_model()
    readings: dict[int, object] = {}
    tiles, key = [], []
    for row in rows:
        index = row["photo"]
        if index not in readings:
            readings[index] = read_grids(made[index]["image"], model)[0]
        crop = readings[index].marks.crops[row["cell"]]
        scale = MARK_SIZE / max(crop.shape)
        mark = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))))
        tile = np.zeros((TILE, TILE), np.uint8)
        margin = (TILE - MARK_SIZE) // 2
        tile[margin : margin + mark.shape[0], margin : margin + mark.shape[1]] = mark
        tiles.append(255 - tile)
        key.append({"written": row["written"], "truth": row["truth"], "read": row["read"], "hand": made[index]["hand"]})
    blank = np.full((TILE, TILE), 255, np.uint8)
    lines = [tiles[k : k + COLUMNS] for k in range(0, len(tiles), COLUMNS)]
    return np.vstack([np.hstack(line + [blank] * (COLUMNS - len(line))) for line in lines]), key


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", help="records saved by unclear_entries.py --save")
    parser.add_argument("--seed", type=int, required=True, help="the run's seed")
    parser.add_argument("--hands", choices=("all", "mnist"), required=True, help="the run's hands")
    parser.add_argument("--photos", type=int, default=120, help="photos of the run (default 120)")
    parser.add_argument("--wrong", type=int, default=12, help="wrong entries mixed in (default 12)")
    parser.add_argument("--shuffle", type=int, default=5, help="seed of the shuffle (default 5)")
    parser.add_argument("--out", required=True, help="the sheet, a PNG file; its key is written beside it (.json)")
    parser.add_argument("--grade", help="the reader's digits in sheet order, comma-separated, 0 = cannot tell")
    args = parser.parse_args()
    with open(args.records) as saved:
        records = [r for r in json.load(saved) if r["seed"] == args.seed and r["hands"] == args.hands]
    asked = [r for r in records if not r.get("nearest_rule")]
    right = [r for r in asked if r["written"] == r["truth"]]
    wrong = [r for r in asked if r["written"] != r["truth"]]
    if not right:
        print(f"no right entry left unclear in seed {args.seed}, {args.hands}", file=sys.stderr)
        return 1
    shuffler = random.Random(args.shuffle)
    chosen = right + shuffler.sample(wrong, min(args.wrong, len(wrong)))
    shuffler.shuffle(chosen)
    key_path = Path(args.out).with_suffix(".json")
    if args.grade is None:
        image, key = sheet(chosen, args.seed, args.hands, args.photos)
        cv2.imwrite(args.out, image)
        key_path.write_text(json.dumps(key))
        print(f"wrote {args.out} ({len(right)} right and {len(chosen) - len(right)} wrong entries) and {key_path}")
        return 0
    key = json.loads(key_path.read_text())
    answers = [int(a) for a in args.grade.split(",")]
    if len(answers) != len(key):
        print(f"{len(answers)} answers for {len(key)} marks", file=sys.stderr)
        return 1
    for kind, wanted in (("right", True), ("wrong", False)):
        pairs = [(k, a) for k, a in zip(key, answers) if (k["written"] == k["truth"]) == wanted]
        read = [(k, a) for k, a in pairs if a]
        same = sum(a == k["written"] for k, a in read)
        print(f"{kind} entries: {len(pairs)}; read {len(read)}; read as the digit written {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
