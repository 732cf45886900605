"""Pixel bombs: files whose header claims a huge image are refused from the header, on every entry point,
and reading any file leaves Pillow's process-wide limit (``PIL.Image.MAX_IMAGE_PIXELS``) as it was (issue 27).
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from snapsolve.cli import main
from snapsolve.vision.formats import ImageReadError
from snapsolve.vision.image_io import header_size, read_image, reduction_for, render_pdf_page

from .conftest import SAMPLES

ROOT = Path(__file__).resolve().parent.parent


def png_bomb(path: Path, width: int, height: int) -> Path:
    """A valid PNG whose header claims width x height pixels (8-bit gray), with a few rows of data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = zlib.compress(b"\0" * (width + 1) * 4)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", rows)
        + chunk(b"IEND", b"")
    )
    return path


def jpeg_bomb(path: Path, width: int, height: int) -> Path:
    """A small real JPEG whose frame header (SOF0) is changed to claim width x height pixels."""
    ok, data = cv2.imencode(".jpg", np.full((16, 16, 3), 200, np.uint8))
    data = bytearray(data.tobytes())
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    path.write_bytes(bytes(data))
    return path


def tiff_bomb(path: Path, width: int, height: int) -> Path:
    """A baseline little-endian TIFF (8-bit gray, one strip) whose tags claim width x height pixels."""
    entries = [
        (256, 4, width),
        (257, 4, height),
        (258, 3, 8),
        (259, 3, 1),
        (262, 3, 1),
        (273, 4, 0),
        (277, 3, 1),
        (278, 4, height),
        (279, 4, min(width * height, 2**32 - 1)),
    ]
    ifd_size = 2 + 12 * len(entries) + 4
    data_offset = 8 + ifd_size
    ifd = struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        value = data_offset if tag == 273 else value
        ifd += struct.pack("<HHI", tag, kind, 1) + (
            struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value)
        )
    path.write_bytes(b"II*\0" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + b"\0" * 64)
    return path


def heic_bomb(path: Path, width: int, height: int) -> Path:
    """A small real HEIC (pillow-heif) whose image spatial extents box (``ispe``) claims width x height pixels."""
    import pillow_heif

    small = pillow_heif.from_bytes(mode="RGB", size=(64, 64), data=bytes(64 * 64 * 3))
    small.save(path)
    data = bytearray(path.read_bytes())
    ispe = data.index(b"ispe")  # box type, then version and flags (4 bytes), width, height (4 bytes each)
    data[ispe + 8 : ispe + 16] = struct.pack(">II", width, height)
    path.write_bytes(bytes(data))
    return path


def pdf_page(path: Path, width_pt: float, height_pt: float) -> Path:
    """A one-page PDF of the given page size in points (1/72 inch)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    doc.new_page(width_pt, height_pt)
    doc.save(str(path))
    doc.close()
    return path


#: (name, maker, size): over Pillow's own refusal (2x its limit) and between our limit and that.
BOMBS = [
    ("bomb.png", png_bomb, (40_000, 40_000)),
    ("bomb_medium.png", png_bomb, (12_000, 10_000)),
    ("bomb.jpg", jpeg_bomb, (60_000, 60_000)),
    ("bomb_medium.jpg", jpeg_bomb, (11_000, 10_000)),
    ("bomb.tif", tiff_bomb, (50_000, 50_000)),
    ("bomb_medium.tif", tiff_bomb, (10_500, 10_000)),
]
try:  # HEIC is read through the optional pillow-heif (in the test extra)
    import pillow_heif  # noqa: F401
except ImportError:
    pass
else:
    BOMBS += [("bomb.heic", heic_bomb, (40_000, 40_000)), ("bomb_medium.heic", heic_bomb, (11_000, 10_000))]


@pytest.fixture
def bombs(tmp_path) -> list[Path]:
    paths = [maker(tmp_path / name, *size) for name, maker, size in BOMBS]
    # A page of 200 x 200 inches: 40,000 x 40,000 pixels at the 200 dpi pages are read at.
    paths.append(pdf_page(tmp_path / "bomb.pdf", 14_400, 14_400))
    return paths


@pytest.fixture
def pillow_limit():
    """Pillow's limit before the test; the test fails if anything changed it."""
    before = Image.MAX_IMAGE_PIXELS
    yield before
    assert Image.MAX_IMAGE_PIXELS == before, "Pillow's process-wide MAX_IMAGE_PIXELS was changed"


