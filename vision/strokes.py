"""The strokes of a rectified grid: its ink without the ruled lines.

The ink (`vision.binarize`) loses its ruled lines: long strokes found by
morphological opening (less the strokes of digits written up to a line, which
continue the line's ink), and the rows and columns at the known line positions
that ink covers along most of the grid (a faint or blurred line breaks into
dashes that the opening misses). Where a digit crosses a ruled line, the
line's pixels between its two halves are put back, so a handwritten digit that
runs over its cell's border stays one piece (but not where that would join two
cells' digits written up to their shared line); a stroke written along a line,
beyond the line's own band and joined to a digit's body, is given back too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from .binarize import binarize_grid
from .components import MAX_PIECE_SIDE, STROKE_INSIDE, connected_components, nearest_line, noise_pieces
from .rectify import CELL_SIZE
from .ruling import extract_lines

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
    in them: `grid_strokes` gives back what lies beyond a line's own band
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


def _bodies(components: tuple) -> np.ndarray:
    """Which pieces of strokes (`connected_components`' result) are a digit's body near a ruled line, whose stroke along
    the line may have gone with the ruling: pieces that can be a mark (`noise`) with ANCHOR_AREA of their ink
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
    return ~noise_pieces(stats) & (inside >= ANCHOR_AREA * n * n) & near


def _anchored(along: np.ndarray, strokes: np.ndarray, components: tuple, bodies: np.ndarray) -> np.ndarray:
    """The pieces of `along` (uint8 0/255) joined to a digit's body: a piece of `strokes` flagged in `bodies`.

    `components` is `connected_components(strokes)`. A stretch of a ruled line
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
    """`strokes` with the strokes written along a ruled line given back, and `connected_components` of the result.

    Only where a digit's body comes near a line (`_bodies`) is anything
    looked for (printed digits, centred in their cells, seldom are): the ink
    of the ruling beyond the lines' own bands (`strokes_along_lines`) that
    joins such a body (`_anchored`) is taken off the ruling, and the strokes
    are made again from the rest (`strokes_of`, which bridges the line
    between a stroke's two sides). Shapes as `strokes_of`'s; the components
    as `connected_components` returns them.
    """
    components = connected_components(strokes)
    bodies = _bodies(components)
    if not bodies.any():
        return strokes, components
    along = cv2.bitwise_and(ruling, strokes_along_lines(ink))
    kept = _anchored(along, strokes, components, bodies) if along.any() else along
    if not kept.any():
        return strokes, components
    strokes = strokes_of(ink, cv2.subtract(ruling, kept))
    return strokes, connected_components(strokes)


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
    segment_band = _line_bands(lines, segments)
    band = np.repeat(segment_band, n, axis=3)  # (2, lines, rows, size)
    outside = lines & ~band
    thick = _running_on(outside, segment_band) >= BEYOND_BAND
    grown = band.copy()
    grown[:, :, 1:] |= band[:, :, :-1]
    grown[:, :, :-1] |= band[:, :, 1:]
    along = outside & (thick[:, :, None, :] | ~grown)
    out = np.zeros(ink.shape, bool)
    for k, lo, hi, inside in spans:
        out[lo:hi] |= along[0, k, inside]
        out[:, lo:hi] |= along[1, k, inside].T
    return out.astype(np.uint8) * 255


def _line_bands(lines: np.ndarray, segments: int) -> np.ndarray:
    """Each line's own band, segment by segment: shape (2, lines, rows, segments), bool.

    `lines` (2, lines, rows, segments * CELL_SIZE), bool, is the ink of the
    strips around the lines' known positions. A row is in a segment's band
    when its share of ink over ALONG_WINDOW segments centred on it (fewer at
    the ends) is at least BAND_SHARE of the most inked row's, or when no row
    there reaches MIN_BAND_COVERAGE.
    """
    n = CELL_SIZE
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
    return (coverage >= BAND_SHARE * top) | (top < MIN_BAND_COVERAGE)


def _running_on(outside: np.ndarray, segment_band: np.ndarray) -> np.ndarray:
    """Per column of each line's strip, how many ink rows run on from the band's edges, up and down without a
    gap: shape (2, lines, size), int16. `outside` (2, lines, rows, size), bool, is the strips' ink beyond the
    band; `segment_band` is `_line_bands`'."""
    n = CELL_SIZE
    rows = outside.shape[2]
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
    return above + below


def _without_strokes(lines: np.ndarray, across: int) -> np.ndarray:
    """An opening's line mask without the runs that are a digit's stroke (STROKE_INSIDE).

    A stroke that reaches a ruled line at a right angle continues the line's
    own ink: a 1 written up to its cell's top line and the line's width above
    it make a vertical run longer than the opening's length, and the opening
    keeps the 1 as ruling (`strokes_of` then leaves a sliver of it). Such a
    run lies inside a cell, away from every line's known position (a
    multiple of CELL_SIZE), and is shorter than a line. Only when the mask
    has ink inside the cells are its pieces labelled (`connected_components`).

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
    _, labels, stats, *_ = connected_components(lines)
    start, size = (stats[:, 1], stats[:, 3]) if across == 0 else (stats[:, 0], stats[:, 2])
    length = stats[:, 2] if across == 0 else stats[:, 3]
    middle = start + size / 2
    off_line = np.abs(middle - nearest_line(middle)) > STROKE_INSIDE * n
    stroke = off_line & (length < MAX_PIECE_SIDE * n)
    stroke[0] = False  # the background
    if not stroke.any():
        return lines
    return np.where(stroke[labels], 0, lines).astype(np.uint8)


#: Side, pixels, of the square closing that bridges a stroke cut by a ruled line (`strokes_of`).
BRIDGE = 7


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
    _, labels, stats, *_ = connected_components(joined)
    too_large = np.maximum(stats[:, 2], stats[:, 3]) > MAX_PIECE_SIDE * CELL_SIZE
    too_large[0] = False  # the background
    if too_large.any():
        joined[(bridges > 0) & too_large[labels]] = 0
    return joined


@dataclass(frozen=True)
class GridStrokes:
    """A rectified grid's ink and its strokes: the ink without the ruled lines.

    Measured once per grid (`grid_strokes`) and handed to what reads the
    grid's marks (`vision.cells.find_marks`) and its pencilled candidates
    (`vision.pencil.read_pencil_marks`). The arrays are read-only.

    Attributes
    ----------
    ink : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 0/255: the ink mask (`binarize_grid`).
    strokes : np.ndarray
        The same shape and dtype: the ink without the ruling (`strokes_of`), strokes written along a line
        beside it given back (`_with_strokes_along`).
    components : tuple
        `connected_components` of `strokes`.
    """

    ink: np.ndarray
    strokes: np.ndarray
    components: tuple


def grid_strokes(grid_image: np.ndarray) -> GridStrokes:
    """The ink and the strokes of a rectified grid.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray, ruling at multiples of CELL_SIZE.

    Returns
    -------
    GridStrokes
    """
    ink = binarize_grid(grid_image)
    ruling = ruling_of(ink)
    strokes, components = _with_strokes_along(ink, ruling, strokes_of(ink, ruling))
    for array in (ink, strokes, *components[1:]):
        array.flags.writeable = False
    return GridStrokes(ink, strokes, components)
