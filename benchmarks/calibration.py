"""Calibration of a grid's confidence: is "0.9" right nine times in ten?

A grid's ``confidence`` is the probability that every given read is right
(`snapsolve.repair.calibrated_confidence`: Platt scaling of the reading's log
probability). This script measures how well it is calibrated, as a
reliability table (10 bins of confidence: photos, mean confidence, share with
every given right), and with ``--fit`` fits the three constants.

Data: synthetic photos of printed puzzles (`stress.py`'s rendering: random
font, cell size and line widths, `synthetic.distort` at levels 0-3 and two
harder ones, `HARDER`, that leave some readings wrong); puzzles started or
finished in pen by hands never trained on (`handwriting.py`'s photos: held-out
handwriting faces or MNIST's test-set writers); and, when ``../shared`` is
beside the checkout, the validation photos of both datasets
(``models/validation.txt``, never trained on). Each is read and decided as
`snapsolve.pipeline` does (`read_grids`, then `decide`: consistency repair
and the per-grid printed-or-written decision). The fit uses development seeds
only (``--fit``: printed seeds 5 11 7 and the pen runs of DEVELOPMENT_RUNS);
the table is reported on other seeds (default 101 202 303 and the pen runs of
REPORTED_RUNS) and on the validation photos, never on what was fitted.
Usage::

    python benchmarks/calibration.py --fit --per-level 15  # prints the constants to put in snapsolve/repair/reading.py
    python benchmarks/calibration.py [--per-level 60]      # the reliability tables
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
from handwriting import make_photos  # benchmarks/handwriting.py, beside this script
from stress import fonts, puzzle_photo  # benchmarks/stress.py, beside this script

from snapsolve.models import validation_names
from snapsolve.pipeline import READ_SIDE, decide, decode_photo, default_model, read_grids
from snapsolve.repair import calibrated_confidence
from snapsolve.vision.dataset import labelled_photos
from snapsolve.vision.image_io import reduction_for

from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script
from synthetic import LEVELS  # benchmarks/synthetic.py, beside this script

DATASETS = SHARED.parent / "datasets"
#: Distortions beyond synthetic.LEVELS' level 3 (same fields), so that some readings fail: a calibration
#: needs grids read wrong as well as right.
HARDER = {4: (0.12, 0.6, 2.0, 16.0, 40), 5: (0.14, 0.6, 2.5, 20.0, 30)}
#: Runs of `handwriting.make_photos` fitted on: (seed, hands, extra givens, share of the empty cells written).
DEVELOPMENT_RUNS = ((10001, "all", 0, (0.3, 0.6)), (10002, "mnist", 0, (0.3, 0.6)), (10017, "all", 0, (1.0, 1.0)))
#: Runs reported on, never fitted on.
REPORTED_RUNS = (
    (10021, "all", 0, (0.3, 0.6)),
    (10022, "mnist", 10, (0.3, 0.6)),
    (10023, "all", 10, (1.0, 1.0)),
    (10024, "mnist", 0, (1.0, 1.0)),
)


def outcome(image: np.ndarray, givens: list[int], model, colour=None) -> tuple[float, str, bool] | None:
    """(log probability, status, every given right) of a photo (H, W, 3) uint8 BGR (or its grey, with its
    `colour` as `snapsolve.pipeline.read_grids` takes it) whose printed givens (81 values) are known, read
    and decided as `snapsolve.pipeline` does; None when no grid is found."""
    readings = read_grids(image, model, colour)
    if not readings:
        return None
    decision = decide(readings[0], model=model)
    return decision.log_probability, decision.status, decision.givens == givens


def synthetic_outcomes(seed: int, per_level: int, model) -> list[tuple[float, str, bool]]:
    """(log probability, status, every given right) for `per_level` synthetic photos per distortion level."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    lines = read_puzzles(SHARED / "17clue.txt")[:3000] + read_puzzles(SHARED / "top1465.txt")
    font_list = fonts()
    out = []
    for level in [*LEVELS, *HARDER]:
        for _ in range(per_level):
            givens, photo = puzzle_photo(lines, font_list, min(level, 3), rng, pick, HARDER.get(level))
            out.append(outcome(photo, givens, model))
    return [o for o in out if o is not None]


def pen_outcomes(run: tuple[int, str, int, tuple[float, float]], photos: int, model) -> list[tuple[float, str, bool]]:
    """The same for `photos` photos of puzzles started or finished in pen (`handwriting.make_photos` with
    `run`'s seed, hands, extra givens and share of the empty cells written)."""
    seed, hands, extra, fill = run
    made = make_photos(photos, seed, extra, hands, fill=fill)
    out = [outcome(photo["image"], photo["givens"], model) for photo in made]
    return [o for o in out if o is not None]


def photo_outcomes(model) -> list[tuple[float, str, bool]]:
    """The same for the validation photos of both shared datasets (none when ../shared is absent)."""
    names = validation_names()
    out = []
    for folder in ("sudoku-photos-train", "sudoku-photos-inprogress-train"):
        if not (DATASETS / folder).is_dir():
            continue
        for photo in labelled_photos(DATASETS / folder):
            if photo.name in names:
                reduce = reduction_for(photo.image_path, READ_SIDE)  # decoded as the command decodes it
                image, colour = decode_photo(photo.image_path, reduce)
                out.append(outcome(image, photo.givens, model, colour))
    return [o for o in out if o is not None]


