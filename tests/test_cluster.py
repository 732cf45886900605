"""The batch on a Dask cluster (`--cluster`): same results as the local pool, a killed worker loses and repeats
nothing, a task that kills its workers gets an error result, a rerun with --db does no work, inputs are streamed.

Skipped without the ``cluster`` extra. One LocalCluster of 2 worker processes (one thread each) serves the
tests that kill no worker; each test that kills workers has its own. The scheduler fails a task after it has
killed 2 workers (allowed-failures 1) and gives each worker one task at a time (worker-saturation 1.0), so that
only the task running on a killed worker is held against it.
"""

import contextlib
import json
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

import cloudpickle  # noqa: E402  (a dependency of distributed)
import dask  # noqa: E402

from snapsolve import cluster as snapsolve_cluster  # noqa: E402
from snapsolve.batch import WINDOW_PER_WORKER, ResultStore  # noqa: E402
from snapsolve.cli import main  # noqa: E402
from snapsolve.cluster import run_cluster_batch, solve_on_worker  # noqa: E402
from snapsolve.inputs import WorkItem, expand_inputs  # noqa: E402
from snapsolve.puzzle import Options  # noqa: E402

from .conftest import SAMPLES, read_collection  # noqa: E402
from .test_bombs import BOMBS, pdf_page  # noqa: E402

BAD = Path(__file__).parent / "data" / "bad"
SAMPLE_NAMES = ["image1", "image125", "image1040", "image1082"]

# The poisoned task below is defined here; workers cannot import the tests, so it travels by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@contextlib.contextmanager
def _running_cluster():
    """(scheduler address, client) of a LocalCluster with 2 worker processes, both running."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 1, "distributed.scheduler.worker-saturation": 1.0}):
        local = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        )
    client = distributed.Client(local)
    try:
        client.wait_for_workers(2, timeout=120)
        yield local.scheduler_address, client
    finally:
        client.close()
        local.close()


@pytest.fixture(scope="module")
def cluster():
    """The cluster shared by the tests that kill no worker."""
    with _running_cluster() as running:
        yield running


@pytest.fixture
def own_cluster():
    """A cluster of its own for a test that kills workers: a nanny that does not bring its worker back (seen
    once in CI, under load) must not take the later tests down with it."""
    with _running_cluster() as running:
        yield running


def _json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _without_seconds(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def _photos(folder: Path, count: int) -> Path:
    folder.mkdir()
    for i in range(count):
        shutil.copy(SAMPLES / f"{SAMPLE_NAMES[i % 4]}.jpg", folder / f"good{i:03d}.jpg")
    return folder


@pytest.mark.slow  # 80-100 s; the default run keeps the shorter tests of the same behaviour
def test_same_results_as_the_local_pool(cluster, tmp_path, capsys):
    """The issue's batch: 200 inputs, 20 of them bad (12 bad images, 7 bad puzzle lines, a missing file)."""
    address, _ = cluster
    folder = _photos(tmp_path / "batch", 60)
    bad = sorted(p for p in BAD.iterdir() if p.suffix in (".jpg", ".png"))
    for i in range(12):
        shutil.copy(bad[i % len(bad)], folder / f"bad{i:02d}{bad[i % len(bad)].suffix}")
    puzzles = tmp_path / "puzzles.txt"
    several = read_collection("serg_benchmark.txt")[:5]  # every one has several solutions
    lines = read_collection("17clue.txt")[:40] * 2 + read_collection("top1465.txt")[:40] + several
    lines += ["not a puzzle", "1" * 81]
    puzzles.write_text("\n".join(lines) + "\n")
    inputs = [str(folder), str(puzzles), str(tmp_path / "missing.jpg")]

    assert main(["--json", "--no-image", "--cluster", address, *inputs]) == 1
    on_cluster = capsys.readouterr()
    assert main(["--json", "--no-image", "--workers", "2", *inputs]) == 1
    local = capsys.readouterr()

    results = _json_lines(on_cluster.out)
    assert len(results) == 72 + 127 + 1 == 200
    assert _without_seconds(results) == _without_seconds(_json_lines(local.out))
    assert sum(1 for r in results if r["error"]) == 12 + 7 + 1
    summary = "200 inputs, 185 grids, 180 solved, 20 failed"
    assert summary in on_cluster.err.strip().splitlines()[-1] and summary in local.err.strip().splitlines()[-1]
    assert f"snapsolve: Dask scheduler {address}, dashboard http" in on_cluster.err
    assert "Traceback" not in on_cluster.err


def test_a_worker_killed_mid_batch_loses_and_repeats_nothing(own_cluster, tmp_path):
    address, client = own_cluster
    items = list(expand_inputs([str(_photos(tmp_path / "photos", 20))]))
    killed = []

    def kill_a_busy_worker(item, result):
        if killed:
            return
        busy = [worker for worker, keys in client.processing().items() if keys]
        for pid in client.run(os.getpid, workers=busy[:1]).values():  # it is running an input right now
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    store = ResultStore(tmp_path / "results.sqlite")
    results = [
        r for _, r in run_cluster_batch(items, Options(write_image=False), address, store, on_done=kill_a_busy_worker)
    ]
    store.close()
    assert len(killed) == 1
    assert [r.input for r in results] == [item.label for item in items]  # each once, in input order
    assert all(r.error is None and r.grids[0].solved for r in results)  # the lost task ran again elsewhere
    rows = sqlite3.connect(tmp_path / "results.sqlite").execute("SELECT input, error FROM results").fetchall()
    assert sorted(r[0] for r in rows) == sorted(item.label for item in items) and all(r[1] is None for r in rows)


