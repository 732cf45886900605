"""The 81-cell grid: houses, peers, parsing, printing and candidate bitmasks.

Cells are numbered ``row * 9 + column`` (0..80, row-major, upright). A puzzle
is a list of 81 ints, 0 for an empty cell and 1..9 for a given or placed digit.
Candidates are 9-bit masks: bit ``d - 1`` set means digit ``d`` is still
possible in that cell (the representation tdoku's write-up recommends for the
hot loop: set operations on houses become integer ``&``, ``|`` and popcounts).
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter

from ..errors import Failure, Kind

ALL_DIGITS = 0x1FF  # bits for digits 1..9
#: POPCOUNT[m]: the number of set bits of a 9-bit mask m (0..511), as a table.
POPCOUNT = bytes(m.bit_count() for m in range(512))

ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLUMNS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)] for br in range(3) for bc in range(3)]
#: All 27 houses: rows 0..8, columns 9..17, boxes 18..26.
HOUSES = ROWS + COLUMNS + BOXES
#: Per house, a C-level getter of its nine cells' entries from an 81-long list (hot scans in board and singles).
HOUSE_GETTERS = [itemgetter(*house) for house in HOUSES]
HOUSE_KINDS = ["row"] * 9 + ["column"] * 9 + ["box"] * 9


def row_of(cell: int) -> int:
    """Row (0..8) of a cell index."""
    return cell // 9


def column_of(cell: int) -> int:
    """Column (0..8) of a cell index."""
    return cell % 9


def box_of(cell: int) -> int:
    """Box (0..8, row-major over the 3x3 boxes) of a cell index."""
    return (cell // 27) * 3 + (cell % 9) // 3


#: BOX_OF[cell]: the box (0..8) of each cell, as a table (`box_of` for hot loops).
BOX_OF = tuple(box_of(c) for c in range(81))
#: HOUSES_OF_CELL[cell] = (row house, column house, box house) as indices into HOUSES.
HOUSES_OF_CELL = [(row_of(c), 9 + column_of(c), 18 + box_of(c)) for c in range(81)]
#: PEERS[cell]: the 20 other cells that share a house with it.
PEERS = [sorted({p for h in HOUSES_OF_CELL[c] for p in HOUSES[h]} - {c}) for c in range(81)]
#: PEER_BITS[cell]: the same 20 peers as an 81-bit set (bit p for cell p).
PEER_BITS = [sum(1 << p for p in PEERS[c]) for c in range(81)]
#: HOUSE_BITS[house]: the cells of HOUSES[house] as an 81-bit set.
HOUSE_BITS = [sum(1 << c for c in house) for house in HOUSES]


def set_bits(x: int) -> list[int]:
    """Indices of the set bits of a non-negative int, ascending: the members of a cell set (81-bit) or a
    candidate set (729-bit) kept as an int."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def digit_bit(digit: int) -> int:
    """Bitmask of one digit (1..9)."""
    return 1 << (digit - 1)


#: _DIGITS[m]: the digits of a 9-bit mask m, as a table (`digits_of`).
_DIGITS = tuple(tuple(d + 1 for d in range(9) if m >> d & 1) for m in range(512))


def digits_of(mask: int) -> tuple[int, ...]:
    """Digits (1..9, ascending) whose bits are set in a 9-bit candidate mask."""
    return _DIGITS[mask]


def cell_name(cell: int) -> str:
    """Human name of a cell in the usual r1c1 notation (rows and columns 1..9)."""
    return _CELL_NAMES[cell]


def house_name(house: int) -> str:
    """Human name of a house index (0..26): 'row 3', 'column 7', 'box 5' (1-based)."""
    return _HOUSE_NAMES[house]


#: The names `cell_name` and `house_name` give, as tables (step texts name cells and houses on every step).
_CELL_NAMES = tuple(f"r{cell // 9 + 1}c{cell % 9 + 1}" for cell in range(81))
_HOUSE_NAMES = tuple(f"{HOUSE_KINDS[house]} {house % 9 + 1}" for house in range(27))


