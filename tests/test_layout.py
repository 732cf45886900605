"""The grids of a page in reading order: top to bottom, then left to right (`vision.layout`), on the command's
JSON of pages laid out in rows, in columns that do not line up, in one column, and upside down."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image, ImageDraw

from snapsolve.cli import main
from snapsolve.solver.grid import parse_puzzle
from snapsolve.vision.layout import reading_order
from snapsolve.vision.render import draw_grid

from .conftest import read_collection

#: Grid side on the test pages, pixels (cells of 44).
CELL = 44


def box(x: float, y: float, side: float = 9 * CELL) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], dtype=np.float64)


def test_rows_then_columns_then_cells():
    two_by_two = [box(600, 900), box(80, 80), box(600, 90), box(90, 880)]  # as found: any order
    assert reading_order(two_by_two) == [1, 2, 3, 0]  # row by row, each left to right
    staggered = [box(600, 300), box(80, 80), box(600, 1000), box(80, 560)]  # columns that do not line up
    assert reading_order(staggered) == [1, 3, 0, 2]  # column by column, each top to bottom
    column = [box(100, 1200), box(100, 50), box(110, 620)]
    assert reading_order(column) == [1, 2, 0]
    tilted = [box(80, 80), box(90, 420)]  # boxes overlapping a little (a tilted photo): still one above the other
    assert reading_order(tilted) == [0, 1]
    assert reading_order([]) == [] and reading_order([box(0, 0)]) == [0]


def test_the_upright_page_decides():
    page = [box(80, 80), box(600, 80), box(80, 900), box(600, 900)]  # #1 #2 / #3 #4, upright
    width, height = 1100, 1400
    upside_down = [np.array([[width, height]]) - q for q in page]  # the photo turned half a turn
    assert reading_order(upside_down, rotation=180) == [0, 1, 2, 3]
    quarter = [np.stack([height - q[:, 1], q[:, 0]], axis=1) for q in page]  # turned clockwise: np.rot90 reads it
    assert reading_order(quarter, rotation=90) == [0, 1, 2, 3]


def page_of(puzzles: list[str], places: list[tuple[int, int]], size=(1240, 1754)) -> Image.Image:
    """A white page with each puzzle's grid drawn at its place (top-left corner, pixels)."""
    page = Image.new("L", size, 255)
    draw = ImageDraw.Draw(page)
    for puzzle, place in zip(puzzles, places):
        draw_grid(draw, place, parse_puzzle(puzzle), CELL, thin=1, thick=4)
    return page


@pytest.mark.parametrize(
    "layout, places, order",
    [
        ("rows", [(60, 80), (640, 80), (60, 900), (640, 900)], [0, 1, 2, 3]),
        ("columns", [(60, 80), (640, 300), (60, 560), (640, 1000)], [0, 2, 1, 3]),
        ("one column", [(400, 60), (400, 620), (400, 1180)], [0, 1, 2]),
    ],
)
def test_the_command_lists_a_pages_grids_in_reading_order(tmp_path, capsys, layout, places, order):
    puzzles = read_collection("top1465.txt")[: len(places)]
    page = page_of(puzzles, places)
    pages = {"upright": page, "upside down": page.rotate(180)}
    for name, image in pages.items():
        path = tmp_path / f"{name.replace(' ', '_')}.png"
        image.save(path)
        main(["--json", "--no-image", str(path)])
        (result,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        read = [grid["givens"] for grid in result["grids"]]
        assert read == [puzzles[i].replace("0", ".") for i in order], (layout, name)
