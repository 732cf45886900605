"""The second look at a doubted entry: the image distortion model, and the player's own right copies.

An entry whose first reading (HOG features, k-nearest neighbours) differs from
the solution is looked at again by the image distortion model
(`vision.deformation`, Keysers et al. 2007: nearest neighbours whose distance
forgives small local bends), against the model's samples and against the
player's own right entries in the grid: one hand writes a digit alike each
time, and a model that never saw that hand may doubt it. Entries still
questions after the first round get a second round (`second_round`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from ..vision.evidence import EntryEvidence, SecondLook

#: The second look reads the solution's digit when it gives it at least this share of its votes (a majority);
#: fitted with `benchmarks/handwriting.py`.
SECOND_LOOK_RIGHT = 0.5
#: In a grid with a mark surely pencil, the second look counts only for a mark the kind model gives
#: handwritten at least this: one it doubts is pen at all stays a question; fitted with
#: `benchmarks/handwriting.py`.
SECOND_LOOK_KIND = 0.75
#: ... or when the solution's digit is within this distortion ratio of the nearest digit (`SecondLook.ratio`),
#: the first reading gives it at least SECOND_LOOK_FIRST and some votes go to it; fitted with
#: `benchmarks/handwriting.py`.
SECOND_LOOK_RATIO = 1.1
SECOND_LOOK_FIRST = 0.1
#: ... or when the mark is at most this many times as distorted from the player's own right copies of the
#: solution's digit as from any other digit, the model's samples and their own copies together
#: (`SecondLook.own_ratio`); fitted with `benchmarks/handwriting.py`.
OWN_LOOK_RATIO = 0.85
#: An entry otherwise left a question is the solution's digit when that digit is the least distorted of all
#: by this margin (`SecondLook.ratio` at most this), unless the vote goes whole to another digit; fitted with
#: `benchmarks/unclear_entries.py`.
SECOND_LOOK_NEAREST = 0.95
#: A vote share at least this is the whole vote.
UNANIMOUS = 0.999
#: In the second round, a question's like questions (same digit read where the solution has the same digit)
#: count as copies of the solution's digit when the mark lies within this many times its distance to the
#: player's nearest right copy of the digit read of its nearest like question (handwritten model's space):
#: one hand's misread copies of a digit are read alike.
OWN_GROUP_LIKE = 0.8
#: In the second round, a question is the solution's digit when its mark lies at most OWN_APART times as far
#: from the player's nearest right copy of that digit as from their nearest right copy of any other
#: (`SecondLook.own_apart`), that copy at most OWN_APART_NEAR times as far as the model's nearest sample
#: (`SecondLook.own_over_model`); fitted with `benchmarks/own_copies.py`.
OWN_APART = 0.6
OWN_APART_NEAR = 2.0

#: `read_entries`' second look: given the cells asked about, the solution's digit of each, and the player's own
#: right entries as (cell, digit) pairs, a `SecondLook` of the cells (None without one).
Reread = Callable[[list[int], list[int], list[tuple[int, int]]], "SecondLook | None"]


class Look(NamedTuple):
    """The second look at one mark, asked about the solution's digit.

    Attributes
    ----------
    votes : np.ndarray
        Shape (9,) float64: P(digit 1..9) (`SecondLook.votes`).
    ratio : float
        The solution's digit's distortion ratio (`SecondLook.ratio`).
    own_ratio : float
        The same against the player's own right copies (`SecondLook.own_ratio`); ``inf`` without.
    """

    votes: np.ndarray
    ratio: float
    own_ratio: float


@dataclass(frozen=True)
class Judge:
    """What `read_entries` judges a doubted entry by.

    Attributes
    ----------
    givens, solution : list of int
        81 values each: the printed puzzle and its solution.
    ask : callable
        Given cells, the digit models' `EntryEvidence` of their marks.
    reread : Reread or None
        The second look; None when the model has none.
    """

    givens: list[int]
    solution: list[int]
    ask: Callable[[list[int]], EntryEvidence]
    reread: Reread | None

    def right_entries(self, values: list[int]) -> list[tuple[int, int]]:
        """The player's entries among 81 `values` that agree with the solution, as (cell, digit) pairs: the
        copies of their own hand that the second look measures a doubted mark against."""
        return right_entries(values, self.givens, self.solution)

    def looks(self, cells: list[int], own: list[tuple[int, int]]) -> dict[int, Look]:
        """The second look at each of `cells`, asked about the solution's digits, `own` the player's right
        entries as (cell, digit); empty without a second look."""
        if self.reread is None or not cells:
            return {}
        look = self.reread(cells, [self.solution[cell] for cell in cells], own)
        if look is None:
            return {}
        return {
            cell: Look(
                np.asarray(look.votes[row], np.float64),
                look.ratio(row, self.solution[cell]),
                look.own_ratio(row, self.solution[cell]),
            )
            for row, cell in enumerate(cells)
        }


def right_entries(values: list[int], givens: list[int], solution: list[int]) -> list[tuple[int, int]]:
    """The player's entries among 81 `values` (not `givens`) that agree with `solution`, as (cell, digit)."""
    return [(c, v) for c, v in enumerate(values) if v and not givens[c] and v == solution[c]]