def _dies_on_poison(item, options, data=None):
    """Kill the worker process for the input labelled 'poison'; solve the others."""
    if item.label == "poison":
        os._exit(3)
    return solve_on_worker(item, options, data)


def test_a_task_that_kills_its_workers_gets_an_error_and_the_batch_goes_on(own_cluster):
    address, _ = own_cluster
    lines = read_collection("17clue.txt")[:12]
    items = [WorkItem("puzzle", f"p:{n}", "", line) for n, line in enumerate(lines[:6])]
    items += [WorkItem("puzzle", "poison", "", lines[6])]
    items += [WorkItem("puzzle", f"p:{n}", "", line) for n, line in enumerate(lines[7:], start=7)]
    results = dict((item.label, r) for item, r in run_cluster_batch(items, Options(), address, task=_dies_on_poison))
    assert list(results) == [item.label for item in items]
    assert "worker process died" in results["poison"].error and "KilledWorker" in results["poison"].error
    assert all(r.error is None and r.grids[0].solved for label, r in results.items() if label != "poison")


def test_a_rerun_with_db_does_no_work(cluster, tmp_path, capsys):
    address, client = cluster
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join(read_collection("17clue.txt")[:20]) + "\n")
    folder = _photos(tmp_path / "photos", 4)
    db = tmp_path / "results.sqlite"
    command = ["--json", "--no-image", "--cluster", address, "--db", str(db), str(puzzles), str(folder)]
    assert main(command) == 0
    first = _json_lines(capsys.readouterr().out)
    assert len(first) == 24 and not any(r.get("cached") for r in first)

    def executed():
        return sum(client.run(lambda dask_worker: dask_worker.state.executed_count).values())

    before = executed()
    assert main(command) == 0
    again = capsys.readouterr()
    assert executed() == before  # no task ran
    results = _json_lines(again.out)
    assert [r["input"] for r in results] == [r["input"] for r in first] and all(r.get("cached") for r in results)
    assert "24 already done" in again.err


def test_send_bytes_brings_the_annotated_images_back(cluster, tmp_path, capsys, monkeypatch):
    address, _ = cluster
    folder = _photos(tmp_path / "photos", 2)
    out = tmp_path / "out"
    (tmp_path / "puzzles.txt").write_text("\n".join(read_collection("17clue.txt")[:2]) + "\n")
    monkeypatch.chdir(tmp_path)  # relative labels, as typed
    assert main(["--json", "--send-bytes", "-o", "out", "--cluster", address, "photos", "puzzles.txt"]) == 0
    results = _json_lines(capsys.readouterr().out)
    assert [r["input"] for r in results] == [f"photos/{p.name}" for p in sorted(folder.iterdir())] + [
        "puzzles.txt:1",
        "puzzles.txt:2",
    ]
    assert all(r["grids"][0]["status"] == "solved" for r in results)
    for r in results[:2]:
        expected = f"out/{Path(r['input']).stem}.solved.jpg"
        assert r["grids"][0]["output"] == expected and (tmp_path / expected).read_bytes()[:2] == b"\xff\xd8"
    assert sorted(p.name for p in out.iterdir()) == ["good000.solved.jpg", "good001.solved.jpg"]


def test_pixel_bombs_are_refused_on_the_workers(cluster, tmp_path, capsys):
    """Every kind of pixel bomb (PNG, JPEG, TIFF, PDF page, HEIC) gets its one-line error from a worker; the
    good photo beside them is solved."""
    address, _ = cluster
    bombs = [maker(tmp_path / name, *size) for name, maker, size in BOMBS]
    bombs.append(pdf_page(tmp_path / "bomb.pdf", 14_400, 14_400))
    inputs = [*map(str, bombs), str(SAMPLES / "image1.jpg")]
    assert main(["--json", "--no-image", "--cluster", address, *inputs]) == 1
    captured = capsys.readouterr()
    results = _json_lines(captured.out)
    assert [r["input"] for r in results] == [i + "#1" if i.endswith(".pdf") else i for i in inputs]  # a page
    assert all("pixel limit" in r["error"] for r in results[:-1]), results
    assert results[-1]["error"] is None and results[-1]["grids"][0]["status"] == "solved"
    assert "Traceback" not in captured.err


def test_inputs_are_streamed_with_a_bounded_window(cluster):
    address, _ = cluster
    line = read_collection("17clue.txt")[0]
    pulled = []

    def many():
        for n in range(10**6):
            pulled.append(n)
            yield WorkItem("puzzle", f"p:{n}", "", line)

    batch = run_cluster_batch(many(), Options(), address)
    for count, (_, result) in enumerate(batch, start=1):
        assert result.error is None
        if count == 40:
            break
    batch.close()
    assert len(pulled) <= 40 + WINDOW_PER_WORKER * 2


def test_local_cluster_from_the_command_line(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join(read_collection("17clue.txt")[:4]) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "snapsolve", "--json", "--cluster", "local:1", str(puzzles)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert len(_json_lines(run.stdout)) == 4
    assert "snapsolve: Dask scheduler tcp://" in run.stderr and ", dashboard http" in run.stderr
    assert "Traceback" not in run.stderr


def test_wrong_cluster_addresses_give_one_line(tmp_path, capsys, monkeypatch):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(read_collection("17clue.txt")[0] + "\n")
    with pytest.raises(SystemExit) as exit_:
        main(["--cluster", "local:0", str(puzzles)])
    assert exit_.value.code == 2 and "local:N" in capsys.readouterr().err
    monkeypatch.setattr(snapsolve_cluster, "CONNECT_TIMEOUT", 1)
    assert main(["--cluster", "tcp://127.0.0.1:9", str(puzzles)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("snapsolve: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
