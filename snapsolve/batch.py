"""Batch work: run work items on several processes, report them in input order, remember what is done.

Work goes to a `concurrent.futures.ProcessPoolExecutor` of ``spawn``-started
workers: a worker imports the installed package whatever the current folder
holds (a ``spawn`` child takes the parent's ``sys.path``, which for the console
script does not hold the current folder).

A worker that dies (killed, out of memory, a crash in a decoder) breaks the
pool, and every input then in flight fails with `BrokenProcessPool` without
saying which one killed it. Those inputs are suspects: the pool is renewed for
the rest of the batch, and each suspect is run again alone, in a pool of one
worker. An input that kills its worker again gets a one-line error; the others
(and every input of a worker killed from outside) get their normal result. So
a dying worker costs at most the input that killed it.

Results are yielded in input order, each as soon as every input before it is
done; a bounded window of inputs is in flight, so a folder of thousands of
pages does not fill memory. With a result store (SQLite), each result is
committed as soon as it arrives, and a rerun skips every input whose file
still has the same path, size and modification time: killing the process at
any moment loses nothing already finished.

SIGINT and SIGTERM (Ctrl+C, ``timeout``, systemd, Docker) stop a batch
cleanly (`stop_on_signals`): no input is started after the signal, the inputs
being read are finished, and every finished result is stored and yielded (in
input order, past any gap) before `run_batch` returns. Workers ignore both
signals (a terminal's Ctrl+C reaches the whole process group): the batch's
process tells them to stop. A second signal interrupts at once.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path

from .inputs import WorkItem
from .puzzle import Options, solve_text
from .results import InputResult

#: Seconds a writer waits for another process holding the result store.
STORE_TIMEOUT = 60.0
#: Inputs in flight per worker (queued in the pool or being read; per worker thread on a Dask cluster).
IN_FLIGHT_PER_WORKER = 2
#: How far (in inputs) finished results may run ahead of the first unfinished one.
WINDOW_PER_WORKER = 16


def process_item(item: WorkItem, options: Options) -> InputResult:
    """The result of one work item; never raises (an unexpected failure becomes its `error`).

    Photos and PDF pages import the vision stage (OpenCV, scikit-learn) on
    first use; puzzle text does not. Their annotated images are written by
    `puzzle.place_output` (``options.write_image``, ``options.output_dir``).
    """
    return _process(item, options, encode=False)[0]


def process_item_encoded(item: WorkItem, options: Options) -> tuple[InputResult, bytes | None]:
    """`process_item`, with a photo's annotated image handed back as JPEG bytes instead of written.

    What a cluster worker sends its client, which writes the image with
    `puzzle.place_output`. The image is drawn when ``options.write_image`` is
    set; ``options.output_dir`` is not used and no grid names an ``output``.

    Returns
    -------
    (InputResult, bytes or None)
        The result (never raises: an unexpected failure becomes its `error`)
        and, for a photo or PDF page with some grid solved, the annotated
        image's JPEG file contents.
    """
    return _process(item, options, encode=True)


def _process(item: WorkItem, options: Options, encode: bool) -> tuple[InputResult, bytes | None]:
    try:
        if item.kind == "error":
            return InputResult.failed(item.label, item.text), None
        if item.kind == "puzzle":
            return solve_text(item.label, item.text, options), None
        from .pipeline import default_model, encode_annotated, solve_and_draw, solve_image

        path, page = Path(item.path), item.page if item.kind == "pdf_page" else None
        if encode:
            result, annotated = solve_and_draw(path, options, default_model(), page, item.label, options.write_image)
            return result, encode_annotated(result, annotated)
        return solve_image(path, options, default_model(), page=page, label=item.label), None
    except FileNotFoundError as exc:  # the digit model is missing
        return InputResult.failed(item.label, str(exc)), None
    except Exception as exc:  # one bad input must never stop the batch
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return InputResult.failed(
            item.label, f"internal error: {type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})"
        ), None


class ResultStore:
    """Results in an SQLite file, keyed by input label and the file's size and modification time.

    Parameters
    ----------
    path : str or Path
        Database file; created when missing. Several processes may use it at
        once: an input is one row (its label is the key), so a result stored
        by two processes is still stored once.

    Raises
    ------
    sqlite3.Error
        The file is not an SQLite database or cannot be opened.
    """

    def __init__(self, path: str | Path):
        # Several snapsolve processes may share one file: WAL lets readers and a
        # writer work together, and writers wait for each other (up to `timeout`
        # seconds) instead of failing with "database is locked".
        self.db = sqlite3.connect(str(path), timeout=STORE_TIMEOUT)
        self._use_wal()
        # A commit reaches the WAL file at once (a killed process loses nothing committed) but is not
        # fsynced: 0.06 ms instead of 4 ms a result here, so a client fed by a cluster keeps up. A power
        # loss may roll back the last commits, never corrupt the file; those inputs are done again.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS results (input TEXT PRIMARY KEY, size INTEGER, "
            "mtime_ns INTEGER, error TEXT, result TEXT NOT NULL)"
        )
        self.db.commit()

    def _use_wal(self) -> None:
        """Switch the file to WAL, retrying while another process does the same.

        SQLite's busy timeout does not cover changing the journal mode: two
        processes opening a new file at once made one fail at once with
        "database is locked" (6 of 60 tries here).
        """
        deadline = time.monotonic() + STORE_TIMEOUT
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

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
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)",
            (item.label, stamp[0], stamp[1], result.error, json.dumps(result.to_json())),
        )
        self.db.commit()

    def close(self) -> None:
        self.db.close()


#: Seconds between a worker's checks that the process that started it is still there.
PARENT_CHECK = 1.0


def _exit_with_parent(parent: int) -> None:
    """Leave when the batch's process is gone (killed with SIGKILL, it cannot stop its workers itself)."""
    while True:
        time.sleep(PARENT_CHECK)
        if os.getppid() != parent:
            os._exit(1)


