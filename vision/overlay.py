"""Overlay: draw digits back onto the photo through the inverse homography.

Digits are drawn upright on a square canvas that matches the rectified grid,
then the canvas is warped into the photo with the inverse homography, so they
take the photo's perspective and sit inside their cells; on a bent page, each
cell through its own quad of the grid's lattice.
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from .rectify import GRID_SIZE

#: Colour of drawn digits (BGR): blue, distinct from black or red print.
DIGIT_COLOUR = (215, 90, 0)
#: Colour of hint highlights (BGR): orange.
HINT_COLOUR = (0, 140, 255)
#: Colour of wrong entries' rings and their right digits (BGR): red.
MISTAKE_COLOUR = (30, 30, 230)
#: Amber (BGR): a question about an unclear entry.
QUESTION_COLOUR = (0, 150, 240)


def _canvas_side(corners: np.ndarray) -> int:
    """Canvas side (pixels) near the grid's size in the photo, so strokes stay crisp."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return int(np.clip(sides.max(), GRID_SIZE, 4 * GRID_SIZE))


def _blank_canvas(corners: np.ndarray) -> tuple[int, float, np.ndarray, np.ndarray]:
    """(side, cell size, BGR canvas, alpha mask) for drawing over a grid with these corners."""
    side = _canvas_side(np.asarray(corners, np.float32))
    return side, side / 9.0, np.zeros((side, side, 3), np.uint8), np.zeros((side, side), np.uint8)


#: A lattice whose crossings lie farther than this share of a cell from where
#: the corners' homography puts them (a bent page) is drawn along, cell by cell.
BENT_DRAWING = 0.1


def _bent_lattice(lattice: np.ndarray | None, to_photo: np.ndarray, side: int) -> np.ndarray | None:
    """The lattice (10, 10, 2) float64 when its crossings stray from the homography `to_photo` (canvas of `side`
    pixels -> photo) by more than BENT_DRAWING of a cell, else None (drawn through the homography alone)."""
    if lattice is None:
        return None
    lattice = np.asarray(lattice, np.float64)
    steps = np.arange(10) * side / 9.0
    ys, xs = np.meshgrid(steps, steps, indexing="ij")
    seen = cv2.perspectiveTransform(np.stack([xs, ys], axis=-1).reshape(-1, 1, 2), to_photo).reshape(10, 10, 2)
    cell = np.linalg.norm(seen[0, 9] - seen[0, 0]) / 9.0
    return lattice if np.linalg.norm(seen - lattice, axis=2).max() > BENT_DRAWING * cell else None


def _warp_cells(
    canvas: np.ndarray,
    mask: np.ndarray,
    lattice: np.ndarray,
    origin: tuple[int, int],
    warped: np.ndarray,
    alpha: np.ndarray,
) -> None:
    """Redraw, in place, the photo rectangle's pixels (`warped`, `alpha`, whose top-left is `origin` in the photo)
    inside each cell of a bent lattice through that cell's own homography (canvas cell square -> the lattice's
    quad), so that drawn marks follow a bent page's cells; cells with nothing drawn are left as they are."""
    side = canvas.shape[0]
    cell = side / 9.0
    h, w = alpha.shape
    for r in range(9):
        for c in range(9):
            y0, y1, x0, x1 = int(r * cell), int((r + 1) * cell), int(c * cell), int((c + 1) * cell)
            if not mask[y0:y1, x0:x1].any():
                continue
            quad = np.array([lattice[r, c], lattice[r, c + 1], lattice[r + 1, c + 1], lattice[r + 1, c]]) - origin
            bx0, by0 = np.clip(np.floor(quad.min(axis=0)).astype(int) - 1, 0, [w, h])
            bx1, by1 = np.clip(np.ceil(quad.max(axis=0)).astype(int) + 2, 0, [w, h])
            if bx1 <= bx0 or by1 <= by0:
                continue
            square = np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], np.float32) * np.float32(cell)
            to_box = cv2.getPerspectiveTransform(square, (quad - [bx0, by0]).astype(np.float32))
            size = (int(bx1 - bx0), int(by1 - by0))
            inside = np.zeros((size[1], size[0]), np.uint8)
            cv2.fillConvexPoly(inside, np.round(quad - [bx0, by0]).astype(np.int32), 1)
            inside = inside.astype(bool)
            box_w = cv2.warpPerspective(canvas, to_box, size, flags=cv2.INTER_LINEAR)
            box_a = cv2.warpPerspective(mask, to_box, size, flags=cv2.INTER_LINEAR)
            warped[by0:by1, bx0:bx1][inside] = box_w[inside]
            alpha[by0:by1, bx0:bx1][inside] = box_a[inside]


