"""Errors by kind, not by message text (issue 26): each known kind keeps its exit status and HTTP status, and
anything else is an internal error (exit status 1 with one line, HTTP 500 with an error id), never the
user's fault. The web API's side is in test_api.py (it needs the worker pool)."""

from __future__ import annotations

import pytest

from snapsolve import cli, errors
from snapsolve.cluster import ClusterUnavailable
from snapsolve.errors import Kind, kind_of
from snapsolve.pipeline import solve_and_draw
from snapsolve.puzzle import Options
from snapsolve.results import InputResult
from snapsolve.solver.generator import GenerationFailed
from snapsolve.solver.grid import InvalidPuzzleError
from snapsolve.vision.formats import ImageReadError, ImageTooLarge

from .conftest import SAMPLES
from .test_bombs import png_bomb

PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

#: The statuses of the cases that existed before the table: they must not move.
KEPT = {
    Kind.USAGE: (2, 400),
    Kind.UNAUTHORISED: (1, 401),
    Kind.TOO_LARGE: (1, 413),
    Kind.UNSUPPORTED_MEDIA: (1, 415),
    Kind.NOT_AN_IMAGE: (1, 422),
    Kind.NOT_A_PUZZLE: (1, 422),
    Kind.BAD_PARAMETER: (2, 422),
    Kind.OVERLOADED: (1, 503),
    Kind.TIMEOUT: (1, 504),
    Kind.INTERNAL: (1, 500),
    Kind.WORKER_DIED: (1, 500),
}


def test_the_table_keeps_every_status():
    for kind, (exit_status, http_status) in KEPT.items():
        assert (kind.exit_status, kind.http_status) == (exit_status, http_status), kind
    assert [k for k in Kind if k.client_error] == [k for k in Kind if 400 <= k.http_status < 500]
    assert Kind.INTERNAL.client_error is False and Kind.SETUP.client_error is False


@pytest.mark.parametrize(
    "exc, kind",
    [
        (ImageReadError("not a readable image"), Kind.NOT_AN_IMAGE),
        (ImageTooLarge("image is over the limit"), Kind.TOO_LARGE),
        (InvalidPuzzleError("too short"), Kind.NOT_A_PUZZLE),
        (GenerationFailed("made only 1 of 2"), Kind.NOT_REACHED),
        (ClusterUnavailable("cannot reach"), Kind.SETUP),
        (errors.MissingExtra("pip install"), Kind.SETUP),
        (FileNotFoundError("model missing"), Kind.SETUP),
        (ModuleNotFoundError("No module named 'x'"), Kind.SETUP),
        (ValueError("a bug"), Kind.INTERNAL),
        (RuntimeError("a bug"), Kind.INTERNAL),
        (KeyError("a bug"), Kind.INTERNAL),
        (ImportError("cannot import name 'x'"), Kind.INTERNAL),
    ],
)
def test_the_kind_comes_from_the_class(exc, kind):
    assert kind_of(exc) is kind
    assert kind_of(type(exc)("pixel limit: not a readable image")) is kind  # whatever the message says


def test_the_pipeline_tells_the_kind_of_an_unreadable_photo(tmp_path):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    result, _ = solve_and_draw(empty, Options())
    assert result.kind is Kind.NOT_AN_IMAGE and result.error == "cannot read image: empty file"
    result, _ = solve_and_draw(png_bomb(tmp_path / "bomb.png", 20_000, 20_000), Options())
    assert result.kind is Kind.TOO_LARGE and "pixel limit" in result.error
    assert "kind" not in result.to_json()  # not part of the JSON contract


def test_the_upload_is_refused_by_kind_not_by_text(monkeypatch, tmp_path):
    """A result whose error merely reads like an unreadable photo is not refused; one of that kind is."""
    from snapsolve.web import work

    photo = tmp_path / "photo.jpg"
    photo.write_bytes((SAMPLES / "image1.jpg").read_bytes())

    def fake(kind, error):
        def solve_and_draw(*args, **kwargs):
            return InputResult("photo.jpg", error, kind=kind), None

        return solve_and_draw

    text = "cannot read image: over the pixel limit"
    monkeypatch.setattr("snapsolve.pipeline.solve_and_draw", fake(None, text))
    assert work.solve_upload(str(photo), "photo.jpg")["error"] == text
    monkeypatch.setattr("snapsolve.pipeline.solve_and_draw", fake(Kind.TOO_LARGE, text))
    with pytest.raises(work.InputTooLarge, match="the image is over the limit: over the pixel limit"):
        work.solve_upload(str(photo), "photo.jpg")
    monkeypatch.setattr("snapsolve.pipeline.solve_and_draw", fake(Kind.NOT_AN_IMAGE, "cannot read image: bad"))
    with pytest.raises(work.NotAnImage, match="^not a readable image: bad$"):
        work.solve_upload(str(photo), "photo.jpg")


