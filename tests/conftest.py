"""Shared fixtures: paths to the shared datasets and puzzle collections.

The whole collections come from ``../shared`` when it is beside the checkout;
a clone alone has small fixtures in ``tests/data`` (the first 40 puzzles of
each collection, and labelled validation photos in ``tests/data/photos``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
PHOTOS = SHARED / "datasets" / "sudoku-photos-train"
INPROGRESS = SHARED / "datasets" / "sudoku-photos-inprogress-train"
PUZZLES = SHARED / "puzzles"
SAMPLES = ROOT / "samples"
FIXTURES = ROOT / "tests" / "data"
#: Labelled validation photos in the tree (never trained on): 8 printed, 2 in progress.
FIXTURE_PHOTOS = FIXTURES / "photos"
#: Longest skip reason, characters: one short line in pytest's summary.
SKIP_REASON = 160


def skip_briefly(reason: object) -> None:
    """Skip the test with `reason`'s first line, cut to SKIP_REASON characters ("…" where cut).

    For reasons made from an error's message, which may name a long install command (the handwriting fonts':
    some 5 KB); the error itself, raised where the data is needed (``snapsolve train``), still says it all.
    """
    line = (str(reason).strip().splitlines() or [""])[0]
    pytest.skip(line if len(line) <= SKIP_REASON else line[: SKIP_REASON - 1].rstrip() + "…")


def read_collection(name: str, whole: bool = False) -> list[str]:
    """Puzzle lines (81 characters) of a collection: the shared file, else its first 40 puzzles in the tree.

    With `whole`, a test that needs the entire collection is skipped when ``../shared`` is absent.
    """
    path = PUZZLES / name
    if not path.exists():
        if whole:
            pytest.skip(f"shared puzzle collection {path} is not there")
        path = FIXTURES / "puzzles" / name
    lines = path.read_text().splitlines()
    return [line.strip()[:81] for line in lines if line.strip() and not line.startswith("#")]


def sample_of(lines: list[str], n: int, seed: int = 1) -> list[str]:
    """A fixed random sample of n lines (all of them when there are fewer)."""
    if len(lines) <= n:
        return lines
    return random.Random(seed).sample(lines, n)


#: Whether the whole shared photo sets are beside the checkout (else tests use FIXTURE_PHOTOS).
FULL = PHOTOS.is_dir() and INPROGRESS.is_dir()


def printed_photos_dir() -> Path:
    """The shared printed photo set, or the labelled photos in the tree."""
    return PHOTOS if FULL else FIXTURE_PHOTOS


def in_progress_dir() -> Path:
    """The shared in-progress photo set, or the labelled photos in the tree."""
    return INPROGRESS if FULL else FIXTURE_PHOTOS


@pytest.fixture(scope="session")
def model():
    from snapsolve.pipeline import default_model

    return default_model()
