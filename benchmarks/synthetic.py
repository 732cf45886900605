"""Synthetic photos of printed puzzles, distorted like phone pictures, for stress tests.

`distort` takes a clean rendered page and applies, with strength growing with
the level: a perspective tilt, a lighting gradient (a shadow across the page),
defocus blur, sensor noise, down-scaling to phone size and JPEG compression.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Distortion strength per level: (max corner shift as share of side, max shadow depth,
#: blur sigma in pixels at 640 px, noise sigma in gray levels, JPEG quality).
LEVELS = {
    0: (0.00, 0.00, 0.0, 0.0, 95),
    1: (0.04, 0.25, 0.6, 4.0, 85),
    2: (0.08, 0.45, 1.0, 8.0, 70),
    3: (0.12, 0.60, 1.5, 12.0, 50),
}


def distort(
    page: np.ndarray,
    corners: np.ndarray,
    level: int,
    rng: np.random.Generator,
    size: tuple[int, int] = (640, 480),
    strength: tuple[float, float, float, float, int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A phone-like photo of a rendered page.

    Parameters
    ----------
    page : np.ndarray
        Shape (H, W), uint8 gray, a clean page.
    corners : np.ndarray
        Shape (4, 2) float32, the grid's corners on `page`.
    level : int
        0 (clean) to 3 (hard); see LEVELS.
    rng : np.random.Generator
        Source of randomness.
    size : (int, int)
        Output width and height, pixels.
    strength : tuple, optional
        A LEVELS entry to use instead of `level`'s (for harder photos than level 3).

    Returns
    -------
    (np.ndarray, np.ndarray)
        Photo of shape (size[1], size[0], 3) uint8 BGR (JPEG-decoded), and the
        grid's corners in it (4, 2) float32.
    """
    shift, shadow, blur, noise, quality = strength or LEVELS[level]
    w, h = size
    # Fit the grid to about 80% of the frame height, then move each frame corner at random.
    side = float(np.linalg.norm(corners[1] - corners[0]))
    scale = 0.8 * h / side
    centre = corners.mean(axis=0)
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    src = np.array([centre + (p - [w / 2, h / 2]) / scale for p in frame], np.float32)
    dst = (frame + rng.uniform(-shift, shift, (4, 2)) * [w, h]).astype(np.float32)
    H = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(page, H, (w, h), flags=cv2.INTER_AREA, borderValue=230).astype(np.float32)
    if shadow:
        angle = rng.uniform(0, 2 * np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = (np.cos(angle) * (xx - w / 2) + np.sin(angle) * (yy - h / 2)) / max(w, h) + 0.5
        photo *= 1.0 - shadow * np.clip(ramp, 0, 1)
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    if noise:
        photo += rng.normal(0, noise, photo.shape).astype(np.float32)
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    colour = cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)
    ok, encoded = cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out_corners = cv2.perspectiveTransform(corners.reshape(1, 4, 2).astype(np.float32), H).reshape(4, 2)
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR), out_corners


def bend_page(page: np.ndarray, corners: np.ndarray, sagitta: float, rng: np.random.Generator) -> np.ndarray:
    """A page bent into a cylinder and seen from above, as a curled newspaper page is.

    The page is wrapped round a cylinder whose axis lies in the page at a
    random angle through the grid's centre, curving toward or away from the
    camera (at random), so that the grid's middle lies `sagitta` (a share of
    its side) off the chord between its edges. Seen by a pinhole camera two
    page sides away: lines across the axis bow, and the page's parts turned
    away from the camera are foreshortened (lines packed closer), as a
    homography cannot undo. The grid's corners move a little; the reading is
    scored on digits, not on corners, so they are not returned.

    Parameters
    ----------
    page : np.ndarray
        Shape (H, W) or (H, W, 3), uint8: a clean page.
    corners : np.ndarray
        Shape (4, 2) float32: the grid's corners on `page` (TL TR BR BL).
    sagitta : float
        Depth of the bend over the grid, as a share of the grid's side (0: flat, the page returned as is).
    rng : np.random.Generator
        Source of the axis's angle and the bend's direction.

    Returns
    -------
    np.ndarray
        The bent page, same shape and dtype (grey 200 where no page is seen).
    """
    if sagitta <= 0:
        return page
    h, w = page.shape[:2]
    half = float(np.linalg.norm(corners[1] - corners[0])) / 2
    radius = half * half / (2 * sagitta * 2 * half)  # sagitta s over half-chord L: R = L^2 / (2 s)
    distance = 2.0 * max(h, w)
    toward = float(rng.choice([-1.0, 1.0]))
    angle = rng.uniform(0, np.pi)
    across, along = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    centre = corners.mean(axis=0)
    # Arc length u across the axis -> where the camera sees it (monotonic within a quarter turn), inverted by table.
    reach = min(1.5 * max(h, w), 1.5 * radius)
    arc = np.linspace(-reach, reach, 8001)
    depth = toward * radius * (1 - np.cos(arc / radius))
    seen = radius * np.sin(arc / radius) * distance / (distance - depth)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    dx, dy = xx - centre[0], yy - centre[1]
    u = np.interp(dx * across[0] + dy * across[1], seen, arc)
    magnification = distance / (distance - toward * radius * (1 - np.cos(u / radius)))
    v = (dx * along[0] + dy * along[1]) / magnification
    map_x = (centre[0] + u * across[0] + v * along[0]).astype(np.float32)
    map_y = (centre[1] + u * across[1] + v * along[1]).astype(np.float32)
    border = (200, 200, 200) if page.ndim == 3 else 200
    return cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border)
