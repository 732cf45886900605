"""The player's entries: which handwritten marks are sure, mistakes or questions, in the light of the solution.

Accuse only when sure: players mostly write the right digit, so a reading that
disagrees with the solution is more often a misreading than a mistake, above
all in a hand the digit models never saw. An entry is a mistake only when both
digit models are certain of it and a second look agrees (`second_look`); one
whose mark is the solution's digit as this player writes it is right; any
other that differs from the solution is a question for the player.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from ..solver.position import UnclearEntry
from ..vision.classes import CANDIDATES, EMPTY, HANDWRITTEN, ClassProbabilities
from .second_look import SECOND_LOOK_KIND, Judge, Look, Reread, looks_like, looks_right, nearest_is_right, second_round

if TYPE_CHECKING:
    from ..vision.evidence import EntryEvidence

#: A handwritten digit that differs from the solution is a mistake only when its reading is certain
#: (`_certain`): its mark is handwritten with probability at least MISTAKE_KIND; the handwritten-digit model
#: gives the digit read at least MISTAKE_VOTES, and its nearest sample of the solution's digit lies at least
#: MISTAKE_MARGIN times as far as its nearest sample of the digit read; the printed-digit model (other
#: training data, another view) gives the digit read at least MISTAKE_PRINTED and the solution's digit at
#: most MISTAKE_PRINTED_SOLUTION; and the mark does not reach a ruled line of its cell, where a stroke may
#: have gone with the ruling. Fitted with `benchmarks/handwriting.py`.
MISTAKE_KIND = 0.9
MISTAKE_VOTES = 0.9
MISTAKE_MARGIN = 1.65
MISTAKE_PRINTED = 0.5
MISTAKE_PRINTED_SOLUTION = 0.1
#: A mark most probably pencilled candidates but a digit (printed or handwritten) with probability at least
#: LONE_PENCIL_DIGIT is a pen entry when no mark of its grid is candidates with probability SURE_PENCIL: a
#: small pen digit looks like one pencilled candidate, and players who pencil candidates pencil several cells.
#: Its kind is not certain, so it is never a mistake. Fitted with `benchmarks/handwriting.py`.
LONE_PENCIL_DIGIT = 0.1
SURE_PENCIL = 0.9
#: Other digits offered for an unclear entry: the handwritten model gives them at least this probability (the
#: solution's digit is offered whenever the reading does not rule it out).
ALTERNATIVE_PROBABILITY = 0.1
#: Most digits offered for an unclear entry, the one read included.
MAX_OFFERED = 3
#: A would-be mistake whose mark lies within OWN_COPY_MARGIN times its distance to the player's nearest right
#: copy of the digit read (the model's nearest sample when they wrote none) of their nearest right copy of the
#: solution's digit, in the handwritten model's space, is a question: one hand writes a digit alike each time.
#: Fitted with `benchmarks/handwriting.py`.
OWN_COPY_MARGIN = 1.25
#: An entry read uncertainly as another digit whose mark lies within OWN_COPY_LIKE times that distance of
#: the player's right copies of the solution's digit is that digit as this player writes it: right. Fitted
#: with `benchmarks/handwriting.py`.
OWN_COPY_LIKE = 0.5

#: How `read_entries` decides a doubted entry (`DoubtedEntry.decided_by`): read as the solution's digit by
#: the second look (`looks_right`), by its likeness to the player's own copies (OWN_COPY_LIKE), or as the
#: least distorted digit (SECOND_LOOK_NEAREST); called a mistake; left a question (unclear); read as the
#: solution's digit in the second round for the questions left (`second_round`); or, read for sure as another
#: digit, asked about because the printed reading was repaired (`read_entries`' `givens_doubted`).
DecidedBy = Literal[
    "second look", "own copy", "least distorted", "mistake", "question", "second round", "givens doubted"
]


@dataclass(frozen=True)
class DoubtedEntry:
    """An entry whose first reading differs from the solution's digit, with the measures `read_entries` judged
    it by and the rule that decided it: what `benchmarks/unclear_entries.py` records, without reaching into
    the rules themselves.

    Attributes
    ----------
    cell : int
        0..80, ``row * 9 + column``.
    read : int
        1..9, the handwritten-digit model's most probable digit (the first reading).
    solution : int
        1..9, the solution's digit.
    decided_by : str
        One of `DecidedBy`'s names.
    taken_out : bool
        The mark was read as print and the per-grid decision took it for pen (`read_entries`' `written`).
    first : tuple of float
        9 values: the first reading's P(digit 1..9 | handwritten).
    printed : tuple of float
        9 values: the printed-digit model's P(digit 1..9) (NaN when not asked; 0 when `read_entries` has
        no `evidence` and reads the cell probabilities alone).
    nearest : tuple of float
        9 values: the distance to the handwritten model's nearest sample of each digit, in its space (1
        when read from the cell probabilities alone).
    votes : tuple of float or None
        9 values: the second look's P(digit 1..9) (`vision.evidence.SecondLook.votes`); None when the entry
        had no second look.
    ratio : float
        The second look's distortion ratio of the solution's digit (`SecondLook.ratio`); ``inf`` without.
    own_ratio : float
        The same against the player's own right copies (`SecondLook.own_ratio`); ``inf`` without.
    shape_own_ratio : float
        The own-copy ratio in the handwritten model's space (OWN_COPY_LIKE, OWN_COPY_MARGIN); ``inf``
        when not measured (no shapes, no own copy of the solution's digit, or a mark taken out).
    """

    cell: int
    read: int
    solution: int
    decided_by: DecidedBy
    taken_out: bool
    first: tuple[float, ...]
    printed: tuple[float, ...]
    nearest: tuple[float, ...]
    votes: tuple[float, ...] | None
    ratio: float
    own_ratio: float
    shape_own_ratio: float


@dataclass
class EntryReading:
    """What the player wrote in a grid, as far as the reading can tell.

    Attributes
    ----------
    entries : list of int
        81 values: every handwritten digit as read (0 elsewhere), unclear ones included; an
        uncertain reading whose mark is like the player's own right copies of the solution's digit
        is read as that digit (OWN_COPY_LIKE).
    sure : list of int
        81 values: the entries whose reading is certain or agrees with the
        solution; unclear cells are 0. This is the player's position for
        mistakes, hints and explanations.
    pencil : list of int
        Cells holding pencilled candidates, ascending.
    unclear : list of UnclearEntry
        Entries that differ from the solution without a certain reading, in cell order.
    doubted : list of DoubtedEntry
        Every entry whose first reading differed from the solution's digit, with the measures it was
        judged by and the rule that decided it, in the order judged (empty without a solution).
    """

    entries: list[int]
    sure: list[int]
    pencil: list[int]
    unclear: list[UnclearEntry]
    doubted: list[DoubtedEntry] = field(default_factory=list)


def read_entries(
    probabilities: np.ndarray,
    givens: list[int],
    solution: list[int] | None,
    evidence: Callable[[list[int]], EntryEvidence] | None = None,
    written: list[int] | None = None,
    reread: Reread | None = None,
    givens_doubted: bool = False,
) -> EntryReading:
    """The player's marks in the cells without a printed digit, and which of them are certain.

    A cell's mark is an entry when handwriting is its most probable kind, or
    when it is most probably pencilled candidates in a grid with no mark surely
    pencil and is a digit with probability at least LONE_PENCIL_DIGIT (a small
    pen digit); else it is pencil. An entry that agrees with the solution is
    sure; one that differs (doubted) is judged in steps: the marks taken out of
    the givens (`_judge_taken_out`), the other doubted entries
    (`_judge_doubtful`: right, a mistake or a question), a second round for the
    questions (`second_round`), and with `givens_doubted` the mistakes left
    become questions.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 20): a reading's probabilities over `vision.classes.CLASSES`
        (empty, printed 1-9, handwritten 1-9, candidates).
    givens : list of int
        81 values: the printed puzzle decided by `choose_reading`.
    solution : list of int or None
        Its unique solution, when known: an entry is checked against it.
    evidence : callable, optional
        Given a list of cells, the digit models' `EntryEvidence` of their
        marks (`vision.digits.CellClassifier.entry_evidence`); asked only for
        entries that differ from the solution. Without it no reading is
        certain enough for a mistake: every such entry is unclear.
    written : list of int, optional
        Cells read as printed digits that `decide_givens` took for pen.
    reread : callable, optional
        The second look (`Reread`: `vision.digits.CellClassifier.second_look`),
        or None when the model has none; asked only about entries whose reading
        differs from the solution.
    givens_doubted : bool
        The printed reading was repaired by taking a mark read as print for
        no printed digit (`Decision.dropped_print`): a pen digit kept as a
        given may have made that repair, and the solution may be another
        puzzle's. No entry is then a mistake: one that differs from the
        solution is unclear, the solution's digit its alternative.

    Returns
    -------
    EntryReading
        Every entry whose first reading differs from the solution is listed in
        `EntryReading.doubted` with the measures it was judged by and the rule
        that decided it (`DoubtedEntry`).
    """
    marks = _Marks.of(probabilities, givens, solution, written)
    if not solution:
        return EntryReading(marks.entries, list(marks.entries), marks.pencil, [])

    def ask(cells: list[int]) -> EntryEvidence:
        return evidence(cells) if evidence is not None else _probabilities_only(probabilities, cells)

    judging = _Judging(Judge(givens, solution, ask, reread), marks.entries)
    if marks.taken_out:
        _judge_taken_out(judging, marks.taken_out)
    judging.sure = list(judging.entries)
    for entry in judging.unclear:
        judging.sure[entry.cell] = 0
    doubtful = [c for c in marks.kinds if judging.entries[c] != solution[c]]
    if doubtful:
        _judge_doubtful(judging, doubtful, marks)
    if judging.shapes:
        _second_round(judging)
    if givens_doubted:
        _ask_instead_of_accusing(judging)
    judging.unclear.sort(key=lambda entry: entry.cell)
    return EntryReading(judging.entries, judging.sure, marks.pencil, judging.unclear, judging.doubted)


@dataclass
class _Marks:
    """The marks of the cells without a printed digit, by kind.

    Attributes
    ----------
    entries : list of int
        81 values: each handwritten mark's most probable digit, 0 elsewhere.
    kinds : dict of int to float
        Entry cell -> P(handwritten), in cell order.
    pencil : list of int
        Cells holding pencilled candidates, ascending.
    taken_out : list of int
        Cells of `read_entries`' `written` (read as print, taken for pen), when there is a solution.
    pen_kind : float
        How surely pen a mark must be for the second look to count: SECOND_LOOK_KIND in a grid with a mark
        surely pencil (SURE_PENCIL), else 0 (a mark that is not print is pen).
    """

    entries: list[int]
    kinds: dict[int, float]
    pencil: list[int]
    taken_out: list[int]
    pen_kind: float

    @classmethod
    def of(
        cls, probabilities: np.ndarray, givens: list[int], solution: list[int] | None, written: list[int] | None
    ) -> _Marks:
        """The marks of a reading's (81, 20) `probabilities` outside the `givens`."""
        marks = cls([0] * 81, {}, [], [], 0.0)
        by_kind = ClassProbabilities(np.asarray(probabilities))
        pencilled = bool((by_kind.candidates >= SURE_PENCIL).any())
        marks.pen_kind = SECOND_LOOK_KIND if pencilled else 0.0
        for cell in range(81):
            if givens[cell]:
                continue
            if written and cell in written and solution:
                marks.taken_out.append(cell)
                continue
            empty, handwritten, candidates = by_kind.empty[cell], by_kind.handwritten[cell], by_kind.candidates[cell]
            kind = (EMPTY, HANDWRITTEN, CANDIDATES)[int(np.argmax((empty, handwritten.sum(), candidates)))]
            if kind == CANDIDATES and not pencilled and 1.0 - empty - candidates >= LONE_PENCIL_DIGIT:
                kind = HANDWRITTEN  # a lone mark like a candidate in a grid without pencil: a small pen digit
            if kind == CANDIDATES:
                marks.pencil.append(cell)
            elif kind == HANDWRITTEN:
                marks.entries[cell] = int(np.argmax(handwritten)) + 1
                marks.kinds[cell] = float(handwritten.sum())
        return marks


