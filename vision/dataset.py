"""Photo datasets with ground truth, in the two formats of `docs/DESIGN.md`.

- ``imageN.jpg`` beside ``imageN.dat`` (Wicht and Hennebert's sudoku_dataset):
  two header lines (phone model, image format), then 9 lines of 9
  space-separated digits, 0 for empty, upright. An optional ``outlines.csv``
  gives the grid's four corners per photo (columns filepath, p1_x, p1_y ..
  p4_x, p4_y; TL TR BR BL as seen in the photo).
- ``NAME.jpg`` beside ``NAME.cells`` (photos of puzzles in progress): 9 lines
  of 9 tokens, upright: ``1``-``9`` printed, ``h1``-``h9`` handwritten, ``c``
  pencilled candidates, ``.`` empty. An optional ``corners.csv`` gives the
  corners (columns name, x_tl, y_tl .. x_bl, y_bl) of the *upright* grid, so
  it also tells the photo's orientation.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import Failure, Kind
from .classes import CLASSES
from .formats import IMAGE_SUFFIXES


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo and its ground truth.

    Attributes
    ----------
    image_path : Path
    cells : list of int
        81 class columns of `vision.classes.CLASSES`, upright (a ``.dat``
        file gives printed digits and empty cells only).
    corners : np.ndarray or None
        Shape (4, 2) float32 pixels, TL TR BR BL as they appear in the photo.
    rotation : int or None
        Degrees the photo is turned (as in `vision.rectify.rectify`), when the
        ground truth says; None when it must be found by matching.
    """

    image_path: Path
    cells: list[int]
    corners: np.ndarray | None = None
    rotation: int | None = None

    @property
    def name(self) -> str:
        """File name of the photo, e.g. ``image12.jpg``."""
        return self.image_path.name

    @property
    def givens(self) -> list[int]:
        """The printed digits: 81 values, 0 elsewhere."""
        return [c if 1 <= c <= 9 else 0 for c in self.cells]

    @property
    def puzzle(self) -> str:
        """The printed puzzle as 81 characters (``.`` for no printed digit): photos of one puzzle share it."""
        return "".join(str(d) if d else "." for d in self.givens)


class LabelFileError(Failure, ValueError):
    """A label file (``imageN.dat``, ``NAME.cells``) that does not hold a grid's 81 cells (`Kind.NOT_A_PUZZLE`)."""

    kind = Kind.NOT_A_PUZZLE


def read_ground_truth(path: str | Path) -> list[int]:
    """Read an ``imageN.dat`` file into 81 values (0 for empty).

    Raises
    ------
    LabelFileError
        The file does not hold 9 rows of 9 digits after its two header lines (a ValueError).
    """
    lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    values = [int(tok) for line in lines[2:] for tok in line.split() if tok.isdigit()]
    if len(values) != 81 or any(not 0 <= v <= 9 for v in values):
        raise LabelFileError(f"{path}: expected 9 rows of 9 digits 0-9 after two header lines")
    return values


def read_cell_labels(path: str | Path) -> list[int]:
    """Read a ``NAME.cells`` file into 81 class columns of `vision.classes.CLASSES`.

    Raises
    ------
    LabelFileError
        The file does not hold 81 tokens from ``.``, ``1``-``9``, ``h1``-``h9``, ``c``.
    """
    tokens = Path(path).read_text(encoding="utf-8", errors="replace").split()
    if len(tokens) != 81 or any(t not in CLASSES for t in tokens):
        raise LabelFileError(f"{path}: expected 9 rows of 9 tokens from '.', 1-9, h1-h9, c")
    return [CLASSES.index(t) for t in tokens]


def read_outlines(folder: str | Path) -> dict[str, np.ndarray]:
    """Corners (as seen) from ``outlines.csv`` by photo file name; empty when there is none."""
    path = Path(folder) / "outlines.csv"
    if not path.exists():
        return {}
    out = {}
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            pts = [[float(row[f"p{i}_x"]), float(row[f"p{i}_y"])] for i in range(1, 5)]
            out[Path(row["filepath"]).name] = np.array(pts, dtype=np.float32)
    return out


def read_upright_corners(folder: str | Path) -> dict[str, np.ndarray]:
    """Corners of the upright grid (TL TR BR BL as the puzzle reads) from ``corners.csv``; empty when none."""
    path = Path(folder) / "corners.csv"
    if not path.exists():
        return {}
    out = {}
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            pts = [[float(row[f"x_{c}"]), float(row[f"y_{c}"])] for c in ("tl", "tr", "br", "bl")]
            out[Path(row["name"]).name] = np.array(pts, dtype=np.float32)
    return out


def as_seen(upright: np.ndarray) -> tuple[np.ndarray, int]:
    """Corners of the upright grid -> (corners TL TR BR BL as seen in the photo, rotation in degrees).

    The photo corner that is nearest the image origin (smallest x + y) is
    the top-left as seen; the number of places the upright order is shifted
    from it gives the rotation (`vision.rectify.rectify`'s convention).
    """
    first = int(np.argmin(upright.sum(axis=1)))  # index, in upright order, of the corner seen top-left
    seen = np.roll(upright, -first, axis=0)
    # rectify(rotation) takes seen corner (k + rotation / 90) as upright corner k.
    return seen.astype(np.float32), (-first % 4) * 90


def labelled_photos(folder: str | Path) -> list[LabelledPhoto]:
    """Every photo in `folder` with a ``.dat`` or ``.cells`` file beside it, sorted by name.

    Raises
    ------
    FileNotFoundError
        `folder` is not a directory.
    ValueError
        A label file is malformed.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a directory")
    outlines = read_outlines(folder)
    upright = read_upright_corners(folder)
    photos = []
    for image_path in sorted(folder.iterdir()):
        if image_path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        dat, cells = image_path.with_suffix(".dat"), image_path.with_suffix(".cells")
        if cells.exists():
            corners, rotation = None, None
            if image_path.name in upright:
                corners, rotation = as_seen(upright[image_path.name])
            photos.append(LabelledPhoto(image_path, read_cell_labels(cells), corners, rotation))
        elif dat.exists():
            photos.append(LabelledPhoto(image_path, read_ground_truth(dat), outlines.get(image_path.name)))
    return photos
