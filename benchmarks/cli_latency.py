"""Wall time of whole `snapsolve` commands as a user runs them, alternated with another checkout in the same run.

Each case is a whole process, timed from its start to its exit (median of --runs), with the processor time
of it and its children beside (steadier than the wall time on a loaded machine, blind to parallelism; not
for a pool of workers forked by a fork server, whose children it cannot see):

- ``snapsolve --help``;
- one puzzle on standard input (``snapsolve -``);
- one 640x480 photo, its annotated image written;
- one 12-megapixel phone photo, its annotated image written;
- 40 photos of 640x480 (``--no-image``) with the default workers, and with ``--workers 1``; the same for the
  first FEW_PHOTOS of them (a small folder, where starting workers weighs most);

then, in-process, the cell model's load time (``pipeline.default_model()`` in a fresh process: median of
--runs processes) and with its index (``pipeline.prepare_model()``, which imports scikit-learn), and the size
of ``models/`` on disk.

With ``--baseline PATH`` (another checkout of snapsolve with its own ``.venv``, for example the previous
commit: ``git worktree add --detach ../base HEAD~1`` and ``pip install -e`` there), every case runs there
too, turn about with this checkout (ABBA order, so a slow moment of the shared machine hits both alike),
and the table gives both medians. The load average is printed before and after: compare medians from
quiet runs only.

Before timing, each command runs once in each checkout with bytecode writing on, so that both run from
compiled bytecode as an installed package does (``PYTHONDONTWRITEBYTECODE`` would otherwise make every
run compile the checkout's modules again).

Usage::

    python benchmarks/cli_latency.py [--runs 5] [--baseline PATH] [--photo PATH] [--small PATH] [--folder DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRAIN = ROOT.parent / "shared" / "datasets" / "sudoku-photos-train"
PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"
#: Photos in the folder case, and in the small folder's.
FOLDER_PHOTOS = 40
FEW_PHOTOS = 4
#: Width and height (pixels) of the folder's photos and of the small photo.
SMALL_SIZE = (640, 480)
#: Prints the seconds `pipeline.default_model()` takes (or `prepare_model()` with "index"), in a fresh process.
LOAD = (
    "import sys, time\n"
    "from snapsolve import pipeline\n"
    "start = time.perf_counter()\n"
    "pipeline.prepare_model() if sys.argv[1:] == ['index'] else pipeline.default_model()\n"
    "print(time.perf_counter() - start)\n"
)


@dataclass(frozen=True)
class Tree:
    """A checkout and the interpreter of its virtual environment."""

    name: str
    root: Path
    python: Path

    @property
    def command(self) -> Path:
        return self.python.with_name("snapsolve")

    @classmethod
    def at(cls, name: str, root: Path) -> Tree:
        python = root / ".venv" / "bin" / "python"
        if not python.exists():
            raise SystemExit(f"{root}: no .venv/bin/python (make one and pip install -e . there)")
        return cls(name, root, python)


def timed(argv: list[str], stdin: str | None = None, env: dict | None = None) -> tuple[float, float]:
    """(Seconds from starting `argv` to its exit, processor seconds of it and its children); exits this script
    when the command fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({run.returncode}): {run.stderr.strip()[-500:]}")
    return elapsed, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def cases(tree: Tree, out: Path, photo: Path, small: Path | None, folder: Path | None, few: Path | None) -> dict:
    """Case name -> (argv, standard input) for one checkout."""
    command = str(tree.command)
    found = {
        "python -c pass (for reference)": ([str(tree.python), "-c", "pass"], None),
        "--help": ([command, "--help"], None),
        "one text puzzle": ([command, "-"], PUZZLE),
    }
    if small is not None:
        found["one 640x480 photo"] = ([command, "-o", str(out / tree.name), str(small)], None)
    found[f"one {photo.name}, image written"] = ([command, "-o", str(out / tree.name), str(photo)], None)
    if folder is not None:
        found[f"{FOLDER_PHOTOS} photos, default workers"] = ([command, "--no-image", str(folder)], None)
        found[f"{FOLDER_PHOTOS} photos, --workers 1"] = ([command, "--no-image", "--workers", "1", str(folder)], None)
    if few is not None:
        found[f"{FEW_PHOTOS} photos, default workers"] = ([command, "--no-image", str(few)], None)
        found[f"{FEW_PHOTOS} photos, --workers 1"] = ([command, "--no-image", "--workers", "1", str(few)], None)
    return found


