"""``snapsolve train``: rebuild the cell model from the labelled photos and fonts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .models import digit_model_path, validation_names
from .vision.dataset import labelled_photos
from .vision.training import build_model, font_files, listed_fonts

#: The training sets, looked for beside the source checkout this package runs
#: from (an editable install), never in the current folder.
SHARED_DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
DEFAULT_DATA = ("sudoku-photos-train", "sudoku-photos-inprogress-train")


def run(args: argparse.Namespace) -> int:
    """Fit and save the model; the validation split is never used. Exit status 0."""
    held_out = validation_names()
    folders = args.data or [SHARED_DATASETS / name for name in DEFAULT_DATA]
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        raise FileNotFoundError(
            f"training data {', '.join(missing)} not found; give the labelled photo folders "
            "with --data DIR (repeatable)"
        )
    photos = [p for folder in folders for p in labelled_photos(folder)]
    training = [p for p in photos if p.name not in held_out]
    print(
        f"training on {len(training)} photos ({len(photos) - len(training)} validation photos left out)",
        file=sys.stderr,
    )
    fonts = font_files(args.fonts, system=not args.no_system_fonts)
    handwriting = [] if args.no_system_fonts else listed_fonts("handwriting")
    model = build_model(
        training,
        fonts,
        k=args.k,
        progress=lambda msg: print(msg, file=sys.stderr),
        handwriting=handwriting,
        mnist=not args.no_system_fonts,
    )
    output = args.output or digit_model_path()
    output.parent.mkdir(parents=True, exist_ok=True)
    model.save(output)
    print(
        f"wrote {output}: {len(model.kind_labels)} marks, {len(model.printed_labels)} printed and "
        f"{len(model.handwritten_labels)} handwritten digits, k={model.k}",
        file=sys.stderr,
    )
    return 0
