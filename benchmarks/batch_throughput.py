"""Pages per second with 1 and 2 workers on generated scanned pages, and peak memory.

Usage: python benchmarks/batch_throughput.py [--pages 100] [--per-page 4] [--runs 2]

Renders --pages A4 pages at 150 dpi, each with --per-page puzzles from the
shared 17-clue collection (slightly blurred and noisy, saved as PNG), then runs
the batch (`snapsolve.batch.run_batch`, no images written) with 1 and with 2
worker processes. Reports the median pages per second over --runs runs, the
speed-up of 2 workers over 1, the share of puzzles read exactly, and the peak
resident memory of the main process and of the largest worker.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from snapsolve.batch import run_batch
from snapsolve.inputs import expand_inputs
from snapsolve.pipeline import Options
from snapsolve.solver.grid import format_puzzle, parse_puzzle
from snapsolve.vision.render import render_page

from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script


def make_pages(folder: Path, pages: int, per_page: int) -> dict[str, list[str]]:
    lines = read_puzzles(SHARED / "17clue.txt")
    rng = np.random.default_rng(11)
    truth = {}
    for i in range(pages):
        puzzles = [parse_puzzle(lines[(i * per_page + k) * 7]) for k in range(per_page)]
        page = np.asarray(render_page(puzzles, title=f"Puzzles, page {i + 1}"), np.float32)
        page = cv2.GaussianBlur(page, (0, 0), 0.8) + rng.normal(0, 4, page.shape)
        path = folder / f"page{i:03d}.png"
        cv2.imwrite(str(path), np.clip(page, 0, 255).astype(np.uint8))
        truth[str(path)] = sorted(format_puzzle(p) for p in puzzles)
    return truth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--per-page", type=int, default=4)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        truth = make_pages(folder, args.pages, args.per_page)
        items = list(expand_inputs([str(folder)]))
        options = Options(write_image=False)
        rates = {}
        for workers in (1, 2):
            runs = []
            for _ in range(args.runs):
                start = time.perf_counter()
                exact = 0
                for item, result, _ in run_batch(items, options, workers):
                    exact += len(set(g["givens"] for g in result["grids"]) & set(truth[item.label]))
                runs.append(args.pages / (time.perf_counter() - start))
            rates[workers] = statistics.median(runs)
            print(
                f"{workers} worker(s): {rates[workers]:.2f} pages/s (runs: {', '.join(f'{r:.2f}' for r in runs)}), "
                f"puzzles read exactly: {exact}/{args.pages * args.per_page}"
            )
        print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x")
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"peak memory: main process {own:.0f} MiB, largest worker {children:.0f} MiB")


if __name__ == "__main__":
    main()
