"""Pages per second, local process pool vs a Dask LocalCluster with the same number of workers.

Usage: python benchmarks/cluster_throughput.py [--pages 100] [--per-page 4] [--workers 2] [--runs 2] [--noop 2000]

Renders --pages generated A4 pages (as benchmarks/batch_throughput.py: --per-page puzzles from the shared
17-clue collection, blurred and noisy, PNG), then runs the batch with no images written:

- local pool: `snapsolve.batch.run_batch(items, options, workers)` (a new process pool each run, its start
  counted, as the command runs it);
- cluster: `snapsolve.cluster.run_cluster_batch` on a LocalCluster of --workers processes with one thread
  each, started once (its start time is reported apart: a real cluster is up before a batch), results
  saved to an SQLite result store on the client as `--db` does.

Reports the median pages per second over --runs runs of each, over the whole run and steady (first result to
last, which leaves out the pool's start and the workers' first model load), the overhead per task on the
cluster (extra worker-seconds per page, steady: workers / cluster rate - workers / pool rate), the workers'
resident memory, the rate of --noop tasks that do nothing through the same client loop (the ceiling one client
and scheduler put on tasks per second), and the result store's bytes per stored result (file size after a
checkpoint, divided by rows; and the mean JSON length).
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from snapsolve.batch import ResultStore, run_batch  # noqa: E402
from snapsolve.cluster import run_cluster_batch  # noqa: E402
from snapsolve.inputs import WorkItem, expand_inputs  # noqa: E402
from snapsolve.pipeline import Options  # noqa: E402
from snapsolve.results import InputResult  # noqa: E402

from batch_throughput import make_pages  # noqa: E402


def noop(item, options, data=None):
    """A task that does nothing: what is left is the client's and the scheduler's cost per task."""
    return InputResult(item.label), None


def timed(batch, pages: int, truth: dict) -> tuple[float, float, int]:
    """(pages/s over the whole run, pages/s from the first result to the last, puzzles read exactly)."""
    start = time.perf_counter()
    exact = 0
    times = []
    for item, result in batch:
        assert not result.cached
        times.append(time.perf_counter())
        exact += len({g.to_json()["givens"] for g in result.grids} & set(truth[item.label]))
    return pages / (times[-1] - start), (pages - 1) / (times[-1] - times[0]), exact


def report(name: str, runs: list[tuple[float, float, int]], puzzles: int) -> None:
    whole = statistics.median(r[0] for r in runs)
    steady = statistics.median(r[1] for r in runs)
    print(
        f"{name}: {whole:.2f} pages/s (runs: {', '.join(f'{r[0]:.2f}' for r in runs)}); "
        f"steady, first result to last: {steady:.2f} pages/s; puzzles read exactly: {runs[-1][2]}/{puzzles}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--per-page", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--noop", type=int, default=2000, help="no-op tasks for the per-task cost (0: skip)")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "pages"
        folder.mkdir()
        truth = make_pages(folder, args.pages, args.per_page)
        items = list(expand_inputs([str(folder)]))
        options = Options(write_image=False)
        puzzles = args.pages * args.per_page

        start = time.perf_counter()
        cluster = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
        started = time.perf_counter() - start
        try:
            pool, on_cluster = [], []
            for run in range(args.runs):  # taken in turns, so that the other load on the machine hits both alike
                pool.append(timed(run_batch(items, options, args.workers), args.pages, truth))
                db = Path(tmp) / f"results{run}.sqlite"
                store = ResultStore(db)
                on_cluster.append(
                    timed(run_cluster_batch(items, options, cluster.scheduler_address, store), args.pages, truth)
                )
                store.close()
            report(f"local pool, {args.workers} workers (pool start counted)", pool, puzzles)
            report(
                f"LocalCluster, {args.workers} workers (started once, {started:.1f} s, not counted)",
                on_cluster,
                puzzles,
            )
            pool_page = args.workers / statistics.median(r[1] for r in pool)
            cluster_page = args.workers / statistics.median(r[1] for r in on_cluster)
            print(
                f"worker-seconds per page, steady: local pool {pool_page:.3f} s, LocalCluster {cluster_page:.3f} s: "
                f"overhead per task on the cluster {(cluster_page - pool_page) * 1000:+.0f} ms "
                f"({cluster_page / pool_page - 1:+.1%})"
            )
            rss = client.run(lambda: __import__("psutil").Process().memory_info().rss)
            print(f"worker memory: {max(rss.values()) / 2**20:.0f} MiB resident (largest of {len(rss)})")

            with sqlite3.connect(db) as con:
                con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                rows, text = con.execute("SELECT COUNT(*), SUM(LENGTH(result)) FROM results").fetchone()
            size = os.path.getsize(db)
            print(
                f"result store: {rows} results, {size} bytes: {size / rows:.0f} bytes per stored result "
                f"({text / rows:.0f} bytes of JSON each, {args.per_page} grids per page)"
            )

            if args.noop:
                tiny = [WorkItem("puzzle", f"noop:{n}", "", "") for n in range(args.noop)]
                start = time.perf_counter()
                for _ in run_cluster_batch(tiny, options, cluster.scheduler_address, task=noop):
                    pass
                seconds = time.perf_counter() - start
                print(
                    f"no-op tasks through the client and scheduler: {args.noop / seconds:.0f} tasks/s, "
                    f"{seconds / args.noop * 1000:.2f} ms per task"
                )
        finally:
            client.close()
            cluster.close()


if __name__ == "__main__":
    main()
