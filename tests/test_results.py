"""Typed results serialised at the edge (issue 26): `results.py` alone makes the JSON, and reads it back."""

from __future__ import annotations

import json

import numpy as np
import pytest

from snapsolve.pipeline import solve_and_draw, solve_image
from snapsolve.puzzle import Options, solve_text
from snapsolve.results import FrameResult, GridResult, InputResult, PencilMark, Progress, Repair
from snapsolve.solver import Mistake
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import parse_puzzle
from snapsolve.web import work

from .conftest import SAMPLES, read_collection

IN_PROGRESS = SAMPLES / "02_25_honor_view_10_0.jpg"


def _position_with_a_mistake() -> tuple[str, int, int, int]:
    """A puzzle line with one wrong entry: (line, cell, wrong digit, right digit)."""
    line = read_collection("top1465.txt")[0]
    givens = parse_puzzle(line)
    solution = solve_unique(givens).solution
    assert solution is not None
    cell = givens.index(0)
    wrong = solution[cell] % 9 + 1
    entries = "." * cell + str(wrong) + "." * (80 - cell)
    return f"{line} {entries}", cell, wrong, solution[cell]


@pytest.mark.parametrize("options", [Options(write_image=False, explain=True), Options(write_image=False, hint=True)])
def test_a_sample_photo_result_is_typed_and_its_json_round_trips(options):
    """The pipeline hands back typed values (arrays stay arrays, floats unrounded); the JSON rounds them, and
    from_json reads it back to the same JSON (as --db stores it)."""
    result = solve_image(IN_PROGRESS, options)
    grid = result.grids[0]
    assert isinstance(grid.corners, np.ndarray) and grid.corners.shape == (4, 2)
    assert isinstance(grid.cell_confidence, np.ndarray) and grid.cell_confidence.shape == (81,)
    assert isinstance(grid.confidence, float) and isinstance(grid.progress, Progress)
    assert all(isinstance(m, PencilMark) for m in grid.pencil_marks) and grid.pencil_marks
    assert all(isinstance(r, Repair) for r in grid.repaired)
    data = json.loads(json.dumps(result.to_json()))
    out = data["grids"][0]
    assert out["corners"] == np.round(grid.corners.astype(np.float64), 1).tolist()
    assert out["confidence"] == round(grid.confidence, 4)
    assert out["cell_confidence"] == [round(float(p), 3) for p in grid.cell_confidence]
    assert data["seconds"] == round(result.seconds, 4)
    assert out["pencil_marks"] == [{"cell": m.cell, "digits": m.digits} for m in grid.pencil_marks]
    assert out["progress"] == {"entered": 15, "to_fill": 55, "entries": 15}
    assert ("steps" in out) == options.explain and ("hint" in out) == options.hint
    back = InputResult.from_json(data)
    assert isinstance(back.grids[0].corners, np.ndarray) and back.grids[0].progress == grid.progress
    assert back.to_json() == data


def test_a_mistake_has_the_new_key_and_the_deprecated_one_and_old_json_reads_back():
    line, cell, wrong, right = _position_with_a_mistake()
    result = solve_text("puzzle", line, Options(write_image=False, hint=True))
    grid = result.grids[0]
    assert grid.mistakes == [Mistake(cell, wrong, right)]
    with pytest.warns(DeprecationWarning, match="Mistake.entry"):
        assert grid.mistakes[0].entered == wrong
    data = result.to_json()
    out = data["grids"][0]
    assert out["mistakes"] == [{"cell": cell, "entry": wrong, "entered": wrong, "solution": right}]
    assert out["progress"]["entries"] == out["progress"]["entered"] == 1
    assert out["hint"]["eliminations"] == [[cell, wrong]]
    assert InputResult.from_json(data).to_json() == data
    # An object stored by an older version (--db) has only the old keys.
    old = json.loads(json.dumps(data))
    for m in old["grids"][0]["mistakes"]:
        del m["entry"]
    del old["grids"][0]["progress"]["entries"]
    assert InputResult.from_json(old).to_json() == data


def test_the_api_grid_json_carries_cell_quads_and_step_cells_made_by_results():
    """The page's fields come from `to_json(with_cells=True)`: the web work adds only its images."""
    data = work.solve_upload(str(IN_PROGRESS), "photo.jpg", explain=True)
    result, _ = solve_and_draw(IN_PROGRESS, Options(explain=True), draw=False, label="photo.jpg")
    made = result.to_json(with_cells=True)
    assert data["grids"] == made["grids"]
    grid = data["grids"][0]
    quads = np.array(grid["cell_quads"])
    assert quads.shape == (81, 4, 2)
    assert quads[0, 0] == pytest.approx(grid["corners"][0], abs=0.2)
    assert all(step["cells"] == list(s.cells) for step, s in zip(grid["steps"], result.grids[0].steps or []))
    assert "cell_quads" not in result.to_json()["grids"][0] and "cells" not in result.to_json()["grids"][0]["steps"][0]


def test_a_hint_carries_its_cells_with_cells():
    line, cell, _, _ = _position_with_a_mistake()
    data = work.solve_puzzle_text(line, hint=True)
    grid = data["grids"][0]
    assert grid["hint"]["technique"] == "mistake" and grid["hint"]["cells"] == [cell]
    assert "cell_quads" not in grid  # a puzzle string has no photo
    grid_result = GridResult.from_json(grid)
    assert grid_result.to_json(with_cells=True)["hint"]["cells"] == [cell]


def test_a_frame_result_stays_typed_and_is_rounded_in_its_json():
    """`frames.read_frame` hands back a `FrameResult` with unrounded times; its JSON rounds them and leaves out
    the grid's ``cell_confidence``."""
    from snapsolve.frames import decode_frame, read_frame

    frame = read_frame(decode_frame(IN_PROGRESS.read_bytes()))
    assert isinstance(frame, FrameResult) and isinstance(frame.grid, GridResult)
    data = frame.to_json()
    assert list(data) == ["frame_size", "grid", "anchor", "seconds", "cpu_seconds"]
    assert data["anchor"]["corners"] == data["grid"]["corners"] and len(data["anchor"]["ink"]) == 81
    assert data["frame_size"] == list(frame.frame_size) and data["seconds"] == round(frame.seconds, 4)
    assert data["grid"] == frame.grid.to_json(with_cells=True, cell_confidence=False)
    assert "cell_quads" in data["grid"] and "cell_confidence" not in data["grid"]
    assert FrameResult((640, 480), None, 0.123456, 0.1).to_json() == {
        "frame_size": [640, 480],
        "grid": None,
        "seconds": 0.1235,
        "cpu_seconds": 0.1,
    }
