"""Render puzzles as printed grids: printable pages and synthetic photos for tests.

Drawn with Pillow. Fonts are TrueType files (any the caller names) or
Pillow's built-in scalable font.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont


def _font(size: int, font_path: str | Path | None) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if font_path:
        return ImageFont.truetype(str(font_path), size)
    return ImageFont.load_default(size=size)


def draw_grid(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    givens: list[int],
    cell: float,
    thin: int = 1,
    thick: int = 3,
    font_path: str | Path | None = None,
    ink: int = 0,
) -> np.ndarray:
    """Draw one puzzle grid onto a Pillow drawing.

    Parameters
    ----------
    draw : ImageDraw.ImageDraw
        Target drawing (mode ``L`` or ``RGB``).
    origin : (float, float)
        Top-left corner of the grid's outer border, pixels.
    givens : list of int
        81 values, 0 for empty.
    cell : float
        Cell side, pixels.
    thin, thick : int
        Widths (pixels) of cell lines and of box and border lines.
    font_path : str or Path, optional
        TrueType font for the digits; Pillow's built-in font by default.
    ink : int
        Gray level of lines and digits (0 = black).

    Returns
    -------
    np.ndarray
        Shape (4, 2) float32: the outer corners TL TR BR BL, pixels.
    """
    x0, y0 = origin
    side = 9 * cell
    font = _font(int(cell * 0.7), font_path)
    for k in range(10):
        width = thick if k % 3 == 0 else thin
        p = k * cell
        draw.line([(x0 + p, y0), (x0 + p, y0 + side)], fill=ink, width=width)
        draw.line([(x0, y0 + p), (x0 + side, y0 + p)], fill=ink, width=width)
    for i, d in enumerate(givens):
        if d:
            r, c = divmod(i, 9)
            draw.text((x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell), str(d), fill=ink, font=font, anchor="mm")
    return np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float32)


def render_puzzle(
    givens: list[int],
    cell: int = 48,
    margin: int = 40,
    thin: int = 1,
    thick: int = 3,
    font_path: str | Path | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A single puzzle on white paper.

    Returns
    -------
    (np.ndarray, np.ndarray)
        Image of shape (H, W), uint8 gray, and the grid's corners (4, 2) float32.
    """
    size = 9 * cell + 2 * margin
    page = Image.new("L", (size, size), 255)
    corners = draw_grid(ImageDraw.Draw(page), (margin, margin), givens, cell, thin, thick, font_path)
    return np.asarray(page, np.uint8).copy(), corners


def render_page(
    puzzles: list[list[int]],
    title: str = "",
    subtitles: list[str] | None = None,
    page_size: tuple[int, int] = (1240, 1754),
    per_row: int = 2,
    font_path: str | Path | None = None,
) -> Image.Image:
    """A printable page (A4 at 150 dpi by default) with one or several puzzles.

    Parameters
    ----------
    puzzles : list of list of int
        Each 81 values, 0 for empty.
    title : str
        Printed at the top of the page.
    subtitles : list of str, optional
        One caption per puzzle (for example its number and level).
    page_size : (int, int)
        Width and height, pixels.
    per_row : int
        Puzzles side by side (one puzzle is always centred alone).
    font_path : str or Path, optional
        TrueType font for digits and text.

    Returns
    -------
    PIL.Image.Image
        Mode ``L``.
    """
    width, height = page_size
    page = Image.new("L", page_size, 255)
    draw = ImageDraw.Draw(page)
    top = 60
    if title:
        draw.text((width / 2, top), title, fill=0, font=_font(44, font_path), anchor="mm")
        top += 60
    cols = 1 if len(puzzles) == 1 else per_row
    rows = -(-len(puzzles) // cols)
    slot_w = width / cols
    slot_h = (height - top - 40) / max(rows, 1)
    cell = int(min(slot_w * 0.8, slot_h * 0.8 - 40) / 9)
    for k, givens in enumerate(puzzles):
        r, c = divmod(k, cols)
        x = c * slot_w + (slot_w - 9 * cell) / 2
        y = top + r * slot_h + 50
        if subtitles:
            draw.text((x, y - 30), subtitles[k], fill=0, font=_font(26, font_path), anchor="lm")
        draw_grid(draw, (x, y), givens, cell, thin=max(1, cell // 30), thick=max(3, cell // 10), font_path=font_path)
    return page
