"""A shadow cast across the grid (a phone's or a hand's): its sharp edge is no ink, and the grid is found and
read through it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from snapsolve.pipeline import decide, read_grids
from snapsolve.solver import SOLVED
from snapsolve.vision import cells, locate
from snapsolve.vision.cells import find_marks
from snapsolve.vision.features import features_of
from snapsolve.vision.image_io import read_image
from snapsolve.vision.lighting import paper_level, shadow_free
from snapsolve.vision.locate import binarize, locate_grids
from snapsolve.vision.rectify import CELL_SIZE, GRID_SIZE
from snapsolve.vision.render import draw_grid

#: Photos of `benchmarks/handwriting.py --shadow` kept as fixtures, with `truth.json` (see its README).
SHADOW = Path(__file__).parent / "data" / "shadow"
TRUTH = json.loads((SHADOW / "truth.json").read_text())


def _digits(text: str) -> list[int]:
    return [int(c) for c in text]


def _shadowed_page() -> np.ndarray:
    """A 600 x 800 grey page (paper 230) ruled every 40 pixels with 3-pixel lines (ink 40), its right part under
    a shadow with a sharp edge that takes 55% of the light."""
    page = np.full((600, 800), 230.0)
    for k in range(40, 600, 40):
        page[k : k + 3, :] = 40
    for k in range(40, 800, 40):
        page[:, k : k + 3] = 40
    page[:, 430:] *= 0.45
    return page.astype(np.uint8)


def test_paper_level_takes_the_ink_out_and_keeps_the_shadows_edge():
    page = _shadowed_page()
    level = paper_level(page)
    assert (level >= page).all()
    assert (level[:, :420] == 230).all()  # the lines closed over, in the light...
    assert (level[:, 440:] == int(230 * 0.45)).all()  # ... and in the shadow, its edge where it was
    levelled = shadow_free(page)
    assert levelled[300, 20] == levelled[300, 700] == 255  # paper white on both sides of the edge
    assert levelled[40, 20] < 60 and levelled[40, 700] < 60  # a line as dark against its own paper


def test_the_edge_of_a_shadow_is_no_ink_once_the_lighting_is_divided_out():
    """`binarize` marks the dark side of the shadow's edge as ink (a band across the lines); in the levelled
    photo only the ruled lines are ink."""
    page = _shadowed_page()
    gap_rows = [r for r in range(600) if 8 <= r % 40 <= 34]  # rows between the ruled lines, clear of their blur
    edge = slice(432, 437)  # just inside the shadow, clear of the ruled column at 440 (and its blur)
    assert binarize(page)[gap_rows][:, edge].mean() > 200
    assert binarize(shadow_free(page))[gap_rows][:, edge].max() == 0


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_a_grid_under_a_cast_shadow_is_found_and_read_right(name, model, monkeypatch):
    """No grid was found in these before (the shadow's edge joins the border to the rest of the page's ink);
    now the grid is found in the levelled photo's ink, every printed given read and the puzzle solved right."""
    image = read_image(SHADOW / name)
    reading = read_grids(image, model)[0]
    decision = decide(reading, model=model)
    assert decision.status == SOLVED
    assert decision.givens == _digits(TRUTH[name]["givens"])
    assert decision.solution == _digits(TRUTH[name]["solution"])
    assert locate_grids(image)[0].bent == ("bent" in name)  # through its curved outline on the bent page
    monkeypatch.setattr(locate, "shadow_free", lambda gray: gray)  # the photo's ink as it is
    assert locate_grids(image) == []


def test_a_digit_on_a_shadows_edge_keeps_its_shape(monkeypatch):
    """A printed 5 whose cell a shadow's sharp edge cuts in half (the right half at 45% of the light): measured
    against the paper beside each pixel, its crop's shape features lie within half the distance from the unshadowed
    5's that the crop measured against the cell's one paper level does (which takes the lit half's paper for the
    level and weakens the strokes in the shadow, or the other way round)."""
    from PIL import Image, ImageDraw

    givens = [0] * 81
    for i in range(0, 81, 4):
        givens[i] = i % 9 + 1  # cell 40 (r5c5) holds a 5
    page = Image.new("L", (GRID_SIZE, GRID_SIZE), 235)
    draw_grid(ImageDraw.Draw(page), (0, 0), givens, CELL_SIZE, thin=1, thick=3, ink=30)
    flat = np.asarray(page)
    shadowed = flat.astype(np.float32)
    shadowed[:, 4 * CELL_SIZE + CELL_SIZE // 2 :] *= 0.45
    shadowed = shadowed.astype(np.uint8)
    assert cells._shadowed_cells(shadowed)[0][40] and not cells._shadowed_cells(flat)[0].any()
    reference = features_of([find_marks(flat).crops[40]])[0]
    levelled = features_of([find_marks(shadowed).crops[40]])[0]
    monkeypatch.setattr(cells, "SHADOW_STEP", 2.0)  # no cell crossed: the cell's one paper level, as before
    one_level = features_of([find_marks(shadowed).crops[40]])[0]
    assert np.linalg.norm(levelled - reference) < 0.5 * np.linalg.norm(one_level - reference)