@dataclass
class _Judging:
    """`read_entries`' reading as the doubted entries are judged.

    Attributes
    ----------
    judge : Judge
        The givens, the solution and the models.
    entries : list of int
        81 values: the entries as read, those read as the solution's digit put right.
    sure : list of int
        81 values: the entries that are not questions.
    unclear : list of UnclearEntry
        The questions.
    doubted : list of DoubtedEntry
        Every doubted entry, in the order judged.
    shapes : dict of int to np.ndarray
        The questions the second round may read, each mark's shape in the handwritten model's space.
    compared : list of (int, int) or None
        The player's right entries the first round compared with (the taken-out marks' when both steps ran:
        the fewer, so that a question of either has what is new to it looked at).
    """

    judge: Judge
    entries: list[int]
    sure: list[int] = field(default_factory=list)
    unclear: list[UnclearEntry] = field(default_factory=list)
    doubted: list[DoubtedEntry] = field(default_factory=list)
    shapes: dict[int, np.ndarray] = field(default_factory=dict)
    compared: list[tuple[int, int]] | None = None

    def decide(self, doubt: _Doubt, decided_by: DecidedBy, shape_own_ratio: float = math.inf) -> None:
        """Record `doubt` as decided; a question is unclear, any other but a mistake the solution's digit."""
        self.doubted.append(doubt.entry(decided_by, shape_own_ratio))
        if decided_by == "question":
            self.unclear.append(doubt.question())
        elif decided_by != "mistake":
            self.entries[doubt.cell] = doubt.right


