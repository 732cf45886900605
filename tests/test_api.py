"""The JSON API speaks HTTP properly (issue 27): 400 for a missing or wrong field, 422 for what is not a
puzzle or an image, 413 for a pixel bomb, 200 with its status for a puzzle without a solution, 500 with a
logged error id for a bug or a crashed worker, 503 with Retry-After when too many requests wait.

Faults are injected by replacing the work functions with the ones below: the server pickles them by
name, so its spawned workers import them from this module.
"""

from __future__ import annotations

import logging
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from snapsolve.errors import ModelFileError  # noqa: E402
from snapsolve.solver import solve_puzzle  # noqa: E402
from snapsolve.solver.exact import solve_unique  # noqa: E402
from snapsolve.solver.generator import GenerationFailed  # noqa: E402
from snapsolve.solver.grid import PEERS, InvalidPuzzleError, parse_puzzle  # noqa: E402
from snapsolve.vision.formats import ImageReadError, ImageTooLarge  # noqa: E402
from snapsolve.web import work  # noqa: E402
from snapsolve.web.app import RETRY_AFTER, Settings, create_app  # noqa: E402

from .conftest import SAMPLES, read_collection  # noqa: E402
from .test_bombs import BOMBS  # noqa: E402

IMAGE1 = SAMPLES / "image1.jpg"
PUZZLE = read_collection("17clue.txt")[0]


def buggy(text: str, hint: bool = False, explain: bool = False) -> dict:
    """A work function with a bug (a ValueError, which must not pass for the client's fault)."""
    raise ValueError("a bug in the worker: " + text[:5])


def crashing(text: str, hint: bool = False, explain: bool = False) -> dict:
    """A work function whose worker dies, as a crash in a decoder would."""
    os._exit(70)


def pipeline_bug(text: str, hint: bool = False, explain: bool = False) -> dict:
    """The puzzle's work with a bug deep in the pipeline: a plain ValueError or RuntimeError (named by `text`)."""
    import snapsolve.puzzle

    def broken(*args, **kwargs):
        raise {"value": ValueError, "runtime": RuntimeError}[text]("our own bug")

    snapsolve.puzzle.solve_puzzle = broken  # in this worker only, which the server's pool keeps
    try:
        return work.solve_puzzle_text(PUZZLE, hint, explain)
    finally:
        snapsolve.puzzle.solve_puzzle = solve_puzzle


#: Known errors a worker may raise, by name: the class, and the status the client must get.
KNOWN = {
    "not_an_image": (work.NotAnImage, 422),
    "not_a_puzzle": (work.NotAPuzzle, 422),
    "bad_parameter": (work.BadInput, 422),
    "too_large": (work.InputTooLarge, 413),
    "image_read_error": (ImageReadError, 422),
    "image_too_large": (ImageTooLarge, 413),
    "invalid_puzzle": (InvalidPuzzleError, 422),
    "generation_failed": (GenerationFailed, 500),
    "model_file": (ModelFileError, 500),
}


def known(text: str, hint: bool = False, explain: bool = False) -> dict:
    """A work function that raises the known error named by `text`."""
    raise KNOWN[text][0](f"the message of {text}")


def slow(text: str, hint: bool = False, explain: bool = False) -> dict:
    """A puzzle that takes its worker a second."""
    time.sleep(1.0)
    return work.solve_puzzle_text(text, hint, explain)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=1, timeout=30))) as c:
        yield c


def test_photo_in_a_wrong_field_names_the_field(client):
    for field in ("file", "photo", "upload"):
        with open(IMAGE1, "rb") as fh:
            response = client.post("/api/solve", files={field: ("image1.jpg", fh, "image/jpeg")})
        assert response.status_code == 400, response.text
        assert "'image'" in response.json()["detail"] and repr(field) in response.json()["detail"]


def test_missing_fields_get_400_naming_them(client):
    no_file = client.post("/api/solve", data={"hint": "true"})
    assert no_file.status_code == 400 and "'image'" in no_file.json()["detail"]
    no_puzzle = client.post("/api/solve", json={"hint": True})
    assert no_puzzle.status_code == 400 and '"puzzle"' in no_puzzle.json()["detail"]


@pytest.mark.parametrize(
    "puzzle, words", [("123", "81"), ("x" * 81, "'x'"), (PUZZLE[:80], "81"), ("11" + "." * 79, "")]
)
def test_a_malformed_puzzle_gets_422_with_the_reason(client, puzzle, words):
    response = client.post("/api/solve", json={"puzzle": puzzle})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail.startswith("not a puzzle: ") and words in detail and "\n" not in detail


def no_solution_puzzle() -> str:
    """PUZZLE with one empty cell given a digit that breaks no house rule but leaves no solution."""
    givens = parse_puzzle(PUZZLE)
    solution = solve_unique(givens).solution
    cell = givens.index(0)
    givens[cell] = next(d for d in range(1, 10) if d != solution[cell] and all(givens[p] != d for p in PEERS[cell]))
    return "".join(str(v) if v else "." for v in givens)


@pytest.mark.parametrize("puzzle, status", [("." * 81, "multiple_solutions"), (no_solution_puzzle(), "no_solution")])
def test_a_readable_puzzle_without_one_solution_stays_200(client, puzzle, status):
    response = client.post("/api/solve", json={"puzzle": puzzle})
    assert response.status_code == 200, response.text
    grid = response.json()["grids"][0]
    assert grid["status"] == status and grid["solution"] is None and response.json()["error"]


