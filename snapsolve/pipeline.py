"""The photo pipeline: one photo or PDF page in, one `InputResult` out.

Joins the two layers: ``vision`` locates and reads grids, `repair` decides
which printed puzzle a reading shows and what the player wrote in it,
``solver`` solves and grades the puzzle and checks the player's position, and
``vision.overlay`` draws the answer (or the hint) on the photo. Results follow
the JSON contract of ``docs/DESIGN.md`` (see `results`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from .errors import Kind
from .models import MODEL_ENV, digit_model_path
from .puzzle import Options, place_output, solved_grid, wants_image
from .repair import (
    UNSURE,
    Decision,
    EntryReading,
    MarkLooks,
    decide_givens,
    decide_written_grid,
    is_written_grid,
    printed_reading_holds,
    read_entries,
    upside_down,
    written_given_probabilities,
)
from .results import GridResult, InputResult, PencilMark, Repair
from .solver import SOLVED, Mistake, Solution, Step, UnclearEntry, solve_puzzle
from .solver.grid import repeated_cells
from .vision import (
    CellClassifier,
    GridReading,
    ImageReadError,
    draw_digits,
    draw_hint,
    draw_mistakes,
    draw_question,
    encode_image,
    locate_grids,
    read_grid,
    read_image,
    read_pencil_marks,
    to_gray,
)
from .vision.cells import MARK_FEATURES
from .vision.evidence import SecondLook
from .vision.features import FEATURE_LENGTH, features_of
from .vision.image_io import is_jpeg, reduction_for, render_pdf_page
from .vision.ink import prepare_colour_tables
from .vision.layout import reading_order
from .vision.locate import GridCandidate, bent_grids, locate_sharpened, quad_overlap
from .vision.rectify import lattice_is_regular
from .vision.restore import restored_photo, sharpened_to_read

#: A reading whose repair put printed digits in this many cells is unsure, not solved (`decide`): several
#: misread digits each changed to its second guess make another puzzle as readily as the right one.
MAX_DIGITS_PUT = 2
#: Fewest printed digits read for a second or later grid in a photo to count as a puzzle.
MIN_GIVENS_EXTRA_GRID = 17
#: Photos are read decoded at half or a quarter of their size while their
#: shorter side stays at least this many pixels (a 12-megapixel phone photo
#: at half size still gives a grid some 130 pixels per cell); annotated images
#: are drawn on the full-size photo.
READ_SIDE = 1200


_MODEL: CellClassifier | None = None
_MODEL_LOCK = threading.Lock()
#: Decodes a photo in colour (`decode_photo`), then at full size for its annotated image, while its grey is read.
_DECODER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="snapsolve-decode")


def default_model() -> CellClassifier:
    """The cell model (``$SNAPSOLVE_MODEL`` or the shipped one), loaded once per process; thread-safe.

    Its neighbour index is built on first use (`CellClassifier.build_index`).

    Raises
    ------
    FileNotFoundError
        The model file is missing (rebuild it with ``snapsolve train``).
    ValueError
        The file is not a cell model.
    """
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            path = digit_model_path()
            if not path.exists():
                raise FileNotFoundError(
                    f"digit model {path} is missing (${MODEL_ENV} or the shipped file); "
                    "rebuild it with 'snapsolve train'"
                )
            _MODEL = CellClassifier.load(path)
        return _MODEL


def prepare_model(background: bool = False) -> None:
    """Load the default model and build its index (importing scikit-learn, about a second), and meanwhile, in a
    thread of its own, OpenCV's colour tables (`vision.ink.prepare_colour_tables`, which needs no GIL).

    With `background`, both in daemon threads: this thread can decode and
    locate the first photo meanwhile, and waits for the index only when it
    classifies cells. Otherwise returns when both are done. Errors are left
    to the first `default_model` call, which raises them.
    """

    def prepare() -> None:
        try:
            default_model().build_index()
        except Exception:  # FileNotFoundError, ValueError: raised again where the model is used
            pass

    tables = threading.Thread(target=prepare_colour_tables, name="snapsolve-colour", daemon=True)
    tables.start()
    if background:
        threading.Thread(target=prepare, name="snapsolve-model", daemon=True).start()
    else:
        prepare()
        tables.join()


def decode_photo(path: Path, reduce: int = 1) -> tuple[np.ndarray, Callable[[], np.ndarray | None]]:
    """Decode an image file for reading: its grey now, its colour meanwhile.

    A JPEG's grey is decoded straight to one channel (`vision.read_image`
    with ``grey``: its own luminance, as `snapsolve train` and the live
    camera read photos), which takes less time than a colour decode and its
    conversion to grey; the colour is wanted only once a grid is located
    and its marks read (their ink colours, `vision.ink`) and to draw on, so
    it is decoded in a thread of its own meanwhile (`_DECODER`). A photo
    read reduced is drawn on at full size (decoded again), so its colour
    serves only the ink colours, which sample COLOUR_CELL (32) pixels a
    cell: it is decoded at half the grey's size (a 12-megapixel photo's grid
    still some 65 pixels a cell, a pen's colour still far beyond PEN_CHROMA).
    Other formats hold no separate luminance: they are decoded once, in
    colour, and converted (`vision.to_gray`).

    Parameters
    ----------
    path : Path
        An image file.
    reduce : int
        1, 2, 4 or 8: decode at 1/`reduce` of the width and height.

    Returns
    -------
    (np.ndarray, callable)
        The grey photo, shape (H, W) uint8; and a function that returns the
        colour photo, (H, W, 3) uint8 BGR, or (about H / 2, W / 2, 3) when
        `reduce` > 1 (waiting for its decode), or None when it cannot be
        decoded after all.

    Raises
    ------
    ImageReadError, OSError
        The file cannot be read or decoded (as `vision.read_image`).
    """
    if not is_jpeg(path):
        image = read_image(path, reduce)
        return to_gray(image), lambda: image
    colour = _DECODER.submit(read_image, path, min(2 * reduce, 8) if reduce > 1 else reduce)
    try:
        gray = read_image(path, reduce, grey=True)
    except BaseException:
        colour.cancel()
        raise

    def coloured() -> np.ndarray | None:
        try:
            return colour.result()
        except (ImageReadError, OSError):
            return None

    return gray, coloured


def read_grids(
    image: np.ndarray, model: CellClassifier, colour: np.ndarray | Callable[[], np.ndarray | None] | None = None
) -> list[GridReading]:
    """Locate and read every grid of a photo, the main one first.

    `image` is the photo, (H, W, 3) uint8 BGR or (H, W) grey; `colour` the
    same photo in colour when `image` is grey: an array, or a function that
    returns it (or None), called for each grid read when its ink colours are
    measured (`decode_photo`'s). Without colour, marks are read in grey alone.

    Grids after the first count only when at least MIN_GIVENS_EXTRA_GRID
    printed digits are read in them (a blank form or a partial neighbour is no puzzle).
    A grid whose lattice, followed from its corners, is not regular
    (`vision.rectify.lattice_is_regular`) is read again through the outline of
    an overlapping grid found along its curved lines (`vision.locate.bent_grids`:
    on a bent page the page's edge can pass for the grid's), when that one's
    lattice is regular.

    A dark photo is read brightened (`vision.restore.restored_photo`); in a
    photo in which no grid is found, grids are located and their lines
    followed in a sharpened copy, when that finds one
    (`vision.locate.locate_sharpened`: a blurred photo), and read in the photo
    sharpened more mildly (`vision.restore.sharpened_to_read`). Both readings
    are `GridReading.restored`.
    """
    if colour is None and image.ndim == 3:
        colour = image
    photo = to_gray(image)
    gray = restored_photo(photo)
    candidates = locate_grids(gray)
    lines = gray  # the photo the grids' lines are found in
    if not candidates:
        lines, candidates = locate_sharpened(gray)
        if candidates:
            gray = sharpened_to_read(gray)
    readings = []
    along_outlines: list[GridCandidate] | None = None  # `bent_grids`, found once when first needed
    for i, candidate in enumerate(candidates):
        reading = read_grid(
            gray, candidate.corners, model, colour=colour, outline=candidate.outline, bent=candidate.bent, lines=lines
        )
        if not candidate.bent and not lattice_is_regular(reading.rectified.lattice):
            # its lines not followed evenly (a bent page's edge taken for the grid's?): the grid through its outline
            along_outlines = bent_grids(lines) if along_outlines is None else along_outlines
            for other in (g for g in along_outlines if quad_overlap(g.corners, candidate.corners) >= 0.3):
                again = read_grid(
                    gray, other.corners, model, colour=colour, outline=other.outline, bent=True, lines=lines
                )
                if lattice_is_regular(again.rectified.lattice):
                    reading = again
                    break
        if gray is not photo:
            reading = replace(reading, restored=True)
        if i == 0 or sum(1 for d in reading.givens if d) >= MIN_GIVENS_EXTRA_GRID:
            readings.append(upright_by_hand(reading, model))
    return readings


def upright_by_hand(reading: GridReading, model: CellClassifier) -> GridReading:
    """A grid written wholly by hand (`repair.is_written_grid`) read the other way up when its marks lie nearer
    the handwritten samples so, or nearer and so breaking the rules in fewer cells (`repair.upside_down`); any
    other reading as it is.

    The orientation of a reading is chosen by its marks' likeness to print
    (`vision.read.orient_and_read`), which a hand's digits do not show.
    """
    looks = mark_looks(reading, model)
    if not is_written_grid(reading.probabilities, looks):
        return reading
    if printed_reading_holds(decide_givens(reading.given_probabilities, looks), reading.probabilities, looks):
        return reading
    turned = half_turned(reading, model)
    nearest = [
        model.digit_evidence([r.marks.crops[c] for c in np.flatnonzero(r.marks.present)], printed=False).distances
        for r in (reading, turned)
    ]

    def repeats() -> tuple[int, int]:
        def repeated(r: GridReading) -> int:
            digits = written_given_probabilities(r.probabilities, mark_looks(r, model)).argmax(axis=1)
            return len(repeated_cells([int(d) for d in digits]))

        return repeated(reading), repeated(turned)

    return turned if upside_down(nearest[0].min(axis=1), nearest[1].min(axis=1), repeats) else reading


def half_turned(reading: GridReading, model: CellClassifier) -> GridReading:
    """The same grid read turned by half a turn more: its marks, cells and inks turned, read again by `model`."""
    marks = reading.marks.turned(180)
    cells = np.flatnonzero(marks.present)
    shapes = np.full((81, FEATURE_LENGTH), np.nan, np.float32)
    shapes[cells] = features_of([marks.crops[c] for c in cells])
    return replace(
        reading,
        rotation=(reading.rotation + 180) % 360,
        probabilities=model.predict_proba(marks, shapes=shapes[cells]),
        rectified=reading.rectified.turned(180),
        marks=marks,
        shapes=shapes,
        inks=None if reading.inks is None else reading.inks[::-1].copy(),  # cell c is cell 80 - c half turned
        strokes=None,
    )


def decide(reading: GridReading, search: str = "bitmask", model: CellClassifier | None = None) -> Decision:
    """The puzzle a reading shows: the most probable printed givens with exactly one solution (or unsure).

    Marks unlike the grid's own print (another ink colour, or height, place,
    faintness and, with `model`, shape together far from the grid's givens) are taken for the player's
    pen where the puzzle does not need them, or where the reading has no one
    solution with them (`repair.decide_givens`).

    A grid written wholly by hand (`repair.is_written_grid`: no print among
    its marks, told with `model`), unless it is print and pen after all
    (`printed_reading_holds`: a blurred photo's print can look written), is
    read by the handwritten-digit model, its marks its givens
    (`repair.decide_written_grid`).

    A reading whose lattice is not regular (`vision.rectify.lattice_is_regular`:
    two neighbouring lines followed far closer than the rest, a bent or
    creased page whose lines were not all found) may have read digits into the
    wrong cells, and so another puzzle: it is unsure, never solved. So is a
    reading of a restored grid (`GridReading.restored`: a dark or noisy
    photo) whose repair put another printed digit in a cell: there a misread
    digit's second guess is often wrong too, and the changed reading can
    have one solution, another (a given taken out leaves the others'
    solution); and a printed grid's reading whose repair put printed digits
    in MAX_DIGITS_PUT cells or more, whatever the photo (a blurred one's).
    """
    looks = mark_looks(reading, model)
    decision = decide_givens(reading.given_probabilities, looks, search=search)
    written_grid = is_written_grid(reading.probabilities, looks) and not printed_reading_holds(
        decision, reading.probabilities, looks
    )
    if written_grid:
        decision = decide_written_grid(reading.probabilities, looks, search=search)
    if decision.status != SOLVED:
        return decision
    if not lattice_is_regular(reading.rectified.lattice):
        return replace(
            decision,
            status=UNSURE,
            count=None,
            warning="unsure of the grid's lines (a bent or creased page?): retake the photo with the page flat",
        )
    digits_put = sum(1 for _, _, used in decision.changes if used)
    if (digits_put >= MAX_DIGITS_PUT and not written_grid) or (reading.restored and digits_put):
        return replace(
            decision,
            status=UNSURE,
            count=None,
            warning="unsure of the digits of a poor photo (dark, grainy or blurred): retake it in better light",
        )
    return decision


def mark_looks(reading: GridReading, model: CellClassifier | None = None) -> MarkLooks:
    """How a reading's marks look (`repair.MarkLooks`): heights, centres, contrast, inks and, with `model`,
    shapes, their distance to the printed samples and the handwritten-digit model's digits and shapes."""
    features, present = reading.marks.features, reading.marks.present
    shapes = hand_digits = hand_shapes = print_distances = hand_probabilities = None
    if model is not None:
        crops = reading.marks.crops
        shapes = lambda cells: model.print_shapes(reading.marks, cells, reading.shapes)  # noqa: E731
        hand_digits = lambda cells: model.entry_evidence(reading.marks, cells).handwritten.argmax(axis=1) + 1  # noqa: E731
        hand_shapes = lambda cells: model.handwritten_shapes(reading.marks, cells)  # noqa: E731
        hand_probabilities = lambda cells: model.digit_evidence([crops[c] for c in cells], printed=False).handwritten  # noqa: E731

        def print_distances(cells: list[int]) -> np.ndarray:
            measured = reading.shapes[cells] if reading.shapes is not None else features_of([crops[c] for c in cells])
            return model.printed_proba_and_nearest(np.asarray(measured, np.float32))[1]

    return MarkLooks(
        heights=features[:, MARK_FEATURES.index("height")] * present,
        shapes=shapes,
        centres=features[:, [MARK_FEATURES.index("centre_x"), MARK_FEATURES.index("centre_y")]],
        contrast=features[:, MARK_FEATURES.index("relative_contrast")],
        strokes=features[:, MARK_FEATURES.index("stroke_width")],
        inks=reading.inks,
        ruling=reading.ruling_ink,
        hand_digits=hand_digits,
        hand_shapes=hand_shapes,
        print_distances=print_distances,
        hand_probabilities=hand_probabilities,
    )


def _second_look(
    reading: GridReading, model: CellClassifier, cells: list[int], digits: list[int], own: list[tuple[int, int]]
) -> SecondLook | None:
    """`CellClassifier.second_look` at the marks of `cells`, asked about `digits`, the player's own marks
    `own` ((cell, digit) pairs; those without a crop left out) measured as well."""
    crops = reading.marks.crops
    mine = [(cell, digit) for cell, digit in own if crops[cell] is not None]
    return model.second_look(
        [crops[cell] for cell in cells], digits, ([crops[cell] for cell, _ in mine], [digit for _, digit in mine])
    )


def player_entries(reading: GridReading, decision: Decision, model: CellClassifier) -> EntryReading:
    """The player's entries of a grid read from a photo, in the light of the decided puzzle.

    `repair.read_entries` with the model asked again about entries that
    differ from the solution (`CellClassifier.entry_evidence`, and a second
    look by `CellClassifier.second_look`) and the givens that
    `repair.separate_written` took for pen. When the repair dropped a digit
    read as print (`Decision.dropped_print`), no entry is called a mistake.
    """
    return read_entries(
        reading.probabilities,
        decision.givens,
        decision.solution,
        lambda cells: model.entry_evidence(reading.marks, cells),
        decision.written,
        lambda cells, digits, own: _second_look(reading, model, cells, digits, own),
        givens_doubted=decision.dropped_print,
    )


def read_puzzle(
    reading: GridReading, options: Options, model: CellClassifier | None = None
) -> tuple[GridResult, Solution | None]:
    """Decide, solve and describe one grid read from a photo.

    The printed puzzle is the most probable reading with one solution
    (`repair.choose_reading`); the player's entries are read in its light
    (`repair.read_entries`): only the sure ones are the player's position,
    and an entry that differs from the solution without a certain reading is
    listed as unclear, never as a mistake.

    Parameters
    ----------
    reading : GridReading
        The grid as read (`vision.read_grid`).
    options : Options
        What to produce (hint, steps).
    model : CellClassifier, optional
        The model that read the grid, asked again about entries that differ
        from the solution (`CellClassifier.entry_evidence`); defaults to the
        shipped model.

    Returns
    -------
    (GridResult, Solution or None)
        The grid's result, and the solver's result when the puzzle was solved.
    """
    model = model or default_model()
    decision = decide(reading, options.search, model)
    read = player_entries(reading, decision, model)
    photo_fields = dict(
        corners=reading.corners,
        rotation=reading.rotation,
        confidence=decision.confidence,
        cell_confidence=reading.cell_confidence,
        repaired=[Repair(c, a, b) for c, a, b in decision.changes],
        warning=decision.warning,
        pencil_marks=[
            PencilMark(c, d)
            for c, d in zip(
                read.pencil, read_pencil_marks(reading.rectified.image, read.pencil, model, reading.strokes)
            )
        ],
    )
    if decision.status != SOLVED:
        grid = GridResult(
            decision.givens, decision.status, entries=read.entries, hint_requested=options.hint, **photo_fields
        )
        return grid, None
    solution = solve_puzzle(decision.givens, known=decision.count, entries=read.sure, search=options.search)
    return solved_grid(solution, options, read.unclear, **photo_fields), solution


def annotate(
    image: np.ndarray, reading: GridReading, grid: GridResult, options: Options, in_place: bool = False
) -> np.ndarray:
    """Draw onto the photo (or, unless `in_place`, a copy): the hint, or every missing digit and mistake.

    A hint is its step, the first mistake ringed, or the unclear entry it
    asks about marked with a question mark. Missing digits go only into cells
    the player has not written in (smaller, and clear of the candidates, where
    there are pencil marks); wrong entries (certain readings only) get a red
    ring and the right digit beside it, at the cell's freest corner
    (`vision.overlay.free_corners`); unclear entries an amber question mark,
    never a ring.
    """
    inverse, corners = reading.rectified.inverse, reading.corners
    lattice = reading.rectified.lattice  # upright, photo pixels: a bent page's cells drawn along it
    if options.hint:
        hint = grid.hint
        if isinstance(hint, Mistake):
            return draw_mistakes(image, inverse, corners, {hint.cell: None}, in_place=in_place, lattice=lattice)
        if isinstance(hint, UnclearEntry):
            return draw_question(image, inverse, corners, [hint.cell], in_place=in_place, lattice=lattice)
        if isinstance(hint, Step):
            return draw_hint(
                image,
                inverse,
                corners,
                list(hint.cells),
                dict(hint.placements),
                list(hint.eliminations),
                in_place=in_place,
                lattice=lattice,
            )
        return image
    pencil = {m.cell for m in grid.pencil_marks}
    missing = {i: d for i, d in enumerate(grid.solution or []) if not grid.givens[i] and not grid.entries[i]}
    out = draw_digits(image, inverse, corners, missing, small=pencil, in_place=in_place, lattice=lattice)
    if grid.mistakes:
        wrong = {m.cell: m.solution for m in grid.mistakes}
        busy = {(c % 9 + 1, c // 9 + 1) for c in pencil & set(missing)}  # small digits, at the lower right
        busy |= {(u.cell % 9 + 1, u.cell // 9) for u in grid.unclear_entries}  # questions, at the upper right
        grid_image = reading.rectified.image
        out = draw_mistakes(out, inverse, corners, wrong, in_place=True, lattice=lattice, grid=grid_image, busy=busy)
    if grid.unclear_entries:
        unclear = [u.cell for u in grid.unclear_entries]
        out = draw_question(out, inverse, corners, unclear, in_place=True, lattice=lattice)
    return out


def _unreadable(exc: OSError | ImageReadError) -> Kind:
    """The kind of a failure to read a photo: its class's (too large, not an image); an OSError is not an image."""
    return exc.kind if isinstance(exc, ImageReadError) else Kind.NOT_AN_IMAGE


def _main_grid_error(result: InputResult) -> None:
    """Set the input's ``error`` and ``kind`` from its main grid (`read_grids`' first): none found, unsure,
    or not solved."""
    if not result.grids:
        result.error, result.kind = "no Sudoku grid found in the image", Kind.NO_GRID
    elif result.grids[0].status == UNSURE:
        result.error, result.kind = result.grids[0].warning, Kind.NO_SOLUTION
    elif not result.grids[0].solved:
        result.error = f"the grid read has {result.grids[0].status.replace('_', ' ')}"
        result.kind = Kind.NO_SOLUTION


def _draw_answers(
    result: InputResult, to_draw: list, photo: Callable[[], np.ndarray | None], options: Options
) -> np.ndarray | None:
    """The photo (`photo()`: its full-size colour decode, (H, W, 3) uint8 BGR) with each solved grid's
    answers drawn (`to_draw`: (reading, grid) pairs); None, with the input's error set, when it cannot be
    decoded so."""
    try:
        annotated = photo()
        if annotated is None:
            raise ImageReadError("not decoded in colour")
    except (OSError, ImageReadError) as exc:
        result.error, result.kind = f"cannot read image at full size: {exc}", _unreadable(exc)
        return None
    for reading, grid in to_draw:
        annotated = annotate(annotated, reading, grid, options, in_place=True)
    return annotated


def solve_and_draw(
    path: Path,
    options: Options,
    model: CellClassifier | None = None,
    page: int | None = None,
    label: str | None = None,
    draw: bool = True,
) -> tuple[InputResult, np.ndarray | None]:
    """Read, solve and grade every grid of one photo or PDF page, and draw the answers on the photo.

    Parameters
    ----------
    path : Path
        An image file, or a PDF when `page` is given.
    options : Options
        What to solve and draw (``hint``, ``explain``); ``write_image`` and
        ``output_dir`` are not used here (see `solve_image`).
    model : CellClassifier, optional
        Defaults to the shipped model.
    page : int, optional
        0-based page of a PDF to render and read.
    label : str, optional
        The ``input`` of the result; defaults to the path.
    draw : bool
        Draw the annotated photo (at full size; a reduced photo is decoded
        again at full size, beside the reading).

    Returns
    -------
    (InputResult, np.ndarray or None)
        The result (``error`` and its ``kind`` set when the file cannot be
        read, no grid is found, or the main grid is not solved; never raises
        for bad input)
        and, with `draw` and some grid solved, the annotated photo (H, W, 3)
        uint8 BGR.
    """
    start = time.perf_counter()
    label = label or str(path)
    reduce = 1
    full_size: Future | None = None
    try:
        if page is None:
            reduce = reduction_for(path, READ_SIDE)
            image, colour = decode_photo(path, reduce)
            if reduce > 1 and draw:  # decoded meanwhile, for the annotated image
                full_size = _DECODER.submit(read_image, path)
        else:
            image, colour = render_pdf_page(path, page), None
    except (ImageReadError, OSError) as exc:
        error = f"cannot read image: {exc}"
        return InputResult.failed(label, error, time.perf_counter() - start, _unreadable(exc)), None
    result = InputResult(label)
    to_draw = []
    model = model or default_model()
    for reading in read_grids(image, model, colour):
        reading = reading.scaled(reduce)  # in the full photo's pixels
        grid, solution = read_puzzle(reading, options, model)
        if solution is not None:
            to_draw.append((reading, grid))
        result.grids.append(grid)
    _main_grid_error(result)
    result.grids = in_reading_order(result.grids)
    result.warnings += [grid.warning for grid in result.grids if grid.warning]
    annotated = None
    if draw and to_draw:
        photo = full_size.result if full_size is not None else (lambda: image if colour is None else colour())
        annotated = _draw_answers(result, to_draw, photo, options)
    result.seconds = time.perf_counter() - start
    return result, annotated


def in_reading_order(grids: list[GridResult]) -> list[GridResult]:
    """A photo's grids (the main one first, as `read_grids` gives them) in the order a person reads the page:
    top to bottom, then left to right, in the page turned upright as the main grid was read
    (`vision.layout.reading_order`)."""
    if len(grids) < 2:
        return grids
    quads = [np.asarray(grid.corners, dtype=np.float64) for grid in grids]
    return [grids[i] for i in reading_order(quads, grids[0].rotation or 0)]


def encode_annotated(result: InputResult, annotated: np.ndarray | None) -> bytes | None:
    """The annotated photo of `solve_and_draw` as JPEG file contents (quality 90), encoded in memory.

    Parameters
    ----------
    result : InputResult
        Its result; ``error`` is set when the image cannot be encoded.
    annotated : np.ndarray or None
        (H, W, 3) uint8 BGR, as `solve_and_draw` returns it.

    Returns
    -------
    bytes or None
        None when there is no image or it cannot be encoded; never raises.
    """
    if annotated is None:
        return None
    try:
        return encode_image(annotated)
    except OSError as exc:
        result.error = f"cannot encode the annotated image: {exc}"
        return None


def solve_image(
    path: Path, options: Options, model: CellClassifier | None = None, page: int | None = None, label: str | None = None
) -> InputResult:
    """Result for one photo or PDF page: every grid read, solved, graded and (with ``write_image``) drawn.

    The annotated photo is written by `puzzle.place_output` (to
    `puzzle.output_path`, never over the input) and each solved grid's
    ``output`` names it.

    Parameters
    ----------
    path, options, model, page, label
        As in `solve_and_draw`; ``options.write_image`` and
        ``options.output_dir`` say whether and where the image is written.

    Returns
    -------
    InputResult
        ``error`` is set when the file cannot be read, no grid is found, the
        main grid is not solved, or the image cannot be written; never raises
        for bad input.
    """
    start = time.perf_counter()
    result, annotated = solve_and_draw(path, options, model, page, label, draw=wants_image(path, options, page))
    place_output(result, path, options, page, encode_annotated(result, annotated))
    result.seconds = time.perf_counter() - start
    return result
