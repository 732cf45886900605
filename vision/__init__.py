"""OpenCV stage: locate grids, rectify, split cells, read digits (KNN), draw overlays.

Data flow: ``locate_grids`` (corners) -> ``read_grid`` (rectify, cells, digits,
orientation) -> ``draw_digits`` / ``draw_hint`` / ``draw_mistakes`` on the photo.
Knows nothing of Sudoku rules; the solver package knows nothing of pixels.

The names below are imported on first use (PEP 562), so that importing
``snapsolve.vision.formats`` does not load OpenCV and scikit-learn.
"""

from __future__ import annotations

import importlib

_HOMES = {
    "CellClassifier": "digits",
    "GridCandidate": "locate",
    "GridReading": "read",
    "ImageReadError": "formats",
    "ImageTooLarge": "formats",
    "draw_digits": "overlay",
    "draw_hint": "overlay",
    "draw_mistakes": "overlay",
    "draw_question": "overlay",
    "encode_image": "image_io",
    "locate_grids": "locate",
    "read_grid": "read",
    "read_image": "image_io",
    "read_pencil_marks": "pencil",
    "to_gray": "image_io",
    "write_image": "image_io",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
