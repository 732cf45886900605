"""``snapsolve evaluate DIR``: reading accuracy against ``imageN.dat`` or ``NAME.cells`` ground truth.

Every labelled photo is read as ``snapsolve`` reads it (grid located, cells
classified, consistency repair, solved) and compared cell by cell with its
labels. Reported: photos whose printed givens are all right, photos solved
right and solved wrong, accuracy over all cells and per kind (printed,
handwritten digits, candidates, empty), and the confusion matrix over every
class of `vision.digits.CLASSES`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from .solver import SOLVED, solve_unique
from .vision import ImageReadError, read_image
from .vision.dataset import LabelledPhoto, labelled_photos
from .vision.digits import CLASSES, KINDS, kind_of
from .vision.locate import order_corners

from .models import validation_names
from .pipeline import decide, default_model, read_grids


def evaluate_photo(photo: LabelledPhoto, model) -> dict:
    """Read one labelled photo's main grid and compare it with the ground truth.

    Returns
    -------
    dict
        ``photo``; ``error`` (or None); ``truth`` and ``read`` (81 class
        columns each, ``read`` None when no grid was found); ``wrong_cells``
        ([cell, true class, read class] with classes as ``.cells`` tokens);
        ``givens_right`` (every printed given read right, none added);
        ``status`` of the decided puzzle; ``solved_right`` / ``solved_wrong``
        (solved, with the true solution or another); ``rotation``;
        ``corner_error`` (mean distance in pixels between located and
        ground-truth corners, or None); ``seconds``.
    """
    start = time.perf_counter()
    entry = {"photo": photo.name, "error": None, "truth": photo.cells, "read": None, "wrong_cells": [],
             "givens_right": False, "status": None, "solved_right": False, "solved_wrong": False,
             "rotation": None, "corner_error": None}
    try:
        image = read_image(photo.image_path)
    except (ImageReadError, OSError) as exc:
        entry["error"] = f"cannot read image: {exc}"
        return entry
    readings = read_grids(image, model)
    if not readings:
        entry["error"] = "no grid found"
        entry["wrong_cells"] = [[i, CLASSES[t], "."] for i, t in enumerate(photo.cells) if t]
    else:
        main = readings[0]
        read = main.classes
        entry["read"] = read
        entry["rotation"] = main.rotation
        entry["wrong_cells"] = [[i, CLASSES[t], CLASSES[r]] for i, (t, r) in enumerate(zip(photo.cells, read)) if t != r]
        decision = decide(main)
        entry["givens_right"] = decision.givens == photo.givens
        entry["status"] = decision.status
        if decision.status == SOLVED:
            truth = solve_unique(photo.givens)
            right = truth.status == SOLVED and decision.solution == truth.solution
            entry["solved_right"], entry["solved_wrong"] = right, not right
        if photo.corners is not None:
            diff = order_corners(main.corners) - order_corners(photo.corners)
            entry["corner_error"] = round(float(np.linalg.norm(diff, axis=1).mean()), 2)
    entry["seconds"] = round(time.perf_counter() - start, 4)
    return entry


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
        "confusion": matrix.tolist(),
        "mean_corner_error_px": (round(float(np.mean([e["corner_error"] for e in entries
                                                     if e["corner_error"] is not None])), 2)
                                 if any(e["corner_error"] is not None for e in entries) else None),
    }


def format_confusion(matrix: np.ndarray, labels: tuple[str, ...]) -> str:
    """A confusion matrix as a Markdown table (rows: truth, columns: read)."""
    head = "| truth \\ read | " + " | ".join(labels) + " |"
    rule = "|" + "---|" * (len(labels) + 1)
    rows = [f"| {labels[i]} | " + " | ".join(str(v) if v else "." for v in matrix[i]) + " |" for i in range(len(labels))]
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

    print(f"photos: {n}; every printed given right: {summary['givens_right']}; solved right: "
          f"{summary['solved_right']} ({100 * summary['solved_right'] / n:.1f}%); solved wrong: "
          f"{summary['solved_wrong']}; unsure: {summary['unsure']}; grid not found: {summary['no_grid']}")
    print(f"cells: {pct(summary['cell_accuracy'])} right; printed {pct(summary['printed_accuracy'])}, handwritten "
          f"{pct(summary['handwritten_accuracy'])}, candidates {pct(summary['candidates_found'])}, empty "
          f"{pct(summary['empty_accuracy'])}")
    if summary["mean_corner_error_px"] is not None:
        print(f"mean corner error: {summary['mean_corner_error_px']:.2f} px")
    print("\nkinds (rows: truth, columns: read):")
    print(format_confusion(np.array(summary["kind_confusion"]), KINDS))
    if args.confusion:
        print("\nclasses (rows: truth, columns: read):")
        print(format_confusion(np.array(summary["confusion"]), CLASSES))
    return 0
