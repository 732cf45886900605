"""Median time per photo of the whole pipeline (decode, locate, read, solve, grade), in one process.

Usage: python benchmarks/pipeline_speed.py [DIR] [--size 640x480|any] [--runs 3] [--write-image]

Times `snapsolve.pipeline.solve_image` on every photo of DIR with the given
pixel size (default: the shared training photos at 640x480; ``--size any`` for
every photo, such as the 12-megapixel in-progress photos), after one warm-up
call that loads the model, with one thread (as a batch worker runs). No image
is written unless ``--write-image`` (then into a temporary folder). Prints the
median over all photos and runs, and the median of each run (the machines are
shared and noisy: compare medians).

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
from threadpoolctl import threadpool_limits

from snapsolve.pipeline import Options, default_model, solve_image

DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "sudoku-photos-train"


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
    print(f"{len(photos)} photos of {args.size}, {args.runs} runs")
    print(
        f"median per photo: {1000 * statistics.median(all_times):.1f} ms "
        f"(run medians: {', '.join(f'{1000 * m:.1f}' for m in run_medians)} ms; "
        f"90th percentile {1000 * sorted(all_times)[int(0.9 * len(all_times))]:.1f} ms)"
    )


if __name__ == "__main__":
    main()