def _warp_onto(
    photo: np.ndarray,
    canvas: np.ndarray,
    mask: np.ndarray,
    inverse: np.ndarray,
    side: int,
    in_place: bool,
    lattice: np.ndarray | None = None,
) -> np.ndarray:
    """Blend a drawn canvas (side x side) into the photo (or a copy) through `inverse` (GRID_SIZE square -> photo).

    Only the photo's rectangle under the grid is warped and blended, so a
    12-megapixel photo costs no more than its grid (and no copy `in_place`).
    With the grid's `lattice` (10, 10, 2) photo pixels, upright, as
    `vision.rectify.find_lattice` follows a bent page's lines, the cells of a
    lattice that strays from the homography (BENT_DRAWING) are drawn each
    through its own quad (`_warp_cells`).
    """
    scale = GRID_SIZE / side
    to_photo = inverse @ np.diag([scale, scale, 1.0])
    h, w = photo.shape[:2]
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float64).reshape(-1, 1, 2)
    outline = cv2.perspectiveTransform(square, to_photo).reshape(-1, 2)
    bent = _bent_lattice(lattice, to_photo, side)
    if bent is not None:
        outline = np.concatenate([outline, bent.reshape(-1, 2)])
    x0, y0 = np.clip(np.floor(outline.min(axis=0)).astype(int) - 2, 0, [w, h])
    x1, y1 = np.clip(np.ceil(outline.max(axis=0)).astype(int) + 2, 0, [w, h])
    out = photo if in_place else photo.copy()
    if x1 <= x0 or y1 <= y0:
        return out
    to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ to_photo
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpPerspective(canvas, to_roi, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, to_roi, size, flags=cv2.INTER_LINEAR)
    if bent is not None:
        _warp_cells(canvas, mask, bent, (int(x0), int(y0)), warped, alpha)
    # Blend only where something was drawn (a few per cent of the grid), at those pixels' indices: one pass
    # over the mask, and on a contiguous photo a flat gather and scatter.
    drawn = np.flatnonzero(alpha)
    rows, cols = np.divmod(drawn, alpha.shape[1])
    a = alpha.reshape(-1)[drawn].astype(np.uint16)[:, None]
    colour = warped.reshape(alpha.size, -1)[drawn]
    if out.flags.c_contiguous:
        pixels, at = out.reshape(h * w, -1), (rows + y0) * w + cols + x0
    else:
        pixels, at = out[y0:y1, x0:x1], (rows, cols)
    pixels[at] = ((pixels[at] * (255 - a) + colour * a + 127) // 255).astype(np.uint8)
    return out


def _put_digit(
    canvas: np.ndarray,
    mask: np.ndarray,
    text: str,
    centre: tuple[float, float],
    height: float,
    colour: tuple[int, int, int],
    halo: tuple[int, int, int] | None = None,
) -> None:
    """Draw `text` centred at `centre` (pixels), about `height` pixels tall, on a canvas and its alpha mask; with
    `halo`, bolder and over its own strokes widened in that colour (so that it reads over lines and ink)."""
    scale = height / 22.0
    thickness = max(1, int(round(height / (7 if halo else 9))))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
    if halo is not None:
        wide = thickness + 2 * max(1, int(round(height / 12)))
        cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, halo, wide, cv2.LINE_AA)
        cv2.putText(mask, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, wide, cv2.LINE_AA)
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    cv2.putText(mask, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thickness, cv2.LINE_AA)


