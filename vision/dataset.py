"""Photo datasets with ground truth: ``imageN.jpg`` beside ``imageN.dat``.

The ``.dat`` format (Wicht and Hennebert's sudoku_dataset): two header lines
(phone model, image format), then 9 lines of 9 space-separated digits, 0 for
empty, upright. An optional ``outlines.csv`` gives the grid's four corners per
photo (columns filepath, p1_x, p1_y .. p4_x, p4_y; TL TR BR BL as seen).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo and its ground truth.

    Attributes
    ----------
    image_path : Path
    givens : list of int
        81 values, upright, 0 for empty.
    corners : np.ndarray or None
        Shape (4, 2) float32 pixels from outlines.csv, or None.
    """

    image_path: Path
    givens: list[int]
    corners: np.ndarray | None

    @property
    def name(self) -> str:
        """File name of the photo, e.g. ``image12.jpg``."""
        return self.image_path.name


def read_ground_truth(path: str | Path) -> list[int]:
    """Read an ``imageN.dat`` file into 81 values (0 for empty).

    Raises
    ------
    ValueError
        The file does not hold 9 rows of 9 digits after its two header lines.
    """
    lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    values = [int(tok) for line in lines[2:] for tok in line.split()]
    if len(values) != 81 or any(not 0 <= v <= 9 for v in values):
        raise ValueError(f"{path}: expected 9 rows of 9 digits 0-9 after two header lines")
    return values


def write_ground_truth(path: str | Path, givens: list[int], header: tuple[str, str] = ("synthetic", "")) -> None:
    """Write 81 values as an ``imageN.dat`` file (two header lines, 9 rows)."""
    rows = [" ".join(str(v) for v in givens[r * 9 : r * 9 + 9]) + " " for r in range(9)]
    Path(path).write_text("\n".join(list(header) + rows) + "\n", encoding="utf-8")


def read_outlines(folder: str | Path) -> dict[str, np.ndarray]:
    """Corners from ``outlines.csv`` by photo file name; empty when there is none."""
    path = Path(folder) / "outlines.csv"
    if not path.exists():
        return {}
    out = {}
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            pts = [[float(row[f"p{i}_x"]), float(row[f"p{i}_y"])] for i in range(1, 5)]
            out[Path(row["filepath"]).name] = np.array(pts, dtype=np.float32)
    return out


def labelled_photos(folder: str | Path) -> list[LabelledPhoto]:
    """Every photo in `folder` that has a ``.dat`` beside it, sorted by name.

    Raises
    ------
    FileNotFoundError
        `folder` is not a directory.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a directory")
    outlines = read_outlines(folder)
    photos = []
    for image_path in sorted(folder.iterdir()):
        if image_path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        dat = image_path.with_suffix(".dat")
        if dat.exists():
            photos.append(LabelledPhoto(image_path, read_ground_truth(dat), outlines.get(image_path.name)))
    return photos
