"""The local batch's pool of worker processes: started, told to stop, renewed when one dies.

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
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .batch import IN_FLIGHT_PER_WORKER, STOP_POLL, STOP_SIGNALS, WINDOW_PER_WORKER, Entry, OrderedWindow
from .inputs import WorkItem

if TYPE_CHECKING:
    from .puzzle import Options
    from .results import InputResult

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
    cannot be loaded is reported per input by `batch.process_item`; never raises.
    """
    import cv2
    from threadpoolctl import threadpool_limits

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    if load_model:
        from .pipeline import prepare_model

        prepare_model()
    threadpool_limits(1)  # after the model: scikit-learn loads its own OpenMP library
    cv2.setNumThreads(1)


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
    from .results import InputResult

    with _new_pool(1, load_model, stop_event) as pool:
        try:
            return _submit(pool, task, item, options).result()
        except BrokenProcessPool:
            return InputResult.failed(item.label, WORKER_DIED)


class PoolWindow(OrderedWindow):
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
