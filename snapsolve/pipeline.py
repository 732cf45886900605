"""The pipeline: one input (photo or puzzle text) in, one JSON-ready result out.

Joins the two layers: ``vision`` locates and reads grids, ``solver`` solves and
grades them, ``vision.overlay`` draws the answer. Results follow the JSON
contract of DESIGN.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver import SOLVED, InvalidPuzzleError, Solution, format_puzzle, parse_puzzle, solve_puzzle
from vision import (DigitModel, GridReading, ImageReadError, draw_digits, draw_hint, locate_grids, read_grid,
                    read_image, to_gray, write_image)
from vision.image_io import render_pdf_page

from .models import DIGIT_MODEL
from .repair import UNSURE, choose_reading

#: Fewest digits read for a second or later grid in a photo to count as a puzzle.
MIN_GIVENS_EXTRA_GRID = 17


@dataclass
class Options:
    """What to produce for each input.

    Attributes
    ----------
    write_image : bool
        Write ``NAME.solved.jpg`` (or ``NAME.hint.jpg``).
    output_dir : Path or None
        Folder for written images; None means beside the input.
    explain : bool
        Include every logical step in the result.
    hint : bool
        Only the next logical step: draw it instead of the solution.
    """

    write_image: bool = True
    output_dir: Path | None = None
    explain: bool = False
    hint: bool = False


_MODEL: DigitModel | None = None


def default_model() -> DigitModel:
    """The shipped digit model, loaded once per process.

    Raises
    ------
    FileNotFoundError
        The model file is missing (rebuild it with ``snapsolve train``).
    """
    global _MODEL
    if _MODEL is None:
        if not DIGIT_MODEL.exists():
            raise FileNotFoundError(f"digit model {DIGIT_MODEL} is missing; rebuild it with 'snapsolve train'")
        _MODEL = DigitModel.load(DIGIT_MODEL)
    return _MODEL


def solution_json(solution: Solution, options: Options) -> dict:
    """The solver part of a grid's JSON object (givens, status, solution, grade, steps)."""
    out = {
        "givens": format_puzzle(solution.givens),
        "status": solution.status,
        "solution": format_puzzle(solution.solution) if solution.solution else None,
        "level": solution.level,
        "score": solution.score,
        "techniques": solution.techniques,
        "needs_search": solution.needs_search,
    }
    if options.explain:
        out["steps"] = [s.to_json() for s in solution.steps]
    if options.hint:
        out["hint"] = solution.steps[0].to_json() if solution.steps else None
    return out


def solve_text(label: str, line: str, options: Options) -> dict:
    """Result for one 81-character puzzle line.

    Parameters
    ----------
    label : str
        ``FILE:LINE`` (or ``-:LINE`` for standard input).
    line : str
        The puzzle text.
    options : Options

    Returns
    -------
    dict
        JSON object of DESIGN.md; ``error`` set for a malformed line.
    """
    start = time.perf_counter()
    try:
        givens = parse_puzzle(line)
    except InvalidPuzzleError as exc:
        return {"input": label, "error": str(exc), "seconds": round(time.perf_counter() - start, 4), "grids": []}
    grid = solution_json(solve_puzzle(givens), options)
    error = None if grid["status"] == SOLVED else grid["status"].replace("_", " ")
    return {"input": label, "error": error, "seconds": round(time.perf_counter() - start, 4), "grids": [grid]}


def output_path(input_path: Path, options: Options, page: int | None = None) -> Path:
    """Where the annotated image goes: NAME.solved.jpg, NAME.hint.jpg, or NAME.pN.solved.jpg for PDF page N."""
    folder = options.output_dir or input_path.parent
    kind = "hint" if options.hint else "solved"
    stem = input_path.stem if page is None else f"{input_path.stem}.p{page + 1}"
    return folder / f"{stem}.{kind}.jpg"


