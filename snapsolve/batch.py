"""Batch work: run work items on several processes, stream results, remember what is done.

Results come back as they finish (not in input order) from a
`concurrent.futures.ProcessPoolExecutor`; at most a few items per worker are
in flight, so a folder of thousands of pages does not fill memory. With a
result store (SQLite), each result is committed as soon as it arrives, and a
rerun skips every input whose file still has the same path, size and
modification time: killing the process at any moment loses nothing already
reported.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import traceback
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from .inputs import WorkItem
from .pipeline import Options, default_model, solve_image, solve_text
from .results import InputResult


def process_item(item: WorkItem, options: Options) -> InputResult:
    """The result of one work item; never raises (an unexpected failure becomes its `error`)."""
    try:
        if item.kind == "error":
            return InputResult.failed(item.label, item.text)
        if item.kind == "puzzle":
            return solve_text(item.label, item.text, options)
        page = item.page if item.kind == "pdf_page" else None
        return solve_image(Path(item.path), options, default_model(), page=page, label=item.label)
    except Exception as exc:  # one bad input must never stop the batch
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return InputResult.failed(item.label, f"internal error: {type(exc).__name__}: {exc} "
                                              f"({Path(where.filename).name}:{where.lineno})")


class ResultStore:
    """Results in an SQLite file, keyed by input label and the file's size and modification time.

    Parameters
    ----------
    path : str or Path
        Database file; created when missing.
    """

    def __init__(self, path: str | Path):
        self.db = sqlite3.connect(str(path))
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS results (input TEXT PRIMARY KEY, size INTEGER, "
                        "mtime_ns INTEGER, error TEXT, result TEXT NOT NULL)")
        self.db.commit()

    @staticmethod
    def _stamp(item: WorkItem) -> tuple[int, int] | None:
        if not item.path or item.kind == "error":
            return None
        try:
            st = os.stat(item.path)
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def done(self, item: WorkItem) -> InputResult | None:
        """The stored result of `item` (marked cached) when its file is unchanged since, else None."""
        stamp = self._stamp(item)
        if stamp is None:
            return None
        row = self.db.execute("SELECT size, mtime_ns, result FROM results WHERE input = ?", (item.label,)).fetchone()
        if row and (row[0], row[1]) == stamp:
            result = InputResult.from_json(json.loads(row[2]))
            result.cached = True
            return result
        return None

    def save(self, item: WorkItem, result: InputResult) -> None:
        """Store and commit one result at once."""
        stamp = self._stamp(item)
        if stamp is None:
            return
        self.db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)",
                        (item.label, stamp[0], stamp[1], result.error, json.dumps(result.to_json())))
        self.db.commit()

    def close(self) -> None:
        self.db.close()


def _warm_worker() -> None:
    """Worker start: one thread for NumPy/scikit-learn (the processes are the parallelism), load the model."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    default_model()


def _new_pool(workers: int) -> ProcessPoolExecutor:
    # forkserver, not fork: a fork taken after OpenMP (scikit-learn's nearest-neighbour
    # search) has run in this process can hang in the child.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["snapsolve.batch"])  # workers fork with the imports done
    return ProcessPoolExecutor(max_workers=workers, initializer=_warm_worker, mp_context=context)


def run_batch(items: list[WorkItem], options: Options, workers: int = 1,
              store: ResultStore | None = None) -> Iterator[tuple[WorkItem, InputResult]]:
    """Process work items, yielding (item, result) as each finishes (`result.cached` when from the store).

    Parameters
    ----------
    items : list of WorkItem
    options : Options
    workers : int
        Processes to use; 1 runs everything in this process.
    store : ResultStore, optional
        Skip items already done and save every new result.
    """
    todo = []
    for item in items:
        cached = store.done(item) if store else None
        if cached is not None:
            yield item, cached
        else:
            todo.append(item)
    if workers <= 1 or len(todo) <= 1:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(max(1, workers)):  # --workers 1 means one core
            for item in todo:
                result = process_item(item, options)
                if store:
                    store.save(item, result)
                yield item, result
        return
    pending = iter(todo)
    pool = _new_pool(workers)
    try:
        in_flight = {}
        for item in pending:
            in_flight[pool.submit(process_item, item, options)] = item
            if len(in_flight) >= 4 * workers:
                break
        while in_flight:
            finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in finished:
                item = in_flight.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    result = InputResult.failed(item.label, "internal error: the worker process died")
                    pool.shutdown(cancel_futures=True)
                    pool = _new_pool(workers)
                    requeue = list(in_flight.values())
                    in_flight.clear()
                    for other in requeue:
                        in_flight[pool.submit(process_item, other, options)] = other
                if store:
                    store.save(item, result)
                yield item, result
                nxt = next(pending, None)
                if nxt is not None:
                    in_flight[pool.submit(process_item, nxt, options)] = nxt
    finally:
        pool.shutdown(cancel_futures=True)
