"""A long mixed run against ``snapsolve serve`` on 127.0.0.1: status counts, latency tail, memory growth.

Usage: python benchmarks/web_soak.py [--requests 1000] [--concurrency 8] [--workers 2] [--crash-at 500]

Starts ``snapsolve serve`` (the installed one, with the web extra) on a free
port of 127.0.0.1 (and sends nothing anywhere else), then sends --requests
requests from --concurrency client threads, in a fixed shuffled mix:

- ``photo12``: a 12-megapixel phone photo (the in-progress dataset in
  ``../shared`` when it is there, else the two in ``tests/data/photos``);
- ``photo``: a small printed photo from ``samples/``;
- ``puzzle``: a JSON puzzle string (the first puzzles of top1465);
- ``bad``: a file that is no image (random bytes, text, a truncated JPEG, an empty file): 422;
- ``bomb``: a PNG whose header claims 40,000 x 40,000 pixels: 413;
- ``big``: a body over the 20 MB upload limit: 413;
- ``slow``: a small photo whose body arrives in pieces over about 2 seconds.

At --crash-at requests one worker process is killed (SIGKILL) while it reads:
the request it held is answered 500 (an expected 5xx, counted apart), and the
server goes on with a new worker. A 503 (server busy: more requests wait than
``--queue``) is by design: the client waits ``Retry-After`` seconds and tries
again, as a well-behaved client does; the 503s are counted.

Prints the final status counts per kind, the 503s answered on the way, the
latency (p50, p99) of all answers and of the 12-megapixel photos answered 200
(the answering try alone, and from the first try), and the resident memory
(RSS) of the server and its workers after a warm-up of --warmup answered
requests and at the end.
Exit status 1 when there is any unexpected 5xx (other than 503, 504 and the
injected crash's 500).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from web_load import multipart, tree_rss

ROOT = Path(__file__).resolve().parents[1]
DATASET = ROOT.parent / "shared" / "datasets" / "sudoku-photos-inprogress-train"
HOST = "127.0.0.1"  # never any other address
#: Share of each kind of request, in percent.
MIX = {"photo12": 10, "photo": 15, "puzzle": 40, "bad": 15, "bomb": 5, "big": 5, "slow": 10}
#: Times a client tries one request that the server answers 503 (busy), waiting Retry-After between tries.
TRIES = 200


def bomb_png() -> bytes:
    """A PNG whose header claims 40,000 x 40,000 pixels (a few bytes of data)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 40_000, 40_000, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"\0" * 40_001))
        + chunk(b"IEND", b"")
    )


def twelve_megapixel_photos(limit: int = 8) -> list[Path]:
    from PIL import Image

    found = []
    for folder in (DATASET, ROOT / "tests" / "data" / "photos"):
        for path in sorted(folder.glob("*.jpg")):
            with Image.open(path) as im:
                if im.size[0] * im.size[1] >= 12_000_000:
                    found.append(path)
        if found:
            return found[:limit]
    return found