def fit(outcomes: list[tuple[float, str, bool]]) -> tuple[float, float, float]:
    """Platt scaling: logistic regression of "every given right" on (log probability, not solved).

    Returns (intercept, slope, not-solved penalty) as `repair.calibrated_confidence` uses them.
    """
    from sklearn.linear_model import LogisticRegression

    x = np.array([[lp, status != "solved"] for lp, status, _ in outcomes], float)
    y = np.array([right for _, _, right in outcomes], int)
    # Platt's targets (Platt 1999): (N+ + 1) / (N+ + 2) and 1 / (N- + 2), not 1 and 0, so that a sample
    # with few failures does not make the fit promise certainty; each grid enters once per target.
    positives, negatives = int(y.sum()), int(len(y) - y.sum())
    target = np.where(y == 1, (positives + 1) / (positives + 2), 1 / (negatives + 2))
    model = LogisticRegression(C=10.0).fit(
        np.concatenate([x, x]), np.r_[np.ones(len(y)), np.zeros(len(y))], sample_weight=np.r_[target, 1 - target]
    )
    return float(model.intercept_[0]), float(model.coef_[0, 0]), float(-model.coef_[0, 1])


def reliability(outcomes: list[tuple[float, str, bool]], bins: int = 10) -> list[tuple[str, int, float, float]]:
    """(bin, photos, mean confidence, share right) per confidence bin of width 1 / `bins`."""
    conf = np.array([calibrated_confidence(lp, status) for lp, status, _ in outcomes])
    right = np.array([r for _, _, r in outcomes], float)
    index = np.minimum((conf * bins).astype(int), bins - 1)
    rows = []
    for b in range(bins):
        inside = index == b
        if inside.any():
            rows.append(
                (
                    f"{b / bins:.1f}-{(b + 1) / bins:.1f}",
                    int(inside.sum()),
                    float(conf[inside].mean()),
                    float(right[inside].mean()),
                )
            )
    return rows


def print_table(title: str, outcomes: list[tuple[float, str, bool]]) -> None:
    """A reliability table in Markdown, with the expected calibration error and the Brier score."""
    conf = np.array([calibrated_confidence(lp, status) for lp, status, _ in outcomes])
    right = np.array([r for _, _, r in outcomes], float)
    rows = reliability(outcomes)
    ece = sum(n * abs(c - r) for _, n, c, r in rows) / max(len(outcomes), 1)
    print(
        f"\n{title}: {len(outcomes)} grids, {int(right.sum())} with every given right; "
        f"expected calibration error {ece:.3f}, Brier score {float(((conf - right) ** 2).mean()):.4f}"
    )
    print("| confidence | grids | mean confidence | every given right |")
    print("|---|---|---|---|")
    for name, n, c, r in rows:
        print(f"| {name} | {n} | {c:.3f} | {r:.3f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="fit the constants on the development seeds")
    parser.add_argument("--seeds", type=int, nargs="+", help="seeds (default: 5 11 7 with --fit, else 101 202 303)")
    parser.add_argument("--per-level", type=int, default=60, help="synthetic photos per level and seed (default 60)")
    parser.add_argument("--pen-photos", type=int, default=120, help="photos per pen run (default 120)")
    args = parser.parse_args()
    if not (SHARED / "top1465.txt").exists():
        print(f"calibration.py: needs the puzzle collections in {SHARED}", file=sys.stderr)
        return 1
    model = default_model()
    seeds = args.seeds or ([5, 11, 7] if args.fit else [101, 202, 303])
    outcomes = [o for seed in seeds for o in synthetic_outcomes(seed, args.per_level, model)]
    runs = DEVELOPMENT_RUNS if args.fit else REPORTED_RUNS
    pen = {run: pen_outcomes(run, args.pen_photos, model) for run in runs}
    if args.fit:
        intercept, slope, penalty = fit(outcomes + [o for run in runs for o in pen[run]])
        print(
            f"CONFIDENCE_INTERCEPT = {intercept:.3f}\nCONFIDENCE_SLOPE = {slope:.4f}\n"
            f"CONFIDENCE_NOT_SOLVED = {penalty:.3f}"
        )
        print_table(f"development seeds {seeds} (fitted on: for reference only)", outcomes)
        for run in runs:
            print_table(f"development pen run {run} (fitted on: for reference only)", pen[run])
        return 0
    print_table(f"synthetic photos, seeds {seeds}", outcomes)
    for (seed, hands, extra, fill), found in pen.items():
        written = "finished" if fill[0] == 1 else f"{fill[0]:g}-{fill[1]:g} of the empty cells written"
        print_table(f"pen photos, seed {seed}, {hands} hands, {extra} extra givens, {written}", found)
    photos = photo_outcomes(model)
    if photos:
        print_table("validation photos (printed and in progress)", photos)
    return 0


if __name__ == "__main__":
    sys.exit(main())
