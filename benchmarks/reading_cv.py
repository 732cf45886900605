"""Cross-validated reading accuracy on the training photos: for tuning without touching validation.

The training photos of both shared datasets (the validation split of
models/validation.txt left out) are split into FOLDS groups by puzzle (photos
of one puzzle always together); for each group a model is fitted on the
others (`vision.training.build_model`, fonts included) and the group's photos
are read and solved as `snapsolve evaluate` does. Prints the pooled figures
per dataset, and for puzzles in progress the player's entries: read right,
printed versus written, mistakes reported (false ones: a right entry
accused) and unclear entries asked about. Decisions about features and thresholds are taken on these
figures, never on the validation split.

    python benchmarks/reading_cv.py [--folds 5] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

from snapsolve.evaluate import evaluate_photo, summarize
from snapsolve.models import validation_names
from snapsolve.vision.dataset import labelled_photos
from snapsolve.vision.training import FontListError, build_model, font_files

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--verbose", action="store_true", help="list every photo read imperfectly")
    args = parser.parse_args()
    held_out = validation_names()
    sets = {
        name: [p for p in labelled_photos(args.shared / "datasets" / name) if p.name not in held_out]
        for name in ("sudoku-photos-train", "sudoku-photos-inprogress-train")
    }
    photos = [p for group in sets.values() for p in group]
    puzzles = sorted({p.puzzle for p in photos}, key=lambda s: hashlib.sha1(s.encode()).hexdigest())
    fold_of = {puzzle: i % args.folds for i, puzzle in enumerate(puzzles)}
    try:
        fonts = font_files(system=True)  # as snapsolve train renders them
    except FontListError as exc:
        print(f"reading_cv.py: {exc}", file=sys.stderr)
        return 1
    entries: dict[str, list] = {name: [] for name in sets}
    start = time.perf_counter()
    for fold in range(args.folds):
        model = build_model([p for p in photos if fold_of[p.puzzle] != fold], fonts)
        for name, group in sets.items():
            for photo in group:
                if fold_of[photo.puzzle] == fold:
                    entries[name].append(evaluate_photo(photo, model))
        print(f"fold {fold + 1}/{args.folds} done, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    for name, found in entries.items():
        s = summarize(found)
        n = s["photos"]
        print(
            f"{name}: {n} photos, solved right {s['solved_right']} ({100 * s['solved_right'] / n:.1f}%), "
            f"solved wrong {s['solved_wrong']}, unsure {s['unsure']}, no grid {s['no_grid']}; cells "
            f"{100 * s['cell_accuracy']:.2f}%, printed {100 * (s['printed_accuracy'] or 0):.2f}%, handwritten "
            f"{100 * (s['handwritten_accuracy'] or 0):.2f}%, candidates {100 * (s['candidates_found'] or 0):.2f}%, "
            f"empty {100 * (s['empty_accuracy'] or 0):.2f}%"
        )
        if s["handwritten"]:
            print(
                f"  entries read right {100 * (s['entries_read'] or 0):.2f}% of {s['handwritten']}; printed versus "
                f"written {100 * s['printed_vs_written']:.2f}% of {s['kind_digits']} digits; mistakes reported "
                f"{s['mistakes']} ({s['false_mistakes']} false); unclear entries {s['unclear']} "
                f"({s['unclear_right']} of them right)"
            )
        if args.verbose:
            for e in found:
                if e["wrong_cells"] or not e["solved_right"]:
                    cells = ", ".join(f"r{c // 9 + 1}c{c % 9 + 1} {t}->{r}" for c, t, r in e["wrong_cells"][:6])
                    print(f"  {e['photo']}: {e['error'] or e['status']}; {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