def children_of(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as fh:
        return [int(child) for child in fh.read().split()]


def workers_of(pid: int) -> list[int]:
    """Process ids of the server's worker processes: the children of its fork server (`snapsolve.workers`),
    or its multiprocessing ``spawn_main`` children where workers are spawned."""
    found = []
    for child in children_of(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"multiprocessing.forkserver" in command:
                found += children_of(child)
            elif b"spawn_main" in command:
                found.append(child)
        except OSError:
            continue
    return found


def pct(values: list[float], q: float) -> float:
    """The `q` quantile (0..1) of sorted `values`, nan for none."""
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def report(
    args: argparse.Namespace,
    plan: list[str],
    results: list[tuple[str, int, float, float] | None],
    memory: dict[str, int],
    crashed: list[int],
    busy: Counter,
    wall: float,
) -> int:
    """Print the run's figures: statuses by kind, the killed worker, latencies, memory. Returns the exit
    status: 1 when some 5xx other than 503, 504 and the killed worker's 500s came back, else 0."""
    sent = len(results)
    results = [r for r in results if r is not None]
    by_kind: dict[str, Counter] = defaultdict(Counter)
    for kind, status, _, _ in results:
        by_kind[kind][status] += 1
    statuses = Counter(status for _, status, _, _ in results)
    latencies = sorted(seconds for _, _, seconds, _ in results)
    photo12 = sorted(seconds for kind, status, seconds, _ in results if kind == "photo12" and status == 200)
    photo12_all = sorted(total for kind, status, _, total in results if kind == "photo12" and status == 200)
    server_errors = sum(n for status, n in statuses.items() if status >= 500 and status not in (503, 504))
    unexpected = server_errors - min(len(crashed), statuses[500])

    mib = 2**20
    print(
        f"{len(results)} requests answered of {sent} planned ({args.max_seconds:g} s budget), "
        if len(results) < sent
        else "",
        end="",
    )
    print(
        f"{len(plan)} requests at concurrency {args.concurrency}, {args.workers} workers, {wall:.0f} s "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(
        "  final status counts: "
        + ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
        + f"; 503 (busy) answered on the way: {sum(busy.values())}"
    )
    for kind in MIX:
        print(
            f"    {kind:8s} "
            + ", ".join(f"{status}: {n}" for status, n in sorted(by_kind[kind].items()))
            + f" (503 on the way: {busy[kind]})"
        )
    print(
        f"  worker killed at request {args.crash_at}: {len(crashed)}; 5xx other than 503/504: {server_errors} "
        f"({unexpected} unexpected)"
    )
    print(f"  latency, all answers: p50 {statistics.median(latencies):.2f} s, p99 {pct(latencies, 0.99):.2f} s")
    if photo12:
        p50, p99 = statistics.median(photo12), pct(photo12, 0.99)
        print(
            f"  latency, 12-megapixel photos answered 200 ({len(photo12)}): p50 {p50:.2f} s, p99 {p99:.2f} s "
            f"({p99 / p50:.1f}x); from the first try (503 waits included): p50 "
            f"{statistics.median(photo12_all):.2f} s, p99 {pct(photo12_all, 0.99):.2f} s"
        )
    print(
        f"  server + workers RSS: idle {memory.get('idle', 0) / mib:.0f} MiB, after {args.warmup} requests "
        f"{memory.get('warm', 0) / mib:.0f} MiB, at the end {memory.get('end', 0) / mib:.0f} MiB "
        f"({(memory.get('end', 0) / max(memory.get('warm', 1), 1) - 1) * 100:+.1f}%)"
    )
    return 1 if unexpected > 0 else 0


@dataclass
class Bodies:
    """What the requests send, by their kind (`MIX`)."""

    photos12: list[Path]
    small: list[Path]
    puzzles: list[str]
    bad: list[Path]
    bomb: bytes
    big: bytes

    def of(self, i: int, kind: str) -> tuple[bytes, str]:
        """The body of request `i` of `kind` and its content type."""
        if kind == "puzzle":
            return json.dumps({"puzzle": self.puzzles[i % len(self.puzzles)]}).encode(), "application/json"
        if kind == "bomb" or kind == "big":
            boundary = "soakboundary"
            data = self.bomb if kind == "bomb" else self.big
            body = (
                (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{kind}.png"\r\n'
                    f"Content-Type: image/png\r\n\r\n"
                ).encode()
                + data
                + f"\r\n--{boundary}--\r\n".encode()
            )
            return body, f"multipart/form-data; boundary={boundary}"
        path = {"photo12": self.photos12, "photo": self.small, "slow": self.small, "bad": self.bad}[kind]
        return multipart(path[i % len(path)], {"explain": "true"})


def request_bodies() -> Bodies:
    """The 12-megapixel photos, the samples, top1465's puzzles, the bad files, a PNG bomb and 21 MiB of noise."""
    small = [ROOT / "samples" / f"{name}.jpg" for name in ("image1", "image125", "image1040", "image1082")]
    puzzles = [
        line.strip()[:81]
        for line in (ROOT / "tests" / "data" / "puzzles" / "top1465.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    bad_dir = ROOT / "tests" / "data" / "bad"
    bad = [bad_dir / n for n in ("random_bytes.png", "text_named.jpg", "truncated.jpg", "empty.jpg")]
    return Bodies(twelve_megapixel_photos(), small, puzzles, bad, bomb_png(), b"\xff\xd8" + os.urandom(21 * 2**20))


def start_server(workers: int):
    """``snapsolve serve`` on a free port of HOST with `workers` worker processes: (the process, the port,
    the temporary file its standard error goes to)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "snapsolve",
            "serve",
            "--host",
            HOST,
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--timeout",
            "120",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    return server, port, log


class Soak:
    """One run of the plan against a started server: the answers, the memory readings, the killed worker."""

    def __init__(self, args: argparse.Namespace, plan: list[str], bodies: Bodies, server, port: int):
        self.args, self.plan, self.bodies, self.server, self.port = args, plan, bodies, server, port
        self.results: list[tuple[str, int, float, float] | None] = [None] * len(plan)
        self.memory: dict[str, int] = {}
        self.crashed: list[int] = []
        self.lock = threading.Lock()
        self.done = 0
        self.busy: Counter = Counter()
        self.start = 0.0

    def run(self, log) -> float | None:
        """Wait for the server, send the plan at the run's concurrency, read the memory; the seconds the
        requests took, or None when the server exited (said on standard error, from `log`)."""
        for _ in range(1200):
            if self.server.poll() is not None:
                log.seek(0)
                print("web_soak: the server exited: " + log.read().decode(errors="replace")[-500:], file=sys.stderr)
                return None
            try:
                urllib.request.urlopen(f"http://{HOST}:{self.port}/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(3)  # the workers load the model at start
        self.memory["idle"] = tree_rss(self.server.pid)[0]
        self.start = time.perf_counter()
        with ThreadPoolExecutor(self.args.concurrency) as pool:
            list(pool.map(self.send, range(len(self.plan))))
        wall = time.perf_counter() - self.start
        time.sleep(1)
        self.memory["end"] = tree_rss(self.server.pid)[0]
        return wall

    def send(self, i: int) -> None:
        """Request `i` of the plan, tried again after each 503 (up to TRIES), its answer recorded."""
        args = self.args
        if args.max_seconds and time.perf_counter() - self.start > args.max_seconds:
            return
        kind = self.plan[i]
        first = time.perf_counter()
        for _ in range(TRIES):
            status, seconds, retry_after = self.attempt(kind, *self.bodies.of(i, kind))
            if status != 503:
                break
            self.busy[kind] += 1
            time.sleep(retry_after)
        self.results[i] = (kind, status, seconds, time.perf_counter() - first)
        with self.lock:
            self.done += 1
            count = self.done
            if count % 100 == 0:
                print(f"web_soak: {count} answered", file=sys.stderr, flush=True)
        if count == args.warmup:
            self.memory["warm"] = tree_rss(self.server.pid)[0]
        if args.crash_at and count == args.crash_at:
            threading.Thread(target=self.crash_a_worker, daemon=True).start()

    def attempt(self, kind: str, body: bytes, content_type: str) -> tuple[int, float, float]:
        """One try: (status, seconds, Retry-After seconds); status 0 when the connection failed."""
        retry_after = 1.0
        start = time.perf_counter()
        conn = http.client.HTTPConnection(HOST, self.port, timeout=300)
        try:
            headers = {"Content-Type": content_type, "Content-Length": str(len(body))}
            if kind == "slow":  # the body in 8 pieces over about 2 s
                pieces = [body[k * len(body) // 8 : (k + 1) * len(body) // 8] for k in range(8)]

                def trickle():
                    for piece in pieces:
                        time.sleep(0.25)
                        yield piece

                conn.request("POST", "/api/solve", body=trickle(), headers=headers)
            else:
                conn.request("POST", "/api/solve", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            status = response.status
            retry_after = float(response.getheader("Retry-After") or 1)
        except (OSError, http.client.HTTPException):
            status = 0  # the connection failed (the server closed it early, e.g. on an oversized body)
        finally:
            conn.close()
        return status, time.perf_counter() - start, retry_after

    def crash_a_worker(self) -> None:
        """Kill (SIGKILL) a worker while it reads: one using the processor, within 30 s."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # a worker reading: one using the processor
            for pid in workers_of(self.server.pid):
                with open(f"/proc/{pid}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[0] == "R":
                        os.kill(pid, signal.SIGKILL)
                        self.crashed.append(pid)
                        return
            time.sleep(0.01)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (default: 2)")
    parser.add_argument("--warmup", type=int, default=100, help="answered requests before the first memory reading")
    parser.add_argument("--crash-at", type=int, default=500, help="kill a worker at this request (0: never)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=0,
        help="send no new request after this long (0: no limit); the report covers those answered",
    )
    args = parser.parse_args()

    bodies = request_bodies()
    if not bodies.photos12:
        print("web_soak: no 12-megapixel photo found", file=sys.stderr)
        return 1

    rng = random.Random(args.seed)
    kinds = [kind for kind, share in MIX.items() for _ in range(share)]
    plan = [rng.choice(kinds) for _ in range(args.requests)]
    server, port, log = start_server(args.workers)
    soak = Soak(args, plan, bodies, server, port)
    try:
        wall = soak.run(log)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    if wall is None:
        return 1
    return report(args, plan, soak.results, soak.memory, soak.crashed, soak.busy, wall)


if __name__ == "__main__":
    sys.exit(main())