class InvalidPuzzleError(Failure, ValueError):
    """A puzzle text or grid that is malformed or breaks the rules of Sudoku (`Kind.NOT_A_PUZZLE`)."""

    kind = Kind.NOT_A_PUZZLE


#: The layouts a puzzle may be typed in (`parse_puzzle`, `parse_grid_rows`), as the errors name them.
LAYOUTS = (
    "81 characters on one line (1-9, '.' or '0' for empty), 9 lines of 9, or a grid drawn with |, - and + "
    "as snapsolve, HoDoKu and SudokuWiki print it"
)
#: Characters that draw a grid's lines: left out of a row, and the whole of a rule between bands of boxes.
RULING = "|+-=*:"
#: The characters of cells: 1-9 a digit, '.' or '0' empty.
CELL_CHARACTERS = frozenset("123456789.0")


def _digits_of_cells(cells: str) -> list[int]:
    """81 cell characters -> 81 values; InvalidPuzzleError names a character that is no cell's."""
    grid = []
    for i, ch in enumerate(cells):
        if ch in ".0":
            grid.append(0)
        elif "1" <= ch <= "9":
            grid.append(ord(ch) - 48)
        else:
            raise InvalidPuzzleError(f"bad character {ch!r} at position {i + 1} (use 1-9, '.' or '0')")
    check_givens(grid)
    return grid


def parse_puzzle(text: str) -> list[int]:
    """Parse a puzzle written on one line.

    Parameters
    ----------
    text : str
        81 characters row by row; ``1``-``9`` for givens and ``.`` or ``0`` for
        empty cells. Surrounding whitespace is ignored; so is anything after
        the 81st character when it is separated by whitespace (collections
        often carry a rating there). When the first field is not 81
        characters, the line's cells are read with its spaces and ``|``
        left out (``1.. ..8 ...``).

    Returns
    -------
    list of int
        81 values, 0 for empty.

    Raises
    ------
    InvalidPuzzleError
        Not 81 cells (the error counts the line's characters besides its
        spaces and names `LAYOUTS`), a character other than 1-9, ``.`` or
        ``0``, or two equal givens in one house.
    """
    fields = text.split()
    if fields and len(fields[0]) == 81:
        return _digits_of_cells(fields[0])
    cells = "".join(ch for ch in text if not ch.isspace() and ch not in "|")
    if len(cells) == 81:
        return _digits_of_cells(cells)
    spaces = sum(ch.isspace() for ch in text.strip())
    besides = f" besides its {spaces} space{'s' if spaces > 1 else ''}" if spaces else ""
    raise InvalidPuzzleError(
        f"a puzzle has 81 cells, this line has {len(cells)} characters{besides}; type a puzzle as {LAYOUTS}"
    )


def grid_row(line: str) -> str | None:
    """The 9 cells of a line of a puzzle typed in rows (``..3|.2.|6..``, ``. . 3 | . 2 . | 6 . .``), or None.

    Spaces and the characters of RULING are left out; what is left must be 9 cell characters.
    """
    cells = "".join(ch for ch in line if not ch.isspace() and ch not in RULING)
    return cells if len(cells) == 9 and CELL_CHARACTERS.issuperset(cells) else None


def is_rule(line: str) -> bool:
    """True for a line that only draws a grid's lines (``------+-------+------``, ``*-----------*``)."""
    drawn = line.strip()
    return bool(drawn) and ("-" in drawn or "=" in drawn) and all(ch in RULING or ch.isspace() for ch in drawn)


