"""Prototype selection (`vision.prototypes.condense`): the kept samples serve every sample with the margin."""

import numpy as np
import pytest

from snapsolve.vision.prototypes import condense


def blobs(seed: int = 0, n: int = 600) -> tuple[np.ndarray, np.ndarray]:
    """Three overlapping Gaussian classes in 5 dimensions (n samples, float32)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(1, 4, n)
    centres = rng.normal(0, 2.0, (4, 5))
    return (centres[labels] + rng.normal(0, 1.0, (n, 5))).astype(np.float32), labels


def served(samples: np.ndarray, labels: np.ndarray, kept: np.ndarray, margin: float) -> np.ndarray:
    """Whether each sample's nearest kept sample of its own class is `margin` times nearer than any other's."""
    apart = np.linalg.norm(samples[:, None, :].astype(np.float64) - samples[kept][None].astype(np.float64), axis=2)
    same = labels[:, None] == labels[kept][None, :]
    own = np.where(same, apart, np.inf).min(axis=1)
    other = np.where(same, np.inf, apart).min(axis=1)
    return other >= margin * own * (1 - 1e-9)


@pytest.mark.parametrize("margin", [1.0, 1.2, 1.5])
def test_every_sample_is_served_by_fewer_kept_samples(margin):
    """Each sample's nearest kept sample of its own class is at least `margin` times nearer than any other
    class's; fewer samples are kept than given, and more for a wider margin."""
    samples, labels = blobs()
    kept = condense(samples, labels, margin)
    assert served(samples, labels, kept, margin).all()
    assert 9 <= len(kept) < len(samples) and np.array_equal(kept, np.unique(kept))
    assert len(condense(samples, labels, margin + 0.3)) > len(kept)


def test_margin_one_is_harts_rule():
    """With a margin of 1 the one nearest kept sample reads every training sample right (Hart 1968)."""
    samples, labels = blobs(3)
    kept = condense(samples, labels, 1.0)
    apart = np.linalg.norm(samples[:, None, :] - samples[kept][None], axis=2)
    assert np.array_equal(labels[kept][apart.argmin(axis=1)], labels)


def test_seeded_and_keeping_what_it_is_told():
    """The same seed keeps the same samples, another seed others; samples asked to be kept are kept."""
    samples, labels = blobs(5)
    assert np.array_equal(condense(samples, labels, 1.1, seed=4), condense(samples, labels, 1.1, seed=4))
    assert not np.array_equal(condense(samples, labels, 1.1, seed=4), condense(samples, labels, 1.1, seed=5))
    keep = np.arange(0, 600, 7)
    kept = condense(samples, labels, 1.1, keep=keep)
    assert np.isin(keep, kept).all() and served(samples, labels, kept, 1.1).all()


def test_refuses_a_margin_below_one_and_unequal_lengths():
    samples, labels = blobs()
    with pytest.raises(ValueError, match="at least 1"):
        condense(samples, labels, 0.9)
    with pytest.raises(ValueError, match="labels"):
        condense(samples, labels[:-1])


def test_stored_images_keep_sixteen_grey_levels_of_the_rows_that_can_hold_ink():
    """`pack_images` keeps the rows of a normalised digit that can hold ink in 16 grey levels, two pixels a
    byte; `unpack_images` gives back every pixel within half a level, and blank rows elsewhere. A digit cut
    from a crop of any shape (tall, wide, slanted) lies within those rows."""
    from snapsolve.vision.features import INK_ROWS, NORM_SIZE, normalised_images, pack_images, unpack_images

    rng = np.random.default_rng(2)
    crops = [rng.integers(0, 256, shape, dtype=np.uint8) for shape in ((40, 12), (9, 30), (25, 25), (3, 3))]
    images = normalised_images(crops, upright=True)
    outside = np.ones(NORM_SIZE, bool)
    outside[INK_ROWS.start : INK_ROWS.stop] = False
    assert not images[:, outside].any()
    packed = pack_images(images)
    assert packed.shape == (4, len(INK_ROWS), NORM_SIZE // 2) and packed.dtype == np.uint8
    back = unpack_images(packed)
    assert np.abs(back.astype(int) - images).max() <= 8 and not back[:, outside].any()
