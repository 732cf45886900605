"""Finished puzzles photographed to be checked: the whole grid is found (never one of its boxes, a band of it or
the grid with the page round it), solved right, and the verdict is the player's."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from snapsolve.cli import main
from snapsolve.pipeline import read_grids, read_puzzle, solve_image
from snapsolve.puzzle import Options
from snapsolve.vision.image_io import read_image
from snapsolve.vision.locate import lattice_seen
from snapsolve.vision.overlay import draw_mistakes, free_corners
from snapsolve.vision.rectify import GRID_SIZE, square_corners, strip_lines
from snapsolve.vision.render import draw_grid

#: Photos of `benchmarks/finished.py` kept as fixtures, with `truth.json` (see its README).
FINISHED = Path(__file__).parent / "data" / "finished"
TRUTH = json.loads((FINISHED / "truth.json").read_text())


def _digits(text: str) -> list[int]:
    return [int(c) for c in text]


def _is_the_grid(corners: np.ndarray, truth: list[list[float]]) -> bool:
    """Whether every corner of the grid's own lies within a cell of a corner read."""
    truth_arr = np.asarray(truth, np.float64)
    cell = np.linalg.norm(truth_arr[1] - truth_arr[0]) / 9
    return all(np.linalg.norm(np.asarray(corners) - t, axis=1).min() < cell for t in truth_arr)


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_a_finished_grid_is_found_whole_and_solved_right(name, model):
    """One box of the grid (its thick border), the grid grown from a box into the wrong place, or the grid with
    the page round it, was taken for the grid in four of these; the whole grid is found and solved right."""
    truth = TRUTH[name]
    readings = read_grids(read_image(FINISHED / name), model)
    assert readings and _is_the_grid(readings[0].corners, truth["corners"])
    grid, _ = read_puzzle(readings[0], Options(write_image=False), model)
    assert grid.solved and grid.solution == _digits(truth["solution"])


#: Fixtures whose every entry is read and right, and the one with an entry read surely wrong (r5c2).
ALL_RIGHT = ["finished_seed12004_18.jpg", "finished_seed12002_16.jpg"]
ONE_WRONG = "finished_seed12004_6.jpg"


@pytest.mark.parametrize("name", ALL_RIGHT)
def test_a_finished_grid_with_every_entry_right_says_so(name, model, capsys, tmp_path):
    """The command says so in words, and in JSON through the status and, with --hint, the hint."""
    truth = TRUTH[name]
    count = sum(1 for c in truth["entries"] if c != "0")
    result = solve_image(FINISHED / name, Options(write_image=False, hint=True), model).to_json()
    grid = result["grids"][0]
    assert result["error"] is None and grid["status"] == "solved" and grid["mistakes"] == []
    assert grid["entries"] == truth["entries"].replace("0", ".")
    assert grid["progress"]["entries"] == grid["progress"]["to_fill"] == count
    assert grid["hint"]["technique"] == "solved" and grid["hint"]["text"] == f"solved: all {count} entries are right"
    assert main([str(FINISHED / name), "-o", str(tmp_path)]) == 0
    assert f"\nsolved: all {count} entries are right\n" in capsys.readouterr().out


