"""20 concurrent uploads of 12-megapixel phone photos to ``snapsolve serve``: time, correctness, server memory.

Usage: python benchmarks/web_load.py [--uploads 20] [--workers 2] [--dataset DIR]

Starts ``snapsolve serve`` (the installed one, with the web extra) on a free
port, then sends --uploads photos of 4032 x 3024 pixels (12.2 megapixels)
from the in-progress dataset (``../shared/datasets/sudoku-photos-inprogress-train``,
labels in ``NAME.cells``) all at once, each on its own connection
(``POST /api/solve``, multipart, ``explain`` on: the page's request, without
the plain photo). An answer is right when it is 200, the main grid is solved,
its printed givens equal the label, and the solution is a valid grid keeping
the givens (the answer the player wants); the handwritten entries read are
compared with the label too and reported apart (a misread entry is the cell
model's error, the same on the command line, and does not change the answer). Reports the wall time of the whole burst,
the latency of each answer (median, max), and the resident memory (RSS) of
the server process plus its worker processes, sampled every 50 ms: idle,
peak, and after the burst. The server is stopped by its process id.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "sudoku-photos-inprogress-train"


def label(path: Path) -> tuple[str, str]:
    """(givens, entries) of a NAME.cells label, 81 characters each, '.' for none."""
    tokens = path.read_text().split()
    return (
        "".join(t if t.isdigit() else "." for t in tokens),
        "".join(t[1] if t.startswith("h") else "." for t in tokens),
    )


def valid_solution(givens: str, solution: str | None) -> bool:
    if not solution or len(solution) != 81 or any(g != "." and g != s for g, s in zip(givens, solution)):
        return False
    units = (
        [[r * 9 + c for c in range(9)] for r in range(9)]
        + [[r * 9 + c for r in range(9)] for c in range(9)]
        + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
    )
    return all(sorted(solution[i] for i in unit) == list("123456789") for unit in units)


def tree_rss(pid: int) -> tuple[int, int]:
    """(total RSS in bytes of `pid` and all its descendants, number of processes), from /proc."""
    total, count, todo = 0, 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            count += 1
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total, count


def multipart(path: Path, fields: dict[str, str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{path.name}"\r\n'
        f"Content-Type: image/jpeg\r\n\r\n".encode()
        + path.read_bytes()
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def twelve_megapixel_photos(dataset: Path) -> list[Path]:
    """The photos of 4032 x 3024 pixels in `dataset` that have a ``NAME.cells`` label, by name."""
    from PIL import Image

    photos = []
    for path in sorted(dataset.glob("*.jpg")):
        with Image.open(path) as im:
            if sorted(im.size) == [3024, 4032] and path.with_suffix(".cells").exists():
                photos.append(path)
    return photos


def wait_until_up(server: subprocess.Popen, url: str, log) -> bool:
    """Whether the server answers ``/api/health`` within 60 s; when not, or when it exits first, says why
    (its last line of standard error, from `log`) on standard error."""
    for _ in range(600):
        if server.poll() is not None:  # exited at once (missing extra, port taken): say why, don't wait
            log.seek(0)
            reason = log.read().decode(errors="replace").strip().splitlines()
            print(
                f"web_load: the server exited with status {server.returncode}: "
                f"{reason[-1] if reason else 'no message'}",
                file=sys.stderr,
            )
            return False
        try:
            urllib.request.urlopen(url + "/api/health", timeout=1)
            return True
        except OSError:
            time.sleep(0.1)
    print("web_load: the server did not start within 60 s", file=sys.stderr)
    return False


def check_answers(photos: list[Path], answers: list[tuple[int, dict, float]]) -> tuple[int, int]:
    """(answers right, answers whose handwritten entries are as labelled), each photo's faults printed."""
    right = entries_right = 0
    for path, (status, data, _) in zip(photos, answers):
        givens, entries = label(path.with_suffix(".cells"))
        grid = (data.get("grids") or [{}])[0]
        ok = (
            status == 200
            and not data.get("error")
            and grid.get("givens") == givens
            and valid_solution(givens, grid.get("solution"))
        )
        right += ok
        if not ok:
            print(f"  wrong: {path.name}: {status} {data.get('error') or data.get('detail')}")
        read = grid.get("entries") or "." * 81
        entries_right += read == entries
        if ok and read != entries:
            diff = [
                f"r{i // 9 + 1}c{i % 9 + 1} read {a} label {b}" for i, (a, b) in enumerate(zip(read, entries)) if a != b
            ]
            print(f"  entries differ: {path.name}: {', '.join(diff)}")
    return right, entries_right


def start_server(workers: int) -> tuple[subprocess.Popen, str, object]:
    """``snapsolve serve`` with `workers` worker processes on a free port of the loopback: (the process, its
    URL, the temporary file its standard error goes to)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "snapsolve",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--timeout",
            "120",
        ],
        stdout=subprocess.DEVNULL,
        stderr=(log := tempfile.TemporaryFile()),
    )
    return server, f"http://127.0.0.1:{port}", log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (default: 2)")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    args = parser.parse_args()

    photos = twelve_megapixel_photos(args.dataset)
    if len(photos) < args.uploads:
        print(f"web_load: only {len(photos)} 12-megapixel labelled photos in {args.dataset}", file=sys.stderr)
        return 1
    photos = photos[: args.uploads]

    server, url, log = start_server(args.workers)
    peak = [0, 0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            rss, n = tree_rss(server.pid)
            if rss > peak[0]:
                peak[:] = [rss, n]
            time.sleep(0.05)

    try:
        if not wait_until_up(server, url, log):
            return 1
        time.sleep(3)  # the workers load the model at start
        idle, processes = tree_rss(server.pid)
        bodies = [multipart(p, {"explain": "true"}) for p in photos]
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        def send(i: int):
            body, kind = bodies[i]
            start = time.perf_counter()
            request = urllib.request.Request(url + "/api/solve", data=body, headers={"Content-Type": kind})
            try:
                with urllib.request.urlopen(request, timeout=600) as response:
                    status, data = response.status, json.loads(response.read())
            except urllib.error.HTTPError as exc:
                status, data = exc.code, json.loads(exc.read() or b"{}")
            return status, data, time.perf_counter() - start

        start = time.perf_counter()
        with ThreadPoolExecutor(len(photos)) as pool:
            answers = list(pool.map(send, range(len(photos))))
        wall = time.perf_counter() - start
        stop.set()
        sampler.join()
        after, _ = tree_rss(server.pid)
    finally:
        stop.set()
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()

    right, entries_right = check_answers(photos, answers)
    latencies = sorted(a[2] for a in answers)
    mib = 2**20
    size = sum(p.stat().st_size for p in photos) / mib
    print(
        f"{len(photos)} concurrent uploads of 12.2-megapixel photos ({size:.0f} MiB), "
        f"{args.workers} workers: {wall:.1f} s for all, {len(photos) / wall:.2f} photos/s"
    )
    print(f"  latency: median {statistics.median(latencies):.1f} s, max {latencies[-1]:.1f} s")
    print(
        f"  answered right: {right} of {len(photos)} (status 200, printed givens as labelled, valid solution); "
        f"handwritten entries exactly as labelled: {entries_right} of {len(photos)}"
    )
    print(f"  load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"  server RSS with workers: idle {idle / mib:.0f} MiB ({processes} processes), peak {peak[0] / mib:.0f} MiB "
        f"({peak[1]} processes), after {after / mib:.0f} MiB"
    )
    return 0 if right == len(photos) else 1


if __name__ == "__main__":
    sys.exit(main())
