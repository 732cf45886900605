"""Cells: find the mark in each of the 81 cells of a rectified grid and measure it.

The rectified grid (`vision.rectify`, ruling at multiples of CELL_SIZE) is
binarized with an adaptive threshold, so shadows and uneven light do not
matter, and the ruled lines are removed: long strokes found by morphological
opening (less the strokes of digits written up to a line, which continue the
line's ink), and the rows and columns at the known line positions that ink
covers along most of the grid (a faint or blurred line breaks into dashes that
the opening misses). Where a digit crosses a ruled line, the line's pixels
between its two halves are put back, so a handwritten digit that runs over its
cell's border stays one piece (but not where that would join two cells'
digits written up to their shared line). Each connected piece of ink then
belongs to the cell that holds most of it: a digit that overflows into its
neighbour is still read in its own cell and leaves nothing behind in the
other. Leftovers of the ruling (thin strokes along a line), shadow edges,
specks, and marks much fainter than the darkest mark of the same cell (print
showing through from the other side of the page behind a pencilled digit) are
dropped.

What is left in a cell is its *mark*, described by `MARK_FEATURES` (size and
position in the cell, ink area, number of pieces, contrast relative to the
grid's print, stroke width): enough to tell a printed given, a handwritten
digit, small pencilled candidates, faint show-through and an empty cell apart
(`vision.digits`). The mark's central piece is also cropped for reading its
digit.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from .lighting import paper_level
from .rectify import CELL_SIZE, rotate_cells
from .ruling import extract_lines

#: Names of the columns of `CellMarks.features`, in order. Sizes and positions
#: are shares of a cell; `relative_contrast` is the mark's contrast over the
#: grid's typical digit contrast; `stroke_width` is twice the mean distance
#: from ink to paper inside the mark, as a share of a cell.
MARK_FEATURES = (
    "height",
    "width",
    "centre_x",
    "centre_y",
    "ink_area",
    "pieces",
    "largest_height",
    "relative_contrast",
    "stroke_width",
)

#: Ink must also stand out from a morphological closing over this share of a
#: cell (black-hat transform) by more than BLACKHAT_LEVEL grey levels: thin
#: dark strokes do, the edge of a shadow does not.
BLACKHAT = 0.25
BLACKHAT_LEVEL = 4
#: A cell's paper is not one grey level when its level (`_shadowed_cells`) varies within it by at least this
#: share of its brightest: a shadow's edge crosses it, and its mark's crop is measured against the paper
#: beside each pixel (`_digit_crop`). (With the cell's one level, print on the shadow's edge took the bright
#: side's paper for faint ink or lost the dark side's strokes, and looked unlike the grid's other copies of
#: its digit: taken for the player's pen.)
SHADOW_STEP = 0.15
#: Pieces of ink smaller than this share of a cell's area are noise.
MIN_PIECE_AREA = 0.002
#: Pieces larger than this (cells, either side) are not one cell's mark.
MAX_PIECE_SIDE = 1.3
#: A piece lying wholly within this share of a cell of a ruled line is a leftover of the ruling.
RULING_BAND = 0.12
#: A long run of ink that the line-shaped opening found, whose middle lies
#: farther than this share of a cell from every ruled line's known position and
#: which is shorter than MAX_PIECE_SIDE cells, is a digit's stroke that reached
#: a line (a 1 written up to its cell's top line makes a vertical run as long
#: as a line's), not ruling (`ruling_of`).
STROKE_INSIDE = 0.2
#: Rows (columns) within this share of a cell of a ruled line's position are
#: ruling where ink covers at least LINE_ROW_COVERAGE of the grid's width.
LINE_REACH = 0.1
LINE_ROW_COVERAGE = 0.3
#: A ruled line's own band, measured over ALONG_WINDOW cells of it at a time (`strokes_along_lines`): the rows
#: inked along at least BAND_SHARE of the most inked row's share there; a stretch whose most inked row covers
#: less than MIN_BAND_COVERAGE of it has no band of its own (all its rows are the line's). Ink running on
#: from the band for BEYOND_BAND rows or more in a column is a stroke on the line.
ALONG_WINDOW = 3
BAND_SHARE = 0.5
MIN_BAND_COVERAGE = 0.2
BEYOND_BAND = 2
#: A stroke along a line is kept only when it joins a piece with at least this share of a cell's area of ink
#: inside a cell, clear of the lines' strips (a digit's body, not a speck of the paper's grain), whose
#: bounding box comes within NEAR_LINE of a cell of a line's known position.
ANCHOR_AREA = 0.05
NEAR_LINE = 0.12
#: Within this share of a cell of a line's known position, the lines across it pass: no stroke along a line is
#: looked for there.
CROSSING = LINE_REACH
#: Half the height, pixels, of the strip `strokes_along_lines` measures around each line's known position: the
#: coverage rule's reach (LINE_REACH) and the ruling's widening, with a pixel to spare.
STRIP_REACH = int(round(LINE_REACH * CELL_SIZE)) + 2
#: A piece fainter than this share of its cell's darkest piece shows through from the other side.
MIN_RELATIVE_PIECE_CONTRAST = 0.5
#: A piece smaller than this share of its cell's largest piece, and not next to it, is a speck.
SPECK_SHARE = 0.3
#: "Next to" for specks: within this share of a cell of the largest piece's bounding box.
SPECK_GAP = 0.08
#: The digit crop keeps the pieces centred in this central share of the cell (when there are any).
CENTRAL = (0.25, 0.75)
#: ... and the pieces that reach within this share of a cell of those pieces' bounding box: a part of the same
#: digit written as a stroke of its own (a 5's top bar, a 4's upright, a 3's top arc that the photo broke off),
#: whose own centre lies off the cell's middle.
ATTACHED_GAP = 0.03


@dataclass(frozen=True)
class CellMarks:
    """The marks found in the 81 cells of a rectified grid.

    Attributes
    ----------
    present : np.ndarray
        Shape (81,), bool: the cell holds a mark.
    features : np.ndarray
        Shape (81, len(MARK_FEATURES)), float32: the mark's description
        (zeros where there is none).
    crops : list
        81 entries: a uint8 ink-strength crop (0 paper .. 255 darkest ink) of
        the mark's central piece(s), tight around them, or None where there
        is no mark.
    at_ruling : np.ndarray
        Shape (81,), bool: the mark's strokes border ink taken away as ruling
        (at least RULING_CONTACT pixels next to it), so a stroke of it may
        have gone with a ruled line (`reaches_a_line` for the other test).
    """

    present: np.ndarray
    features: np.ndarray
    crops: list
    at_ruling: np.ndarray

    def turned(self, rotation: int) -> CellMarks:
        """The same marks as read after turning the grid image by `rotation` degrees counter-clockwise.

        Cell order follows `vision.rectify.rotate_cells`; crops and the
        features that depend on direction (`turn_features`) are turned with them.
        """
        turns = (rotation // 90) % 4
        if turns == 0:
            return self
        order = rotate_cells(np.arange(81), rotation)
        features = turn_features(self.features[order], turns)
        features[~self.present[order]] = 0.0
        crops = [
            None if self.crops[i] is None else np.ascontiguousarray(np.rot90(self.crops[i], k=turns)) for i in order
        ]
        return CellMarks(self.present[order], features, crops, self.at_ruling[order])


def turn_features(features: np.ndarray, turns: int) -> np.ndarray:
    """Mark features (n, len(MARK_FEATURES)) of marks turned by `turns` quarter turns counter-clockwise.

    Height and width swap; the centre (x, y), as a share of the cell, goes
    to (y, 1 - x) per quarter turn. Returns a new float32 array.
    """
    out = np.array(features, np.float32, copy=True)
    h, w, x, y = (MARK_FEATURES.index(n) for n in ("height", "width", "centre_x", "centre_y"))
    for _ in range(turns % 4):
        out[:, [h, w]] = out[:, [w, h]]
        out[:, [x, y]] = np.stack([out[:, y], 1.0 - out[:, x]], axis=1)
    return out


def binarize_grid(grid_image: np.ndarray) -> np.ndarray:
    """Ink mask of a rectified grid (255 = ink), ruling included.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray.

    Returns
    -------
    np.ndarray
        Same shape, uint8: 255 where darker than the local mean (an
        adaptive threshold over half a cell) by more than 9 grey levels and
        darker than its surroundings closed over a quarter cell (black-hat) by
        more than BLACKHAT_LEVEL: shadows and their edges are no ink.
    """
    block = (CELL_SIZE // 2) | 1
    blurred = cv2.GaussianBlur(grid_image, (3, 3), 0)
    ink = cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 9)
    size = int(BLACKHAT * CELL_SIZE) | 1
    closed = _ellipse_morphology(_ellipse_morphology(blurred, size, cv2.dilate, cv2.max), size, cv2.erode, cv2.min)
    dark = cv2.subtract(closed, blurred)  # the black-hat transform (closing less the image)
    return cv2.bitwise_and(ink, cv2.threshold(dark, BLACKHAT_LEVEL, 255, cv2.THRESH_BINARY)[1])


@functools.cache
def _ellipse_steps(size: int) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The one-dimensional kernels of `_ellipse_morphology` for OpenCV's size x size ellipse (`size` odd).

    The ellipse (``cv2.getStructuringElement(cv2.MORPH_ELLIPSE, ...)``) is the
    union of centred rectangles, one per distinct row width, each as tall as
    the rows at least that wide: narrowest and tallest first. Returns the
    row kernel of the first rectangle's width; for each further rectangle, a
    row kernel widening the last one's rows to its width and a column kernel
    shortening the one before to its height; and the column kernel of the
    last (widest) rectangle's height. All MORPH_RECT, uint8.
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    widths = kernel.sum(axis=1)
    rects = [
        (w, 2 * int(np.abs(np.flatnonzero(widths >= w) - size // 2).max()) + 1) for w in sorted(set(widths.tolist()))
    ]
    rect = lambda w, h: cv2.getStructuringElement(cv2.MORPH_RECT, (w, h))  # noqa: E731
    steps = [(rect(w - w0 + 1, 1), rect(1, h0 - h + 1)) for (w0, h0), (w, h) in zip(rects[:-1], rects[1:])]
    return rect(rects[0][0], 1), steps, rect(1, rects[-1][1])


def _ellipse_morphology(image: np.ndarray, size: int, operation, join) -> np.ndarray:
    """`cv2.dilate` (`operation`, with `join` cv2.max) or `cv2.erode` (cv2.min) of `image` by OpenCV's size x
    size ellipse, as a chain of one-dimensional ones.

    The ellipse is a union of centred rectangles (`_ellipse_steps`), so the
    result is the max (min) of the image dilated (eroded) by each, and each
    rectangle is its rows then its columns; sharing the rows' widening and
    the columns' heights in a Horner-like chain takes some 50 one-pixel steps
    per pixel instead of the ellipse's 213 (for size 17), in about 2/3 of the
    time. Same values as OpenCV's, the image's edges included (OpenCV's
    default border leaves outside pixels out of the max and the min, and each
    one-dimensional step keeps every path between two pixels inside the image).
    Shape (H, W) uint8 in and out.
    """
    first, steps, last = _ellipse_steps(size)
    rows = chained = image if first.size == 1 else operation(image, first)
    for across, down in steps:
        rows = operation(rows, across)
        chained = join(operation(chained, down), rows)
    return operation(chained, last)


def ruling_of(ink: np.ndarray) -> np.ndarray:
    """The ruled lines of an ink mask, widened by a pixel.

    Strokes longer than 0.85 of a cell in one direction are ruling (digits,
    even a tall 1, are shorter): found by morphological opening, less the
    runs inside a cell that a digit's stroke made by reaching a line
    (`_without_strokes`). So are the
    rows and columns near a line's known position (a multiple of CELL_SIZE)
    that ink covers along LINE_ROW_COVERAGE of the grid or more, which catches
    a faint line that the threshold broke into dashes. The widening takes the
    lines' anti-aliased edges too. Those rows hold whatever else is written
    in them: `ink_and_strokes` gives back what lies beyond a line's own band
    and joins a digit's body (`strokes_along_lines`, `_with_strokes_along`).

    Parameters
    ----------
    ink : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 ink mask.

    Returns
    -------
    np.ndarray
        Same shape, uint8, 255 on the ruling.
    """
    n = CELL_SIZE
    length = int(n * 0.85)
    horizontal, vertical = extract_lines(ink, length)
    ruling = cv2.bitwise_or(_without_strokes(horizontal, across=0), _without_strokes(vertical, across=1))
    reach = int(round(LINE_REACH * n))
    size = ink.shape[0]
    marked = cv2.threshold(ink, 0, 1, cv2.THRESH_BINARY)[1]
    for axis in (0, 1):
        # The share of each row (axis 0) or column (1) that is ink: the mean of the 0/1 mask, float64.
        coverage = cv2.reduce(marked, 1 - axis, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() / marked.shape[1 - axis]
        for k in range(10):
            lo, hi = max(0, k * n - reach), min(size, k * n + reach + 1)
            lines = lo + np.flatnonzero(coverage[lo:hi] >= LINE_ROW_COVERAGE)
            if axis == 0:
                ruling[lines, :] = np.maximum(ruling[lines, :], ink[lines, :])
            else:
                ruling[:, lines] = np.maximum(ruling[:, lines], ink[:, lines])
    return cv2.dilate(ruling, np.ones((3, 3), np.uint8))


def _noise(stats: np.ndarray) -> np.ndarray:
    """Which pieces (`_components` stats, one row a label) cannot be a cell's mark: too small, too large, lying
    wholly in a ruled line's band, or a long thin stroke along a line. Shape (count,) bool; the background too."""
    n = CELL_SIZE
    x, y, w, h, area = (stats[:, i] for i in range(5))
    long_side, short_side = np.maximum(w, h), np.minimum(w, h)
    noise = (area < MIN_PIECE_AREA * n * n) | (long_side > MAX_PIECE_SIDE * n)
    noise |= _in_ruling_band(y, h) | _in_ruling_band(x, w)
    # A long thin stroke along a ruled line (a line's remnant where the page bends) is no digit; a 1 can be as
    # long and thin (MNIST's test writers' 1s: 6 px wide, 34-41 px long in a 64-pixel cell), but lies inside
    # its cell (STROKE_INSIDE).
    thin = (long_side > 5 * short_side) & (short_side < 0.12 * n) & (long_side > 0.5 * n)
    across = np.where(w < h, x + w / 2, y + h / 2)  # the middle of a vertical stroke's columns, a horizontal one's rows
    noise |= thin & (np.abs(across - _nearest_line(across)) <= STROKE_INSIDE * n)
    noise[0] = True  # the background
    return noise


