"""The shared puzzle collections, as the benchmark scripts beside this file read them.

``../shared/puzzles`` beside the checkout holds top1465, the 17-clue list and
the forum's hardest list: one puzzle per line (its first 81 characters, ``.``
or ``0`` for empty), ``#`` comment lines.
"""

from __future__ import annotations

from pathlib import Path

#: The folder of the shared puzzle collections (beside the checkout).
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "puzzles"


def read_puzzles(path: Path) -> list[str]:
    """The puzzles of a collection file: the first 81 characters of each line, blank and comment lines skipped.

    Raises
    ------
    OSError
        The file cannot be read.
    """
    return [line.strip()[:81] for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