def test_bombs_are_what_they_claim(bombs):
    if any(path.suffix == ".heic" for path in bombs):
        import pillow_heif

        pillow_heif.register_heif_opener()
    for path in bombs[:-1]:
        with (
            pytest.warns(Image.DecompressionBombWarning)
            if "medium" in path.name
            else pytest.raises(Image.DecompressionBombError)
        ):
            Image.open(path).close()


def test_reading_every_format_leaves_pillows_limit(tmp_path, pillow_limit):
    image = cv2.imread(str(SAMPLES / "image1.jpg"))
    for suffix in (".jpg", ".png", ".tif", ".webp", ".bmp"):
        path = tmp_path / f"photo{suffix}"
        cv2.imwrite(str(path), image)
        assert header_size(path) == (image.shape[1], image.shape[0])
        assert read_image(path).shape == image.shape and reduction_for(path, 100) >= 1
    assert render_pdf_page(pdf_page(tmp_path / "page.pdf", 612, 792), 0).shape[:2] == (2200, 1700)
    try:
        import pillow_heif
    except ImportError:
        pass
    else:
        heif = pillow_heif.from_bytes(
            mode="RGB", size=(image.shape[1], image.shape[0]), data=cv2.cvtColor(image, cv2.COLOR_BGR2RGB).tobytes()
        )
        heif.save(tmp_path / "photo.heic")
        assert read_image(tmp_path / "photo.heic").shape == image.shape
    assert Image.MAX_IMAGE_PIXELS == pillow_limit


def test_bombs_refused_from_their_header(bombs, pillow_limit):
    for path in bombs:
        with pytest.raises(ImageReadError, match="pixel limit"):
            read_image(path) if path.suffix != ".pdf" else render_pdf_page(path, 0)


def test_a_lower_pillow_limit_set_by_the_user_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.zeros((40, 40, 3), np.uint8))
    assert header_size(path) == (40, 40) and Image.MAX_IMAGE_PIXELS == 1000


def test_command_line_refuses_each_bomb_in_one_line(bombs, capsys, pillow_limit):
    assert main(["--json", "--no-image", "--workers", "1", *map(str, bombs)]) == 1
    captured = capsys.readouterr()
    results = [json.loads(line) for line in captured.out.splitlines()]
    assert len(results) == len(bombs) and all("pixel limit" in r["error"] for r in results), results
    errors = captured.err.strip().splitlines()
    assert len(errors) == len(bombs) + 1 and "Traceback" not in captured.err  # one line each, then the summary
    assert all(line.startswith("snapsolve: ") and "pixel limit" in line for line in errors[:-1])


@pytest.mark.slow
def test_batch_workers_refuse_each_bomb(bombs, tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "snapsolve",
            "--json",
            "--no-image",
            "--workers",
            "2",
            *map(str, bombs),
            str(SAMPLES / "image1.jpg"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    results = [json.loads(line) for line in result.stdout.splitlines()]
    assert all("pixel limit" in r["error"] for r in results[:-1]) and results[-1]["error"] is None


def test_no_assignment_to_pillows_limit_outside_tests():
    found = subprocess.run(
        [
            "grep",
            "-rnE",
            r"MAX_IMAGE_PIXELS\s*=[^=]",
            "--include=*.py",
            "snapsolve",
            "vision",
            "solver",
            "models",
            "benchmarks",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert found.stdout == "", found.stdout


@pytest.mark.parametrize("name, maker, size", BOMBS)
def test_every_size_gets_the_same_clean_refusal(tmp_path, name, maker, size, capsys, pillow_limit):
    """Over Pillow's own refusal (twice its limit) or under it, the refusal names the size and our limit alone:
    none of Pillow's text, in the command and in the API's 413."""
    path = maker(tmp_path / name, *size)
    clean = f"image of {size[0]}x{size[1]} pixels is over the 100,000,000-pixel limit"
    with pytest.raises(ImageReadError) as refused:
        read_image(path)
    assert str(refused.value) == clean
    assert main(["--no-image", "--workers", "1", str(path)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == f"snapsolve: {path}: cannot read image: {clean}"
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from snapsolve.web.app import Settings, create_app

    with TestClient(create_app(Settings(workers=1))) as client, open(path, "rb") as fh:
        response = client.post("/api/solve", files={"image": (name, fh, "application/octet-stream")})
    megapixels = size[0] * size[1] / 1e6
    detail = f"the image is {size[0]}x{size[1]} = {megapixels:.0f} megapixels; the limit is 100 megapixels"
    assert response.status_code == 413 and response.json() == {"detail": detail}
