"""Shipped model data, installed as ``snapsolve.models``.

- ``digits.npz``: the KNN digit model (features, labels, k), rebuilt by
  ``snapsolve train``.
- ``validation.txt``: the fixed validation split of the training photos
  (never trained on).
- ``MODEL_CARD.md``: how the model was built and how well it reads.
"""

from pathlib import Path

DIGIT_MODEL = Path(__file__).with_name("digits.npz")
VALIDATION_SPLIT = Path(__file__).with_name("validation.txt")


def validation_names(path: Path = VALIDATION_SPLIT) -> set[str]:
    """Photo file names of the validation split (lines not starting with '#')."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}