def in_process(tree: Tree, what: str) -> float:
    """Seconds of the model's load (`what` "load") or load and index ("index"), in a fresh process."""
    run = subprocess.run([str(tree.python), "-c", LOAD, what], capture_output=True, text=True, cwd=tree.root)
    if run.returncode:
        raise SystemExit(f"{tree.root}: the model does not load: {run.stderr.strip()[-500:]}")
    return float(run.stdout.split()[-1])


def _medians(values: dict, trees: list[Tree], name: str) -> str:
    """The medians of case `name` in each tree, and their ratio (this / baseline) for two."""
    medians = [statistics.median(values[t.name, name]) for t in trees]
    return "".join(f"{m:10.3f}" for m in medians) + (f"{medians[0] / medians[1]:8.2f}" if len(medians) == 2 else "")


def photos_of_size(folder: Path, size: tuple[int, int]) -> list[Path]:
    """The .jpg photos in `folder` of `size` (width, height in pixels), in name order (their JPEG headers read
    by OpenCV at an eighth of their size)."""
    import cv2

    width, height = size
    return [
        path
        for path in sorted(folder.glob("*.jpg"))
        if cv2.imread(str(path), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape == (-(-height // 8), -(-width // 8))
    ]


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, metavar="PATH", help="another checkout with its own .venv")
    parser.add_argument("--photo", type=Path, default=ROOT / "tests" / "data" / "photos" / "03_05_iphone_14_0.jpg")
    parser.add_argument("--small", type=Path, default=TRAIN / "image1.jpg", help="a 640x480 photo")
    parser.add_argument("--folder", type=Path, default=TRAIN, help=f"its first {FOLDER_PHOTOS} .jpg photos of 640x480")
    args = parser.parse_args()
    trees = [Tree.at("this", ROOT)]
    if args.baseline:
        trees.append(Tree.at("baseline", args.baseline.resolve()))
    out = Path(tempfile.mkdtemp(prefix="cli-latency-"))
    folder = few = None
    if args.folder.is_dir():
        folder, few = out / "photos", out / "few"
        folder.mkdir()
        few.mkdir()
        for index, path in enumerate(photos_of_size(args.folder, SMALL_SIZE)[:FOLDER_PHOTOS]):
            shutil.copy(path, folder / path.name)
            if index < FEW_PHOTOS:
                shutil.copy(path, few / path.name)
    small = args.small if args.small.is_file() else None
    plans = {tree.name: cases(tree, out, args.photo, small, folder, few) for tree in trees}
    names = list(plans[trees[0].name])
    compile_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for tree in trees:  # compiled bytecode, files in the page cache
        for argv, stdin in plans[tree.name].values():
            timed(argv, stdin, compile_env)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    times: dict[tuple[str, str], list[float]] = {(t.name, n): [] for t in trees for n in [*names, "load", "index"]}
    cpu: dict[tuple[str, str], list[float]] = {(t.name, n): [] for t in trees for n in names}
    for run in range(args.runs):
        order = trees if run % 2 == 0 else trees[::-1]  # ABBA: neither checkout always runs first
        for name in names:
            for tree in order:
                wall, processor = timed(*plans[tree.name][name])
                times[tree.name, name].append(wall)
                cpu[tree.name, name].append(processor)
        for what in ("load", "index"):
            for tree in order:
                times[tree.name, what].append(in_process(tree, what))
        print(f"run {run + 1} of {args.runs} done", file=sys.stderr)
    load = os.getloadavg()
    labels = {"load": "model load (in-process)", "index": "model load + index (in-process)"}
    columns = "".join(f"{t.name:>10s}" for t in trees) + ("   ratio" if len(trees) == 2 else "")
    print(f"{'wall time (median of ' + str(args.runs) + '), seconds':42s}{columns}    CPU:{columns}")
    for name in [*names, "load", "index"]:
        row = f"{labels.get(name, name):42s}" + _medians(times, trees, name)
        if (trees[0].name, name) in cpu and "default workers" not in name:
            row += "        " + _medians(cpu, trees, name)
        print(row)
    sizes = [folder_size(t.root / "models") / 1e6 for t in trees]
    print(f"{'models/ on disk (MB)':42s}" + "".join(f"{s:10.1f}" for s in sizes))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in load)}")
    shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