def _bodies(components: tuple) -> np.ndarray:
    """Which pieces of strokes (`_components`' result) are a digit's body near a ruled line, whose stroke along
    the line may have gone with the ruling: pieces that can be a mark (`_noise`) with ANCHOR_AREA of their ink
    inside a cell, clear of the lines' strips (`_cell_interiors`), and whose bounding box comes within
    NEAR_LINE of a line's known position. Shape (count,) bool."""
    count, _, stats, xs, ys, pixel_labels = components
    n = CELL_SIZE
    interior = _cell_interiors(n * 9)[ys, xs] > 0
    inside = np.bincount(pixel_labels[interior], minlength=count)
    x, y, w, h = (stats[:, i] for i in range(4))
    reach = NEAR_LINE * n
    near = (y % n < reach) | ((y + h) % n > n - reach) | (x % n < reach) | ((x + w) % n > n - reach)
    near |= (y // n != (y + h - 1) // n) | (x // n != (x + w - 1) // n)  # it crosses a line
    return ~_noise(stats) & (inside >= ANCHOR_AREA * n * n) & near


def _anchored(along: np.ndarray, strokes: np.ndarray, components: tuple, bodies: np.ndarray) -> np.ndarray:
    """The pieces of `along` (uint8 0/255) joined to a digit's body: a piece of `strokes` flagged in `bodies`.

    `components` is `_components(strokes)`. A stretch of a ruled line
    that runs thicker than its band where no digit touches it (a border bent
    away from its known position, a shadow's edge, the grain of the paper
    beside a line) joins no body and stays ruling. `along` is grown as
    `strokes_of` closes a stroke across a line (BRIDGE), so that a 7's bar
    above its top line joins the stem below it. Returns the same shape,
    uint8 0/255.
    """
    xs, ys, pixel_labels = components[3:]
    body = bodies[pixel_labels]
    grown = cv2.dilate(along, np.ones((BRIDGE, BRIDGE), np.uint8))
    count, joined = cv2.connectedComponents(cv2.bitwise_or(grown, strokes), connectivity=8)
    anchored = np.zeros(count, bool)
    anchored[joined[ys[body], xs[body]]] = True
    anchored[0] = False
    out = np.zeros_like(along)
    points = cv2.findNonZero(along)
    if points is None:
        return out
    ax, ay = points.reshape(-1, 2).T
    keep = anchored[joined[ay, ax]]
    out[ay[keep], ax[keep]] = 255
    return out


def _with_strokes_along(ink: np.ndarray, ruling: np.ndarray, strokes: np.ndarray) -> tuple[np.ndarray, tuple]:
    """`strokes` with the strokes written along a ruled line given back, and `_components` of the result.

    Only where a digit's body comes near a line (`_bodies`) is anything
    looked for (printed digits, centred in their cells, seldom are): the ink
    of the ruling beyond the lines' own bands (`strokes_along_lines`) that
    joins such a body (`_anchored`) is taken off the ruling, and the strokes
    are made again from the rest (`strokes_of`, which bridges the line
    between a stroke's two sides). Shapes as `strokes_of`'s; the components
    as `_components` returns them.
    """
    components = _components(strokes)
    bodies = _bodies(components)
    if not bodies.any():
        return strokes, components
    along = cv2.bitwise_and(ruling, strokes_along_lines(ink))
    kept = _anchored(along, strokes, components, bodies) if along.any() else along
    if not kept.any():
        return strokes, components
    strokes = strokes_of(ink, cv2.subtract(ruling, kept))
    return strokes, _components(strokes)


@functools.cache
def _cell_interiors(size: int) -> np.ndarray:
    """(size, size) uint8, read-only: 255 farther than STRIP_REACH from every line's known position, rows and
    columns alike; 0 within them."""
    offset = np.arange(size) % CELL_SIZE
    clear = (offset > STRIP_REACH) & (offset < CELL_SIZE - STRIP_REACH)
    out = (clear[:, None] & clear[None, :]).astype(np.uint8) * 255
    out.flags.writeable = False
    return out


def strokes_along_lines(ink: np.ndarray) -> np.ndarray:
    """Ink near the ruled lines that may be a stroke's, not a line's: what lies beyond each line's own band.

    The coverage rule of `ruling_of` takes all the ink of the rows near a
    line's known position where the line is; a stroke written along the
    line (a 7's bar over its cell's top line, a 2's base on the bottom line)
    lies in those rows too and would go with the ruling, and what is left
    reads as another digit (the 7 as a 1). Each line's own band is measured
    a cell-wide segment at a time over ALONG_WINDOW cells: the rows whose
    share of ink there is at least BAND_SHARE of the most inked row's (a
    segment where no row reaches MIN_BAND_COVERAGE has the whole strip as
    its band). In each column the ink running on from the band's edges, up
    and down without a gap, is counted; where it comes to BEYOND_BAND rows or
    more (one row more is the line's own anti-aliased edge) the ink outside
    the band is a stroke's, and so is ink at least two rows clear of the
    band. Where the lines across pass (CROSSING of a line's known position)
    nothing is a stroke. `_with_strokes_along` keeps only what joins a
    digit's body (`_anchored`); `strokes_of` then bridges the line between
    a stroke's two sides as for any stroke that crosses it.

    Parameters
    ----------
    ink : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 ink mask (255 = ink).

    Returns
    -------
    np.ndarray
        Same shape, uint8: 255 on such ink in the lines' strips (STRIP_REACH
        pixels each side of a line's known position), 0 elsewhere.
    """
    n = CELL_SIZE
    size = ink.shape[0]
    rows = 2 * STRIP_REACH + 1
    segments = size // n
    marked = ink > 0
    # (2, lines, rows, size): the strip around each horizontal line's position, then each vertical one's (as rows).
    lines = np.zeros((2, segments + 1, rows, size), bool)
    # Per line: its strip's rows in the grid (lo:hi, cut at the grid's edge) and in the strip (a:b).
    spans = []
    for k in range(segments + 1):
        lo, hi = max(0, k * n - STRIP_REACH), min(size, k * n + STRIP_REACH + 1)
        a = lo - (k * n - STRIP_REACH)
        spans.append((k, lo, hi, slice(a, a + hi - lo)))
    for k, lo, hi, inside in spans:
        lines[0, k, inside] = marked[lo:hi]
        lines[1, k, inside] = marked[:, lo:hi].T
    # Where the other orientation's lines cross: never a stroke along this one.
    offset = np.arange(size) % n
    lines[:, :, :, (offset <= CROSSING * n) | (offset >= n - CROSSING * n)] = False
    # Ink per row of each cell-wide segment, then over ALONG_WINDOW segments centred on each (fewer at the ends).
    per_segment = lines.reshape(lines.shape[:3] + (segments, n)).sum(axis=4, dtype=np.int32)
    half = (ALONG_WINDOW - 1) // 2
    window = np.zeros_like(per_segment)
    widths = np.zeros(segments, np.int32)
    for shift in range(-half, half + 1):
        lo, hi = max(0, -shift), min(segments, segments - shift)
        window[..., lo:hi] += per_segment[..., lo + shift : hi + shift]
        widths[lo:hi] += n
    coverage = window / widths  # (2, lines, rows, segments)
    top = coverage.max(axis=2, keepdims=True)
    segment_band = (coverage >= BAND_SHARE * top) | (top < MIN_BAND_COVERAGE)
    band = np.repeat(segment_band, n, axis=3)  # (2, lines, rows, size)
    outside = lines & ~band
    first = np.repeat(np.argmax(segment_band, axis=2), n, axis=2)  # (2, lines, size): the band's first and last rows
    last = rows - 1 - np.repeat(np.argmax(segment_band[:, :, ::-1], axis=2), n, axis=2)
    # Consecutive ink rows ending at each row, counted downwards and upwards.
    down = np.zeros(outside.shape, np.int16)
    up = np.zeros(outside.shape, np.int16)
    down[:, :, 0] = outside[:, :, 0]
    up[:, :, -1] = outside[:, :, -1]
    for r in range(1, rows):
        down[:, :, r] = (down[:, :, r - 1] + 1) * outside[:, :, r]
        up[:, :, rows - 1 - r] = (up[:, :, rows - r] + 1) * outside[:, :, rows - 1 - r]
    above = np.where(first > 0, np.take_along_axis(down, np.maximum(first - 1, 0)[:, :, None], axis=2)[:, :, 0], 0)
    below = np.where(
        last < rows - 1, np.take_along_axis(up, np.minimum(last + 1, rows - 1)[:, :, None], axis=2)[:, :, 0], 0
    )
    thick = (above + below) >= BEYOND_BAND
    grown = band.copy()
    grown[:, :, 1:] |= band[:, :, :-1]
    grown[:, :, :-1] |= band[:, :, 1:]
    along = outside & (thick[:, :, None, :] | ~grown)
    out = np.zeros(ink.shape, bool)
    for k, lo, hi, inside in spans:
        out[lo:hi] |= along[0, k, inside]
        out[:, lo:hi] |= along[1, k, inside].T
    return out.astype(np.uint8) * 255


def _without_strokes(lines: np.ndarray, across: int) -> np.ndarray:
    """An opening's line mask without the runs that are a digit's stroke (STROKE_INSIDE).

    A stroke that reaches a ruled line at a right angle continues the line's
    own ink: a 1 written up to its cell's top line and the line's width above
    it make a vertical run longer than the opening's length, and the opening
    keeps the 1 as ruling (`strokes_of` then leaves a sliver of it). Such a
    run lies inside a cell, away from every line's known position (a
    multiple of CELL_SIZE), and is shorter than a line. Only when the mask
    has ink inside the cells are its pieces labelled (`_components`).

    Parameters
    ----------
    lines : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 0/255: horizontal lines
        (``across=0``: their position is a row) or vertical ones
        (``across=1``: a column), as `vision.ruling.extract_lines` returns them.
    across : int
        0 for horizontal lines, 1 for vertical ones.

    Returns
    -------
    np.ndarray
        Same shape and dtype: `lines` itself when nothing is removed.
    """
    n = CELL_SIZE
    # the largest value of each row (across 0) or column (across 1)
    profile = cv2.reduce(lines, 1 - across, cv2.REDUCE_MAX).ravel()
    offset = np.arange(profile.size) % n
    inside = (offset > STROKE_INSIDE * n) & (offset < (1 - STROKE_INSIDE) * n)
    if not profile[inside].any():
        return lines
    _, labels, stats, *_ = _components(lines)
    start, size = (stats[:, 1], stats[:, 3]) if across == 0 else (stats[:, 0], stats[:, 2])
    length = stats[:, 2] if across == 0 else stats[:, 3]
    middle = start + size / 2
    off_line = np.abs(middle - _nearest_line(middle)) > STROKE_INSIDE * n
    stroke = off_line & (length < MAX_PIECE_SIDE * n)
    stroke[0] = False  # the background
    if not stroke.any():
        return lines
    return np.where(stroke[labels], 0, lines).astype(np.uint8)


#: Side, pixels, of the square closing that bridges a stroke cut by a ruled line (`strokes_of`).
BRIDGE = 7
#: A mark with at least this many stroke pixels next to ink taken away as
#: ruling touches a ruled line (`CellMarks.at_ruling`): a 2 whose base ran
#: along the grid's bottom line, a few pixels above it, lost the base with the
#: ruling and was read as a sure 7 (a false mistake: photo 23 of
#: `benchmarks/handwriting.py --seed 211 --extra-givens 10 --hands mnist`),
#: though what was left stayed 0.17 of a cell from every edge.
RULING_CONTACT = 3
#: A mark whose bounding box comes nearer than this share of a cell to the
#: cell's edge reaches a ruled line (`reaches_a_line`).
LINE_TOUCH = 0.05


def reaches_a_line(features: np.ndarray) -> np.ndarray:
    """Whether each mark reaches a ruled line of its cell, where a stroke of it may be lost.

    `strokes_of` puts the ruling back only where a stroke crosses it: a
    stroke that lies along a ruled line (a 2's base written on the cell's
    bottom line, a 7's bar on its top line) goes with the ruling, and what is
    left can read as another digit (that 2 as a 7). A mark whose bounding box
    comes within LINE_TOUCH of its cell's edge may be such a mark.

    Parameters
    ----------
    features : np.ndarray
        Shape (n, len(MARK_FEATURES)), float: marks as `find_marks` describes them.

    Returns
    -------
    np.ndarray
        Shape (n,), bool.
    """
    f = np.asarray(features, np.float64).reshape(-1, len(MARK_FEATURES))
    half_w = f[:, MARK_FEATURES.index("width")] / 2
    half_h = f[:, MARK_FEATURES.index("height")] / 2
    x, y = f[:, MARK_FEATURES.index("centre_x")], f[:, MARK_FEATURES.index("centre_y")]
    margin = np.minimum.reduce([x - half_w, 1.0 - x - half_w, y - half_h, 1.0 - y - half_h])
    return margin < LINE_TOUCH


def strokes_of(ink: np.ndarray, ruling: np.ndarray) -> np.ndarray:
    """Ink without the ruling, with the ruling put back where a stroke crosses it.

    A BRIDGE x BRIDGE closing of the strokes joins the two halves of a stroke cut by a
    line; only the closed pixels that lie on the ruling are kept, so separate
    marks elsewhere are not merged. A bridge so put back that makes a piece
    larger than MAX_PIECE_SIDE cells joins two cells' marks (digits written
    up to their shared line from both sides, which `find_marks` would drop
    together as too large), and is left out.

    Parameters
    ----------
    ink, ruling : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 0/255: the ink mask and its
        ruling (`ruling_of`).

    Returns
    -------
    np.ndarray
        Same shape, uint8 0/255.
    """
    strokes = cv2.bitwise_and(ink, cv2.bitwise_not(ruling))
    closed = cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, np.ones((BRIDGE, BRIDGE), np.uint8))
    bridges = cv2.bitwise_and(closed, ruling)
    joined = cv2.bitwise_or(strokes, bridges)
    if not bridges.any():
        return joined
    _, labels, stats, *_ = _components(joined)
    too_large = np.maximum(stats[:, 2], stats[:, 3]) > MAX_PIECE_SIDE * CELL_SIZE
    too_large[0] = False  # the background
    if too_large.any():
        joined[(bridges > 0) & too_large[labels]] = 0
    return joined


