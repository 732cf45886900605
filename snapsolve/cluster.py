"""The batch on a Dask cluster: ``snapsolve INPUT... --cluster ADDRESS`` (the ``cluster`` extra).

`run_cluster_batch` has the shape of `snapsolve.batch.run_batch`: it yields
``(item, result)`` in input order, each as soon as every input before it is
done, calls ``on_done`` at each completion, and saves each result to the
client's `ResultStore` as it arrives (a rerun skips what is stored). The
difference is where the work runs: each input is one Dask task, run by
`solve_on_worker` on a worker of the scheduler at ADDRESS, or of a
`LocalCluster` of N worker processes for ``local:N``.

The client walks the inputs lazily (`expand_inputs` is a generator) and keeps
a bounded number of tasks in flight (`batch.IN_FLIGHT_PER_WORKER` per worker
thread) and a bounded window of inputs between the first unfinished one and
the last submitted (`batch.WINDOW_PER_WORKER` per worker thread): a million inputs
never sit in the client's memory, nor a million futures on the scheduler.
That is `batch.OrderedWindow`, the local batch's stream as well.

Workers read the files by path, so they must see the client's files at the
same absolute paths (shared storage); with ``send_bytes`` the client sends
each file's bytes instead, and the worker solves a private temporary copy
(the result's ``input`` stays the client's label; annotated images come back
as bytes and the client writes them where the local batch would).

A worker lost mid-task (killed, out of memory, its machine gone) does not
lose the task: the scheduler runs it again on another worker. A task that
kills ``distributed.scheduler.allowed-failures`` + 1 workers (default 3 + 1)
fails with Dask's ``KilledWorker``, which becomes that input's error result;
the batch goes on. Each input is stored and reported once: the client takes
one result per future.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from .batch import (
    IN_FLIGHT_PER_WORKER,
    WINDOW_PER_WORKER,
    Entry,
    OrderedWindow,
    ResultStore,
    process_item,
    process_item_encoded,
)
from .errors import MissingExtra, SetupError
from .inputs import WorkItem
from .puzzle import Options, place_output
from .results import InputResult

#: Seconds to wait for a scheduler to answer.
CONNECT_TIMEOUT = 10
#: Seconds between looks at how many worker threads the cluster has (workers may come and go).
RESIZE_EVERY = 5.0
#: What to tell a user without the extra.
INSTALL_HINT = "--cluster needs the cluster extra: pip install 'snapsolve[cluster]'"

_warmed = False


def parse_cluster(text: str) -> str:
    """Check a ``--cluster`` value: ``local:N`` (N >= 1 worker processes) or a scheduler address.

    Returns the text unchanged. Raises ValueError for ``local:`` without a
    positive whole number, or an empty address.
    """
    text = text.strip()
    if text.startswith("local:") or text == "local":
        count = text.partition(":")[2]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"{text!r}: use local:N with N >= 1 worker processes, for example local:4")
    elif not text:
        raise ValueError("empty scheduler address (use HOST:PORT, tcp://HOST:PORT or local:N)")
    return text


class ClusterUnavailable(SetupError, ValueError):
    """The Dask scheduler cannot be reached, or the local cluster cannot start (`Kind.SETUP`)."""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


@contextmanager
def connect(address: str, log: Callable[[str], None] | None = None) -> Iterator:
    """A `distributed.Client` for ``--cluster ADDRESS``; closes it (and any cluster it started) on exit.

    ``local:N`` starts a `distributed.LocalCluster` of N worker processes
    with one thread each (dashboard on a free port); anything else is the
    address of a running ``dask scheduler``. `log` receives one line naming
    the scheduler and its dashboard.

    Raises
    ------
    MissingExtra
        distributed is not installed (the message says how to install it; an ImportError).
    ClusterUnavailable
        The scheduler cannot be reached within `CONNECT_TIMEOUT` seconds, or
        the local cluster cannot start (one line).
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise MissingExtra(INSTALL_HINT) from None
    address = parse_cluster(address)
    cluster = None
    try:
        if address.startswith("local"):
            workers = int(address.partition(":")[2])
            try:
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    # Dask's own log lines are no part of snapsolve's output: what goes wrong on a worker
                    # is said per input (a lost worker included), and a worker's heartbeat that meets the
                    # closing scheduler logs a traceback at ERROR level (seen on a loaded machine).
                    silence_logs=logging.CRITICAL,
                )
                client = Client(cluster, timeout=CONNECT_TIMEOUT)
            except Exception as exc:
                raise ClusterUnavailable(
                    f"cannot start a local Dask cluster of {workers} workers: {_one_line(exc)}"
                ) from None
        else:
            try:
                client = Client(address, timeout=CONNECT_TIMEOUT)
            except Exception as exc:
                raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {_one_line(exc)}") from None
        try:
            if log:
                dashboard = client.dashboard_link if _has_dashboard(client) else "none (install bokeh)"
                log(f"snapsolve: Dask scheduler {client.scheduler.address}, dashboard {dashboard}")
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _has_dashboard(client) -> bool:
    try:
        return "dashboard" in client.scheduler_info(n_workers=0).get("services", {})
    except Exception:
        return False


