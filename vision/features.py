"""Shape features of a digit crop: size-normalised, optionally deskewed, described by HOG, aspect and ink layout.

The digit shape follows OpenCV's ``samples/python/digits.py``: the crop is
size-normalised (`normalize_digit`), blurred and described by a histogram of
oriented gradients (Dalal and Triggs, "Histograms of Oriented Gradients for
Human Detection", CVPR 2005; `hog`, computed in NumPy over a batch of crops),
plus its aspect ratio and a thumbnail of its ink (`ink_thumbnails`: where the
ink lies, which a blurred, small digit keeps when its gradients fade into
noise: the open lower left of a 5 against a 6). Handwritten digits are first
deskewed by their image moments (`deskew`, as OpenCV's sample does: a hand
slants its own way).
"""

from __future__ import annotations

import cv2
import numpy as np

from .cells import MARK_FEATURES

#: Side (pixels) of the normalised digit image.
NORM_SIZE = 28
#: Size (pixels) of the box the digit is scaled into, inside NORM_SIZE.
FIT_SIZE = 20

#: HOG geometry: 7x7-pixel cells, 2x2-cell blocks moved one cell at a time, 9 bins over 0..180 degrees.
HOG_CELL = 7
HOG_BINS = 9
HOG_LENGTH = 9 * 4 * HOG_BINS
#: Ink thumbnail: the mean of each THUMB_BLOCK x THUMB_BLOCK pixels of the normalised digit (7 x 7 values),
#: scaled to Euclidean norm THUMB_NORM: that of the 9 HOG blocks (each of norm 1), so layout and gradients
#: weigh alike in a distance.
THUMB_BLOCK = 4
THUMB_SIDE = NORM_SIZE // THUMB_BLOCK
THUMB_NORM = 3.0
FEATURE_LENGTH = HOG_LENGTH + 1 + THUMB_SIDE * THUMB_SIDE
#: Rows of a normalised image (`normalised_images`) that can hold ink: `normalize_digit` centres at most
#: FIT_SIZE rows, the blur spreads them by one, and `deskew` shears along the rows only.
INK_ROWS = range((NORM_SIZE - FIT_SIZE) // 2 - 1, (NORM_SIZE + FIT_SIZE) // 2 + 1)

#: Scale of each mark feature in the kind model's distance (the rest are shares of a cell, weight 1).
KIND_SCALE = {"pieces": 0.25, "stroke_width": 10.0}


def normalize_digit(crop: np.ndarray) -> np.ndarray:
    """Scale a tight digit crop into a centred NORM_SIZE square.

    The longer side is scaled to FIT_SIZE pixels, keeping the aspect ratio (a
    1 stays narrow), and the result is centred by its bounding box.

    Parameters
    ----------
    crop : np.ndarray
        Shape (h, w), uint8 ink strength, 0 = paper.

    Returns
    -------
    np.ndarray
        Shape (NORM_SIZE, NORM_SIZE), uint8.
    """
    h, w = crop.shape
    scale = FIT_SIZE / max(h, w)
    nh, nw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((NORM_SIZE, NORM_SIZE), np.uint8)
    y, x = (NORM_SIZE - nh) // 2, (NORM_SIZE - nw) // 2
    out[y : y + nh, x : x + nw] = small
    return out


def hog(images: np.ndarray, cell: int = HOG_CELL) -> np.ndarray:
    """Histograms of oriented gradients of a batch of NORM_SIZE images.

    Parameters
    ----------
    images : np.ndarray
        Shape (n, NORM_SIZE, NORM_SIZE), any real dtype.
    cell : int
        Side of a HOG cell, pixels (HOG_CELL, 7, for every model's
        features; finer cells resolve strokes closer together).
        Pixels left over when it does not divide NORM_SIZE count in the last
        row and column of cells.

    Returns
    -------
    np.ndarray
        Shape (n, (NORM_SIZE // cell - 1) ** 2 * 4 * HOG_BINS), float32 (324
        for 7-pixel cells): for each block of 2x2 cells (overlapping, one cell
        apart), 4 cells x 9 unsigned-orientation bins with linear
        interpolation between bins, L2-Hys normalised per block.
    """
    img = images.astype(np.float32)
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, :, 1:-1] = img[:, :, 2:] - img[:, :, :-2]
    gy[:, 1:-1, :] = img[:, 2:, :] - img[:, :-2, :]
    # Only the pixels with a gradient (the paper around a digit has none): the others add nothing to any bin,
    # and leaving them out changes no sum (each bin adds its pixels' non-negative weights in the same order).
    on = np.flatnonzero((gx != 0) | (gy != 0))
    gx, gy = gx.ravel()[on], gy.ravel()[on]
    magnitude = np.hypot(gx, gy)
    angle = np.rad2deg(np.arctan2(gy, gx)) % 180.0
    position = angle / (180.0 / HOG_BINS) - 0.5
    low = np.floor(position).astype(np.int64)
    frac = position - low
    n, size = img.shape[0], img.shape[1]
    cells = size // cell
    # One flat histogram index per pixel and bin: (image, cell row, cell column, bin).
    cell_index = np.minimum(np.arange(size) // cell, cells - 1)
    cell_index = cell_index[:, None] * cells + cell_index[None, :]
    base = ((np.arange(n)[:, None, None] * cells * cells + cell_index[None]) * HOG_BINS).ravel()[on]
    hist = np.zeros(n * cells * cells * HOG_BINS, np.float64)
    for offset, weight in ((0, 1.0 - frac), (1, frac)):
        index = base + (low + offset) % HOG_BINS
        hist += np.bincount(index, weights=magnitude * weight, minlength=hist.size)
    hist = hist.reshape(n, cells, cells, HOG_BINS).astype(np.float32)
    blocks = []
    for by in range(cells - 1):
        for bx in range(cells - 1):
            block = hist[:, by : by + 2, bx : bx + 2, :].reshape(n, -1)
            block = block / np.sqrt((block**2).sum(axis=1, keepdims=True) + 1e-6)
            block = np.minimum(block, 0.2)
            block = block / np.sqrt((block**2).sum(axis=1, keepdims=True) + 1e-6)
            blocks.append(block)
    return np.concatenate(blocks, axis=1)


def ink_thumbnails(images: np.ndarray) -> np.ndarray:
    """Coarse ink layout of a batch of NORM_SIZE images: block means, scaled to norm THUMB_NORM.

    Parameters
    ----------
    images : np.ndarray
        Shape (n, NORM_SIZE, NORM_SIZE), uint8 ink strength (0 = paper).

    Returns
    -------
    np.ndarray
        Shape (n, THUMB_SIDE * THUMB_SIDE), float32: the mean ink of each
        THUMB_BLOCK x THUMB_BLOCK-pixel block, row-major, the vector scaled to
        Euclidean norm THUMB_NORM (all zeros for an image without ink).
    """
    n = len(images)
    blocks = images.astype(np.float32).reshape(n, THUMB_SIDE, THUMB_BLOCK, THUMB_SIDE, THUMB_BLOCK)
    thumbs = blocks.mean(axis=(2, 4)).reshape(n, -1)
    return thumbs * (THUMB_NORM / np.maximum(np.linalg.norm(thumbs, axis=1, keepdims=True), 1e-6))


def deskew(image: np.ndarray) -> np.ndarray:
    """Undo the slant of a normalised digit by its image moments (OpenCV's ``samples/python/digits.py``).

    The slant is mu11 / mu02 of the ink (second-order central moments); the
    image is sheared by it about its centre so the digit's main axis is
    upright. Input and output shape (NORM_SIZE, NORM_SIZE), uint8; an image
    with no vertical spread is returned as is.
    """
    m = cv2.moments(image)
    if abs(m["mu02"]) < 1e-2:
        return image
    skew = m["mu11"] / m["mu02"]
    shear = np.array([[1, skew, -0.5 * NORM_SIZE * skew], [0, 1, 0]], np.float32)
    return cv2.warpAffine(image, shear, (NORM_SIZE, NORM_SIZE), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)


def normalised_images(crops: list, upright: bool = False) -> np.ndarray:
    """Digit crops as the shape features see them: `normalize_digit`, `deskew` when `upright`, then a
    3 x 3 Gaussian blur.

    `crops`: each shape (h, w), uint8 ink strength (0 = paper), at least one.
    Returns shape (n, NORM_SIZE, NORM_SIZE) uint8.
    """
    straighten = deskew if upright else (lambda image: image)
    return np.stack([cv2.GaussianBlur(straighten(normalize_digit(c)), (3, 3), 0) for c in crops])


def features_of(crops: list, upright: bool = False, images: np.ndarray | None = None) -> np.ndarray:
    """Shape features of digit crops: HOG of the normalised crop, its aspect ratio and its ink thumbnail.

    Parameters
    ----------
    crops : list of np.ndarray
        Each shape (h, w), uint8 ink strength (0 = paper), such as
        `vision.cells.CellMarks.crops`.
    upright : bool
        Deskew each normalised digit first (`deskew`): the handwritten
        model's shapes, which a hand slants its own way.
    images : np.ndarray, optional
        ``normalised_images(crops, upright)`` (n, NORM_SIZE, NORM_SIZE) uint8
        when the caller has them, so as not to normalise the crops twice.

    Returns
    -------
    np.ndarray
        Shape (n, FEATURE_LENGTH) float32: HOG_LENGTH (324) HOG values,
        width / height / 2, and the THUMB_SIDE * THUMB_SIDE (49) values of
        `ink_thumbnails`.
    """
    if not crops:
        return np.zeros((0, FEATURE_LENGTH), np.float32)
    norm = normalised_images(crops, upright) if images is None else images
    aspect = np.array([[c.shape[1] / c.shape[0] * 0.5] for c in crops], np.float32)
    return np.concatenate([hog(norm), aspect, ink_thumbnails(norm)], axis=1).astype(np.float32)


def kind_features(marks_features: np.ndarray) -> np.ndarray:
    """Mark features (n, len(MARK_FEATURES)) scaled for the kind model's Euclidean distance.

    The number of pieces is capped at 4; stroke width is scaled up to the
    range of the other features. Returns shape (n, len(MARK_FEATURES)) float32.
    """
    x = np.asarray(marks_features, np.float32).copy()
    pieces = MARK_FEATURES.index("pieces")
    x[:, pieces] = np.minimum(x[:, pieces], 4)
    for name, scale in KIND_SCALE.items():
        x[:, MARK_FEATURES.index(name)] *= scale
    return x


#: Grey levels of a stored sample image (`pack_images`): 16, two pixels a byte.
STORED_LEVELS = 16


def pack_images(images: np.ndarray) -> np.ndarray:
    """Normalised images as a model stores them: their `INK_ROWS`, each pixel rounded to one of
    STORED_LEVELS grey levels, two pixels a byte.

    `images`: shape (n, NORM_SIZE, NORM_SIZE), uint8. Returns shape (n, len(INK_ROWS), NORM_SIZE // 2), uint8:
    each byte holds a pixel's level in its high four bits and its right neighbour's in its low four.
    `unpack_images` undoes it, each pixel within 255 / (STORED_LEVELS - 1) / 2 of its value.
    """
    step = 255 // (STORED_LEVELS - 1)
    levels = (np.asarray(images)[:, INK_ROWS.start : INK_ROWS.stop].astype(np.uint16) + step // 2) // step
    levels = levels.astype(np.uint8)
    return np.ascontiguousarray((levels[:, :, 0::2] << 4) | levels[:, :, 1::2])


def unpack_images(packed: np.ndarray) -> np.ndarray:
    """Normalised images from `pack_images`' bytes (n, len(INK_ROWS), NORM_SIZE // 2): shape (n, NORM_SIZE,
    NORM_SIZE), uint8, the rows outside INK_ROWS blank."""
    packed = np.asarray(packed)
    step = 255 // (STORED_LEVELS - 1)
    out = np.zeros((len(packed), NORM_SIZE, NORM_SIZE), np.uint8)
    rows = out[:, INK_ROWS.start : INK_ROWS.stop]
    rows[:, :, 0::2] = (packed >> 4) * step
    rows[:, :, 1::2] = (packed & 0x0F) * step
    return out
