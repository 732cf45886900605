"""Batch work: bad inputs, many inputs with several workers, a resumable result store, PDFs, fuzzing."""

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snapsolve.batch import Entry, OrderedWindow, StopRequest
from snapsolve.cli import main
from snapsolve.inputs import WorkItem
from snapsolve.pipeline import Options, solve_image
from snapsolve.results import InputResult
from snapsolve.solver.grid import InvalidPuzzleError, parse_puzzle
from snapsolve.vision.dataset import read_ground_truth
from snapsolve.vision.formats import ImageReadError
from snapsolve.vision.image_io import read_image
from snapsolve.vision.render import render_page

from .conftest import SAMPLES, read_collection
from .test_signals import workers_of

BAD = Path(__file__).parent / "data" / "bad"
SAMPLE_NAMES = ["image1", "image125", "image1040", "image1082"]


def _json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_every_bad_file_gives_one_clear_line(capsys):
    files = sorted(p for p in BAD.iterdir() if p.name != "README.md")
    assert main(["--json", "--workers", "1", "--no-image", *map(str, files)]) == 1
    captured = capsys.readouterr()
    results = _json_lines(captured.out)
    assert len(results) == len(files) + 2  # bad_puzzles.txt holds three lines
    assert all(r["error"] for r in results)
    errors = captured.err.strip().splitlines()[:-1]
    assert len(errors) == len(results) and all(line.startswith("snapsolve: ") and "\n" not in line for line in errors)
    assert "Traceback" not in captured.err
    by_name = {Path(r["input"].split(":")[0]).name: r["error"] for r in results}
    assert "pixel limit" in by_name["huge_header.png"] and "empty file" in by_name["empty.jpg"]


def test_200_inputs_with_20_bad_ones(tmp_path, capsys):
    folder = tmp_path / "batch"
    folder.mkdir()
    bad = sorted(p for p in BAD.iterdir() if p.suffix in (".jpg", ".png"))
    for i in range(180):
        name = SAMPLE_NAMES[i % 4]
        shutil.copy(SAMPLES / f"{name}.jpg", folder / f"good{i:03d}.jpg")
    for i in range(20):
        src = bad[i % len(bad)]
        shutil.copy(src, folder / f"bad{i:02d}{src.suffix}")
    assert main(["--json", "--no-image", "--workers", "2", str(folder)]) == 1
    captured = capsys.readouterr()
    results = _json_lines(captured.out)
    assert len(results) == 200
    good = [r for r in results if Path(r["input"]).name.startswith("good")]
    assert len(good) == 180 and all(r["error"] is None and r["grids"][0]["status"] == "solved" for r in good)
    for r in good:
        truth = read_ground_truth(SAMPLES / f"{SAMPLE_NAMES[int(Path(r['input']).stem[4:]) % 4]}.dat")
        assert r["grids"][0]["givens"] == "".join(str(d) if d else "." for d in truth)
    assert sum(1 for r in results if r["error"]) == 20
    assert "200 inputs, 180 grids, 180 solved, 20 failed" in captured.err.strip().splitlines()[-1]


