"""Poor photos made readable: a dark photo brightened, a blurred one sharpened, a dim grid's contrast brought up,
a noisy one denoised.

The rest of the reading is built for photos with some contrast and little
noise: its thresholds are grey levels (`vision.cells.binarize_grid`'s 9 under
the local mean, `vision.locate.binarize`'s 7), and its models learnt sharp
print on paper well above its ink. A photo taken under a lamp in the evening
is dark (its paper at 30 grey levels, its print 10 below) and noisy (its
grain as strong as the print's contrast); a person still reads it. Each step
here is taken only where the photo measures it needed, so a photo that needs
none is read exactly as before:

- `restored_photo`: a dark photo (paper under DARK_PAPER) is brightened
  (its grey levels scaled, as with more light); grids are located and read
  in it.
- `sharpened`: a photo in which no grid is found, sharpened by an unsharp
  mask (`vision.locate.locate_sharpened` tries each of SHARPENINGS in turn):
  blur (a shaking hand, a lens out of focus) spreads a thin ruled line's ink
  over several pixels, too faint against the paper beside it for the
  threshold that finds lines, and an unsharp mask as wide as the spread
  gathers the line back into a dark core. The cells of a grid found so are
  read in the photo sharpened more mildly (`sharpened_to_read`).
- `restored_grid`: a rectified grid whose paper stands less than DIM_CONTRAST
  grey levels above its darkest ink (`GridCondition.dim`) is scaled so that
  its paper lies at PAPER_TARGET (every contrast grows by the same factor, as
  with more light), and denoised the same way when its grain is strong
  against that contrast (`GridCondition.noisy`): by non-local means (Buades,
  Coll and Morel, "A non-local algorithm for image denoising", CVPR 2005;
  OpenCV's ``fastNlMeansDenoising``), after the brightening, so that the
  levels the filter averages are not a few dark ones.
- `noisy_lines`: whether the coarse image a grid's ruled lines are looked
  for in is noisy (`vision.rectify` then looks for them averaged along
  their direction).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Noise, paper and ink are measured in every SAMPLE_STEP-th pixel of every SAMPLE_STEP-th row: a ninth of the
#: pixels measures them as surely in a tenth of the time.
SAMPLE_STEP = 3
#: A photo whose paper, its 90th percentile of grey, is darker than this is brightened, to PAPER_TARGET: the
#: rest of the reading measures ink in grey levels, which a dark photo's print barely differs by. Undegraded
#: phone photos' paper measures 106 and more.
DARK_PAPER = 90
#: The paper's grey level after brightening: that of a typical undegraded photo.
PAPER_TARGET = 170
#: The unsharp masks tried in turn on a photo where no grid is found (`vision.locate.locate_sharpened`), the
#: mildest first: each the standard deviation of its Gaussian, as a share of the photo's longer side, and its
#: amount (`sharpened`).
SHARPENINGS = ((0.01, 4.0), (0.0133, 8.0))
#: The unsharp mask (as SHARPENINGS') that the cells of a grid located sharpened are read in
#: (`sharpened_to_read`): milder than those, whose halos round the ink and raised grain of the paper read as marks.
READ_SHARPENING = (0.0033, 1.5)
#: Non-local means' filter strength h, in multiples of the noise's spread (`grain_noise`).
DENOISE_STRENGTH = 1.0
#: A rectified grid whose paper stands less than this many grey levels above its darkest ink (its 90th and 3rd
#: percentiles of grey) is dim. Undegraded photos' grids measure 50 and more.
DIM_CONTRAST = 40
#: A grid is noisy when its fine detail's spread (`fine_noise`) is above this share of its contrast; undegraded
#: photos' grids measure up to 0.032.
NOISY_GRID = 0.036
#: The same for the coarse image that a grid's ruled lines are looked for in (`noisy_lines`); the candidates of
#: undegraded photos measure up to 0.035.
NOISY_LINES = 0.045


def fine_noise(gray: np.ndarray) -> float:
    """The robust spread of an image's finest detail, grey levels: 1.4826 times the median absolute value of
    the image less its Gaussian blur of sigma 1 pixel ((H, W) uint8), in every SAMPLE_STEP-th pixel.

    Noise adds to every pixel's detail; ink's edges and the paper's grain,
    to few, so the median leaves them out. It underestimates noise whose
    grain is wider than a pixel (a reduced photo's, an enlarged grid's) but
    is comparable between images of one kind.
    """
    image = gray.astype(np.float32)
    return _spread((image - cv2.GaussianBlur(image, (0, 0), 1.0))[::SAMPLE_STEP, ::SAMPLE_STEP])


def grain_noise(gray: np.ndarray) -> float:
    """The robust spread of an image's detail finer than 4 pixels, grey levels ((H, W) uint8), as `fine_noise`
    with a blur of sigma 4: nearly all of a noise's spread, grains of a few pixels included (the filter
    strength of non-local means)."""
    image = gray.astype(np.float32)
    return _spread((image - cv2.GaussianBlur(image, (0, 0), 4.0))[::SAMPLE_STEP, ::SAMPLE_STEP])


def _spread(detail: np.ndarray) -> float:
    """1.4826 times the median absolute value of `detail` (float32, an image less its blur, whose centre is 0):
    the standard deviation of a normal distribution about 0, robust to a minority of outliers."""
    return float(1.4826 * np.median(np.abs(detail)))


def _brightened(gray: np.ndarray, paper: float) -> np.ndarray:
    """`gray` ((H, W) uint8) scaled so that the level `paper` becomes PAPER_TARGET, rounded and clipped."""
    return cv2.convertScaleAbs(gray, alpha=PAPER_TARGET / max(paper, 1.0))


def _denoised(gray: np.ndarray) -> np.ndarray:
    """Non-local means of `gray` ((H, W) uint8), its strength DENOISE_STRENGTH times its `grain_noise`
    (7-pixel patches, compared within 21 pixels)."""
    strength = DENOISE_STRENGTH * grain_noise(gray)
    return cv2.fastNlMeansDenoising(gray, None, h=strength, templateWindowSize=7, searchWindowSize=21)


def restored_photo(gray: np.ndarray) -> np.ndarray:
    """A grey photo ((H, W) uint8) to locate and read grids in: `gray` itself, or, when its paper (its 90th
    percentile of grey, in every SAMPLE_STEP-th pixel) is darker than DARK_PAPER, a new image brightened so
    that its paper lies at PAPER_TARGET."""
    paper = float(np.percentile(gray[::SAMPLE_STEP, ::SAMPLE_STEP], 90))
    return _brightened(gray, paper) if paper < DARK_PAPER else gray


def sharpened(gray: np.ndarray, sigma: float, amount: float) -> np.ndarray:
    """An unsharp mask of a grey photo: `gray` plus `amount` times its detail finer than `sigma`.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8.
    sigma : float
        Standard deviation of the Gaussian blur that the detail is measured against, pixels (above 0).
    amount : float
        How many times the detail (`gray` less its blur) is added.

    Returns
    -------
    np.ndarray
        Shape (H, W), uint8: (1 + `amount`) times `gray` less `amount` times
        its Gaussian blur (``cv2.GaussianBlur``, edges reflected), rounded
        and clipped to 0..255 (``cv2.addWeighted``).
    """
    blurred = cv2.GaussianBlur(gray, (0, 0), sigma)
    return cv2.addWeighted(gray, 1.0 + amount, blurred, -amount, 0.0)


def sharpened_to_read(gray: np.ndarray) -> np.ndarray:
    """A photo whose grids were located only sharpened (`vision.locate.locate_sharpened`: a blurred photo),
    sharpened to read their cells in: `sharpened` by READ_SHARPENING ((H, W) uint8 in and out)."""
    sigma, amount = READ_SHARPENING
    return sharpened(gray, sigma * max(gray.shape[:2]), amount)


@dataclass(frozen=True)
class GridCondition:
    """What a rectified grid's grey measures.

    Attributes
    ----------
    paper : float
        Its 90th percentile of grey (0..255).
    contrast : float
        `paper` less its 3rd percentile (the ruling's and the print's darkest ink), grey levels.
    noise : float
        `fine_noise` of the grid, grey levels.
    """

    paper: float
    contrast: float
    noise: float

    @property
    def dim(self) -> bool:
        """The contrast is under DIM_CONTRAST grey levels."""
        return self.contrast < DIM_CONTRAST

    @property
    def noisy(self) -> bool:
        """The noise is above NOISY_GRID of the contrast."""
        return self.noise > NOISY_GRID * max(self.contrast, 1.0)


def noisy_lines(coarse: np.ndarray) -> bool:
    """Whether a coarse grid image ((n, n) uint8, `vision.rectify`'s, some 32 pixels a cell) is too noisy to
    find its thin ruled lines as they are: its `fine_noise` is above NOISY_LINES of its contrast (its 90th
    less its 3rd percentile of grey)."""
    paper, ink = np.percentile(coarse[::SAMPLE_STEP, ::SAMPLE_STEP], [90, 3])
    return fine_noise(coarse) > NOISY_LINES * max(float(paper - ink), 1.0)


def grid_condition(grid: np.ndarray) -> GridCondition:
    """`GridCondition` of a rectified grid ((n, n) uint8)."""
    paper, ink = np.percentile(grid[::SAMPLE_STEP, ::SAMPLE_STEP], [90, 3])
    return GridCondition(float(paper), float(paper - ink), fine_noise(grid))


def restored_grid(grid: np.ndarray) -> np.ndarray:
    """A rectified grid to find marks in: its contrast brought up when dim, denoised when noisy.

    Parameters
    ----------
    grid : np.ndarray
        Shape (n, n), uint8: a rectified grid (`vision.rectify.Rectified.image`).

    Returns
    -------
    np.ndarray
        `grid` itself when it is neither dim nor noisy (`GridCondition`);
        else a new (n, n) uint8 image: scaled so that its paper lies at
        PAPER_TARGET when dim, then denoised by non-local means when noisy.
    """
    condition = grid_condition(grid)
    if not (condition.dim or condition.noisy):
        return grid
    image = _brightened(grid, condition.paper) if condition.dim else grid
    return _denoised(image) if condition.noisy else image
