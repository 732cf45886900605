"""Pencilled candidates read, against labels made by eye, on the in-progress photos of one split.

Usage: python benchmarks/pencil_marks.py [DIR] [--split validation|training|both]

Every cell that a photo's ``.cells`` labels call candidates (``c``) is read
by `vision.pencil.read_pencil_marks` on the grid as the command reads it, and
compared with ``benchmarks/data/pencil_SPLIT.txt`` (the digits read by eye
from the rectified cells: photo, upright cell, digits). Reported: cells read
right in full, read with a wrong digit (must be 0: a wrong candidate list is
a guess) and left unread (None, which the command shows as "(unread)"; a cell
is read in full or not at all, so a cell read in part is unread). The rule's
thresholds are chosen on the training split; the validation split is
reported.

    python benchmarks/pencil_marks.py
    python benchmarks/pencil_marks.py --split training
    python benchmarks/pencil_marks.py --split both
"""

from __future__ import annotations

import argparse
from pathlib import Path

from snapsolve.models import validation_names
from snapsolve.pipeline import READ_SIDE, decode_photo, default_model, read_grids
from snapsolve.vision.classes import CANDIDATES_CLASS
from snapsolve.vision.dataset import labelled_photos
from snapsolve.vision.image_io import reduction_for
from snapsolve.vision.pencil import read_pencil_marks

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT.parent / "shared" / "datasets" / "sudoku-photos-inprogress-train"
LABELS = Path(__file__).parent / "data" / "pencil_{split}.txt"


def read_labels(path: Path) -> dict[tuple[str, int], str]:
    """{(photo name, cell): digits} from a labels file (lines ``NAME CELL DIGITS``, ``#`` comments)."""
    labels = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, cell, digits = line.split()
            labels[(name, int(cell))] = digits
    return labels


def score(directory: Path, split: str, model) -> tuple[int, list[str], int]:
    """(cells read right in full, the cells read with a wrong digit described, cells unread) on one split."""
    labels = read_labels(Path(str(LABELS).format(split=split)))
    validation = validation_names()
    right, wrong, unread = 0, [], 0
    for photo in labelled_photos(directory):
        if (photo.image_path.name in validation) != (split == "validation"):
            continue
        image, colour = decode_photo(photo.image_path, reduction_for(photo.image_path, READ_SIDE))  # as the command
        readings = read_grids(image, model, colour)
        cells = [c for c in range(81) if photo.cells[c] == CANDIDATES_CLASS]
        read = read_pencil_marks(readings[0].rectified.image, cells, model) if readings else [None] * len(cells)
        for cell, digits in zip(cells, read):
            truth = labels[(photo.image_path.name, cell)]
            if digits is None:
                unread += 1
            elif digits == truth:
                right += 1
            else:
                wrong.append(f"{photo.image_path.name} r{cell // 9 + 1}c{cell % 9 + 1}: read {digits}, is {truth}")
    return right, wrong, unread


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--split", choices=("validation", "training", "both"), default="validation")
    args = parser.parse_args()
    model = default_model()
    failed = False
    for split in ("training", "validation") if args.split == "both" else (args.split,):
        right, wrong, unread = score(args.directory, split, model)
        total = right + len(wrong) + unread
        print(
            f"{split}: {total} cells of candidates: {right} read right in full ({100 * right / max(total, 1):.1f}%), "
            f"{len(wrong)} with a wrong digit, {unread} unread"
        )
        for line in wrong:
            print("  wrong: " + line)
        failed = failed or bool(wrong)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
