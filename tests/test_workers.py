"""The batch's processes: input order, no pool for one input, a dying worker, the installed package
whatever the current folder holds, imports only what a command needs, one database shared by two runs."""

import json
import multiprocessing
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import wait
from pathlib import Path

import pytest

from snapsolve.batch import Entry, ResultStore, process_item, reads_here, run_batch
from snapsolve.cli import main
from snapsolve.inputs import WorkItem, expand_inputs
from snapsolve.puzzle import Options
from snapsolve.workers import WORKER_DIED, PoolWindow

from .conftest import SAMPLES, read_collection

SCRIPT = Path(sys.executable).with_name("snapsolve")
PHOTOS = sorted(str(p) for p in SAMPLES.glob("*.jpg"))


def _puzzle_items(lines):
    return [WorkItem("puzzle", f"p:{n}", "", line) for n, line in enumerate(lines, start=1)]


def test_results_come_in_input_order(tmp_path, capsys):
    """200 puzzle lines on 2 workers: JSON Lines in line order (hard puzzles first, so later ones finish first)."""
    hard = read_collection("forum_hardest_1106_part.txt")[:20]
    rest = (read_collection("17clue.txt") + read_collection("top1465.txt") + read_collection("serg_benchmark.txt")) * 2
    lines = (hard + rest)[:200]
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join(lines) + "\n")
    done_order = []
    items = list(expand_inputs([str(puzzles)]))
    out = [
        item.label
        for item, _ in run_batch(
            items, Options(write_image=False), workers=2, on_done=lambda item, result: done_order.append(item.label)
        )
    ]
    assert out == [f"{puzzles}:{n}" for n in range(1, 201)]
    assert sorted(done_order) == sorted(out) and done_order != out  # completions came out of order
    main(["--json", "--workers", "2", str(puzzles)])
    printed = [json.loads(line)["input"] for line in capsys.readouterr().out.splitlines()]
    assert printed == out


