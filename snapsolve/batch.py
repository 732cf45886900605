"""Batch work: run work items on several processes, report them in input order, remember what is done.

Work goes to a `concurrent.futures.ProcessPoolExecutor` of ``spawn``-started
workers: a worker imports the installed package whatever the current folder
holds (a ``spawn`` child takes the parent's ``sys.path``, which for the console
script does not hold the current folder).

A worker that dies (killed, out of memory, a crash in a decoder) breaks the
pool, and every input then in flight fails with `BrokenProcessPool` without
saying which one killed it. Those inputs are suspects: the pool is renewed for
the rest of the batch, and each suspect is run again alone, in a pool of one
worker. Inputs submitted after the worker died and before that was seen are
refused by the broken pool and go to the new one. An input that kills its worker again gets a one-line error; the others
(and every input of a worker killed from outside) get their normal result. So
a dying worker costs at most the input that killed it.

Results are yielded in input order, each as soon as every input before it is
done; a bounded window of inputs is in flight, so a folder of thousands of
pages does not fill memory. That stream is `OrderedWindow`, which the Dask
cluster mode (`snapsolve.cluster`) runs too. With a result store (SQLite), each result is
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
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    (checked every `PARENT_CHECK` seconds), limits NumPy, scikit-learn and
    OpenCV to one thread each (the processes are the parallelism: two
    workers on two cores with two OpenCV threads each would fight over
    them), and, with `load_model`,
    loads the cell model now rather than on the first photo. A model that
    cannot be loaded is reported per input by `process_item`; never raises.
    """
    import cv2
    from threadpoolctl import threadpool_limits

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    if load_model:
        from .pipeline import prepare_model

        prepare_model()
    threadpool_limits(1)  # after the model: scikit-learn loads its own OpenMP library
    cv2.setNumThreads(1)


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


def _finished_head(window: deque[Entry]) -> Iterator[tuple[WorkItem, InputResult]]:
    """Take and yield the finished entries at the head of `window`, up to the first unfinished one."""
    while window and (entry := window[0]).result is not None:
        window.popleft()
        yield entry.item, entry.result


@dataclass(eq=False)
class Entry:
    """One input in an `OrderedWindow`: its item, its place in input order, its result once finished.

    `work` holds whatever a window keeps for the input's task (the cluster: the item as the worker
    sees it and the file's bytes).
    """

    item: WorkItem
    index: int
    result: InputResult | None = None
    work: Any = None


class OrderedWindow:
    """Results of work items run elsewhere, yielded in input order, with a bounded window in flight.

    The one streaming engine of the local pool (`run_batch`) and the Dask cluster
    (`cluster.run_cluster_batch`). `results` reads the inputs lazily and keeps at most
    ``limits()[0]`` tasks in flight and at most ``limits()[1]`` inputs between the first
    unfinished one and the last read (an input answered without a task counts in the window,
    not in flight). Each result is yielded as soon as every input before it is done; the
    failure of one input never loses another's result.

    A subclass says how tasks run: `limits`, `admit` (answer an input at once or ask for a
    task), `start`, `in_flight`, `collect` (wait for some tasks and `finish` them), and
    optionally `busy` and `wind_down`.

    Parameters
    ----------
    store : ResultStore, optional
        Every result given to `finish` is saved in it at once.
    on_done : callable, optional
        Called with ``(item, result)`` by `finish` (completion order, before the result is
        yielded): for a progress bar.
    stop : StopRequest, optional
        When it becomes true (looked at before each round of submissions), no further input is
        read or started, `wind_down` is called, the tasks still in flight are collected, and
        every finished result is yielded in input order, past the inputs left unfinished.
    """

    def __init__(
        self,
        store: ResultStore | None = None,
        on_done: Callable[[WorkItem, InputResult], None] | None = None,
        stop: StopRequest | None = None,
    ):
        self.store = store
        self.on_done = on_done
        self.stop = stop
        self.stopped = False  # the stop has been seen: nothing more is started

    def limits(self) -> tuple[int, int]:
        """(tasks in flight at most, inputs in the window at most), asked before each round of submissions."""
        raise NotImplementedError

    def admit(self, entry: Entry) -> bool:
        """True when `entry` needs a task; otherwise it is answered here (its `result` set, or `finish` called)."""
        raise NotImplementedError

    def start(self, entries: list[Entry]) -> None:
        """Start the tasks of `entries` (in input order; one round of submissions)."""
        raise NotImplementedError

    def in_flight(self) -> int:
        """How many tasks are started and not yet collected."""
        raise NotImplementedError

    def busy(self) -> bool:
        """Whether some started input is still to be collected (the window waits for it)."""
        return self.in_flight() > 0

    def collect(self, head: Entry) -> None:
        """Wait for some tasks to end and `finish` their entries; `head` is the first unfinished input.

        May return having finished none (a timeout to look at the stop request).
        """
        raise NotImplementedError

    def wind_down(self) -> None:
        """Called once when the stop is seen: drop the tasks that can still be dropped (nothing by default)."""

    def finish(self, entry: Entry, result: InputResult) -> None:
        """Record a new result: store it, set it on the entry, report it to `on_done`."""
        if self.store:
            self.store.save(entry.item, result)
        entry.result = result
        if self.on_done:
            self.on_done(entry.item, result)

    def results(self, items: Iterable[WorkItem]) -> Iterator[tuple[WorkItem, InputResult]]:
        """Yield ``(item, result)`` for `items` in input order, reading them a window at a time.

        Call it once per window. Raises what the subclass's methods raise (a result is never an
        exception: a failed input is an `InputResult` with its `error`), and `Interrupted` from a
        second stop signal.
        """
        source = iter(items)
        window: deque[Entry] = deque()  # in input order, from the first not yet yielded
        read = 0
        exhausted = False
        while True:
            if self.stop and not self.stopped:
                self.stopped = True
                self.wind_down()
            if not (exhausted or self.stopped):
                most_in_flight, widest = self.limits()
                batch: list[Entry] = []  # started together (one message to a cluster's scheduler)
                while self.in_flight() + len(batch) < most_in_flight and len(window) < widest:
                    item = next(source, None)
                    if item is None:
                        exhausted = True
                        break
                    entry = Entry(item, read)
                    read += 1
                    window.append(entry)
                    if self.admit(entry):
                        batch.append(entry)
                if batch:
                    self.start(batch)
            yield from _finished_head(window)
            if (exhausted or self.stopped) and not self.busy():
                break
            if self.busy():
                self.collect(window[0])
            yield from _finished_head(window)
        for entry in window:  # stopped: what finished past the inputs left unfinished
            if entry.result is not None:
                yield entry.item, entry.result


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

    window = _PoolWindow(slots, task, options, workers, load_model, store=store, on_done=on_done, stop=stop)
    try:
        yield from window.results(items)
        # Every task is done: wait for the pool to wind down. Left running (shutdown(wait=False)), its
        # manager thread can race the interpreter's exit and print "OSError: [Errno 9] Bad file descriptor"
        # (CPython issue 83279); that is kept for an interrupted batch, which should not wait.
        window.pool.shutdown(wait=True)
    finally:
        window.pool.shutdown(wait=False, cancel_futures=True)


