"""The command line: output, JSON Lines contract, exit statuses, errors."""

import io
import json
import shutil
import subprocess
import sys

import cv2
import numpy as np

from snapsolve.cli import main
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import PEERS, is_valid_solution, parse_puzzle
from snapsolve.vision.dataset import read_ground_truth
from snapsolve.vision.locate import locate_grids
from snapsolve.vision.rectify import CELL_SIZE, GRID_SIZE, rectify

from .conftest import SAMPLES, read_collection

PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def _json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_photo_json_contract(tmp_path, capsys):
    assert main(["--json", "-o", str(tmp_path), str(SAMPLES / "image1.jpg")]) == 0
    (result,) = _json_lines(capsys.readouterr().out)
    assert result["error"] is None and result["input"].endswith("image1.jpg")
    grid = result["grids"][0]
    truth = read_ground_truth(SAMPLES / "image1.dat")
    assert grid["givens"] == "".join(str(d) if d else "." for d in truth)
    assert grid["status"] == "solved" and grid["rotation"] == 0
    assert is_valid_solution(truth, [int(c) for c in grid["solution"]])
    assert len(grid["corners"]) == 4 and 0 < grid["confidence"] <= 1
    assert grid["level"] in ("easy", "medium", "hard", "unfair", "extreme")
    assert isinstance(grid["needs_search"], bool) and isinstance(grid["techniques"], dict)
    out = tmp_path / "image1.solved.jpg"
    assert grid["output"] == str(out)
    written = cv2.imread(str(out))
    assert written.shape == cv2.imread(str(SAMPLES / "image1.jpg")).shape


def drawn_per_cell(photo_path, drawn_path, colour="blue"):
    """Pixels of drawn ink (blue digits, or red rings) in each upright cell: 81 counts.

    Digits are counted in the inner two thirds of a cell, rings (which hug the
    cell's border) in all of it but a pixel along the ruling.
    """
    photo = cv2.imread(str(photo_path)).astype(int)
    drawn = cv2.imread(str(drawn_path)).astype(int)
    if colour == "blue":
        ink = (drawn[..., 0] - drawn[..., 2] > 80) & (photo[..., 0] - photo[..., 2] < 40)
    else:  # made redder by the drawing (a warm page's paper is itself a little red), not amber
        ink = ((drawn[..., 2] - drawn[..., 0]) - (photo[..., 2] - photo[..., 0]) > 80) & (
            drawn[..., 2] - drawn[..., 1] > 120
        )
    gray = cv2.cvtColor(photo.astype(np.uint8), cv2.COLOR_BGR2GRAY)
    H = rectify(gray, locate_grids(gray)[0].corners).homography
    warped = cv2.warpPerspective(ink.astype(np.uint8), H, (GRID_SIZE, GRID_SIZE), flags=cv2.INTER_NEAREST)
    n, m = CELL_SIZE, (CELL_SIZE // 6 if colour == "blue" else 2)
    return [
        int(warped[r * n + m : (r + 1) * n - m, c * n + m : (c + 1) * n - m].sum()) for r in range(9) for c in range(9)
    ]


def test_drawn_digits_land_in_their_cells(tmp_path):
    """Blue ink appears in cells that were empty and stays out of cells with givens."""
    assert main(["--json", "-o", str(tmp_path), str(SAMPLES / "image1082.jpg")]) == 0
    counts = drawn_per_cell(SAMPLES / "image1082.jpg", tmp_path / "image1082.solved.jpg")
    truth = read_ground_truth(SAMPLES / "image1082.dat")
    for cell, given in enumerate(truth):
        if given:
            assert counts[cell] == 0, f"ink drawn over the given at cell {cell}"
        else:
            assert counts[cell] > 20, f"no digit drawn in empty cell {cell}"


def test_human_output_prints_puzzle_and_solution(capsys):
    assert main(["--no-image", str(SAMPLES / "image1040.jpg")]) == 0
    out = capsys.readouterr().out
    assert "turned 90 degrees" in out and "solution (level" in out
    assert out.count("------+-------+------") == 4


def test_text_puzzles_and_stdin(tmp_path, capsys, monkeypatch):
    lines = read_collection("top1465.txt")[:3]
    f = tmp_path / "p.txt"
    f.write_text("# comment\n" + "\n".join(lines) + "\n")
    assert main(["--json", str(f)]) == 0
    results = sorted(_json_lines(capsys.readouterr().out), key=lambda r: r["input"])
    assert [r["input"] for r in results] == [f"{f}:2", f"{f}:3", f"{f}:4"]
    for r, line in zip(results, lines):
        assert "corners" not in r["grids"][0]
        assert is_valid_solution(parse_puzzle(line), [int(c) for c in r["grids"][0]["solution"]])
    monkeypatch.setattr(sys, "stdin", io.StringIO(PUZZLE + "\n"))
    assert main(["-", "--json", "--explain"]) == 0
    (r,) = _json_lines(capsys.readouterr().out)
    steps = r["grids"][0]["steps"]
    assert r["input"] == "-:1" and all(set(s) == {"technique", "placements", "eliminations", "text"} for s in steps)


def test_a_text_file_without_puzzles_says_so(tmp_path, capsys, monkeypatch):
    """A puzzle file of comments only (or empty standard input) is an error line, not silence with exit 0."""
    f = tmp_path / "p.txt"
    f.write_text("# From somewhere\n#\n\n")
    assert main(["--json", "--no-image", str(f), str(SAMPLES / "image1.jpg")]) == 1
    captured = capsys.readouterr()
    first, photo = _json_lines(captured.out)
    assert first["input"] == str(f) and "no puzzles here" in first["error"] and first["grids"] == []
    assert photo["error"] is None
    assert f"snapsolve: {f}: no puzzles here" in captured.err
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["-"]) == 1
    assert "-: no puzzles here" in capsys.readouterr().err


