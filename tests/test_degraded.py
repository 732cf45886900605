"""Dim, blurred, noisy and compressed photos: the degradations themselves (`vision.degrade`), and degraded
photos read (`vision.restore`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from snapsolve.pipeline import MAX_DIGITS_PUT, decide, decode_photo, mark_looks, read_grids
from snapsolve.repair import is_written_grid
from snapsolve.solver import SOLVED, Status
from snapsolve.solver.exact import solve_unique
from snapsolve.vision import degrade, restore
from snapsolve.vision.image_io import read_image
from snapsolve.vision.locate import locate_grids

#: Training photos degraded by `benchmarks/degraded.py`'s `degraded_copy`, kept as fixtures, with `truth.json`
#: (the photo, degradation, strength and seed each was made with, and its printed givens; see its README).
DEGRADED = Path(__file__).parent / "data" / "degraded"
TRUTH = json.loads((DEGRADED / "truth.json").read_text())


def _page() -> np.ndarray:
    """A 120 x 160 grey page (paper 200) with a black bar 4 pixels wide down its middle."""
    page = np.full((120, 160), 200, np.uint8)
    page[:, 78:82] = 0
    return page


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0, 135.0])
def test_a_motion_kernel_is_a_streak_of_its_length_at_its_angle(angle):
    kernel = degrade.motion_kernel(9, angle)
    assert kernel.shape == (9, 9) and kernel.dtype == np.float32
    assert abs(float(kernel.sum()) - 1.0) < 1e-5
    ys, xs = np.nonzero(kernel > 0.02)
    centre = 4
    along = (xs - centre) * np.cos(np.radians(angle)) - (ys - centre) * np.sin(np.radians(angle))
    across = (xs - centre) * np.sin(np.radians(angle)) + (ys - centre) * np.cos(np.radians(angle))
    assert np.ptp(along) >= 7  # the streak's length, nearly all of it
    assert np.abs(across).max() <= 1.5  # and no wider than a pixel or so either side


def test_motion_blur_smears_across_its_direction_only():
    page = _page()
    along = degrade.motion_blur(page, 9, 90)  # vertical motion along a vertical bar: the bar stays sharp
    across = degrade.motion_blur(page, 9, 0)  # horizontal motion across it: the bar spreads and fades
    assert (along[:, 79:81] == 0).all() and along[:, 78:82].max() < 40
    assert across[60, 78:82].min() > 50 and across[60, 74] < 200


def test_underexposure_scales_every_level_to_the_mean_asked_for():
    page = _page()
    dark = degrade.underexposed(page, 20)
    assert abs(degrade.grey_mean(dark) - 20) < 0.5
    assert dark[0, 0] == round(200 * 20 / degrade.grey_mean(page))
    colour = np.dstack([page, page // 2, page])
    assert abs(degrade.grey_mean(degrade.underexposed(colour, 20)) - 20) < 0.5
    assert (degrade.underexposed(dark, 40) == dark).all()  # already darker: as it is


def test_sensor_noise_has_its_sigma_in_every_channel_alike_and_is_seeded():
    flat = np.full((200, 300, 3), 128, np.uint8)
    noisy = degrade.sensor_noise(flat, 18, np.random.default_rng(5))
    assert (noisy[:, :, 0] == noisy[:, :, 1]).all() and (noisy[:, :, 1] == noisy[:, :, 2]).all()
    assert 17 < float(noisy.astype(np.float64).std()) < 19
    assert (noisy == degrade.sensor_noise(flat, 18, np.random.default_rng(5))).all()
    grainy = degrade.sensor_noise(flat[:, :, 0], 18, np.random.default_rng(5), grain=4)
    assert 17 < float(grainy.astype(np.float64).std()) < 19
    # grains of 4 pixels: neighbouring pixels go together (white noise's are unrelated)
    a, b = grainy[:, :-1].astype(np.float64) - 128, grainy[:, 1:].astype(np.float64) - 128
    assert float((a * b).mean() / (a * a).mean()) > 0.7


def test_jpeg_at_a_low_quality_loses_detail_and_a_downscaled_page_is_smaller():
    rng = np.random.default_rng(1)
    texture = rng.integers(0, 256, (64, 64), dtype=np.uint8)
    assert (
        np.abs(degrade.jpeg(texture, 10).astype(int) - texture).mean()
        > np.abs(degrade.jpeg(texture, 95).astype(int) - texture).mean()
    )
    assert degrade.downscaled(_page(), 0.5).shape == (60, 80)
    assert degrade.gaussian_blur(_page(), 2.0)[60, 80] > 40  # the bar's middle no longer black


def test_darker_midtones_keep_black_and_white():
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16)
    out = degrade.darker_midtones(levels, 2.0)
    assert out[0, 0] == 0 and out[-1, -1] == 255 and out.ravel()[128] == round(255 * (128 / 255) ** 2)


def _digits(text: str) -> list[int]:
    return [0 if c == "." else int(c) for c in text]


#: Fixtures read and solved right; the others are read wrong and must not be solved.
READ = ["image109-underexposed-20.jpg", "image155-sensor-noise-18.jpg"]


@pytest.mark.parametrize("name", READ)
def test_a_degraded_photo_a_person_reads_is_read_and_solved(name, model):
    """An underexposed photo (mean grey 20), whose grid was not found before it was brightened, and a noisy one
    (18 grey levels), whose digits were misread before its grid was denoised: every printed given read, and the
    puzzle solved right."""
    reading = read_grids(read_image(DEGRADED / name), model)[0]
    decision = decide(reading, model=model)
    givens = _digits(TRUTH[name]["givens"])
    assert decision.givens == givens
    assert decision.status == SOLVED and decision.solution == solve_unique(givens).solution


def test_a_dark_photo_whose_misread_digits_a_repair_changes_is_unsure_not_solved_wrong(model):
    """Underexposed to mean grey 12, the photo's r3c9 6 reads 8 or 5 and its r8c9 8 reads 6, 9 or 8: the repair
    takes 5 and 9, a reading with one solution, another. In a restored photo a repaired reading is unsure."""
    reading = read_grids(read_image(DEGRADED / "image41-underexposed-12.jpg"), model)[0]
    assert reading.restored
    decision = decide(reading, model=model)
    assert decision.givens != _digits(TRUTH["image41-underexposed-12.jpg"]["givens"])  # read wrong,
    assert decision.changes and decision.status == Status.UNSURE and decision.solution is None  # and not solved


def test_a_blurred_photo_whose_repair_puts_several_digits_is_unsure_not_solved_wrong(model):
    """Blurred by a Gaussian of 3 pixels, the photo's 5s and a 2 read as 6 and 8; the repair changes three
    cells, a reading with one solution, another. A repair that puts printed digits in MAX_DIGITS_PUT cells is
    unsure."""
    reading = read_grids(read_image(DEGRADED / "image1-gaussian-blur-3.jpg"), model)[0]
    assert not reading.restored
    decision = decide(reading, model=model)
    assert decision.givens != _digits(TRUTH["image1-gaussian-blur-3.jpg"]["givens"])  # read wrong,
    assert sum(1 for _, _, used in decision.changes if used) >= MAX_DIGITS_PUT
    assert decision.status == Status.UNSURE and decision.solution is None  # and not solved


def test_a_clear_grid_is_left_as_it_is_and_a_dim_noisy_one_restored():
    page = np.full((576, 576), 190, np.uint8)
    page[::64, :] = page[:, ::64] = 30
    assert restore.restored_grid(page) is page
    dim = (page * 0.15 + np.random.default_rng(3).normal(0, 2.0, page.shape)).round().clip(0, 255).astype(np.uint8)
    condition = restore.grid_condition(dim)
    assert condition.dim and condition.noisy
    restored = restore.restored_grid(dim)
    assert float(np.percentile(restored, 90)) > 150  # the paper brought up near PAPER_TARGET
    gain = restore.PAPER_TARGET / condition.paper
    assert float(restored[1:63, 1:63].std()) < 0.3 * gain * float(dim[1:63, 1:63].std())  # the noise taken down


def test_a_blurred_puzzle_in_progress_whose_print_looks_written_is_read_as_print_and_pen(model):
    """Blurred by a Gaussian of 2 pixels, a puzzle in progress's print looks written (`repair.is_written_grid`);
    the per-grid decision of print and pen has one solution, which the player's entries agree with
    (`repair.printed_reading_holds`), so its printed givens are read and solved, not its pen taken for givens."""
    name = "03_08_iphone_14_0-gaussian-blur-2.jpg"
    reading = read_grids(read_image(DEGRADED / name), model)[0]
    assert is_written_grid(reading.probabilities, mark_looks(reading, model))
    decision = decide(reading, model=model)
    givens = _digits(TRUTH[name]["givens"])
    assert decision.givens == givens
    assert decision.status == SOLVED and decision.solution == solve_unique(givens).solution


@pytest.mark.parametrize("name", ["02_26_iphone_14_1-gaussian-blur-2.jpg", "02_23_honor_view_10_1-gaussian-blur-2.jpg"])
def test_a_blurred_photo_whose_thin_lines_are_too_faint_is_located_sharpened_and_solved(name, model):
    """Blurred by a Gaussian of 2 pixels (for a photo 640 pixels wide; 3.6 in these), a puzzle in progress's
    thin ruled lines are too faint to follow and no grid is found in the photo; in its sharpened copy
    (`vision.locate.locate_sharpened`) the grid is found and its lines followed, its cells read in the photo
    sharpened more mildly (`vision.restore.sharpened_to_read`; the second photo's blurred print read as it is
    has no solution), every printed given read and the puzzle solved right."""
    photo, colour = decode_photo(DEGRADED / name)  # as the command decodes it
    assert locate_grids(photo) == []
    reading = read_grids(photo, model, colour)[0]
    assert reading.restored
    decision = decide(reading, model=model)
    givens = _digits(TRUTH[name]["givens"])
    assert decision.givens == givens
    assert decision.status == SOLVED and decision.solution == solve_unique(givens).solution


def test_an_unsharp_mask_darkens_a_blurred_line_and_keeps_flat_paper():
    page = degrade.gaussian_blur(_page(), 3.0)
    sharp = restore.sharpened(page, 4.0, 4.0)
    assert sharp.shape == page.shape and sharp.dtype == np.uint8
    assert int(sharp[60, 80]) < int(page[60, 80]) - 40  # the line's core darker
    assert (sharp[:, :40] == page[:, :40]).all()  # flat paper as it was