def draw_digits(
    photo: np.ndarray,
    inverse: np.ndarray,
    corners: np.ndarray,
    digits: dict[int, int],
    colour: tuple[int, int, int] = DIGIT_COLOUR,
    small: set[int] | frozenset = frozenset(),
    in_place: bool = False,
    lattice: np.ndarray | None = None,
) -> np.ndarray:
    """Draw digits into cells of a grid seen in perspective.

    Parameters
    ----------
    photo : np.ndarray
        Shape (H, W, 3), uint8 BGR; not modified.
    inverse : np.ndarray
        Shape (3, 3): upright rectified-grid pixels (GRID_SIZE square) -> photo pixels.
    corners : np.ndarray
        Shape (4, 2), float32, the grid's corners in the photo (sets the drawing resolution).
    digits : dict of int to int
        Upright cell (0..80) -> digit (1..9) to draw.
    colour : tuple of int
        BGR colour.
    small : set of int
        Cells whose digit is drawn smaller in the cell's lower right, clear of
        pencilled candidates (usually written along the top).
    in_place : bool
        Draw into `photo` itself instead of a copy (saves copying a large photo).
    lattice : np.ndarray, optional
        Shape (10, 10, 2), photo pixels: the upright grid's line crossings
        (`GridReading.rectified.lattice`); on a bent page the marks follow its
        cells rather than the homography (`_warp_onto`).

    Returns
    -------
    np.ndarray
        Shape (H, W, 3) uint8: a new image, or `photo` itself when `in_place`.
    """
    side, cell, canvas, mask = _blank_canvas(corners)
    for index, digit in digits.items():
        r, c = divmod(index, 9)
        if index in small:
            centre, height = ((c + 0.68) * cell, (r + 0.68) * cell), cell * 0.4
        else:
            centre, height = ((c + 0.5) * cell, (r + 0.5) * cell), cell * 0.55
        _put_digit(canvas, mask, str(digit), centre, height, colour)
    return _warp_onto(photo, canvas, mask, inverse, side, in_place, lattice)


#: The right digit beside a ringed wrong entry is this share of a cell tall ...
RIGHT_DIGIT = 0.5
#: ... its ring's radius this share of a cell (clear of the written digit, which a player writes within the
#: cell's middle, and of the right digit at the cell's corner) ...
RING_RADIUS = 0.4
#: ... and the right digit's middle this share of a cell beyond the cell's corner, along its diagonal: the digit
#: straddles the ruled lines' crossing, in the corners of the cells round it, clear of the ring.
RIGHT_DIGIT_OUT = 0.09
#: A cell's corners in the order they are chosen for the right digit when as free as each other: top right,
#: top left, bottom right, bottom left, as (column, row) steps from the cell's top-left corner.
CORNERS = ((1, 0), (0, 0), (1, 1), (0, 1))


