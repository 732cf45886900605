"""Printed pages in fonts the model never saw, read back: a per-font table.

For each held-out font of `models/fonts.txt` (serif, sans, italic, bold and
condensed faces from Debian's font packages), pages of 4 puzzles are rendered
at 200 dpi (A4, 1654 x 2339 pixels; a cell is about 73 pixels, 9 mm) with a
light scan's degradations (blur, noise, JPEG), read by the whole pipeline, and
each grid's printed givens compared with the truth. Usage::

    sudo apt-get install -y fonts-noto-core fonts-crosextra-caladea fonts-crosextra-carlito
    python benchmarks/fonts.py [--pages 3] [--trained]

Prints, per font: cells right, puzzles read exactly, and the confusions.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from snapsolve.pipeline import decide, decode_photo, default_model, read_grids
from snapsolve.solver.grid import parse_puzzle
from snapsolve.vision.render import render_page
from snapsolve.vision.training import FontListError, listed_fonts

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT.parent / "shared" / "puzzles" / "top1465.txt"
FIXTURE_PUZZLES = ROOT / "tests" / "data" / "puzzles" / "top1465.txt"
A4_200DPI = (1654, 2339)


def scanned(page: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A light flatbed scan of a printed page: slight blur, sensor noise, JPEG at quality 85."""
    out = cv2.GaussianBlur(page, (0, 0), 0.7)
    out = np.clip(out + rng.normal(0, 4, out.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)


def read_page(path: Path, truths: list[list[int]], model) -> list[tuple[list[int], list[int] | None]]:
    """(truth, givens read) for each puzzle on a page; grids matched to puzzles by agreement."""
    image, colour = decode_photo(path)  # as the command decodes it
    readings = read_grids(image, model, colour)
    decided = [decide(r, model=model).givens for r in readings]  # as the command decides, pen test included
    pairs = []
    for truth in truths:
        best = max(decided, key=lambda g: sum(a == b for a, b in zip(g, truth)), default=None)
        pairs.append((truth, best))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3, help="pages of 4 puzzles per font (default: 3)")
    parser.add_argument("--trained", action="store_true", help="the training fonts instead of the held-out ones")
    args = parser.parse_args()
    try:
        fonts = listed_fonts("train" if args.trained else "held_out")
    except FontListError as exc:
        print(f"fonts.py: {exc}", file=sys.stderr)
        return 1
    source = PUZZLES if PUZZLES.exists() else FIXTURE_PUZZLES
    lines = [line[:81] for line in source.read_text().splitlines() if line.strip() and not line.startswith("#")]
    model = default_model()
    rng = np.random.default_rng(0)
    print(f"{'font':34s} {'cells right':>12s} {'puzzles exact':>14s}  confusions (true->read)")
    totals = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n, font in enumerate(fonts):
            cells = right = exact = puzzles = 0
            confusions = Counter()
            for p in range(args.pages):
                start = (n * args.pages + p) * 4 % (len(lines) - 4)
                truths = [parse_puzzle(line) for line in lines[start : start + 4]]
                page = np.asarray(render_page(truths, page_size=A4_200DPI, font_path=font), dtype=np.uint8)
                path = Path(tmp) / f"page{n}_{p}.jpg"
                cv2.imwrite(str(path), scanned(page, rng))
                for truth, read in read_page(path, truths, model):
                    puzzles += 1
                    if read is None:
                        cells += 81
                        continue
                    wrong = [(t, r) for t, r in zip(truth, read) if t != r]
                    cells += 81
                    right += 81 - len(wrong)
                    exact += not wrong
                    confusions.update(f"{t or '.'}->{r or '.'}" for t, r in wrong)
            totals.update(cells=cells, right=right, exact=exact, puzzles=puzzles)
            top = ", ".join(f"{k} x{v}" for k, v in confusions.most_common(4))
            print(f"{font.name:34s} {right / cells:12.2%} {exact:>8d} of {puzzles:<3d}  {top}", flush=True)
    print(f"{'all':34s} {totals['right'] / totals['cells']:12.3%} {totals['exact']:>8d} of {totals['puzzles']:<3d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
