"""Expand command-line inputs into work items: image files and puzzle lines."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.dataset import IMAGE_SUFFIXES

#: Suffixes read as text files of puzzles (one 81-character puzzle per line).
TEXT_SUFFIXES = {".txt", ".sdm", ".sdk", ".ss", ".csv"}


@dataclass(frozen=True)
class WorkItem:
    """One unit of work.

    Attributes
    ----------
    kind : str
        ``"image"``, ``"puzzle"`` (a text line) or ``"error"`` (an input that
        cannot be used; `text` says why).
    label : str
        Path, or ``FILE:LINE`` for puzzle lines.
    text : str
        Puzzle line, or error message; empty for images.
    """

    kind: str
    label: str
    text: str = ""


def _puzzle_lines(label: str, lines: list[str]) -> Iterator[WorkItem]:
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield WorkItem("puzzle", f"{label}:{number}", stripped)


def expand_inputs(inputs: list[str]) -> Iterator[WorkItem]:
    """Work items for command-line inputs, in order.

    Directories are searched recursively for images (sorted); text files and
    ``-`` (standard input) give one item per non-blank, non-comment line. A
    missing path gives an ``error`` item rather than stopping the others.
    """
    for arg in inputs:
        if arg == "-":
            yield from _puzzle_lines("-", sys.stdin.read().splitlines())
            continue
        path = Path(arg)
        if path.is_dir():
            images = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
                            and ".solved." not in p.name and ".hint." not in p.name)
            if not images:
                yield WorkItem("error", arg, "no image files in this directory")
            for p in images:
                yield WorkItem("image", str(p))
        elif not path.exists():
            yield WorkItem("error", arg, "no such file or directory")
        elif path.suffix.lower() in TEXT_SUFFIXES:
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError as exc:
                yield WorkItem("error", arg, f"cannot read: {exc.strerror or exc}")
                continue
            yield from _puzzle_lines(arg, lines)
        elif path.suffix.lower() == ".pdf":
            yield WorkItem("error", arg, "PDF input is not supported yet; export the pages as images")
        else:
            yield WorkItem("image", arg)
