"""Ink colour: a pen of another colour than the grid's print is told from the print on a real photo."""

import cv2
import numpy as np

from snapsolve.pipeline import decide, read_grids
from snapsolve.repair import PEN_CHROMA
from snapsolve.solver.exact import solve_unique
from snapsolve.vision.dataset import read_ground_truth
from snapsolve.vision.image_io import read_image
from snapsolve.vision.rectify import CELL_SIZE, GRID_SIZE

from .conftest import FIXTURE_PHOTOS

PHOTO = FIXTURE_PHOTOS / "image1031.jpg"
#: BGR of a blue ballpoint's ink.
BLUE = (160, 70, 25)


def _print_distances(reading, cells):
    """Distance of each cell's ink from the median ink of the grid's printed givens (chroma units)."""
    printed = [c for c in range(81) if reading.givens[c]]
    median = np.nanmedian(reading.inks[printed], axis=0)
    return np.linalg.norm(reading.inks[cells] - median, axis=1)


def _write_in_blue(photo, reading, digits):
    """The photo with `digits` {cell: digit} written in blue in a script face, placed through the grid's own
    perspective (drawn on the rectified grid, warped back to the photo)."""
    mask = np.zeros((GRID_SIZE, GRID_SIZE), np.uint8)
    for cell, digit in digits.items():
        r, c = divmod(cell, 9)
        origin = (int((c + 0.3) * CELL_SIZE), int((r + 0.78) * CELL_SIZE))
        cv2.putText(mask, str(digit), origin, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.6, 255, 3, cv2.LINE_AA)
    height, width = photo.shape[:2]
    seen = cv2.warpPerspective(mask, reading.rectified.inverse, (width, height), flags=cv2.INTER_LINEAR)
    alpha = (seen.astype(np.float32) / 255.0)[..., None]
    out = photo.astype(np.float32) * (1 - alpha) + np.float32(BLUE) * alpha
    return np.clip(out, 0, 255).astype(np.uint8)


def test_print_is_one_ink_and_a_blue_pen_another(model):
    """On a printed photo every given's ink lies within PEN_CHROMA of the print's; right digits written in
    blue pen into empty cells lie beyond it, and the decided puzzle keeps them out of the givens."""
    photo = read_image(PHOTO)
    truth = read_ground_truth(PHOTO.with_suffix(".dat"))
    reading = read_grids(photo, model)[0]
    assert reading.givens == truth
    printed = [c for c in range(81) if truth[c]]
    assert np.all(_print_distances(reading, printed) < PEN_CHROMA / 2)
    assert decide(reading, model=model).written == []

    solution = solve_unique(truth).solution
    assert solution is not None
    written = {c: solution[c] for c in range(81) if not truth[c]}
    written = dict(list(written.items())[::3])  # a third of the empty cells
    penned = read_grids(_write_in_blue(photo, reading, written), model)[0]
    assert np.all(_print_distances(penned, list(written)) > PEN_CHROMA)
    decision = decide(penned, model=model)
    assert decision.givens == truth and decision.solution == solution


def test_grey_photo_has_no_ink_colours(model):
    """Read in grey (no colour to compare), a reading carries no inks and decides as before."""
    gray = cv2.cvtColor(read_image(PHOTO), cv2.COLOR_BGR2GRAY)
    reading = read_grids(gray, model)[0]
    assert reading.inks is None and reading.ruling_ink is None
    assert reading.givens == read_ground_truth(PHOTO.with_suffix(".dat"))