def parse_grid_rows(text: str) -> list[int]:
    """Parse a puzzle typed as 9 lines of 9 cells, bare or drawn with ``|``, ``-`` and ``+`` (see `LAYOUTS`).

    Parameters
    ----------
    text : str
        The puzzle's lines: 9 rows (`grid_row`), with any rules (`is_rule`)
        and blank lines between them.

    Returns
    -------
    list of int
        81 values, 0 for empty.

    Raises
    ------
    InvalidPuzzleError
        A line that is neither a row of 9 cells nor a rule, not 9 rows, or
        two equal givens in one house.
    """
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or is_rule(line):
            continue
        row = grid_row(line)
        if row is None:
            shown = line.strip()[:40]
            raise InvalidPuzzleError(
                f"line {number} of this grid is not a row of 9 cells ({shown!r}); type a puzzle as {LAYOUTS}"
            )
        rows.append(row)
    if len(rows) != 9:
        raise InvalidPuzzleError(f"a puzzle typed in rows has 9 rows of 9 cells, this one has {len(rows)}")
    return _digits_of_cells("".join(rows))


def split_puzzles(lines: list[str]) -> Iterator[tuple[int, str]]:
    """The puzzles of a text file (or standard input), each with the number of its first line (from 1).

    Between puzzles, blank lines and lines starting with ``#`` are skipped. A
    row of 9 cells (`grid_row`) or a rule (`is_rule`) starts a puzzle typed in
    rows, which takes the lines up to its ninth row; one broken off before (by
    a blank line, a comment, another line or the end) is given as it is, for
    `parse_grid_rows` to say what is wrong; rules with no row (a grid's bottom
    line) are passed over. Any other line is one puzzle, stripped
    (`parse_puzzle`; a player's entries may follow it, `position.parse_position`).
    """
    block: list[str] = []
    start = rows = 0
    for number, line in enumerate(lines, start=1):
        row = grid_row(line)
        if row is not None or is_rule(line):
            start = start if block else number
            block.append(line)
            rows += row is not None
            if rows == 9:
                yield start, "\n".join(block)
                block, rows = [], 0
            continue
        if rows:
            yield start, "\n".join(block)
        block, rows = [], 0
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped
    if rows:
        yield start, "\n".join(block)


def repeated_cells(grid: list[int]) -> list[int]:
    """The cells whose digit appears again in one of their houses (row, column or box).

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty, 1..9 for digits.

    Returns
    -------
    list of int
        Cells 0..80 in order, every copy of each repeated digit (empty when
        `check_givens` would pass).
    """
    return [c for c in range(81) if grid[c] and any(grid[p] == grid[c] for p in PEERS[c])]


def check_givens(grid: list[int]) -> None:
    """Raise InvalidPuzzleError when a digit appears twice in one house.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty, 1..9 for digits.
    """
    for h, get in enumerate(HOUSE_GETTERS):
        values = get(grid)
        zeros = values.count(0)
        if len(set(values)) == 9 - zeros + (zeros > 0):
            continue  # the givens of this house differ (the common case, in C)
        seen: dict[int, int] = {}
        for cell in HOUSES[h]:
            d = grid[cell]
            if d:
                if d in seen:
                    raise InvalidPuzzleError(
                        f"digit {d} appears twice in {house_name(h)} ({cell_name(seen[d])} and {cell_name(cell)})"
                    )
                seen[d] = cell


def format_puzzle(grid: list[int]) -> str:
    """The 81-character form of a grid, ``.`` for empty cells."""
    return "".join(str(d) if d else "." for d in grid)


def format_board(grid: list) -> str:
    """A 13-line human-readable board with box separators, ``.`` for empty.

    `grid` holds 81 values: digits, 0 for empty, or one-character marks
    (such as ``c`` for a cell with pencilled candidates).
    """
    lines = []
    for r in range(9):
        if r in (3, 6):
            lines.append("------+-------+------")
        row = [str(d) if d else "." for d in grid[r * 9 : r * 9 + 9]]
        lines.append(" ".join(row[0:3]) + " | " + " ".join(row[3:6]) + " | " + " ".join(row[6:9]))
    return "\n".join(lines)


