"""The player's entries: which handwritten marks are sure, mistakes or questions, in the light of the solution."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from ..solver.position import UnclearEntry
from .second_look import (
    SECOND_LOOK_KIND,
    Reread,
    looks_like,
    looks_right,
    nearest_is_right,
    right_entries,
    second_looks,
    second_round,
)

if TYPE_CHECKING:
    from ..vision.evidence import EntryEvidence

#: A handwritten digit that differs from the solution is called a mistake only
#: when its reading is certain: the cell's mark is handwritten with probability
#: at least MISTAKE_KIND, the handwritten-digit model gives the digit read at
#: least MISTAKE_VOTES, its nearest sample of the solution's digit lies at least
#: MISTAKE_MARGIN times as far as its nearest sample of the digit read, and the
#: printed-digit model (other training data, another view) reads the same digit
#: with probability at least MISTAKE_PRINTED and the solution's digit with at
#: most MISTAKE_PRINTED_SOLUTION, and the mark does not reach a
#: ruled line of its cell (`vision.cells.reaches_a_line`: a 2 written with its
#: base on the bottom line lost that stroke with the ruling and was read as a
#: sure 7, the one false mistake of photos 0-239 of `benchmarks/handwriting.py
#: --seed 24 --extra-givens 10`). Otherwise the entry is *unclear*:
#: a question for the player, never an accusation. Players mostly write the
#: right digit, so a reading that disagrees with the solution is more often a
#: misreading than a mistake, above all in a hand the model never saw. The
#: thresholds were chosen on handwriting faces rendered by the cell pipeline
#: and read by the model of the time, which had never seen them (20 faces,
#: 1,066 digits, 64% read right: no false mistake at these values, against 7
#: to 206 at looser ones); see `models/MODEL_CARD.md`. MISTAKE_MARGIN was 1.4:
#: on photos 0-479 of `benchmarks/handwriting.py --seed 24 --extra-givens 0`
#: (tuning) a right 6 written with a heavy, closed loop was called a mistake
#: (read as a sure 8, margin 1.44). At 1.5 the tuning photos (0-239 at 10
#: extra givens, 0-479 at 0) call 81 of their wrong entries mistakes instead
#: of 85 and no right one; the others are asked about. With the model of
#: 2026-11-27 afternoon (faces and digits drawn from allograph templates added,
#: see `models/MODEL_CARD.md`) the same 6 lay at 1.62 and MISTAKE_MARGIN went to
#: 1.65 (chosen on those tuning photos: 71 of their 81 wrong entries still
#: called mistakes). The printed-digit model must also rule the solution's
#: digit out (at most MISTAKE_PRINTED_SOLUTION): a right 7 whose bar was short
#: was read as a sure 1 by the handwritten model (margin 1.62) while the printed
#: model gave 7 a share of 0.20 (photo 60 of `--seed 57 --extra-givens 10`);
#: no wrong entry of the tuning photos gives the solution's digit over 0.014.
MISTAKE_KIND = 0.9


MISTAKE_VOTES = 0.9


MISTAKE_MARGIN = 1.65


MISTAKE_PRINTED = 0.5


MISTAKE_PRINTED_SOLUTION = 0.1


#: A mark whose most probable kind is pencilled candidates, but which is a
#: digit (printed or handwritten) with probability at least LONE_PENCIL_DIGIT,
#: is read as a pen entry when no mark of its grid is surely pencil
#: (candidates with probability at least SURE_PENCIL). By its layout alone a
#: small pen digit written in a cell's upper part looks like one pencilled
#: candidate; but players who pencil candidates pencil several cells: every
#: labelled pencil cell of the in-progress photos (training and validation)
#: lies in a grid with a mark read as candidates at 0.9 or more (with the
#: model of 2026-11-29 12 of those grids hold exactly one, the earlier model
#: read two or more in each).
#: Such an entry's kind is not certain (below MISTAKE_KIND), so it is never
#: called a mistake: it is right or a question. 0.3 at first (14 tuning
#: cells); 0.1 since `benchmarks/handwriting.py`'s pen-only photos showed pen
#: digits read as candidates at 0.72-0.84 and a digit at only 0.16-0.28 (thin
#: faces, small MNIST digits) left out as no entry at all, while no mark of
#: the 240 labelled photos lies between (in their grids without sure pencil
#: one mark is most probably candidates, a printed given, a digit at 0.66).
#: Below 0.1 a mark is all but certainly no digit.
LONE_PENCIL_DIGIT = 0.1


SURE_PENCIL = 0.9


#: Other digits offered for an unclear entry: the handwritten model gives them
#: at least this probability (the solution's digit is offered whenever the
#: reading does not rule it out).
ALTERNATIVE_PROBABILITY = 0.1


#: Most digits offered for an unclear entry, the one read included.
MAX_OFFERED = 3


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


def _doubted(
    evidence: EntryEvidence,
    row: int,
    cell: int,
    read: int,
    solution: int,
    decided_by: DecidedBy,
    second: dict[int, tuple[np.ndarray, float, float]],
    shape_own_ratio: float = math.inf,
    taken_out: bool = False,
) -> DoubtedEntry:
    """The `DoubtedEntry` of row `row` of `evidence` (cell `cell`), with the second look at it in `second`."""
    look = second.get(cell)

    def values(array: np.ndarray) -> tuple[float, ...]:
        return tuple(float(v) for v in np.asarray(array, np.float64))

    return DoubtedEntry(
        cell,
        read,
        solution,
        decided_by,
        taken_out,
        values(evidence.handwritten[row]),
        values(evidence.printed[row]),
        values(evidence.distances[row]),
        None if look is None else values(look[0]),
        math.inf if look is None else float(look[1]),
        math.inf if look is None else float(look[2]),
        float(shape_own_ratio),
    )


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


#: A would-be mistake (an entry read for sure as a digit other than the solution's) is compared with the
#: player's own writing in the same grid: their entries that agree with the solution. When the mark lies
#: within OWN_COPY_MARGIN times its distance to their nearest copy of the digit read (to the model's
#: nearest sample of it when they wrote none) of their nearest copy of the solution's digit, it is asked
#: about, not called a mistake: one hand's copies of a digit are alike, and a model that never saw the
#: hand can be sure and wrong. On photos 0-479 of `benchmarks/handwriting.py --seed 24` (20 held-out
#: hands, 10 extra givens) read by a candidate model of 2026-11-27 (24 variants of each handwriting face,
#: not shipped), a false mistake (a 7 read as a sure 1) lay at 1.05, nearer the player's own 1 than their
#: 7s; of its 64 real mistakes with such copies (75 in all) the nearest lay at 1.06, the next at 1.39.
OWN_COPY_MARGIN = 1.25


#: The other way round: an entry read as another digit than the solution's, but not surely (unclear),
#: whose mark lies within OWN_COPY_LIKE times that distance of the player's nearest own copy of the
#: solution's digit, is that digit as the player writes it: read as the solution's digit, a right entry,
#: not a question. On the tuning photos (seed 24, photos 0-239 at 10 extra givens and 0-479 at 0; the
#: model of 2026-11-27 afternoon) 1,336 entries were unclear, 733 of them right: below 0.5, 96 right ones
#: and no wrong one; the nearest wrong one lay at 0.60 (seeds 31, 99, 7 and 57: 111 right, the nearest
#: wrong one at 0.80).
OWN_COPY_LIKE = 0.5


def _own_copy_ratios(
    doubtful: list[int],
    rows: list[int],
    seen: EntryEvidence,
    entries: list[int],
    sure: list[int],
    solution: list[int],
    ask: Callable[[list[int]], EntryEvidence],
) -> dict[int, float]:
    """For rows of `doubtful` (`seen` their evidence), how the mark compares with the player's own entries
    that agree with the solution: the distance to their nearest copy of the solution's digit over the
    distance to their nearest copy of the digit read (the model's nearest sample of it when they wrote
    none), in the handwritten model's shape space. Rows are left out when the evidence has no shapes
    (`EntryEvidence.shapes`, as from the cell probabilities alone) or the player wrote no right copy of
    the solution's digit; `ask` gives the evidence of cells."""
    if not rows or seen.shapes is None:
        return {}
    wanted = {entries[doubtful[row]] for row in rows} | {solution[doubtful[row]] for row in rows}
    own = [c for c in range(81) if sure[c] and sure[c] == solution[c] and sure[c] in wanted]
    if not own:
        return {}
    own_shapes = ask(own).shapes
    if own_shapes is None:
        return {}
    ratios = {}
    for row in rows:
        read, right = entries[doubtful[row]], solution[doubtful[row]]
        apart = np.linalg.norm(own_shapes - seen.shapes[row], axis=1)
        to_right = [a for a, c in zip(apart, own) if sure[c] == right]
        to_read = [a for a, c in zip(apart, own) if sure[c] == read]
        if to_right:
            ratios[row] = float(min(to_right) / max(min(to_read) if to_read else seen.distances[row, read - 1], 1e-9))
    return ratios


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

    handwritten = np.array(probabilities[cells, 10:19], np.float64)
    none = handwritten.sum(axis=1) <= 0
    handwritten[none] = probabilities[np.asarray(cells)[none], 1:10]  # no handwritten share: the printed digit's
    handwritten = handwritten / np.maximum(handwritten.sum(axis=1, keepdims=True), 1e-12)
    return EntryEvidence(handwritten, np.ones_like(handwritten), np.zeros_like(handwritten))


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

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 20): a reading's probabilities over `vision.digits.CLASSES`
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
        Cells read as printed digits that `separate_written` (or `decide_givens`)
        took for pen. They are read by the handwritten-digit model (through
        `evidence`): one read as the solution's digit is right, one read as
        another digit is unclear, never a mistake and never taken for right
        (unless the second look, `reread`, reads the solution's digit).
    reread : callable, optional
        Given a list of cells, the solution's digit of each and the player's
        right entries as (cell, digit) pairs, a second reading of the cells'
        marks (`vision.evidence.SecondLook`: P(digit 1..9), each digit's least
        distortion, and each digit's least distortion to those entries' marks,
        from `vision.digits.CellClassifier.second_look`), or None when the
        model has none; asked only for entries whose reading differs from the
        solution (`Reread`). An entry it reads as the solution's digit (at
        least SECOND_LOOK_RIGHT of its votes, or a distortion ratio of at most
        SECOND_LOOK_RATIO where the first reading gives that digit at least
        SECOND_LOOK_FIRST, or one of at most OWN_LOOK_RATIO to the player's own
        copies of that digit), whose
        mark is handwritten with probability at least SECOND_LOOK_KIND (in a
        grid with a mark surely pencil; any mark elsewhere), is that digit
        (right); a mistake needs it to read the digit read. An entry that
        would be left a question is right too when the solution's digit is
        the least distorted by a margin (SECOND_LOOK_NEAREST), unless the
        second look's vote goes whole to another digit (UNANIMOUS).
    givens_doubted : bool
        The printed reading was repaired by taking a mark read as print for
        no printed digit (`Decision.dropped_print`): a pen digit kept as a
        given may have made that repair, and the solution may be another
        puzzle's. No entry is then a mistake: one that differs from the
        solution is unclear, the solution's digit its alternative.

    Returns
    -------
    EntryReading
        A handwritten digit that agrees with the solution is sure; one that
        differs is sure (a mistake) only when its reading is certain (see
        MISTAKE_KIND) and its shape is unlike the player's own right copies
        of the solution's digit in the grid (OWN_COPY_MARGIN, when `evidence`
        gives shapes), else it is unclear, unless its shape is like the
        player's own right copies of the solution's digit (OWN_COPY_LIKE):
        then it is read as that digit, and sure. The second look (`reread`)
        comes first: an entry it reads as the solution's digit is right.
        The entries left questions then get a second round (`second_round`):
        against the player's right copies including those just read right,
        and their like questions (OWN_GROUP_LIKE); an entry nearer their
        right copies of the solution's digit than their right copies of any
        other digit by OWN_APART is that digit.
        A cell's mark is an entry when handwriting is its most probable kind,
        or when it is most probably pencilled candidates in a grid with no
        mark surely pencil and is a digit with probability at least
        LONE_PENCIL_DIGIT (a small pen digit); it is pencil otherwise.
        Every entry whose first reading differs from the solution is listed in
        `EntryReading.doubted` with the measures it was judged by and the rule
        that decided it (`DoubtedEntry`).
    """
    entries = [0] * 81
    pencil = []
    kinds = {}
    taken_out: list[int] = []
    pencilled = bool((np.asarray(probabilities)[:, 19] >= SURE_PENCIL).any())
    pen_kind = SECOND_LOOK_KIND if pencilled else 0.0  # how surely pen a mark the second look reads must be
    for cell in range(81):
        if givens[cell]:
            continue
        if written and cell in written and solution:
            taken_out.append(cell)
            continue
        p = probabilities[cell]
        handwritten = p[10:19]
        kind = int(np.argmax((p[0], handwritten.sum(), p[19])))
        if kind == 2 and not pencilled and 1.0 - p[0] - p[19] >= LONE_PENCIL_DIGIT:
            kind = 1  # a lone mark like a candidate in a grid without pencil: a small pen digit (LONE_PENCIL_DIGIT)
        if kind == 2:
            pencil.append(cell)
        elif kind == 1:
            entries[cell] = int(np.argmax(handwritten)) + 1
            kinds[cell] = float(handwritten.sum())

    def ask(cells: list[int]) -> EntryEvidence:
        return evidence(cells) if evidence is not None else _probabilities_only(probabilities, cells)

    unclear = []
    doubted: list[DoubtedEntry] = []
    decided_by: DecidedBy  # how each doubted entry is decided (DoubtedEntry)
    shapes: dict[int, np.ndarray] = {}  # the questions' marks, for a second round (`second_round`)
    # the player's right entries the first round compared with (the taken-out marks' when both passes ran: the
    # fewer, so that a question of either pass has what is new to it looked at)
    compared: list[tuple[int, int]] | None = None
    if taken_out:
        # Marks read as print that the per-grid decision took for pen: read by the handwritten-digit model.
        # One read as the solution's digit is right; one read otherwise is a question, never a mistake (the
        # classifier did not even take the mark for handwriting, so no reading of it is certain).
        assert solution is not None  # cells are taken out of the givens only for a reading with a solution
        seen = ask(taken_out)
        readings = [int(np.argmax(seen.handwritten[row])) + 1 for row in range(len(taken_out))]
        own = compared = right_entries(entries, givens, solution)
        second = second_looks(reread, [c for c, d in zip(taken_out, readings) if d != solution[c]], solution, own)
        for row, cell in enumerate(taken_out):
            entries[cell] = readings[row]
            if entries[cell] == solution[cell]:
                continue
            if looks_right(second, cell, solution[cell], seen.handwritten[row]):
                decided_by = "second look"
            elif nearest_is_right(second, cell, solution[cell]):
                decided_by = "least distorted"
            else:
                decided_by = "question"
            doubted.append(_doubted(seen, row, cell, entries[cell], solution[cell], decided_by, second, taken_out=True))
            if decided_by == "question":
                unclear.append(
                    UnclearEntry(cell, entries[cell], _alternatives_of(seen, row, entries[cell], solution[cell]))
                )
                if seen.shapes is not None:
                    shapes[cell] = seen.shapes[row]
            else:
                entries[cell] = solution[cell]  # read as the solution's digit, or that digit least distorted
    sure = list(entries)
    for entry in unclear:
        sure[entry.cell] = 0
    doubtful = [c for c in kinds if solution and entries[c] != solution[c]]
    if doubtful:
        assert solution is not None  # entries differ from a solution only when there is one
        seen = ask(doubtful)
        certain = [
            row for row, cell in enumerate(doubtful) if _certain(seen, row, kinds[cell], entries[cell], solution[cell])
        ]
        ratios = _own_copy_ratios(doubtful, list(range(len(doubtful))), seen, entries, sure, solution, ask)
        # asked only where it can change something: marks surely pen (SECOND_LOOK_KIND, where the grid has
        # pencil), which it may read as right, and readings certain enough for a mistake, which it must confirm
        first_own = right_entries(sure, givens, solution)
        second = second_looks(
            reread,
            [cell for row, cell in enumerate(doubtful) if kinds[cell] >= pen_kind or row in certain],
            solution,
            first_own,
        )
        # like the player's own copies of the solution's digit: not a mistake, and below OWN_COPY_LIKE that digit
        # and, when there is a second look, read by it as the same digit
        accused = [
            row
            for row in certain
            if ratios.get(row, np.inf) > OWN_COPY_MARGIN and looks_like(second, doubtful[row], entries[doubtful[row]])
        ]
        for row, cell in enumerate(doubtful):
            read, right = entries[cell], solution[cell]
            if looks_right(second, cell, right, seen.handwritten[row]) and kinds[cell] >= pen_kind:
                decided_by = "second look"  # the second look reads the solution's digit
            elif row in accused:
                decided_by = "mistake"  # a mistake both readings are sure of
            elif row not in certain and ratios.get(row, np.inf) < OWN_COPY_LIKE:
                decided_by = "own copy"  # the solution's digit as this player writes it
            elif kinds[cell] >= pen_kind and nearest_is_right(second, cell, right):
                decided_by = "least distorted"  # the solution's digit is the least distorted: right
            else:
                decided_by = "question"
            doubted.append(_doubted(seen, row, cell, read, right, decided_by, second, ratios.get(row, math.inf)))
            if decided_by == "question":
                unclear.append(
                    UnclearEntry(cell, read, tuple(int(d) for d in _alternatives_of(seen, row, read, right)))
                )
                sure[cell] = 0
                if kinds[cell] >= pen_kind and seen.shapes is not None:
                    shapes[cell] = seen.shapes[row]
            elif decided_by != "mistake":
                entries[cell] = sure[cell] = right  # read as the solution's digit
        compared = first_own if compared is None else compared
    if shapes:
        # a second round for the questions left, with the entries just read right and like questions as copies
        assert solution is not None and compared is not None  # questions are asked only against a solution
        again = second_round(sorted(shapes), shapes, entries, sure, givens, solution, ask, reread, compared)
        for cell in again:
            entries[cell] = sure[cell] = solution[cell]
        unclear = [entry for entry in unclear if entry.cell not in again]
        doubted = [replace(d, decided_by="second round") if d.cell in again else d for d in doubted]
    if givens_doubted and solution:
        asked = [cell for cell in range(81) if sure[cell] and sure[cell] != solution[cell]]  # the mistakes
        for cell in asked:
            unclear.append(UnclearEntry(cell, sure[cell], (solution[cell],)))
            sure[cell] = 0
        doubted = [replace(d, decided_by="givens doubted") if d.cell in asked else d for d in doubted]
    unclear.sort(key=lambda entry: entry.cell)
    return EntryReading(entries, sure, pencil, unclear, doubted)
