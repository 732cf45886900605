"""Worker processes that start warm: the local batch's pool and the web server's.

Workers are forked by multiprocessing's ``forkserver`` (`context`). Its server
process starts once per process, with the preload `snapsolve._forkserver`,
which calls `ready_server`: it imports the solver and, for photos, the
pipeline, loads the cell model and builds its index (scikit-learn), all
before it forks anything. So N workers cost one start, and a worker that
dies is replaced in milliseconds.

What a ``spawn``-started worker had, a forked one keeps:

- No lock or thread inherited: the server is single-threaded when it forks.
  It loads the model in its main thread, and its environment asks the
  numerical libraries for one thread each (`THREAD_ENV`, set to 1
  before it starts), so OpenBLAS and OpenMP start no thread pools.
- The installed package, whatever the current folder holds: the server runs
  with ``PYTHONSAFEPATH`` (the current folder is not on its path) and with
  the batch's own `sys.path` as ``PYTHONPATH``; each worker then takes the
  batch's `sys.path` and current folder, as a ``spawn`` worker does. Before
  Python 3.11, which has no ``PYTHONSAFEPATH``, workers are started by ``spawn``.
- Signals: the server ignores SIGINT and SIGTERM (a terminal's Ctrl+C
  reaches the whole process group) and its workers are forked ignoring them;
  the batch's process tells its workers when to stop (`batch.stop_on_signals`),
  and the web server's pool sets its workers' own handlers (pebble).
- A worker leaves when the process that asked for it is gone (`warm_worker`);
  the server leaves when every process it served is gone.

The server is started with this process's environment at that moment: when
``$SNAPSOLVE_MODEL`` has changed since, workers are started by ``spawn``, so
they read the model it names.

A batch worker that dies (killed, out of memory, a crash in a decoder) breaks
its pool (`PoolWindow`), and every input then in flight fails with
`BrokenProcessPool` without saying which one killed it. Those inputs are
suspects: the pool is renewed for the rest of the batch, and each suspect is
run again alone, in a pool of one worker. Inputs submitted after the worker
died and before that was seen are refused by the broken pool and go to the
new one. An input that kills its worker again gets a one-line error; the
others (and every input of a worker killed from outside) get their normal
result. So a dying worker costs at most the input that killed it.
"""

from __future__ import annotations

import atexit
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import forkserver
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING

from .batch import IN_FLIGHT_PER_WORKER, STOP_POLL, STOP_SIGNALS, WINDOW_PER_WORKER, Entry, OrderedWindow
from .inputs import WorkItem
from .models import MODEL_ENV

if TYPE_CHECKING:
    from .puzzle import Options
    from .results import InputResult

#: The numerical libraries' thread counts (OpenMP, OpenBLAS, MKL, Accelerate, numexpr), 1 in the server's environment.
THREAD_ENV = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
#: The module the server imports as it starts (multiprocessing's preload); it calls `ready_server`.
PRELOAD = "snapsolve._forkserver"
#: Environment variable that tells a starting server what to ready (JSON); the server removes it.
SERVER_ENV = "_SNAPSOLVE_FORKSERVER"
#: Seconds between a worker's checks that its parent is still there, when it has no multiprocessing parent.
PARENT_CHECK = 1.0

_server_lock = threading.Lock()
#: What the running server was started with: {"model": bool, MODEL_ENV: str or None}; None before it starts.
_server: dict | None = None


def context(load_model: bool) -> BaseContext:
    """The multiprocessing context that starts workers; starts its server (warm) when it is not running.

    Parameters
    ----------
    load_model : bool
        The workers will read photos: a server started now loads the cell
        model and scikit-learn before it forks. (A server already running
        without them leaves that to each worker's `warm_worker`.)

    Returns
    -------
    multiprocessing.context.BaseContext
        The ``forkserver`` context, or ``spawn`` before Python 3.11, where
        there is no fork server (Windows), and when ``$SNAPSOLVE_MODEL``
        changed since the server started.
    """
    global _server
    if sys.version_info < (3, 11) or "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    server = multiprocessing.get_context("forkserver")
    with _server_lock:
        if _server is not None and _server[MODEL_ENV] != os.environ.get(MODEL_ENV):
            return multiprocessing.get_context("spawn")
        if _server is None:
            _server = {"model": load_model, MODEL_ENV: os.environ.get(MODEL_ENV)}
            server.set_forkserver_preload([PRELOAD])
        with _server_environment(_server["model"]):
            forkserver.ensure_running()  # at once (nothing if running; again if it died)
    return server


