"""``snapsolve train``: rebuild the cell model from the labelled photos and fonts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import SetupError
from .models import digit_model_path, validation_names
from .vision.dataset import labelled_photos
from .vision.training import build_model, font_files, listed_fonts

#: The training sets (labelled photo folders) used when ``--data`` names none.
DEFAULT_DATA = ("sudoku-photos-train", "sudoku-photos-inprogress-train")


def data_places(cwd: Path | None = None) -> list[Path]:
    """Where the DEFAULT_DATA folders are looked for: ``shared/datasets`` beside the current folder (a
    checkout's root beside the shared data: ``../shared/datasets``), then, when this package runs from a
    source checkout (an editable install), beside that checkout."""
    places = [(cwd or Path.cwd()).resolve().parent / "shared" / "datasets"]
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file():
        places.append(checkout.parent / "shared" / "datasets")
    return list(dict.fromkeys(places))


def default_data(cwd: Path | None = None) -> list[Path]:
    """The DEFAULT_DATA folders in the first of `data_places` that holds them all.

    Raises
    ------
    SetupError
        None holds them: one line saying what is needed and where it was looked for.
    """
    places = data_places(cwd)
    for place in places:
        if all((place / name).is_dir() for name in DEFAULT_DATA):
            return [place / name for name in DEFAULT_DATA]
    raise SetupError(
        f"training needs the labelled photo folders {' and '.join(DEFAULT_DATA)}; not found in "
        f"{' or '.join(map(str, places))}; give them with --data DIR (repeatable)"
    )


def run(args: argparse.Namespace) -> int:
    """Fit and save the model; the validation split is never used. Exit status 0."""
    held_out = validation_names()
    folders = args.data or default_data()
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
