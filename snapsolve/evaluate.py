"""``snapsolve evaluate DIR``: reading accuracy against ``imageN.dat`` ground truth."""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from vision import ImageReadError, read_image
from vision.dataset import LabelledPhoto, labelled_photos
from vision.locate import order_corners

from .models import validation_names
from .pipeline import default_model, read_grids


def evaluate_photo(photo: LabelledPhoto, model) -> dict:
    """Read one labelled photo's main grid and compare it with the ground truth.

    Returns
    -------
    dict
        ``photo``, ``error`` (or None), ``wrong_cells`` (list of
        [cell, true digit, read digit], 0 for empty), ``rotation``,
        ``corner_error`` (mean distance in pixels between located and
        ground-truth corners, or None), ``seconds``.
    """
    start = time.perf_counter()
    entry = {"photo": photo.name, "error": None, "wrong_cells": [], "rotation": None, "corner_error": None}
    try:
        image = read_image(photo.image_path)
    except (ImageReadError, OSError) as exc:
        entry["error"] = f"cannot read image: {exc}"
        return entry
    readings = read_grids(image, model)
    if not readings:
        entry["error"] = "no grid found"
        entry["wrong_cells"] = [[i, d, 0] for i, d in enumerate(photo.givens) if d]
    else:
        main = readings[0]
        entry["rotation"] = main.rotation
        entry["wrong_cells"] = [[i, t, r] for i, (t, r) in enumerate(zip(photo.givens, main.digits)) if t != r]
        if photo.corners is not None:
            diff = order_corners(main.corners) - order_corners(photo.corners)
            entry["corner_error"] = round(float(np.linalg.norm(diff, axis=1).mean()), 2)
    entry["seconds"] = round(time.perf_counter() - start, 4)
    return entry


def summarize(entries: list[dict]) -> dict:
    """Share of photos read perfectly, cell accuracy, grids missed, mean corner error."""
    n = len(entries)
    wrong = sum(len(e["wrong_cells"]) for e in entries)
    corner = [e["corner_error"] for e in entries if e["corner_error"] is not None]
    return {
        "photos": n,
        "perfect": sum(1 for e in entries if not e["wrong_cells"] and not e["error"]),
        "perfect_share": round(sum(1 for e in entries if not e["wrong_cells"] and not e["error"]) / max(n, 1), 4),
        "cell_accuracy": round(1 - wrong / max(81 * n, 1), 5),
        "no_grid": sum(1 for e in entries if e["error"]),
        "mean_corner_error_px": round(float(np.mean(corner)), 2) if corner else None,
    }


def run(args: argparse.Namespace) -> int:
    """Evaluate and print; exit status 0 (1 when the folder holds no labelled photo)."""
    photos = labelled_photos(args.directory)
    if args.split != "all":
        names = validation_names()
        photos = [p for p in photos if (p.name in names) == (args.split == "validation")]
    if not photos:
        print(f"snapsolve: no photo with an imageN.dat beside it in {args.directory}", file=sys.stderr)
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
        if e["wrong_cells"] or e["error"]:
            cells = ", ".join(f"r{c // 9 + 1}c{c % 9 + 1} {t}->{r}" for c, t, r in e["wrong_cells"][:9])
            more = " ..." if len(e["wrong_cells"]) > 9 else ""
            print(f"{e['photo']}: {e['error'] or ''}{len(e['wrong_cells'])} wrong: {cells}{more}")
    print(f"photos read perfectly: {summary['perfect']}/{summary['photos']} ({100 * summary['perfect_share']:.1f}%)")
    print(f"cell accuracy: {100 * summary['cell_accuracy']:.2f}%   grids not found: {summary['no_grid']}")
    if summary["mean_corner_error_px"] is not None:
        print(f"mean corner error: {summary['mean_corner_error_px']:.2f} px")
    return 0
