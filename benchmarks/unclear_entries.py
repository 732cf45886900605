"""Entries left unclear, right and wrong: what would read the right ones without passing a wrong one?

An entry the reading doubts (read as another digit than the solution's, not
surely, and not put right by the second look's other rules) is left
*unclear*: a question for the player. Most unclear entries in
`benchmarks/handwriting.py`'s photos are deliberately wrong digits, but a
third are right ones in a hand the models never saw. This script records,
for every entry the other rules leave unclear (those `repair.read_entries`
lists in `EntryReading.doubted` as a question or as taken by
`repair.second_look.SECOND_LOOK_NEAREST`), the measures of the second look and of the
first reading, labelled right or wrong by the photo's truth, and reports per
run (a seed and hands, 0 extra givens):

- how many right and wrong entries a second-look distortion ratio
  (`vision.evidence.SecondLook.ratio`) of at most 0.9, 0.95, 1.0 and 1.05
  would take as right, and the rule shipped (`repair.second_look.SECOND_LOOK_NEAREST`,
  vetoed when the second look's vote goes whole to another digit);
- for comparison, a logistic regression (scikit-learn) of six measures
  together (`measures`), fitted on the other runs with its threshold at
  their highest wrong score plus ``--margin``, run by run.

    python benchmarks/unclear_entries.py [--seeds 24 45 307 419 31 99] [--hands all mnist] [--photos 120]
        [--margin 0.5] [--save FILE] [--load FILE ...]

Each run takes one to three minutes on one core; ``--save`` keeps the
records (JSON) and ``--load`` reports from saved ones. The default seeds are
the tuning seeds SECOND_LOOK_NEAREST was chosen on; report accuracy on
others (`benchmarks/handwriting.py`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np
from handwriting import make_photos  # benchmarks/handwriting.py, beside this script
from sklearn.linear_model import LogisticRegression

from snapsolve.pipeline import decide, default_model, player_entries, read_grids


def record(seed: int, hands: str, photos: int) -> list[dict]:
    """The entries left unclear on `photos` photos of `make_photos(photos, seed, 0, hands)` but for
    SECOND_LOOK_NEAREST (`repair.EntryReading.doubted` decided as a question or as the least distorted),
    those with a second look, each a dict of the raw measures (the second look, the HOG own-copy ratio,
    the printed and nearest-sample readings), the digit read, the solution's and the digit written, and
    whether the shipped rule took it (``nearest_rule``: SECOND_LOOK_NEAREST, vetoed by a whole vote for another
    digit, `repair.second_look.UNANIMOUS`)."""
    model = default_model()
    out = []
    for index, photo in enumerate(make_photos(photos, seed, 0, hands)):
        readings = read_grids(photo["image"], model)
        if not readings:
            continue
        decision = decide(readings[0], model=model)
        if decision.solution is None:
            continue
        entries = player_entries(readings[0], decision, model)
        for doubt in entries.doubted:
            if doubt.votes is None or doubt.decided_by not in ("question", "least distorted"):
                continue
            if doubt.cell not in photo["written"]:
                continue
            out.append(
                {
                    "cell": doubt.cell,
                    "read": doubt.read,
                    "right": doubt.solution,
                    "look": [list(doubt.votes), doubt.ratio, doubt.own_ratio],
                    "shape_own_ratio": doubt.shape_own_ratio,
                    "printed": list(doubt.printed),
                    "nearest": list(doubt.nearest),
                    "nearest_rule": doubt.decided_by == "least distorted",
                    "written": photo["written"][doubt.cell],
                    "truth": photo["solution"][doubt.cell],
                    "seed": seed,
                    "hands": hands,
                    "photo": index,
                }
            )
    return out


#: The measures `measures` gives, in its order.
MEASURES = ("votes", "log_ratio", "log_own_ratio", "log_shape_own_ratio", "log_printed", "log_nearest")
#: Ratios above this (and a missing one: no copy of the digit to measure against) count as this.
RATIO_CAP = 3.0
#: Probabilities below this count as this (logarithms stay finite).
FLOOR = 1e-3


def measures(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """Each record's MEASURES, shape (n, 6) float64, and whether it was right, (n,) bool: the second look's
    share of votes for the solution's digit; the logarithms of its distortion ratio, of the ratio to the
    player's own copies (`SecondLook.own_ratio`) and of the HOG space's own-copy ratio
    (`repair.entries._own_copy_ratios`), each capped at RATIO_CAP; the logarithm of the printed-digit model's
    P(solution's digit), floored at FLOOR; the logarithm of the handwritten model's nearest sample of the
    solution's digit over that of the digit read."""
    out = []
    for r in rows:
        votes, ratio, own_ratio = r["look"]
        printed = r["printed"][r["right"] - 1]
        printed = printed if math.isfinite(printed) else 0.0
        near_right, near_read = r["nearest"][r["right"] - 1], r["nearest"][r["read"] - 1]
        out.append(
            [
                votes[r["right"] - 1],
                math.log(min(ratio, RATIO_CAP)),
                math.log(min(own_ratio, RATIO_CAP)),
                math.log(min(r["shape_own_ratio"], RATIO_CAP)),
                math.log(max(printed, FLOOR)),
                math.log(max(near_right, 1e-9) / max(near_read, 1e-9)),
            ]
        )
    right = np.array([r["written"] == r["truth"] for r in rows], bool)
    return np.array(out, np.float64).reshape(-1, len(MEASURES)), right


def fit(rows: list[dict], margin: float) -> tuple[np.ndarray, float, float]:
    """A logistic regression's weights (6,), bias and threshold (the highest wrong entry's score plus `margin`) fitted
    on `rows`."""
    x, y = measures(rows)
    model = LogisticRegression(C=1.0, max_iter=5000).fit(x, y)
    scores = model.decision_function(x)
    return model.coef_[0], float(model.intercept_[0]), float(scores[~y].max() + margin)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[24, 45, 307, 419, 31, 99])
    parser.add_argument("--hands", nargs="+", choices=("all", "mnist"), default=["all", "mnist"])
    parser.add_argument("--photos", type=int, default=120)
    parser.add_argument(
        "--margin",
        type=float,
        default=0.5,
        help="the logistic threshold: added to the highest wrong score (default 0.5)",
    )
    parser.add_argument("--save", help="write the records to this JSON file")
    parser.add_argument("--load", nargs="+", default=[], help="report from these saved records, no photo read")
    args = parser.parse_args()
    runs: dict[str, list[dict]] = {}
    if args.load:
        for name in args.load:
            with open(name) as saved:
                for row in json.load(saved):
                    runs.setdefault(f"{row['seed']} {row['hands']}", []).append(row)
    else:
        for seed in args.seeds:
            for hands in args.hands:
                runs[f"{seed} {hands}"] = record(seed, hands, args.photos)
                print(f"recorded seed {seed}, {hands}: {len(runs[f'{seed} {hands}'])} unclear", file=sys.stderr)
        if args.save:
            with open(args.save, "w") as out:
                json.dump([row for rows in runs.values() for row in rows], out)
    limits = (0.9, 0.95, 1.0, 1.05)
    print(
        "run (seed, hands) | right unclear | wrong unclear | taken right / wrong passed at ratio <= "
        + ", ".join(map(str, limits))
        + " | the shipped rule (SECOND_LOOK_NEAREST, no whole vote for another digit)"
        + " | logistic, the run left out"
    )
    total = np.zeros((len(limits) + 2, 2), int)
    for name, rows in runs.items():
        x, y = measures(rows)
        takes = [x[:, 1] <= math.log(limit) for limit in limits] + [np.array([r["nearest_rule"] for r in rows], bool)]
        others = [r for other, rs in runs.items() if other != name for r in rs]
        if others:
            weights, bias, threshold = fit(others, args.margin)
            takes.append(x @ weights + bias >= threshold)
        else:  # one run: nothing to fit on
            takes.append(np.zeros(len(rows), bool))
        counts = np.array([[(take & y).sum(), (take & ~y).sum()] for take in takes])
        total += counts
        print(f"{name} | {y.sum()} | {(~y).sum()} | " + " | ".join(f"{a} / {b}" for a, b in counts))
    x, y = measures([r for rows in runs.values() for r in rows])
    print(f"all | {y.sum()} | {(~y).sum()} | " + " | ".join(f"{a} / {b}" for a, b in total))
    wrong = np.sort(np.exp(x[~y, 1]))[:3]
    print("the least distortion ratios of wrong entries:", ", ".join(f"{r:.3f}" for r in wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())
