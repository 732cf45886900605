"""The cell model's files: a folder of NumPy ``.npy`` arrays and a ``model.json``, read memory-mapped.

Nothing is decompressed or unpickled when a model is read: each array is
mapped from its file (`numpy.load` with ``mmap_mode="r"``), so loading costs a
few milliseconds and processes that read one model share its pages. A model
is written into a new folder beside the target and moved into place, so a
reader never sees half a model.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelFileError

#: Version of the folder's layout, in ``model.json``; a folder of another version is refused.
MODEL_FORMAT = 2
#: The file holding the format version and the model's scalar settings.
META_FILE = "model.json"


def write_model(folder: str | Path, arrays: dict[str, np.ndarray], settings: dict[str, Any]) -> None:
    """Write `arrays` (one ``NAME.npy`` each) and `settings` (JSON) as the model folder `folder`.

    The folder is written beside its place and then moved there, replacing an
    earlier model folder. Its files are readable by everyone (mode 0644, as
    installed package data).

    Raises
    ------
    OSError
        The folder cannot be written.
    """
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        for name, array in arrays.items():
            np.save(staging / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)
        (staging / META_FILE).write_text(json.dumps({"format": MODEL_FORMAT, **settings}, indent=1) + "\n")
        for path in staging.iterdir():
            path.chmod(0o644)
        staging.chmod(0o755)
        old = None
        if folder.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{folder.name}-old-", dir=folder.parent))
            os.replace(folder, old / folder.name)
        os.replace(staging, folder)
        if old is not None:
            shutil.rmtree(old)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def read_model(folder: str | Path, names: tuple[str, ...]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays `names` of the model folder `folder`, memory-mapped read-only, and its settings.

    Returns
    -------
    (dict, dict)
        Each name's array (a read-only `numpy.memmap`, or an ordinary array
        for an empty one), and ``model.json``'s settings.

    Raises
    ------
    FileNotFoundError
        Nothing at `folder`.
    ModelFileError
        `folder` is not a model folder of this format (a file, such as the
        ``.npz`` of earlier versions; another format; an array missing).
    """
    folder = Path(folder)
    if not folder.exists():
        raise FileNotFoundError(f"no cell model at {folder}")
    meta = folder / META_FILE
    if not folder.is_dir() or not meta.is_file():
        raise ModelFileError(
            f"{folder} is not a snapsolve cell model folder (an earlier version's file?); "
            "rebuild it with 'snapsolve train'"
        )
    try:
        settings = json.loads(meta.read_text())
    except (OSError, ValueError) as exc:
        raise ModelFileError(f"{meta} cannot be read: {exc}") from None
    if not isinstance(settings, dict) or settings.get("format") != MODEL_FORMAT:
        found = settings.get("format") if isinstance(settings, dict) else None
        raise ModelFileError(
            f"{folder} is a cell model of format {found}, not {MODEL_FORMAT}; rebuild it with 'snapsolve train'"
        )
    arrays = {}
    for name in names:
        path = folder / f"{name}.npy"
        if not path.is_file():
            raise ModelFileError(f"{folder} is not a complete cell model ({path.name} is missing); rebuild it")
        try:
            arrays[name] = np.load(path, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ModelFileError(f"{path} cannot be read: {exc}") from None
    return arrays, settings
