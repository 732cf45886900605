"""What can go wrong, by kind: the one table of exit statuses (command line) and HTTP statuses (web API).

An error's kind comes from its class, never from its message: the known
classes (`Failure` and its subclasses, such as ``vision.ImageReadError``,
``solver.InvalidPuzzleError``, ``web.work.BadInput``) carry a `Kind`, and
`kind_of` gives any exception's kind. Whatever has no kind is an internal
error (a bug): exit status 1 with one line ("internal error"; ``--debug``
prints the traceback), HTTP 500 with an error id that is logged with the
traceback. Only the edges (`snapsolve.cli.main`, `snapsolve.web.app`) turn a
kind into a status.

=================  ===========  ====  ==============================================================
kind               exit status  HTTP  what
=================  ===========  ====  ==============================================================
USAGE              2            400   a bad option; a malformed request or a missing or wrong field
UNAUTHORISED       -            401   an API call without the access token
TOO_LARGE          1            413   an upload or image over the size or pixel limit
UNSUPPORTED_MEDIA  -            415   a request body neither multipart nor JSON
NOT_AN_IMAGE       1            422   an input that does not decode as an image (or a frame)
NOT_A_PUZZLE       1            422   a puzzle text that is malformed or breaks the rules
BAD_PARAMETER      2            422   a parameter out of range (an unknown level, a count)
NO_GRID            1            200   no grid found in a photo (the result's ``error``)
NO_SOLUTION        1            200   a grid without exactly one solution (the result's ``error``)
OVERLOADED         -            503   too many requests waiting (with Retry-After)
TIMEOUT            -            504   a request over the time limit
NOT_REACHED        1            500   the generator made too few puzzles at the level
SETUP              1            500   the installation or environment: a missing extra, model
                                      file, data, scheduler, file or database
WORKER_DIED        1            500   a worker process died on an input
INTERNAL           1            500   anything else: a bug
=================  ===========  ====  ==============================================================

(Exit status 1 is also the batch's status when some input failed; a stop
by a signal exits 128 + the signal's number. A dash: the kind does not
arise on the command line.)
"""

from __future__ import annotations

import enum
from typing import ClassVar


class Kind(enum.Enum):
    """The kind of an error: its exit status (`exit_status`) and HTTP status (`http_status`).

    Each member's value is ``(exit status or None, HTTP status, what it
    means)``; None where the kind does not arise on the command line.
    """

    USAGE = (2, 400, "a bad option; a malformed request or a missing or wrong field")
    UNAUTHORISED = (None, 401, "an API call without the access token")
    TOO_LARGE = (1, 413, "an upload or image over the size or pixel limit")
    UNSUPPORTED_MEDIA = (None, 415, "a request body neither multipart nor JSON")
    NOT_AN_IMAGE = (1, 422, "an input that does not decode as an image")
    NOT_A_PUZZLE = (1, 422, "a puzzle text that is malformed or breaks the rules")
    BAD_PARAMETER = (2, 422, "a parameter out of range")
    NO_GRID = (1, 200, "no grid found in a photo")
    NO_SOLUTION = (1, 200, "a grid without exactly one solution")
    OVERLOADED = (None, 503, "too many requests waiting")
    TIMEOUT = (None, 504, "a request over the time limit")
    NOT_REACHED = (1, 500, "the generator made too few puzzles at the level")
    SETUP = (1, 500, "the installation or environment: a missing extra, model, data, scheduler, file or database")
    WORKER_DIED = (1, 500, "a worker process died on an input")
    INTERNAL = (1, 500, "a bug")

    @property
    def exit_status(self) -> int:
        """The command line's exit status for this kind (1 for the kinds that do not arise there)."""
        return 1 if self.value[0] is None else self.value[0]

    @property
    def http_status(self) -> int:
        """The web API's HTTP status for this kind (200: the answer's ``error`` says it)."""
        return self.value[1]

    @property
    def client_error(self) -> bool:
        """The client's fault (a 4xx): its message goes to the client as it is."""
        return 400 <= self.http_status < 500


class Failure(Exception):
    """An error of a known kind (class attribute `kind`); subclasses also derive from the builtin they refine."""

    kind: ClassVar[Kind] = Kind.INTERNAL


class UsageError(Failure, ValueError):
    """A bad option or combination of options (`Kind.USAGE`, exit status 2)."""

    kind = Kind.USAGE


class SetupError(Failure):
    """The installation or the environment does not allow the work (`Kind.SETUP`)."""

    kind = Kind.SETUP


class MissingExtra(SetupError, ImportError):
    """An optional extra is not installed; the message names the ``pip install`` command."""


class ModelFileError(SetupError, ValueError):
    """A cell model file that is not a snapsolve model of this version."""


def kind_of(exc: BaseException) -> Kind:
    """The kind of an exception: its class's `Failure.kind`; SETUP for the environment's errors; else INTERNAL.

    OSError (a missing file, a full disk, a refused permission),
    ``sqlite3.Error`` and ModuleNotFoundError (a package not installed) are
    the environment's; any other exception without a kind (a ValueError,
    RuntimeError, KeyError ... of our own code) is a bug.
    """
    import sqlite3

    if isinstance(exc, Failure):
        return exc.kind
    if isinstance(exc, (OSError, sqlite3.Error, ModuleNotFoundError)):
        return Kind.SETUP
    return Kind.INTERNAL
