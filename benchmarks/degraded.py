"""Dim, blurred, noisy and compressed photos, read back: exact readings and honest failures per degradation.

Each labelled photo of the two shared datasets (printed puzzles,
``sudoku-photos-train``; puzzles in progress,
``sudoku-photos-inprogress-train``) is decoded as the command decodes it (at
`snapsolve.pipeline.READ_SIDE`), degraded in one way at one strength
(`snapsolve.vision.degrade`), saved as a phone saves a photo (JPEG at quality
95; the JPEG rows at their own quality), and read, decided and solved by the
command's own pipeline (`snapsolve.evaluate.evaluate_photo`). The
strengths are said for a photo 640 pixels wide (the issue's photos, and most
of the printed ones); in a larger photo the blurs, the noise's grain and the
downscaled width grow with its longer side (a photo 1280 pixels long is
blurred twice as many pixels), so every photo loses the same share of its detail.

Per degradation and strength it prints, for each dataset: photos; exact (the
decided printed givens are the truth's); solved right; unsure; other (no or
several solutions, no grid found) and of those, no grid; solved wrong (must be 0); for puzzles in
progress, false mistakes (a right entry called wrong, must be 0); and the
median seconds a photo took. ``--split validation`` (the default) reads the
photos of ``models/validation.txt``, never tuned on; ``--split train`` the
others, for development. Usage::

    python benchmarks/degraded.py [--split validation] [--seed 1] [--only noise jpeg] [--photos N] [--save out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from snapsolve.evaluate import evaluate_photo
from snapsolve.models import validation_names
from snapsolve.pipeline import READ_SIDE, default_model
from snapsolve.vision import degrade, read_image
from snapsolve.vision.dataset import LabelledPhoto, labelled_photos
from snapsolve.vision.image_io import reduction_for

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
FOLDERS = {"printed": "sudoku-photos-train", "in progress": "sudoku-photos-inprogress-train"}
#: The width, pixels, that the strengths are said for.
REFERENCE_SIDE = 640
#: A phone's own JPEG quality, for every degraded photo but the JPEG rows'.
SAVED_QUALITY = 95

#: Per degradation: what its strengths measure, the strengths (mild, the issue's, harsher), and how to apply one
#: to a photo `scale` times as long as REFERENCE_SIDE.
DEGRADATIONS: dict[str, tuple[str, tuple, Callable[[np.ndarray, object, float, np.random.Generator], np.ndarray]]] = {
    "gaussian blur": (
        "sigma, px",
        (1.0, 2.0, 3.0),
        lambda image, sigma, scale, rng: degrade.gaussian_blur(image, sigma * scale),
    ),
    "motion blur": (
        "length, px",
        (5, 9, 13),
        lambda image, length, scale, rng: degrade.motion_blur(image, length * scale, rng.uniform(0, 180)),
    ),
    "sensor noise": (
        "sigma, grey levels",
        (10, 18, 25),
        lambda image, sigma, scale, rng: degrade.sensor_noise(image, sigma, rng, grain=scale),
    ),
    "jpeg": ("quality", (30, 15, 10), lambda image, quality, scale, rng: image),  # saved at that quality
    "underexposed": (
        "mean grey level",
        (40, 20, 12),
        lambda image, mean, scale, rng: degrade.underexposed(image, mean),
    ),
    "downscaled": (
        "width, px",
        (400, 320, 240),
        lambda image, width, scale, rng: degrade.downscaled(image, width / REFERENCE_SIDE),
    ),
    "underexposed and noisy": (
        "mean grey level / noise sigma",
        ((20, 3), (20, 6), (20, 10)),
        lambda image, strength, scale, rng: degrade.sensor_noise(
            degrade.underexposed(image, strength[0]), strength[1], rng, grain=scale
        ),
    ),
}
#: Each photo's outcome as ``--save`` writes it (besides ``wrong_cells``).
SAVED_FIELDS = ("givens_right", "status", "solved_wrong", "false_mistakes", "confidence")
#: The strength of each degradation that the issue measured (issue 74's table): its bar is met there.
ISSUE_STRENGTH = {
    "gaussian blur": 2.0,
    "motion blur": 9,
    "sensor noise": 18,
    "jpeg": 15,
    "underexposed": 20,
    "downscaled": 320,
    "underexposed and noisy": (20, 6),
}


def photos_of(split: str, limit: int | None, seed: int) -> dict[str, list[LabelledPhoto]]:
    """The labelled photos of each dataset in `split` (``validation``: ``models/validation.txt``; ``train``: the
    others), at most `limit` of each (a seeded choice, in name order)."""
    names = validation_names()
    out = {}
    for kind, folder in FOLDERS.items():
        if not (DATASETS / folder).is_dir():
            continue
        photos = [p for p in labelled_photos(DATASETS / folder) if (p.name in names) == (split == "validation")]
        if limit is not None and limit < len(photos):
            chosen = np.random.default_rng(seed).choice(len(photos), limit, replace=False)
            photos = [photos[i] for i in sorted(chosen)]
        out[kind] = photos
    return out


def strength_label(strength) -> str:
    """A strength as the table prints it: ``2`` or ``20 / 6``."""
    if isinstance(strength, tuple):
        return " / ".join(f"{v:g}" for v in strength)
    return f"{strength:g}"


def degraded_copy(photo: LabelledPhoto, name: str, strength, seed: int, folder: Path) -> LabelledPhoto:
    """`photo` decoded as the command decodes it, degraded by `name` at `strength`, saved as a JPEG in `folder`.

    The random draws are seeded by `seed`, the photo's name, the degradation
    and the strength, so each photo is degraded the same way in every run.
    The copy's corners are unknown (it may be smaller than the photo).
    """
    image = read_image(photo.image_path, reduction_for(photo.image_path, READ_SIDE))
    scale = max(image.shape[:2]) / REFERENCE_SIDE
    key = f"{photo.name}|{name}|{strength_label(strength)}".encode()
    rng = np.random.default_rng([seed, zlib.crc32(key)])
    _, _, apply = DEGRADATIONS[name]
    out = apply(image, strength, scale, rng)
    quality = int(strength) if name == "jpeg" else SAVED_QUALITY
    path = folder / f"{Path(photo.name).stem}-{zlib.crc32(key):08x}.jpg"
    degrade.jpeg_bytes(out, quality).tofile(str(path))
    return replace(photo, image_path=path, corners=None)


def outcome(task: tuple[LabelledPhoto, str, object, int, Path]) -> dict:
    """`evaluate_photo` of one photo (the photo itself when the strength is None, else its `degraded_copy`),
    with the default model; the degraded copy is removed after."""
    photo, name, strength, seed, folder = task
    read = photo if strength is None else degraded_copy(photo, name, strength, seed, folder)
    try:
        entry = evaluate_photo(read, default_model())
    finally:
        if read is not photo:
            read.image_path.unlink()
    entry["photo"] = photo.name
    return entry


def row(entries: list[dict], in_progress: bool) -> dict:
    """The table's figures for one degradation and strength over one dataset's photos."""
    solved_or_unsure = {"solved", "unsure"}
    out = {
        "photos": len(entries),
        "exact": sum(e["givens_right"] for e in entries),
        "solved right": sum(e["solved_right"] for e in entries),
        "unsure": sum(e["status"] == "unsure" for e in entries),
        "other": sum(e["status"] not in solved_or_unsure for e in entries),
        "no grid": sum(e["status"] is None for e in entries),
        "solved wrong": sum(e["solved_wrong"] for e in entries),
        "seconds": round(statistics.median(e["seconds"] for e in entries), 3) if entries else 0.0,
    }
    if in_progress:
        out["false mistakes"] = sum(e["false_mistakes"] for e in entries)
    return out


def print_table(kind: str, rows: list[tuple[str, str, dict]]) -> None:
    """One dataset's rows as a Markdown table."""
    in_progress = any("false mistakes" in r for _, _, r in rows)
    head = ["degradation", "strength", "photos", "exact", "solved right", "unsure", "other", "no grid", "solved wrong"]
    head += ["false mistakes"] if in_progress else []
    head += ["median s"]
    print(f"\n{kind}:\n")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, strength, r in rows:
        cells = [name, strength] + [str(r[h]) for h in head[2:-1]] + [f"{r['seconds']:.2f}"]
        print("| " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("validation", "train"), default="validation")
    parser.add_argument("--seed", type=int, default=1, help="seed of the degradations' random draws (default 1)")
    parser.add_argument("--only", nargs="+", choices=sorted(DEGRADATIONS), help="these degradations only")
    parser.add_argument("--issue-strength", action="store_true", help="each degradation at the issue's strength only")
    parser.add_argument("--photos", type=int, help="at most this many photos of each dataset (a seeded choice)")
    parser.add_argument("--no-none", action="store_true", help="leave out the undegraded photos' row")
    parser.add_argument("--jobs", type=int, default=1, help="photos read at once, in forked processes (default 1)")
    parser.add_argument("--save", type=Path, help="write every photo's outcome to this JSON file")
    args = parser.parse_args()
    datasets = photos_of(args.split, args.photos, args.seed)
    if not datasets:
        print(f"degraded.py: needs the photo datasets in {DATASETS}", file=sys.stderr)
        return 1
    default_model().build_index()  # before the workers fork: they share it
    runs: list[tuple[str, object]] = [] if args.no_none else [("none", None)]
    for name in args.only or DEGRADATIONS:
        strengths = (ISSUE_STRENGTH[name],) if args.issue_strength else DEGRADATIONS[name][1]
        runs += [(name, s) for s in strengths]
    saved: dict[str, dict] = {}
    tables: dict[str, list[tuple[str, str, dict]]] = {kind: [] for kind in datasets}
    with tempfile.TemporaryDirectory() as tmp, ProcessPoolExecutor(args.jobs, get_context("fork")) as pool:
        for name, strength in runs:
            label = "-" if strength is None else strength_label(strength)
            for kind, photos in datasets.items():
                tasks = [(photo, name, strength, args.seed, Path(tmp)) for photo in photos]
                entries = list(pool.map(outcome, tasks)) if args.jobs > 1 else [outcome(t) for t in tasks]
                tables[kind].append((name, label, row(entries, kind == "in progress")))
                saved[f"{kind}|{name}|{label}"] = {
                    e["photo"]: {k: e[k] for k in SAVED_FIELDS} | {"wrong_cells": e["wrong_cells"]} for e in entries
                }
                print(f"{kind}, {name} {label}: {tables[kind][-1][2]}", file=sys.stderr, flush=True)
    print(f"\nsplit {args.split}, seed {args.seed}; strengths for a photo {REFERENCE_SIDE} pixels wide")
    for kind, rows in tables.items():
        print_table(kind, rows)
    if args.save:
        args.save.write_text(json.dumps(saved, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
