"""Ruled grids that are not Sudoku (tables, crosswords, Kakuro-like boards), photographed flat or bent: how many
the pipeline takes for a grid, and how many it solves (must be none).

Each page is an n x n ruled board (n of 4-8 and 10-15: never 9) with about 30% of its cells black and 20% holding
a one- or two-digit number in DejaVu Sans, bent into a cylinder (`synthetic.bend_page`, sagitta drawn from
``--bend``) and photographed as `handwriting.photographed` does (perspective, shadow, blur, noise, JPEG, 960 x
720). Read by `snapsolve.pipeline.read_grids` and `decide`. A board read as a grid is a wrong message ("no
solution" or "unsure" instead of "no Sudoku grid found"), never a wrong answer unless solved.

    python benchmarks/not_sudoku.py [--per-size 6] [--seed 11] [--bend 0-0.2]

The photos of ``--seed 11`` are those `vision.locate.BENT_MIN_SCORE` was chosen on (development).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib
import numpy as np
from handwriting import photographed  # benchmarks/handwriting.py, beside this script
from PIL import Image, ImageDraw, ImageFont

from snapsolve.pipeline import decide, default_model, read_grids
from snapsolve.solver import SOLVED

from synthetic import bend_page  # benchmarks/synthetic.py, beside this script

SIZES = (4, 5, 6, 7, 8, 10, 11, 12, 13, 15)


def board_page(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """An n x n ruled board on a 640-pixel page: (page (640, 640, 3) uint8 BGR, its corners (4, 2) float32)."""
    side, margin = 640, 50
    cell = (side - 2 * margin) / n
    page = Image.new("RGB", (side, side), (245, 245, 242))
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(
        str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"), int(cell * 0.5)
    )
    for k in range(n + 1):
        width = 3 if k in (0, n) else 1
        p = margin + k * cell
        draw.line([(p, margin), (p, side - margin)], fill=(20, 20, 20), width=width)
        draw.line([(margin, p), (side - margin, p)], fill=(20, 20, 20), width=width)
    for r in range(n):
        for c in range(n):
            x, y = margin + c * cell, margin + r * cell
            if rng.random() < 0.3:
                draw.rectangle([x, y, x + cell, y + cell], fill=(20, 20, 20))
            elif rng.random() < 0.3:
                draw.text(
                    (x + cell / 2, y + cell / 2), str(rng.integers(1, 30)), fill=(15, 15, 15), font=font, anchor="mm"
                )
    corners = np.float32(
        [[margin, margin], [side - margin, margin], [side - margin, side - margin], [margin, side - margin]]
    )
    return np.asarray(page)[..., ::-1].copy(), corners


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=6, help="photos per board size (default 6)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--bend", default="0-0.2", help="sagitta range LOW-HIGH, a share of the board's side")
    args = parser.parse_args()
    low, _, high = args.bend.partition("-")
    bend = (float(low), float(high or low))
    model = default_model()
    rng = np.random.default_rng(args.seed)
    found = solved = total = 0
    per_size = []
    for n in SIZES:
        here = 0
        for _ in range(args.per_size):
            page, corners = board_page(n, rng)
            page = bend_page(page, corners, rng.uniform(*bend), rng)
            readings = read_grids(photographed(page, corners, rng), model)
            total += 1
            if readings:
                here += 1
                solved += decide(readings[0], model=model).status == SOLVED
        found += here
        per_size.append(f"{n}x{n} {here}/{args.per_size}")
    print(f"{total} boards (seed {args.seed}, bent {bend[0]:g}-{bend[1]:g}): taken for a grid {found}, solved {solved}")
    print("  " + ", ".join(per_size))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
