"""Build the digit model: real cells from labelled photos plus digits rendered in fonts.

Real cells are cut from the training photos (never the validation split) using
their ground-truth outlines when present, read at the orientation where the
inked cells match the ground truth's givens. Rendered digits come from the
TrueType fonts that matplotlib ships (DejaVu, STIX, Computer Modern), and any
``.ttf``/``.otf`` under extra font folders, drawn with Pillow at varied size,
weight, offset, blur and noise, and sent through the same cell pipeline as a
photo's cells so that features match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from .cells import binarize_grid, digit_in_cell, find_cell_ink, remove_ruling
from .dataset import LabelledPhoto
from .digits import DigitModel, features_of
from .locate import locate_grids, order_corners
from .rectify import CELL_SIZE, rectify, rotate_cells

#: Fonts in matplotlib's mpl-data that have ordinary digits.
MATPLOTLIB_FONTS = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansDisplay.ttf",
    "STIXGeneral.ttf", "STIXGeneralBol.ttf", "STIXGeneralItalic.ttf", "cmr10.ttf", "cmss10.ttf",
    "cmtt10.ttf", "cmb10.ttf",
)


def choose_validation_split(photos: list[LabelledPhoto], target: int = 32) -> list[str]:
    """A fixed validation split of about `target` photos, grouped by puzzle.

    Photos of the same puzzle (equal ground truth) go to the same side, so the
    validation photos show puzzles never seen in training. Groups are taken in
    the order of the SHA-1 of their puzzle string until `target` photos are
    reached: the choice depends on the data alone, not on any result.

    Returns
    -------
    list of str
        Photo file names, sorted.
    """
    groups: dict[str, list[str]] = {}
    for p in photos:
        key = "".join(map(str, p.givens))
        groups.setdefault(key, []).append(p.name)
    chosen: list[str] = []
    for key in sorted(groups, key=lambda k: hashlib.sha1(k.encode()).hexdigest()):
        if len(chosen) >= target:
            break
        chosen.extend(groups[key])
    return sorted(chosen)


def best_rotation(has_ink: np.ndarray, givens: list[int]) -> int:
    """Rotation (degrees) at which an ink mask read at rotation 0 best matches the givens."""
    truth = np.array(givens) > 0
    agreement = [int((rotate_cells(has_ink, r) == truth).sum()) for r in (0, 90, 180, 270)]
    return 90 * int(np.argmax(agreement))


def photo_samples(photo: LabelledPhoto) -> tuple[list[np.ndarray], list[int]]:
    """Upright digit crops and their labels from one labelled photo.

    Uses the photo's ground-truth corners when known, else the best located
    grid. Returns empty lists when the photo cannot be read.
    """
    image = cv2.imread(str(photo.image_path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        return [], []
    corners = photo.corners
    if corners is None:
        found = locate_grids(image)
        if not found:
            return [], []
        corners = found[0].corners
    flat = rectify(image, order_corners(corners), 0)
    ink = find_cell_ink(flat.image)
    rotation = best_rotation(ink.has_ink, photo.givens)
    turn = rotation // 90
    # Cell index at rotation 0 -> upright cell index.
    upright_index = rotate_cells(np.arange(81), rotation)
    position = {int(old): new for new, old in enumerate(upright_index)}
    crops, labels = [], []
    for old in np.flatnonzero(ink.has_ink):
        label = photo.givens[position[int(old)]]
        if label:
            crops.append(np.ascontiguousarray(np.rot90(ink.crops[old], k=turn)))
            labels.append(label)
    return crops, labels


def font_files(extra_dirs: Iterable[str | Path] = ()) -> list[Path]:
    """The TrueType fonts to render digits with.

    Raises
    ------
    ImportError
        matplotlib (the ``train`` extra) is not installed.
    """
    import matplotlib

    base = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    fonts = [base / name for name in MATPLOTLIB_FONTS if (base / name).exists()]
    for folder in extra_dirs:
        fonts += sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in {".ttf", ".otf"})
    return fonts


def render_samples(fonts: list[Path], per_digit_per_font: int = 12, seed: int = 0) -> tuple[list[np.ndarray], list[int]]:
    """Digits 1..9 rendered in each font and cut by the photo cell pipeline.

    Parameters
    ----------
    fonts : list of Path
        TrueType/OpenType font files.
    per_digit_per_font : int
        Variants of each digit per font (size, weight, offset, blur, noise).
    seed : int
        Random seed; the same seed gives the same samples.

    Returns
    -------
    (list of np.ndarray, list of int)
        Binary digit crops (uint8, 255 = ink) and their digits.
    """
    from PIL import Image, ImageDraw, ImageFont

    rng = np.random.default_rng(seed)
    n = CELL_SIZE
    crops, labels = [], []
    for font_path in fonts:
        for digit in range(1, 10):
            for _ in range(per_digit_per_font):
                size = int(rng.uniform(0.5, 0.8) * n * 1.3)
                try:
                    font = ImageFont.truetype(str(font_path), size)
                except OSError:
                    break
                canvas = Image.new("L", (3 * n, 3 * n), 255)
                draw = ImageDraw.Draw(canvas)
                cx = 1.5 * n + rng.uniform(-0.08, 0.08) * n
                cy = 1.5 * n + rng.uniform(-0.08, 0.08) * n
                draw.text((cx, cy), str(digit), fill=int(rng.uniform(0, 90)), font=font, anchor="mm")
                cell = np.asarray(canvas, dtype=np.uint8).copy()
                weight = rng.integers(-1, 2)
                if weight:
                    op = cv2.erode if weight > 0 else cv2.dilate  # erode the white paper = bolder ink
                    cell = op(cell, np.ones((2, 2), np.uint8))
                angle = rng.uniform(-4, 4)
                M = cv2.getRotationMatrix2D((1.5 * n, 1.5 * n), angle, 1.0)
                cell = cv2.warpAffine(cell, M, (3 * n, 3 * n), borderValue=255)
                blur = rng.choice([0, 3, 5])
                if blur:
                    cell = cv2.GaussianBlur(cell, (blur, blur), 0)
                cell = np.clip(cell + rng.normal(0, 6, cell.shape), 0, 255).astype(np.uint8)
                ink = remove_ruling(binarize_grid(cell))[n : 2 * n, n : 2 * n]
                crop, _ = digit_in_cell(ink)
                if crop is not None:
                    crops.append(crop)
                    labels.append(digit)
    return crops, labels


def build_model(
    photos: list[LabelledPhoto],
    fonts: list[Path],
    k: int = 5,
    progress: Callable[[str], None] | None = None,
) -> DigitModel:
    """Fit the digit model from training photos and rendered fonts.

    Parameters
    ----------
    photos : list of LabelledPhoto
        Training photos only (the caller leaves the validation split out).
    fonts : list of Path
        Font files for rendered digits (may be empty).
    k : int
        Neighbours for the KNN classifier.
    progress : callable, optional
        Called with a short status line now and then.

    Returns
    -------
    DigitModel
    """
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for i, photo in enumerate(photos):
        c, l = photo_samples(photo)
        crops += c
        labels += l
        if progress and (i + 1) % 20 == 0:
            progress(f"cut cells from {i + 1}/{len(photos)} photos ({len(crops)} digits)")
    if fonts:
        c, l = render_samples(fonts)
        crops += c
        labels += l
        if progress:
            progress(f"rendered {len(c)} digits in {len(fonts)} fonts")
    if not crops:
        raise ValueError("no training digits: no photo could be read and no font was given")
    return DigitModel(features_of(crops), np.array(labels, dtype=np.int64), k)