def test_one_input_starts_no_pool(monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for one input")

    monkeypatch.setattr("snapsolve.workers._new_pool", no_pool)
    items = _puzzle_items(read_collection("top1465.txt")[:1])
    [(_, result)] = list(run_batch(items, Options(write_image=False), workers=8))
    assert result.error is None and result.grids[0].solved


def test_a_batch_of_little_work_starts_no_pool(monkeypatch):
    """A batch whose estimated work is small (a few photos, a few dozen puzzles) is read in this process even
    with 8 workers; more photos, PDF pages, or phone photos whose annotated images are drawn go to a pool."""

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for a batch of little work")

    small = [p for p in PHOTOS if Path(p).stat().st_size < 100_000]  # 640x480 photos
    big = [p for p in PHOTOS if Path(p).stat().st_size > 300_000]  # phone photos of a few hundred kB
    assert len(small) >= 2 and len(big) >= 3
    images = [WorkItem("image", path, path) for path in (small * 5)[:4]]
    assert reads_here(images, 8) and reads_here(images, 8, drawing=False)
    assert not reads_here([WorkItem("image", p, p) for p in (small * 6)[:12]], 8)
    assert not reads_here(images[:1] + [WorkItem("pdf_page", f"scan.pdf#{n}", "scan.pdf") for n in (1, 2)], 8)
    phone = [WorkItem("image", p, p) for p in (big * 3)[:7]]
    assert not reads_here(phone, 8) and reads_here(phone, 8, drawing=False)
    puzzles = _puzzle_items(read_collection("top1465.txt")[:100])
    assert reads_here(puzzles[:50], 8) and not reads_here(puzzles, 8)
    monkeypatch.setattr("snapsolve.workers._new_pool", no_pool)
    results = [r for _, r in run_batch(images, Options(write_image=False), workers=8)]
    assert [r.input for r in results] == [item.label for item in images] and all(r.grids[0].solved for r in results)


@pytest.mark.slow  # 80-100 s; the default run keeps the shorter tests of the same behaviour
def test_a_worker_killed_from_outside_loses_nothing(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    for i in range(16):
        shutil.copy(PHOTOS[i % len(PHOTOS)], folder / f"photo{i:02d}.jpg")
    items = list(expand_inputs([str(folder)]))
    killed = []

    def kill_a_worker_soon(item, result):
        if not killed:  # both workers are reading photos a moment after the first result
            worker = multiprocessing.active_children()[0]
            killed.append(worker.pid)
            threading.Timer(0.2, os.kill, (worker.pid, signal.SIGKILL)).start()

    results = [r for _, r in run_batch(items, Options(write_image=False), workers=2, on_done=kill_a_worker_soon)]
    assert killed
    assert [r.input for r in results] == [item.label for item in items]  # in order, nothing lost, nothing twice
    assert all(r.error is None and r.grids[0].solved for r in results)


def dies_on_line_3(item, options):
    """A task whose worker dies on one input, as a crash in a decoder would (workers import it from here)."""
    if item.label.endswith(":3"):
        os._exit(70)
    return process_item(item, options)


def test_an_input_that_kills_its_worker_costs_only_itself():
    items = _puzzle_items(read_collection("17clue.txt")[:100])  # enough work for a pool (batch.reads_here)
    results = [r for _, r in run_batch(items, Options(write_image=False), workers=2, task=dies_on_line_3)]
    assert [r.input for r in results] == [item.label for item in items]
    assert [r.error for r in results] == [None, None, WORKER_DIED] + [None] * 97
    assert all(r.grids[0].solved for r in results if r.error is None)


def test_inputs_started_after_a_worker_died_go_to_a_new_pool():
    """A worker dies between two rounds of submissions: the pool refuses the next inputs (it raised
    BrokenProcessPool out of the batch, a race the test above met now and then). They go to a new pool;
    the input that killed its worker is read alone and reported, the others read."""
    items = _puzzle_items(read_collection("17clue.txt")[:5])
    window = PoolWindow([None] * len(items), dies_on_line_3, Options(write_image=False), 2, False)
    try:
        entries = [Entry(item, i) for i, item in enumerate(items)]
        window.start([entries[2]])  # p:3 kills its worker
        wait(window.futures)  # the pool is broken now
        window.start(entries[3:])
        while window.busy():
            window.collect(entries[2])
        window.start(entries[:2])
        while window.busy():
            window.collect(entries[0])
    finally:
        window.pool.shutdown(wait=False, cancel_futures=True)
    assert [e.result.error for e in entries] == [None, None, WORKER_DIED, None, None]
    assert all(e.result.grids[0].solved for e in entries if e.result.error is None)


@pytest.mark.skipif(not SCRIPT.exists(), reason="the snapsolve console script is not installed beside python")
def test_installed_command_ignores_folders_named_like_its_packages(tmp_path):
    """Run where `snapsolve/`, `vision/` and `solver/` folders would shadow the package if workers imported them."""
    for name in ("snapsolve", "vision", "solver"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            "open(__file__ + '.imported', 'w').close()\nraise ImportError('a folder of the current directory')\n"
        )
    run = subprocess.run(
        [str(SCRIPT), "--json", "--no-image", "--workers", "2", *PHOTOS, *PHOTOS, *PHOTOS],  # work for a pool
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["input"] for r in results] == [*PHOTOS, *PHOTOS, *PHOTOS]
    assert all(r["error"] is None and r["grids"][0]["status"] == "solved" for r in results)
    assert "Traceback" not in run.stderr
    assert not list(tmp_path.glob("*/*.imported"))  # no process imported them, the workers' fork server neither


#: SIGINT and SIGTERM in a /proc status mask (bit N - 1 for signal N).
STOP_MASK = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))