def warm_worker(load_model: bool) -> None:
    """Start of a worker process (the local pool's, the server's, a Dask worker's first task).

    Starts a daemon thread that exits the process when its parent is gone
    (checked every `PARENT_CHECK` seconds), limits NumPy and scikit-learn to
    one thread (the processes are the parallelism), and, with `load_model`,
    loads the cell model now rather than on the first photo. A model that
    cannot be loaded is reported per input by `process_item`; never raises.
    """
    from threadpoolctl import threadpool_limits

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    if load_model:
        from .pipeline import prepare_model

        prepare_model()
    threadpool_limits(1)  # after the model: scikit-learn loads its own OpenMP library


#: The signals that stop a batch cleanly.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Seconds between the batch's looks at whether a stop was asked for while it waits on its workers.
STOP_POLL = 0.2


class Interrupted(KeyboardInterrupt):
    """A second stop signal, raised at once wherever the batch's process is; `signum` is the first signal's."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class StopRequest:
    """Whether a stop was asked for, and by which signal (`signum`, None while running)."""

    def __init__(self):
        self.signum: int | None = None

    def __bool__(self) -> bool:
        return self.signum is not None


@contextmanager
def stop_on_signals(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[StopRequest]:
    """Within the block, the first of `signals` sets the yielded `StopRequest`; a second raises `Interrupted`.

    Pass the request to `run_batch` so that it winds down. Outside the main thread (where Python
    cannot handle signals) the request is never set. The previous handlers are restored on exit.
    """
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum, frame):
        if stop.signum is not None:
            raise Interrupted(stop.signum)
        stop.signum = signum

    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield stop
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextmanager
def _signals_blocked() -> Iterator[None]:
    """Hold back STOP_SIGNALS in this thread (a worker started meanwhile inherits them held back)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


_stop_event = None


def _batch_worker(load_model: bool, stop_event) -> None:
    """Start of a local batch worker: ignore the stop signals (the batch's process decides), then `warm_worker`.

    The worker was started with the signals held back (`_signals_blocked`), so a Ctrl+C during its
    start-up is dropped here rather than raising in the middle of an import.
    """
    global _stop_event
    _stop_event = stop_event
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    warm_worker(load_model)


def _unless_stopped(
    task: Callable[[WorkItem, Options], InputResult], item: WorkItem, options: Options
) -> InputResult | None:
    """`task(item, options)` in a batch worker, or None when the batch has been told to stop."""
    if _stop_event is not None and _stop_event.is_set():
        return None
    return task(item, options)


#: The error of an input whose worker died each time it was read, even alone.
WORKER_DIED = "the worker process died while reading this input (killed, out of memory, or a crash in a decoder)"


def _new_pool(workers: int, load_model: bool, stop_event) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_batch_worker,
        initargs=(load_model, stop_event),
    )


def _submit(pool: ProcessPoolExecutor, task, item: WorkItem, options: Options) -> Future:
    """Submit one item (the pool starts its workers here, so with the stop signals held back)."""
    with _signals_blocked():
        return pool.submit(_unless_stopped, task, item, options)


def _run_alone(
    task: Callable[[WorkItem, Options], InputResult], item: WorkItem, options: Options, load_model: bool, stop_event
) -> InputResult | None:
    """Read one suspect input in a pool of its own: its result, or `WORKER_DIED` if it kills that worker too."""
    with _new_pool(1, load_model, stop_event) as pool:
        try:
            return _submit(pool, task, item, options).result()
        except BrokenProcessPool:
            return InputResult.failed(item.label, WORKER_DIED)