def _worker_threads(client) -> int:
    try:
        return sum(client.nthreads().values())
    except Exception:
        return 0


def _warm(kind: str) -> None:
    """First task in a worker process: one thread for NumPy/scikit-learn, the model loaded for images."""
    global _warmed
    if not _warmed:
        from .workers import warm_worker

        warm_worker(kind in ("image", "pdf_page"))
        _warmed = True


def solve_on_worker(item: WorkItem, options: Options, data: bytes | None = None) -> tuple[InputResult, bytes | None]:
    """The task run on a Dask worker: `process_item` on one input; never raises.

    Parameters
    ----------
    item : WorkItem
        Its `path` must be readable on the worker (an absolute path on
        shared storage) unless `data` is given.
    options : Options
        As for the local batch; with `data`, `output_dir` is ignored (the
        annotated image is returned instead of written).
    data : bytes, optional
        The file's contents (``--send-bytes``): written to a private
        temporary folder, solved there (`batch.process_item_encoded`: the
        annotated image is encoded in memory, never written), and removed.

    Returns
    -------
    (InputResult, bytes or None)
        The result (its ``input`` is `item.label`; with `data`, no grid
        names an ``output`` yet) and, with `data` and an image to write, the
        annotated JPEG's bytes, for the client's `puzzle.place_output`.
    """
    _warm(item.kind)
    if data is None:
        return process_item(item, options), None
    folder = tempfile.mkdtemp(prefix="snapsolve-")
    try:
        local = Path(folder) / (Path(item.path).name or "input")
        local.write_bytes(data)
        return process_item_encoded(replace(item, path=str(local)), options)
    except OSError as exc:
        return InputResult.failed(item.label, f"the worker cannot use a temporary copy: {exc}"), None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _killed_message(exc: BaseException) -> str:
    tries = getattr(exc, "allowed_failures", None)
    tries = f"{tries + 1} workers" if isinstance(tries, int) else "every worker it ran on"
    return f"the worker process died while reading this input, on {tries} (Dask KilledWorker)"


def _place_output(item: WorkItem, result: InputResult, image: bytes | None, options: Options, written: bool) -> None:
    """Give the result the image path the local batch would report (`puzzle.place_output`), writing the
    image when it came back as bytes; `written`: a worker on shared storage wrote it."""
    page = item.page if item.kind == "pdf_page" else None
    place_output(result, Path(item.path), options, page, image, written=written)


def _remote_item(item: WorkItem) -> WorkItem:
    """The item as a worker sees it: an absolute path (workers do not share the client's current folder)."""
    return replace(item, path=os.path.abspath(item.path)) if item.path else item


# `run_batch`'s arguments and the cluster's own (address, send_bytes, log, task), the optional ones keyword-only.
def run_cluster_batch(  # noqa: PLR0913
    items: Iterable[WorkItem],
    options: Options,
    address: str,
    store: ResultStore | None = None,
    on_done: Callable[[WorkItem, InputResult], None] | None = None,
    *,
    send_bytes: bool = False,
    log: Callable[[str], None] | None = None,
    task: Callable[..., tuple[InputResult, bytes | None]] | None = None,
    stop=None,
) -> Iterator[tuple[WorkItem, InputResult]]:
    """Process work items on a Dask cluster and yield ``(item, result)`` in input order.

    Parameters
    ----------
    items : iterable of WorkItem
        Read lazily, a bounded window at a time (a generator is fine).
    options : Options
    address : str
        ``local:N`` (start a `LocalCluster` of N worker processes, one thread
        each, closed at the end) or a scheduler address such as
        ``tcp://HOST:8786``.
    store : ResultStore, optional
        On the client: items already done are skipped (``result.cached``)
        and every new result is saved as it arrives.
    on_done : callable, optional
        Called with ``(item, result)`` as each input finishes (completion
        order, before it is yielded): for a progress bar.
    send_bytes : bool
        Send each file's bytes with its task (workers that cannot see the
        client's files); annotated images come back and are written here.
        Without it, workers read ``os.path.abspath(item.path)`` and write
        annotated images themselves (shared storage).
    log : callable, optional
        Receives one line naming the scheduler and its dashboard address.
    task : callable, optional
        The function each task runs, with `solve_on_worker`'s signature (the
        default); tests pass one that kills its worker.
    stop : batch.StopRequest, optional
        When it becomes true, no further input is submitted; the tasks in
        flight are finished, stored and yielded, and the generator ends.

    Raises
    ------
    ImportError
        distributed is not installed.
    ValueError
        The scheduler cannot be reached or the local cluster cannot start.

    Notes
    -----
    A worker lost mid-task costs nothing: the scheduler runs the task again
    elsewhere. A task whose runs kill workers more than
    ``distributed.scheduler.allowed-failures`` times gives its input an error
    result ("the worker process died ...") and the batch goes on. Error
    items (missing files) are answered on the client without a task.
    """
    task = task or solve_on_worker
    with connect(address, log) as client:
        if log and not _worker_threads(client):
            log("snapsolve: the scheduler has no workers yet; tasks wait for them")
        window = _DaskWindow(client, options, send_bytes, task, store=store, on_done=on_done, stop=stop)
        yield from window.results(items)


