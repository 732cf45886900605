"""The server's worker pool: processes that read photos, a private folder, and admission.

`start` makes the private folder (mode 0700: uploads and annotated images
live there only until the answer is sent) and the pool of warm workers (each
holds the cell model: forked from a server process that loaded it once,
`snapsolve.workers.context`); `stop` ends both. `in_pool` runs one job in a worker
under the time limit, `admitted` counts the requests in progress and turns
away those beyond `Settings.max_pending` (503 with ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import shutil
import tempfile
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from ..errors import Kind, kind_of
from ..workers import context, warm_worker
from . import work
from .errors import ApiError, internal_error
from .settings import Settings

if TYPE_CHECKING:
    from pebble import ProcessPool

#: Seconds a client told 503 (server busy) is asked to wait before trying again.
RETRY_AFTER = 2


@dataclass
class Work:
    """The pool and its private folder, while the application runs (``app.state.work``).

    Attributes
    ----------
    root : Path
        The private folder (mode 0700); each request works in a folder of its own inside it.
    pool : pebble.ProcessPool
        The worker processes.
    pending : int
        Requests admitted and not yet answered (in a worker or waiting for one).
    """

    root: Path
    pool: ProcessPool
    pending: int = 0


def start(settings: Settings) -> Work:
    """Make the private folder and start the workers (loading the model now, not on the first photo)."""
    from pebble import ProcessPool

    root = Path(tempfile.mkdtemp(prefix="snapsolve-serve-"))  # mode 0700: private to this user
    pool = ProcessPool(
        max_workers=settings.workers,
        initializer=warm_worker,
        initargs=(True,),
        context=context(load_model=True),
    )
    pool.schedule(work.ping)
    return Work(root, pool)


def stop(state: Work) -> None:
    """Stop the workers and remove the private folder."""
    state.pool.stop()
    state.pool.join()
    shutil.rmtree(state.root, ignore_errors=True)


def work_of(app: FastAPI) -> Work:
    """The running application's `Work`."""
    return app.state.work


def settings_of(app: FastAPI) -> Settings:
    """The application's `Settings`."""
    return app.state.settings


async def in_pool(app: FastAPI, function, args: tuple, what: str) -> Any:
    """Run `function(*args)` in the pool under the time limit; the worker's refusals become ApiErrors.

    A refusal is an exception whose kind (`snapsolve.errors.kind_of`, by its class) is the
    client's fault: its message goes to the client with the kind's status. Anything else
    is a bug or a fault of the server: 500 with a logged error id.
    """
    from pebble import ProcessExpired

    timeout = settings_of(app).timeout
    try:
        future = work_of(app).pool.schedule(function, args=args, timeout=timeout)
        return await asyncio.wrap_future(future)
    except concurrent.futures.TimeoutError:
        raise ApiError(Kind.TIMEOUT, f"{what} took longer than the {timeout:g} s limit and was stopped") from None
    except ProcessExpired as exc:
        raise ApiError(
            Kind.WORKER_DIED,
            internal_error(
                what,
                exc,
                f"the worker process died while working on {what} (exit code {exc.exitcode}); the server goes on",
            ),
        ) from None
    except Exception as exc:
        kind = kind_of(exc)
        if kind.client_error:  # not an image, not a puzzle, too large, an unknown level
            raise ApiError(kind, str(exc)) from None
        raise ApiError(Kind.INTERNAL, internal_error(what, exc)) from None  # a bug: 500, never a 4xx


@asynccontextmanager
async def admitted(app: FastAPI):
    """Count a request from before its body is read to its answer; 503 with Retry-After when too many."""
    state = work_of(app)
    if state.pending >= settings_of(app).max_pending:
        raise ApiError(
            Kind.OVERLOADED,
            f"busy: {state.pending} requests in progress; try again in {RETRY_AFTER} s",
            {"Retry-After": str(RETRY_AFTER)},
        )
    state.pending += 1
    try:
        yield
    finally:
        state.pending -= 1


@asynccontextmanager
async def private_folder(app: FastAPI):
    """A new folder inside the private one for one request, removed with what it holds when the request ends."""
    folder = Path(tempfile.mkdtemp(dir=work_of(app).root))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
