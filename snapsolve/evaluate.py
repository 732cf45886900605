"""``snapsolve evaluate DIR``: reading accuracy against ``imageN.dat`` or ``NAME.cells`` ground truth.

Every labelled photo is read as ``snapsolve`` reads it (decoded at the same
reduced size, `pipeline.READ_SIDE`; grid located, cells classified,
consistency repair, solved) and compared cell by cell with its
labels. Reported: photos whose printed givens are all right, photos solved
right and solved wrong, accuracy over all cells and per kind (printed,
handwritten digits, candidates, empty), and the confusion matrix over every
class of `vision.classes.CLASSES`. The player's entries are judged as the
command reads them (`repair.read_entries`, in the light of the solution):
entries read right, printed versus written (a printed digit taken as a given,
a handwritten one as an entry), mistakes reported and how many of them are
false (a right entry accused: must be 0), and unclear entries asked about.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from .models import validation_names
from .pipeline import READ_SIDE, decide, decode_photo, default_model, player_entries, read_grids
from .solver import SOLVED, solve_unique
from .vision import ImageReadError
from .vision.classes import CLASSES, KINDS, kind_of
from .vision.dataset import LabelledPhoto, labelled_photos
from .vision.image_io import reduction_for
from .vision.locate import order_corners


def evaluate_photo(photo: LabelledPhoto, model) -> dict:
    """Read one labelled photo's main grid and compare it with the ground truth.

    Returns
    -------
    dict
        ``photo``; ``error`` (or None); ``truth`` and ``read`` (81 class
        columns each, ``read`` None when no grid was found); ``wrong_cells``
        ([cell, true class, read class] with classes as ``.cells`` tokens);
        ``givens_right`` (every printed given read right, none added);
        ``status`` of the decided puzzle and its ``confidence`` (None without
        a grid); ``solved_right`` / ``solved_wrong`` (solved, with the true
        solution or another); ``rotation``;
        ``corner_error`` (mean distance in pixels between located and
        ground-truth corners in the full photo's pixels, or None); ``seconds``; and, as `_judge_entries`
        counts them, ``handwritten`` / ``handwritten_right``,
        ``kind_digits`` / ``kind_right``, ``mistakes`` / ``false_mistakes``
        and ``unclear`` / ``unclear_right``.
    """
    start = time.perf_counter()
    entry: dict[str, Any] = {
        "photo": photo.name,
        "error": None,
        "truth": photo.cells,
        "read": None,
        "wrong_cells": [],
        "givens_right": False,
        "status": None,
        "solved_right": False,
        "solved_wrong": False,
        "confidence": None,
        "rotation": None,
        "corner_error": None,
        **_judge_entries(photo, None, None, model),
    }
    try:
        reduce = reduction_for(photo.image_path, READ_SIDE)  # decoded as the command decodes it
        image, colour = decode_photo(photo.image_path, reduce)
    except (ImageReadError, OSError) as exc:
        entry["error"] = f"cannot read image: {exc}"
        return entry
    readings = read_grids(image, model, colour)
    if not readings:
        entry["error"] = "no grid found"
        entry["wrong_cells"] = [[i, CLASSES[t], "."] for i, t in enumerate(photo.cells) if t]
    else:
        main = readings[0].scaled(reduce)  # corners in the full photo's pixels
        read = main.classes
        entry["read"] = read
        entry["rotation"] = main.rotation
        entry["wrong_cells"] = [
            [i, CLASSES[t], CLASSES[r]] for i, (t, r) in enumerate(zip(photo.cells, read)) if t != r
        ]
        decision = decide(main, model=model)
        entry["givens_right"] = decision.givens == photo.givens
        entry.update(_judge_entries(photo, main, decision, model))
        entry["status"] = decision.status
        entry["confidence"] = round(decision.confidence, 4)
        if decision.status == SOLVED:
            truth = solve_unique(photo.givens)
            right = truth.status == SOLVED and decision.solution == truth.solution
            entry["solved_right"], entry["solved_wrong"] = right, not right
        if photo.corners is not None:
            diff = order_corners(main.corners) - order_corners(photo.corners)
            entry["corner_error"] = round(float(np.linalg.norm(diff, axis=1).mean()), 2)
    entry["seconds"] = round(time.perf_counter() - start, 4)
    return entry


def _judge_entries(photo: LabelledPhoto, reading, decision, model) -> dict:
    """The player's entries as the command reads them (`repair.read_entries`), against the labels.

    Counts: ``handwritten`` (cells labelled handwritten) and ``handwritten_right``
    (read as an entry of the labelled digit, unclear ones included: the digit
    the reading puts first); ``kind_digits`` (cells labelled printed or
    handwritten) and ``kind_right`` (a printed one taken as a given, a
    handwritten one as an entry); ``mistakes`` (entries called wrong) and
    ``false_mistakes`` (of those, the labelled digit is the solution's: a right
    entry accused); ``unclear`` (entries asked about) and ``unclear_right`` (of
    those, the labelled digit is the solution's).
    """
    truth = [CLASSES[c] for c in photo.cells]
    hand = [i for i, t in enumerate(truth) if t.startswith("h")]
    digits = [i for i, t in enumerate(truth) if t != "." and t != "c"]
    out = {
        "handwritten": len(hand),
        "handwritten_right": 0,
        "kind_digits": len(digits),
        "kind_right": 0,
        "mistakes": 0,
        "false_mistakes": 0,
        "unclear": 0,
        "unclear_right": 0,
    }
    if reading is None:
        return out
    read = player_entries(reading, decision, model)
    out["handwritten_right"] = sum(1 for i in hand if read.entries[i] == int(truth[i][1]))
    out["kind_right"] = sum(
        1
        for i in digits
        if (truth[i].startswith("h") and read.entries[i] and not decision.givens[i])
        or (truth[i].isdigit() and decision.givens[i])
    )
    solution = decision.solution
    if solution:
        wrong = [i for i in range(81) if read.sure[i] and read.sure[i] != solution[i]]
        out["mistakes"] = len(wrong)
        out["false_mistakes"] = sum(1 for i in wrong if truth[i] != f"h{read.sure[i]}")
        out["unclear"] = len(read.unclear)
        out["unclear_right"] = sum(1 for u in read.unclear if truth[u.cell] == f"h{solution[u.cell]}")
    return out


def confusion_matrix(entries: list[dict]) -> np.ndarray:
    """Shape (20, 20) int: rows true class, columns read class (`CLASSES` order), over all cells read."""
    matrix = np.zeros((len(CLASSES), len(CLASSES)), np.int64)
    for e in entries:
        read = e["read"] if e["read"] is not None else [0] * 81
        np.add.at(matrix, (np.array(e["truth"]), np.array(read)), 1)
    return matrix


def summarize(entries: list[dict]) -> dict:
    """Photo-level and cell-level figures (see the module docstring)."""
    n = len(entries)
    matrix = confusion_matrix(entries)
    kinds = np.array([kind_of(c) for c in range(len(CLASSES))])

    def share(rows: np.ndarray) -> float | None:
        """Share of the cells of these true classes that were read as exactly their class."""
        total = matrix[rows].sum()
        return round(float(np.diag(matrix)[rows].sum()) / total, 5) if total else None

    kind_matrix = np.zeros((4, 4), np.int64)
    for t in range(len(CLASSES)):
        for r in range(len(CLASSES)):
            kind_matrix[kinds[t], kinds[r]] += matrix[t, r]
    return {
        "photos": n,
        "givens_right": sum(e["givens_right"] for e in entries),
        "solved_right": sum(e["solved_right"] for e in entries),
        "solved_wrong": sum(e["solved_wrong"] for e in entries),
        "unsure": sum(e["status"] == "unsure" for e in entries),
        "perfect": sum(1 for e in entries if not e["wrong_cells"] and not e["error"]),
        "no_grid": sum(1 for e in entries if e["error"]),
        "cell_accuracy": round(float(np.trace(matrix)) / max(matrix.sum(), 1), 5),
        "printed_accuracy": share(kinds == 1),
        "handwritten_accuracy": share(kinds == 2),
        "candidates_found": share(kinds == 3),
        "empty_accuracy": share(kinds == 0),
        "kind_confusion": kind_matrix.tolist(),
        **{
            key: sum(e[key] for e in entries)
            for key in (
                "handwritten",
                "handwritten_right",
                "kind_digits",
                "kind_right",
                "mistakes",
                "false_mistakes",
                "unclear",
                "unclear_right",
            )
        },
        "entries_read": (
            round(sum(e["handwritten_right"] for e in entries) / max(sum(e["handwritten"] for e in entries), 1), 5)
            if any(e["handwritten"] for e in entries)
            else None
        ),
        "printed_vs_written": (
            round(sum(e["kind_right"] for e in entries) / max(sum(e["kind_digits"] for e in entries), 1), 5)
        ),
        "confusion": matrix.tolist(),
        "mean_corner_error_px": (
            round(float(np.mean([e["corner_error"] for e in entries if e["corner_error"] is not None])), 2)
            if any(e["corner_error"] is not None for e in entries)
            else None
        ),
    }


def format_confusion(matrix: np.ndarray, labels: tuple[str, ...]) -> str:
    """A confusion matrix as a Markdown table (rows: truth, columns: read)."""
    head = "| truth \\ read | " + " | ".join(labels) + " |"
    rule = "|" + "---|" * (len(labels) + 1)
    rows = [
        f"| {labels[i]} | " + " | ".join(str(v) if v else "." for v in matrix[i]) + " |" for i in range(len(labels))
    ]
    return "\n".join([head, rule] + rows)


def run(args: argparse.Namespace) -> int:
    """Evaluate and print; exit status 0 (1 when the folder holds no labelled photo)."""
    photos = labelled_photos(args.directory)
    if args.split != "all":
        names = validation_names()
        photos = [p for p in photos if (p.name in names) == (args.split == "validation")]
    if not photos:
        print(f"snapsolve: no photo with an imageN.dat or NAME.cells beside it in {args.directory}", file=sys.stderr)
        return 1
    model = default_model()
    entries = []
    for i, photo in enumerate(photos, start=1):
        entries.append(evaluate_photo(photo, model))
        if sys.stderr.isatty():
            print(f"\r{i}/{len(photos)} photos", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    summary = summarize(entries)
    if args.json:
        print(json.dumps({"summary": summary, "photos": entries}))
        return 0
    for e in entries:
        if e["wrong_cells"] or e["error"] or not e["solved_right"]:
            cells = ", ".join(f"r{c // 9 + 1}c{c % 9 + 1} {t}->{r}" for c, t, r in e["wrong_cells"][:8])
            more = " ..." if len(e["wrong_cells"]) > 8 else ""
            outcome = "solved right" if e["solved_right"] else "SOLVED WRONG" if e["solved_wrong"] else e["status"]
            print(f"{e['photo']}: {e['error'] or outcome}; {len(e['wrong_cells'])} cells wrong: {cells}{more}")
    n = summary["photos"]

    def pct(v):
        return "-" if v is None else f"{100 * v:.2f}%"

    print(
        f"photos: {n}; every printed given right: {summary['givens_right']}; solved right: "
        f"{summary['solved_right']} ({100 * summary['solved_right'] / n:.1f}%); solved wrong: "
        f"{summary['solved_wrong']}; unsure: {summary['unsure']}; grid not found: {summary['no_grid']}"
    )
    print(
        f"cells: {pct(summary['cell_accuracy'])} right; printed {pct(summary['printed_accuracy'])}, handwritten "
        f"{pct(summary['handwritten_accuracy'])}, candidates {pct(summary['candidates_found'])}, empty "
        f"{pct(summary['empty_accuracy'])}"
    )
    print(
        f"entries (the player's digits, as read in the light of the solution): {pct(summary['entries_read'])} "
        f"of {summary['handwritten']} read right; printed versus written right: "
        f"{pct(summary['printed_vs_written'])} of {summary['kind_digits']} digits; mistakes reported: "
        f"{summary['mistakes']} ({summary['false_mistakes']} false); unclear entries asked about: "
        f"{summary['unclear']} ({summary['unclear_right']} of them right)"
    )
    if summary["mean_corner_error_px"] is not None:
        print(f"mean corner error: {summary['mean_corner_error_px']:.2f} px")
    print("\nkinds (rows: truth, columns: read):")
    print(format_confusion(np.array(summary["kind_confusion"]), KINDS))
    if args.confusion:
        print("\nclasses (rows: truth, columns: read):")
        print(format_confusion(np.array(summary["confusion"]), CLASSES))
    return 0