class _PoolWindow(OrderedWindow):
    """`OrderedWindow` on a local process pool, which is renewed when a worker dies; the inputs then in
    flight are suspects, each read again alone (`_run_alone`) once the batch waits on it."""

    def __init__(
        self,
        known: list[InputResult | None],
        task: Callable[[WorkItem, Options], InputResult],
        options: Options,
        workers: int,
        load_model: bool,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.known, self.task, self.options = known, task, options
        self.workers, self.load_model = workers, load_model
        self.stop_event = multiprocessing.get_context("spawn").Event() if self.stop is not None else None
        self.pool = _new_pool(workers, load_model, self.stop_event)
        self.futures: dict[Future, Entry] = {}
        self.suspects: list[Entry] = []

    def limits(self) -> tuple[int, int]:
        return IN_FLIGHT_PER_WORKER * self.workers, WINDOW_PER_WORKER * self.workers

    def admit(self, entry: Entry) -> bool:
        entry.result = self.known[entry.index]  # from the store, already reported
        return entry.result is None

    def start(self, entries: list[Entry]) -> None:
        for entry in entries:
            try:
                future = _submit(self.pool, self.task, entry.item, self.options)
            except BrokenProcessPool:
                # A worker died since the last collect and the pool takes nothing more: its inputs in flight
                # (each failed by the pool, or done before) are settled as in `collect`, which renews the pool.
                done, _ = wait(self.futures)
                self._settle(done, broken=True)
                future = _submit(self.pool, self.task, entry.item, self.options)
            self.futures[future] = entry

    def in_flight(self) -> int:
        return len(self.futures)

    def busy(self) -> bool:
        return bool(self.futures or (self.suspects and not self.stopped))

    def _settle(self, finished: Iterable[Future], broken: bool = False) -> None:
        """Finish the entries of the `finished` futures; those whose worker died are suspects. When one
        did (or `broken`: the pool refused a task), every input still in flight went down with the pool,
        and a new pool is made."""
        for future in finished:
            entry = self.futures.pop(future)
            try:
                result = future.result()
            except (BrokenProcessPool, CancelledError):  # its worker died (or it was not run)
                if not self.stopped:
                    broken = True
                    self.suspects.append(entry)
                continue
            if result is not None:  # None: skipped by a worker told to stop
                self.finish(entry, result)
        if broken:
            self.suspects += self.futures.values()
            self.futures.clear()
            self.pool.shutdown(wait=True)  # its manager thread has stopped: nothing to wait for
            self.pool = _new_pool(self.workers, self.load_model, self.stop_event)

    def collect(self, head: Entry) -> None:
        if self.futures:
            timeout = STOP_POLL if self.stop is not None and not self.stopped else None
            finished, _ = wait(self.futures, timeout=timeout, return_when=FIRST_COMPLETED)
            self._settle(finished)
        if self.suspects and not self.stop and (not self.futures or min(e.index for e in self.suspects) <= head.index):
            entry = min(self.suspects, key=lambda e: e.index)  # the batch waits on it (or has nothing else to do)
            self.suspects.remove(entry)
            result = _run_alone(self.task, entry.item, self.options, self.load_model, self.stop_event)
            if result is not None:
                self.finish(entry, result)

    def wind_down(self) -> None:
        """Tell the workers to start nothing more and cancel the tasks still queued in the pool."""
        assert self.stop_event is not None  # made whenever there is a stop to watch
        self.stop_event.set()
        for future in [f for f in self.futures if f.cancel()]:
            del self.futures[future]