def test_bad_puzzle_lines_fail_but_others_run(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("\n".join([PUZZLE, PUZZLE[:70], "55" + PUZZLE[2:], "." * 81]) + "\n")
    assert main(["--json", "--workers", "1", str(f)]) == 1
    captured = capsys.readouterr()
    results = _json_lines(captured.out)
    assert [r["grids"][0]["status"] if r["grids"] else None for r in results] == [
        "solved",
        None,
        None,
        "multiple_solutions",
    ]
    assert "81 cells" in results[1]["error"] and "appears twice" in results[2]["error"]
    err = captured.err.strip().splitlines()
    assert len(err) == 4 and err[-1].startswith("snapsolve: 4 inputs, 2 grids, 1 solved, 3 failed")


def test_no_solution_status(capsys, monkeypatch):
    givens = parse_puzzle(PUZZLE)
    solution = solve_unique(givens).solution
    cell = givens.index(0)
    # a digit that breaks no house rule but contradicts the unique solution
    digit = next(d for d in range(1, 10) if d != solution[cell] and all(givens[p] != d for p in PEERS[cell]))
    givens[cell] = digit
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(str(v) if v else "." for v in givens) + "\n"))
    assert main(["--json", "-"]) == 1
    (r,) = _json_lines(capsys.readouterr().out)
    assert r["grids"][0]["status"] == "no_solution" and r["grids"][0]["solution"] is None and r["error"]


def test_non_image_and_no_grid_give_one_line_error(tmp_path, capsys):
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"this is not an image at all")
    blank = tmp_path / "blank.jpg"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 230, np.uint8))
    good = tmp_path / "good.jpg"
    shutil.copy(SAMPLES / "image125.jpg", good)
    assert main(["--json", "--workers", "1", str(junk), str(blank), str(good), str(tmp_path / "missing.jpg")]) == 1
    captured = capsys.readouterr()
    results = _json_lines(captured.out)
    assert len(results) == 4
    assert "cannot read image" in results[0]["error"] and results[0]["grids"] == []
    assert results[1]["error"] == "no Sudoku grid found in the image" and results[1]["grids"] == []
    assert results[2]["error"] is None and results[2]["grids"][0]["status"] == "solved"
    assert "no such file" in results[3]["error"]
    err = captured.err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("snapsolve: ") for line in err)
    assert "4 inputs, 1 grids, 1 solved, 3 failed" in err[-1]
    assert "Traceback" not in captured.err


