"""OpenCV stage: locate grids, rectify, split cells, read digits (KNN), draw overlays.

Data flow: ``locate_grids`` (corners) -> ``read_grid`` (rectify, cells, digits,
orientation) -> ``draw_digits`` / ``draw_hint`` on the photo. Knows nothing of
Sudoku rules; the solver package knows nothing of pixels.
"""

from .digits import CellClassifier
from .image_io import ImageReadError, read_image, to_gray, write_image
from .locate import GridCandidate, locate_grids
from .overlay import draw_digits, draw_hint, draw_mistakes
from .read import GridReading, read_grid

__all__ = [
    "CellClassifier", "GridCandidate", "GridReading", "ImageReadError", "draw_digits", "draw_hint", "draw_mistakes",
    "locate_grids", "read_grid", "read_image", "to_gray", "write_image",
]
