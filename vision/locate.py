"""Locate Sudoku grids in a photo: candidate quadrilaterals verified by their lines.

The method does not assume that the largest contour is the grid. It collects
convex quadrilaterals from the contours of an adaptive-threshold image (the
outer border of a printed grid is a closed dark line), warps each one to a
square, and scores how well a 9x9 pattern of ruled lines explains the warped
ink: a real grid has dark lines at every ninth of its side and light paper
between them; a text column, a photo or a single 3x3 box does not. Grids that
overlap a better one are dropped, so neighbouring puzzles on a page are each
reported once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from .image_io import to_gray
from .lighting import shadow_free
from .rectify import StripLines, lattice_and_lines, lattice_maps, outline_sides, strip_lines
from .restore import SHARPENINGS, sharpened
from .ruling import extract_lines

#: Longest side (pixels) of the reduced copy that contours are searched on.
WORK_SIZE = 800
#: Side (pixels) of the square used to score a candidate's line pattern.
SCORE_SIZE = 180
#: Minimum line-pattern score (0..1) for a candidate to count as a grid.
MIN_GRID_SCORE = 0.35
#: A candidate grown from one box to the whole grid is kept when it scores at
#: least this share of the box's own score.
GROWN_SHARE = 0.8
#: A candidate that scores at least this, but under MIN_GRID_SCORE, through its
#: corners' homography is scored again through its own curved outline
#: (`bent_line_score`): on a bent page the lines bow away from where a
#: homography puts them by more than the score's window of 12% of a cell.
BENT_FLOOR = 0.05
#: Least score along the curved lines for such a candidate to count as a grid:
#: the lattice follows lines wherever the page has them, so a ruled table or a
#: crossword scores higher along its own than through a homography. Fitted
#: between bent ruled boards that are no Sudoku (`benchmarks/not_sudoku.py`) and
#: bent finished puzzles, whose every cell inks the gaps between lines
#: (`benchmarks/handwriting.py --fill 1 --bend 0.05-0.2`).
BENT_MIN_SCORE = 0.55
#: ... and the outline must be its border: the lattice's outer lines lie on the
#: contour, a median of at most this share of a cell off it.
BORDER_MATCH = 0.25
#: A candidate shows its whole lattice (`whole_lattice`) when the 8 inner lines
#: of each direction, followed strip by strip (`rectify.strip_lines`), are seen
#: in at least this share of their 72 strips: one 3x3 box of a grid, a band of
#: its rows or columns, or some rows and the page below them, seen as a 9x9
#: grid, has only two inner lines in one direction or both (its own cell lines
#: at the thirds) and digits' strokes where the others should be; a grid whose
#: thin lines fade in one direction keeps the other direction whole...
LATTICE_EACH = 0.5
#: ... and in at least this share of all 144 ...
LATTICE_SEEN = 2 / 3
#: ... and its outer lines lie on the candidate's border, a median of at most
#: this share of a cell off it: the grid with the page's margin round it finds
#: the grid's border inside its own.
LATTICE_BORDER = 0.45
#: Of two overlapping candidates that show their whole lattice, the one judged later (`_rank`) is the grid when
#: its inner lines are seen in at least this share more of their strips: the grid within the page's margin, whose
#: lattice finds the page's edges and some of the grid's lines, or a grid grown from a box into the wrong place,
#: some of whose lines lie beyond the grid, loses to the grid.
OVERLAP_MARGIN = 0.1
#: ... among those no more than this many times larger or smaller (the grid with the page's margin round it, at
#: most about twice the grid; never one box of it).
RIVAL_AREA = 2.5
#: Two candidates are the same quad (found twice: in the ink and in its ruled lines) when each lies within the
#: other but for this share of its area.
SAME_QUAD = 0.9


@dataclass(frozen=True)
class GridCandidate:
    """A located grid.

    Attributes
    ----------
    corners : np.ndarray
        Shape (4, 2), float32, pixel coordinates in the input image, ordered
        top-left, top-right, bottom-right, bottom-left as they appear in it.
    score : float
        Line-pattern score in 0..1 (higher: the quad is more surely a grid).
    outline : np.ndarray, optional
        Shape (n, 2), float32, pixels: the contour along the grid's outer
        border that the corners were taken from (None for a grid grown from
        one box).
    bent : bool
        Found only through its curved outline (a bent page, `bent_line_score`):
        its corners' homography does not explain its lines.
    """

    corners: np.ndarray
    score: float
    outline: np.ndarray | None = None
    bent: bool = False

    @property
    def area(self) -> float:
        """Area of the quadrilateral in square pixels."""
        return float(cv2.contourArea(self.corners.astype(np.float32)))


def order_corners(points: np.ndarray) -> np.ndarray:
    """Order 4 points as top-left, top-right, bottom-right, bottom-left.

    Parameters
    ----------
    points : np.ndarray
        Shape (4, 2), any numeric dtype, pixel coordinates.

    Returns
    -------
    np.ndarray
        Shape (4, 2), float32.
    """
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates, starting near -pi (left)
    start = int(np.argmin(pts.sum(axis=1)))  # top-left has the smallest x + y
    return np.roll(pts, -start, axis=0)


def binarize(gray: np.ndarray) -> np.ndarray:
    """Ink mask by adaptive threshold (robust to uneven light; a shadow's sharp edge is marked as ink, which
    `vision.lighting.shadow_free` divides out).

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8.

    Returns
    -------
    np.ndarray
        Shape (H, W), uint8, 255 where ink (darker than the local mean).
    """
    block = max(11, (min(gray.shape[:2]) // 25) | 1)
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    return cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7)


def _quad_from_contour(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    # Extreme points of the hull along the diagonals: a rounded or cut corner.
    pts = hull.reshape(-1, 2).astype(np.float32)
    s, d = pts.sum(axis=1), pts[:, 0] - pts[:, 1]
    quad = np.array([pts[np.argmin(s)], pts[np.argmax(d)], pts[np.argmax(s)], pts[np.argmin(d)]])
    if len({tuple(p) for p in quad.tolist()}) < 4:
        return None
    return quad


def grid_line_score(ink: np.ndarray, corners: np.ndarray) -> float:
    """How well a 9x9 ruled grid explains the ink inside a quadrilateral.

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8 ink mask (255 = ink, 0 = paper).
    corners : np.ndarray
        Shape (4, 2), float32, TL TR BR BL in `ink`'s pixels.

    Returns
    -------
    float
        Mean over the 20 expected lines of (coverage of the line) minus
        (coverage of the paper midway between lines), clipped to 0..1.
    """
    n = SCORE_SIZE
    dst = np.array([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]], dtype=np.float32)
    H = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    warped = cv2.warpPerspective(ink, H, (n, n), flags=cv2.INTER_NEAREST)  # 0 or 255, as `ink`
    # Share of ink in each column and row: (2, n) float64, exactly the mean of the 0/1 mask.
    counts = [cv2.reduce(warped, axis, cv2.REDUCE_SUM, dtype=cv2.CV_32S) for axis in (0, 1)]
    profiles = np.concatenate(counts, axis=None).reshape(2, n) / (255.0 * n)
    line_window, gap_window = _score_windows(n)
    line_cov = np.sort(profiles[:, line_window].max(axis=2), axis=1)
    gap_cov = np.sort(profiles[:, gap_window].min(axis=2), axis=1)
    # The weakest two lines may be faded or cut by the frame: judge by the rest. The 9 gaps' median is the
    # middle one (what np.median returns for an odd count, without its overhead).
    strong = np.ascontiguousarray(line_cov[:, 2:])
    scores = strong.mean(axis=1) - gap_cov[:, gap_cov.shape[1] // 2]
    return min(max(float(scores.min()), 0.0), 1.0)  # clipped to 0..1, as np.clip


@functools.cache
def _score_windows(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel windows of `grid_line_score`'s profiles, as indices into a profile of `n` values.

    Returns
    -------
    (np.ndarray, np.ndarray)
        Shapes (10, 2 * tol + 1) around the 10 expected lines and (9, 2 * tol
        + 1) around the 9 midpoints between them, int: the line positions are
        round(k * step), step = (n - 1) / 9, and tol = max(2, round(0.12 *
        step)) pixels. Indices beyond the ends are clipped to them (a repeated
        value changes no window's max or min).
    """
    step = (n - 1) / 9.0
    tol = max(2, int(round(step * 0.12)))
    offsets = np.arange(-tol, tol + 1)
    lines = np.array([int(round(k * step)) for k in range(10)])
    gaps = np.array([int(round((k + 0.5) * step)) for k in range(9)])
    return np.clip(lines[:, None] + offsets, 0, n - 1), np.clip(gaps[:, None] + offsets, 0, n - 1)