@dataclass(frozen=True)
class _Doubt:
    """One doubted entry: its cell, the digit read, the solution's digit, and what it is judged by.

    Attributes
    ----------
    cell, read, right : int
        The cell (0..80), the digit read and the solution's digit (1..9).
    seen : EntryEvidence
        The digit models' evidence of the marks judged together; row `row` is this one's.
    row : int
        The row of `seen`.
    look : Look or None
        The second look at the mark; None without.
    taken_out : bool
        The mark was read as print and taken for pen.
    """

    cell: int
    read: int
    right: int
    seen: EntryEvidence
    row: int
    look: Look | None
    taken_out: bool = False

    def entry(self, decided_by: DecidedBy, shape_own_ratio: float = math.inf) -> DoubtedEntry:
        """The `DoubtedEntry` that records it."""

        def values(array: np.ndarray) -> tuple[float, ...]:
            return tuple(float(v) for v in np.asarray(array, np.float64))

        seen, row, look = self.seen, self.row, self.look
        return DoubtedEntry(
            self.cell,
            self.read,
            self.right,
            decided_by,
            self.taken_out,
            values(seen.handwritten[row]),
            values(seen.printed[row]),
            values(seen.distances[row]),
            None if look is None else values(look.votes),
            math.inf if look is None else float(look.ratio),
            math.inf if look is None else float(look.own_ratio),
            float(shape_own_ratio),
        )

    def question(self) -> UnclearEntry:
        """The question to the player: the digit read and the others it may be."""
        alternatives = _alternatives_of(self.seen, self.row, self.read, self.right)
        return UnclearEntry(self.cell, self.read, tuple(int(d) for d in alternatives))