#: The last grid measured by `_strokes_of_grid` and its results: (grid image, ink, strokes, the strokes'
#: `_components`), the arrays read-only.
_last_strokes: tuple | None = None


def _strokes_of_grid(grid_image: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple]:
    """`ink_and_strokes`, and the strokes' `_components` (which `find_marks` labels its pieces by)."""
    global _last_strokes
    last = _last_strokes
    if last is not None and last[0].shape == grid_image.shape and np.array_equal(last[0], grid_image):
        return last[1], last[2], last[3]
    ink = binarize_grid(grid_image)
    ruling = ruling_of(ink)
    strokes, components = _with_strokes_along(ink, ruling, strokes_of(ink, ruling))
    for array in (ink, strokes, *components[1:]):
        array.flags.writeable = False
    _last_strokes = (grid_image.copy(), ink, strokes, components)
    return ink, strokes, components


def ink_and_strokes(grid_image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ink mask (`binarize_grid`) of a rectified grid and its strokes without the ruling (`strokes_of`),
    strokes written along a line beside it given back (`_with_strokes_along`).

    The last grid's are kept: `vision.pencil.read_pencil_marks` asks again
    for the grid that `find_marks` has just measured (an upright photo's), and
    gets them without measuring them again. The cache holds one grid, is
    compared by its pixels (the same values for the same pixels, whatever
    array holds them) and hands out read-only arrays.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray, as for `find_marks`.

    Returns
    -------
    (np.ndarray, np.ndarray)
        The ink and the strokes, each the grid's shape, uint8 0/255, read-only.
    """
    ink, strokes, _ = _strokes_of_grid(grid_image)
    return ink, strokes


def _in_ruling_band(start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """True where a span [start, start + length) lies within RULING_BAND of the nearest ruled line."""
    line = _nearest_line(start + length / 2)
    band = RULING_BAND * CELL_SIZE
    return (start >= line - band) & (start + length <= line + band)


def _nearest_line(position: np.ndarray) -> np.ndarray:
    """The known position of the ruled line nearest each `position` (pixels along one axis of the rectified
    grid, any shape): the nearest multiple of CELL_SIZE, float64, same shape."""
    return np.round(np.asarray(position, np.float64) / CELL_SIZE) * CELL_SIZE


def _components(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Connected pieces of an ink mask: `cv2.connectedComponentsWithStats` without the centroids, and the ink.

    OpenCV labels the pieces (``cv2.connectedComponents``, 8-connectivity);
    their stats are measured here over the ink pixels alone, which costs a
    fraction of OpenCV's measuring every pixel of the image (about 7 of its
    8 ms for a 576 x 576 grid on a machine whose benchmark yardstick loop
    takes 80 ms).

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8, nonzero = ink.

    Returns
    -------
    (count, labels, stats, xs, ys, pixel_labels)
        The number of labels (the background, 0, included); the label image
        (H, W) int32; the stats (count, 5) int32: per label its bounding
        box's left x, top y, width and height, and its area in pixels
        (``cv2.CC_STAT_LEFT`` .. ``cv2.CC_STAT_AREA``), the same values as
        ``cv2.connectedComponentsWithStats(ink, connectivity=8)``'s, the
        background's row included (zeros for an image without background,
        where OpenCV's holds its unset extremes); and the ink pixels in raster order, each
        shape (k,): x and y int64, label int32.
    """
    count, labels = cv2.connectedComponents(ink, connectivity=8)
    h, w = labels.shape
    xs, ys, label = _ink_pixels(ink, labels)
    stats = np.zeros((count, 5), np.int32)
    if label.size:
        left = np.full(count, w, np.int64)
        right = np.full(count, -1, np.int64)
        top = np.full(count, h, np.int64)
        bottom = np.full(count, -1, np.int64)
        np.minimum.at(left, label, xs)
        np.maximum.at(right, label, xs)
        np.minimum.at(top, label, ys)
        np.maximum.at(bottom, label, ys)
        stats[1:, 0] = left[1:]
        stats[1:, 1] = top[1:]
        stats[1:, 2] = right[1:] - left[1:] + 1
        stats[1:, 3] = bottom[1:] - top[1:] + 1
        stats[:, 4] = np.bincount(label, minlength=count)
    # The background: the rows and columns not wholly ink (an all-ink image has no background pixel: zeros).
    rows = np.flatnonzero(np.bincount(ys, minlength=h) < w)
    cols = np.flatnonzero(np.bincount(xs, minlength=w) < h)
    if rows.size:
        stats[0] = (cols[0], rows[0], cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1, h * w - label.size)
    return count, labels, stats, xs, ys, label


def _ink_pixels(ink: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nonzero pixels of `ink` in raster order: x, y (int64) and their label in `labels` (int32), each (k,)."""
    points = cv2.findNonZero(ink)
    if points is None:
        empty = np.zeros(0, np.int64)
        return empty, empty, np.zeros(0, np.int32)
    xs, ys = points.reshape(-1, 2).T.astype(np.int64)
    return xs, ys, labels[ys, xs]


def _pieces(
    strokes: np.ndarray, gray: np.ndarray, components: tuple | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Connected pieces of ink that can belong to a cell's mark.

    `components`, when given, is `_components(strokes)` already measured.

    Returns
    -------
    (labels, stats, cell, darkness)
        The label image (int32) and stats of `cv2.connectedComponentsWithStats`
        (measured by `_components`); per label, the cell (0..80)
        holding most of its pixels, or -1 for a piece that is noise, ruling or
        too large (and the background); and its mean grey level (0 for those).
    """
    count, labels, stats, xs, ys, pixel_labels = _components(strokes) if components is None else components
    n = CELL_SIZE
    area = stats[:, 4]
    noise = _noise(stats)
    # Cell and darkness of the other pieces only, from their pixels (in raster order).
    kept = ~noise[pixel_labels]
    xs, ys, pixel_labels = xs[kept], ys[kept], pixel_labels[kept]
    cell_of_pixel = np.minimum(ys // n, 8) * 9 + np.minimum(xs // n, 8)
    votes = np.bincount(pixel_labels * 81 + cell_of_pixel, minlength=count * 81).reshape(count, 81)
    cell = votes.argmax(axis=1)
    darkness = np.bincount(pixel_labels, weights=gray[ys, xs].astype(np.float64), minlength=count)
    darkness = darkness / np.maximum(area, 1)
    cell[noise] = -1
    return labels, stats, cell, darkness


def _paper_levels(gray: np.ndarray, ink: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Median grey level of each given cell's paper (its pixels without ink, borders excluded).

    Parameters
    ----------
    gray, ink : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8: the rectified grid and its ink mask.
    cells : np.ndarray
        Shape (k,), int, cell indices (0..80, row-major).

    Returns
    -------
    np.ndarray
        Shape (k,), float64 grey levels (0..255); 255 for a cell with no paper
        pixel. Exactly `np.median` of each cell's paper pixels, computed from one
        256-bin histogram per cell.
    """
    n, m = CELL_SIZE, CELL_SIZE // 16
    rows, cols = np.divmod(np.asarray(cells, np.int64), 9)
    inner = (slice(m, n - m),)
    levels = gray.reshape(9, n, 9, n)[rows, inner[0], cols, inner[0]].astype(np.int64)  # (k, n-2m, n-2m)
    on_ink = ink.reshape(9, n, 9, n)[rows, inner[0], cols, inner[0]] > 0
    levels[on_ink] = 256  # out of the histogram's paper bins
    hist = np.bincount((levels + 257 * np.arange(len(rows))[:, None, None]).ravel(), minlength=257 * len(rows)).reshape(
        len(rows), 257
    )[:, :256]
    count = hist.sum(axis=1)
    cumulative = hist.cumsum(axis=1)
    lower = (cumulative <= ((count - 1) // 2)[:, None]).sum(axis=1)  # the middle order statistics' grey levels
    upper = (cumulative <= (count // 2)[:, None]).sum(axis=1)
    return np.where(count > 0, (lower + upper) / 2.0, 255.0)


def _percentile(ascending: np.ndarray, q: float) -> float:
    """`np.percentile(values, q)` (linear method) of values already sorted ascending, without its overhead."""
    position = (len(ascending) - 1) * (q / 100)
    below = int(position)
    above = min(below + 1, len(ascending) - 1)
    a, b, t = float(ascending[below]), float(ascending[above]), position - below
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def find_marks(grid_image: np.ndarray) -> CellMarks:
    """Find and describe the mark in every cell of a rectified grid.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray, ruling at multiples of
        CELL_SIZE (see `vision.rectify`), upright or not.

    Returns
    -------
    CellMarks
        Cells in row-major order of `grid_image` as given.
    """
    n = CELL_SIZE
    gray = grid_image
    ink, strokes, components = _strokes_of_grid(gray)
    labels, stats, cell_of, darkness = _pieces(strokes, gray, components)
    # ink taken away as ruling, grown by a pixel: a mark's strokes on it border a stroke that may have gone
    next_to_ruling = cv2.dilate(cv2.subtract(ink, strokes), np.ones((3, 3), np.uint8))
    at_ruling = np.zeros(81, bool)
    by_cell: dict[int, list[int]] = {}
    for label in np.flatnonzero(cell_of >= 0).tolist():
        by_cell.setdefault(int(cell_of[label]), []).append(label)
    present = np.zeros(81, bool)
    features = np.zeros((81, len(MARK_FEATURES)), np.float32)
    contrast = np.zeros(81, np.float32)
    crops: list = [None] * 81
    papers = dict(zip(by_cell, _paper_levels(gray, ink, np.array(list(by_cell), np.int64)).tolist()))
    boxes = stats.tolist()  # per label: x, y, width, height, area (Python ints: cheap to index one at a time)
    darkness = darkness.tolist()
    member = np.zeros(len(boxes), bool)  # a lookup table of the labels of the pieces being measured
    shadowed, papers_map = _shadowed_cells(gray) if by_cell else (np.zeros(81, bool), gray)  # no mark: unused
    for idx, pieces in by_cell.items():
        r, c = divmod(idx, 9)
        x0, y0 = c * n, r * n
        paper = papers[idx]
        piece_contrast = {p: (paper - darkness[p]) / max(paper, 1.0) for p in pieces}
        darkest = max(piece_contrast.values())
        pieces = [
            p for p in pieces if piece_contrast[p] > 0 and piece_contrast[p] >= MIN_RELATIVE_PIECE_CONTRAST * darkest
        ]
        if not pieces:
            continue
        pieces = _without_specks(pieces, boxes)
        bx0, by0, bx1, by1 = _bounding_box(pieces, boxes)
        member[pieces] = True
        mask = member[labels[by0:by1, bx0:bx1]]
        member[pieces] = False
        values = np.sort(gray[by0:by1, bx0:bx1][mask])
        at_ruling[idx] = np.count_nonzero(next_to_ruling[by0:by1, bx0:bx1][mask]) >= RULING_CONTACT
        contrast[idx] = max(0.0, (paper - _percentile(values, 20)) / max(paper, 1.0))
        padded = np.zeros((by1 - by0 + 2, bx1 - bx0 + 2), np.uint8)
        padded[1:-1, 1:-1] = mask
        distance = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]
        largest = max(pieces, key=lambda p: boxes[p][4])
        present[idx] = True
        features[idx] = (
            (by1 - by0) / n,
            (bx1 - bx0) / n,
            ((bx0 + bx1) / 2 - x0) / n,
            ((by0 + by1) / 2 - y0) / n,
            values.size / (n * n),
            len(pieces),
            boxes[largest][3] / n,
            0.0,
            2 * float(distance[mask].mean()) / n,
        )
        # under a shadow's edge, each pixel's darkness is measured against the paper's own level beside it
        local = papers_map if shadowed[idx] else None
        crops[idx] = _digit_crop(pieces, boxes, labels, member, x0, y0, gray, paper, _percentile(values, 5), local)
    tall = present & (features[:, 0] > 0.3)
    reference = max(float(np.percentile(contrast[tall], 75)), 0.05) if tall.any() else 1.0
    features[:, MARK_FEATURES.index("relative_contrast")] = contrast / reference
    return CellMarks(present, features, crops, at_ruling)


def _without_specks(pieces: list[int], boxes: list) -> list[int]:
    """Drop pieces much smaller than the cell's largest piece and not next to it.

    `boxes` holds per label x, y, width, height, area (Python ints).
    """
    largest = max(pieces, key=lambda p: boxes[p][4])
    lx, ly, lw, lh, big = boxes[largest]
    gap = SPECK_GAP * CELL_SIZE
    keep = []
    for p in pieces:
        x, y, w, h, area = boxes[p]
        near = x <= lx + lw + gap and x + w >= lx - gap and y <= ly + lh + gap and y + h >= ly - gap
        if area >= SPECK_SHARE * big or near:
            keep.append(p)
    return keep


def _bounding_box(pieces: list[int], boxes: list) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) around the given pieces, pixels of the grid image (`boxes`: per label x, y, w, h, area)."""
    x0, y0, w, h, _ = boxes[pieces[0]]
    x1, y1 = x0 + w, y0 + h
    for p in pieces[1:]:
        x, y, w, h, _ = boxes[p]
        x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
    return x0, y0, x1, y1


def _with_attached(chosen: list[int], pieces: list[int], boxes: list) -> list[int]:
    """`chosen` and every other of `pieces` whose bounding box reaches within ATTACHED_GAP of a cell of theirs.

    Grown until no more piece is attached (a piece attached to an attached piece is taken too). `boxes` holds
    per label x, y, width, height, area (Python ints).
    """
    gap = ATTACHED_GAP * CELL_SIZE
    chosen = list(chosen)
    rest = [p for p in pieces if p not in chosen]
    grown = True
    while grown and rest:
        x0, y0, x1, y1 = _bounding_box(chosen, boxes)
        near = [
            p
            for p in rest
            if boxes[p][0] <= x1 + gap
            and boxes[p][0] + boxes[p][2] >= x0 - gap
            and boxes[p][1] <= y1 + gap
            and boxes[p][1] + boxes[p][3] >= y0 - gap
        ]
        grown = bool(near)
        chosen += near
        rest = [p for p in rest if p not in near]
    return chosen


def _shadowed_cells(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells of a rectified grid that a shadow's edge crosses, and the grid's paper level.

    The paper level is `vision.lighting.paper_level` closed with a square of
    half a cell (wider than the boldest pen stroke). A cell is crossed when
    that level within it (its borders left out, as `_paper_levels`) varies
    by at least SHADOW_STEP of its brightest: a cast shadow's edge (sharp,
    or a penumbra of a few pixels) does; the fall of light across a page
    varies it by a few percent over a cell.

    Parameters
    ----------
    gray : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8: the rectified grid.

    Returns
    -------
    (np.ndarray, np.ndarray)
        Shape (81,) bool, cells row-major; and the paper level, `gray`'s shape, uint8.
    """
    n, m = CELL_SIZE, CELL_SIZE // 16
    papers = paper_level(gray, n // 2 + 1)
    inner = papers.reshape(9, n, 9, n)[:, m : n - m, :, m : n - m].transpose(0, 2, 1, 3).reshape(81, -1)  # a copy
    top = inner.max(axis=1).astype(np.float32)
    low = inner.min(axis=1).astype(np.float32)
    return (top - low) >= SHADOW_STEP * top, papers


def _digit_crop(
    pieces: list[int],
    boxes: list,
    labels: np.ndarray,
    member: np.ndarray,
    x0: int,
    y0: int,
    gray: np.ndarray,
    paper: float,
    ink: float,
    papers: np.ndarray | None = None,
) -> np.ndarray:
    """Ink-strength crop of the pieces centred in the cell and those attached to them (all pieces when none is
    centred; `_with_attached`).

    Tight around those pieces; each pixel within two pixels of them is its
    darkness between the cell's `paper` grey level (0) and the mark's darkest
    `ink` (255), and 0 elsewhere. With `papers` (the grid's paper level at
    each pixel, `_shadowed_cells`: a shadow's edge crosses the cell, so that
    no one grey level is its paper), the darkness is each pixel's share of
    the light its own paper reflects (1 - grey / paper level), and 255 is
    the mark's 95th percentile of it. Grey levels keep what a binary mask loses in
    a blurred photo: the faint upper loop of an 8 that the threshold filled in
    (on the training photos' cross-validation, printed digits 99.36% -> 99.67%
    right). `boxes` holds per label x, y, w, h, area; `member` is an all-False
    lookup table over the labels (left all False).
    """
    n = CELL_SIZE
    lo, hi = CENTRAL
    central = []
    for p in pieces:
        x, y, w, h, area = boxes[p]
        cx, cy = (x + w / 2 - x0) / n, (y + h / 2 - y0) / n
        if lo <= cx <= hi and lo <= cy <= hi and area >= 2 * MIN_PIECE_AREA * n * n:
            central.append(p)
    chosen = _with_attached(central, pieces, boxes) if central else pieces
    bx0, by0, bx1, by1 = _bounding_box(chosen, boxes)
    member[chosen] = True
    mask = member[labels[by0:by1, bx0:bx1]]
    member[chosen] = False
    near = cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    if papers is None:
        level = (paper - gray[by0:by1, bx0:bx1].astype(np.float32)) / max(paper - ink, 1.0)
    else:
        share = 1.0 - gray[by0:by1, bx0:bx1].astype(np.float32) / np.maximum(papers[by0:by1, bx0:bx1], 1)
        level = share / max(float(np.percentile(share[mask], 95)), 1e-3)
    return (np.clip(level, 0, 1) * near * 255).astype(np.uint8)
