"""Grids filled entirely by hand, read by the command's own pipeline: blank printed grids filled in pen.

Each photo is a blank printed grid (cells of 60 pixels, 1-pixel cell lines,
3-pixel box lines) whose every mark is written by one hand in one pen (blue or
black ballpoint, ``--pens``): a grid a child filled in, a page of handwritten
givens, a puzzle copied out by hand. The digits are either random (``random``:
25-60 cells, each digit drawn uniformly, so most grids break the rules) or a
puzzle's givens (``puzzles``: a top1465 puzzle of ``../shared/puzzles``, else
the fixture in ``tests/data/puzzles``, with ``--extra-givens`` more of its
solution's digits, as a newspaper prints them). The hands are never trained
on: a held-out handwriting face (`vision.handwriting.HELD_OUT_HANDWRITING`,
each digit given `vision.handwriting.augment_glyph`'s stroke changes), or real
digits of MNIST's test set (``mnist``: writers not those of the training set,
each digit drawn at random from them, so one grid holds many writers' digits).
The page is photographed flat as `benchmarks/handwriting.py` photographs it
(perspective, a lighting ramp, blur, noise, JPEG, 960 x 720).

Each photo is read as ``snapsolve`` reads it: `snapsolve.pipeline.read_grids`
and `snapsolve.pipeline.read_puzzle` (the per-grid decision, the player's
entries, the solver). A mark's digit is the command's: its given, else its
entry. With ``--command``, the photos are saved as JPEG files (as ``--save``
writes them) and read by the command itself, ``python -m snapsolve --json
--no-image`` (its own decoding and workers), scored from the JSON it prints.
Reported per hand source and kind of digits: marks read right, wrong
(another digit, or none), asked about (among ``unclear_entries``), taken as
givens, cells without a mark read as a digit; for puzzles, the photos solved
(right and wrong) and the marks called mistakes (every mark is the puzzle's own
digit, so each is a false mistake).

    python benchmarks/all_handwritten.py [--photos 40] [--seed 72] [--hands faces,mnist]
        [--digits random,puzzles] [--pens blue,black] [--extra-givens 10] [--save DIR] [--command]

With ``--save DIR`` the photos are written there as well (photo N of seed S
as ``written_seedS_N.jpg``, JPEG quality 92) with ``truth.json``: each photo's
digits written and, for a puzzle, its solution (81 digits, 0 for none), the
hand and the kind of digits.

Photo i is written by hand source i modulo their number and holds digits of
kind (i // hand sources) modulo theirs, so every pairing is read equally.
Seeded: the same arguments give the same photos.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from handwriting import BENCHMARK_INKS, FIXTURE_PUZZLES, PUZZLES, photographed, save_photos  # beside this script
from PIL import Image, ImageDraw, ImageFont

from snapsolve.pipeline import default_model, read_grids, read_puzzle
from snapsolve.puzzle import Options
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import parse_puzzle
from snapsolve.vision.handwriting import MnistMissingError, augment_glyph, glyph_of, mnist_digits, write_digit
from snapsolve.vision.training import FontListError, listed_fonts

HANDS = ("faces", "mnist")
DIGITS = ("random", "puzzles")
#: Fewest and most cells written in a grid of random digits.
RANDOM_MARKS = (25, 60)
CELL, MARGIN = 60, 50


def blank_grid() -> tuple[np.ndarray, np.ndarray]:
    """A blank printed grid on paper: the page (H, W, 3) float32 BGR and the grid's corners (4, 2) float32."""
    side = 9 * CELL + 2 * MARGIN
    page = Image.new("RGB", (side, side), (245, 245, 242))
    draw = ImageDraw.Draw(page)
    for k in range(10):
        p = MARGIN + k * CELL
        width = 3 if k % 3 == 0 else 1
        draw.line([(p, MARGIN), (p, side - MARGIN)], fill=(20, 20, 20), width=width)
        draw.line([(MARGIN, p), (side - MARGIN, p)], fill=(20, 20, 20), width=width)
    far = side - MARGIN
    corners = np.float32([[MARGIN, MARGIN], [far, MARGIN], [far, far], [MARGIN, far]])
    return np.asarray(page, np.float32)[..., ::-1].copy(), corners