def test_photo_workers_are_forked_from_one_warm_quiet_server():
    """Two photo workers: children of one fork server that imported scikit-learn and OpenCV before it forked
    them, had one thread when it did, and ignores the stop signals, as the workers do."""
    code = (
        "import json, multiprocessing, time\nfrom pathlib import Path\n"
        "from snapsolve.workers import _new_pool\n"
        "pool = _new_pool(2, True, None)\n"
        "list(pool.map(time.sleep, [0.5, 0.5]))\n"
        "def status(pid):\n"
        "    lines = Path(f'/proc/{pid}/status').read_text().splitlines()\n"
        "    return {k: v.strip() for k, v in (line.split(':', 1) for line in lines)}\n"
        "workers = [p.pid for p in multiprocessing.active_children()]\n"
        "servers = {int(status(w)['PPid']) for w in workers}\n"
        "[server] = servers\n"
        "maps = Path(f'/proc/{server}/maps').read_text()\n"
        "print(json.dumps({'workers': len(workers), 'servers': len(servers),\n"
        "    'threads': int(status(server)['Threads']), 'sklearn': '/sklearn/' in maps, 'cv2': '/cv2/' in maps,\n"
        "    'ignored': [int(status(p)['SigIgn'], 16) for p in [server, *workers]]}))\n"
        "pool.shutdown()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["workers"] == 2 and seen["servers"] == 1
    assert seen["sklearn"] and seen["cv2"]  # loaded once, in the server
    assert seen["threads"] == 1
    assert all(mask & STOP_MASK == STOP_MASK for mask in seen["ignored"])


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["solve", "--help"], ["serve", "--help"], ["-"], ["generate", "--count", "1", "--seed", "3"]],
)
def test_commands_without_photos_import_no_opencv_sklearn_or_numpy(argv):
    """Help, a puzzle on standard input and generated puzzles start without the photo pipeline's libraries."""
    code = (
        "import sys\nfrom snapsolve.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'cv2', 'sklearn', 'numpy'}), file=sys.stderr)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, *argv],
        input=read_collection("top1465.txt")[0] + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stderr.strip().splitlines()[-1] == "[]", run.stderr
    assert run.stdout.strip()


def test_two_processes_share_one_database(tmp_path):
    lines = read_collection("17clue.txt")[:40]
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join(lines) + "\n")
    db = tmp_path / "results.sqlite"
    command = [sys.executable, "-m", "snapsolve", "--json", "--workers", "1", "--db", str(db), str(puzzles)]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, outputs):
        assert run.returncode == 0, err
        assert "locked" not in err
        assert len(out.splitlines()) == 40
    rows = sqlite3.connect(db).execute("SELECT input, error FROM results").fetchall()
    assert sorted(r[0] for r in rows) == sorted(f"{puzzles}:{n}" for n in range(1, 41))
    assert all(r[1] is None for r in rows)
    store = ResultStore(db)  # a third run finds every input done
    assert all(store.done(item) is not None for item in expand_inputs([str(puzzles)]))
    store.close()


def test_one_photo_reads_while_scikit_learn_loads(tmp_path):
    """A single photo: the model's index is built in a background thread (loading the model imports
    no scikit-learn), the neighbour search still runs on one thread, the photo is solved and drawn."""
    code = (
        "import sys, json\n"
        "from snapsolve.pipeline import default_model\n"
        "default_model()\n"
        "print(json.dumps('sklearn' in sys.modules))\n"
        "import snapsolve.vision.knn as knn\n"
        "from threadpoolctl import threadpool_info\n"
        "query = knn.KNearest.proba_and_nearest\n"
        "def proba(self, x):\n"
        "    out = query(self, x)\n"
        "    print(json.dumps(max(i['num_threads'] for i in threadpool_info())))\n"
        "    return out\n"
        "knn.KNearest.proba_and_nearest = proba\n"
        "from snapsolve.cli import main\n"
        "main(['--json', '-o', sys.argv[1], sys.argv[2]])\n"
    )
    photo = str(SAMPLES / "02_25_honor_view_10_0.jpg")
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    run = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), photo], capture_output=True, text=True, timeout=300, env=env
    )
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert lines[0] is False  # loading the model did not import scikit-learn
    assert len(lines) > 3 and set(lines[1:-1]) == {1}  # every neighbour query on one thread
    result = lines[-1]
    assert result["error"] is None and result["grids"][0]["status"] == "solved"
    assert Path(result["grids"][0]["output"]).stat().st_size > 100_000


