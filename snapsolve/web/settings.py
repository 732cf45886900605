"""How ``snapsolve serve`` works: its worker processes, time limit, queue bound and access token."""

from __future__ import annotations

from dataclasses import dataclass

from . import DEFAULT_QUEUE_PER_WORKER, DEFAULT_TIMEOUT, DEFAULT_WORKERS


@dataclass
class Settings:
    """How the server works.

    Attributes
    ----------
    workers : int
        Worker processes reading photos (each holds the cell model, about 190 MiB).
    timeout : float
        Seconds one request may run in a worker before it is stopped (504).
    queue_per_worker : int
        Requests that may wait for a busy worker, per worker; beyond them a new
        request gets 503 with ``Retry-After`` before its body is read.
    token : str or None
        The access token every ``/api/`` call must carry (401 otherwise; see
        `snapsolve.web.auth`); None leaves the API open (the loopback default).
    """

    workers: int = DEFAULT_WORKERS
    timeout: float = DEFAULT_TIMEOUT
    queue_per_worker: int = DEFAULT_QUEUE_PER_WORKER
    token: str | None = None

    @property
    def max_pending(self) -> int:
        """Requests admitted at once (running in a worker or waiting for one)."""
        return self.workers * (1 + self.queue_per_worker)
