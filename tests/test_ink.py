"""Ink colour: a pen of another colour than the grid's print is told from the print on a real photo."""

import cv2
import numpy as np

from snapsolve.pipeline import READ_SIDE, decide, decode_photo, read_grids
from snapsolve.repair.looks import PEN_CHROMA
from snapsolve.solver.exact import solve_unique
from snapsolve.vision.dataset import read_cell_labels, read_ground_truth
from snapsolve.vision.image_io import read_image, reduction_for
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


def _write_in_blue(photo, reading, digits, thickness=3):
    """The photo with `digits` {cell: digit} written in blue in a script face (strokes `thickness` pixels of
    the rectified grid), placed through the grid's own perspective (drawn on the rectified grid, warped back
    to the photo)."""
    mask = np.zeros((GRID_SIZE, GRID_SIZE), np.uint8)
    for cell, digit in digits.items():
        r, c = divmod(cell, 9)
        origin = (int((c + 0.3) * CELL_SIZE), int((r + 0.78) * CELL_SIZE))
        cv2.putText(mask, str(digit), origin, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.6, 255, thickness, cv2.LINE_AA)
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


def test_a_photo_read_reduced_measures_its_ink_from_a_colour_decode_half_its_size(model, tmp_path):
    """A 12-megapixel photo is read from its JPEG's own grey at half size and its ink colours from a colour
    decode at a quarter (`pipeline.decode_photo`): a thin blue pen (some 4 pixels wide in the full photo)
    still lies far beyond PEN_CHROMA from the print, at least 85% as far as a colour decode at the grey's
    size measures it, and every other mark's ink is within 2 chroma units of what that decode measures."""
    source = FIXTURE_PHOTOS / "02_18_honor_view_10_1.jpg"
    cells = read_cell_labels(source.with_suffix(".cells"))
    reduce = reduction_for(source, READ_SIDE)
    assert reduce == 2
    gray, colour = decode_photo(source, reduce)
    reading = read_grids(gray, model, colour)[0]
    empty = [c for c in range(81) if cells[c] == 0][::2]
    full = _write_in_blue(read_image(source), reading.scaled(reduce), dict.fromkeys(empty, 7), thickness=1)
    path = tmp_path / "blue.jpg"
    cv2.imwrite(str(path), full, [cv2.IMWRITE_JPEG_QUALITY, 90])

    gray, colour = decode_photo(path, reduce)
    np.testing.assert_array_equal(gray, cv2.imread(str(path), cv2.IMREAD_REDUCED_GRAYSCALE_2))
    assert colour().shape == (gray.shape[0] // 2, gray.shape[1] // 2, 3)
    penned = read_grids(gray, model, colour)[0]
    printed = [c for c in range(81) if 1 <= cells[c] <= 9]
    assert penned.rotation == 0
    assert decide(penned, model=model).givens == [d if 1 <= d <= 9 else 0 for d in cells]  # the blue is no given
    assert np.all(_print_distances(penned, empty) > 2 * PEN_CHROMA)
    assert np.all(_print_distances(penned, printed) < PEN_CHROMA / 2)
    at_grey_size = read_grids(gray, model, read_image(path, reduce))[0]
    measured = np.isfinite(penned.inks).all(axis=1)
    np.testing.assert_array_equal(measured, np.isfinite(at_grey_size.inks).all(axis=1))
    others = [c for c in np.flatnonzero(measured) if c not in empty]  # print, the player's black pen, pencil
    assert len(others) >= 30 and np.abs(penned.inks[others] - at_grey_size.inks[others]).max() <= 2
    # the thin blue strokes mix with the paper a little more at a quarter size
    assert np.all(_print_distances(penned, empty) >= 0.85 * _print_distances(at_grey_size, empty))
