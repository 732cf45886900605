"""Puzzles typed as text: the common layouts (81 characters; 9 lines of 9; grids drawn with |, - and + as snapsolve,
HoDoKu and SudokuWiki print them), errors that count right and name the layouts, and a player's entries."""

from __future__ import annotations

import io
import json
import sys

import pytest

from snapsolve.cli import main
from snapsolve.solver import InvalidPuzzleError, format_board, parse_position, solve_puzzle
from snapsolve.solver.grid import LAYOUTS, parse_puzzle, split_puzzles

from .conftest import read_collection

PUZZLE = read_collection("forum_hardest_1106_part.txt")[0]
GIVENS = parse_puzzle(PUZZLE)
ROWS = [PUZZLE[r * 9 : r * 9 + 9] for r in range(9)]


def hodoku(rows: list[str]) -> str:
    """HoDoKu's "Copy givens" (simple format)."""
    line = lambda r: "|" + "|".join(r[k : k + 3] for k in (0, 3, 6)) + "|"  # noqa: E731
    body = [line(r) for r in rows]
    return "\n".join(
        ["*-----------*", *body[:3], "|---+---+---|", *body[3:6], "|---+---+---|", *body[6:], "*-----------*"]
    )


def sudokuwiki(rows: list[str]) -> str:
    """SudokuWiki's grid (and many tools'): boxes drawn with +, - and |, cells apart by spaces."""
    rule = "+-------+-------+-------+"
    line = lambda r: "| " + " | ".join(" ".join(r[k : k + 3]) for k in (0, 3, 6)) + " |"  # noqa: E731
    body = [line(r) for r in rows]
    return "\n".join([rule, *body[:3], rule, *body[3:6], rule, *body[6:], rule])


LAYOUT_TEXTS = {
    "81 characters": PUZZLE,
    "81 characters, zeros": PUZZLE.replace(".", "0"),
    "81 characters with spaces": " ".join(PUZZLE[k : k + 9] for k in range(0, 81, 9)),
    "9 lines of 9": "\n".join(ROWS),
    "9 lines of 9, zeros": "\n".join(r.replace(".", "0") for r in ROWS),
    "snapsolve's own board": format_board(GIVENS),
    "HoDoKu": hodoku(ROWS),
    "SudokuWiki": sudokuwiki(ROWS),
}


@pytest.mark.parametrize("layout", list(LAYOUT_TEXTS))
def test_each_layout_reads_the_same_puzzle(layout):
    text = LAYOUT_TEXTS[layout]
    assert parse_position(text) == (GIVENS, [0] * 81)
    assert [number for number, _ in split_puzzles(text.splitlines())] == [1]


def test_a_file_of_puzzles_in_every_layout(tmp_path, capsys):
    """One file holding every layout, with comments and blank lines between: each puzzle solved, named by the
    number of its first line."""
    lines, firsts = [], []
    for name, text in LAYOUT_TEXTS.items():
        lines += [f"# {name}", ""]
        firsts.append(len(lines) + 1)
        lines += text.splitlines() + [""]
    path = tmp_path / "layouts.txt"
    path.write_text("\n".join(lines))
    assert main(["--json", "--no-image", str(path)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["input"] for r in results] == [f"{path}:{n}" for n in firsts]
    assert all(r["grids"][0]["givens"] == PUZZLE and r["grids"][0]["status"] == "solved" for r in results)


def test_the_api_takes_a_grid_typed_in_rows():
    pytest.importorskip("fastapi")
    from snapsolve.web import work

    answer = work.solve_puzzle_text(LAYOUT_TEXTS["SudokuWiki"])
    assert answer["grids"][0]["givens"] == PUZZLE


@pytest.mark.parametrize(
    "line, message",
    [
        (PUZZLE[:40] + " " + PUZZLE[40:] + "4", "this line has 82 characters besides its 1 space"),
        (PUZZLE[:40] + " " + PUZZLE[40:80], "this line has 80 characters besides its 1 space"),
        ("123", "this line has 3 characters;"),
    ],
)
def test_a_line_that_is_no_puzzle_is_counted_right_and_the_layouts_named(line, message, capsys, monkeypatch):
    with pytest.raises(InvalidPuzzleError) as refused:
        parse_position(line)
    assert message in str(refused.value) and str(refused.value).endswith(f"type a puzzle as {LAYOUTS}")
    assert "9 lines of 9" in LAYOUTS and "HoDoKu" in LAYOUTS and "SudokuWiki" in LAYOUTS
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    assert main(["-"]) == 1
    said = capsys.readouterr().err.splitlines()[0]
    assert said.startswith("snapsolve: -:1: a puzzle has 81 cells,") and message in said


def test_a_grid_broken_off_says_so(capsys, monkeypatch):
    text = "\n".join(ROWS[:4]) + "\n\n" + PUZZLE + "\n" + "\n".join(ROWS[:8] + ["12345"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(text + "\n"))
    assert main(["--json", "-"]) == 1
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["input"] for r in results] == ["-:1", "-:6", "-:7", "-:15"]
    assert results[0]["error"] == "a puzzle typed in rows has 9 rows of 9 cells, this one has 4"
    assert results[1]["grids"][0]["givens"] == PUZZLE
    assert results[2]["error"] == "a puzzle typed in rows has 9 rows of 9 cells, this one has 8"
    assert results[3]["error"].startswith("a puzzle has 81 cells, this line has 5 characters;")


def test_entries_equal_to_their_givens_are_the_givens():
    """A player who writes the whole grid out, givens included: the entries equal to a given are that given; the
    position is the player's digits alone."""
    solution = solve_puzzle(GIVENS).solution
    whole = "".join(map(str, solution))
    givens, entries = parse_position(f"{PUZZLE} {whole}")
    assert givens == GIVENS and entries == [0 if g else s for g, s in zip(GIVENS, solution)]
    position = solve_puzzle(givens, entries=entries)
    assert position.mistakes == [] and position.remaining == []


def test_entries_on_given_cells_are_counted_with_an_ellipsis():
    other = [(g % 9) + 1 if g else 0 for g in GIVENS]  # another digit on every given
    clashes = sum(1 for g in GIVENS if g)
    with pytest.raises(InvalidPuzzleError) as refused:
        parse_position(f"{PUZZLE} {''.join(str(d) if d else '.' for d in other)}")
    named = ", ".join(f"r{c // 9 + 1}c{c % 9 + 1}" for c in range(81) if GIVENS[c])
    first_five = ", ".join(named.split(", ")[:5])
    assert str(refused.value) == f"{clashes} of the entries differ from the givens under them: {first_five}, …"
    one = [0] * 81
    cell = GIVENS.index(next(g for g in GIVENS if g))
    one[cell] = GIVENS[cell] % 9 + 1
    with pytest.raises(InvalidPuzzleError, match=r"^1 of the entries differs from the given under it: r\d") as refused:
        parse_position(f"{PUZZLE} {''.join(str(d) if d else '.' for d in one)}")
    assert "…" not in str(refused.value)