def lattice_seen(lines: StripLines) -> float | None:
    """The share of a candidate's inner line strips seen, when it shows its whole lattice; else None.

    Whole: the 8 inner lines of each direction are seen in at least
    LATTICE_EACH of their strips, in LATTICE_SEEN of all 144, and the outer
    lines lie within LATTICE_BORDER of a cell of the candidate's border.

    Parameters
    ----------
    lines : rectify.StripLines
        The lines followed from the candidate's corners (or its outline), strip by strip.

    Returns
    -------
    float or None
        0..1: the share of the 144 inner line strips in which a line is seen.
    """
    seen = lines.inner_seen()
    if seen.min() < LATTICE_EACH or seen.mean() < LATTICE_SEEN or lines.border_offset() > LATTICE_BORDER:
        return None
    return float(seen.mean())


def bent_line_score(ink: np.ndarray, gray: np.ndarray, quad: np.ndarray, contour: np.ndarray) -> float:
    """How well a 9x9 ruled grid explains the ink inside a curved outline, along the grid's own lines.

    A page bent into a cylinder bows the lines a homography keeps straight
    (and packs them closer where the page turns away), so a grid plain to
    the eye scores under MIN_GRID_SCORE through its corners alone. Its outer
    border bows with its lines: `rectify.find_lattice` follows the ten lines
    of each direction from the Coons patch of that border, the ink mask is
    resampled cell by cell between their crossings (`rectify.lattice_maps`),
    and `grid_line_score` scores that square. A text column or a single box
    shows no ten lines to follow and scores no better than before; a
    candidate that does not show its whole lattice (`lattice_seen`: a box of
    the grid, whose strokes can pass for lines along its own curves) and an
    outline that is not the grid's own border (a page's edge round it, whose
    lattice's outer lines then lie off the contour, BORDER_MATCH) score 0.

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8 ink mask of `gray` (`binarize`).
    gray : np.ndarray
        Shape (H, W), uint8: the image the mask was made from.
    quad : np.ndarray
        Shape (4, 2), float32, TL TR BR BL in their pixels.
    contour : np.ndarray
        Shape (n, 1, 2) or (n, 2): the closed contour the quad was taken from.

    Returns
    -------
    float
        0..1; 0 when the corners do not cut the contour into four sides (`rectify.outline_sides`).
    """
    if outline_sides(contour, quad) is None:
        return 0.0
    lattice, lines = lattice_and_lines(gray, quad, contour)
    if lattice_seen(lines) is None:
        return 0.0  # not its whole lattice: one box of the grid, or the page round it
    border = np.concatenate([lattice[0], lattice[9], lattice[:, 0], lattice[:, 9]]).astype(np.float32)
    ring = np.asarray(contour, np.float32).reshape(-1, 1, 2)
    off = np.abs([cv2.pointPolygonTest(ring, (float(x), float(y)), True) for x, y in border])
    size = np.sqrt(max(cv2.contourArea(ring), 1.0)) / 9  # a cell, pixels
    if np.median(off) > BORDER_MATCH * size:
        return 0.0  # the outline is not the grid's border (a page's edge, a frame around the grid)
    cell = SCORE_SIZE // 9
    map_x, map_y = lattice_maps(lattice, cell)
    square = cv2.remap(ink, map_x, map_y, cv2.INTER_NEAREST)  # 0 or 255, as `ink`
    n = 9 * cell
    return grid_line_score(square, np.array([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]], np.float32))


