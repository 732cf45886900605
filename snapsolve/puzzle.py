"""A puzzle as text in, its result out: the solver's half of the pipeline, with no image code.

`solve_text` serves puzzle files and standard input; `solved_grid` turns the
solver's `Solution` into the grid's result for photos too; `output_path` says
where an annotated image goes and `place_output` writes it there (for the local batch and the
cluster's client). Importing this module does not load OpenCV or scikit-learn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .errors import Kind, UsageError
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
from .vision.formats import write_atomically


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
        The solver's result; its ``entries`` are the player's sure entries.
    options : Options
        ``explain`` and ``hint`` say whether steps or a hint are wanted.
    unclear : list of UnclearEntry, optional
        Entries read from a photo whose digit is not certain (their cells are
        empty in ``solution.entries``). They are never mistakes; a hint whose
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
        entries=list(solution.entries),
        mistakes=list(solution.mistakes),
        hint_requested=options.hint,
        unclear_entries=unclear,
        **fields,
    )
    for u in unclear:
        grid.entries[u.cell] = u.read
    if solution.status == SOLVED:
        if options.explain:  # where logic stops short, the exact search's step ends them
            grid.steps = list(solution.remaining) + ([solution.search] if solution.search else [])
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
    if all(g or e for g, e in zip(solution.givens, solution.entries)):
        return Finished.of(sum(1 for g, e in zip(solution.givens, solution.entries) if e and not g))
    return None


def solve_text(label: str, line: str, options: Options) -> InputResult:
    """Result for one puzzle line: 81 characters, optionally followed by 81 of the player's entries.

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
        givens, entries = parse_position(line)
    except InvalidPuzzleError as exc:
        return InputResult.failed(label, str(exc), time.perf_counter() - start, exc.kind)
    grid = solved_grid(solve_puzzle(givens, entries=entries, search=options.search), options)
    error = None if grid.solved else grid.status.replace("_", " ")
    kind = None if grid.solved else Kind.NO_SOLUTION
    return InputResult(label, error, time.perf_counter() - start, [grid], kind=kind)


def output_path(input_path: Path, options: Options, page: int | None = None) -> Path:
    """Where the annotated image goes: NAME.solved.jpg, NAME.hint.jpg, or NAME.pN.solved.jpg for PDF page N.

    In ``options.output_dir``, else beside the input; relative when they are.
    """
    folder = options.output_dir or input_path.parent
    kind = "hint" if options.hint else "solved"
    stem = input_path.stem if page is None else f"{input_path.stem}.p{page + 1}"
    return folder / f"{stem}.{kind}.jpg"


def make_output_folder(folder: Path) -> None:
    """Make ``-o``'s folder (and its parents) unless it is there.

    Raises
    ------
    UsageError
        It cannot be made (a file in the way, no permission, a read-only or
        special file system): one line naming the folder and the system's
        reason.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = (exc.strerror or str(exc)).lower()
        raise UsageError(f"cannot make the output folder {folder}: {why}") from None


def _is_input(target: Path, input_path: Path) -> bool:
    return target.resolve() == input_path.resolve()


def wants_image(input_path: Path, options: Options, page: int | None = None) -> bool:
    """Whether an annotated image is to be drawn for this input: ``options.write_image`` is set and
    `output_path` is not the input itself (a link to it), which `place_output` never writes over."""
    return options.write_image and not _is_input(output_path(input_path, options, page), input_path)


def place_output(
    result: InputResult,
    input_path: Path,
    options: Options,
    page: int | None = None,
    image: bytes | None = None,
    *,
    written: bool = False,
) -> None:
    """Write an input's annotated image where `output_path` says, and name it in the result's solved grids.

    The one rule for the local batch and the cluster's client: nothing without
    ``options.write_image``; one image per input (every grid found is drawn on
    it), named in the ``output`` of each solved grid; never over the input.

    Parameters
    ----------
    result : InputResult
        The input's result, changed in place: grids' ``output``, and
        ``error`` when the image cannot be placed.
    input_path : Path
        The input as the user named it (the names in ``output`` are relative
        when it and ``options.output_dir`` are).
    options : Options
        ``write_image``, ``output_dir`` and ``hint`` (the name).
    page : int, optional
        0-based page of a PDF.
    image : bytes, optional
        The annotated image, encoded as JPEG; None when none was drawn.
    written : bool
        The image is already written, by a cluster worker that sees the same
        files under their absolute paths and applied this rule there: only the
        grids that name it are given the name as this process sees it.

    Errors do not raise: when `output_path` is the input itself (a link to
    it) and a grid was solved, ``error`` becomes "refusing to overwrite the
    input PATH"; when the image cannot be written (OSError), "cannot write
    TARGET: REASON"; either way no grid names an output.
    """
    if not options.write_image:
        return
    target = output_path(input_path, options, page)
    if written:
        for g in result.grids:
            if g.output:
                g.output = str(target)
        return
    if _is_input(target, input_path):
        if result.solved_grids:
            result.error = f"refusing to overwrite the input {input_path}"
            for g in result.grids:
                g.output = None
        return
    if image is None:
        return
    try:
        write_atomically(target, image)
    except OSError as exc:
        result.error = f"cannot write {target}: {exc}"
        for g in result.grids:
            g.output = None
        return
    for g in result.grids:
        if g.solved:
            g.output = str(target)
