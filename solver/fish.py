"""Fish: x_wing, swordfish, jellyfish and their finned and sashimi forms.

Technique write-ups: HoDoKu "Basic Fish" and "Finned/Sashimi Fish"
(tech_fishb.php, tech_fishfs.php), SudokuWiki "X-Wing", "Swordfish",
"Jellyfish", "Finned X-Wing". For a digit, N base lines (rows, or columns)
whose candidates lie in N cover lines lock the digit into the cover lines'
crossings with the base: it leaves the rest of the cover lines. With fins -
extra base candidates outside the cover lines, all in one box - only cover
cells in the fin box are eliminated. A finned fish is sashimi when some base
line has a single candidate left in the cover lines.

A basic fish is a hidden subset whose "house" is the digit's nine rows (or
columns) and whose "digits" are their cross positions: N lines whose places
fill N positions. Basic fish are therefore found by the same search as the
subsets (`subsets.naked_subsets_of` over the nine line masks); finned fish walk
the line combinations with pruning.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial, reduce
from itertools import combinations
from operator import or_
from typing import NamedTuple

from .board import Board
from .grid import box_of
from .steps import Step
from .subsets import NO_SUBSETS, naked_subsets_of
from .techniques import Technique

FISH_NAMES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


STACK_MASKS = (0b000000111, 0b000111000, 0b111000000)


def _feasible(union: int, size: int, finned: bool) -> bool:
    """Can base lines with these cross positions (or more lines added to them) still make a fish?"""
    if not finned:
        return union.bit_count() <= size
    # All fins in one box: outside some stack, the positions must be cover lines.
    return union.bit_count() <= size + 3 and min((union & ~m).bit_count() for m in STACK_MASKS) <= size


#: FEASIBLE[finned][size][union]: `_feasible` for every 9-bit union of cross positions, looked up while
#: base lines are combined.
FEASIBLE = {
    finned: {size: [_feasible(u, size, finned) for u in range(512)] for size in (2, 3, 4)} for finned in (False, True)
}


def _finned_covers(size: int, union: int) -> list[tuple[int, int, int, int, int]]:
    """Ways to split cross positions `union` into `size` cover lines and fins inside one stack:
    (stack 0..2, cover mask, its positions in the stack, fin mask, fin positions as a 3-bit subset of the
    stack's). Fins lie in one box, so in one stack of cross positions, and every position outside that stack
    must be a cover line."""
    out = []
    for stack in range(3):
        stack_mask = 0b111 << (3 * stack)
        required = union & ~stack_mask
        need = size - required.bit_count()
        optional = [x for x in range(3 * stack, 3 * stack + 3) if union >> x & 1]
        if need < 0 or need >= len(optional):
            continue
        for chosen in combinations(optional, need):
            cover_mask = required | sum(1 << x for x in chosen)
            fin_mask = union & ~cover_mask
            out.append((stack, cover_mask, cover_mask & stack_mask, fin_mask, fin_mask >> 3 * stack))
    return out


#: FINNED_COVERS[size][union]: `_finned_covers` for every 9-bit union, looked up per base set.
FINNED_COVERS = {size: [_finned_covers(size, u) for u in range(512)] for size in (2, 3, 4)}
#: FIN_TARGETS[size][union]: the cross positions where some way of `FINNED_COVERS` could eliminate (its cover
#: lines in its fin's stack).
FIN_TARGETS = {
    size: [reduce(or_, (in_stack for _, _, in_stack, _, _ in covers), 0) for covers in FINNED_COVERS[size]]
    for size in (2, 3, 4)
}


#: FINNED_BASE[size][union]: can base lines with these cross positions be a finned fish of `size` (`size` + 1 to
#: `size` + 3 positions, all but one stack's in `size` covers)?
FINNED_BASE = {
    size: [FEASIBLE[True][size][u] and size < u.bit_count() <= size + 3 for u in range(512)] for size in (2, 3, 4)
}


def _finned_base_sets(
    lines: list[int], positions: list[int], reach_in: list[list[int]]
) -> list[list[tuple[tuple[int, ...], int, int, int]]]:
    """The combinations of 2, 3 and 4 base lines among `lines` that can form a finned fish, pruned as they are
    built: per size 2..4 (index size - 2), in the order of `itertools.combinations`, (base lines, union of
    their cross positions, base lines as a 9-bit mask, reach), where reach is the positions held by the other
    lines of the bands of the base (from `reach_in`: per band, by the subset of its lines in the base). A set is
    kept only when its reach meets `FIN_TARGETS`: an elimination shares its band with a fin line and lies in a
    cover line of the fin's stack. One walk serves all three sizes: a set with no fish among its extensions
    is not extended."""
    deeper = FEASIBLE[True][4]
    fit2, fit3, fit4 = FINNED_BASE.values()
    targets2, targets3, targets4 = FIN_TARGETS.values()
    reach0, reach1, reach2 = reach_in
    masks = [positions[line] for line in lines]
    bits = [1 << line for line in lines]
    n = len(lines)
    out2: list[tuple[tuple[int, ...], int, int, int]] = []
    out3: list[tuple[tuple[int, ...], int, int, int]] = []
    out4: list[tuple[tuple[int, ...], int, int, int]] = []
    for a in range(n - 1):
        ua = masks[a]
        for b in range(a + 1, n):
            uab = ua | masks[b]
            if not deeper[uab]:
                continue
            mab = bits[a] | bits[b]
            if fit2[uab]:
                reach = reach0[mab & 7] | reach1[mab >> 3 & 7] | reach2[mab >> 6]
                if reach & targets2[uab]:
                    out2.append(((lines[a], lines[b]), uab, mab, reach))
            for c in range(b + 1, n):
                uabc = uab | masks[c]
                if not deeper[uabc]:
                    continue
                mabc = mab | bits[c]
                if fit3[uabc]:
                    reach = reach0[mabc & 7] | reach1[mabc >> 3 & 7] | reach2[mabc >> 6]
                    if reach & targets3[uabc]:
                        out3.append(((lines[a], lines[b], lines[c]), uabc, mabc, reach))
                for d in range(c + 1, n):
                    u = uabc | masks[d]
                    if fit4[u]:
                        m = mabc | bits[d]
                        reach = reach0[m & 7] | reach1[m >> 3 & 7] | reach2[m >> 6]
                        if reach & targets4[u]:
                            out4.append(((lines[a], lines[b], lines[c], lines[d]), u, m, reach))
    return [out2, out3, out4]


def _cell(line: int, x: int, rows: bool) -> int:
    return line * 9 + x if rows else x * 9 + line


def _fish(board: Board, size: int, finned: bool) -> Iterator[Step]:
    """The fish steps of `size`, digit by digit, from the fish of all three sizes that `_digit_fish` keeps on the
    board per digit; finned fish of every digit before sashimi ones (HoDoKu searches the two apart, finned
    first). A step is made only when it is asked for (the ladder takes the first)."""
    if not finned:
        found = (fish for fish in board.digit_steps(("fish", False), _DIGIT_FISH[False]) if fish.size == size)
    else:
        found = (
            fish
            for sashimi in (False, True)
            for fish in board.digit_steps(("fish", True), _DIGIT_FISH[True])
            if fish.size == size and fish.name.startswith("sashimi") == sashimi
        )
    return (step for fish in found for step in _fish_step(fish))


class Fish(NamedTuple):
    """A fish `_digit_fish` found: its size (2..4), digit, whether its base lines are rows, the base lines
    (0..8), the cover lines as a 9-bit mask, its fin box (1..9, 0 for none), technique name, and the nine
    line masks of the base direction (the digit's places in each row, or each column)."""

    size: int
    digit: int
    rows: bool
    base: tuple[int, ...]
    cover_mask: int
    fin_box: int
    name: str
    lines: list[int]


def _digit_fish(board: Board, digit: int, finned: bool) -> list[Fish]:
    """The fish (or finned fish) of sizes 2, 3 and 4 on one digit: per size, rows as base lines first, then
    columns."""
    positions = board.house_positions(digit)
    rows, columns = positions[0:9], positions[9:18]
    if not finned and naked_subsets_of(tuple(rows)) == NO_SUBSETS == naked_subsets_of(tuple(columns)):
        return []  # no N lines with their places in N cover lines: mostly so
    by_size: list[list[Fish]] = [[], [], []]
    for by_rows, lines, cross in ((True, rows, columns), (False, columns, rows)):
        for size, patterns in enumerate(_fish_patterns(lines, cross, finned, by_rows), 2):
            by_size[size - 2] += (
                Fish(size, digit, by_rows, base, cover_mask, fin_box, name, lines)
                for base, cover_mask, fin_box, name in patterns
            )
    return by_size[0] + by_size[1] + by_size[2]


#: Per finned: the finder of a digit's fish of all sizes (`Board.digit_steps`).
_DIGIT_FISH = {finned: partial(_digit_fish, finned=finned) for finned in (False, True)}
#: BAND_MASKS[k]: the three lines (of nine) of band k, as a 9-bit mask.
BAND_MASKS = STACK_MASKS


def _sub_unions(masks: list[int]) -> list[int]:
    """The unions of the eight subsets of three masks, indexed by the subset as a 3-bit mask."""
    a, b, c = masks
    return [0, a, b, a | b, c, a | c, b | c, a | b | c]


#: _FINNED_LINE[mask]: can a line with these cross positions be a base line of a finned fish of up to four lines
#: (one to seven positions, the fins lying in one box)?
_FINNED_LINE = bytes(0 < m.bit_count() <= 7 for m in range(512))


def _fish_patterns(
    positions: list[int], cross: list[int], finned: bool, rows: bool
) -> list[list[tuple[tuple[int, ...], int, int, str]]]:
    """The fish (or finned fish) of 2, 3 and 4 base lines in one digit's 9 line masks `positions` (of rows when
    `rows`, else of columns; `cross` holds the other lines' masks, the transpose): per size (index size - 2), in
    search order, (base lines, cover mask, fin box 1..9 or 0, technique name), each with a candidate in a cover
    line outside the base (in the fin box when finned)."""
    found: list[list[tuple[tuple[int, ...], int, int, str]]] = [[], [], []]
    if not finned:  # N lines whose places lie in N cover lines: the lines' naked subsets
        for size, subsets in enumerate(naked_subsets_of(tuple(positions)), 2):
            for base, union in subsets:
                # Does any other line hold the digit in a cover line?
                if any(positions[line] & union for line in range(9) if line not in base):
                    found[size - 2].append((base, union, 0, FISH_NAMES[size]))
        return found
    lines = [i for i in range(9) if _FINNED_LINE[positions[i]]]
    if len(lines) < 2:
        return found
    # Per band, the positions held by each subset of its three lines; by the subset of its lines in a base, the
    # positions held by its other lines, none when the base has no line there (a target shares its band with a
    # fin line).
    held_by = [_sub_unions(positions[k : k + 3]) for k in (0, 3, 6)]
    all_bases = _finned_base_sets(
        lines, positions, [[0] + [held[7 ^ subset] for subset in range(1, 8)] for held in held_by]
    )
    if not (all_bases[0] or all_bases[1] or all_bases[2]):
        return found
    # Per stack, the lines holding the digit at each subset of its three cross positions (the fin test).
    lines_at = [_sub_unions(cross[k : k + 3]) for k in (0, 3, 6)]
    for size, bases in enumerate(all_bases, 2):
        out = found[size - 2]
        base_name = FISH_NAMES[size]
        covers_of = FINNED_COVERS[size]
        for base, union, base_mask, reach in bases:
            for stack, cover_mask, in_stack, fin_x, fin_subset in covers_of[union]:
                if not reach & in_stack:
                    continue  # nothing to eliminate in the fin's stack (the target test below would fail too)
                fin_lines = lines_at[stack][fin_subset] & base_mask  # the base lines with a fin
                band = ((fin_lines & -fin_lines).bit_length() - 1) // 3
                if fin_lines & ~BAND_MASKS[band]:
                    continue  # fins in two bands
                # Eliminations can only be in the fin box: other lines of the fin's
                # band, in cover lines of the fin's stack.
                if not held_by[band][~base_mask >> 3 * band & 7] & in_stack:
                    continue
                if any(not positions[b] & cover_mask for b in base):
                    continue
                fins = [
                    _cell(b, x, rows)
                    for b in base
                    if fin_lines >> b & 1
                    for x in range(9)
                    if (positions[b] & fin_x) >> x & 1
                ]
                sashimi = any((positions[b] & cover_mask).bit_count() == 1 for b in base)
                name = f"{'sashimi' if sashimi else 'finned'}_{base_name}"
                out.append((base, cover_mask, box_of(fins[0]) + 1, name))
    return found


def _fish_step(fish: Fish) -> Iterator[Step]:
    """The step of a fish (none when it eliminates nothing): its cover lines' other candidates go (in the fin
    box only, when finned)."""
    _, digit, rows, base, cover_mask, fin_box, name, positions = fish
    base_set = set(base)
    elims = []
    for x in range(9):
        if not cover_mask >> x & 1:
            continue
        for line in range(9):
            if line in base_set or not positions[line] >> x & 1:
                continue
            cell = _cell(line, x, rows)
            if fin_box and box_of(cell) != fin_box - 1:
                continue
            elims.append((cell, digit))
    if not elims:
        return
    covers = [x for x in range(9) if cover_mask >> x & 1]
    base_houses = [b if rows else 9 + b for b in base]
    cover_houses = [9 + x if rows else x for x in covers]
    cells = tuple(_cell(b, x, rows) for b in base for x in range(9) if positions[b] >> x & 1)
    # the fins: the base cells outside the cover lines (all in the fin box)
    fins = tuple(c for c in cells if not cover_mask >> (c % 9 if rows else c // 9) & 1) if fin_box else ()
    yield Step(
        Technique(name),
        eliminations=tuple(elims),
        cells=cells,
        houses=tuple(base_houses + cover_houses),
        digits=(digit,),
        base=tuple(base_houses),
        cover=tuple(cover_houses),
        fins=fins,
    )


def find_x_wing(board: Board) -> Iterator[Step]:
    """Basic fish of size 2."""
    return _fish(board, 2, finned=False)


def find_swordfish(board: Board) -> Iterator[Step]:
    """Basic fish of size 3."""
    return _fish(board, 3, finned=False)


def find_jellyfish(board: Board) -> Iterator[Step]:
    """Basic fish of size 4."""
    return _fish(board, 4, finned=False)


def find_finned_x_wing(board: Board) -> Iterator[Step]:
    """Finned and sashimi x-wings (the step's technique says which)."""
    return _fish(board, 2, finned=True)


def find_finned_swordfish(board: Board) -> Iterator[Step]:
    """Finned and sashimi swordfish."""
    return _fish(board, 3, finned=True)


def find_finned_jellyfish(board: Board) -> Iterator[Step]:
    """Finned and sashimi jellyfish."""
    return _fish(board, 4, finned=True)