def _judge_taken_out(judging: _Judging, taken_out: list[int]) -> None:
    """Marks read as print that the per-grid decision took for pen, read by the handwritten-digit model: one read
    as the solution's digit is right, and so is one the second look reads so (`looks_right`) or finds the
    least distorted (`nearest_is_right`); any other is a question, never a mistake."""
    judge = judging.judge
    solution = judge.solution
    seen = judge.ask(taken_out)
    readings = [int(np.argmax(seen.handwritten[row])) + 1 for row in range(len(taken_out))]
    own = judging.compared = judge.right_entries(judging.entries)
    second = judge.looks([c for c, d in zip(taken_out, readings) if d != solution[c]], own)
    for row, cell in enumerate(taken_out):
        judging.entries[cell] = readings[row]
        if readings[row] == solution[cell]:
            continue
        doubt = _Doubt(cell, readings[row], solution[cell], seen, row, second.get(cell), taken_out=True)
        if looks_right(doubt.look, doubt.right, seen.handwritten[row]):
            judging.decide(doubt, "second look")
        elif nearest_is_right(doubt.look, doubt.right):
            judging.decide(doubt, "least distorted")
        else:
            judging.decide(doubt, "question")
            if seen.shapes is not None:
                judging.shapes[cell] = seen.shapes[row]