def test_two_processes_open_a_new_database_at_once(tmp_path):
    """Opening one new result file from two processes at once: SQLite's busy timeout does not cover the
    switch to WAL, which failed one of them with "database is locked" about once in ten tries."""
    code = (
        "import sys, time\nfrom snapsolve.batch import ResultStore\n"
        "start = float(sys.argv[2])\n"
        "for n in range(40):  # both open file n at the same clock time\n"
        "    time.sleep(max(0.0, start + 0.05 * n - time.time()))\n"
        "    ResultStore(f'{sys.argv[1]}/{n}.sqlite').close()\n"
    )
    start = str(time.time() + 2.0)
    runs = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path), start], stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    errors = [run.communicate(timeout=120)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors


def test_the_web_servers_workers_are_forked_warm_and_stop_on_sigterm():
    """The page's pool (pebble): its workers are forked by the fork server, not this process, and keep pebble's
    SIGTERM handler (its time limit stops a worker with SIGTERM)."""
    from snapsolve.web import pool
    from snapsolve.web.settings import Settings

    state = pool.start(Settings(workers=1))
    try:
        worker = state.pool.schedule(os.getpid).result(timeout=300)
        parent = state.pool.schedule(os.getppid).result(timeout=60)
        status = dict(
            line.split(":", 1) for line in Path(f"/proc/{worker}/status").read_text().splitlines() if ":" in line
        )
    finally:
        pool.stop(state)
    assert parent != os.getpid()
    assert b"multiprocessing.forkserver" in Path(f"/proc/{parent}/cmdline").read_bytes()
    assert int(status["SigCgt"], 16) & (1 << (signal.SIGTERM - 1))


@pytest.mark.parametrize("count, server", [(1, False), (2, False), (12, True)])
def test_the_model_starts_loading_before_the_inputs_are_expanded(count, server):
    """One photo, or two small ones (a small batch, read here): the model's thread (scikit-learn's import) is
    running when the inputs are expanded; twelve photos on two workers: the fork server that loads it is."""
    code = (
        "import json, os, sys, threading\nfrom pathlib import Path\nimport snapsolve.inputs as inputs\n"
        "expand = inputs.expand_inputs\n"
        "def spy(args):\n"
        "    server = any(b'multiprocessing.forkserver' in Path(f'/proc/{p}/cmdline').read_bytes()\n"
        "                 for p in os.listdir('/proc') if p.isdigit() and Path(f'/proc/{p}/stat').exists()\n"
        "                 and Path(f'/proc/{p}/stat').read_text().rsplit(')', 1)[1].split()[1] == str(os.getpid()))\n"
        "    thread = any(t.name == 'snapsolve-model' for t in threading.enumerate())\n"
        "    print(json.dumps({'thread': thread, 'server': server}), flush=True)\n"
        "    return expand(args)\n"
        "inputs.expand_inputs = spy\n"
        "from snapsolve.cli import main\n"
        "sys.exit(main(['--json', '--no-image', '--workers', '2', *sys.argv[1:]]))\n"
    )
    photos = [*PHOTOS, *PHOTOS, *PHOTOS][:count]
    run = subprocess.run([sys.executable, "-c", code, *photos], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.splitlines()[0])
    assert seen == {"thread": not server, "server": server}
    assert all(json.loads(line)["error"] is None for line in run.stdout.splitlines()[1:])