def free_corners(
    grid: np.ndarray | None, cells: list[int], busy: Collection[tuple[int, int]] = frozenset()
) -> dict[int, tuple[int, int]]:
    """The corner of each cell where its right digit goes: the one whose neighbourhood holds the least ink.

    The right digit of a ringed entry straddles one of its cell's corners
    (the crossing of two ruled lines), over the corners of the cells round
    it: the corner chosen is the one where the rectified grid shows the
    fewest dark pixels (the ruled lines left out) in the square the digit
    covers, that no other cell's digit has taken, and not one of `busy`
    unless all are; ties go in CORNERS' order. Without the grid image, the
    first such corner.

    Parameters
    ----------
    grid : np.ndarray or None
        The rectified grid (`rectify.Rectified.image`): shape (GRID_SIZE,
        GRID_SIZE), uint8 grey, upright, ruled line k at k * GRID_SIZE / 9.
    cells : list of int
        Upright cells (0..80), in the order their corners are chosen.
    busy : collection of (int, int)
        Crossings (column line, row line: 0..9 each) where other marks are
        drawn (an unclear entry's question, a pencilled cell's small digit).

    Returns
    -------
    dict of int to (int, int)
        Cell -> (column, row) step from its top-left corner: (1, 0) is its top-right corner.
    """
    cell = GRID_SIZE / 9.0
    half = int(round(RIGHT_DIGIT * cell / 2 + RIGHT_DIGIT_OUT * cell))
    ink = None
    if grid is not None:
        paper = float(np.percentile(grid, 90))
        ink = (grid < 0.7 * paper).astype(np.int32)
        lines = (np.arange(GRID_SIZE) + cell / 2) % cell - cell / 2  # each pixel's offset from its nearest line
        ruled = np.abs(lines) <= cell / 12
        ink[ruled, :] = 0
        ink[:, ruled] = 0
    taken: set[tuple[int, int]] = set()
    chosen = {}
    for index in cells:
        r, c = divmod(index, 9)
        best, best_key = None, None
        for dx, dy in CORNERS:
            crossing = (c + dx, r + dy)
            if crossing in taken:
                continue
            count = 0
            if ink is not None:
                x, y = int(round(crossing[0] * cell)), int(round(crossing[1] * cell))
                count = int(ink[max(0, y - half) : y + half, max(0, x - half) : x + half].sum())
            key = (crossing in busy, count)
            if best_key is None or key < best_key:
                best, best_key = (dx, dy), key
        chosen[index] = best if best is not None else CORNERS[0]
        taken.add((c + chosen[index][0], r + chosen[index][1]))
    return chosen


# `draw_digits`' photo and geometry (photo, inverse, corners, in_place, lattice) and the mistakes' own drawing
# (mistakes, colour, grid, busy), all but the first four with defaults.
def draw_mistakes(  # noqa: PLR0913
    photo: np.ndarray,
    inverse: np.ndarray,
    corners: np.ndarray,
    mistakes: dict[int, int | None],
    colour: tuple[int, int, int] = MISTAKE_COLOUR,
    in_place: bool = False,
    lattice: np.ndarray | None = None,
    grid: np.ndarray | None = None,
    busy: Collection[tuple[int, int]] = frozenset(),
) -> np.ndarray:
    """Ring each wrong entry in red and, when given, write the right digit beside it, at the cell's freest corner.

    The ring (RING_RADIUS of a cell) goes round the written digit; the right
    digit, RIGHT_DIGIT of a cell tall and haloed in white so that it reads
    over ruled lines, straddles the corner of the cell that `free_corners`
    chooses, outside the ring and the written digit.

    Parameters
    ----------
    photo, inverse, corners, in_place, lattice
        As in `draw_digits`.
    mistakes : dict of int to (int or None)
        Upright cell -> the solution's digit to show (None: ring only, as a
        hint that does not give the answer away).
    colour : tuple of int
        BGR colour.
    grid : np.ndarray, optional
        The rectified grid (`rectify.Rectified.image`, (GRID_SIZE, GRID_SIZE)
        uint8, upright), to find each right digit's freest corner.
    busy : collection of (int, int)
        Crossings where other marks are drawn, as in `free_corners`.

    Returns
    -------
    np.ndarray
        Shape (H, W, 3) uint8: a new image, or `photo` itself when `in_place`.
    """
    side, cell, canvas, mask = _blank_canvas(corners)
    thick = max(2, int(round(cell / 14)))
    shown = [index for index, right in mistakes.items() if right]
    at = free_corners(grid, shown, busy)
    for index in mistakes:
        r, c = divmod(index, 9)
        centre = (int((c + 0.5) * cell), int((r + 0.5) * cell))
        for img, col in ((canvas, colour), (mask, 255)):
            cv2.circle(img, centre, int(cell * RING_RADIUS), col, thick, cv2.LINE_AA)
    for index in shown:
        r, c = divmod(index, 9)
        dx, dy = at[index]
        out = RIGHT_DIGIT_OUT * cell
        middle = ((c + dx) * cell + (out if dx else -out), (r + dy) * cell + (out if dy else -out))
        _put_digit(canvas, mask, str(mistakes[index]), middle, cell * RIGHT_DIGIT, colour, halo=(255, 255, 255))
    return _warp_onto(photo, canvas, mask, inverse, side, in_place, lattice)