def _judge_doubtful(judging: _Judging, doubtful: list[int], marks: _Marks) -> None:
    """The entries (`doubtful`, cells) read as another digit than the solution's, each decided (`_decided`).

    Right when the second look reads the solution's digit (`looks_right`) and
    the mark is surely pen (SECOND_LOOK_KIND, in a grid with a mark surely
    pencil); a mistake when the reading is certain (`_certain`), the mark is
    unlike the player's own right copies of the solution's digit
    (OWN_COPY_MARGIN) and the second look, if any, reads the digit read; right
    when the mark is like those copies (OWN_COPY_LIKE) or the solution's digit
    is the least distorted (`nearest_is_right`); else a question.
    ``judging.sure`` follows.
    """
    judge, entries, sure = judging.judge, judging.entries, judging.sure
    solution = judge.solution
    seen = judge.ask(doubtful)
    kinds = [marks.kinds[cell] for cell in doubtful]
    certain = {
        row for row, cell in enumerate(doubtful) if _certain(seen, row, kinds[row], entries[cell], solution[cell])
    }
    ratios = _own_copy_ratios(judge, doubtful, seen, entries, sure)
    first_own = judge.right_entries(sure)
    # the second look is asked only where it can change something: marks surely pen, which it may read as
    # right, and readings certain enough for a mistake, which it must confirm
    second = judge.looks(
        [cell for row, cell in enumerate(doubtful) if kinds[row] >= marks.pen_kind or row in certain], first_own
    )
    for row, cell in enumerate(doubtful):
        doubt = _Doubt(cell, entries[cell], solution[cell], seen, row, second.get(cell))
        ratio = ratios.get(row, math.inf)
        surely_pen = kinds[row] >= marks.pen_kind
        decided_by = _decided(doubt, surely_pen, row in certain, ratio)
        judging.decide(doubt, decided_by, ratio)
        if decided_by == "question":
            sure[cell] = 0
            if surely_pen and seen.shapes is not None:
                judging.shapes[cell] = seen.shapes[row]
        elif decided_by != "mistake":
            sure[cell] = doubt.right
    judging.compared = first_own if judging.compared is None else judging.compared


def _decided(doubt: _Doubt, surely_pen: bool, certain: bool, own_ratio: float) -> DecidedBy:
    """How a doubted entry is decided, given whether its mark is surely pen (for the second look), whether its
    reading is certain (`_certain`) and its own-copy ratio (`_own_copy_ratios`, ``inf`` when not measured)."""
    if looks_right(doubt.look, doubt.right, doubt.seen.handwritten[doubt.row]) and surely_pen:
        return "second look"  # the second look reads the solution's digit
    if certain and own_ratio > OWN_COPY_MARGIN and looks_like(doubt.look, doubt.read):
        return "mistake"  # a mistake both readings are sure of, unlike the player's own copies of the solution's
    if not certain and own_ratio < OWN_COPY_LIKE:
        return "own copy"  # the solution's digit as this player writes it
    if surely_pen and nearest_is_right(doubt.look, doubt.right):
        return "least distorted"
    return "question"


def _second_round(judging: _Judging) -> None:
    """The questions left, looked at again (`second_round`) with the entries just read right and like questions
    as copies; those it reads as the solution's digit are right."""
    judge = judging.judge
    assert judging.compared is not None  # set by whichever step left a question
    again = second_round(judge, judging.shapes, judging.entries, judging.sure, judging.compared)
    for cell in again:
        judging.entries[cell] = judging.sure[cell] = judge.solution[cell]
    judging.unclear = [entry for entry in judging.unclear if entry.cell not in again]
    judging.doubted = [replace(d, decided_by="second round") if d.cell in again else d for d in judging.doubted]


def _ask_instead_of_accusing(judging: _Judging) -> None:
    """The printed reading is in doubt (`read_entries`' `givens_doubted`): every mistake left becomes a question,
    the solution's digit its alternative."""
    solution, sure = judging.judge.solution, judging.sure
    asked = [cell for cell in range(81) if sure[cell] and sure[cell] != solution[cell]]
    for cell in asked:
        judging.unclear.append(UnclearEntry(cell, sure[cell], (solution[cell],)))
        sure[cell] = 0
    judging.doubted = [replace(d, decided_by="givens doubted") if d.cell in asked else d for d in judging.doubted]