def test_killed_batch_resumes_without_redoing_work(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    for i in range(24):
        shutil.copy(SAMPLES / f"{SAMPLE_NAMES[i % 4]}.jpg", folder / f"p{i:02d}.jpg")
    db = tmp_path / "results.sqlite"
    cmd = [
        sys.executable,
        "-m",
        "snapsolve.cli",
        "--json",
        "--no-image",
        "--workers",
        "2",
        "--db",
        str(db),
        str(folder),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    reported = []
    for line in proc.stdout:
        reported.append(json.loads(line)["input"])
        if len(reported) == 8:
            workers = workers_of(proc.pid)
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    assert len(workers) == 2
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)  # the workers left with their parent
    rerun = subprocess.run(cmd, capture_output=True, text=True)
    assert rerun.returncode == 0
    results = _json_lines(rerun.stdout)
    assert len(results) == 24
    cached = {r["input"] for r in results if r.get("cached")}
    assert set(reported) <= cached  # everything reported before the kill is kept
    assert f"{len(cached)} already done" in rerun.stderr
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert all(r.get("cached") for r in _json_lines(again.stdout))
    (folder / "p00.jpg").touch()  # a changed file is done again
    time.sleep(0.01)
    third = _json_lines(subprocess.run(cmd, capture_output=True, text=True).stdout)
    assert [r["input"] for r in third if not r.get("cached")] == [str(folder / "p00.jpg")]


def test_pdf_pages_with_several_puzzles(tmp_path, capsys):
    puzzles = [parse_puzzle(line) for line in read_collection("17clue.txt")[:6]]
    pages = [render_page(puzzles[:4], title="Page one"), render_page(puzzles[4:], title="Page two")]
    pdf = tmp_path / "scan.pdf"
    pages[0].save(pdf, save_all=True, append_images=pages[1:], resolution=150)
    assert main(["--json", "--workers", "1", "-o", str(tmp_path / "out"), str(pdf)]) == 0
    results = sorted(_json_lines(capsys.readouterr().out), key=lambda r: r["input"])
    assert [r["input"] for r in results] == [f"{pdf}#1", f"{pdf}#2"]
    read = {g["givens"] for r in results for g in r["grids"]}
    assert read == {"".join(str(d) if d else "." for d in p) for p in puzzles}
    assert (tmp_path / "out" / "scan.p1.solved.jpg").exists()


def test_grayscale_16bit_and_alpha_images(tmp_path):
    photo = cv2.imread(str(SAMPLES / "image125.jpg"))
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    variants = {
        "gray.png": gray,
        "deep.png": gray.astype(np.uint16) * 257,
        "alpha.png": cv2.cvtColor(photo, cv2.COLOR_BGR2BGRA),
        "photo.tiff": photo,
        "photo.webp": photo,
    }
    truth = "".join(str(d) if d else "." for d in read_ground_truth(SAMPLES / "image125.dat"))
    for name, image in variants.items():
        path = tmp_path / name
        assert cv2.imwrite(str(path), image), name
        result = solve_image(path, Options(write_image=False)).to_json()
        assert result["error"] is None and result["grids"][0]["givens"] == truth, name


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_fuzz_puzzle_parsing(text):
    try:
        grid = parse_puzzle(text)
    except InvalidPuzzleError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert len(grid) == 81 and all(0 <= v <= 9 for v in grid)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=2048))
def test_fuzz_image_decoding_random_bytes(tmp_path, data):
    path = tmp_path / "fuzz.jpg"
    path.write_bytes(data)
    result = solve_image(path, Options(write_image=False))
    assert result.error and not result.grids


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=30), st.integers(100, 10**6)
)
def test_fuzz_image_decoding_corrupted_jpeg(tmp_path, flips, cut):
    data = bytearray((SAMPLES / "image1.jpg").read_bytes())
    for pos, value in flips:
        data[pos % len(data)] = value
    path = tmp_path / "corrupt.jpg"
    path.write_bytes(bytes(data[:cut]))
    try:
        read_image(path)
    except ImageReadError:
        pass
    result = solve_image(path, Options(write_image=False)).to_json()  # never raises
    assert set(result) >= {"input", "error", "grids"}
    assert result["error"] or result["grids"]


class _LastFirstWindow(OrderedWindow):
    """A window whose tasks end newest first, one per collect; input 3 is answered at once."""

    def __init__(self, stop_after=None, **kwargs):
        super().__init__(**kwargs)
        self.running: list[Entry] = []
        self.most_read = 0
        self.stop_after = stop_after
        self.collected = 0

    def limits(self):
        return 3, 5

    def admit(self, entry):
        self.most_read = max(self.most_read, entry.index)
        if entry.index == 3:
            entry.result = InputResult.failed(entry.item.label, "answered at once")
            return False
        return True

    def start(self, entries):
        self.running += entries

    def in_flight(self):
        return len(self.running)

    def collect(self, head):
        entry = self.running.pop()
        self.finish(entry, InputResult.failed(entry.item.label, "done"))
        self.collected += 1
        if self.stop_after is not None and self.collected == self.stop_after:
            self.stop.signum = signal.SIGINT

    def wind_down(self):
        self.running = self.running[-1:]  # the rest were queued: dropped


def test_ordered_window_yields_in_input_order_within_its_bounds():
    items = [WorkItem("puzzle", f"p:{n}", "", "") for n in range(20)]
    reported = []
    window = _LastFirstWindow(on_done=lambda item, result: reported.append(item.label))
    labels = []
    for item, _ in window.results(iter(items)):
        labels.append(item.label)
        assert window.most_read < len(labels) + 5  # never more than 5 inputs from the first unfinished one
        assert len(window.running) <= 3
    assert labels == [i.label for i in items]
    assert sorted(reported) == sorted(i.label for i in items if i.label != "p:3")


def test_ordered_window_stopped_yields_what_finished_past_the_gaps():
    items = [WorkItem("puzzle", f"p:{n}", "", "") for n in range(20)]
    window = _LastFirstWindow(stop_after=2, stop=StopRequest())
    labels = [item.label for item, _ in window.results(items)]
    # 0, 1, 2 started, 2 ended; 3 answered at once, 4 started and ended: the stop. 0 was still queued
    # (dropped), 1 running (finished); nothing after 4 was read
    assert labels == ["p:1", "p:2", "p:3", "p:4"]
    assert window.most_read == 4