def grow_from_box(ink: np.ndarray, quad: np.ndarray) -> GridCandidate | None:
    """The whole grid when `quad` is only one of its 3x3 boxes.

    A border broken by a shadow, cut by the frame or fused with text can
    leave a single box as the best closed outline. Each of the nine
    placements of the quad as a box is extrapolated to a full grid (through
    the quad's homography) and scored by its 9x9 ruling; the best one that
    stays nearly inside the image is returned.

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8 ink mask.
    quad : np.ndarray
        Shape (4, 2), float32, TL TR BR BL in `ink`'s pixels.

    Returns
    -------
    GridCandidate or None
        In `ink`'s pixels; None when no placement fits in the image.
    """
    h, w = ink.shape[:2]
    box = cv2.getPerspectiveTransform(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), quad.astype(np.float32))
    best = None
    for i in range(3):
        for j in range(3):
            unit = np.array([[-j, -i], [3 - j, -i], [3 - j, 3 - i], [-j, 3 - i]], np.float64).reshape(-1, 1, 2)
            grid = cv2.perspectiveTransform(unit, box).reshape(4, 2).astype(np.float32)
            margin = 0.03 * max(h, w)
            if (grid < -margin).any() or (grid[:, 0] > w + margin).any() or (grid[:, 1] > h + margin).any():
                continue
            score = grid_line_score(ink, grid)
            if best is None or score > best.score:
                best = GridCandidate(grid, score)
    return best