@pytest.mark.parametrize("name, maker, size", BOMBS)
def test_pixel_bombs_get_413(client, tmp_path, name, maker, size):
    path = maker(tmp_path / name, *size)
    with open(path, "rb") as fh:
        response = client.post("/api/solve", files={"image": (name, fh, "application/octet-stream")})
    assert response.status_code == 413, response.text
    assert "megapixels" in response.json()["detail"] and "\n" not in response.json()["detail"]


def test_a_bug_in_a_worker_is_a_500_with_a_logged_error_id(client, monkeypatch, caplog):
    monkeypatch.setattr(work, "solve_puzzle_text", buggy)
    with caplog.at_level(logging.ERROR, logger="snapsolve.web"):
        response = client.post("/api/solve", json={"puzzle": PUZZLE})
    assert response.status_code == 500, response.text
    detail = response.json()["detail"]
    error_id = re.search(r"error id ([0-9a-f]{12})", detail).group(1)
    assert "Traceback" not in detail and "a bug" not in detail
    logged = [r.getMessage() for r in caplog.records if error_id in r.getMessage()]
    assert logged and "Traceback" in logged[0] and "in buggy" in logged[0]  # the worker's own traceback
    monkeypatch.undo()
    assert client.post("/api/solve", json={"puzzle": PUZZLE}).status_code == 200


@pytest.mark.parametrize("which", ["value", "runtime"])
def test_a_plain_value_or_runtime_error_in_the_pipeline_is_a_500_not_a_422(client, monkeypatch, caplog, which):
    """A ValueError or RuntimeError of our own code is a bug, not the client's fault (issue 26)."""
    monkeypatch.setattr(work, "solve_puzzle_text", pipeline_bug)
    with caplog.at_level(logging.ERROR, logger="snapsolve.web"):
        response = client.post("/api/solve", json={"puzzle": which})
    assert response.status_code == 500, response.text
    detail = response.json()["detail"]
    assert detail.startswith("internal error (error id ") and "our own bug" not in detail
    error_id = re.search(r"error id ([0-9a-f]{12})", detail).group(1)
    logged = [r.getMessage() for r in caplog.records if error_id in r.getMessage()]
    assert logged and "our own bug" in logged[0] and "in broken" in logged[0]
    monkeypatch.undo()
    assert client.post("/api/solve", json={"puzzle": PUZZLE}).json()["grids"][0]["status"] == "solved"


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_each_known_error_keeps_its_status(client, monkeypatch, caplog, name):
    monkeypatch.setattr(work, "solve_puzzle_text", known)
    with caplog.at_level(logging.ERROR, logger="snapsolve.web"):
        response = client.post("/api/solve", json={"puzzle": name})
    status = KNOWN[name][1]
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    if status < 500:  # the client's fault: the message, nothing logged
        assert detail == f"the message of {name}" and not caplog.records
    else:  # the server's: an error id, the message only in the log
        error_id = re.search(r"error id ([0-9a-f]{12})", detail).group(1)
        assert "the message" not in detail
        assert any(error_id in r.getMessage() and f"the message of {name}" in r.getMessage() for r in caplog.records)


def test_a_crashed_worker_is_a_500_and_the_server_goes_on(client, monkeypatch, caplog):
    monkeypatch.setattr(work, "solve_puzzle_text", crashing)
    with caplog.at_level(logging.ERROR, logger="snapsolve.web"):
        response = client.post("/api/solve", json={"puzzle": PUZZLE})
    assert response.status_code == 500 and "exit code 70" in response.json()["detail"]
    error_id = re.search(r"error id ([0-9a-f]{12})", response.json()["detail"]).group(1)
    assert any(error_id in r.getMessage() for r in caplog.records)
    monkeypatch.undo()
    assert client.post("/api/solve", json={"puzzle": PUZZLE}).json()["grids"][0]["status"] == "solved"


def test_a_bug_in_the_server_itself_is_a_500(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise KeyError("bug")

    monkeypatch.setattr("snapsolve.web.solve.parse_qs", broken)
    with TestClient(create_app(Settings(workers=1)), raise_server_exceptions=False) as c:
        with caplog.at_level(logging.ERROR, logger="snapsolve.web"):
            response = c.post("/api/solve", data={"puzzle": PUZZLE})
    assert response.status_code == 500 and "error id" in response.json()["detail"]
    assert any("KeyError" in r.getMessage() or r.exc_info for r in caplog.records)


def test_too_many_waiting_requests_get_503_with_retry_after(monkeypatch):
    monkeypatch.setattr(work, "solve_puzzle_text", slow)
    with TestClient(create_app(Settings(workers=1, queue_per_worker=1))) as c:
        c.post("/api/solve", json={"puzzle": PUZZLE})  # the worker has started
        with ThreadPoolExecutor(5) as pool:
            responses = list(pool.map(lambda _: c.post("/api/solve", json={"puzzle": PUZZLE}), range(5)))
        codes = sorted(r.status_code for r in responses)
        assert codes.count(200) == 2 and codes.count(503) == 3, codes  # one reading, one waiting, the rest told
        busy = next(r for r in responses if r.status_code == 503)
        assert busy.headers["retry-after"] == str(RETRY_AFTER) and "busy" in busy.json()["detail"]
        assert c.get("/api/health").json()["pending"] == 0
        assert c.post("/api/solve", json={"puzzle": PUZZLE}).status_code == 200
