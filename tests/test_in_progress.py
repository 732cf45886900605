"""Puzzles in progress: the sample photo end to end, mistakes, and hints from where the player stands."""

import io
import json
import sys

import cv2
import numpy as np
import pytest

from snapsolve.cli import main
from snapsolve.pipeline import Options, annotate, read_grids, read_puzzle
from snapsolve.repair import entries, second_look
from snapsolve.solver import find_mistakes, parse_position, remaining_steps, solve_puzzle, solve_unique
from snapsolve.solver.grid import cell_name, parse_puzzle
from snapsolve.vision.cells import reaches_a_line
from snapsolve.vision.classes import CLASSES
from snapsolve.vision.dataset import read_cell_labels
from snapsolve.vision.image_io import read_image

from .conftest import SAMPLES, read_collection
from .test_cli import drawn_per_cell

PHOTO = SAMPLES / "02_25_honor_view_10_0.jpg"
LABELS = [CLASSES[c] for c in read_cell_labels(PHOTO.with_suffix(".cells"))]


def _json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_photo_in_progress_end_to_end(tmp_path, capsys):
    """Givens are the printed digits only, entries the handwriting, no mistakes; digits drawn only in free cells."""
    assert main(["--json", "-o", str(tmp_path), str(PHOTO)]) == 0
    (result,) = _json_lines(capsys.readouterr().out)
    grid = result["grids"][0]
    assert grid["givens"] == "".join(t if t.isdigit() else "." for t in LABELS)
    assert grid["entries"] == "".join(t[1] if t.startswith("h") else "." for t in LABELS)
    assert [m["cell"] for m in grid["pencil_marks"]] == [i for i, t in enumerate(LABELS) if t == "c"]
    assert grid["mistakes"] == [] and grid["status"] == "solved"
    to_fill = 81 - sum(t.isdigit() for t in LABELS)
    assert grid["progress"] == {"entries": 15, "entered": 15, "to_fill": to_fill}  # entered: deprecated
    solution = grid["solution"]
    assert all(grid["entries"][i] in (".", solution[i]) for i in range(81))
    counts = drawn_per_cell(PHOTO, tmp_path / (PHOTO.stem + ".solved.jpg"))
    for i, token in enumerate(LABELS):
        if token == "." or token == "c":
            assert counts[i] > 10, f"no digit drawn in free cell {cell_name(i)}"
        else:
            assert counts[i] == 0, f"ink drawn over {token} in {cell_name(i)}"


def test_text_output_shows_givens_and_entries_apart(capsys):
    assert main(["--no-image", str(PHOTO)]) == 0
    out = capsys.readouterr().out
    assert "printed" in out and "written by hand" in out and "progress: 15 of" in out
    assert "mistake" not in out


@pytest.fixture(scope="module")
def position():
    """A top1465 puzzle, its solution, and a position with four right placements and one wrong one."""
    line = read_collection("top1465.txt")[3]
    givens = parse_puzzle(line)
    solution = solve_unique(givens).solution
    empty = [i for i, g in enumerate(givens) if not g]
    entries = [0] * 81
    for cell in empty[:4]:
        entries[cell] = solution[cell]
    wrong_cell = empty[10]
    wrong = solution[wrong_cell] % 9 + 1
    return line, givens, solution, entries, wrong_cell, wrong


def test_mistakes_api(position):
    line, givens, solution, entries, wrong_cell, wrong = position
    assert find_mistakes(entries, solution) == []
    with_mistake = list(entries)
    with_mistake[wrong_cell] = wrong
    (mistake,) = find_mistakes(with_mistake, solution)
    assert (mistake.cell, mistake.entry, mistake.solution) == (wrong_cell, wrong, solution[wrong_cell])
    assert mistake.text == f"{cell_name(wrong_cell)}: the {wrong} is wrong"
    result = solve_puzzle(givens, entries=with_mistake)
    assert result.mistakes == [mistake] and result.remaining == []
    # the puzzle, its grade and its steps are the printed puzzle's, whatever was entered
    plain = solve_puzzle(givens)
    assert (result.level, result.score, result.steps) == (plain.level, plain.score, plain.steps)


def test_steps_continue_from_the_players_position(position):
    line, givens, solution, entries, _, _ = position
    steps = remaining_steps(givens, entries)
    filled = {c for c in range(81) if givens[c] or entries[c]}
    assert steps and all(c not in filled for step in steps for c, _ in step.placements)
    values = [g or e for g, e in zip(givens, entries)]
    for step in steps:
        for c, d in step.placements:
            assert solution[c] == d
            values[c] = d
    assert values == solution
    assert solve_puzzle(givens, entries=entries).remaining == steps


def test_placed_is_the_deprecated_name_of_entries(position):
    """`solve_puzzle(placed=...)` and `Solution.placed` still work until 0.3.0, each with a DeprecationWarning."""
    line, givens, solution, entries, _, _ = position
    with pytest.warns(DeprecationWarning, match="use solve_puzzle\\(entries"):
        old = solve_puzzle(givens, placed=entries)
    assert old == solve_puzzle(givens, entries=entries) and old.entries == entries
    with pytest.warns(DeprecationWarning, match="Solution.placed"):
        assert old.placed == entries
    with pytest.raises(TypeError, match="not both"):
        solve_puzzle(givens, entries=entries, placed=entries)


