"""Median time per photo of the whole pipeline (decode, locate, read, solve, grade), no image written.

Usage: python benchmarks/pipeline_speed.py [DIR] [--size 640x480] [--runs 3]

Times `snapsolve.pipeline.solve_image` on every photo of DIR with the given
pixel size (default: the shared training photos at 640x480), after one warm-up
call that loads the model. Prints the median over all photos and runs, and the
median of each run (the machines are shared and noisy: compare medians).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2

from snapsolve.pipeline import Options, default_model, solve_image

DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "sudoku-photos-train"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--size", default="640x480", help="WIDTHxHEIGHT of the photos to time (default 640x480)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    width, height = map(int, args.size.split("x"))
    photos = []
    for path in sorted(args.directory.glob("*.jpg")):
        image = cv2.imread(str(path), cv2.IMREAD_REDUCED_GRAYSCALE_8)
        if image is not None and abs(image.shape[1] * 8 - width) <= 8 and abs(image.shape[0] * 8 - height) <= 8:
            photos.append(path)
    if not photos:
        raise SystemExit(f"no {args.size} photos in {args.directory}")
    options = Options(write_image=False)
    model = default_model()
    solve_image(photos[0], options, model)  # warm-up
    all_times, run_medians = [], []
    for _ in range(args.runs):
        times = []
        for path in photos:
            start = time.perf_counter()
            solve_image(path, options, model)
            times.append(time.perf_counter() - start)
        run_medians.append(statistics.median(times))
        all_times += times
    print(f"{len(photos)} photos of {args.size}, {args.runs} runs")
    print(f"median per photo: {1000 * statistics.median(all_times):.1f} ms "
          f"(run medians: {', '.join(f'{1000 * m:.1f}' for m in run_medians)} ms; "
          f"90th percentile {1000 * sorted(all_times)[int(0.9 * len(all_times))]:.1f} ms)")


if __name__ == "__main__":
    main()