def test_console_script_exit_statuses(tmp_path):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"")

    def run(*a):
        return subprocess.run([sys.executable, "-m", "snapsolve.cli", *a], capture_output=True, text=True)

    bad = run(str(junk))
    assert bad.returncode == 1 and bad.stderr.strip() == f"snapsolve: {junk}: cannot read image: empty file"
    assert bad.stdout == ""
    usage = run("--json")
    assert usage.returncode == 2 and "usage:" in usage.stderr
    helped = run("--help")
    assert helped.returncode == 0 and "evaluate" in helped.stdout and "exit status" in helped.stdout


def test_input_is_never_overwritten(tmp_path):
    photo = tmp_path / "image1.jpg"
    shutil.copy(SAMPLES / "image1.jpg", photo)
    before = photo.read_bytes()
    assert main(["--json", str(photo)]) == 0
    assert photo.read_bytes() == before and (tmp_path / "image1.solved.jpg").exists()


def test_evaluate_json(tmp_path, capsys):
    for name in ("image1", "image125"):
        for ext in (".jpg", ".dat"):
            shutil.copy(SAMPLES / (name + ext), tmp_path / (name + ext))
    assert main(["evaluate", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["photos"] == 2 and report["summary"]["perfect"] == 2
    assert report["summary"]["cell_accuracy"] == 1.0


def test_hint_gives_only_the_next_step(tmp_path, capsys):
    assert main(["--json", "--hint", "-o", str(tmp_path), str(SAMPLES / "image1082.jpg")]) == 0
    (result,) = _json_lines(capsys.readouterr().out)
    grid = result["grids"][0]
    hint = grid["hint"]
    truth = [int(c) for c in grid["solution"]]
    assert hint["placements"] or hint["eliminations"]
    assert all(truth[c] == d for c, d in hint["placements"])
    assert all(truth[c] != d for c, d in hint["eliminations"])
    assert (tmp_path / "image1082.hint.jpg").exists() and not (tmp_path / "image1082.solved.jpg").exists()
    assert main(["--hint", "--no-image", str(SAMPLES / "image1082.jpg")]) == 0
    assert "hint: " + hint["text"] in capsys.readouterr().out


def test_explain_steps_replay_to_the_solution(capsys, monkeypatch):
    line = read_collection("top1465.txt")[4]
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    assert main(["--json", "--explain", "-"]) == 0
    (r,) = _json_lines(capsys.readouterr().out)
    grid = r["grids"][0]
    values = parse_puzzle(line)
    for step in grid["steps"]:
        for c, d in step["placements"]:
            values[c] = d
    assert not grid["needs_search"] and values == [int(c) for c in grid["solution"]]
    assert sum(grid["techniques"].values()) == len(grid["steps"])


def test_search_dlx_gives_the_same_results_as_the_default(tmp_path, capsys, monkeypatch):
    # Puzzles that logic finishes, that need search (the hardest list), with two solutions and with none.
    lines = read_collection("top1465.txt")[7:10] + read_collection("forum_hardest_1106_part.txt")[1:3]
    lines += [read_collection("serg_benchmark.txt")[0], "55" + PUZZLE[2:]]
    f = tmp_path / "puzzles.txt"
    f.write_text("\n".join(lines) + "\n")
    outputs = {}
    calls = []
    from snapsolve.solver import dlx

    search = dlx.search_solutions
    monkeypatch.setattr(dlx, "search_solutions", lambda *a, **k: calls.append(1) or search(*a, **k))
    for engine in ("bitmask", "dlx"):
        args = [str(f), "--json", "--workers", "1"] + (["--search", engine] if engine == "dlx" else [])
        assert main(args) == 1  # the multi-solution and clashing lines fail, the others are solved
        results = _json_lines(capsys.readouterr().out)
        for r in results:
            r.pop("seconds")
        outputs[engine] = results
        if engine == "bitmask":
            assert not calls  # the default never runs Dancing Links
    assert calls  # --search dlx reached the exact search
    assert outputs["dlx"] == outputs["bitmask"]
    statuses = [r["grids"][0]["status"] if r["grids"] else r["error"] for r in outputs["dlx"]]
    assert statuses[:5] == ["solved"] * 5 and statuses[5] == "multiple_solutions"
    assert any(r["grids"][0]["needs_search"] for r in outputs["dlx"][:5])


def test_annotated_images_honour_the_umask(tmp_path):
    """``.solved.jpg`` and ``.hint.jpg`` get the mode any file the user writes gets (0666 less the umask), written
    atomically: no temporary file is left."""
    import os
    import stat

    for umask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        out = tmp_path / f"umask{umask:03o}"
        for option in ([], ["--hint"]):
            done = subprocess.run(
                [sys.executable, "-m", "snapsolve", str(SAMPLES / "image1.jpg"), "-o", str(out), *option],
                capture_output=True,
                text=True,
                preexec_fn=lambda umask=umask: os.umask(umask),
            )
            assert done.returncode == 0, done.stderr
        written = sorted(p.name for p in out.iterdir())
        assert written == ["image1.hint.jpg", "image1.solved.jpg"]  # nothing else: no temporary file left
        for name in written:
            assert stat.S_IMODE((out / name).stat().st_mode) == mode, (name, oct(umask))


def test_explain_shows_where_search_took_over(capsys, monkeypatch):
    """A puzzle finished by search: the text lists the steps, then the Brute Force step with the candidates left
    as a board, then the solution; the JSON's steps end with that step and replay to the solution."""
    line = read_collection("forum_hardest_1106_part.txt")[0]
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    assert main(["--explain", "-"]) == 0
    out = capsys.readouterr().out
    steps, rest = out.split("\n     candidates left, where the exact search takes over:\n")
    assert "Brute Force: logic finds no further step here;" in steps.splitlines()[-1]
    board = rest.splitlines()[:11]
    assert board[3].strip().startswith("---") and board[3].count("+") == 2 and board[0].count("|") == 2
    assert "finished by search" in rest.splitlines()[11]
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    assert main(["--json", "--explain", "-"]) == 0
    (r,) = _json_lines(capsys.readouterr().out)
    grid = r["grids"][0]
    values = parse_puzzle(line)
    for step in grid["steps"]:
        for c, d in step["placements"]:
            values[c] = d
    assert grid["needs_search"] and values == [int(c) for c in grid["solution"]]
    assert grid["steps"][-1]["technique"] == "brute_force" and grid["steps"][-1]["eliminations"] == []
    assert sum(grid["techniques"].values()) == len(grid["steps"]) - 1  # the search step is no technique of logic


def test_the_command_ends_with_its_output_whole_when_redirected_to_files(tmp_path):
    """The console script ends the process at once after the command (`cli.run`): standard output and error
    redirected to files (block-buffered) still hold every line, and the exit status is the command's."""
    inputs = [str(SAMPLES / "image1.jpg"), str(SAMPLES / "image125.jpg"), str(tmp_path / "missing.jpg")]
    out, err = tmp_path / "out.jsonl", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        done = subprocess.run(
            [sys.executable, "-m", "snapsolve", "--json", "--no-image", "--workers", "1", *inputs],
            stdout=stdout,
            stderr=stderr,
        )
    assert done.returncode == 1  # one input failed
    results = _json_lines(out.read_text())
    assert [r["input"] for r in results] == inputs
    assert [r["grids"][0]["status"] for r in results[:2]] == ["solved", "solved"]
    assert results[2]["error"] == "no such file or directory"
    assert err.read_text().splitlines()[-1].startswith("snapsolve: 3 inputs, 2 grids, 2 solved, 1 failed")
