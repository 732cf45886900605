"""A puzzle as text in, its result out: the solver's half of the pipeline, with no image code.

`solve_text` serves puzzle files and standard input; `solved_grid` turns the
solver's `Solution` into the grid's result for photos too; `output_path` says
where an annotated image goes (for the local batch and the cluster's client). Importing this
module does not load OpenCV or scikit-learn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .results import GridResult, InputResult
from .solver import (
    SOLVED,
    Finished,
    InvalidPuzzleError,
    Mistake,
    Solution,
    Step,
    UnclearEntry,
    parse_position,
    solve_puzzle,
)
from .solver.exact import DEFAULT_SEARCH


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
        Include every logical step from the player's position in the result.
    hint : bool
        Only the next step (or the first mistake): draw it instead of the solution.
    search : str
        The exact search's engine (``--search``): ``"bitmask"`` (default,
        `solver.exact`) or ``"dlx"`` (Knuth's Dancing Links, `solver.dlx`);
        both give the same results.
    """

    write_image: bool = True
    output_dir: Path | None = None
    explain: bool = False
    hint: bool = False
    search: str = DEFAULT_SEARCH


def solved_grid(
    solution: Solution, options: Options, unclear: list[UnclearEntry] | None = None, **fields
) -> GridResult:
    """The solver's part of a grid's result (puzzle, status, grade, the player's position, steps or hint).

    Parameters
    ----------
    solution : Solution
        The solver's result; its ``placed`` digits are the player's sure entries.
    options : Options
        ``explain`` and ``hint`` say whether steps or a hint are wanted.
    unclear : list of UnclearEntry, optional
        Entries read from a photo whose digit is not certain (their cells are
        empty in ``solution.placed``). They are never mistakes; a hint whose
        step would fill one of their cells asks about it instead.
    **fields
        Further `GridResult` fields (the photo's corners, confidence, ...).

    Returns
    -------
    GridResult
        Its hint (with ``options.hint``): the first mistake; else the first
        logical step from the player's sure position, or the question about
        an unclear entry that step would fill; else `Finished` when the
        givens and entries fill the grid and every entry is right.
    """
    unclear = list(unclear or [])
    grid = GridResult(
        solution.givens,
        solution.status,
        solution.solution,
        solution.level,
        solution.score,
        solution.techniques,
        solution.needs_search,
        entries=list(solution.placed),
        mistakes=list(solution.mistakes),
        hint_requested=options.hint,
        unclear_entries=unclear,
        **fields,
    )
    for u in unclear:
        grid.entries[u.cell] = u.read
    if solution.status == SOLVED:
        if options.explain:
            grid.steps = list(solution.remaining)
        if options.hint:
            grid.hint = next_hint(solution, unclear)
    return grid


def next_hint(solution: Solution, unclear: list[UnclearEntry]) -> Step | Mistake | UnclearEntry | Finished | None:
    """The hint from the player's position (see `solved_grid`); None when logic finds no step."""
    if solution.mistakes:
        return solution.mistakes[0]
    asked = {u.cell: u for u in unclear}
    if solution.remaining:
        step = solution.remaining[0]
        touched = [c for c, _ in step.placements + step.eliminations if c in asked]
        return asked[touched[0]] if touched else step
    if unclear:
        return unclear[0]
    if all(g or p for g, p in zip(solution.givens, solution.placed)):
        return Finished()
    return None


def solve_text(label: str, line: str, options: Options) -> InputResult:
    """Result for one puzzle line: 81 characters, optionally followed by 81 of placed digits.

    Parameters
    ----------
    label : str
        ``FILE:LINE`` (or ``-:LINE`` for standard input).
    line : str
        The puzzle text (see `solver.parse_position`).
    options : Options

    Returns
    -------
    InputResult
        ``error`` set for a malformed line or a puzzle without exactly one solution.
    """
    start = time.perf_counter()
    try:
        givens, placed = parse_position(line)
    except InvalidPuzzleError as exc:
        return InputResult.failed(label, str(exc), time.perf_counter() - start)
    grid = solved_grid(solve_puzzle(givens, placed=placed, search=options.search), options)
    error = None if grid.solved else grid.status.replace("_", " ")
    return InputResult(label, error, round(time.perf_counter() - start, 4), [grid])


def output_path(input_path: Path, options: Options, page: int | None = None) -> Path:
    """Where the annotated image goes: NAME.solved.jpg, NAME.hint.jpg, or NAME.pN.solved.jpg for PDF page N."""
    folder = options.output_dir or input_path.parent
    kind = "hint" if options.hint else "solved"
    stem = input_path.stem if page is None else f"{input_path.stem}.p{page + 1}"
    return folder / f"{stem}.{kind}.jpg"
