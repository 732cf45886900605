"""Expand command-line inputs into work items: images, PDF pages and puzzle lines."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .solver.grid import LAYOUTS, split_puzzles
from .vision.formats import HEIF_SUFFIXES, IMAGE_SUFFIXES, ImageReadError, pdf_page_count

#: Suffixes read as text files of puzzles (in the layouts of `solver.grid.LAYOUTS`).
TEXT_SUFFIXES = {".txt", ".sdm", ".sdk", ".ss", ".csv"}
#: Files a directory search picks up.
SEARCHED_SUFFIXES = IMAGE_SUFFIXES | HEIF_SUFFIXES | {".pdf"}


@dataclass(frozen=True)
class WorkItem:
    """One unit of work.

    Attributes
    ----------
    kind : str
        ``"image"``, ``"pdf_page"``, ``"puzzle"`` (a text line) or
        ``"error"`` (an input that cannot be used; `text` says why).
    label : str
        What results call the input: a path, ``FILE#PAGE`` for PDF pages
        (1-based), ``FILE:LINE`` for puzzle lines.
    path : str
        The file behind it ("" for standard input).
    text : str
        The puzzle's text (a line, or the lines of a grid typed in rows), or the error message.
    page : int
        0-based page of a PDF.
    """

    kind: str
    label: str
    path: str = ""
    text: str = ""
    page: int = 0


#: Why a text file or standard input gave no work: said, not passed over in silence.
NO_PUZZLES = f"no puzzles here (type each as {LAYOUTS}; lines starting with # are comments)"


def _puzzle_lines(label: str, path: str, lines: list[str]) -> Iterator[WorkItem]:
    """One item per puzzle of a text (`solver.grid.split_puzzles`: a line, or a grid typed in rows), named
    ``LABEL:LINE`` by its first line."""
    found = False
    for number, text in split_puzzles(lines):
        found = True
        yield WorkItem("puzzle", f"{label}:{number}", path, text)
    if not found:
        yield WorkItem("error", label, path, NO_PUZZLES)


def _file_items(path: Path) -> Iterator[WorkItem]:
    arg = str(path)
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as exc:
            yield WorkItem("error", arg, arg, f"cannot read: {exc.strerror or exc}")
            return
        yield from _puzzle_lines(arg, arg, lines)
    elif suffix == ".pdf":
        try:
            pages = pdf_page_count(path)
        except (ImageReadError, OSError) as exc:
            yield WorkItem("error", arg, arg, str(exc))
            return
        for page in range(pages):
            yield WorkItem("pdf_page", f"{arg}#{page + 1}", arg, page=page)
    else:
        yield WorkItem("image", arg, arg)


def _is_output(path: Path) -> bool:
    return ".solved." in path.name or ".hint." in path.name


def expand_inputs(inputs: list[str]) -> Iterator[WorkItem]:
    """Work items for command-line inputs, in order.

    Directories are searched recursively for images and PDFs (sorted, our
    own ``.solved``/``.hint`` outputs skipped); PDFs give one item per page;
    text files and ``-`` (standard input) one item per puzzle (a non-blank,
    non-comment line, or a grid typed in rows: `solver.grid.split_puzzles`).
    A missing path, a directory without images or PDFs and a text file
    (or standard input) without puzzles each give an ``error`` item rather
    than stopping the others.
    """
    for arg in inputs:
        if arg == "-":
            yield from _puzzle_lines("-", "", sys.stdin.read().splitlines())
            continue
        path = Path(arg)
        if path.is_dir():
            files = sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix.lower() in SEARCHED_SUFFIXES and not _is_output(p)
            )
            if not files:
                yield WorkItem("error", arg, arg, "no image or PDF files in this directory")
            for p in files:
                yield from _file_items(p)
        elif not path.exists():
            yield WorkItem("error", arg, arg, "no such file or directory")
        else:
            yield from _file_items(path)
