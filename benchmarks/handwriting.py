"""Puzzles started in pen by hands the model never saw, photographed and read by the whole pipeline.

Each photo is a printed puzzle of top1465 (``../shared/puzzles``, else the
fixture in ``tests/data/puzzles``) in a print face (matplotlib's DejaVu Sans or
Serif), with 30-60% of its empty cells (``--fill``) written in by "a player": one
held-out handwriting face (`vision.handwriting.HELD_OUT_HANDWRITING`, never
trained on) and one pen (blue or black ballpoint; ``--pens`` for others,
such as a grey pencil) per photo, each digit given
`vision.augment.augment_glyph`'s stroke changes and `write_digit`'s size
and place; or, with ``--hands mnist``, real digits of MNIST's test set (writers
never trained on). Most entries are the solution's digit; 0-2 per photo are
deliberately wrong (recorded). The colour page, bent into a cylinder with
``--bend`` (`synthetic.bend_page`; flat by default), is photographed like
``benchmarks/synthetic.py``'s level 1-2 (perspective, a lighting ramp, blur, noise,
JPEG, 960 x 720 BGR unless ``--size``; with ``--shadow``, a phone's or a hand's
shadow cast across the grid, `cast_shadow`) and read by `snapsolve.pipeline.read_grids`,
`snapsolve.pipeline.decide` (`repair.choose_reading`, then
`repair.separate_written`: givens unlike the grid's print taken for pen) and
`repair.read_entries` (`snapsolve.pipeline.player_entries`: the model's entry evidence and its second look, as
`snapsolve.pipeline.read_puzzle` does).

Reported: handwritten digits read right (the classifier's most probable class
is "handwritten d" for a cell written d), the handwritten-digit model alone
(the most probable of h1-h9 is d, whatever the kind), entries read right (the
player's digit as `repair.read_entries` gives it after the per-grid decision,
which is what `snapsolve evaluate` counts), printed versus written right (over
every printed and written cell: the classifier's most probable kind, and
after the per-grid decision: a cell is printed when it is among the decided
givens), photos with every printed given right (after consistency repair and
the per-grid decision), photos with every entry read right (every written
cell's entry is the digit written: on finished grids, ``--fill 1``, what
"solved, every entry right" needs), photos solved wrong (a solution other than the
puzzle's: a pen digit kept as a given can make another puzzle), and false
mistakes (an entry that is the puzzle's solution's digit, reported as a
mistake), unclear entries, the
deliberate wrong digits caught (called a mistake or unclear) and those passed
as right (a wrong digit shown as the solution's: a false statement too).

    python benchmarks/handwriting.py [--photos 60] [--seed 24] [--extra-givens 10] [--hands all|debian|npm|mnist]
        [--pens blue,black] [--size 960x720] [--fill 0.3-0.6] [--bend 0] [--shadow 0] [--model FILE ...]

The puzzles get `--extra-givens` more printed digits from their solution
(default 10), so that, like a newspaper's, a third of their givens are not
needed; ``--extra-givens 0`` gives nearly minimal puzzles, which flatter the
per-grid decision (a given the puzzle needs is never taken for pen).

Seeded: the same arguments give the same photos. With several ``--model``
files, each reads the same photos (to compare models in one run).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from snapsolve.pipeline import decide, default_model, player_entries, read_grids
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import parse_puzzle
from snapsolve.vision.augment import augment_glyph
from snapsolve.vision.digits import CLASSES, CellClassifier
from snapsolve.vision.handwriting import INKS, MnistMissingError, glyph_of, mnist_digits, write_digit
from snapsolve.vision.locate import order_corners
from snapsolve.vision.training import FontListError, listed_fonts

from synthetic import bend_page  # benchmarks/synthetic.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT.parent / "shared" / "puzzles" / "top1465.txt"
FIXTURE_PUZZLES = ROOT / "tests" / "data" / "puzzles" / "top1465.txt"
PRINT_FACES = ("DejaVuSans.ttf", "DejaVuSerif.ttf")
SIZE = (960, 720)
#: Inks to write in, BGR shades: those rendered for training (`vision.handwriting.INKS`) and two it never
#: renders, a red and a green ballpoint (to see whether reading depends on the pen's colour).
BENCHMARK_INKS = {**INKS, "red": ((40, 40, 190), (60, 50, 170), (30, 30, 150)), "green": ((60, 130, 30), (80, 110, 40))}
#: The inks a player writes in by default, one per photo, drawn with equal chances.
PENS = ("blue", "black")
#: The share of a puzzle's empty cells the player has written in, drawn uniformly per photo.
FILL = (0.3, 0.6)
#: How deep the page is bent (`synthetic.bend_page`'s sagitta, a share of the grid's side), drawn uniformly
#: per photo: none by default.
BEND = (0.0, 0.0)
#: How dark a shadow cast across the page is (the share of light it takes), drawn uniformly per photo: none by
#: default.
SHADOW = (0.0, 0.0)


def started_puzzle(
    givens: list[int],
    solution: list[int],
    hand: Path | dict[int, list[np.ndarray]],
    rng: np.random.Generator,
    pens: tuple[str, ...] = PENS,
    fill: tuple[float, float] = FILL,
    rules: tuple[int, int] = (1, 3),
) -> tuple[np.ndarray, np.ndarray, dict[int, int], set[int]]:
    """A printed puzzle with some cells written in pen, as a clean colour page.

    `hand` is a handwriting face (each digit drawn in it and given
    `augment_glyph`'s stroke changes) or real handwritten glyphs by digit
    (MNIST's test set: each digit written is one of them, drawn at random, as it is).
    `rules` are the widths (pixels, cells of 60) of the cell lines and of the box lines and border.

    Returns
    -------
    (np.ndarray, np.ndarray, dict, set)
        The page (H, W, 3) uint8 BGR, the grid's corners (4, 2) float32, the
        written cells {cell: digit written}, and the cells written wrong.
    """
    import matplotlib

    cell, margin = 60, 50
    side = 9 * cell + 2 * margin
    face = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / PRINT_FACES[int(rng.integers(len(PRINT_FACES)))]
    page = Image.new("RGB", (side, side), (245, 245, 242))
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(face), int(cell * 0.65))
    for k in range(10):
        width = rules[1] if k % 3 == 0 else rules[0]
        p = margin + k * cell
        draw.line([(p, margin), (p, side - margin)], fill=(20, 20, 20), width=width)
        draw.line([(margin, p), (side - margin, p)], fill=(20, 20, 20), width=width)
    for i, d in enumerate(givens):
        if d:
            r, c = divmod(i, 9)
            draw.text(
                (margin + (c + 0.5) * cell, margin + (r + 0.5) * cell),
                str(d),
                fill=(15, 15, 15),
                font=font,
                anchor="mm",
            )
    canvas = np.asarray(page, np.float32)[..., ::-1].copy()  # BGR
    empty = [i for i in range(81) if not givens[i]]
    chosen = rng.choice(empty, size=int(round(rng.uniform(*fill) * len(empty))), replace=False)
    wrong = set(int(c) for c in rng.choice(chosen, size=int(rng.integers(0, 3)), replace=False))
    pen = pens[int(rng.integers(len(pens)))]
    colour = BENCHMARK_INKS[pen][int(rng.integers(len(BENCHMARK_INKS[pen])))]
    if isinstance(hand, Path):
        hand_font = ImageFont.truetype(str(hand), 56)

        def glyph_for(digit: int) -> np.ndarray:
            return augment_glyph(glyph_of(hand_font, digit), rng)
    else:

        def glyph_for(digit: int) -> np.ndarray:
            return hand[digit][int(rng.integers(len(hand[digit])))]

    written = {}
    for c in sorted(int(x) for x in chosen):
        digit = solution[c]
        if c in wrong:
            digit = int(rng.choice([d for d in range(1, 10) if d != solution[c]]))
        r, col = divmod(c, 9)
        write_digit(canvas, glyph_for(digit), (margin + r * cell, margin + col * cell, cell), colour, rng)
        written[c] = digit
    corners = np.float32(
        [[margin, margin], [side - margin, margin], [side - margin, side - margin], [margin, side - margin]]
    )
    return np.clip(canvas, 0, 255).astype(np.uint8), corners, written, wrong


def cast_shadow(photo: np.ndarray, depth: float, rng: np.random.Generator) -> None:
    """Darken `photo` ((h, w, 3) float32 BGR, in place) under a shadow cast across the grid.

    The shadow of a phone or a hand held over the page: either a half-plane (a straight edge) or an
    ellipse (a rounded one), its edge passing through a point of the middle of the frame (where the grid
    is), taking `depth` (0..1) of the light inside, a little less of the blue (skylight fills a shadow).
    Its edge is blurred by a penumbra of sigma 0.5-8 pixels: a sharp edge is a strong step in the ink
    mask, which a contour can follow instead of the grid's border.
    """
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    px, py = w / 2 + rng.uniform(-0.3, 0.3) * h, h / 2 + rng.uniform(-0.3, 0.3) * h
    angle = rng.uniform(0, 2 * np.pi)
    if rng.random() < 0.5:  # a straight edge through (px, py)
        inside = (np.cos(angle) * (xx - px) + np.sin(angle) * (yy - py)) > 0
    else:  # an ellipse whose edge passes through (px, py)
        a, b = rng.uniform(0.3, 0.8) * h, rng.uniform(0.2, 0.5) * h
        cx, cy = px + a * np.cos(angle), py + a * np.sin(angle)  # the point on its major axis' end
        turn = np.arctan2(py - cy, px - cx)
        u = np.cos(turn) * (xx - cx) + np.sin(turn) * (yy - cy)
        v = -np.sin(turn) * (xx - cx) + np.cos(turn) * (yy - cy)
        inside = (u / a) ** 2 + (v / b) ** 2 < 1
    mask = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), rng.uniform(0.5, 8.0))
    for channel, share in enumerate((0.85, 0.95, 1.0)):  # B, G, R
        photo[..., channel] *= 1.0 - depth * share * mask


def seen_corners(
    shape: tuple[int, int],
    corners: np.ndarray,
    bend: tuple[float, float],
    bender: np.random.Generator,
    camera: np.random.Generator,
    size: tuple[int, int] = SIZE,
) -> np.ndarray:
    """Where a page's grid corners are seen in its photo: a blank page of `shape` (h, w) with a black disc on
    each corner, bent and photographed by generators in the states the page's own bend (`bender`, when
    `bend` reaches above 0) and photo (`camera`) started from, so the same warp; the discs' centroids.

    Returns
    -------
    np.ndarray
        Shape (4, 2) float32, photo pixels, TL TR BR BL as the page's `corners`.
    """
    marks = np.full((*shape, 3), 245, np.uint8)
    for x, y in corners:
        cv2.circle(marks, (int(round(x)), int(round(y))), 7, (0, 0, 0), -1)
    if bend[1] > 0:
        marks = bend_page(marks, corners, bender.uniform(*bend), bender)
    seen = cv2.cvtColor(photographed(marks, corners, camera, size), cv2.COLOR_BGR2GRAY)
    _, _, stats, centroids = cv2.connectedComponentsWithStats((seen < 90).astype(np.uint8))
    discs = centroids[1:][np.argsort(stats[1:, cv2.CC_STAT_AREA])[::-1][:4]]
    return order_corners(discs)  # the camera turns the page by a few degrees at most: the corners keep their order


def photographed(
    page: np.ndarray,
    corners: np.ndarray,
    rng: np.random.Generator,
    size: tuple[int, int] = SIZE,
    shadow: float = 0.0,
    shade_rng: np.random.Generator | None = None,
) -> np.ndarray:
    """A phone photo of a colour page: perspective (corners moved up to 6% of the frame), a shadow down to
    60% light, blur sigma 0.4-1.0, noise sigma 3-8, JPEG quality 60-90; `size` (width, height) pixels,
    returned as shape (height, width, 3) uint8 BGR. With `shadow` > 0, a shadow taking that share of the
    light is cast across the grid as well (`cast_shadow`, drawn by `shade_rng` when given, so that the photo
    is otherwise the one without; else by `rng`)."""
    w, h = size
    grid_side = float(np.linalg.norm(corners[1] - corners[0]))
    scale = 0.8 * h / grid_side
    centre = corners.mean(axis=0)
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    src = np.array([centre + (p - [w / 2, h / 2]) / scale for p in frame], np.float32)
    dst = (frame + rng.uniform(-0.06, 0.06, (4, 2)) * [w, h]).astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(page, warp, (w, h), flags=cv2.INTER_AREA, borderValue=(200, 200, 200))
    photo = photo.astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = (np.cos(angle) * (xx - w / 2) + np.sin(angle) * (yy - h / 2)) / max(w, h) + 0.5
    photo *= (1.0 - rng.uniform(0, 0.4) * np.clip(ramp, 0, 1))[..., None]
    if shadow > 0:
        cast_shadow(photo, shadow, shade_rng if shade_rng is not None else rng)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.4, 1.0))
    photo += rng.normal(0, rng.uniform(3, 8), photo.shape).astype(np.float32)
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 91))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


# Each parameter a knob of the photos' synthesis, with its default, as the command line names them.
def make_photos(  # noqa: PLR0913
    count: int,
    seed: int,
    extra_givens: int = 0,
    hands: str = "all",
    pens: tuple[str, ...] = PENS,
    size: tuple[int, int] = SIZE,
    fill: tuple[float, float] = FILL,
    bend: tuple[float, float] = BEND,
    shadow: tuple[float, float] = SHADOW,
    finished: bool = False,
) -> list[dict]:
    """`count` photos: each {"image", "givens", "solution", "written", "wrong", "hand", "corners", "rules"}.

    ``corners`` are the grid's corners as seen in the photo ((4, 2) float32, TL TR BR BL; `seen_corners`),
    ``rules`` the widths of its cell and box lines on the page (`started_puzzle`).

    `extra_givens` more of each puzzle's solution digits are printed (chosen
    by a generator of their own, so that the photos are otherwise those of
    `extra_givens` 0): top1465's puzzles are nearly minimal (a median of 18
    givens, none that the puzzle does not need), newspaper puzzles are not
    (the shared photos' puzzles: a median of 28 givens, 34-41% not needed),
    and a given the puzzle does not need is the one the per-grid decision can
    take for pen.

    `hands` picks the held-out handwriting faces: ``"all"``, ``"debian"``
    (the 8 of Debian's packages) or
    ``"npm"`` (the 12 Fontsource faces); photo i is written in face i modulo
    their number. ``"mnist"`` writes real handwriting instead: each entry is a
    digit of MNIST's test set (`vision.handwriting.mnist_digits`; its writers
    are not those of the training set, whose first MNIST_TRAINING digits the
    model learns from) drawn at random, not augmented, so one grid holds many
    writers' digits.

    `bend` (LOW, HIGH): each page is bent (`synthetic.bend_page`) by a
    sagitta drawn from that range, by a generator of its own (so that the
    photos are otherwise those of no bend); `shadow` (LOW, HIGH) the same
    for a shadow cast across the grid (`cast_shadow`, its depth drawn from
    that range).

    `finished`: every empty cell is written in (`fill` is ignored), 0-2 of
    them wrong, and the grid is ruled as a newspaper's, 1-2 pixel cell lines
    and 4-8 pixel box lines (cells of 60 pixels), drawn by a generator of
    their own: a finished puzzle, photographed to be checked.
    """
    source = PUZZLES if PUZZLES.exists() else FIXTURE_PUZZLES
    lines = [line[:81] for line in source.read_text().splitlines() if line.strip() and not line.startswith("#")]
    if hands == "mnist":
        glyphs, labels = mnist_digits("test")
        pool = {d: [g for g, label in zip(glyphs, labels) if label == d] for d in range(1, 10)}
    else:
        faces = listed_fonts("held_out_handwriting", None if hands == "all" else hands)
    rng = np.random.default_rng(seed)
    more = np.random.default_rng([seed, 1])
    bender = np.random.default_rng([seed, 2])
    shade = np.random.default_rng([seed, 3])
    ruler = np.random.default_rng([seed, 4])
    photos = []
    for i in range(count):
        givens = parse_puzzle(lines[int(rng.integers(len(lines)))])
        solution = solve_unique(givens).solution
        if extra_givens:
            empty = [c for c in range(81) if not givens[c]]
            for c in more.choice(empty, size=min(extra_givens, len(empty)), replace=False):
                givens[int(c)] = solution[int(c)]
        hand = pool if hands == "mnist" else faces[i % len(faces)]
        rules = (int(ruler.integers(1, 3)), int(ruler.integers(4, 9))) if finished else (1, 3)
        page, corners, written, wrong = started_puzzle(
            givens, solution, hand, rng, pens, (1.0, 1.0) if finished else fill, rules
        )
        bent, camera = copy.deepcopy(bender), copy.deepcopy(rng)  # the draws of this photo's bend and camera
        if bend[1] > 0:
            page = bend_page(page, corners, bender.uniform(*bend), bender)
        photos.append(
            {
                "image": photographed(
                    page, corners, rng, size, shade.uniform(*shadow) if shadow[1] > 0 else 0.0, shade
                ),
                "corners": seen_corners(page.shape[:2], corners, bend, bent, camera, size),
                "rules": rules,
                "givens": givens,
                "solution": solution,
                "written": written,
                "wrong": wrong,
                "hand": hand.name if isinstance(hand, Path) else "MNIST test set",
            }
        )
    return photos


def score(photos: list[dict], model: CellClassifier) -> tuple[Counter, Counter]:
    """Totals over the photos read by `model`, and the handwritten confusions ("true->read")."""
    totals, confusions = Counter(), Counter()
    for photo in photos:
        totals["photos"] += 1
        readings = read_grids(photo["image"], model)
        if not readings:
            totals["no_grid"] += 1
            continue
        reading = readings[0]
        probs = reading.probabilities
        decision = decide(reading, model=model)
        totals["givens_right"] += decision.givens == photo["givens"]
        written, givens = photo["written"], photo["givens"]
        for cell in range(81):
            if not givens[cell] and cell not in written:
                continue
            p = probs[cell]
            printed_kind = p[1:10].sum() >= p[10:19].sum()
            totals["marks"] += 1
            totals["kind_right"] += printed_kind == bool(givens[cell])
            totals["decided_kind_right"] += bool(decision.givens[cell]) == bool(givens[cell])
            if cell in written:
                totals["written"] += 1
                read = int(np.argmax(p))  # handwritten d is column 9 + d
                totals["written_right"] += read == 9 + written[cell]
                totals["digit_right"] += int(np.argmax(p[10:19])) + 1 == written[cell]
                if read != 9 + written[cell]:
                    confusions[f"h{written[cell]}->{CLASSES[read]}"] += 1
        entries = player_entries(reading, decision, model)
        totals["entries_right"] += sum(entries.entries[cell] == digit for cell, digit in written.items())
        totals["every_entry_right"] += all(entries.entries[cell] == digit for cell, digit in written.items())
        if decision.solution is None:
            totals["unsolved"] += 1
            continue
        solution, truth = decision.solution, photo["solution"]
        totals["solved_wrong"] += solution != truth
        unclear = {u.cell for u in entries.unclear}
        for cell, digit in written.items():
            mistake = bool(entries.sure[cell]) and entries.sure[cell] != solution[cell]
            if digit == truth[cell]:
                totals["false_mistakes"] += mistake
                totals["unclear_right_entries"] += cell in unclear
            else:
                totals["wrong_written"] += 1
                totals["wrong_caught"] += mistake or cell in unclear
                totals["wrong_called_mistake"] += mistake
                totals["wrong_passed_as_right"] += entries.sure[cell] == solution[cell]
    return totals, confusions


def save_photos(photos: list[dict], folder: Path, stem: str, truth_of: Callable[[dict], dict]) -> None:
    """Write each photo's ``image`` (BGR uint8) into `folder` as ``{stem}_N.jpg`` (JPEG quality 92), and
    ``truth.json``: per file name, ``truth_of(photo)``."""
    folder.mkdir(parents=True, exist_ok=True)
    truth = {}
    for index, photo in enumerate(photos):
        name = f"{stem}_{index}.jpg"
        cv2.imwrite(str(folder / name), photo["image"], [cv2.IMWRITE_JPEG_QUALITY, 92])
        truth[name] = truth_of(photo)
    (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")


def share_range(parser: argparse.ArgumentParser, option: str, text: str, most: float) -> tuple[float, float]:
    """A share ``X`` or a range ``LOW-HIGH`` of an option, each within 0..`most`: (low, high); else the parser's
    error (exit 2)."""
    try:
        low, _, high = text.partition("-")
        pair = (float(low), float(high or low))
    except ValueError:
        pair = (-1.0, -1.0)
    if not 0 <= pair[0] <= pair[1] <= most:
        parser.error(f"{option}: expected a share 0..{most:g} or a range LOW-HIGH, not {text!r}")
    return pair


def photo_size(parser: argparse.ArgumentParser, text: str) -> tuple[int, int]:
    """A ``--size`` of ``WIDTHxHEIGHT`` pixels, each at least 160: (width, height); else the parser's error (exit 2)."""
    try:
        size = tuple(int(v) for v in text.lower().split("x"))
    except ValueError:
        size = ()
    if len(size) != 2 or min(size) < 160:
        parser.error(f"--size: expected WIDTHxHEIGHT of at least 160 pixels each, not {text!r}")
    return size[0], size[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument(
        "--extra-givens",
        type=int,
        default=10,
        help="print this many more of each puzzle's solution digits (default 10: newspaper puzzles have about 28 "
        "givens, a third of them not needed; top1465's have about 18, all needed; 0 gives the earlier photos)",
    )
    parser.add_argument(
        "--hands",
        choices=("all", "debian", "npm", "mnist"),
        default="all",
        help="held-out handwriting faces to write in: all 20, Debian's 8 or "
        "the npm registry's 12 Fontsource faces; or 'mnist': real digits of MNIST's test set, whose writers are "
        "never trained on, each entry drawn from them at random (default all)",
    )
    parser.add_argument(
        "--pens",
        default=",".join(PENS),
        help=f"comma-separated inks the player writes in, one per photo: of {', '.join(BENCHMARK_INKS)} "
        f"(default {','.join(PENS)}; 'pencil' is a grey pencil writing whole entries)",
    )
    parser.add_argument(
        "--size",
        default="x".join(map(str, SIZE)),
        help="the photos' WIDTHxHEIGHT in pixels (default %(default)s; the grid fills 80%% of the height: "
        "640x480 for a small photo, 4000x3000 for a 12-megapixel one, the page then enlarged)",
    )
    parser.add_argument(
        "--fill",
        default="-".join(map(str, FILL)),
        help="share of the empty cells written in, or a range LOW-HIGH drawn per photo (default %(default)s; "
        "1 for finished grids)",
    )
    parser.add_argument(
        "--bend",
        default="0",
        help="how deep each page is bent into a cylinder (a curled newspaper): the sagitta as a share of the "
        "grid's side, or a range LOW-HIGH drawn per photo (default 0, flat; 0.1-0.2 is a strongly bent page)",
    )
    parser.add_argument(
        "--shadow",
        default="0",
        help="how dark a shadow cast across the grid is (a phone's or a hand's, a straight or rounded edge with "
        "a sharp to soft penumbra): the share of light it takes, or a range LOW-HIGH drawn per photo "
        "(default 0, none; 0.3-0.6 is a plain shadow)",
    )
    parser.add_argument(
        "--model",
        type=Path,
        action="append",
        default=[],
        help="model file to read with (repeatable; default: the installed model)",
    )
    args = parser.parse_args()
    pens = tuple(args.pens.split(","))
    size = photo_size(parser, args.size)
    fill = share_range(parser, "--fill", args.fill, 1.0)
    bend = share_range(parser, "--bend", args.bend, 0.3)
    shadow = share_range(parser, "--shadow", args.shadow, 0.9)
    if not pens or any(pen not in BENCHMARK_INKS for pen in pens):
        parser.error(f"--pens: each ink must be one of {', '.join(BENCHMARK_INKS)}")
    try:
        start = time.perf_counter()
        photos = make_photos(args.photos, args.seed, args.extra_givens, args.hands, pens, size, fill, bend, shadow)
    except (FontListError, MnistMissingError) as exc:
        print(f"handwriting.py: {exc}", file=sys.stderr)
        return 1
    print(
        f"{len(photos)} photos (seed {args.seed}, {args.extra_givens} extra givens, {args.hands} held-out hands, "
        f"{'/'.join(pens)} ink, {size[0]}x{size[1]}, {fill[0]:g}-{fill[1]:g} of the empty cells written, "
        f"bent {bend[0]:g}-{bend[1]:g}, shadow {shadow[0]:g}-{shadow[1]:g}), "
        f"{sum(len(p['written']) for p in photos)} written digits "
        f"({sum(len(p['wrong']) for p in photos)} deliberately wrong), made in {time.perf_counter() - start:.0f} s"
    )
    models = [(str(path), CellClassifier.load(path)) for path in args.model] or [("installed", default_model())]
    for name, model in models:
        t, confusions = score(photos, model)
        print(f"{name}:")
        print(
            f"  handwritten digits read right: {t['written_right']}/{t['written']} "
            f"({100 * t['written_right'] / max(t['written'], 1):.2f}%)"
        )
        print(
            f"  the handwritten-digit model alone (most probable of h1-h9): {t['digit_right']}/{t['written']} "
            f"({100 * t['digit_right'] / max(t['written'], 1):.2f}%)"
        )
        print(
            f"  entries read right (after the decision, as `snapsolve evaluate` counts handwritten digits): "
            f"{t['entries_right']}/{t['written']} ({100 * t['entries_right'] / max(t['written'], 1):.2f}%)"
        )
        print(
            f"  printed vs written right: classifier {t['kind_right']}/{t['marks']} "
            f"({100 * t['kind_right'] / max(t['marks'], 1):.2f}%), after the per-grid decision "
            f"{t['decided_kind_right']}/{t['marks']} ({100 * t['decided_kind_right'] / max(t['marks'], 1):.2f}%)"
        )
        print(
            f"  every printed given right: {t['givens_right']}/{t['photos']} photos "
            f"(no grid {t['no_grid']}, not solved {t['unsolved']}, solved wrong {t['solved_wrong']})"
        )
        print(f"  every entry read right: {t['every_entry_right']}/{t['photos']} photos")
        print(
            f"  false mistakes: {t['false_mistakes']}; right entries asked about (unclear): "
            f"{t['unclear_right_entries']}; wrong digits caught: {t['wrong_caught']}/{t['wrong_written']} "
            f"({t['wrong_called_mistake']} called mistakes, {t['wrong_passed_as_right']} passed as right)"
        )
        print("  confusions: " + ", ".join(f"{k} x{v}" for k, v in confusions.most_common(10)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
