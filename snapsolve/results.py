"""Typed results: what one input gave, passed inward as dataclasses and serialised only at the edge.

`InputResult` holds one input (photo, PDF page or puzzle line) and its
`GridResult` per grid found. `to_json` gives the JSON object of the contract
in ``docs/DESIGN.md`` (fields may be added, never renamed); `from_json` reads it
back (results stored by ``--db``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Kind
from .solver import SOLVED, Finished, Level, Mistake, Status, Step, UnclearEntry
from .solver.grid import format_puzzle


def _digits(text: str | None) -> list[int] | None:
    """81 characters ('.' for empty) -> 81 values (0 for empty); None stays None."""
    return None if text is None else [0 if ch == "." else int(ch) for ch in text]


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
    pencil_marks : list of dict
        ``{"cell": int, "digits": str or None}`` for each cell holding pencilled candidates.
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
    corners : list or None
        4 x [x, y] pixels (TL TR BR BL as seen) for photos; None for text.
    rotation : int or None
        Degrees the photo was turned to read the grid; None for text.
    confidence : float or None
        Photos: the calibrated probability that every given is right
        (`repair.calibrated_confidence`, `docs/confidence.md`).
    cell_confidence : list of float or None
        81 per-cell probabilities of the class read (photos).
    repaired : list of dict
        ``{"cell", "read", "used"}`` for cells changed by consistency repair.
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
    pencil_marks: list = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    unclear_entries: list[UnclearEntry] = field(default_factory=list)
    steps: list[Step] | None = None
    hint: Step | Mistake | UnclearEntry | Finished | None = None
    hint_requested: bool = False
    corners: list | None = None
    rotation: int | None = None
    confidence: float | None = None
    cell_confidence: list | None = None
    repaired: list = field(default_factory=list)
    warning: str | None = None
    output: str | None = None

    @property
    def solved(self) -> bool:
        """True when the puzzle has exactly one solution and it was found."""
        return self.status == SOLVED

    @property
    def progress(self) -> dict:
        """``{"entered": entries placed, "to_fill": cells the givens leave empty}``."""
        return {
            "entered": sum(1 for g, e in zip(self.givens, self.entries) if e and not g),
            "to_fill": sum(1 for g in self.givens if not g),
        }

    def to_json(self) -> dict:
        """The grid's JSON object (`docs/DESIGN.md`)."""
        out: dict = {}
        if self.corners is not None:
            out["corners"] = self.corners
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
                "pencil_marks": self.pencil_marks,
                "mistakes": [m.to_json() for m in self.mistakes],
                "unclear_entries": [u.to_json() for u in self.unclear_entries],
                "progress": self.progress,
            }
        )
        if self.confidence is not None:
            out["confidence"] = self.confidence
            out["cell_confidence"] = self.cell_confidence
            out["repaired"] = self.repaired
            out["warning"] = self.warning
        if self.steps is not None:
            out["steps"] = [s.to_json() for s in self.steps]
        if self.hint_requested:
            out["hint"] = _hint_json(self.hint)
        if self.output:
            out["output"] = self.output
        return out

    @classmethod
    def from_json(cls, data: dict) -> GridResult:
        """Read back an object written by `to_json`."""
        hint = data.get("hint")
        mistakes = [Mistake(m["cell"], m["entered"], m["solution"]) for m in data.get("mistakes", [])]
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
                else Finished()
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
            pencil_marks=data.get("pencil_marks", []),
            mistakes=mistakes,
            unclear_entries=unclear,
            steps=[_step_from_json(s) for s in data["steps"]] if "steps" in data else None,
            hint=hint,
            hint_requested="hint" in data,
            corners=data.get("corners"),
            rotation=data.get("rotation"),
            confidence=data.get("confidence"),
            cell_confidence=data.get("cell_confidence"),
            repaired=data.get("repaired", []),
            warning=data.get("warning"),
            output=data.get("output"),
        )


def _hint_json(hint: Step | Mistake | UnclearEntry | Finished | None) -> dict | None:
    """A hint in the step form of `docs/DESIGN.md`.

    A mistake is technique ``mistake``, the wrong digit eliminated; a question
    about an unclear entry is technique ``question`` with its ``cell`` and
    the digits it may be (``read``, ``alternatives``); a complete grid with
    every entry right is technique ``solved``.
    """
    if hint is None:
        return None
    if isinstance(hint, Mistake):
        return {
            "technique": "mistake",
            "placements": [],
            "eliminations": [[hint.cell, hint.entered]],
            "text": hint.text,
        }
    if isinstance(hint, UnclearEntry):
        return {"technique": "question", "placements": [], "eliminations": [], "text": hint.text, **hint.to_json()}
    if isinstance(hint, Finished):
        return {"technique": "solved", "placements": [], "eliminations": [], "text": hint.text}
    return hint.to_json()


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
        Time spent on it.
    grids : list of GridResult
        Every grid found, the main one first.
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
        return cls(label, error, round(seconds, 4), kind=kind)

    @property
    def solved_grids(self) -> int:
        """How many of its grids were solved."""
        return sum(1 for g in self.grids if g.solved)

    def to_json(self) -> dict:
        """The input's JSON object (`docs/DESIGN.md`)."""
        out = {
            "input": self.input,
            "error": self.error,
            "seconds": self.seconds,
            "grids": [g.to_json() for g in self.grids],
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
