"""A photo degraded as phones degrade them: blur, sensor noise, JPEG, too little light, too few pixels.

Each function takes an image, (H, W) grey or (H, W, 3) BGR, uint8, and
returns a degraded copy of the same kind (`downscaled` a smaller one). The
strengths are in the image's own pixels and grey levels; a caller that means
them for another size of the same photo scales them (`benchmarks/degraded.py`
says them for a photo 640 pixels wide). Random draws come from the `rng`
passed in, so the same seed degrades the same way.

- `gaussian_blur`: defocus, a Gaussian point spread of `sigma` pixels.
- `motion_blur`: a hand that moves, a straight streak of `length` pixels at an angle.
- `sensor_noise`: Gaussian noise of `sigma` grey levels in grains of `grain`
  pixels, the same in every channel (a phone's pipeline takes the colour noise
  out and leaves its luminance noise).
- `jpeg`: the photo saved, or sent through a messaging app, at a JPEG quality.
- `underexposed`: too little light: every level scaled so that the mean grey
  level is `mean`, and rounded (the levels lost to rounding are lost).
- `darker_midtones`: a gamma above 1, the midtones darkened and the paper kept.
- `downscaled`: fewer pixels (area averaging).
"""

from __future__ import annotations

import cv2
import numpy as np


def gaussian_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """Defocus: `image` convolved with a Gaussian of standard deviation `sigma` pixels (its edges replicated)."""
    if sigma <= 0:
        return image.copy()
    return cv2.GaussianBlur(image, (0, 0), float(sigma), borderType=cv2.BORDER_REPLICATE)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """The point spread of a straight motion: a line `length` pixels long at `angle` degrees (counter-clockwise
    from the x axis), anti-aliased, summing to 1. Shape (k, k) float32, k odd, at least 1."""
    k = max(1, int(np.ceil(length)) | 1)
    scale = 8  # drawn 8 times as large and averaged down: an anti-aliased line of any length and angle
    canvas = np.zeros((k * scale, k * scale), np.float32)
    centre = (k * scale - 1) / 2
    dx, dy = np.cos(np.radians(angle)) * length * scale / 2, -np.sin(np.radians(angle)) * length * scale / 2
    shift = 4  # sub-pixel bits of cv2.line's coordinates
    start = (int(round((centre - dx) * 2**shift)), int(round((centre - dy) * 2**shift)))
    end = (int(round((centre + dx) * 2**shift)), int(round((centre + dy) * 2**shift)))
    cv2.line(canvas, start, end, 1.0, thickness=scale, lineType=cv2.LINE_AA, shift=shift)
    kernel = cv2.resize(canvas, (k, k), interpolation=cv2.INTER_AREA)
    total = float(kernel.sum())
    if total <= 0:
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, k // 2] = 1.0
        return kernel
    return kernel / total


def motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    """A hand that moves while the shutter is open: `image` convolved with `motion_kernel(length, angle)`
    (pixels, degrees), its edges replicated."""
    if length <= 1:
        return image.copy()
    return cv2.filter2D(image, -1, motion_kernel(length, angle), borderType=cv2.BORDER_REPLICATE)


def sensor_noise(image: np.ndarray, sigma: float, rng: np.random.Generator, grain: float = 1.0) -> np.ndarray:
    """Sensor noise: zero-mean Gaussian noise of standard deviation `sigma` grey levels added to every channel
    alike, clipped to 0..255.

    With `grain` above 1 the noise is drawn at 1 / `grain` of the image's
    size and enlarged (bilinear), then scaled back to `sigma`: the noise of a
    photo `grain` times smaller, seen in this larger copy of it.
    """
    if sigma <= 0:
        return image.copy()
    h, w = image.shape[:2]
    if grain > 1:
        small = rng.standard_normal((max(1, round(h / grain)), max(1, round(w / grain)))).astype(np.float32)
        noise = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        noise /= max(float(noise.std()), 1e-6)
    else:
        noise = rng.standard_normal((h, w)).astype(np.float32)
    noise *= np.float32(sigma)
    if image.ndim == 3:
        noise = noise[:, :, None]
    return np.clip(image.astype(np.float32) + noise, 0, 255).round().astype(np.uint8)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """`image` encoded as JPEG at `quality` (0-100) and decoded again.

    Raises
    ------
    OSError
        OpenCV cannot encode it, or decode it again.
    """
    decoded = cv2.imdecode(jpeg_bytes(image, quality), cv2.IMREAD_UNCHANGED)
    if decoded is None:
        raise OSError("cannot decode the JPEG just encoded")
    return decoded


def jpeg_bytes(image: np.ndarray, quality: int) -> np.ndarray:
    """`image` encoded as JPEG at `quality` (0-100): the file's bytes, (n,) uint8.

    Raises
    ------
    OSError
        OpenCV cannot encode it.
    """
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise OSError("cannot encode the image as JPEG")
    return data


def grey_mean(image: np.ndarray) -> float:
    """Mean grey level (0..255) of `image`, its luminance for a BGR one (`cv2.COLOR_BGR2GRAY`)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float(grey.mean())


def underexposed(image: np.ndarray, mean: float) -> np.ndarray:
    """Too little light: every level times `mean` / the image's mean grey level (`grey_mean`), rounded to whole
    levels, so that its mean grey level is about `mean` (an image already as dark is returned as it is).

    Scaling the light that reaches the sensor scales each gamma-encoded level
    by the same factor (a power law keeps products), so this is the photo
    taken with less exposure; the levels that rounding merges are what is lost.
    """
    current = grey_mean(image)
    if current <= mean:
        return image.copy()
    return np.clip(image.astype(np.float32) * np.float32(mean / current), 0, 255).round().astype(np.uint8)


def darker_midtones(image: np.ndarray, gamma: float) -> np.ndarray:
    """Levels v mapped to 255 * (v / 255) ** `gamma`: above 1 the midtones darken, black and white stay."""
    table = np.clip(np.round(255.0 * (np.arange(256) / 255.0) ** float(gamma)), 0, 255).astype(np.uint8)
    return cv2.LUT(image, table)


def downscaled(image: np.ndarray, factor: float) -> np.ndarray:
    """`image` resized to `factor` (0 < factor <= 1) of its width and height by area averaging (at least a pixel)."""
    if factor >= 1:
        return image.copy()
    h, w = image.shape[:2]
    size = (max(1, int(round(w * factor))), max(1, int(round(h * factor))))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