def looks_right(look: Look | None, right: int, first: np.ndarray) -> bool:
    """Whether the second look reads the solution's digit `right` (1..9).

    At least SECOND_LOOK_RIGHT of its votes; or a distortion ratio of at most
    SECOND_LOOK_RATIO where the first reading, `first` (shape (9,),
    P(digit 1..9) of the handwritten-digit model), gives that digit at least
    SECOND_LOOK_FIRST and the votes give it some share (a ratio with every vote
    for another digit can pass a wrong entry); or a ratio to the player's own
    copies of it of at most OWN_LOOK_RATIO. False without a second look.
    """
    if look is None:
        return False
    votes, ratio, own_ratio = look
    if votes[right - 1] >= SECOND_LOOK_RIGHT or own_ratio <= OWN_LOOK_RATIO:
        return True
    return ratio <= SECOND_LOOK_RATIO and first[right - 1] >= SECOND_LOOK_FIRST and votes[right - 1] > 0


def nearest_is_right(look: Look | None, right: int) -> bool:
    """Whether the second look finds the solution's digit `right` the least distorted of all by the margin of
    SECOND_LOOK_NEAREST, while its vote does not go whole (UNANIMOUS) to another digit; False without one."""
    if look is None:
        return False
    outvoted = float(np.max(np.delete(look.votes, right - 1))) >= UNANIMOUS
    return look.ratio <= SECOND_LOOK_NEAREST and not outvoted


def looks_like(look: Look | None, read: int) -> bool:
    """Whether the second look, when there is one, reads the digit `read` (its most probable); True without."""
    return look is None or int(np.argmax(look.votes)) + 1 == read


