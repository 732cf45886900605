"""Build the digit model: real cells from labelled photos plus digits rendered in fonts.

Real cells are cut from the training photos (never the validation split) using
their ground-truth outlines when present, read at the orientation where the
inked cells match the ground truth's givens (ties, common because clue
patterns are symmetric, broken by a model fitted on the rendered digits). Rendered digits come from the
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

from .cells import CellInk, binarize_grid, digit_in_cell, find_cell_ink, remove_ruling
from .dataset import LabelledPhoto
from .digits import DigitModel, features_of
from .locate import locate_grids, order_corners
from .rectify import CELL_SIZE, rectify, rotate_cells

#: Fonts in matplotlib's mpl-data that have ordinary digits.
MATPLOTLIB_FONTS = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
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


def best_rotation(ink: CellInk, givens: list[int], reference: DigitModel | None = None) -> int:
    """Rotation (degrees) at which cells read at rotation 0 match the ground truth.

    The inked cells are matched against the givens first. Clue patterns are
    usually symmetric under a half turn, so ties are broken by how many crops
    a `reference` model (for example one fitted on rendered fonts only) reads
    as the ground-truth digit at each candidate rotation.

    Parameters
    ----------
    ink : CellInk
        Cells of the grid rectified at rotation 0.
    givens : list of int
        81 upright ground-truth values.
    reference : DigitModel, optional
        Classifier used to break ties; without it the first tied rotation wins.

    Returns
    -------
    int
        0, 90, 180 or 270.
    """
    truth = np.array(givens) > 0
    agreement = [int((rotate_cells(ink.has_ink, r) == truth).sum()) for r in (0, 90, 180, 270)]
    tied = [r for r, a in zip((0, 90, 180, 270), agreement) if a == max(agreement)]
    if len(tied) == 1 or reference is None:
        return tied[0]
    scores = []
    for rotation in tied:
        crops, labels = _upright_samples(ink, givens, rotation)
        probs = reference.predict_proba(features_of(crops))
        scores.append(int((probs.argmax(axis=1) + 1 == np.array(labels)).sum()))
    return tied[int(np.argmax(scores))]


def _upright_samples(ink: CellInk, givens: list[int], rotation: int) -> tuple[list[np.ndarray], list[int]]:
    """Crops turned upright and their ground-truth digits, for inked cells with a given."""
    turn = rotation // 90
    upright_index = rotate_cells(np.arange(81), rotation)
    position = {int(old): new for new, old in enumerate(upright_index)}
    crops, labels = [], []
    for old in np.flatnonzero(ink.has_ink):
        label = givens[position[int(old)]]
        if label:
            crops.append(np.ascontiguousarray(np.rot90(ink.crops[old], k=turn)))
            labels.append(label)
    return crops, labels


def photo_samples(photo: LabelledPhoto, reference: DigitModel | None = None) -> tuple[list[np.ndarray], list[int]]:
    """Upright digit crops and their labels from one labelled photo.

    Uses the photo's ground-truth corners when known, else the best located
    grid; `reference` breaks orientation ties (see `best_rotation`). Returns
    empty lists when the photo cannot be read.
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
    ink = find_cell_ink(rectify(image, order_corners(corners), 0).image)
    return _upright_samples(ink, photo.givens, best_rotation(ink, photo.givens, reference))


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
    reference = None
    if fonts:
        crops, labels = render_samples(fonts)
        if progress:
            progress(f"rendered {len(crops)} digits in {len(fonts)} fonts")
        if crops:
            reference = DigitModel(features_of(crops), np.array(labels, dtype=np.int64), k)
    for i, photo in enumerate(photos):
        c, l = photo_samples(photo, reference)
        crops += c
        labels += l
        if progress and (i + 1) % 20 == 0:
            progress(f"cut cells from {i + 1}/{len(photos)} photos ({len(crops)} digits in all)")
    if not crops:
        raise ValueError("no training digits: no photo could be read and no font was given")
    return DigitModel(features_of(crops), np.array(labels, dtype=np.int64), k)