def ruled_lines(ink: np.ndarray) -> np.ndarray:
    """Long horizontal and vertical strokes of an ink mask (morphological opening).

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8 ink mask.

    Returns
    -------
    np.ndarray
        Shape (H, W), uint8, 255 on strokes at least ~1/40 of the shorter side long.
    """
    length = max(9, min(ink.shape[:2]) // 40)
    horizontal, vertical = extract_lines(ink, length)
    return cv2.bitwise_or(horizontal, vertical)


def quad_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area of two convex quads (4, 2) over the smaller one's area, 0..1."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a), cv2.contourArea(b))
    return float(inter) / max(smaller, 1.0)


def _contour_quads(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, list[tuple[np.ndarray, np.ndarray]]]:
    """The reduced copy of a photo that contours are searched on, its ink mask, its scale, and every contour
    large enough to be a grid with the convex quad taken from it: (gray (h, w) uint8, ink (h, w) uint8, scale,
    [(quad (4, 2) float32 TL TR BR BL, contour (n, 1, 2) int32)]), in the reduced copy's pixels."""
    gray = to_gray(image)
    scale = min(1.0, WORK_SIZE / max(gray.shape[:2]))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    ink = binarize(small)
    return small, ink, scale, _quads_in(ink)


def _quads_in(ink: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every contour of an ink mask ((h, w) uint8) large enough to be a grid, with the convex quad taken from it:
    [(quad (4, 2) float32 TL TR BR BL, contour (n, 1, 2) int32)], in the mask's pixels."""
    min_area = 0.02 * ink.shape[0] * ink.shape[1]
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    # Ruled lines alone: a border that touches text or a column rule still
    # closes into a clean contour once short strokes are opened away.
    contours = list(contours) + list(cv2.findContours(ruled_lines(ink), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0])
    quads = []
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        quad = _quad_from_contour(contour)
        if quad is None:
            continue
        quad = order_corners(quad)
        if cv2.contourArea(quad) < min_area or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            continue
        quads.append((quad, contour))
    return quads


def _outline(contour: np.ndarray, scale: float) -> np.ndarray:
    """A contour (n, 1, 2) of the reduced copy as an outline (n, 2) float32 in the photo's pixels."""
    return contour.reshape(-1, 2).astype(np.float32) / np.float32(scale)


def _non_overlapping(candidates: list[GridCandidate], max_grids: int) -> list[GridCandidate]:
    """The candidates in their order, each kept unless it overlaps one kept before (a third of the smaller)."""
    chosen: list[GridCandidate] = []
    for cand in candidates:
        if all(quad_overlap(cand.corners, g.corners) < 0.3 for g in chosen):
            chosen.append(cand)
        if len(chosen) == max_grids:
            break
    return chosen


def locate_grids(image: np.ndarray, max_grids: int = 4) -> list[GridCandidate]:
    """Find Sudoku grids in a photo or scanned page.

    Parameters
    ----------
    image : np.ndarray
        Shape (H, W, 3) BGR or (H, W) gray, uint8.
    max_grids : int
        Most grids to return.

    Returns
    -------
    list of GridCandidate
        Non-overlapping grids that show their whole lattice, largest-and-surest
        first (by score times the square root of area: `_whole_grids`); empty
        when none is found. Only when no grid is found through its corners are
        grids looked for through their curved outlines (`bent_grids`: a bent
        page; `GridCandidate.bent`), the surest first; and only when none is
        found that way either, or the main grid's inner lines are seen in under
        1 - OVERLAP_MARGIN of their strips, the same two ways again in the ink
        of the photo with its lighting divided out (`vision.lighting.shadow_free`:
        a shadow cast across the page, whose sharp edge joins the grid's border
        to other ink, so that the grid with the page round it passes for the
        grid); a main grid found there whose lines are seen in OVERLAP_MARGIN
        more of their strips replaces the first.
    """
    small, ink, scale, quads = _contour_quads(image)
    first: list[tuple[GridCandidate, float]] = []  # found in the photo's ink, the main grid's lines not all seen
    for levelled in (False, True):
        if levelled:  # a shadow's edge across the page may have joined the border to other ink
            ink = binarize(shadow_free(small))
            quads = _quads_in(ink)
        candidates, near_misses = _through_corners(ink, scale, quads)
        found = _whole_grids(small, ink, scale, candidates, max_grids)
        if first:
            better = bool(found) and quad_overlap(found[0][0].corners, first[0][0].corners) >= 0.3
            return [g for g, _ in (found if better and found[0][1] >= first[0][1] + OVERLAP_MARGIN else first)]
        if found and (levelled or found[0][1] >= 1 - OVERLAP_MARGIN):
            return [g for g, _ in found]
        if found:
            first = found
            continue
        # no grid through its corners: one on a bent page, through its curved outline
        bent = _non_overlapping(_through_outlines(small, ink, scale, near_misses), max_grids)
        if bent:
            return bent
    return []


def locate_sharpened(gray: np.ndarray, max_grids: int = 4) -> tuple[np.ndarray, list[GridCandidate]]:
    """Grids located in a blurred photo sharpened, for a photo in which `locate_grids` finds none.

    Blur spreads a thin ruled line's ink over several pixels, too faint for
    the lines to be followed (`lattice_seen`): a blurred grid's outline
    scores as a 9x9 ruling, but its thin lines are not seen. The photo is
    sharpened by each unsharp mask of `vision.restore.SHARPENINGS` in turn
    (`vision.restore.sharpened`), the mildest first, until grids are found in
    it through their corners (`locate_grids`' first way: not through curved
    outlines nor in the ink with the lighting divided out, whose looser
    tests a sharpened board that is no Sudoku, its edges and noise raised,
    passes more readily).

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8: the photo in which `locate_grids` found no grid.
    max_grids : int
        Most grids to return.

    Returns
    -------
    (np.ndarray, list of GridCandidate)
        The sharpened photo (H, W) uint8 the grids were found in, to read them
        in, and the grids as `locate_grids` returns them; `gray` itself and an
        empty list when no sharpening finds a grid.
    """
    side = max(gray.shape[:2])
    for sigma, amount in SHARPENINGS:
        sharp = sharpened(gray, sigma * side, amount)
        small, ink, scale, quads = _contour_quads(sharp)
        candidates, _ = _through_corners(ink, scale, quads)
        found = _whole_grids(small, ink, scale, candidates, max_grids)
        if found:
            return sharp, [g for g, _ in found]
    return gray, []


def _rank(candidate: GridCandidate) -> float:
    """How surely and how largely a candidate is a grid: its score times the square root of its area."""
    return candidate.score * float(np.sqrt(candidate.area))


def _same_quad(a: GridCandidate, b: GridCandidate) -> bool:
    """Whether two candidates are one quad found twice (each within the other but for 1 - SAME_QUAD of it)."""
    return quad_overlap(a.corners, b.corners) >= SAME_QUAD and min(a.area, b.area) >= SAME_QUAD * max(a.area, b.area)


def _rival(a: GridCandidate, b: GridCandidate) -> bool:
    """Whether a candidate could be the grid that another was taken for: they overlap (a third of the smaller)
    and neither is over RIVAL_AREA times the other's area (a box of the grid is not)."""
    return quad_overlap(a.corners, b.corners) >= 0.3 and max(a.area, b.area) <= RIVAL_AREA * min(a.area, b.area)


def _whole_grids(
    small: np.ndarray, ink: np.ndarray, scale: float, candidates: list[GridCandidate], max_grids: int
) -> list[tuple[GridCandidate, float]]:
    """The candidates through corners (in the photo's pixels; `small` and `ink` the reduced copy's grey and ink
    at `scale`) that show their whole lattice, non-overlapping, largest-and-surest first, each with the share of
    its inner line strips seen (`lattice_seen`).

    Each is judged in the order of `_rank`, until `max_grids` are chosen: one
    that overlaps a grid chosen (a third of the smaller), or is the same quad
    as one refused, is passed over. One that does not show its whole lattice
    is refused (a grid grown from a box, with no contour of its own, also when
    one of its outer lines is seen in under LATTICE_EACH of its strips), and
    the grid it is a box of, when that scores MIN_GRID_SCORE
    (`grow_from_box`), takes its turn by its rank. Of overlapping candidates
    of about its size that show their whole lattice (the grid within the
    page's margin, a grid grown into the wrong place), one whose inner lines
    are seen in OVERLAP_MARGIN more of their strips than the one judged is the
    grid. Lines are followed only for the candidates judged and, when the one
    judged is seen in under 1 - OVERLAP_MARGIN of its strips, its rivals
    (`_rival`), each quad once.
    """
    ranked = sorted(candidates, key=_rank, reverse=True)
    shares: dict[int, float | None] = {}

    def seen(candidate: GridCandidate) -> float | None:
        if id(candidate) not in shares:
            lines = strip_lines(small, candidate.corners * np.float32(scale))
            grown = candidate.outline is None
            shares[id(candidate)] = None if grown and lines.outer_seen() < LATTICE_EACH else lattice_seen(lines)
        return shares[id(candidate)]

    chosen: list[tuple[GridCandidate, float]] = []
    refused: list[GridCandidate] = []
    i = 0
    while i < len(ranked) and len(chosen) < max_grids:
        candidate = ranked[i]
        i += 1
        if any(quad_overlap(candidate.corners, g.corners) >= 0.3 for g, _ in chosen):
            continue
        if any(_same_quad(candidate, r) for r in refused):
            continue
        share = seen(candidate)
        if share is None:
            refused.append(candidate)
            grown = grow_from_box(ink, candidate.corners * np.float32(scale))
            if grown is not None and grown.score >= MIN_GRID_SCORE:
                grown = GridCandidate(grown.corners / np.float32(scale), grown.score)
                at = next((k for k in range(i, len(ranked)) if _rank(ranked[k]) < _rank(grown)), len(ranked))
                ranked.insert(at, grown)
            continue
        judged = [candidate]
        for other in ranked[i:] if share < 1 - OVERLAP_MARGIN else []:
            if not _rival(other, judged[0]) or any(_same_quad(other, g) for g in judged + refused):
                continue
            judged.append(other)
            other_share = seen(other)
            if other_share is not None and other_share >= share + OVERLAP_MARGIN:
                candidate, share = other, other_share
        chosen.append((candidate, share))
    return chosen


def _through_corners(
    ink: np.ndarray, scale: float, quads: list[tuple[np.ndarray, np.ndarray]]
) -> tuple[list[GridCandidate], list[tuple[np.ndarray, np.ndarray]]]:
    """The quads (with their contours, in `ink`'s pixels) whose corners' homography explains a 9x9 ruling
    (`grid_line_score` at least MIN_GRID_SCORE) as candidates in the photo's pixels (`scale`: the reduced
    copy's), each with the whole grid when it is one of its boxes (`grow_from_box`); and the near misses
    (scoring BENT_FLOOR..MIN_GRID_SCORE), for `_through_outlines`."""
    candidates: list[GridCandidate] = []
    near_misses: list[tuple[np.ndarray, np.ndarray]] = []
    for quad, contour in quads:
        score = grid_line_score(ink, quad)
        if score >= MIN_GRID_SCORE:
            candidates.append(GridCandidate(quad / scale, score, _outline(contour, scale)))
            grown = grow_from_box(ink, quad)
            if grown is not None and grown.score >= max(MIN_GRID_SCORE, GROWN_SHARE * score):
                candidates.append(GridCandidate(grown.corners / scale, grown.score))
        elif score >= BENT_FLOOR:
            near_misses.append((quad, contour))
    return candidates, near_misses


def _through_outlines(
    small: np.ndarray, ink: np.ndarray, scale: float, quads: list[tuple[np.ndarray, np.ndarray]]
) -> list[GridCandidate]:
    """The quads whose lines, followed from their outline, explain a 9x9 ruling (`bent_line_score` at least
    BENT_MIN_SCORE), as bent candidates in the photo's pixels, the surest first whatever its size (a page's
    edge round the grid can score nearly as well as the grid)."""
    found = []
    for quad, contour in quads:
        along = bent_line_score(ink, small, quad, contour)
        if along >= BENT_MIN_SCORE:
            found.append(GridCandidate(quad / scale, along, _outline(contour, scale), bent=True))
    return sorted(found, key=lambda g: g.score, reverse=True)


def bent_grids(image: np.ndarray, max_grids: int = 4) -> list[GridCandidate]:
    """Grids found through their curved outlines only (`bent_line_score`), whatever their corners' homography
    scores: for a grid whose lattice, followed from the corners of the candidate `locate_grids` chose, is not
    regular (a bent page's edge taken for the grid's, or lines bowed past the lattice's reach).

    Parameters and returns as `locate_grids`; every candidate has `GridCandidate.bent` set, the surest first.
    """
    small, ink, scale, quads = _contour_quads(image)
    return _non_overlapping(_through_outlines(small, ink, scale, quads), max_grids)