class _DaskWindow(OrderedWindow):
    """`OrderedWindow` on a Dask client: one task per input, submitted a round at a time with `client.map`.

    The bounds are `batch.IN_FLIGHT_PER_WORKER` and `batch.WINDOW_PER_WORKER` per worker thread,
    counted again every `RESIZE_EVERY` seconds. Cached inputs, error items and files that cannot be
    read for ``send_bytes`` are answered on the client without a task.
    """

    def __init__(self, client, options: Options, send_bytes: bool, task: Callable, **kwargs):
        from distributed import as_completed

        super().__init__(**kwargs)
        self.client, self.options, self.send_bytes, self.task = client, options, send_bytes, task
        self.remote_options = (
            options
            if send_bytes or not options.output_dir
            else replace(options, output_dir=Path(os.path.abspath(options.output_dir)))
        )
        self.futures: dict = {}  # future -> its entry
        self.finished = as_completed(with_results=True, raise_errors=False)  # results fetched in the loop thread
        self.threads, self.looked = _worker_threads(client), time.monotonic()

    def limits(self) -> tuple[int, int]:
        if time.monotonic() - self.looked > RESIZE_EVERY:
            self.threads, self.looked = _worker_threads(self.client), time.monotonic()
        slots = max(1, self.threads)
        return IN_FLIGHT_PER_WORKER * slots, WINDOW_PER_WORKER * slots

    def admit(self, entry: Entry) -> bool:
        item = entry.item
        cached = self.store.done(item) if self.store else None
        if cached is not None:
            entry.result = cached
            if self.on_done:
                self.on_done(item, cached)
            return False
        if item.kind == "error":
            self.finish(entry, process_item(item, self.options))
            return False
        data = None
        if self.send_bytes and item.kind in ("image", "pdf_page"):  # puzzle lines travel as text
            try:
                data = Path(item.path).read_bytes()
            except OSError as exc:
                self.finish(entry, InputResult.failed(item.label, f"cannot read image: {exc}"))
                return False
        entry.work = (item if self.send_bytes else _remote_item(item), data)
        return True

    def start(self, entries: list[Entry]) -> None:
        futures = self.client.map(
            self.task,
            [e.work[0] for e in entries],
            [self.remote_options] * len(entries),
            [e.work[1] for e in entries],
            key=[f"snapsolve-{uuid.uuid4().hex}" for _ in entries],
            pure=False,
        )
        for entry, future in zip(entries, futures):
            entry.work = None
            self.futures[future] = entry
        self.finished.update(futures)

    def in_flight(self) -> int:
        return len(self.futures)

    def collect(self, head: Entry) -> None:
        from distributed.scheduler import KilledWorker

        for future, value in self.finished.next_batch(block=True):
            entry = self.futures.pop(future)
            try:
                result, image = value if future.status == "finished" else future.result()
            except KilledWorker as exc:
                result, image = InputResult.failed(entry.item.label, _killed_message(exc)), None
            except Exception as exc:  # the cluster failed this task (lost scheduler, cancelled, ...)
                result, image = (
                    InputResult.failed(entry.item.label, f"cluster error: {type(exc).__name__}: {_one_line(exc)}"),
                    None,
                )
            future.release()
            self.finish(entry, result, image)

    def finish(self, entry: Entry, result: InputResult, image: bytes | None = None) -> None:
        """Place the annotated image where the local batch would (writing it when it came back as
        bytes), then record the result."""
        item = entry.item
        if item.path and item.kind in ("image", "pdf_page"):
            _place_output(item, result, image, self.options, written=not self.send_bytes)
        super().finish(entry, result)


def stderr_log(line: str) -> None:
    """Write one line to standard error without breaking a tqdm progress bar."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stderr)