def test_position_text_form_hint_and_explain(position, capsys, monkeypatch):
    line, givens, solution, entries, wrong_cell, wrong = position
    with_mistake = list(entries)
    with_mistake[wrong_cell] = wrong
    text = "".join(str(d) if d else "." for d in with_mistake)
    assert parse_position(line + " " + text) == (givens, with_mistake)
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line} {text}\n"))
    assert main(["--json", "--hint", "-"]) == 0
    (r,) = _json_lines(capsys.readouterr().out)
    grid = r["grids"][0]
    assert grid["entries"] == text
    assert grid["mistakes"] == [
        {"cell": wrong_cell, "entry": wrong, "entered": wrong, "solution": solution[wrong_cell]}  # entered: deprecated
    ]
    assert grid["hint"] == {
        "technique": "mistake",
        "placements": [],
        "eliminations": [[wrong_cell, wrong]],
        "text": f"{cell_name(wrong_cell)}: the {wrong} is wrong",
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line} {text}\n"))
    assert main(["-"]) == 0
    out = capsys.readouterr().out
    assert f"mistake: {cell_name(wrong_cell)} has {wrong}, the solution has {solution[wrong_cell]}" in out
    # without the mistake, the hint is the next step from the position, on a cell still free
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line} {''.join(str(d) if d else '.' for d in entries)}\n"))
    assert main(["--hint", "--explain", "-"]) == 0
    out = capsys.readouterr().out
    first = remaining_steps(givens, entries)[0]
    assert "hint: " + first.text in out


def _swap_in(reading, cell, other):
    """The reading with the mark of cell `other` written in `cell` (a player writing that digit there)."""
    reading.marks.crops[cell] = reading.marks.crops[other]
    reading.probabilities[cell] = reading.probabilities[other]
    reading.marks.at_ruling[cell] = reading.marks.at_ruling[other]  # the mark's strokes border what they did


def test_a_wrong_entry_on_a_photo_is_ringed_and_hinted(model, tmp_path):
    """The sample photo with one handwritten digit replaced by another of the player's (a real wrong entry,
    read with certainty, in a cell whose mark is clear of the ruled lines): mistake, hint, red ring; no
    question asked."""
    image = read_image(PHOTO)
    reading = read_grids(image, model)[0]
    written = [i for i, t in enumerate(LABELS) if t.startswith("h")]
    clear = ~reaches_a_line(reading.marks.features) & ~reading.marks.at_ruling
    entry, other = next((a, b) for a in written for b in written if LABELS[a] != LABELS[b] and clear[a] and clear[b])
    right, wrong = int(LABELS[entry][1]), int(LABELS[other][1])
    _swap_in(reading, entry, other)
    grid, solution = read_puzzle(reading, Options(hint=True), model)
    assert [(m.cell, m.entry, m.solution) for m in grid.mistakes] == [(entry, wrong, right)]
    assert grid.unclear_entries == []
    assert grid.hint == grid.mistakes[0] and solution.remaining == []
    hinted = annotate(image, reading, grid, Options(hint=True))
    out = tmp_path / "hint.jpg"
    cv2.imwrite(str(out), hinted)
    rings = drawn_per_cell(PHOTO, out, colour="red")
    assert rings[entry] > 20 and sum(rings) - rings[entry] < rings[entry] // 5
    grid, _ = read_puzzle(reading, Options(), model)
    solved = annotate(image, reading, grid, Options())
    cv2.imwrite(str(out), solved)
    rings = drawn_per_cell(PHOTO, out, colour="red")
    assert rings[entry] > 20 and np.argmax(rings) == entry


def test_a_wrong_entry_whose_mark_reaches_a_ruled_line_is_asked_about_not_accused(model):
    """The same swap in a cell of the sample photo whose mark reaches a ruled line (`reaches_a_line`: a
    stroke along the line may have gone with the ruling, so no reading of it is certain): a question with
    the solution's digit offered, never a mistake."""
    reading = read_grids(read_image(PHOTO), model)[0]
    written = [i for i, t in enumerate(LABELS) if t.startswith("h")]
    touching = reaches_a_line(reading.marks.features)
    entry, other = next((a, b) for a in written for b in written if LABELS[a] != LABELS[b] and touching[a])
    right, wrong = int(LABELS[entry][1]), int(LABELS[other][1])
    _swap_in(reading, entry, other)
    grid, _ = read_puzzle(reading, Options(hint=True), model)
    assert grid.mistakes == []
    (unclear,) = grid.unclear_entries
    assert (unclear.cell, unclear.read) == (entry, wrong) and right in unclear.alternatives


