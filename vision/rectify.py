"""Rectify: warp a located grid to an upright, top-down square whose ruling is regular.

Two steps. A homography from the grid's four outer corners makes the grid
roughly square; on a flat page that is enough, but a page that bends (a
folded newspaper, a booklet held in the hand) or corners that are a few pixels
off leave the inner ruling curved or shifted by a tenth of a cell, enough to
cut digits and push a neighbour's ink into a cell. So the ruling itself is then
found in the roughly rectified image: in each of nine strips, the ten
horizontal (and ten vertical) lines are fitted as one evenly spaced comb, then
each line is refined locally and smoothed across the strips by a quadratic.
Their 100 crossings (the *lattice*) map each cell to its own quadrilateral in
the photo, and the photo is resampled cell by cell (bilinear between the
crossings) so that in the result every ruled line lies exactly at a multiple of
CELL_SIZE.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .restore import noisy_lines
from .ruling import extract_lines

#: Side of one cell (pixels) in the rectified grid image.
CELL_SIZE = 64
#: Side of the rectified grid image (pixels).
GRID_SIZE = 9 * CELL_SIZE

#: Pixels per cell of the coarse image in which the ruling is searched.
LATTICE_CELL = 32
#: Margin (in cells) kept around the grid in that image, so that outer lines a
#: little outside the located corners are still seen.
LATTICE_MARGIN = 0.5
#: Shifts (share of a cell) and spacings (share of the nominal) of the comb of
#: ten lines tried in each strip.
COMB_SHIFTS = np.linspace(-0.35, 0.35, 29)
COMB_SPACINGS = np.linspace(0.9, 1.1, 11)
#: A line is refined within this share of a cell of where the comb puts it ...
LINE_SEARCH = 0.15
#: ... and counts as seen when it covers at least this share of the strip.
LINE_COVERAGE = 0.4
#: Rounds of looking for lines not seen where the lines beside them put them (`lines_in_strips`): each
#: round can reach one line further out.
LINE_STEPS = 2
#: Pixels at either end of a strip's profile where a peak is the edge of the warped image, not a line
#: (`_peaks_near`): ink cut off there (a page's edge, the replicated border) peaks at the first or last pixel.
PROFILE_EDGE = 2
#: A line's fit keeps the strips whose position lies within this share of a cell of it (`fit_lines`) ...
LINE_FIT_TOLERANCE = 0.1
#: ... and when a fit through every strip leaves some out, it is tried without up to this many strips at
#: the line's ends (`_fit_without_ends`).
END_OUTLIERS = 2
#: A noisy coarse image's lines are found averaged along them over this share of a cell (`_ruling_masks`).
ALONG_LINE = 0.25


@dataclass(frozen=True)
class Rectified:
    """A grid warped upright and top-down.

    Attributes
    ----------
    image : np.ndarray
        Shape (GRID_SIZE, GRID_SIZE), uint8 gray. Ruled line k (0..9) of
        either direction lies at pixel k * CELL_SIZE.
    lattice : np.ndarray
        Shape (10, 10, 2), float64: photo pixel coordinates (x, y) of the
        crossing of upright row line k and column line l at ``[k, l]``.
    homography : np.ndarray
        Shape (3, 3), float64: photo pixels -> rectified pixels, fitted to the
        lattice's four outer corners (for drawing).
    inverse : np.ndarray
        Shape (3, 3), float64: rectified pixels -> photo pixels.
    """

    image: np.ndarray
    lattice: np.ndarray
    homography: np.ndarray
    inverse: np.ndarray

    @classmethod
    def from_lattice(cls, image: np.ndarray, lattice: np.ndarray) -> Rectified:
        """Bundle a rectified image with its lattice; the homography is fitted to the lattice's outer corners."""
        outer = np.array([lattice[0, 0], lattice[0, 9], lattice[9, 9], lattice[9, 0]], np.float32)
        H = cv2.getPerspectiveTransform(outer, square_corners(image.shape[0]))
        return cls(image, lattice, H, np.linalg.inv(H))

    def scaled(self, factor: float) -> Rectified:
        """The same grid for a photo `factor` times as large (lattice and homographies follow; the image stays)."""
        return self if factor == 1 else Rectified.from_lattice(self.image, self.lattice * factor)

    def turned(self, rotation: int) -> Rectified:
        """The same grid read after turning it back by `rotation` degrees (see `rectify`)."""
        turns = (rotation // 90) % 4
        if turns == 0:
            return self
        return Rectified.from_lattice(
            np.ascontiguousarray(np.rot90(self.image, k=turns)), turn_lattice(self.lattice, rotation)
        )


def square_corners(size: int = GRID_SIZE) -> np.ndarray:
    """Corners (4, 2) float32 of a size x size square, TL TR BR BL."""
    s = float(size)
    return np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float32)


