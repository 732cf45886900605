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
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import MissingExtra, UsageError

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
    import socket  # here: ``snapsolve --help`` imports this module for the serve command's defaults

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def announce(
    host: str, port: int, out=sys.stderr, token: str | None = None, scheme: str = "http", fingerprint: str | None = None
) -> str:
    """Print where the page is (with a terminal QR code off the loopback, and a warning when it is open); the URL.

    Parameters
    ----------
    host, port
        Where the server listens.
    out : file
        Where to print (standard error).
    token : str, optional
        The run's access token: the URL and its QR code carry it (``?token=...``).
    scheme : str
        ``http`` or ``https``.
    fingerprint : str, optional
        SHA-256 fingerprint of the server's certificate, printed for checking it on the phone.

    Raises
    ------
    ImportError
        The QR-code library (web extra) is missing.
    """
    query = f"?token={token}" if token else ""
    if host in LOOPBACK:
        url = f"{scheme}://{'127.0.0.1' if host == 'localhost' else host}:{port}/{query}"
        print(f"snapsolve: serving on {url} (this computer only; --host 0.0.0.0 opens it to the phone)", file=out)
        return url
    address = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"{scheme}://{address or host}:{port}/{query}"
    print(f"snapsolve: serving on {url} - open it on a phone on the same network:", file=out)
    if address:
        import segno

        segno.make(url, error="l").terminal(out=out, compact=True)
    else:
        print(f"snapsolve: could not tell this machine's network address; use its address with port {port}", file=out)
    if fingerprint:
        print(f"snapsolve: certificate SHA-256 fingerprint {fingerprint}", file=out)
        print(
            "snapsolve: the phone warns once that the certificate is self-signed: compare the fingerprint "
            "and accept it",
            file=out,
        )
    if token:
        print("snapsolve: the link carries this run's access token; calls without it are refused", file=out)
    else:
        print(
            "snapsolve: warning: the page is open to everyone on that network (no password); "
            "stop it with Ctrl+C when done",
            file=out,
        )
    return url


@dataclass(frozen=True)
class Plan:
    """How `run` serves: the scheme, the token, the certificate files.

    Attributes
    ----------
    scheme : str
        ``https`` or ``http``.
    token : str or None
        This run's access token (None: the API is open).
    certfile, keyfile : str or None
        PEM files for HTTPS.
    fingerprint : str or None
        SHA-256 fingerprint of the certificate.
    """

    scheme: str
    token: str | None
    certfile: str | None = None
    keyfile: str | None = None
    fingerprint: str | None = None


def plan(args: argparse.Namespace) -> Plan:
    """Secure by default off the loopback: HTTPS (own or generated certificate) and a fresh token.

    On a loopback address the page is plain HTTP without a token (a browser
    treats 127.0.0.1 as a secure context) unless ``--certfile`` is given.
    Elsewhere it is HTTPS with ``--certfile/--keyfile`` or the self-signed
    certificate of `auth.ensure_certificate` (made on first run), unless
    ``--http``; and it has a token (`auth.new_token`) unless ``--no-token``.

    Raises
    ------
    UsageError
        Only one of --certfile and --keyfile, or a file missing (a ValueError).
    """
    from . import auth

    loopback = args.host in LOOPBACK
    certfile, keyfile = getattr(args, "certfile", None), getattr(args, "keyfile", None)
    if bool(certfile) != bool(keyfile):
        raise UsageError("give both --certfile and --keyfile")
    for name in (certfile, keyfile):
        if name and not Path(name).is_file():
            raise UsageError(f"no such file: {name}")
    token = None if loopback or getattr(args, "no_token", False) else auth.new_token()
    if certfile:
        return Plan("https", token, str(certfile), str(keyfile), auth.fingerprint(Path(certfile)))
    if loopback or getattr(args, "http", False):
        return Plan("http", token)
    address = lan_address() if args.host in ("0.0.0.0", "::", "") else args.host
    cert = auth.ensure_certificate(addresses=tuple(a for a in (address,) if a))
    return Plan("https", token, str(cert.certfile), str(cert.keyfile), cert.fingerprint)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit status 0, 2 for a bad option.

    Raises
    ------
    MissingExtra
        The web extra is not installed (the message names the install command; an ImportError).
    """
    try:
        import uvicorn

        from .app import Settings, create_app
    except ImportError as exc:
        raise MissingExtra(f"snapsolve serve needs the web extra ({exc.name} is missing): {WEB_EXTRA}") from None
    if not 0 < args.port < 65536:
        print(f"snapsolve serve: --port must be 1 to 65535, got {args.port}", file=sys.stderr)
        return 2
    if args.workers < 1 or args.timeout <= 0 or args.queue < 0:
        print(
            "snapsolve serve: --workers must be at least 1, --timeout positive and --queue 0 or more", file=sys.stderr
        )
        return 2
    try:
        how = plan(args)
    except UsageError as exc:
        print(f"snapsolve serve: {exc}", file=sys.stderr)
        return exc.kind.exit_status
    app = create_app(Settings(workers=args.workers, timeout=args.timeout, queue_per_worker=args.queue, token=how.token))
    announce(args.host, args.port, token=how.token, scheme=how.scheme, fingerprint=how.fingerprint)
    uvicorn.run(
        app, host=args.host, port=args.port, log_level="info", ssl_certfile=how.certfile, ssl_keyfile=how.keyfile
    )
    return 0
