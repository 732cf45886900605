"""Batch work: run work items in this process or on several, report them in input order, remember what is done.

One input to do, a batch of little work (`reads_here`: a few photos), or
``--workers 1``, is read in this process; more go to a pool of worker
processes (`snapsolve.workers`: forked warm from a server
process that holds the cell model, each with the batch's import path and
current folder). A worker that dies (killed, out of memory, a crash in a
decoder) costs at most the input that killed it: the pool is renewed and
the inputs then in flight are read again, each alone (see `workers.PoolWindow`).

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

Importing this module loads neither the solver nor NumPy: a batch of puzzle
text imports what it needs when it runs, and `warm_up` starts readying a
batch of photos before the rest of the command's set-up.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .inputs import WorkItem

if TYPE_CHECKING:
    from .puzzle import Options
    from .results import InputResult

#: Seconds a writer waits for another process holding the result store.
STORE_TIMEOUT = 60.0
#: Inputs in flight per worker (queued in the pool or being read; per worker thread on a Dask cluster).
IN_FLIGHT_PER_WORKER = 2
#: How far (in inputs) finished results may run ahead of the first unfinished one.
WINDOW_PER_WORKER = 16
#: Each input's weight, in seconds, against a pool's start, for `reads_here`: a photo PHOTO_SECONDS and more by
#: the megabyte of its file (more again when its annotated image is drawn), a PDF page PDF_PAGE_SECONDS (rendered,
#: then read), a puzzle from text PUZZLE_SECONDS. A larger photo takes longer to read, but in a pool its first
#: reading no longer overlaps scikit-learn's import as it does in this process: its weight grows slowly.
PHOTO_SECONDS = 0.045
PHOTO_SECONDS_PER_MB = 0.01
DRAWING_SECONDS_PER_MB = 0.045
PDF_PAGE_SECONDS = 0.3
PUZZLE_SECONDS = 0.005
#: A batch goes to a pool when its weight is over this many seconds: below it, a pool's start (a fork server
#: that imports NumPy, OpenCV and scikit-learn again before it forks) costs more than a second process saves.
POOL_WORTH = 0.45
#: Inputs `warm_up` looks at to decide (`reads_here` needs no more: puzzles weigh least).
LOOK_AHEAD = int(POOL_WORTH / PUZZLE_SECONDS) + 1


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
    from .results import InputResult

    try:
        if item.kind == "error":
            return InputResult.failed(item.label, item.text), None
        if item.kind == "puzzle":
            from .puzzle import solve_text

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
        import sqlite3

        # Several snapsolve processes may share one file: WAL lets readers and a
        # writer work together, and writers wait for each other (up to `timeout`
        # seconds) instead of failing with "database is locked".
        self.db = sqlite3.connect(str(path), timeout=STORE_TIMEOUT)
        self._use_wal()
        # A commit reaches the WAL file at once (a killed process loses nothing committed) but is not
        # fsynced, which would cost far more than the commit, so a client fed by a cluster keeps up. A power
        # loss may roll back the last commits, never corrupt the file; those inputs are done again.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS results (input TEXT PRIMARY KEY, size INTEGER, "
            "mtime_ns INTEGER, error TEXT, result TEXT NOT NULL)"
        )
        self.db.commit()

    def _use_wal(self) -> None:
        """Switch the file to WAL, retrying while another process does the same.

        SQLite's busy timeout does not cover changing the journal mode: of two
        processes opening a new file at once, one can fail at once with
        "database is locked".
        """
        import sqlite3

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
            from .results import InputResult

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


_preparing = False  # this process's cell model is being readied (`_prepare_here`)


def _is_photo(item: WorkItem) -> bool:
    return item.kind in ("image", "pdf_page")


def reads_here(to_do: Iterable[WorkItem], workers: int, drawing: bool = True) -> bool:
    """Whether the inputs `to_do` are read in this process rather than by a pool of `workers` processes.

    In this process: with `workers` 1, for one input, and for a batch whose
    estimated work (per input: PHOTO_SECONDS and more by the megabyte,
    PDF_PAGE_SECONDS, PUZZLE_SECONDS; with `drawing`, annotated images are
    written) is at most POOL_WORTH seconds. Looks at no more of `to_do` than
    it needs, at most LOOK_AHEAD.
    """
    if workers <= 1:
        return True
    work, count = 0.0, 0
    for item in to_do:
        count += 1
        if item.kind == "image":
            try:
                megabytes = os.path.getsize(item.path) / 1e6
            except OSError:  # reported when it is read
                megabytes = 0.0
            work += PHOTO_SECONDS + megabytes * (PHOTO_SECONDS_PER_MB + (DRAWING_SECONDS_PER_MB if drawing else 0.0))
        elif item.kind == "pdf_page":
            work += PDF_PAGE_SECONDS
        else:
            work += PUZZLE_SECONDS
        if work > POOL_WORTH and count > 1:
            return False
    return True


def _prepare_here() -> None:
    """Ready the cell model in this process, in a thread of its own (once): for a batch read here.

    scikit-learn's import (a second) overlaps the first photo's decoding; its
    OpenMP library, loaded meanwhile, reads its thread count from the
    environment, which asks for one thread unless the user chose otherwise.
    """
    global _preparing
    if _preparing:
        return
    _preparing = True
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    from .pipeline import prepare_model

    prepare_model(background=True)


def warm_up(items: Iterable[WorkItem], workers: int, store: ResultStore | None = None, drawing: bool = True) -> None:
    """Start readying the batch of `items` now, before the caller's other set-up; what `run_batch` will do anyway.

    When a photo or PDF page is among the inputs to do (those not in
    `store`), this starts loading the cell model and importing scikit-learn:
    in a thread of this process when the batch will be read here
    (`reads_here`, `drawing` as there), else in the workers' server process
    (`workers.context`). Puzzle text needs neither. Returns at once.
    """
    to_do = (item for item in items if store is None or store.done(item) is None)
    head = list(itertools.islice(to_do, LOOK_AHEAD))
    if any(_is_photo(item) for item in head) or any(_is_photo(item) for item in to_do):
        _warm(here=reads_here(head, workers, drawing))


def warm_up_early(inputs: list[str], workers: int, drawing: bool = True) -> None:
    """`warm_up` from the command's arguments alone, before they are expanded, when they say how the batch runs.

    When every input is an image file (by its suffix), they are the batch,
    and `reads_here` says where it is read (`drawing` as there); with
    `workers` 1, an image file among them is read here. Call it only without
    a result store (which may hold them done). Otherwise does nothing:
    `warm_up` decides once the inputs are expanded. Returns at once.
    """
    from .vision.formats import HEIF_SUFFIXES, IMAGE_SUFFIXES

    images = [
        arg for arg in inputs if Path(arg).suffix.lower() in IMAGE_SUFFIXES | HEIF_SUFFIXES and Path(arg).is_file()
    ]
    if images and len(images) == len(inputs):
        _warm(here=reads_here((WorkItem("image", arg, arg) for arg in images), workers, drawing))
    elif images and workers <= 1:
        _warm(here=True)


def _warm(here: bool) -> None:
    """Start loading the cell model and scikit-learn: in this process (`_prepare_here`) or in the workers' server."""
    if here:
        _prepare_here()
    else:
        from .workers import context

        context(load_model=True)


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
    workers = 1 if reads_here((items[i] for i in todo), workers, options.write_image) else min(workers, len(todo))

    def finish(index: int, result: InputResult) -> None:
        if store:
            store.save(items[index], result)
        slots[index] = result
        if on_done:
            on_done(items[index], result)

    load_model = any(_is_photo(items[i]) for i in todo)
    if workers == 1:
        yield from _run_here(items, slots, finish, task, options, load_model, stop)
        return

    from .workers import PoolWindow

    window = PoolWindow(slots, task, options, workers, load_model, store=store, on_done=on_done, stop=stop)
    try:
        yield from window.results(items)
        # Every task is done: wait for the pool to wind down. Left running (shutdown(wait=False)), its
        # manager thread can race the interpreter's exit and print "OSError: [Errno 9] Bad file descriptor"
        # (CPython issue 83279); that is kept for an interrupted batch, which should not wait.
        window.pool.shutdown(wait=True)
    finally:
        window.pool.shutdown(wait=False, cancel_futures=True)


def _run_here(
    items: list[WorkItem],
    slots: list[InputResult | None],
    finish: Callable[[int, InputResult], None],
    task: Callable[[WorkItem, Options], InputResult],
    options: Options,
    load_model: bool,
    stop: StopRequest | None,
) -> Iterator[tuple[WorkItem, InputResult]]:
    """`run_batch` in this process: each input not in `slots` read in turn, each yielded when its turn comes.

    With `load_model` (photos among them), the cell model is readied in a
    thread meanwhile (`_prepare_here`) and NumPy and scikit-learn run on one
    thread: OpenMP threads in the neighbour search gain little on an idle
    machine and cost several times the time on a busy one.
    """

    def in_turn() -> Iterator[tuple[WorkItem, InputResult]]:
        for index, item in enumerate(items):
            if slots[index] is None and not stop:
                finish(index, task(item, options))
            if (done := slots[index]) is not None:
                yield item, done

    if not load_model:  # puzzle text: no NumPy
        yield from in_turn()
        return
    from threadpoolctl import threadpool_limits

    if task is process_item:
        _prepare_here()
    with threadpool_limits(1):
        yield from in_turn()