def reduce_for(image: np.ndarray, side: float, target: float) -> tuple[np.ndarray, float]:
    """Halve `image` (Gaussian pyramid) while a region `side` pixels long stays at least 2 * `target`.

    Sampling a grid straight from a 12-megapixel photo into a few hundred
    pixels would skip thin lines and strokes (aliasing); one pyramid level
    per halving keeps them.

    Parameters
    ----------
    image : np.ndarray
        Shape (H, W) or (H, W, 3), uint8.
    side : float
        Size (pixels) of the region that will be sampled.
    target : float
        Size (pixels) it will be sampled to.

    Returns
    -------
    (np.ndarray, float)
        The reduced image and its scale (1, 0.5, 0.25, ...) relative to `image`.
    """
    scale = 1.0
    while side * scale >= 2 * target and min(image.shape[:2]) > 64:
        image = cv2.pyrDown(image)
        scale /= 2
    return image, scale


def _ruling_masks(coarse: np.ndarray, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical ruling (uint8, 255 = line) of a coarse grid image, by morphological opening.

    In a noisy image (`vision.restore.noisy_lines`) a faint thin line breaks
    into dashes shorter than the opening's: each direction's lines are found
    in the image averaged along them over ALONG_LINE of a cell, which keeps a
    line as thin and as dark and takes the noise down.
    """
    length = int(cell * 0.8)
    if not noisy_lines(coarse):
        return extract_lines(_ink(coarse, cell), length)
    along = max(3, int(round(ALONG_LINE * cell)) | 1)
    horizontal = extract_lines(_ink(cv2.blur(coarse, (along, 1)), cell), length)[0]
    vertical = extract_lines(_ink(cv2.blur(coarse, (1, along)), cell), length)[1]
    return horizontal, vertical


def _ink(coarse: np.ndarray, cell: int) -> np.ndarray:
    """Ink mask (uint8, 255 = ink) of a coarse grid image: an adaptive threshold over half a cell."""
    return cv2.adaptiveThreshold(
        cv2.GaussianBlur(coarse, (3, 3), 0), 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, (cell // 2) | 1, 5
    )


def lines_in_strips(profiles: np.ndarray, cell: float, first: float) -> np.ndarray:
    """Positions of the ten ruled lines crossing each of several strips.

    In each strip, a comb of ten teeth (shifted and spaced within
    COMB_SHIFTS and COMB_SPACINGS of the nominal lattice) is fitted to the
    profile; each line is then the ruling-weighted centre of the five pixels
    around the profile's peak within LINE_SEARCH cells of its tooth
    (`_peaks_near`). A line not seen there is looked for again where the
    lines seen beside it put it (`_from_neighbours`): on a bent page the
    spacing shrinks toward the edges, and an even comb fitted to the middle
    lines puts its outer teeth too far out to see the outer lines.

    Parameters
    ----------
    profiles : np.ndarray
        Shape (s, n), float: for each strip, the share of each pixel row (or
        column) covered by ruling, 0..1.
    cell : float
        Nominal cell size (pixels).
    first : float
        Nominal position of line 0 (pixels).

    Returns
    -------
    np.ndarray
        Shape (s, 10), float64: sub-pixel line positions, NaN where a line is
        not seen (covered by a thumb, faded, out of the frame).
    """
    strips, n = profiles.shape
    beside = np.zeros_like(profiles)
    beside[:, :-1] = profiles[:, 1:]
    before = np.zeros_like(profiles)
    before[:, 1:] = profiles[:, :-1]
    widened = np.maximum(profiles, np.maximum(beside, before))
    centre = first + 4.5 * cell
    k = np.arange(10) - 4.5
    combs = centre + COMB_SHIFTS[:, None, None] * cell + k[None, None, :] * COMB_SPACINGS[None, :, None] * cell
    score = widened[:, np.clip(np.round(combs).astype(int), 0, n - 1)].sum(axis=3)  # (s, shifts, spacings)
    guesses = combs.reshape(-1, 10)[score.reshape(strips, -1).argmax(axis=1)]  # (s, 10): the best comb's teeth
    lines = _peaks_near(profiles, guesses, cell)
    for _ in range(LINE_STEPS):
        again = _from_neighbours(lines)
        if not np.isfinite(again).any():
            break
        found = _peaks_near(profiles, np.where(np.isfinite(again), again, -n), cell)
        lines = np.where(np.isnan(lines) & np.isfinite(again), found, lines)
    return lines


def _peaks_near(profiles: np.ndarray, guesses: np.ndarray, cell: float) -> np.ndarray:
    """Each line's sub-pixel position near its guess (`lines_in_strips`): (s, 10) float64, NaN where no
    ruling covers LINE_COVERAGE of the strip within LINE_SEARCH cells of the guess, or its peak lies within
    PROFILE_EDGE pixels of the profile's ends (a guess outside the profile is never seen)."""
    strips, n = profiles.shape
    lo = np.maximum(0, np.floor(guesses - LINE_SEARCH * cell)).astype(int)
    hi = np.minimum(n, np.ceil(guesses + LINE_SEARCH * cell) + 1).astype(int)
    strip = np.arange(strips)[:, None, None]
    # Each tooth's search window [lo, hi), padded to the widest with -inf (never the peak).
    at = lo[..., None] + np.arange(max(1, int((hi - lo).max())))
    window = np.where(at < hi[..., None], profiles[strip, np.minimum(at, n - 1)], -np.inf)
    peak = lo + window.argmax(axis=2)
    seen = (hi > lo) & (profiles[strip[..., 0], np.minimum(peak, n - 1)] >= LINE_COVERAGE)
    seen &= (peak >= PROFILE_EDGE) & (peak < n - PROFILE_EDGE)  # the warp's own edge is no line
    # The five pixels around the peak, clipped to the window, the kept ones first and zeros after them
    # (so that the sums below add the same terms in the same order as over the clipped slice).
    start = np.maximum(lo, peak - 2)
    stop = np.minimum(hi, peak + 3)
    at = start[..., None] + np.arange(5)
    weights = np.where(at < stop[..., None], profiles[strip, np.minimum(at, n - 1)], 0.0)
    total = weights.sum(axis=2)
    centre_of_mass = ((at - lo[..., None]) * weights).sum(axis=2) / np.where(seen, total, 1.0)
    return np.where(seen, lo + centre_of_mass, np.nan)


def _from_neighbours(lines: np.ndarray) -> np.ndarray:
    """Where the seen lines of each strip put each line not seen: (s, 10) float64, NaN for a seen line or
    one with too few seen neighbours.

    `lines`: (s, 10) positions, NaN where not seen. Between two seen lines, their middle; beyond three seen
    lines in a row, the next of their constant second difference (the spacing changing as it does across
    them: a bent page's lines crowd toward its edges); beyond two, the next at their spacing.
    """
    padded = np.pad(lines, ((0, 0), (3, 3)), constant_values=np.nan)

    def line(step: int) -> np.ndarray:  # line k + step for every k (NaN beyond the ten)
        return padded[:, 3 + step : 13 + step]

    guess = line(-1) / 2 + line(1) / 2
    for other in (
        3 * line(1) - 3 * line(2) + line(3),
        3 * line(-1) - 3 * line(-2) + line(-3),
        2 * line(1) - line(2),
        2 * line(-1) - line(-2),
    ):
        guess = np.where(np.isnan(guess), other, guess)
    return np.where(np.isnan(lines), guess, np.nan)


def _fit_without_ends(x: np.ndarray, y: np.ndarray, degree: int, cell: float) -> np.ndarray:
    """The least-squares polynomial of `degree` through (x, y) when every point lies within
    LINE_FIT_TOLERANCE of it; else, of that fit and the fits through the points less up to END_OUTLIERS
    of them at the ends (keeping degree + 3 at least), the one that leaves the most points within that
    tolerance (ties: within half of it, then the fit through the most points).

    A bent page's edge or shadow can lie beside the grid's corner and be taken for the border line in
    the strips near it: a quadratic through every strip bends to those, and the trimming after it
    (`fit_lines`) then keeps them and drops the strips that agree, cutting the corner cells short.
    `x`, `y`: shape (n,) float64, in order along the line. Returns ``np.polyfit`` coefficients.
    """
    fit = np.polyfit(x, y, degree)
    tolerance = LINE_FIT_TOLERANCE * cell
    if (np.abs(np.polyval(fit, x) - y) < tolerance).all():
        return fit
    n = len(x)
    best, best_key = fit, None
    for lo in range(END_OUTLIERS + 1):
        for hi in range(END_OUTLIERS + 1 - lo):
            if n - lo - hi < degree + 3:
                continue
            trial = fit if lo == hi == 0 else np.polyfit(x[lo : n - hi], y[lo : n - hi], degree)
            off = np.abs(np.polyval(trial, x) - y)
            key = (int((off < tolerance).sum()), int((off < tolerance / 2).sum()), n - lo - hi)
            if best_key is None or key > best_key:
                best, best_key = trial, key
    return best


def fit_lines(points: np.ndarray, cell: float, first: float) -> list[np.ndarray]:
    """Smooth each line's positions across the strips by a robust polynomial.

    Each line's first fit (`_fit_without_ends`) may leave out a few strips at its ends; then, up to
    three times, the strips farther than LINE_FIT_TOLERANCE from the fit are dropped and it is fitted
    again (a digit's stroke or a shadow's edge taken for the line).

    Parameters
    ----------
    points : np.ndarray
        Shape (10, 9): position of line k in strip j (NaN when not seen).
    cell, first : float
        As in `lines_in_strips`; strip j is centred at first + (j + 0.5) * cell.

    Returns
    -------
    list of np.ndarray
        Ten polynomial coefficient arrays (``np.polyval`` order): line position
        as a function of the position along the line. A line seen in no strip
        is interpolated between its neighbours (or extrapolated one cell on).
    """
    along = first + (np.arange(9) + 0.5) * cell
    fits: list[np.ndarray | None] = []
    for row in points:
        seen = ~np.isnan(row)
        x, y = along[seen], row[seen]
        if len(x) == 0:
            fits.append(None)
            continue
        degree = 2 if len(x) >= 5 else 1 if len(x) >= 2 else 0
        fit = _fit_without_ends(x, y, degree, cell)
        for _ in range(3):  # drop strips where a digit stroke or a shadow edge was taken for the line
            keep = np.abs(np.polyval(fit, x) - y) < LINE_FIT_TOLERANCE * cell
            if keep.all() or keep.sum() <= degree + 1:
                break
            x, y = x[keep], y[keep]
            fit = np.polyfit(x, y, degree)
        fits.append(fit)
    fitted = {k: f for k, f in enumerate(fits) if f is not None}
    known = list(fitted)
    out = []
    for k, coef in enumerate(fits):
        if coef is None:
            below = [q for q in known if q < k]
            above = [q for q in known if q > k]
            if not known:
                y = np.full(9, first + k * cell)
            elif below and above:
                a, b = below[-1], above[0]
                ya, yb = np.polyval(fitted[a], along), np.polyval(fitted[b], along)
                y = ya + (yb - ya) * (k - a) / (b - a)
            elif below:
                y = np.polyval(fitted[below[-1]], along) + (k - below[-1]) * cell
            else:
                y = np.polyval(fitted[above[0]], along) - (above[0] - k) * cell
            coef = np.polyfit(along, y, 2)
        out.append(coef)
    return out


#: Points each side of an outline is resampled to, evenly by arc length (`outline_sides`).
SIDE_POINTS = 64


def outline_sides(outline: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """A grid's curved border cut at its corners into four sides, each resampled evenly by arc length.

    Parameters
    ----------
    outline : np.ndarray
        Shape (n, 2) or (n, 1, 2), any numeric dtype: a closed contour along
        the grid's outer border, in pixels (`locate.GridCandidate.outline`).
    corners : np.ndarray
        Shape (4, 2): TL TR BR BL in the same pixels.

    Returns
    -------
    np.ndarray or None
        Shape (4, SIDE_POINTS, 2), float64: the top side from TL to TR, the
        bottom from BL to BR, the left from TL to BL and the right from TR to
        BR; None when the corners do not cut the outline into four sides in order.
    """
    points = np.asarray(outline, np.float64).reshape(-1, 2)
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    at = [int(np.argmin(np.linalg.norm(points - c, axis=1))) for c in corners]
    n = len(points)
    if n < 8 or len(set(at)) < 4:
        return None
    if (at[1] - at[0]) % n > (at[3] - at[0]) % n:  # the contour runs TL -> BL -> BR -> TR: walk it backwards
        points, at = points[::-1], [n - 1 - a for a in at]
    if not ((at[1] - at[0]) % n < (at[2] - at[0]) % n < (at[3] - at[0]) % n):
        return None

    def walk(a: int, b: int) -> np.ndarray:
        """The contour from point a to point b (inclusive), resampled to SIDE_POINTS by arc length."""
        path = points[np.arange(a, a + (b - a) % n + 1) % n]
        step = np.linalg.norm(np.diff(path, axis=0), axis=1)
        length = np.concatenate([[0.0], np.cumsum(step)])
        if length[-1] <= 0:
            return np.repeat(path[:1], SIDE_POINTS, axis=0)
        t = np.linspace(0.0, length[-1], SIDE_POINTS)
        return np.stack([np.interp(t, length, path[:, 0]), np.interp(t, length, path[:, 1])], axis=1)

    top, right = walk(at[0], at[1]), walk(at[1], at[2])
    bottom, left = walk(at[2], at[3])[::-1], walk(at[3], at[0])[::-1]  # BL -> BR, TL -> BL
    return np.stack([top, bottom, left, right])


def _along(side: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Points of a resampled side (SIDE_POINTS, 2) at parameters `t` (any shape; 0..1 along it, straight on
    beyond its ends along its end chords). Returns shape t.shape + (2,) float64."""
    k = len(side) - 1
    i = np.clip(np.floor(t * k).astype(int), 0, k - 1)
    f = t * k - i
    return side[i] + (side[i + 1] - side[i]) * f[..., None]


def coons_points(sides: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The bilinearly blended Coons patch of four curved sides at (u, v).

    S. A. Coons, "Surfaces for computer-aided design of space forms", MIT
    Project MAC TR-41, 1967: the surface through four boundary curves is the
    sum of the two ruled surfaces between opposite sides less the bilinear
    surface through the corners. (u, v) = (0, 0) is TL, (1, 0) TR, (0, 1) BL;
    a (u, v) a little outside the unit square extends the patch straight on.

    Parameters
    ----------
    sides : np.ndarray
        Shape (4, SIDE_POINTS, 2) float64, as `outline_sides` returns them.
    u, v : np.ndarray
        Same shape, float: position across (left to right) and down (top to bottom), 0..1.

    Returns
    -------
    np.ndarray
        Shape u.shape + (2,) float64: the (x, y) pixels.
    """
    top, bottom, left, right = sides
    tl, tr, bl, br = top[0], top[-1], bottom[0], bottom[-1]
    uu, vv = u[..., None], v[..., None]
    ruled = (1 - vv) * _along(top, u) + vv * _along(bottom, u) + (1 - uu) * _along(left, v) + uu * _along(right, v)
    return ruled - ((1 - uu) * (1 - vv) * tl + uu * (1 - vv) * tr + (1 - uu) * vv * bl + uu * vv * br)


@dataclass(frozen=True)
class StripLines:
    """A grid's ruled lines as seen strip by strip (`strip_lines`), before they are fitted.

    Attributes
    ----------
    offsets : np.ndarray
        Shape (2, 10, 9), float64: for the row lines (``[0]``) and the column
        lines (``[1]``), line k as seen in strip j, less where the corners'
        homography (or the outline's Coons patch) puts it, in cells; NaN where
        the line is not seen in that strip (`lines_in_strips`).
    """

    offsets: np.ndarray

    def inner_seen(self) -> np.ndarray:
        """The share of the strips in which the 8 inner lines of each direction are seen: shape (2,) float64,
        row lines then column lines, 0..1."""
        return np.isfinite(self.offsets[:, 1:9]).mean(axis=(1, 2))

    def outer_seen(self) -> float:
        """The least share of its 9 strips in which one of the four outer lines is seen, 0..1."""
        return float(np.isfinite(self.offsets[:, [0, 9]]).mean(axis=2).min())

    def border_offset(self) -> float:
        """How far the lattice's outer lines lie from the border the corners (or outline) put them on: the
        largest of the four outer lines' median offsets over the strips that see them, in cells (0 for a line
        seen in none)."""
        outer = np.abs(self.offsets[:, [0, 9]]).reshape(4, 9)
        medians = [float(np.median(line[np.isfinite(line)])) for line in outer if np.isfinite(line).any()]
        return max(medians, default=0.0)


def find_lattice(gray: np.ndarray, corners: np.ndarray, outline: np.ndarray | None = None) -> np.ndarray:
    """The 100 crossings of a grid's ruled lines, in photo pixels.

    The grid is warped to a coarse square through its corners' homography,
    or, given its `outline`, through the Coons patch of its curved border
    (`coons_points`: a page bent so much that its lines bow by more than a
    third of a cell from where a homography puts them); each line is then
    found strip by strip near where the warp puts it (`strip_lines`) and
    fitted by a quadratic.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8, the whole photo.
    corners : np.ndarray
        Shape (4, 2), float32 pixels, the grid's outer corners TL TR BR BL as
        they appear in the photo (a few pixels off is fine).
    outline : np.ndarray, optional
        Shape (n, 2) (or (n, 1, 2)), pixels: a closed contour along the grid's
        outer border (`locate.GridCandidate.outline`); ignored when the corners
        do not cut it into four sides (`outline_sides`).

    Returns
    -------
    np.ndarray
        Shape (10, 10, 2), float64: ``[k, l]`` is the (x, y) crossing of the
        k-th line from the top and the l-th from the left, as seen in the photo.
    """
    return lattice_and_lines(gray, corners, outline)[0]


def strip_lines(gray: np.ndarray, corners: np.ndarray, outline: np.ndarray | None = None) -> StripLines:
    """A grid's ruled lines as `find_lattice` sees them strip by strip, not fitted (half its time).

    Parameters as `find_lattice`.
    """
    return _strips(_coarse_lines(gray, corners, outline))


def lattice_and_lines(
    gray: np.ndarray, corners: np.ndarray, outline: np.ndarray | None = None
) -> tuple[np.ndarray, StripLines]:
    """`find_lattice` and `strip_lines` at once (the lines found once). Parameters as `find_lattice`."""
    seen = _coarse_lines(gray, corners, outline)
    cell, margin = LATTICE_CELL, LATTICE_MARGIN * LATTICE_CELL
    side = 9 * cell
    rows, cols = seen.rows, seen.cols
    row_fits, col_fits = fit_lines(rows, cell, margin), fit_lines(cols, cell, margin)
    # All 100 crossings at once: x on column l's curve at y, then y on row k's curve at x.
    row_coef, col_coef = _padded(row_fits)[:, None, :], _padded(col_fits)[None, :, :]  # (10, 1, 3), (1, 10, 3)
    y, x = np.meshgrid(margin + np.arange(10) * cell, margin + np.arange(10) * cell, indexing="ij")
    for _ in range(3):  # the two curves are nearly straight: a few alternations converge
        x = _horner(col_coef, y)
        y = _horner(row_coef, x)
    if seen.sides is not None:
        photo = coons_points(seen.sides, (x - margin) / side, (y - margin) / side)
    else:
        crossings = np.stack([x, y], axis=-1)
        photo = cv2.perspectiveTransform(crossings.reshape(-1, 1, 2), np.linalg.inv(seen.warp)).reshape(10, 10, 2)
    return photo / seen.scale, _strips(seen)


def _strips(seen: _CoarseLines) -> StripLines:
    """`_coarse_lines`' lines as `StripLines`: offsets from where the warp puts each line, in cells."""
    cell, margin = LATTICE_CELL, LATTICE_MARGIN * LATTICE_CELL
    nominal = margin + np.arange(10)[:, None] * cell
    return StripLines((np.stack([seen.rows, seen.cols]) - nominal) / cell)


@dataclass(frozen=True)
class _CoarseLines:
    """The lines of `_coarse_lines`: each row line's and column line's position (10, 9) in each strip, pixels of
    the coarse square (NaN where not seen); the outline's sides (`outline_sides`) or None, the homography (3, 3)
    into the coarse square when there are no sides, and the reduced copy's scale."""

    rows: np.ndarray
    cols: np.ndarray
    sides: np.ndarray | None
    warp: np.ndarray
    scale: float


def _coarse_lines(gray: np.ndarray, corners: np.ndarray, outline: np.ndarray | None) -> _CoarseLines:
    """The grid warped to a coarse square (LATTICE_CELL pixels a cell, LATTICE_MARGIN round it) through its
    corners' homography or its outline's Coons patch, and its ruled lines found in each of nine strips."""
    cell, margin = LATTICE_CELL, LATTICE_MARGIN * LATTICE_CELL
    side = 9 * cell
    size = int(round(side + 2 * margin))
    corners = np.asarray(corners, np.float32)
    reduced, scale = reduce_for(gray, float(np.linalg.norm(corners[1] - corners[0])), side)
    sides = None if outline is None else outline_sides(np.asarray(outline, np.float64) * scale, corners * scale)
    H = np.eye(3)
    if sides is not None:
        down, across = (np.mgrid[0:size, 0:size] - margin) / side
        at = coons_points(sides, across, down).astype(np.float32)
        coarse = cv2.remap(reduced, at[..., 0], at[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        target = square_corners(side) + np.float32(margin)
        H = cv2.getPerspectiveTransform(corners * np.float32(scale), target)
        coarse = cv2.warpPerspective(reduced, H, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    horizontal, vertical = _ruling_masks(coarse, cell)
    bands = [(int(round(margin + (j + 0.15) * cell)), int(round(margin + (j + 0.85) * cell))) for j in range(9)]
    rows = lines_in_strips(np.stack([horizontal[:, a:b].mean(axis=1) / 255.0 for a, b in bands]), cell, margin).T
    cols = lines_in_strips(np.stack([vertical[a:b, :].mean(axis=0) / 255.0 for a, b in bands]), cell, margin).T
    return _CoarseLines(rows, cols, sides, H, scale)


#: A lattice is followed right when no two neighbouring lines come closer than
#: this share of their typical spacing (`lattice_is_regular`). Perspective and a
#: bent page space a grid's lines unevenly, but smoothly: on the 160 printed and
#: 80 in-progress photos and the handwriting fixtures the closest pair lies at
#: 0.73 of its column's or row's median spacing; a lattice that took a digit's
#: stroke or a page's edge for a ruled line puts two lines far closer (0.04-0.53
#: on strongly bent synthetic pages whose reading went wrong, development seed
#: 10025 of `benchmarks/handwriting.py --bend 0.05-0.2`).
MIN_LINE_SPACING = 0.6


def lattice_spacing(lattice: np.ndarray) -> float:
    """The closest two neighbouring lines of a lattice come, as a share of the median spacing of their row or
    column of crossings (1 for an evenly ruled, flat grid seen square on).

    Parameters
    ----------
    lattice : np.ndarray
        Shape (10, 10, 2): the crossings (`find_lattice`), pixels.

    Returns
    -------
    float
        The smallest ratio over the 9 x 10 spacings of each direction.
    """
    lattice = np.asarray(lattice, np.float64)
    across_rows = np.linalg.norm(np.diff(lattice, axis=0), axis=2)  # (9, 10): row lines k, k + 1 at column l
    across_columns = np.linalg.norm(np.diff(lattice, axis=1), axis=2)  # (10, 9)
    rows = across_rows / np.maximum(np.median(across_rows, axis=0, keepdims=True), 1e-9)
    columns = across_columns / np.maximum(np.median(across_columns, axis=1, keepdims=True), 1e-9)
    return float(min(rows.min(), columns.min()))


def lattice_is_regular(lattice: np.ndarray) -> bool:
    """Whether a lattice's lines keep their order and spacing (`lattice_spacing` at least MIN_LINE_SPACING)."""
    return lattice_spacing(lattice) >= MIN_LINE_SPACING


def _padded(fits: list[np.ndarray]) -> np.ndarray:
    """Polynomial coefficients (``np.polyval`` order, degree 2 or less) as rows (len(fits), 3), zeros leading."""
    out = np.zeros((len(fits), 3))
    for i, coef in enumerate(fits):
        out[i, 3 - len(coef) :] = coef
    return out


def _horner(coef: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Quadratics of coefficients ``coef[..., 0:3]`` at `x`, evaluated as `np.polyval` does (same rounding)."""
    y = np.zeros(np.broadcast_shapes(coef.shape[:-1], x.shape))
    for i in range(coef.shape[-1]):
        y = y * x + coef[..., i]
    return y


def lattice_maps(lattice: np.ndarray, cell_size: int = CELL_SIZE) -> tuple[np.ndarray, np.ndarray]:
    """`cv2.remap` maps that resample a lattice's cells into a regular grid.

    Parameters
    ----------
    lattice : np.ndarray
        Shape (10, 10, 2), source pixel coordinates of the crossings.
    cell_size : int
        Side of one output cell (pixels).

    Returns
    -------
    (np.ndarray, np.ndarray)
        x and y maps, each shape (9 * cell_size, 9 * cell_size), float32:
        bilinear between the four crossings around each output pixel.
    """
    # Per cell, the bilinear map is a + b*u + (c + d*u)*v with u, v the position
    # in the cell (0..1): four coefficient arrays of shape (9, 9, 2), broadcast
    # over the cell's pixels in float32 (about 40x faster than gathering the
    # four corners for every output pixel).
    corners = np.asarray(lattice, np.float32)
    a = corners[:-1, :-1]
    b = corners[:-1, 1:] - a
    c = corners[1:, :-1] - a
    d = corners[1:, 1:] - corners[1:, :-1] - corners[:-1, 1:] + a
    u = (np.arange(cell_size, dtype=np.float32) + 0.5) / cell_size
    across, down = u[None, None, None, :], u[None, :, None, None]
    maps = []
    for k in (0, 1):  # x, then y: each map written once, in place, with no interleaved copy
        top, slope = (m[:, None, :, None, k] for m in (a, b))
        left, right = top + slope * across, c[:, None, :, None, k] + d[:, None, :, None, k] * across
        out = np.empty((9, cell_size, 9, cell_size), np.float32)
        np.multiply(right, down, out=out)
        np.add(left, out, out=out)
        maps.append(out.reshape(9 * cell_size, 9 * cell_size))
    return maps[0], maps[1]


def turn_lattice(lattice: np.ndarray, rotation: int) -> np.ndarray:
    """The lattice re-indexed as the grid reads after turning the photo back by `rotation` degrees."""
    return np.rot90(lattice, k=(rotation // 90) % 4, axes=(0, 1)).copy()


def rectify(gray: np.ndarray, corners: np.ndarray, rotation: int = 0, lattice: np.ndarray | None = None) -> Rectified:
    """Warp the grid inside `corners` to an upright square with a regular ruling.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8, the whole photo.
    corners : np.ndarray
        Shape (4, 2), float32 pixels, TL TR BR BL as they appear in the photo.
    rotation : int
        Degrees (0, 90, 180, 270) the photo is turned: the grid is read after
        turning it back by this much, counter-clockwise.
    lattice : np.ndarray, optional
        Shape (10, 10, 2): crossings as seen (from `find_lattice`), when the
        caller already has them.

    Returns
    -------
    Rectified
        Its image is GRID_SIZE x GRID_SIZE pixels (cells of CELL_SIZE).

    Raises
    ------
    ValueError
        Rotation not a multiple of 90.
    """
    if rotation % 90:
        raise ValueError(f"rotation must be a multiple of 90 degrees, got {rotation}")
    seen = find_lattice(gray, corners) if lattice is None else lattice
    upright = turn_lattice(seen, rotation)
    grid_side = float(np.linalg.norm(upright[0, 9] - upright[0, 0]))
    reduced, scale = reduce_for(gray, grid_side, GRID_SIZE)
    map_x, map_y = lattice_maps(upright * scale, CELL_SIZE)
    image = cv2.remap(reduced, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return Rectified.from_lattice(image, upright)


def rotate_cells(values: np.ndarray, rotation: int) -> np.ndarray:
    """Re-index a 9x9 (or 81-long) per-cell array read at rotation 0 to `rotation`.

    Parameters
    ----------
    values : np.ndarray
        Shape (81, ...) indexed by cell of the grid read with rotation 0.
    rotation : int
        Degrees (0, 90, 180, 270), as in `rectify`.

    Returns
    -------
    np.ndarray
        Same shape, indexed by cell of the grid read with `rotation`.
    """
    grid = values.reshape((9, 9) + values.shape[1:])
    return np.rot90(grid, k=(rotation // 90) % 4).reshape(values.shape)


def cell_quads(corners: np.ndarray | list, rotation: int) -> np.ndarray:
    """The 81 cells of an upright grid as quadrilaterals in the photo, through the homography of its corners.

    Parameters
    ----------
    corners : array-like, shape (4, 2)
        The grid's corners in the photo, pixels, TL TR BR BL as seen (the
        ``corners`` of the JSON contract).
    rotation : int
        Degrees (0, 90, 180, 270) the photo was turned to read the grid upright.

    Returns
    -------
    np.ndarray
        Shape (81, 4, 2) float64, pixels: indexed by upright cell
        ``row * 9 + column``, each cell's upright top-left, top-right,
        bottom-right and bottom-left corner as (x, y).

    Notes
    -----
    The upright grid is ``np.rot90(seen, k=rotation // 90)`` (see
    `rotate_cells`), so upright point (x, y) of the unit square is seen at
    (1 - y, x) for each quarter turn. A straight homography ignores a bent
    page; the drawn answers follow the ruling lattice instead.
    """
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, np.array(corners, np.float32))
    turns = (rotation // 90) % 4
    steps = np.arange(10) / 9.0
    ys, xs = np.meshgrid(steps, steps, indexing="ij")
    u, v = xs, ys  # upright unit-square coordinates of the 10 x 10 lattice points
    for _ in range(turns):
        u, v = 1 - v, u
    pts = np.stack([u, v], axis=-1).reshape(-1, 1, 2).astype(np.float64)
    seen = cv2.perspectiveTransform(pts, h).reshape(10, 10, 2)
    quads = np.stack([seen[:-1, :-1], seen[:-1, 1:], seen[1:, 1:], seen[1:, :-1]], axis=2)  # (9, 9, 4, 2)
    return quads.reshape(81, 4, 2)