def _own_copy_ratios(
    judge: Judge, doubtful: list[int], seen: EntryEvidence, entries: list[int], sure: list[int]
) -> dict[int, float]:
    """Row of `doubtful` (`seen` their evidence) -> how its mark compares with the player's own entries that
    agree with the solution: the distance to their nearest copy of the solution's digit over the distance to
    their nearest copy of the digit read (the model's nearest sample of it when they wrote none), in the
    handwritten model's shape space. Rows are left out when the evidence has no shapes
    (`EntryEvidence.shapes`, as from the cell probabilities alone) or the player wrote no right copy of the
    solution's digit."""
    solution = judge.solution
    if not doubtful or seen.shapes is None:
        return {}
    wanted = {entries[cell] for cell in doubtful} | {solution[cell] for cell in doubtful}
    own = [c for c in range(81) if sure[c] and sure[c] == solution[c] and sure[c] in wanted]
    if not own:
        return {}
    own_shapes = judge.ask(own).shapes
    if own_shapes is None:
        return {}
    ratios = {}
    for row, cell in enumerate(doubtful):
        read, right = entries[cell], solution[cell]
        apart = np.linalg.norm(own_shapes - seen.shapes[row], axis=1)
        to_right = [a for a, c in zip(apart, own) if sure[c] == right]
        to_read = [a for a, c in zip(apart, own) if sure[c] == read]
        if to_right:
            ratios[row] = float(min(to_right) / max(min(to_read) if to_read else seen.distances[row, read - 1], 1e-9))
    return ratios


def _certain(evidence: EntryEvidence, row: int, kind: float, read: int, solution: int) -> bool:
    """Whether the reading `read` of row `row` of `evidence` is certain enough to call `solution` absent."""
    if evidence.at_line is not None and evidence.at_line[row]:
        return False  # a stroke along a ruled line may have gone with the ruling: what is left may be another digit
    near = evidence.distances[row]
    return (
        kind >= MISTAKE_KIND
        and evidence.handwritten[row, read - 1] >= MISTAKE_VOTES
        and near[solution - 1] >= MISTAKE_MARGIN * max(near[read - 1], 1e-9)
        and evidence.printed[row, read - 1] >= MISTAKE_PRINTED
        and evidence.printed[row, solution - 1] <= MISTAKE_PRINTED_SOLUTION
    )


def _alternatives_of(evidence: EntryEvidence, row: int, read: int, solution: int) -> tuple[int, ...]:
    """Digits other than `read` that the mark may be, most probable first (at most MAX_OFFERED - 1)."""
    p = evidence.handwritten[row]
    near = evidence.distances[row]
    offered = {d for d in range(1, 10) if d != read and p[d - 1] >= ALTERNATIVE_PROBABILITY}
    if near[solution - 1] < MISTAKE_MARGIN * max(near[read - 1], 1e-9) or not offered:
        offered.add(solution)
    ranked = sorted(offered, key=lambda d: (d != solution, -p[d - 1], d))[: MAX_OFFERED - 1]
    return tuple(sorted(ranked, key=lambda d: (-p[d - 1], d)))


def _probabilities_only(probabilities: np.ndarray, cells: list[int]) -> EntryEvidence:
    """What the cell probabilities alone say of some marks: P(digit | handwritten) (P(digit | printed) for a
    mark with no handwritten share), and no distance or printed reading, so that no reading is certain
    (every disagreement with the solution is unclear)."""
    from ..vision.evidence import EntryEvidence

    chosen = ClassProbabilities(np.asarray(probabilities)[cells])
    handwritten = np.array(chosen.handwritten, np.float64)
    none = handwritten.sum(axis=1) <= 0
    handwritten[none] = chosen.printed[none]  # no handwritten share: the printed digit's
    handwritten = handwritten / np.maximum(handwritten.sum(axis=1, keepdims=True), 1e-12)
    return EntryEvidence(handwritten, np.ones_like(handwritten), np.zeros_like(handwritten))
