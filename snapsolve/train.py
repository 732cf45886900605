"""``snapsolve train``: rebuild the cell model from the labelled photos and fonts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.dataset import labelled_photos
from vision.training import build_model, font_files

from .models import validation_names


def run(args: argparse.Namespace) -> int:
    """Fit and save the model; the validation split is never used. Exit status 0."""
    held_out = validation_names()
    folders = args.data or [Path("../shared/datasets/sudoku-photos-train"),
                            Path("../shared/datasets/sudoku-photos-inprogress-train")]
    photos = [p for folder in folders for p in labelled_photos(folder)]
    training = [p for p in photos if p.name not in held_out]
    print(f"training on {len(training)} photos ({len(photos) - len(training)} validation photos left out)",
          file=sys.stderr)
    fonts = font_files(args.fonts)
    model = build_model(training, fonts, k=args.k, progress=lambda msg: print(msg, file=sys.stderr))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.output)
    print(f"wrote {args.output}: {len(model.kind_labels)} marks, {len(model.printed_labels)} printed and "
          f"{len(model.handwritten_labels)} handwritten digits, k={model.k}", file=sys.stderr)
    return 0
