"""Median time per photo of the whole pipeline (decode, locate, read, solve, grade), in one process.

Usage: python benchmarks/pipeline_speed.py [DIR] [--size 640x480|any] [--runs 3] [--write-image]

Times `snapsolve.pipeline.solve_image` on every photo of DIR with the given
pixel size (default: the shared training photos at 640x480; ``--size any`` for
every photo, such as the 12-megapixel in-progress photos), after one warm-up
call that loads the model, with one thread (as a batch worker runs). No image
is written unless ``--write-image`` (then into a temporary folder). Prints the
median over all photos and runs, and the median of each run (the machines are
shared and noisy: compare medians).

It also prints a yardstick of the machine: the median time of a fixed
pure-Python loop (``sum(range(10**6))``) and of a fixed OpenCV filter (a 5x5
Gaussian blur of a 4000 x 3000 grey image), so that figures taken on different
machines can be compared.

    python benchmarks/pipeline_speed.py
    python benchmarks/pipeline_speed.py ../shared/datasets/sudoku-photos-inprogress-train --size any
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from snapsolve.pipeline import Options, default_model, solve_image

DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "sudoku-photos-train"


def yardstick(repeats: int = 7) -> tuple[float, float]:
    """(pure-Python loop, OpenCV blur) median seconds over `repeats` runs: the machine's own speed."""
    image = np.random.default_rng(0).integers(0, 256, (3000, 4000), dtype=np.uint8)
    loop, blur = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        sum(range(10**6))
        loop.append(time.perf_counter() - start)
        start = time.perf_counter()
        cv2.GaussianBlur(image, (5, 5), 0)
        blur.append(time.perf_counter() - start)
    return statistics.median(loop), statistics.median(blur)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument(
        "--size", default="640x480", help="WIDTHxHEIGHT of the photos to time, or 'any' (default 640x480)"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write-image", action="store_true", help="also draw and write the annotated image")
    args = parser.parse_args()
    photos = []
    for path in sorted(args.directory.glob("*.jpg")):
        if args.size == "any":
            photos.append(path)
            continue
        width, height = map(int, args.size.split("x"))
        image = cv2.imread(str(path), cv2.IMREAD_REDUCED_GRAYSCALE_8)
        if image is not None and abs(image.shape[1] * 8 - width) <= 8 and abs(image.shape[0] * 8 - height) <= 8:
            photos.append(path)
    if not photos:
        raise SystemExit(f"no {args.size} photos in {args.directory}")
    model = default_model()
    model.build_index()
    threadpool_limits(1)  # after the index: scikit-learn loads its own OpenMP library
    out = tempfile.TemporaryDirectory()
    options = Options(write_image=args.write_image, output_dir=Path(out.name))
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
    loop, blur = yardstick()
    print(f"{len(photos)} photos of {args.size}, {args.runs} runs")
    print(f"machine yardstick: Python loop {1000 * loop:.1f} ms, OpenCV blur {1000 * blur:.1f} ms (one thread)")
    print(
        f"median per photo: {1000 * statistics.median(all_times):.1f} ms "
        f"(run medians: {', '.join(f'{1000 * m:.1f}' for m in run_medians)} ms; "
        f"90th percentile {1000 * sorted(all_times)[int(0.9 * len(all_times))]:.1f} ms)"
    )


if __name__ == "__main__":
    main()