def test_a_finished_grid_with_a_wrong_entry_rings_it_and_the_hint_names_it(model, capsys, tmp_path):
    truth = TRUTH[ONE_WRONG]
    (cell,) = truth["wrong"]
    entry, right = int(truth["entries"][cell]), int(truth["solution"][cell])
    grid = solve_image(FINISHED / ONE_WRONG, Options(write_image=False, hint=True), model).to_json()["grids"][0]
    assert grid["mistakes"] == [{"cell": cell, "entry": entry, "solution": right, "entered": entry}]
    assert grid["hint"]["technique"] == "mistake" and grid["hint"]["text"] == f"r5c2: the {entry} is wrong"
    assert main([str(FINISHED / ONE_WRONG), "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"mistake: r5c2 has {entry}, the solution has {right}" in out and "entries are right" not in out


def _finished_page(thick: int) -> tuple[np.ndarray, float, float]:
    """A grid printed full (every cell a digit) with box lines `thick` pixels wide: the page (grey, uint8), the
    grid's origin and cell (pixels)."""
    page = Image.new("L", (620, 620), 255)
    digits = [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
    origin, cell = 40.0, 60.0
    draw_grid(ImageDraw.Draw(page), (origin, origin), digits, cell, thin=1, thick=thick)
    return np.asarray(page, np.uint8).copy(), origin, cell


@pytest.mark.parametrize("thick", [3, 7])
def test_one_box_of_a_full_grid_does_not_show_a_whole_lattice(thick):
    """A box's thick border with a digit in each of its cells scores as a 9x9 ruling; followed strip by strip,
    its lines are its border and its own two cell lines each way, the digits' strokes elsewhere: it is no grid.
    The grid itself shows every line."""
    page, origin, cell = _finished_page(thick)

    def square(x: float, y: float, side: float) -> np.ndarray:
        return np.float32([[x, y], [x + side, y], [x + side, y + side], [x, y + side]])

    assert lattice_seen(strip_lines(page, square(origin, origin, 9 * cell))) == pytest.approx(1.0, abs=0.05)
    for r, c in [(0, 0), (1, 1), (2, 0)]:
        box = square(origin + 3 * c * cell, origin + 3 * r * cell, 3 * cell)
        assert lattice_seen(strip_lines(page, box)) is None


def _ring_and_digit(cell: int, digit: int | None, grid: np.ndarray | None = None) -> np.ndarray:
    """What `draw_mistakes` draws for one ringed cell on a grey page seen square on: (GRID_SIZE, GRID_SIZE, 3)."""
    page = np.full((GRID_SIZE, GRID_SIZE, 3), 128, np.uint8)
    return draw_mistakes(page, np.eye(3), square_corners(GRID_SIZE), {cell: digit}, grid=grid)


@pytest.mark.parametrize("digit", range(1, 10))
def test_the_right_digit_is_half_a_cell_tall_beside_the_ring(digit):
    """The solution's digit beside a ringed entry is at least 40% of a cell tall and lies wholly outside the ring
    (and so off the written digit inside it), over the corner of the cell."""
    size = GRID_SIZE / 9
    ring = _ring_and_digit(40, None)
    ys, xs = np.nonzero((ring != 128).any(axis=2))
    outer = np.hypot(xs - 4.5 * size, ys - 4.5 * size).max()
    both = _ring_and_digit(40, digit)
    drawn = (both != ring).any(axis=2)  # the digit and its white halo
    red = drawn & (both[..., 2] > 150) & (both[..., 0] < 120)
    ys, xs = np.nonzero(drawn)
    assert np.hypot(xs - 4.5 * size, ys - 4.5 * size).min() > outer
    ys, xs = np.nonzero(red)
    assert (ys.max() - ys.min() + 1) >= 0.4 * size
    assert xs.mean() > 5 * size - 0.1 * size and ys.mean() < 4 * size + 0.1 * size  # at the top right corner


def test_the_right_digit_goes_to_the_freest_corner():
    """Ink in the corners round a cell's top right sends its digit to the top left; two wrong entries side by
    side never share a corner."""
    size = GRID_SIZE // 9
    grid = np.full((GRID_SIZE, GRID_SIZE), 230, np.uint8)
    grid[::size, :] = grid[:, ::size] = 30  # the ruling, left out of the count
    assert free_corners(grid, [40]) == {40: (1, 0)}
    cv2.circle(grid, (5 * size + 12, 4 * size - 12), 8, 20, -1)  # a stroke over the top right corner
    assert free_corners(grid, [40]) == {40: (0, 0)}
    # beside it on the left, a wrong entry whose digit took the crossing between them: the next free corner
    assert free_corners(grid, [39, 40]) == {39: (1, 0), 40: (1, 1)}
    assert free_corners(None, [39, 40]) == {39: (1, 0), 40: (1, 0)}
    # another mark drawn at a corner (an unclear entry's question, up right of its cell) is left to it
    assert free_corners(None, [40], busy={(5, 4)}) == {40: (0, 0)}
    assert free_corners(None, [40], busy={(4, 4), (5, 4), (4, 5), (5, 5)}) == {40: (1, 0)}