def read_grids(image: np.ndarray, model: DigitModel) -> list[GridReading]:
    """Locate and read every grid of a photo, the main one first.

    Grids after the first count only when at least MIN_GIVENS_EXTRA_GRID
    digits are read in them (a blank form or a partial neighbour is no puzzle).
    """
    gray = to_gray(image)
    readings = []
    for i, candidate in enumerate(locate_grids(gray)):
        reading = read_grid(gray, candidate.corners, model)
        if i == 0 or sum(1 for d in reading.digits if d) >= MIN_GIVENS_EXTRA_GRID:
            readings.append(reading)
    return readings


def annotate(image: np.ndarray, reading: GridReading, solution: Solution, options: Options) -> np.ndarray:
    """Draw the missing digits (or, for a hint, the next step) onto the photo."""
    inverse, corners = reading.rectified.inverse, reading.corners
    if options.hint:
        if not solution.steps:
            return image
        step = solution.steps[0]
        return draw_hint(image, inverse, corners, list(step.cells), dict(step.placements), list(step.eliminations))
    missing = {i: d for i, d in enumerate(solution.solution) if not solution.givens[i]}
    return draw_digits(image, inverse, corners, missing)


def solve_image(path: Path, options: Options, model: DigitModel | None = None, page: int | None = None,
                label: str | None = None) -> dict:
    """Result for one photo or PDF page: every grid read, solved, graded and (optionally) drawn.

    Parameters
    ----------
    path : Path
        An image file, or a PDF when `page` is given.
    options : Options
    model : DigitModel, optional
        Defaults to the shipped model.
    page : int, optional
        0-based page of a PDF to render and read.
    label : str, optional
        The ``input`` of the result; defaults to the path.

    Returns
    -------
    dict
        JSON object of DESIGN.md. ``error`` is set when the file cannot be
        read, no grid is found, or the main grid is not solved; never raises
        for bad input.
    """
    start = time.perf_counter()
    result: dict = {"input": label or str(path), "error": None, "seconds": 0.0, "grids": []}
    try:
        image = read_image(path) if page is None else render_pdf_page(path, page)
    except (ImageReadError, OSError) as exc:
        result["error"] = f"cannot read image: {exc}"
        result["seconds"] = round(time.perf_counter() - start, 4)
        return result
    model = model or default_model()
    readings = read_grids(image, model)
    annotated = image
    warnings = []
    for reading in readings:
        decision = choose_reading(reading.probabilities)
        solution = decision.solution
        grid = {"corners": np.round(reading.corners, 1).tolist(), "rotation": reading.rotation}
        grid.update(solution_json(solution, options))
        grid["confidence"] = round(reading.confidence, 4)
        grid["cell_confidence"] = [round(float(p), 3) for p in reading.cell_confidence]
        grid["repaired"] = [{"cell": c, "read": a, "used": b} for c, a, b in decision.changes]
        grid["warning"] = decision.warning
        if decision.warning:
            warnings.append(decision.warning)
        if solution.status == SOLVED and options.write_image:
            annotated = annotate(annotated, reading, solution, options)
        result["grids"].append(grid)
    result["warnings"] = warnings
    if not readings:
        result["error"] = "no Sudoku grid found in the image"
    elif result["grids"][0]["status"] == UNSURE:
        result["error"] = result["grids"][0]["warning"]
    elif result["grids"][0]["status"] != SOLVED:
        result["error"] = f"the grid read has {result['grids'][0]['status'].replace('_', ' ')}"
    if options.write_image and any(g["status"] == SOLVED for g in result["grids"]):
        target = output_path(path, options, page)
        if target.resolve() == path.resolve():
            result["error"] = f"refusing to overwrite the input {path}"
        else:
            try:
                write_image(target, annotated)
                for g in result["grids"]:
                    if g["status"] == SOLVED:
                        g["output"] = str(target)
            except OSError as exc:
                result["error"] = f"cannot write {target}: {exc}"
    result["seconds"] = round(time.perf_counter() - start, 4)
    return result
