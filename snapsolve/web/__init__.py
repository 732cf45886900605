"""``snapsolve serve``: a page for the phone and a JSON API (the optional ``web`` extra).

The phone opens the page, takes the photo with its camera, and sees the
answer drawn on it; the same server answers ``POST /api/solve`` with the
``snapsolve --json`` object. `app.create_app` builds the application (FastAPI),
`work` holds what runs in its worker processes. This module imports neither
the web framework nor OpenCV until `run` is called.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys

WEB_EXTRA = "pip install 'snapsolve[web]'"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
#: Worker processes reading photos by default (each holds the cell model, about 190 MiB).
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: Seconds one request may run in a worker by default.
DEFAULT_TIMEOUT = 60.0
#: Requests that may wait for a busy worker, per worker, by default (more get 503).
DEFAULT_QUEUE_PER_WORKER = 2


def lan_address() -> str | None:
    """This machine's address on its local network (the interface of the default route), or None.

    Sends nothing: connecting a UDP socket only picks the route.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def announce(host: str, port: int, out=sys.stderr) -> str:
    """Print where the page is (with a terminal QR code and a warning when it is open to the network); the URL.

    Raises
    ------
    ImportError
        The QR-code library (web extra) is missing.
    """
    if host in LOOPBACK:
        url = f"http://{'127.0.0.1' if host == 'localhost' else host}:{port}/"
        print(f"snapsolve: serving on {url} (this computer only; --host 0.0.0.0 opens it to the phone)", file=out)
        return url
    address = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"http://{address or host}:{port}/"
    print(f"snapsolve: serving on {url} - open it on a phone on the same network:", file=out)
    if address:
        import segno

        segno.make(url, error="l").terminal(out=out, compact=True)
    else:
        print("snapsolve: could not tell this machine's network address; use its address with port "
              f"{port}", file=out)
    print("snapsolve: warning: the page is open to everyone on that network (no password); "
          "stop it with Ctrl+C when done", file=out)
    return url


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit status 0, 2 for a bad option.

    Raises
    ------
    ImportError
        The web extra is not installed (the message names the install command).
    """
    try:
        import uvicorn

        from .app import Settings, create_app
    except ImportError as exc:
        raise ImportError(f"snapsolve serve needs the web extra ({exc.name} is missing): {WEB_EXTRA}") from None
    if not 0 < args.port < 65536:
        print(f"snapsolve serve: --port must be 1 to 65535, got {args.port}", file=sys.stderr)
        return 2
    if args.workers < 1 or args.timeout <= 0 or args.queue < 0:
        print("snapsolve serve: --workers must be at least 1, --timeout positive and --queue 0 or more",
              file=sys.stderr)
        return 2
    app = create_app(Settings(workers=args.workers, timeout=args.timeout, queue_per_worker=args.queue))
    announce(args.host, args.port)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0