def draw_question(
    photo: np.ndarray,
    inverse: np.ndarray,
    corners: np.ndarray,
    cells: list[int],
    colour: tuple[int, int, int] = QUESTION_COLOUR,
    in_place: bool = False,
    lattice: np.ndarray | None = None,
) -> np.ndarray:
    """Mark entries whose reading is unclear: a small question mark in the cell's corner, no ring.

    Parameters
    ----------
    photo, inverse, corners, in_place, lattice
        As in `draw_digits`.
    cells : list of int
        Upright cells (0..80) to ask about.
    colour : tuple of int
        BGR colour (amber by default: a question, not an accusation).

    Returns
    -------
    np.ndarray
        Shape (H, W, 3) uint8: a new image, or `photo` itself when `in_place`.
    """
    side, cell, canvas, mask = _blank_canvas(corners)
    for index in cells:
        r, c = divmod(index, 9)
        _put_digit(canvas, mask, "?", ((c + 0.82) * cell, (r + 0.2) * cell), cell * 0.3, colour)
    return _warp_onto(photo, canvas, mask, inverse, side, in_place, lattice)


def draw_hint(
    photo: np.ndarray,
    inverse: np.ndarray,
    corners: np.ndarray,
    cells: list[int],
    placements: dict[int, int],
    eliminations: list[tuple[int, int]],
    in_place: bool = False,
    lattice: np.ndarray | None = None,
) -> np.ndarray:
    """Highlight a hint's cells, draw its placements and mark eliminated candidates.

    Parameters
    ----------
    photo, inverse, corners, in_place, lattice
        As in `draw_digits`.
    cells : list of int
        Upright cells (0..80) that carry the pattern: outlined.
    placements : dict of int to int
        Upright cell -> digit placed by the step: drawn large.
    eliminations : list of (int, int)
        (cell, digit) candidates removed: drawn small and crossed out, at the
        digit's candidate position in the cell (3x3 layout, 1 top-left).

    Returns
    -------
    np.ndarray
        Shape (H, W, 3) uint8: a new image, or `photo` itself when `in_place`.
    """
    side, cell, canvas, mask = _blank_canvas(corners)
    thick = max(2, int(round(cell / 14)))
    for index in cells:
        r, c = divmod(index, 9)
        p0 = (int(c * cell + thick), int(r * cell + thick))
        p1 = (int((c + 1) * cell - thick), int((r + 1) * cell - thick))
        for img, col in ((canvas, HINT_COLOUR), (mask, 255)):
            cv2.rectangle(img, p0, p1, col, thick)
    small = cell / 3.0
    for index, digit in eliminations:
        r, c = divmod(index, 9)
        sr, sc = divmod(digit - 1, 3)
        cx, cy = c * cell + (sc + 0.5) * small, r * cell + (sr + 0.5) * small
        scale = small / 30.0
        (tw, th), _ = cv2.getTextSize(str(digit), cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        org = (int(cx - tw / 2), int(cy + th / 2))
        a, b = (int(cx - small / 3), int(cy + small / 3)), (int(cx + small / 3), int(cy - small / 3))
        for img, col in ((canvas, (0, 0, 230)), (mask, 255)):
            cv2.putText(img, str(digit), org, cv2.FONT_HERSHEY_SIMPLEX, scale, col, 1, cv2.LINE_AA)
            cv2.line(img, a, b, col, max(1, thick // 2), cv2.LINE_AA)
    out = _warp_onto(photo, canvas, mask, inverse, side, in_place, lattice)
    return draw_digits(out, inverse, corners, placements, in_place=True, lattice=lattice) if placements else out
