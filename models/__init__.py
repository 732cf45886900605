"""Shipped model data, installed as ``snapsolve.models``.

- ``digits/``: the KNN cell model (mark kinds, printed and handwritten
  digit shapes, k: a folder of ``.npy`` arrays read memory-mapped,
  `snapsolve.vision.model_store`), rebuilt by ``snapsolve train``.
- ``validation.txt``: the fixed validation split of the training photos
  (never trained on).
- ``MODEL_CARD.md``: how the model was built and how well it reads.

Files are found with `importlib.resources`, so they are read from wherever the
package is installed, never from the current folder.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

#: Environment variable naming a cell model folder to use instead of the shipped one.
MODEL_ENV = "SNAPSOLVE_MODEL"


def shipped_file(name: str) -> Path:
    """Path of a file or folder of this package (``digits``, ``validation.txt``, ...), whether or not it exists.

    Raises
    ------
    RuntimeError
        The package is not installed as plain files (a zip import), so there is no path to write to.
    """
    file = resources.files(__name__).joinpath(name)
    if not isinstance(file, Path):
        raise RuntimeError(
            f"snapsolve.models is not installed as files ({file}); name a model file with "
            "$SNAPSOLVE_MODEL (and 'snapsolve train --output FILE')"
        )
    return file


def digit_model_path() -> Path:
    """The cell model folder to read: ``$SNAPSOLVE_MODEL`` when set, else the shipped ``digits``."""
    chosen = os.environ.get(MODEL_ENV)
    return Path(chosen).expanduser() if chosen else shipped_file("digits")


def validation_names() -> set[str]:
    """Photo file names of the validation split (lines of ``validation.txt`` not starting with '#')."""
    text = resources.files(__name__).joinpath("validation.txt").read_text(encoding="utf-8")
    return {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