def written_grid(
    digits: list[int], glyph_for, colour: tuple, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A blank grid with `digits` (81 values, 0 for empty) written in by hand: `glyph_for(digit)` gives each
    glyph, written in `colour` (BGR) with `write_digit`'s size and place. Returns the page (H, W, 3) uint8 BGR
    and the grid's corners (4, 2) float32."""
    canvas, corners = blank_grid()
    for cell, digit in enumerate(digits):
        if digit:
            r, c = divmod(cell, 9)
            write_digit(canvas, glyph_for(digit), (MARGIN + r * CELL, MARGIN + c * CELL, CELL), colour, rng)
    return np.clip(canvas, 0, 255).astype(np.uint8), corners


def make_photos(
    count: int, seed: int, hands: tuple[str, ...], kinds: tuple[str, ...], pens: tuple[str, ...], extra_givens: int
) -> list[dict]:
    """`count` photos, each {"image", "digits", "solution", "hand", "kind"}: ``digits`` the 81 values written
    (0 for empty), ``solution`` the puzzle's solution (None for random digits), ``hand`` the face's file name
    or "MNIST test set", ``kind`` "random" or "puzzles"."""
    source = PUZZLES if PUZZLES.exists() else FIXTURE_PUZZLES
    lines = [line[:81] for line in source.read_text().splitlines() if line.strip() and not line.startswith("#")]
    faces = listed_fonts("held_out_handwriting") if "faces" in hands else []
    pool: dict[int, list[np.ndarray]] = {}
    if "mnist" in hands:
        glyphs, labels = mnist_digits("test")
        pool = {d: [g for g, label in zip(glyphs, labels) if label == d] for d in range(1, 10)}
    rng = np.random.default_rng(seed)
    photos = []
    for i in range(count):
        hand, kind = hands[i % len(hands)], kinds[(i // len(hands)) % len(kinds)]
        solution = None
        if kind == "puzzles":
            digits = parse_puzzle(lines[int(rng.integers(len(lines)))])
            solution = solve_unique(digits).solution
            empty = [c for c in range(81) if not digits[c]]
            for c in rng.choice(empty, size=min(extra_givens, len(empty)), replace=False):
                digits[int(c)] = solution[int(c)]
        else:
            digits = [0] * 81
            for c in rng.choice(81, size=int(rng.integers(RANDOM_MARKS[0], RANDOM_MARKS[1] + 1)), replace=False):
                digits[int(c)] = int(rng.integers(1, 10))
        if hand == "faces":
            face = faces[(i // len(hands)) % len(faces)]
            font = ImageFont.truetype(str(face), 56)
            name = face.name

            def glyph_for(digit: int, font=font) -> np.ndarray:
                return augment_glyph(glyph_of(font, digit), rng)
        else:
            name = "MNIST test set"

            def glyph_for(digit: int) -> np.ndarray:
                return pool[digit][int(rng.integers(len(pool[digit])))]

        pen = pens[int(rng.integers(len(pens)))]
        colour = BENCHMARK_INKS[pen][int(rng.integers(len(BENCHMARK_INKS[pen])))]
        page, corners = written_grid(digits, glyph_for, colour, rng)
        photos.append(
            {
                "image": photographed(page, corners, rng),
                "digits": digits,
                "solution": solution,
                "hand": name,
                "source": hand,
                "kind": kind,
            }
        )
    return photos


@dataclass(frozen=True)
class Reading:
    """What the command read of a photo's first grid: 81 givens and 81 entries (0 for none), the cells asked
    about (``unclear_entries``), the solution (81 digits, or None) and the number of mistakes called."""

    givens: list[int]
    entries: list[int]
    asked: set[int]
    solution: list[int] | None
    mistakes: int


def read_in_process(photos: list[dict], model) -> list[Reading | None]:
    """Each photo's first grid read by the command's pipeline in this process (`read_grids`, `read_puzzle`),
    from its image in memory; None where no grid is found."""
    options = Options(write_image=False)
    out: list[Reading | None] = []
    for photo in photos:
        readings = read_grids(photo["image"], model)
        if not readings:
            out.append(None)
            continue
        grid, _ = read_puzzle(readings[0], options, model)
        asked = {u.cell for u in grid.unclear_entries}
        out.append(Reading(list(grid.givens), list(grid.entries), asked, grid.solution, len(grid.mistakes)))
    return out


def read_by_command(paths: list[Path]) -> list[Reading | None]:
    """Each photo file's first grid as the command prints it (``python -m snapsolve --json --no-image``, one
    process for all: its own decoding, workers and output); None where no grid is found.

    Raises
    ------
    RuntimeError
        The command printed another number of results than `paths`.
    """
    run = subprocess.run(
        [sys.executable, "-m", "snapsolve", "--json", "--no-image", *map(str, paths)], capture_output=True, text=True
    )
    results = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if len(results) != len(paths):
        raise RuntimeError(f"snapsolve printed {len(results)} results for {len(paths)} photos: {run.stderr[-300:]}")

    def digits(text: str | None) -> list[int]:
        return [0 if ch == "." else int(ch) for ch in (text or "." * 81)]

    out: list[Reading | None] = []
    for result in results:
        if not result["grids"]:
            out.append(None)
            continue
        grid = result["grids"][0]
        asked = {u["cell"] for u in grid.get("unclear_entries") or []}
        solution = digits(grid["solution"]) if grid.get("solution") else None
        mistakes = len(grid.get("mistakes") or [])
        out.append(Reading(digits(grid["givens"]), digits(grid.get("entries")), asked, solution, mistakes))
    return out


def score(photos: list[dict], readings: list[Reading | None]) -> dict[tuple[str, str], Counter]:
    """Totals per (hand source, kind of digits) over the photos and what was read of each."""
    totals: dict[tuple[str, str], Counter] = {}
    for photo, grid in zip(photos, readings):
        t = totals.setdefault((photo["source"], photo["kind"]), Counter())
        t["photos"] += 1
        digits = photo["digits"]
        marks = [c for c in range(81) if digits[c]]
        t["marks"] += len(marks)
        if grid is None:
            t["no_grid"] += 1
            t["wrong"] += len(marks)
            continue
        for c in range(81):
            read = grid.givens[c] or grid.entries[c]
            if not digits[c]:
                t["phantom"] += bool(read)
                continue
            t["as_given"] += bool(grid.givens[c])
            if c in grid.asked:
                t["asked"] += 1
            elif read == digits[c]:
                t["right"] += 1
            else:
                t["wrong"] += 1
        t["every_mark_right"] += all((grid.givens[c] or grid.entries[c]) == digits[c] for c in range(81))
        t["all_as_givens"] += grid.givens == digits
        if photo["solution"] is not None:
            t["solved_right"] += grid.solution == photo["solution"]
            t["solved_wrong"] += grid.solution is not None and grid.solution != photo["solution"]
            t["false_mistakes"] += grid.mistakes
    return totals


def report(name: str, t: Counter) -> str:
    """One line of figures for the photos of `t`."""
    marks = max(t["marks"], 1)
    line = (
        f"{name}: {t['photos']} photos, {t['marks']} marks: right {t['right']} ({100 * t['right'] / marks:.2f}%), "
        f"wrong {t['wrong']} ({100 * t['wrong'] / marks:.2f}%), asked {t['asked']}; taken as givens "
        f"{t['as_given']} ({100 * t['as_given'] / marks:.1f}%); empty cells read as a digit {t['phantom']}; "
        f"photos with every mark right {t['every_mark_right']}, read wholly as givens {t['all_as_givens']}"
        f"{', no grid ' + str(t['no_grid']) if t['no_grid'] else ''}"
    )
    if "solved_right" in t or "solved_wrong" in t or "false_mistakes" in t:
        line += f"; solved right {t['solved_right']}, solved wrong {t['solved_wrong']}"
        line += f", false mistakes {t['false_mistakes']}"
    return line


def truth_of(photo: dict) -> dict:
    """What ``--save`` keeps of a photo in ``truth.json``: its digits, solution, hand and kind."""
    return {
        "digits": "".join(map(str, photo["digits"])),
        "solution": None if photo["solution"] is None else "".join(map(str, photo["solution"])),
        "hand": photo["hand"],
        "kind": photo["kind"],
    }


def choices(parser: argparse.ArgumentParser, option: str, text: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """A comma-separated list of `allowed` values; else the parser's error (exit 2)."""
    values = tuple(v for v in text.split(",") if v)
    if not values or any(v not in allowed for v in values):
        parser.error(f"{option}: expected a comma-separated list of {', '.join(allowed)}, not {text!r}")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--seed", type=int, default=72)
    parser.add_argument("--hands", default=",".join(HANDS), help="held-out hand sources: faces, mnist (default both)")
    parser.add_argument("--digits", default=",".join(DIGITS), help="random, puzzles (default both)")
    parser.add_argument("--pens", default="blue,black", help="inks, one per photo (default %(default)s)")
    parser.add_argument("--extra-givens", type=int, default=10, help="more of a puzzle's solution written (default 10)")
    parser.add_argument("--save", type=Path, help="also write the photos and truth.json into this folder")
    parser.add_argument(
        "--command",
        action="store_true",
        help="read the photos saved as JPEG files by the command itself (python -m snapsolve --json), not in memory",
    )
    args = parser.parse_args()
    hands = choices(parser, "--hands", args.hands, HANDS)
    kinds = choices(parser, "--digits", args.digits, DIGITS)
    pens = choices(parser, "--pens", args.pens, tuple(BENCHMARK_INKS))
    start = time.perf_counter()
    try:
        photos = make_photos(args.photos, args.seed, hands, kinds, pens, args.extra_givens)
    except (FontListError, MnistMissingError) as exc:
        print(f"all_handwritten.py: {exc}", file=sys.stderr)
        return 1
    print(
        f"{len(photos)} photos (seed {args.seed}, hands {'/'.join(hands)}, digits {'/'.join(kinds)}, "
        f"{'/'.join(pens)} ink), {sum(sum(1 for d in p['digits'] if d) for p in photos)} marks, "
        f"made in {time.perf_counter() - start:.0f} s",
        flush=True,
    )
    stem = f"written_seed{args.seed}"
    if args.save:
        save_photos(photos, args.save, stem, truth_of)
    if args.command:
        with tempfile.TemporaryDirectory(prefix="all-handwritten-") as scratch:
            folder = args.save or Path(scratch)
            if not args.save:
                save_photos(photos, folder, stem, truth_of)
            readings = read_by_command([folder / f"{stem}_{i}.jpg" for i in range(len(photos))])
    else:
        readings = read_in_process(photos, default_model())
    totals = score(photos, readings)
    for key in sorted(totals):
        print("  " + report(" ".join(key), totals[key]))
    print("  " + report("all", sum(totals.values(), Counter())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