def run_batch(
    items: list[WorkItem],
    options: Options,
    workers: int = 1,
    store: ResultStore | None = None,
    on_done: Callable[[WorkItem, InputResult], None] | None = None,
    task: Callable[[WorkItem, Options], InputResult] = process_item,
    stop: StopRequest | None = None,
) -> Iterator[tuple[WorkItem, InputResult]]:
    """Process work items and yield ``(item, result)`` in input order (`result.cached` when from the store).

    Parameters
    ----------
    items : list of WorkItem
    options : Options
    workers : int
        Processes to use. 1, or a single input to do, runs in this process
        with no pool and one thread for NumPy and scikit-learn (setting
        ``OMP_NUM_THREADS`` and ``OPENBLAS_NUM_THREADS`` to 1 unless set);
        never more workers than inputs to do.
    store : ResultStore, optional
        Skip items already done and save every new result as it finishes.
    on_done : callable, optional
        Called with ``(item, result)`` as each input finishes (completion
        order, before it is yielded): for a progress bar.
    task : callable, optional
        What is run for each item (a module-level function, so that worker
        processes can import it); `process_item` by default.
    stop : StopRequest, optional
        When it becomes true (`stop_on_signals`), no further input is
        started; the inputs being read are finished, every finished result
        is stored and yielded in input order (skipping the unfinished), and
        the generator ends.

    Notes
    -----
    A worker that dies costs at most the input that killed it (see the
    module's notes); the batch goes on.
    """
    slots: list[InputResult | None] = [None] * len(items)
    todo = []
    for index, item in enumerate(items):
        cached = store.done(item) if store else None
        if cached is not None:
            slots[index] = cached
            if on_done:
                on_done(item, cached)
        else:
            todo.append(index)
    workers = max(1, min(workers, len(todo)))

    def finish(index: int, result: InputResult) -> None:
        if store:
            store.save(items[index], result)
        slots[index] = result
        if on_done:
            on_done(items[index], result)

    load_model = any(items[i].kind in ("image", "pdf_page") for i in todo)
    if workers == 1:
        from threadpoolctl import threadpool_limits

        if load_model and task is process_item:
            from .pipeline import prepare_model

            # scikit-learn's import (a second) overlaps the first photo's decoding; its OpenMP
            # library, loaded meanwhile, reads its thread count from the environment
            for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
                os.environ.setdefault(name, "1")
            prepare_model(background=True)

        # One thread: OpenMP threads in the neighbour search gain little on an idle
        # machine and cost several times the time on a busy one (measured 39 ms
        # against 342 ms for 40 queries while the other core was loaded).
        with threadpool_limits(1):
            for index, item in enumerate(items):
                if slots[index] is None and not stop:
                    finish(index, task(item, options))
                if (done := slots[index]) is not None:
                    yield item, done
        return

    next_out = 0
    stop_event = multiprocessing.get_context("spawn").Event() if stop is not None else None
    pool = _new_pool(workers, load_model, stop_event)
    pending = iter(todo)
    upcoming = next(pending, None)
    in_flight: dict[Future, int] = {}
    suspects: list[int] = []

    def collect(future: Future) -> bool:
        """Finish the future's input; False when its worker died (or it was not run)."""
        index = in_flight.pop(future)
        try:
            result = future.result()
        except (BrokenProcessPool, CancelledError):
            return False
        if result is not None:  # None: skipped by a worker told to stop
            finish(index, result)
        return True

    try:
        while upcoming is not None or in_flight or suspects:
            if stop:
                break
            while (
                upcoming is not None
                and len(in_flight) < IN_FLIGHT_PER_WORKER * workers
                and upcoming < next_out + WINDOW_PER_WORKER * workers
            ):
                in_flight[_submit(pool, task, items[upcoming], options)] = upcoming
                upcoming = next(pending, None)
            if in_flight:
                finished, _ = wait(
                    in_flight, timeout=STOP_POLL if stop is not None else None, return_when=FIRST_COMPLETED
                )
                broken = False
                for future in finished:
                    index = in_flight[future]
                    if not collect(future):
                        broken = True
                        suspects.append(index)
                if broken:  # every input still in flight went down with the pool
                    suspects += in_flight.values()
                    in_flight.clear()
                    pool.shutdown(wait=True)  # its manager thread has stopped: nothing to wait for
                    pool = _new_pool(workers, load_model, stop_event)
            if suspects and not stop and (not in_flight or min(suspects) <= next_out):
                index = min(suspects)  # the batch waits on it (or has nothing else to do): read it alone now
                suspects.remove(index)
                result = _run_alone(task, items[index], options, load_model, stop_event)
                if result is not None:
                    finish(index, result)
            while next_out < len(items) and (done := slots[next_out]) is not None:
                yield items[next_out], done
                next_out += 1
        if stop:  # wind down: start nothing more, finish what the workers hold, report every finished result
            assert stop_event is not None  # made whenever there is a stop to watch
            stop_event.set()
            for future in [f for f in in_flight if f.cancel()]:
                del in_flight[future]
            while in_flight:
                for future in wait(in_flight, return_when=FIRST_COMPLETED)[0]:
                    collect(future)
            for index in range(next_out, len(items)):
                if (done := slots[index]) is not None:
                    yield items[index], done
        # Every task is done: wait for the pool to wind down. Left running (shutdown(wait=False)), its
        # manager thread can race the interpreter's exit and print "OSError: [Errno 9] Bad file descriptor"
        # (CPython issue 83279); that is kept for an interrupted batch, which should not wait.
        pool.shutdown(wait=True)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
