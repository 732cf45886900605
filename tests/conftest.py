"""Shared fixtures: paths to the shared datasets and puzzle collections."""

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


def read_collection(name: str) -> list[str]:
    """Puzzle lines (81 characters) of a shared collection; skips the test when it is absent."""
    path = PUZZLES / name
    if not path.exists():
        pytest.skip(f"shared puzzle collection {path} is not there")
    lines = path.read_text().splitlines()
    return [line.strip()[:81] for line in lines if line.strip() and not line.startswith("#")]


def sample_of(lines: list[str], n: int, seed: int = 1) -> list[str]:
    """A fixed random sample of n lines (all of them when there are fewer)."""
    if len(lines) <= n:
        return lines
    return random.Random(seed).sample(lines, n)


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    if not PHOTOS.is_dir():
        pytest.skip(f"shared photo dataset {PHOTOS} is not there")
    return PHOTOS


@pytest.fixture(scope="session")
def model():
    from snapsolve.pipeline import default_model

    return default_model()
