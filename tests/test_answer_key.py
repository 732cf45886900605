"""``snapsolve generate`` carries the answers (issue 27): a PDF ends with an answer-key page of small solved
grids numbered like the puzzles, PNG pages get ``NAME-key.png``, text ends with ``# N SOLUTION`` comment
lines (still readable as a puzzle file), JSON has ``solution``; ``--no-key`` leaves the key out.
"""

from __future__ import annotations

import json

import pypdfium2 as pdfium
from PIL import Image

from snapsolve.cli import main
from snapsolve.inputs import expand_inputs
from snapsolve.pipeline import Options, solve_image
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import format_puzzle, parse_puzzle

ARGS = ["generate", "--level", "easy", "--count", "5", "--seed", "7"]


def pages_of(pdf) -> int:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return len(doc)
    finally:
        doc.close()


def test_txt_ends_with_the_answers_as_comments(tmp_path, capsys):
    assert main(ARGS) == 0
    out = capsys.readouterr().out.splitlines()
    puzzles = [line for line in out if not line.startswith("#")]
    assert len(puzzles) == 5 and out[5] == "# answers"
    key = [line.split() for line in out[6:]]
    assert [k[:2] for k in key] == [["#", str(n)] for n in range(1, 6)]
    for puzzle, (_, _, solution) in zip(puzzles, key):
        assert format_puzzle(solve_unique(parse_puzzle(puzzle)).solution) == solution
    path = tmp_path / "p.txt"
    path.write_text("\n".join(out) + "\n")
    assert [item.text for item in expand_inputs([str(path)])] == puzzles  # the key does not read as puzzles
    assert main([*ARGS, "--no-key"]) == 0
    assert capsys.readouterr().out.splitlines() == puzzles


def test_json_carries_the_solution(capsys):
    assert main([*ARGS, "--format", "json"]) == 0
    for obj in map(json.loads, capsys.readouterr().out.splitlines()):
        assert format_puzzle(solve_unique(parse_puzzle(obj["puzzle"])).solution) == obj["solution"]


def test_pdf_ends_with_an_answer_key_page(tmp_path, capsys):
    with_key, without = tmp_path / "key.pdf", tmp_path / "nokey.pdf"
    assert main([*ARGS, "-o", str(with_key)]) == 0 and main([*ARGS, "-o", str(without), "--no-key"]) == 0
    assert main([*ARGS, "--no-key"]) == 0
    puzzles = [line for line in capsys.readouterr().out.splitlines() if line and not line.startswith("wrote")]
    solutions = [format_puzzle(solve_unique(parse_puzzle(p)).solution) for p in puzzles]
    assert pages_of(without) == 2 and pages_of(with_key) == 3  # 5 puzzles at 4 a page, then one key page
    key = solve_image(with_key, Options(write_image=False), page=2)  # the key page read as a photo
    read = [format_puzzle(g.givens) for g in key.grids]
    # The small grids are full: each one read is a puzzle's solution (the locator finds most of them).
    assert len(read) >= 3 and set(read) <= set(solutions) and all("." not in r for r in read)


def test_png_pages_get_a_key_file(tmp_path):
    assert main([*ARGS, "-o", str(tmp_path / "easy.png"), "--per-page", "6"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["easy-key.png", "easy.png"]
    assert Image.open(tmp_path / "easy-key.png").size == Image.open(tmp_path / "easy.png").size
    assert main([*ARGS, "-o", str(tmp_path / "bare.png"), "--per-page", "6", "--no-key"]) == 0
    assert not (tmp_path / "bare-key.png").exists()