def test_a_misread_right_entry_like_the_players_own_copies_is_read_as_theirs(model):
    """A right entry whose cell probabilities say another digit (a misreading), while its mark is the right
    digit as this player writes it (like their own right copies of it in the grid, `OWN_COPY_LIKE`): it is
    read as that digit, a right entry, neither a mistake nor a question."""
    reading = read_grids(read_image(PHOTO), model)[0]
    entry = next(i for i, t in enumerate(LABELS) if t.startswith("h"))
    right = int(LABELS[entry][1])
    reading.probabilities[entry] = 0.0
    reading.probabilities[entry, 9 + right % 9 + 1] = 1.0
    grid, solution = read_puzzle(reading, Options(), model)
    assert grid.mistakes == [] and grid.unclear_entries == []
    assert grid.entries[entry] == right and solution.entries[entry] == right


def test_a_misread_right_entry_is_asked_about_never_accused(model, tmp_path, capsys, monkeypatch):
    """A right entry whose cell probabilities say another digit (a misreading), while its mark is the right
    digit. The second look (`CellClassifier.second_look`, the image distortion model) reads the mark as the
    right digit: a right entry. With no second look (`SECOND_LOOK_RIGHT`, `SECOND_LOOK_RATIO`,
    `OWN_LOOK_RATIO`, `SECOND_LOOK_NEAREST` and `OWN_APART` out of reach, each reading it right until it goes)
    and no help from the player's own copies (`OWN_COPY_LIKE` off): it is unclear, not a mistake; no red ring;
    the hint or the text asks about it as a question."""
    monkeypatch.setattr(entries, "OWN_COPY_LIKE", 0.0)
    image = read_image(PHOTO)
    reading = read_grids(image, model)[0]
    entry = next(i for i, t in enumerate(LABELS) if t.startswith("h"))
    right = int(LABELS[entry][1])
    wrong = right % 9 + 1
    reading.probabilities[entry] = 0.0
    reading.probabilities[entry, 9 + wrong] = 1.0
    grid, solution = read_puzzle(reading, Options(hint=True), model)
    assert grid.mistakes == [] and grid.unclear_entries == []
    assert grid.entries[entry] == solution.entries[entry] == right
    monkeypatch.setattr(second_look, "SECOND_LOOK_RIGHT", 2.0)
    monkeypatch.setattr(second_look, "SECOND_LOOK_RATIO", -1.0)
    grid, solution = read_puzzle(reading, Options(hint=True), model)
    assert grid.mistakes == [] and grid.entries[entry] == right  # the player's own copies read it right
    monkeypatch.setattr(second_look, "OWN_LOOK_RATIO", -1.0)
    grid, solution = read_puzzle(reading, Options(hint=True), model)
    assert grid.mistakes == [] and grid.entries[entry] == right  # the right digit is the least distorted
    monkeypatch.setattr(second_look, "SECOND_LOOK_NEAREST", -1.0)
    grid, solution = read_puzzle(reading, Options(hint=True), model)
    assert grid.mistakes == [] and grid.entries[entry] == right  # nearer the player's right copies of it (OWN_APART)
    monkeypatch.setattr(second_look, "OWN_APART", 0.0)
    grid, solution = read_puzzle(reading, Options(hint=True), model)
    assert grid.mistakes == []
    (unclear,) = grid.unclear_entries
    assert (unclear.cell, unclear.read) == (entry, wrong) and right in unclear.alternatives
    assert unclear.text.startswith(f"{cell_name(entry)}: is this ") and unclear.text.endswith("?")
    assert grid.entries[entry] == wrong and solution.entries[entry] == 0
    assert grid.hint is not None and "wrong" not in grid.hint.text
    out = tmp_path / "solved.jpg"
    cv2.imwrite(str(out), annotate(image, reading, grid, Options()))
    assert max(drawn_per_cell(PHOTO, out, colour="red")) < 20
    data = grid.to_json()
    assert data["unclear_entries"] == [{"cell": entry, "read": wrong, "alternatives": list(unclear.alternatives)}]
    assert data["mistakes"] == []


def test_a_finished_grid_hint_says_solved(capsys, monkeypatch):
    """A complete, correct position: the hint says it is solved and how many entries are right; so does the
    answer without --hint."""
    line = read_collection("top1465.txt")[0]
    givens, _ = parse_position(line)
    solution = solve_unique(givens).solution
    entries = "".join("." if g else str(d) for g, d in zip(givens, solution))
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line[:81]} {entries}\n"))
    assert main(["--hint", "--json", "-"]) == 0
    (result,) = _json_lines(capsys.readouterr().out)
    hint = result["grids"][0]["hint"]
    count = sum(1 for ch in entries if ch != ".")
    assert hint["technique"] == "solved" and hint["text"] == f"solved: all {count} entries are right"
    assert result["grids"][0]["progress"] == {"entries": count, "to_fill": count, "entered": count}
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line[:81]} {entries}\n"))
    assert main(["--hint", "-"]) == 0
    assert f"hint: solved: all {count} entries are right" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line[:81]} {entries}\n"))
    assert main(["-"]) == 0
    assert f"\nsolved: all {count} entries are right\n" in capsys.readouterr().out
    wrong = entries[: entries.index(next(ch for ch in entries if ch != "."))] + "."  # one entry left out
    wrong += entries[len(wrong) :]
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{line[:81]} {wrong}\n"))
    assert main(["-"]) == 0
    assert "entries are right" not in capsys.readouterr().out