@contextmanager
def _server_environment(load_model: bool) -> Iterator[None]:
    """This process's environment as a server starting now should have it; restored on exit.

    The server puts back ``PYTHONSAFEPATH`` and ``PYTHONPATH`` as they were
    here once it has started (`ready_server`), so that its workers have this
    process's environment but for the thread counts.
    """
    path = [os.getcwd() if entry == "" else entry for entry in sys.path]
    changes = {
        "PYTHONSAFEPATH": "1",
        "PYTHONPATH": os.pathsep.join(entry for entry in path if os.path.exists(entry)),
        **{name: "1" for name in THREAD_ENV},
    }
    saved = {name: os.environ.get(name) for name in [*changes, SERVER_ENV]}
    changes[SERVER_ENV] = json.dumps(
        {"model": load_model, "restore": {name: saved[name] for name in ("PYTHONSAFEPATH", "PYTHONPATH")}}
    )
    os.environ.update(changes)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def ready_server() -> None:
    """Ready a starting fork server before it forks (called by its preload, `PRELOAD`); never raises.

    Puts back the environment `_server_environment` changed but for the
    thread counts, ignores SIGINT and SIGTERM, imports the solver (and what
    a worker unpickles: the batch's task and options), and, when asked for,
    the pipeline with the cell model and its index (`pipeline.prepare_model`,
    in this thread), with NumPy, scikit-learn and OpenCV on one thread. A
    process not started by `context` is left as it is.
    """
    settings = os.environ.pop(SERVER_ENV, None)
    if settings is None:
        return
    plan = json.loads(settings)
    for name, value in plan["restore"].items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    # The server leaves when the last process it served is gone (multiprocessing raises SystemExit in it). It
    # holds nothing to flush or clean up then, but it holds the command's standard output and error, which a
    # pipe reading them sees closed only when it is gone: so it ends at once, without the interpreter's
    # teardown of SciPy's and scikit-learn's modules (its workers end by os._exit, never through atexit).
    atexit.register(os._exit, 0)
    try:
        from . import cli, puzzle  # noqa: F401  (a worker's __main__ is the command's: it imports cli)

        if plan["model"]:
            _load_model_here()
    except Exception:  # a model that cannot be loaded is reported per input, by the workers
        pass


def _load_model_here() -> None:
    """The cell model and its index in this process, NumPy, scikit-learn and OpenCV limited to one thread each."""
    import cv2
    from threadpoolctl import threadpool_limits

    from .pipeline import prepare_model

    prepare_model()
    threadpool_limits(1)  # after the model: scikit-learn loads its own OpenMP library
    cv2.setNumThreads(1)


def _exit_with_parent() -> None:
    """Leave when the process that started this one is gone (killed with SIGKILL, it cannot stop its workers).

    A multiprocessing worker waits on its parent's sentinel (its parent is the
    process that asked for it, also when a fork server forked it); any other
    process looks at its parent process id every `PARENT_CHECK` seconds.
    """
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(1)
    first = os.getppid()
    while os.getppid() == first:
        time.sleep(PARENT_CHECK)
    os._exit(1)


def warm_worker(load_model: bool) -> None:
    """Start of a worker process (the local pool's, the web server's, a Dask worker's first task).

    Starts a daemon thread that exits the process when its parent is gone
    (`_exit_with_parent`), limits NumPy, scikit-learn and OpenCV to one
    thread each (the processes are the parallelism: two workers on two
    cores with two OpenCV threads each would fight over them), and, with
    `load_model`, loads the cell model now rather than on the first photo
    (nothing to do when its fork server holds it). A model that cannot be
    loaded is reported per input by `batch.process_item`; never raises.
    """
    threading.Thread(target=_exit_with_parent, name="snapsolve-parent", daemon=True).start()
    if load_model:
        _load_model_here()
    else:
        import cv2
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
        cv2.setNumThreads(1)


@contextmanager
def _signals_blocked() -> Iterator[None]:
    """Hold back STOP_SIGNALS in this thread (a worker started by ``spawn`` meanwhile inherits them held back)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


_stop_event = None


def _batch_worker(load_model: bool, stop_event) -> None:
    """Start of a local batch worker: ignore the stop signals (the batch's process decides), then `warm_worker`.

    A worker forked by the server was born ignoring them; one started by
    ``spawn`` was started with them held back (`_signals_blocked`), so a
    Ctrl+C during its start-up is dropped here rather than raising in the
    middle of an import.
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
        mp_context=context(load_model),
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
        self.stop_event = context(load_model).Event() if self.stop is not None else None
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
