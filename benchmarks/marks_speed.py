"""What keeping strokes along the ruled lines costs `vision.cells.find_marks`, per rectified grid, in one process.

Each photo of DIR is read once (`snapsolve.pipeline.read_grids`) for its
rectified grid; then `find_marks` is timed on every grid with the step of
`vision.strokes.strokes_along_lines` and without it (that function replaced by
one that finds nothing: `_with_strokes_along` then returns the strokes at
once), the two alternated grid by grid, ``--runs`` times, one
thread. Prints the median time of each and the median of the per-grid
differences (the machines are shared and noisy: compare in one run).

    python benchmarks/marks_speed.py [DIR] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from snapsolve.pipeline import default_model, read_grids
from snapsolve.vision import cells, strokes

DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "sudoku-photos-train"


def timed(grid: np.ndarray) -> float:
    """Seconds `find_marks` takes on `grid`."""
    start = time.perf_counter()
    cells.find_marks(grid)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    model = default_model()
    grids = []
    for path in sorted(args.directory.glob("*.jpg")):
        readings = read_grids(cv2.imread(str(path)), model)
        if readings:
            image = readings[0].rectified.image
            grids.append(image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    along = strokes.strokes_along_lines
    without = lambda ink: np.zeros_like(ink)  # noqa: E731
    with_times, without_times, differences = [], [], []
    with threadpool_limits(1):
        for _ in range(args.runs):
            for grid in grids:
                strokes.strokes_along_lines = along
                a = timed(grid)
                strokes.strokes_along_lines = without
                b = timed(grid)
                with_times.append(a)
                without_times.append(b)
                differences.append(a - b)
    strokes.strokes_along_lines = along
    ms = lambda values: 1000 * statistics.median(values)  # noqa: E731
    print(
        f"{len(grids)} grids x {args.runs} runs: find_marks {ms(with_times):.2f} ms with strokes along lines, "
        f"{ms(without_times):.2f} ms without; median difference {ms(differences):.2f} ms a grid"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