def format_candidates(grid: list[int], candidates: dict[int, tuple[int, ...]]) -> str:
    """A board of candidates (as HoDoKu's "pencil mark grid"): each empty cell's candidates, each filled cell's digit.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty.
    candidates : dict of int to tuple of int
        Cell (0..80) -> its candidates (1..9), for the empty cells.

    Returns
    -------
    str
        11 lines: rows of cells padded to their column's widest, boxes apart by ``|``, bands by ``-`` and ``+``.
    """
    text = ["".join(map(str, candidates.get(c, ()))) if not grid[c] else str(grid[c]) for c in range(81)]
    widths = [max(len(text[r * 9 + col]) for r in range(9)) for col in range(9)]
    boxes = [range(0, 3), range(3, 6), range(6, 9)]
    rule = "-+-".join("-".join("-" * widths[col] for col in box) for box in boxes)
    lines = []
    for r in range(9):
        if r in (3, 6):
            lines.append(rule)
        lines.append(" | ".join(" ".join(text[r * 9 + col].ljust(widths[col]) for col in box) for box in boxes))
    return "\n".join(line.rstrip() for line in lines)


def initial_candidates(grid: list[int]) -> list[int]:
    """Candidate masks after removing every given's digit from its peers.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty.

    Returns
    -------
    list of int
        81 masks; a filled cell's mask is 0.
    """
    used = [0] * 27  # per house, the digits its filled cells hold
    for cell, d in enumerate(grid):
        if d:
            bit = 1 << (d - 1)
            r, k, b = HOUSES_OF_CELL[cell]
            used[r] |= bit
            used[k] |= bit
            used[b] |= bit
    return [0 if d else ALL_DIGITS & ~(used[r] | used[k] | used[b]) for d, (r, k, b) in zip(grid, HOUSES_OF_CELL)]


#: The digits 1..9, for `is_valid_solution`'s range check.
_DIGIT_SET = frozenset(range(1, 10))


def is_valid_solution(puzzle: list[int], solution: list[int]) -> bool:
    """True when `solution` is a complete valid grid that keeps every given of `puzzle`."""
    if len(solution) != 81 or not _DIGIT_SET.issuperset(solution):
        return False
    if any(g and g != s for g, s in zip(puzzle, solution)):
        return False
    return all(len(set(get(solution))) == 9 for get in HOUSE_GETTERS)


#: The 54 three-cell segments of rows and columns, by name (``R{row}_{k}``, ``C{column}_{k}``, k = 0..2
#: along the line): the intersections of lines and boxes (HoDoKu's and SudokuWiki's "Intersection").
SEGMENTS = {
    **{f"R{r}_{k}": tuple(r * 9 + 3 * k + j for j in range(3)) for r in range(9) for k in range(3)},
    **{f"C{x}_{k}": tuple((3 * k + j) * 9 + x for j in range(3)) for x in range(9) for k in range(3)},
}
#: Per house (27, HOUSES order), the names of the three segments it is made of (a box: its three row segments).
HOUSE_SEGMENTS = (
    [tuple(f"R{r}_{k}" for k in range(3)) for r in range(9)]
    + [tuple(f"C{x}_{k}" for k in range(3)) for x in range(9)]
    + [tuple(f"R{3 * (b // 3) + j}_{b % 3}" for j in range(3)) for b in range(9)]
)


def segment_scan_lines() -> list[str]:
    """Python source lines for generated scans over 81 candidate masks held in locals ``c0`` .. ``c80``.

    For each segment of `SEGMENTS`, ``o<name>`` is the digits present in it and ``t<name>`` the
    digits present at least twice; lines are indented for a function body. A house's digits with
    exactly one cell are then ``(u | oz) & ~(tx | ty | tz | (ox & oy) | (u & oz))`` with
    ``u = ox | oy`` over its `HOUSE_SEGMENTS` x, y, z (the exact search scans houses so).
    """
    lines = []
    for name, (a, b, d) in SEGMENTS.items():
        lines += [f"    u = c{a} | c{b}", f"    o{name} = u | c{d}; t{name} = (c{a} & c{b}) | (u & c{d})"]
    return lines