def _bug(exc):
    def raising(*args, **kwargs):
        raise exc

    return raising


@pytest.mark.parametrize("exc", [ValueError("bad value"), RuntimeError("bad state"), KeyError("k")])
def test_a_bug_on_the_command_line_is_one_line_and_exit_1(monkeypatch, capsys, exc):
    monkeypatch.setattr("snapsolve.inputs.expand_inputs", _bug(exc))
    assert cli.main(["--json", "-"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"snapsolve: internal error: {type(exc).__name__}: ") and "--debug" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_debug_prints_the_traceback(monkeypatch, capsys):
    monkeypatch.setattr("snapsolve.inputs.expand_inputs", _bug(ValueError("bad value")))
    assert cli.main(["--json", "--debug", "-"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and "in raising" in err
    assert err.strip().splitlines()[-1] == "snapsolve: internal error: ValueError: bad value"
    assert cli.main(["--debug", "--json", "-"]) == 1  # before the implied subcommand too
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize(
    "exc, status",
    [
        (FileNotFoundError("digit model x.npz is missing"), 1),
        (errors.ModelFileError("x.npz is not a snapsolve cell model"), 1),
        (ClusterUnavailable("cannot reach the Dask scheduler at h:1: timeout"), 1),
        (errors.MissingExtra("--cluster needs the cluster extra: pip install 'snapsolve[cluster]'"), 1),
        (errors.UsageError("give both --certfile and --keyfile"), 2),
    ],
)
def test_a_known_error_on_the_command_line_is_its_message(monkeypatch, capsys, exc, status):
    monkeypatch.setattr("snapsolve.inputs.expand_inputs", _bug(exc))
    assert cli.main(["-"]) == status
    assert capsys.readouterr().err == f"snapsolve: {exc}\n"


def test_generate_says_a_level_not_reached_but_calls_a_bug_a_bug(monkeypatch, capsys):
    monkeypatch.setattr("snapsolve.generate.generate", _bug(GenerationFailed("made only 0 of 1 hard puzzles")))
    assert cli.main(["generate", "--level", "hard"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "snapsolve: made only 0 of 1 hard puzzles"
    monkeypatch.setattr("snapsolve.generate.generate", _bug(RuntimeError("a bug")))
    assert cli.main(["generate", "--level", "hard"]) == 1
    assert "snapsolve: internal error: RuntimeError: a bug" in capsys.readouterr().err


def test_a_bug_in_one_input_of_a_batch_stays_that_inputs_error(monkeypatch, capsys):
    monkeypatch.setattr("snapsolve.puzzle.solve_text", _bug(ValueError("a bug")))
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(PUZZLE + "\n"))
    assert cli.main(["--json", "--workers", "1", "-"]) == 1
    assert "-:1: internal error: ValueError: a bug" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["/proc/snapsolve-nope", "a file/sub"])
def test_an_output_folder_that_cannot_be_made_is_one_line_before_any_input(tmp_path, capsys, where):
    """``-o`` to a folder that cannot be made (under /proc, or under a file): one line naming the folder and why,
    exit status 2 (a usage error), no input read."""
    (tmp_path / "a file").write_text("in the way")
    folder = where if where.startswith("/") else str(tmp_path / where)
    assert cli.main([str(SAMPLES / "image1.jpg"), "-o", folder]) == 2
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    why = "no such file or directory" if where.startswith("/") else "not a directory"
    assert line == f"snapsolve: cannot make the output folder {folder}: {why}"
    assert captured.out == ""  # no input was read


def test_train_looks_for_its_data_beside_the_current_folder_and_says_where(tmp_path, monkeypatch, capsys):
    """``snapsolve train`` after a plain ``pip install .`` (the package in site-packages): without --data it looks in
    ../shared/datasets beside the current folder, and when the folders are not there it says in one line what it
    needs and where it looked."""
    from snapsolve import train

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.chdir(checkout)
    monkeypatch.setattr(train, "__file__", str(tmp_path / "venv" / "site-packages" / "snapsolve" / "train.py"))
    shared = tmp_path / "shared" / "datasets"
    assert train.data_places() == [shared]
    assert cli.main(["train", "--output", str(tmp_path / "model.npz")]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        "snapsolve: training needs the labelled photo folders sudoku-photos-train and sudoku-photos-inprogress-train; "
        f"not found in {shared}; give them with --data DIR (repeatable)"
    )
    for name in train.DEFAULT_DATA:
        (shared / name).mkdir(parents=True)
    assert train.default_data() == [shared / name for name in train.DEFAULT_DATA]
    assert not (tmp_path / "model.npz").exists()
