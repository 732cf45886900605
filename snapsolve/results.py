"""Typed results: what one input gave, passed inward as dataclasses and serialised only at the edge.

`InputResult` holds one input (photo, PDF page or puzzle line) and its
`GridResult` per grid found, with typed values as the pipeline made them
(floats unrounded, corners and per-cell confidences as NumPy arrays). This
module alone makes their JSON: `to_json` gives the object of the contract in
``docs/DESIGN.md`` (fields may be added, never renamed), rounding numbers
there, for the command line, the cluster and the web API (which asks for
``with_cells``: per grid ``cell_quads``, per step and hint ``cells``);
`from_json` reads it back (results stored by ``--db``). A camera frame of
the live view is a `FrameResult` (`FollowedFrame` when only followed), the
reading it is locked on a `LockedReading` and its answer a `LiveAnswer`: their
JSON is made here too.

Renamed JSON keys keep their old key beside the new one until snapsolve 0.3
(``docs/DESIGN.md``, "JSON changes"): ``mistakes[].entered`` is
``mistakes[].entry``, ``progress.entered`` is ``progress.entries``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import Kind
from .solver import SOLVED, Finished, Level, Mistake, Status, Step, UnclearEntry
from .solver.grid import format_puzzle

if TYPE_CHECKING:
    import numpy as np

#: Decimals kept in the JSON: corners and cell quadrilaterals (pixels), confidence, per-cell confidence, seconds
#: (an input's and a frame's times alike).
PIXEL_DECIMALS, CONFIDENCE_DECIMALS, CELL_CONFIDENCE_DECIMALS, SECONDS_DECIMALS = 1, 4, 3, 4


def _digits(text: str | None) -> list[int] | None:
    """81 characters ('.' for empty) -> 81 values (0 for empty); None stays None."""
    return None if text is None else [0 if ch == "." else int(ch) for ch in text]


@dataclass(frozen=True)
class PencilMark:
    """A cell holding pencilled candidates.

    Attributes
    ----------
    cell : int
        0..80, ``row * 9 + column``, upright.
    digits : str or None
        The candidates in increasing order (``"58"``) when every one is read
        surely, else None (`vision.read_pencil_marks`).
    """

    cell: int
    digits: str | None

    def to_json(self) -> dict:
        """``{"cell", "digits"}`` as in `docs/DESIGN.md`."""
        return {"cell": self.cell, "digits": self.digits}


@dataclass(frozen=True)
class Repair:
    """A printed digit changed by consistency repair (`repair.decide_givens`).

    Attributes
    ----------
    cell : int
        0..80, upright.
    read : int
        The digit read there (0 for none).
    used : int
        The digit the puzzle uses instead (0 for none).
    """

    cell: int
    read: int
    used: int

    def to_json(self) -> dict:
        """``{"cell", "read", "used"}`` as in `docs/DESIGN.md`."""
        return {"cell": self.cell, "read": self.read, "used": self.used}


@dataclass(frozen=True)
class Progress:
    """How far the player is: entries written, cells the givens leave empty (right or wrong alike).

    Attributes
    ----------
    entries : int
        Cells holding an entry (not counting givens).
    to_fill : int
        Cells the givens leave empty.
    """

    entries: int
    to_fill: int

    def to_json(self) -> dict:
        """``{"entered", "to_fill", "entries"}`` as in `docs/DESIGN.md` (``entered``: deprecated ``entries``)."""
        return {"entered": self.entries, "to_fill": self.to_fill, "entries": self.entries}


def _round_pixels(points) -> list:
    """Points (any shape, pixels) as nested lists rounded to PIXEL_DECIMALS (NumPy's rounding, as always)."""
    import numpy as np  # photos only, as in `_array`

    return np.round(np.asarray(points, dtype=np.float64), PIXEL_DECIMALS).tolist()


def _array(values: list | None) -> np.ndarray | None:
    """A JSON list of numbers as a float64 array (photos only: text puzzles never load NumPy); None stays None."""
    if values is None:
        return None
    import numpy as np

    return np.array(values, dtype=np.float64)


def _quads_json(corners: list, rotation: int) -> list:
    """The 81 cell quadrilaterals (`vision.rectify.cell_quads`) of the JSON's rounded `corners`, rounded too.

    The one place that makes ``cell_quads`` for a grid read in full and for a followed frame alike.
    """
    from .vision.rectify import cell_quads  # OpenCV: only for the page's JSON

    return _round_pixels(cell_quads(corners, rotation))


def step_json(step: Step) -> dict:
    """A step's JSON object (`docs/DESIGN.md`): ``{"technique", "placements", "eliminations", "text"}``.

    Placements and eliminations are lists of ``[cell, digit]`` (cell 0..80,
    digit 1..9); ``text`` is the step's words (`Step.text`).
    """
    return {
        "technique": step.technique,
        "placements": [list(p) for p in step.placements],
        "eliminations": [list(e) for e in step.eliminations],
        "text": step.text,
    }


def _mistake_json(mistake: Mistake) -> dict:
    """``{"cell", "entered", "solution", "entry"}`` as in `docs/DESIGN.md` (``entered``: deprecated ``entry``)."""
    return {"cell": mistake.cell, "entered": mistake.entry, "solution": mistake.solution, "entry": mistake.entry}


def _unclear_json(unclear: UnclearEntry) -> dict:
    """``{"cell", "read", "alternatives"}`` as in `docs/DESIGN.md`."""
    return {"cell": unclear.cell, "read": unclear.read, "alternatives": list(unclear.alternatives)}


def _cells(item: Step | Mistake | UnclearEntry | Finished) -> list[int]:
    """The cells a step or hint is about, for drawing: a step's pattern, a mistake's or question's one cell."""
    return list(item.cells) if hasattr(item, "cells") else [item.cell]


@dataclass
class GridResult:
    """One grid: the puzzle read (or given as text), its solution, grade, and the player's position.

    Attributes
    ----------
    givens : list of int
        81 values, the printed puzzle (0 for empty), upright.
    status : Status
        ``solved``, ``no_solution``, ``multiple_solutions`` or ``unsure``.
    solution : list of int or None
        81 values when solved.
    level, score : Level or None, int or None
        HoDoKu grade of the puzzle when solved.
    techniques : dict of str to int
        Steps per technique on the way from the givens.
    needs_search : bool
        Logic alone did not finish; the exact search completed the grid.
    entries : list of int
        81 values: digits written in by hand (0 elsewhere).
    pencil_marks : list of PencilMark
        Each cell holding pencilled candidates.
    mistakes : list of Mistake
        Entries that differ from the unique solution, read with certainty.
    unclear_entries : list of UnclearEntry
        Entries read from a photo that differ from the solution without a
        certain reading: questions for the player, never mistakes.
    steps : list of Step or None
        With ``--explain``: the logical steps from the player's position.
    hint : Step, Mistake, UnclearEntry, Finished or None
        With ``--hint``: the first mistake, else the next logical step (or
        the question about an unclear entry it would fill), else `Finished`.
    hint_requested : bool
        ``--hint`` was asked for (so ``hint: null`` means no step was found).
    corners : np.ndarray or None
        Shape (4, 2) float, pixels (TL TR BR BL as seen) for photos; None for text.
    rotation : int or None
        Degrees the photo was turned to read the grid; None for text.
    confidence : float or None
        Photos: the calibrated probability that every given is right
        (`repair.calibrated_confidence`, `docs/confidence.md`), 0..1.
    cell_confidence : np.ndarray or None
        Shape (81,) float: per-cell probabilities of the class read (photos), 0..1.
    repaired : list of Repair
        Cells changed by consistency repair.
    warning : str or None
        One line about a repaired or doubtful reading.
    output : str or None
        The annotated image written for this grid.
    """

    givens: list[int]
    status: Status
    solution: list[int] | None = None
    level: Level | None = None
    score: int | None = None
    techniques: dict = field(default_factory=dict)
    needs_search: bool = False
    entries: list[int] = field(default_factory=lambda: [0] * 81)
    pencil_marks: list[PencilMark] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    unclear_entries: list[UnclearEntry] = field(default_factory=list)
    steps: list[Step] | None = None
    hint: Step | Mistake | UnclearEntry | Finished | None = None
    hint_requested: bool = False
    corners: np.ndarray | None = None
    rotation: int | None = None
    confidence: float | None = None
    cell_confidence: np.ndarray | None = None
    repaired: list[Repair] = field(default_factory=list)
    warning: str | None = None
    output: str | None = None

    @property
    def solved(self) -> bool:
        """True when the puzzle has exactly one solution and it was found."""
        return self.status == SOLVED

    @property
    def progress(self) -> Progress:
        """Entries written and cells the givens leave empty."""
        return Progress(
            entries=sum(1 for g, e in zip(self.givens, self.entries) if e and not g),
            to_fill=sum(1 for g in self.givens if not g),
        )

    def to_json(self, with_cells: bool = False, cell_confidence: bool = True) -> dict:
        """The grid's JSON object (`docs/DESIGN.md`), numbers rounded here.

        Parameters
        ----------
        with_cells : bool
            Also the page's fields (`snapsolve.web.work`): ``cell_quads`` (a
            photo's 81 cells as quadrilaterals, 4 x [x, y] pixels, upright cell
            order, see `vision.rectify.cell_quads`) and each step's and the
            hint's ``cells`` (the pattern's cells, for drawing).
        cell_confidence : bool
            Include ``cell_confidence`` (81 numbers the live view leaves out).
        """
        out: dict = {}
        corners = None
        if self.corners is not None:
            corners = _round_pixels(self.corners)
            out["corners"] = corners
            out["rotation"] = self.rotation
        out.update(
            {
                "givens": format_puzzle(self.givens),
                "status": self.status,
                "solution": format_puzzle(self.solution) if self.solution else None,
                "level": self.level,
                "score": self.score,
                "techniques": self.techniques,
                "needs_search": self.needs_search,
                "entries": format_puzzle(self.entries),
                "pencil_marks": [m.to_json() for m in self.pencil_marks],
                "mistakes": [_mistake_json(m) for m in self.mistakes],
                "unclear_entries": [_unclear_json(u) for u in self.unclear_entries],
                "progress": self.progress.to_json(),
            }
        )
        if self.confidence is not None:
            out["confidence"] = round(float(self.confidence), CONFIDENCE_DECIMALS)
            if cell_confidence:
                out["cell_confidence"] = (
                    None
                    if self.cell_confidence is None
                    else [round(float(p), CELL_CONFIDENCE_DECIMALS) for p in self.cell_confidence]
                )
            out["repaired"] = [r.to_json() for r in self.repaired]
            out["warning"] = self.warning
        if self.steps is not None:
            out["steps"] = [dict(step_json(s), cells=_cells(s)) if with_cells else step_json(s) for s in self.steps]
        if self.hint_requested:
            out["hint"] = _hint_json(self.hint, with_cells)
        if self.output:
            out["output"] = self.output
        if with_cells and corners is not None:
            out["cell_quads"] = _quads_json(corners, self.rotation or 0)
        return out

    @classmethod
    def from_json(cls, data: dict) -> GridResult:
        """Read back an object written by `to_json` (or by a version without ``mistakes[].entry``)."""
        hint = data.get("hint")
        mistakes = [
            Mistake(m["cell"], m["entry"] if "entry" in m else m["entered"], m["solution"])
            for m in data.get("mistakes", [])
        ]
        unclear = [
            UnclearEntry(u["cell"], u["read"], tuple(u["alternatives"])) for u in data.get("unclear_entries", [])
        ]
        if hint is not None:
            asked = [u for u in unclear if hint["technique"] == "question" and hint.get("cell") == u.cell]
            hint = (
                mistakes[0]
                if hint["technique"] == "mistake" and mistakes
                else asked[0]
                if asked
                else Finished(text=hint["text"])
                if hint["technique"] == "solved"
                else _step_from_json(hint)
            )
        return cls(
            givens=_digits(data["givens"]) or [],
            status=Status(data["status"]),
            solution=_digits(data.get("solution")),
            level=Level(data["level"]) if data.get("level") is not None else None,
            score=data.get("score"),
            techniques=data.get("techniques", {}),
            needs_search=data.get("needs_search", False),
            entries=_digits(data.get("entries")) or [0] * 81,
            pencil_marks=[PencilMark(m["cell"], m["digits"]) for m in data.get("pencil_marks", [])],
            mistakes=mistakes,
            unclear_entries=unclear,
            steps=[_step_from_json(s) for s in data["steps"]] if "steps" in data else None,
            hint=hint,
            hint_requested="hint" in data,
            corners=_array(data.get("corners")),
            rotation=data.get("rotation"),
            confidence=data.get("confidence"),
            cell_confidence=_array(data.get("cell_confidence")),
            repaired=[Repair(r["cell"], r["read"], r["used"]) for r in data.get("repaired", [])],
            warning=data.get("warning"),
            output=data.get("output"),
        )


def _hint_json(hint: Step | Mistake | UnclearEntry | Finished | None, with_cells: bool = False) -> dict | None:
    """A hint in the step form of `docs/DESIGN.md` (with `with_cells`, also its ``cells``, see `_cells`).

    A mistake is technique ``mistake``, the wrong digit eliminated; a question
    about an unclear entry is technique ``question`` with its ``cell`` and
    the digits it may be (``read``, ``alternatives``); a complete grid with
    every entry right is technique ``solved``.
    """
    if hint is None:
        return None
    out: dict
    if isinstance(hint, Mistake):
        out = {
            "technique": "mistake",
            "placements": [],
            "eliminations": [[hint.cell, hint.entry]],
            "text": hint.text,
        }
    elif isinstance(hint, UnclearEntry):
        out = {"technique": "question", "placements": [], "eliminations": [], "text": hint.text, **_unclear_json(hint)}
    elif isinstance(hint, Finished):
        out = {"technique": "solved", "placements": [], "eliminations": [], "text": hint.text}
    else:
        out = step_json(hint)
    if with_cells:
        out["cells"] = _cells(hint)
    return out


def _step_from_json(data: dict) -> Step:
    return Step(
        data["technique"],
        tuple(tuple(p) for p in data["placements"]),
        tuple(tuple(e) for e in data["eliminations"]),
        fixed_text=data["text"],
    )


@dataclass
class InputResult:
    """Everything one input gave.

    Attributes
    ----------
    input : str
        The input's label: a path, ``FILE#PAGE`` for a PDF page, ``FILE:LINE`` for a puzzle line.
    error : str or None
        One line when the input failed (unreadable, no grid, not solved).
    seconds : float
        Time spent on it (unrounded; the JSON keeps SECONDS_DECIMALS).
    grids : list of GridResult
        Every grid found, in reading order (`pipeline.in_reading_order`).
    warnings : list of str
        One line per doubtful or repaired reading.
    cached : bool
        The result comes from an earlier run's ``--db``.
    kind : Kind or None
        The kind of `error` (`snapsolve.errors`), where the code that set it
        knows it; not part of the JSON object.
    """

    input: str
    error: str | None = None
    seconds: float = 0.0
    grids: list[GridResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cached: bool = False
    kind: Kind | None = field(default=None, compare=False)

    @classmethod
    def failed(cls, label: str, error: str, seconds: float = 0.0, kind: Kind | None = None) -> InputResult:
        """The result of an input that could not be used at all (`kind`: the error's, when known)."""
        return cls(label, error, seconds, kind=kind)

    @property
    def solved_grids(self) -> int:
        """How many of its grids were solved."""
        return sum(1 for g in self.grids if g.solved)

    def to_json(self, with_cells: bool = False) -> dict:
        """The input's JSON object (`docs/DESIGN.md`); `with_cells` as in `GridResult.to_json`."""
        out = {
            "input": self.input,
            "error": self.error,
            "seconds": round(self.seconds, SECONDS_DECIMALS),
            "grids": [g.to_json(with_cells) for g in self.grids],
            "warnings": self.warnings,
        }
        if self.cached:
            out["cached"] = True
        return out

    @classmethod
    def from_json(cls, data: dict) -> InputResult:
        """Read back an object written by `to_json`."""
        return cls(
            data["input"],
            data.get("error"),
            data.get("seconds", 0.0),
            [GridResult.from_json(g) for g in data.get("grids", [])],
            data.get("warnings", []),
            data.get("cached", False),
        )


@dataclass
class FrameResult:
    """One camera frame of the live view, read (`frames.read_frame`).

    Attributes
    ----------
    frame_size : tuple of int
        ``(width, height)`` of the frame, pixels: the frame of every coordinate.
    grid : GridResult or None
        The main grid in view (no steps, no hint), None when there is none.
    seconds : float
        Time spent reading it (unrounded; the JSON keeps SECONDS_DECIMALS).
    cpu_seconds : float
        Processor time the reading process spent on it (its cost without other
        programs' load), unrounded like `seconds`.
    anchor : dict or None
        What later frames of a locked live view are followed from
        (`frames.follow_frame`): ``corners`` (as in the grid's JSON) and
        ``ink`` (81 floats, its cells' ink); None without a grid.
    followed : bool or None
        False for a frame of a locked view that could not be followed and
        was read in full (`frames.follow_frame`); None (no JSON field) for a
        frame read without a lock.
    """

    frame_size: tuple[int, int]
    grid: GridResult | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    anchor: dict | None = None
    followed: bool | None = None

    def to_json(self) -> dict:
        """``{"frame_size", "grid", "anchor", "seconds", "cpu_seconds"}``: the frame's part of a ``/api/live`` answer
        (``anchor`` only with a grid).

        ``grid`` is the grid object of `docs/DESIGN.md` with the page's fields
        (`GridResult.to_json` with ``with_cells``) but without
        ``cell_confidence`` (81 numbers the live view does not use), or None.
        """
        answer: dict[str, Any] = {
            "frame_size": list(self.frame_size),
            "grid": None if self.grid is None else self.grid.to_json(with_cells=True, cell_confidence=False),
        }
        if self.anchor is not None:
            answer["anchor"] = self.anchor
        if self.followed is not None:
            answer["followed"] = self.followed
        answer["seconds"] = round(self.seconds, SECONDS_DECIMALS)
        answer["cpu_seconds"] = round(self.cpu_seconds, SECONDS_DECIMALS)
        return answer


@dataclass
class FollowedFrame:
    """One camera frame of a locked live view, followed (`frames.follow_frame`): the locked grid found again, not read.

    Attributes
    ----------
    frame_size : tuple of int
        ``(width, height)`` of the frame, pixels.
    corners : np.ndarray
        Shape (4, 2), float, pixels: the grid's corners in this frame, TL TR BR BL as seen.
    rotation : int
        Degrees (0, 90, 180, 270) the locked grid is read at.
    ink : list of float
        The anchor's 81 cell inks (kept from the frame last read in full).
    seconds, cpu_seconds : float
        Time and processor time spent following it (unrounded, as `FrameResult`'s).
    """

    frame_size: tuple[int, int]
    corners: np.ndarray
    rotation: int
    ink: list
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def to_json(self) -> dict:
        """``{"frame_size", "followed": true, "grid", "anchor", "seconds", "cpu_seconds"}``.

        ``grid`` holds only the frame's ``corners``, ``rotation`` and
        ``cell_quads`` (as in the grid object; the live view adds the locked
        reading); ``anchor`` is these corners with the kept ink: what the next
        frame is followed from.
        """
        corners = _round_pixels(self.corners)
        return {
            "frame_size": list(self.frame_size),
            "followed": True,
            "grid": {"corners": corners, "rotation": self.rotation, "cell_quads": _quads_json(corners, self.rotation)},
            "anchor": {"corners": corners, "ink": self.ink},
            "seconds": round(self.seconds, SECONDS_DECIMALS),
            "cpu_seconds": round(self.cpu_seconds, SECONDS_DECIMALS),
        }


@dataclass(frozen=True)
class LockedReading:
    """The reading a live view is locked on (`web.live.LiveLock`): the puzzle, its grade, the player's position.

    Values are as in the grid's JSON (they come from the frames' answers). The
    puzzle and grade are those of the frames that locked; the position
    (``entries`` .. ``progress``) that of the last full reading of exactly
    these givens.

    Attributes
    ----------
    givens, solution : str
        81 characters, ``.`` for empty.
    level, score, needs_search
        The grade, as in the grid's JSON.
    entries : str or None
        81 characters: the digits written by hand.
    pencil_marks : list of dict
        The cells holding pencilled candidates, as in the grid's JSON (the
        page draws the answer small beside them).
    mistakes, unclear_entries : list of dict
        As in the grid's JSON.
    progress : dict or None
        ``{"entered", "to_fill", "entries"}`` as in the grid's JSON.
    """

    givens: str
    solution: str | None
    level: str | None
    score: int | None
    needs_search: bool | None
    entries: str | None = None
    pencil_marks: list = field(default_factory=list)
    mistakes: list | None = None
    unclear_entries: list = field(default_factory=list)
    progress: dict | None = None

    @classmethod
    def of(cls, grid: dict) -> LockedReading:
        """The puzzle and grade of a frame's `grid` object (its position comes with `at_position`)."""
        return cls(grid["givens"], grid.get("solution"), grid.get("level"), grid.get("score"), grid.get("needs_search"))

    def at_position(self, grid: dict) -> LockedReading:
        """This puzzle and grade with the player's position as `grid` (a full reading of these givens) shows it."""
        return LockedReading(
            self.givens,
            self.solution,
            self.level,
            self.score,
            self.needs_search,
            grid.get("entries"),
            grid.get("pencil_marks", []),
            grid.get("mistakes"),
            grid.get("unclear_entries", []),
            grid.get("progress"),
        )

    def grid_json(self, frame_grid: dict) -> dict:
        """A frame's grid object given this reading: `frame_grid`'s own fields (a followed frame's ``corners``,
        ``rotation`` and ``cell_quads``; or a full reading's, in their order) with ``status`` solved and this
        reading's givens, solution, grade and position."""
        return dict(
            frame_grid,
            status=SOLVED,
            givens=self.givens,
            solution=self.solution,
            level=self.level,
            score=self.score,
            needs_search=self.needs_search,
            entries=self.entries,
            pencil_marks=self.pencil_marks,
            mistakes=self.mistakes,
            unclear_entries=self.unclear_entries,
            progress=self.progress,
        )


@dataclass(frozen=True)
class LiveAnswer:
    """One ``/api/live`` answer (`web.live`): which frame, what the worker made of it, and the lock.

    Attributes
    ----------
    frame : int
        The number of the frame answered (1 for the first received).
    received, dropped : int
        Frames received so far, and skipped as stale in all.
    seconds, cpu_seconds : float or None
        The worker's time and processor time on the frame, as its answer rounded them.
    frame_size : list of int or None
        ``[width, height]`` of the frame, pixels.
    error : str or None
        One line when the frame could not be read.
    followed : bool
        The frame was followed from the last one, not read in full.
    grid : dict or None
        The frame's grid object (given the locked reading when it follows it).
    locked, streak, follows, lock_frames
        The lock: whether a reading is locked, frames in a row read the same
        and solved, whether this frame shows the locked puzzle, and frames
        in a row that lock.
    """

    frame: int
    received: int
    dropped: int
    seconds: float | None
    cpu_seconds: float | None
    frame_size: list | None
    error: str | None
    followed: bool
    grid: dict | None
    locked: bool
    streak: int
    follows: bool
    lock_frames: int

    def to_json(self) -> dict:
        """The answer's JSON object (see `web.live`)."""
        return {
            "frame": self.frame,
            "received": self.received,
            "dropped": self.dropped,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "frame_size": self.frame_size,
            "error": self.error,
            "followed": self.followed,
            "grid": self.grid,
            "locked": self.locked,
            "streak": self.streak,
            "follows": self.follows,
            "lock_frames": self.lock_frames,
        }


def skipped_frame_json(error: str) -> dict:
    """The ``/api/live`` answer to a frame skipped unread (over the size limit): ``{"error", "frame", "grid"}``."""
    return {"error": error, "frame": None, "grid": None}
