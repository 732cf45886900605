"""Wall time of whole `snapsolve` commands, as a user runs them (median of several runs).

Measures `snapsolve --help`, one puzzle on standard input, one 12-megapixel
phone photo with its annotated image written, and a folder of 40 photos with
two workers, each beside a bare Python start (`python -c pass`) timed in the
same run, since the machine is shared and noisy. Usage::

    python benchmarks/cli_latency.py [--runs 5] [--photo PATH] [--folder DIR]

The photo defaults to a 12-megapixel in-progress photo of tests/data/photos;
the folder to the first 40 photos of ../shared/datasets/sudoku-photos-train
(skipped when absent).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("snapsolve")
PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"


def timed(argv: list[str], stdin: str | None = None) -> float:
    start = time.perf_counter()
    run = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if run.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed: {run.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--photo", type=Path, default=ROOT / "tests" / "data" / "photos" / "03_05_iphone_14_0.jpg")
    parser.add_argument("--folder", type=Path, default=ROOT.parent / "shared" / "datasets" / "sudoku-photos-train")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp())
    photo = str(args.photo)
    cases = {
        "python -c pass (baseline)": ([sys.executable, "-c", "pass"], None),
        "snapsolve --help": ([str(SCRIPT), "--help"], None),
        "snapsolve - (one puzzle)": ([str(SCRIPT), "-"], PUZZLE),
        "snapsolve PHOTO (12 MP, image written)": ([str(SCRIPT), "-o", str(out), photo], None),
    }
    if args.folder.is_dir():
        forty = out / "forty"
        forty.mkdir()
        for path in sorted(args.folder.glob("*.jpg"))[:40]:
            shutil.copy(path, forty / path.name)
        cases["snapsolve FOLDER (40 photos) --workers 2"] = (
            [str(SCRIPT), "--no-image", "--workers", "2", str(forty)],
            None,
        )
    times = {name: [] for name in cases}
    for _ in range(args.runs):  # interleaved, so a slow moment hits every case alike
        for name, (argv, stdin) in cases.items():
            times[name].append(timed(argv, stdin))
    base = statistics.median(times["python -c pass (baseline)"])
    print(f"{'command':40s} {'median s':>9s} {'x python start':>15s}")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"{name:40s} {med:9.3f} {med / base:15.1f}")
    shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