def second_round(
    judge: Judge, shapes: dict[int, np.ndarray], entries: list[int], sure: list[int], first: list[tuple[int, int]]
) -> list[int]:
    """The entries left questions by `read_entries`' first round that a second look reads as the solution's digit
    once the player's copies of it include what the first round read right and the entry's like questions.

    The questions share one second look against the player's right copies:
    one is right when it lies nearer their copies of the solution's digit than
    their copies of any other digit (`_nearer_own_copies`: they wrote right
    copies of the digit read too) or, with a copy of the solution's digit new
    since the first round and no like questions near it, nearer those than any
    other digit at all (OWN_LOOK_RATIO). A question whose like questions lie
    near it (`_like_questions`) gets a look of its own as well, with them
    among the copies of the solution's digit.

    Parameters
    ----------
    judge : Judge
        The givens, the solution and the models; without a second look nothing changes.
    shapes : dict of int to np.ndarray
        The questions (cells) the second look may read, each mark's shape in the handwritten model's space
        (`EntryEvidence.shapes`), shape (d,) float32.
    entries, sure : list of int
        81 values each: the entries as read and those sure after the first round.
    first : list of (int, int)
        The player's right entries the first round compared with, as (cell, digit).

    Returns
    -------
    list of int
        Cells, ascending, read as the solution's digit.
    """
    questions = sorted(shapes)
    if judge.reread is None or not questions:
        return []
    solution = judge.solution
    own = judge.right_entries(sure)
    compared = set(first)
    new_digits = {digit for cell, digit in own if (cell, digit) not in compared}
    partners = _like_questions(judge, shapes, entries, sure, own)
    own_digits = {digit for _, digit in own}  # digits the player wrote a right copy of
    looked = [
        cell
        for cell in questions
        if solution[cell] in own_digits
        and (entries[cell] in own_digits or (solution[cell] in new_digits and cell not in partners))
    ]
    look = judge.reread(looked, [solution[cell] for cell in looked], own) if looked else None
    right = []
    for row, cell in enumerate(looked):
        if look is None:
            break
        digit = solution[cell]
        if _nearer_own_copies(look, row, digit, entries[cell]) or (
            digit in new_digits and cell not in partners and look.own_ratio(row, digit) <= OWN_LOOK_RATIO
        ):
            right.append(cell)
    for cell, others in partners.items():
        if cell in right:
            continue
        alone = judge.reread([cell], [solution[cell]], own + [(other, solution[cell]) for other in others])
        if alone is not None and alone.own_ratio(0, solution[cell]) <= OWN_LOOK_RATIO:
            right.append(cell)
    return sorted(right)


def _like_questions(
    judge: Judge, shapes: dict[int, np.ndarray], entries: list[int], sure: list[int], own: list[tuple[int, int]]
) -> dict[int, list[int]]:
    """Question -> its like questions (same digit read, same solution's digit) when its mark lies within
    OWN_GROUP_LIKE times its distance to the player's nearest right copy of the digit read (`own`) of the
    nearest of them; only questions whose digit read the player also wrote right, since two copies of a wrong
    digit lie as near each other as to their own right copies of it."""
    questions = sorted(shapes)
    solution = judge.solution
    like = {
        cell: [o for o in questions if o != cell and entries[o] == entries[cell] and solution[o] == solution[cell]]
        for cell in questions
    }
    grouped = [cell for cell in questions if like[cell]]
    read_in_groups = {entries[cell] for cell in grouped}
    copies_of_read = [cell for cell, digit in own if digit in read_in_groups]
    copy_shapes = judge.ask(copies_of_read).shapes if copies_of_read else None
    partners: dict[int, list[int]] = {}
    if copy_shapes is None:
        return partners
    for cell in grouped:
        mine = [shape for shape, c in zip(copy_shapes, copies_of_read) if sure[c] == entries[cell]]
        if not mine:
            continue
        to_read = min(float(np.linalg.norm(shape - shapes[cell])) for shape in mine)
        to_like = min(float(np.linalg.norm(shapes[o] - shapes[cell])) for o in like[cell])
        if to_like <= OWN_GROUP_LIKE * to_read:
            partners[cell] = like[cell]
    return partners


def _nearer_own_copies(look: SecondLook, row: int, digit: int, read: int) -> bool:
    """Whether mark `row` of `look` lies nearer the player's own right copies of `digit` (1..9) than their right
    copies of any other digit, `read` among them, by OWN_APART (`SecondLook.own_apart`), while their nearest copy
    of `digit` is at most OWN_APART_NEAR times as far as the model's nearest sample of any digit
    (`SecondLook.own_over_model`)."""
    return look.own_apart(row, digit, read) <= OWN_APART and look.own_over_model(row, digit) <= OWN_APART_NEAR
