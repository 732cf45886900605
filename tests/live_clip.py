"""A camera clip made from a sample photo with simulated hand motion, for the live-camera tests and benchmark.

The photo is seen through a homography that drifts frame to frame (scale,
rotation, a little tilt and shake), a few frames are blurred (a hand
moving), and two stretches show no grid (the camera pointing at the table).
Chromium's fake camera plays the clip as MJPEG (`write_mjpeg`: JPEG frames one
after another, which it reads at 30 frames a second and loops).
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

#: Frames a second of the clip (Chromium's fake camera plays MJPEG at 30).
FPS = 30
#: Frames of the clip.
FRAMES = 120
#: Frames showing no grid: the camera starts on the table, and wanders off once.
NO_GRID = set(range(0, 4)) | set(range(64, 76))
#: Frames blurred by motion: frame -> length of the sideways shake, pixels (15 hides the grid).
BLURRED = {20: 15, 21: 15, 45: 9, 46: 9, 47: 9, 90: 15}


def _table(shape: tuple[int, int], seed: int) -> np.ndarray:
    """A wooden-table-like picture without a grid: smooth brown noise and a few strokes (BGR uint8)."""
    h, w = shape
    rng = np.random.default_rng(seed)
    noise = cv2.resize(rng.random((h // 16, w // 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    base = np.stack([60 + 40 * noise, 90 + 50 * noise, 130 + 60 * noise], axis=-1).astype(np.uint8)
    for _ in range(6):
        x, y = rng.integers(0, w), rng.integers(0, h)
        cv2.line(
            base, (int(x), int(y)), (int(x + rng.integers(-200, 200)), int(y + rng.integers(-40, 40))), (40, 60, 90), 2
        )
    return base


def motion(t: float, size: tuple[int, int]) -> np.ndarray:
    """The hand's homography at clip time `t` (seconds) for a frame of `size` (width, height); (3, 3) float64."""
    w, h = size
    scale = 0.8 + 0.06 * math.sin(2 * math.pi * t / 2.3)
    angle = math.radians(4 * math.sin(2 * math.pi * t / 3.1))
    dx = 18 * math.sin(2 * math.pi * t / 1.7) + 3 * math.sin(2 * math.pi * t * 7.3)
    dy = 12 * math.cos(2 * math.pi * t / 2.9) + 3 * math.cos(2 * math.pi * t * 6.1)
    tilt = 0.00012 * math.sin(2 * math.pi * t / 2.0)
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
    turn = np.array(
        [
            [scale * math.cos(angle), -scale * math.sin(angle), 0],
            [scale * math.sin(angle), scale * math.cos(angle), 0],
            [0, 0, 1],
        ]
    )
    perspective = np.array([[1, 0, 0], [0, 1, 0], [tilt, tilt / 2, 1]])
    back = np.array([[1, 0, w / 2 + dx], [0, 1, h / 2 + dy], [0, 0, 1]])
    return back @ perspective @ turn @ centre


def make_frames(photo: Path, frames: int = FRAMES, size: tuple[int, int] = (640, 480)) -> list[np.ndarray]:
    """The clip's frames, each (height, width, 3) uint8 BGR.

    Parameters
    ----------
    photo : Path
        A photo of a whole grid (e.g. ``samples/image1.jpg``).
    frames : int
        How many frames.
    size : (int, int)
        Width and height of the frames, pixels.
    """
    image = cv2.resize(cv2.imread(str(photo)), size, interpolation=cv2.INTER_AREA)
    table = _table((size[1], size[0]), seed=99)
    out = []
    for n in range(frames):
        if n in NO_GRID:
            out.append(_table((size[1], size[0]), seed=n // 8))
            continue
        h = motion(n / FPS, size)
        frame = cv2.warpPerspective(image, h, size, borderMode=cv2.BORDER_CONSTANT)
        inside = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), h, size) > 0
        frame = np.where(inside[..., None], frame, table)  # the page lies on the table
        if n in BLURRED:
            k = BLURRED[n]
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1 / k  # a sideways shake
            frame = cv2.filter2D(frame, -1, kernel)
        out.append(frame)
    return out


def jpeg(frame: np.ndarray, quality: int = 75) -> bytes:
    """One frame as JPEG bytes."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError("cannot encode the frame as JPEG")
    return data.tobytes()


def write_mjpeg(frames: list[np.ndarray], target: Path, quality: int = 80) -> Path:
    """Write the frames as an MJPEG file (JPEGs back to back) for ``--use-file-for-fake-video-capture``."""
    with open(target, "wb") as fh:
        for frame in frames:
            fh.write(jpeg(frame, quality))
    return target
