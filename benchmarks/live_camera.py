"""The live camera's frame path: frames of the hand-motion clip through the real ``/api/live`` WebSocket on 127.0.0.1.

Usage: python benchmarks/live_camera.py [--seconds 8] [--workers 2] [--clients 1 2]

Starts ``snapsolve serve`` (the installed one, web extra) on 127.0.0.1 and a
free port, makes the clip of ``tests/live_clip.py`` (``samples/image1.jpg``
under simulated hand motion: 640 x 480 JPEG frames at 30 frames a second, some
blurred, two stretches with no grid), and plays it to N clients at once, each
behaving as the page does: the clip's current frame is offered every 1/30 s
and sent when fewer than 2 sent frames are unanswered (the server keeps only
the latest; stale ones are dropped and counted). For each client:

- frames answered per second over the run;
- latency of each answered frame (sent -> its answer received): p50, p95;
- frames the server dropped;
- the worker's own time per frame (p50) and its processor time, which
  other programs' load does not inflate as much;
- the share of answers that were followed (``"followed": true``: the locked
  grid found again and its cells' ink checked, see ``snapsolve/web/live.py``)
  rather than read in full, and the worker's processor time per frame (p50)
  of each kind (the frames read in full include those with no grid, which
  cost little);
- time to the first locked, correct overlay (answer ``locked`` with the
  solution of image1's givens), in seconds of clip from its start (the first
  4 frames show no grid).

Targets (issue 25): >= 15 frames/s for one client, >= 8 each for two,
p95 <= 150 ms, first locked correct overlay <= 1.5 s of clip. Traffic goes to
127.0.0.1 only. The server is stopped by its process id.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live_clip import FPS, jpeg, make_frames  # noqa: E402

AHEAD = 2  # unanswered frames a client allows, as static/live.js


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} ms"


def expected_solution(givens: str) -> str:
    from snapsolve.solver import solve_puzzle

    return "".join(map(str, solve_puzzle([0 if ch == "." else int(ch) for ch in givens]).solution))


async def client(url: str, frames: list[bytes], seconds: float, solution: str) -> dict:
    """Play the clip for `seconds` as the page does; the client's figures."""
    import websockets

    sent_at: dict[int, float] = {}
    latencies: list[float] = []
    work: list[float] = []  # the worker's own wall and processor seconds per frame
    cpu: list[float] = []
    cpu_by_kind: dict[bool, list[float]] = {True: [], False: []}  # followed or read in full
    state = {"answered": 0, "last": 0, "dropped": 0, "first_lock": None}
    async with websockets.connect(url, max_size=2**22) as ws:
        start = time.perf_counter()

        async def receive():
            async for message in ws:
                answer = json.loads(message)
                now = time.perf_counter()
                if not answer.get("frame"):
                    continue
                latencies.append(now - sent_at[answer["frame"]])
                if answer.get("seconds") is not None:
                    work.append(answer["seconds"])
                    cpu.append(answer["cpu_seconds"])
                    cpu_by_kind[bool(answer.get("followed"))].append(answer["cpu_seconds"])
                state["answered"] += 1
                state["last"] = answer["frame"]
                state["dropped"] = answer["dropped"]
                grid = answer.get("grid")
                if state["first_lock"] is None and answer["locked"] and grid and grid.get("solution") == solution:
                    state["first_lock"] = now - start

        receiver = asyncio.create_task(receive())
        sent = 0
        while (elapsed := time.perf_counter() - start) < seconds:
            if sent - state["last"] < AHEAD:
                sent += 1
                sent_at[sent] = time.perf_counter()
                await ws.send(frames[int(elapsed * FPS) % len(frames)])
            await asyncio.sleep(1 / FPS)
        wall = time.perf_counter() - start
        await asyncio.sleep(0.5)  # the last answers
        receiver.cancel()
    ms = sorted(1000 * x for x in latencies)
    return {
        "sent": sent,
        "answered": state["answered"],
        "fps": state["answered"] / wall,
        "dropped": state["dropped"],
        "p50_ms": statistics.median(ms) if ms else None,
        "p95_ms": ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))] if ms else None,
        "first_lock_s": state["first_lock"],
        "worker_ms": 1000 * statistics.median(work) if work else None,
        "cpu_ms": 1000 * statistics.median(cpu) if cpu else None,
        "followed": len(cpu_by_kind[True]) / len(cpu) if cpu else 0.0,
        "cpu_followed_ms": 1000 * statistics.median(cpu_by_kind[True]) if cpu_by_kind[True] else None,
        "cpu_read_ms": 1000 * statistics.median(cpu_by_kind[False]) if cpu_by_kind[False] else None,
    }


async def run_clients(url: str, frames: list[bytes], seconds: float, n: int, solution: str) -> list[dict]:
    return await asyncio.gather(*(client(url, frames, seconds, solution) for _ in range(n)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds each run plays the clip")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()

    rows = (ROOT / "samples" / "image1.dat").read_text().splitlines()[2:11]
    givens = "".join("." if t == "0" else t for row in rows for t in row.split())
    solution = expected_solution(givens)
    frames = [jpeg(f) for f in make_frames(ROOT / "samples" / "image1.jpg")]
    print(
        f"clip: {len(frames)} frames of 640x480 at {FPS} fps, {sum(map(len, frames)) // len(frames) // 1024} KB "
        f"a frame; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}"
    )
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "snapsolve", "serve", "--port", str(port), "--workers", str(args.workers)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except OSError:
                if server.poll() is not None:
                    print("snapsolve serve stopped", file=sys.stderr)
                    return 1
                time.sleep(0.1)
        url = f"ws://127.0.0.1:{port}/api/live"
        while not all(r["answered"] for r in asyncio.run(run_clients(url, frames, 3.0, args.workers, solution))):
            pass  # until every worker has started and answers (spawned, the model loaded)
        for n in args.clients:
            results = asyncio.run(run_clients(url, frames, args.seconds, n, solution))
            for i, r in enumerate(results, 1):
                if not r["answered"]:
                    print(f"{n} client(s), client {i}: no frame answered in {args.seconds:g} s")
                    continue
                lock = f"{r['first_lock_s']:.2f} s" if r["first_lock_s"] is not None else "never"
                print(
                    f"{n} client(s), client {i}: {r['fps']:.1f} frames/s answered ({r['answered']} of "
                    f"{r['sent']} sent, {r['dropped']} dropped), latency p50 {r['p50_ms']:.0f} ms, "
                    f"p95 {r['p95_ms']:.0f} ms, first locked correct overlay {lock}; in the worker p50 "
                    f"{r['worker_ms']:.0f} ms, of which {r['cpu_ms']:.0f} ms processor time; "
                    f"{100 * r['followed']:.0f}% followed ({ms(r['cpu_followed_ms'])} processor time), "
                    f"the rest read in full ({ms(r['cpu_read_ms'])})"
                )
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
