"""SIGINT and SIGTERM stop a real ``snapsolve`` batch cleanly (issue 27).

Each test starts the console command on photos or a text file of puzzles with
``--db`` and two workers, sends a stop signal at some moment (to the whole
process group, as a terminal's Ctrl+C or ``timeout`` do, or to the batch's
process alone, as ``docker stop`` does), and then checks: the exit status is
128 + the signal; standard error has no traceback and no leaked-semaphore
warning; no process of the batch outlives it; every result printed and every
annotated image written is in the database; and a rerun redoes none of them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .conftest import FIXTURE_PHOTOS, read_collection

#: Phone photos of about 12 megapixels: each takes a worker a good part of a second.
PHONE_PHOTOS = sorted(FIXTURE_PHOTOS.glob("0*.jpg"))


def children_of(pid: int) -> list[int]:
    """Process ids whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def descendants_of(pid: int) -> list[int]:
    """Process ids of the children of `pid`, their children, and so on."""
    found = children_of(pid)
    for child in list(found):
        found += descendants_of(child)
    return found


def workers_of(pid: int) -> list[int]:
    """Process ids of the batch workers of process `pid`: forked by its fork server (its child), or spawned."""
    found = []
    for child in descendants_of(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            parent = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        if b"spawn_main" in command or (b"multiprocessing.forkserver" in command and int(parent) != pid):
            found.append(child)
    return found


def running(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie (an exited child that init has not reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


#: Seconds a child of the stopped batch may take to exit after it: multiprocessing's resource tracker
#: leaves when it reads the end of its pipe from the batch, a few milliseconds later (longer on a loaded
#: machine). A child still running after this is left behind.
EXIT_GRACE = 5.0


def left_behind(children: list[int], grace: float = EXIT_GRACE) -> list[int]:
    """The `children` still running (not zombies) once `grace` seconds have passed with any of them alive."""
    deadline = time.monotonic() + grace
    alive = [pid for pid in children if running(pid)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.02)
        alive = [pid for pid in alive if running(pid)]
    return alive


def stored_inputs(db: Path) -> set[str]:
    with sqlite3.connect(db) as con:
        return {row[0] for row in con.execute("SELECT input FROM results")}


def photo_batch(tmp_path: Path, count: int) -> tuple[list[str], Path]:
    """`count` copies of the phone photos in a folder; the command's inputs and its image folder."""
    folder, out = tmp_path / "photos", tmp_path / "out"
    folder.mkdir()
    for i in range(count):
        shutil.copy(PHONE_PHOTOS[i % len(PHONE_PHOTOS)], folder / f"p{i:02d}.jpg")
    return [str(folder), "-o", str(out)], out


def puzzle_batch(tmp_path: Path, count: int) -> tuple[list[str], None]:
    """A text file of `count` hard puzzles (top1465, repeated)."""
    lines = read_collection("top1465.txt")
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(lines[i % len(lines)] + "\n" for i in range(count)))
    return [str(path), "--no-image"], None


def stop_batch(tmp_path: Path, inputs: list[str], sig: int, after: int, group: bool):
    """Run the batch, send `sig` once `after` results are printed (0: once its workers are there), and let
    it wind down.

    Returns (return code, printed results, standard error, process ids of its children while it ran,
    the command, the database).
    """
    db = tmp_path / "results.sqlite"
    cmd = [sys.executable, "-m", "snapsolve", "--json", "--workers", "2", "--db", str(db), *inputs]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines, err = [], []
    readers = [
        threading.Thread(target=lambda: lines.extend(proc.stdout)),
        threading.Thread(target=lambda: err.append(proc.stderr.read())),
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + 300
    while (
        time.monotonic() < deadline
        and proc.poll() is None
        and (len(lines) < after if after else len(workers_of(proc.pid)) < 2)
    ):
        time.sleep(0.02)
    children = descendants_of(proc.pid)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    for reader in readers:  # they end when every process holding the pipes is gone
        reader.join(timeout=300)
    assert not any(reader.is_alive() for reader in readers), "the batch did not stop"
    proc.wait(timeout=10)
    printed = [json.loads(line) for line in lines if line.strip()]
    return proc.returncode, printed, err[0], children, cmd, db


def check_stopped(stopped: tuple, sig, out: Path | None, total: int) -> None:
    """What a stopped batch must leave: `stopped` is `stop_batch`'s (code, printed, err, children, cmd, db)."""
    code, printed, err, children, cmd, db = stopped
    assert code == 128 + sig, err
    assert "Traceback" not in err and "leaked" not in err, err
    assert f"stopped by {signal.Signals(sig).name}" in err
    assert not left_behind(children), "a process of the batch outlived it"
    labels = [r["input"] for r in printed]
    assert len(labels) == len(set(labels)) and len(labels) < total  # each once; the stop came before the end
    stored = stored_inputs(db) if db.exists() else set()
    assert set(labels) <= stored
    if out is not None:  # every image written belongs to a stored result
        written = {p.name.replace(".solved.jpg", ".jpg") for p in out.glob("*.solved.jpg")}
        assert not list(out.glob(".tmp-*")), "a half-written image was left"
        assert written <= {Path(label).name for label in stored}
    if not stored:
        return
    # A rerun over the finished inputs redoes none of them.
    if out is None:
        rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        results = [json.loads(line) for line in rerun.stdout.splitlines()]
        assert rerun.returncode in (0, 1) and len(results) == total
        assert {r["input"] for r in results if r.get("cached")} == stored
    else:
        done = sorted(str(Path(cmd[-3]) / Path(label).name) for label in stored)
        rerun = subprocess.run([*cmd[:-3], *done, "-o", str(out)], capture_output=True, text=True, timeout=600)
        results = [json.loads(line) for line in rerun.stdout.splitlines()]
        assert len(results) == len(done) and all(r.get("cached") for r in results), rerun.stderr


def test_sigterm_to_the_group_mid_batch_keeps_every_finished_photo(tmp_path):
    inputs, out = photo_batch(tmp_path, 16)
    code, printed, err, children, cmd, db = stop_batch(tmp_path, inputs, signal.SIGTERM, after=2, group=True)
    assert len(children) >= 3  # the workers, their fork server and multiprocessing's resource tracker
    check_stopped((code, printed, err, children, cmd, db), signal.SIGTERM, out, 16)


def test_sigint_to_the_group_while_workers_start(tmp_path):
    inputs, _ = puzzle_batch(tmp_path, 150)
    code, printed, err, children, cmd, db = stop_batch(tmp_path, inputs, signal.SIGINT, after=0, group=True)
    check_stopped((code, printed, err, children, cmd, db), signal.SIGINT, None, 150)


@pytest.mark.slow
def test_sigint_to_the_group_mid_batch_of_puzzles(tmp_path):
    inputs, _ = puzzle_batch(tmp_path, 150)
    code, printed, err, children, cmd, db = stop_batch(tmp_path, inputs, signal.SIGINT, after=20, group=True)
    assert len(printed) >= 20
    check_stopped((code, printed, err, children, cmd, db), signal.SIGINT, None, 150)


@pytest.mark.slow
def test_sigterm_to_the_batch_alone_mid_batch_of_photos(tmp_path):
    inputs, out = photo_batch(tmp_path, 24)
    code, printed, err, children, cmd, db = stop_batch(tmp_path, inputs, signal.SIGTERM, after=5, group=False)
    check_stopped((code, printed, err, children, cmd, db), signal.SIGTERM, out, 24)


@pytest.mark.slow
def test_sigint_to_the_batch_alone_at_start_up_of_photos(tmp_path):
    inputs, out = photo_batch(tmp_path, 24)
    code, printed, err, children, cmd, db = stop_batch(tmp_path, inputs, signal.SIGINT, after=0, group=False)
    check_stopped((code, printed, err, children, cmd, db), signal.SIGINT, out, 24)
