"""Grids written wholly by hand (a blank grid filled in pen, a puzzle copied out by hand): read with the
handwritten-digit model, their marks the givens; a printed or a mixed grid keeps the per-grid decision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from snapsolve.pipeline import mark_looks, read_grids, read_puzzle
from snapsolve.puzzle import Options
from snapsolve.repair import is_written_grid
from snapsolve.vision.image_io import read_image

#: Photos of `benchmarks/all_handwritten.py` kept as fixtures, with `truth.json` (see its README).
WRITTEN = Path(__file__).parent / "data" / "written"
TRUTH = json.loads((WRITTEN / "truth.json").read_text())
DATA = Path(__file__).parent / "data"


def _read(name: str, model) -> tuple:
    """The main grid of a fixture as read, and its result (`read_puzzle`)."""
    reading = read_grids(read_image(WRITTEN / name), model)[0]
    return reading, read_puzzle(reading, Options(write_image=False), model)[0]


def test_a_grid_written_by_hand_is_read_as_written_and_solved(model):
    """Every mark of it was called printed and read by the printed-digit model (5 of 33 digits misread, no
    solution); read by the handwritten-digit model, the marks are the givens, and solved right."""
    name = "written_seed7201_0.jpg"
    truth = TRUTH[name]
    reading, grid = _read(name, model)
    assert is_written_grid(reading.probabilities, mark_looks(reading, model))
    assert grid.givens == [int(c) for c in truth["digits"]]
    assert grid.entries == [0] * 81 and not grid.mistakes
    assert grid.solved and grid.solution == [int(c) for c in truth["solution"]]


def test_a_written_grid_solved_only_by_a_repair_is_unsure(model):
    """8 of its 33 digits were misread as print; by hand 2 are, and the repair puts them right, but a repair of
    hand-read digits can as well make another puzzle: the givens are the repaired digits, the grid unsure."""
    name = "written_seed7201_1.jpg"
    truth = TRUTH[name]
    _, grid = _read(name, model)
    assert grid.givens == [int(c) for c in truth["digits"]]
    assert grid.status == "unsure" and grid.solution is None and not grid.mistakes


def test_a_grid_written_by_hand_read_upside_down_is_turned_upright(model):
    """A slanted hand's digits looked more like print upside down, and the grid was read half turned; its marks
    lie nearer the handwritten samples upright, where they are read right."""
    name = "written_seed7203_6.jpg"
    reading, grid = _read(name, model)
    assert reading.rotation == 0
    assert grid.givens == [int(c) for c in TRUTH[name]["digits"]]


@pytest.mark.parametrize(
    "path",
    [
        "handwriting/handwriting_seed24_extra10_15.png",
        "finished/finished_seed12004_18.jpg",
        "bent/bent_seed10025_2.jpg",
        "degraded/image155-sensor-noise-18.jpg",
    ],
)
def test_a_grid_with_print_is_not_written(path, model):
    """A printed puzzle with pen entries, even a finished one (more pen than print), has a print population; a
    noisy photo's print, far from the printed samples, is print beyond doubt by its kind."""
    reading = read_grids(read_image(DATA / path), model)[0]
    assert not is_written_grid(reading.probabilities, mark_looks(reading, model))
