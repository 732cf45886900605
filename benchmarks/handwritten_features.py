"""Handwritten-digit feature sets compared crop by crop, on the marks of held-out hands, without rebuilding a model.

The shipped model keeps every handwritten sample's upright normalised image
(`CellClassifier.handwritten_images`), so other shape features can be measured
from them and compared with the shipped ones without rendering the training
data again. This script cuts the handwritten marks out of the photos of
`benchmarks/handwriting.py` (the whole cell pipeline, as a reading does),
normalises them as the model does (`vision.digits.normalised_images`, upright)
and reads each with a scikit-learn KNN (k = 5, distance-weighted, the model's
k) fitted on the stored samples in each feature set's principal axes:

- ``shipped``: the model's features (`features_of`: HOG of 7-pixel cells,
  aspect ratio, ink thumbnail), 99.5% of their variance (as `snapsolve train`);
- ``fine W``: the same with a HOG of 4-pixel cells (`vision.digits.hog` with
  ``cell=4``, 1,296 values) appended, weighted W, 95% of the variance.

It reports the share of marks read as the digit written, per run and feature
set, and the principal axes each keeps (the cost of a neighbour query grows
with them). This is the model alone (its most probable digit), not the
pipeline: `benchmarks/handwriting.py` measures a rebuilt model end to end.

    python benchmarks/handwritten_features.py [--runs 7001:all:0 9001:all:10 9304:mnist:0 9305:mnist:10]
        [--photos 120] [--weights 0.5 0.7]

A run is SEED:HANDS:EXTRA_GIVENS as in `benchmarks/handwriting.py`; cutting a
run's marks takes about a minute, the comparison two more. The default runs
are tuning runs; they share no writer with the training data, but report any
accuracy on runs not used to choose (see `models/MODEL_CARD.md`).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from handwriting import make_photos  # benchmarks/handwriting.py, beside this script
from sklearn.decomposition import PCA
from sklearn.neighbors import KNeighborsClassifier

from snapsolve.pipeline import default_model, read_grids
from snapsolve.vision.digits import HOG_LENGTH, hog, ink_thumbnails, normalised_images

#: Side (pixels) of the finer HOG's cells.
FINE_CELL = 4


def marks_of(seed: int, hands: str, extra: int, photos: int, model) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The handwritten marks of `make_photos(photos, seed, extra, hands)` as the model cuts them: upright
    normalised images (m, NORM_SIZE, NORM_SIZE) uint8, aspect features (m, 1) float32 (width / height / 2)
    and the digits written (m,) int."""
    images, aspects, digits = [], [], []
    for photo in make_photos(photos, seed, extra, hands):
        readings = read_grids(photo["image"], model)
        if not readings:
            continue
        crops = readings[0].marks.crops
        for cell, digit in photo["written"].items():
            crop = crops[cell]
            if crop is None or not crop.size:
                continue
            images.append(normalised_images([crop], upright=True)[0])
            aspects.append(crop.shape[1] / crop.shape[0] * 0.5)
            digits.append(digit)
    return np.array(images), np.array(aspects, np.float32)[:, None], np.array(digits)


def feature_sets(images: np.ndarray, aspects: np.ndarray, weights: list[float]) -> dict[str, np.ndarray]:
    """Each compared feature set of the images (n, NORM_SIZE, NORM_SIZE) and their aspect features (n, 1):
    name -> (n, d) float32."""
    shipped = np.hstack([hog(images), aspects, ink_thumbnails(images)]).astype(np.float32)
    sets = {"shipped": shipped}
    if weights:
        fine = hog(images, FINE_CELL)
        for weight in weights:
            sets[f"fine {weight:g}"] = np.hstack([shipped, weight * fine]).astype(np.float32)
    return sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", nargs="+", default=["7001:all:0", "9001:all:10", "9304:mnist:0", "9305:mnist:10"])
    parser.add_argument("--photos", type=int, default=120)
    parser.add_argument("--weights", type=float, nargs="*", default=[0.5, 0.7], help="weights of the finer HOG")
    args = parser.parse_args()
    model = default_model()
    if model.handwritten_images is None:
        print("handwritten_features.py: the model keeps no sample images; rebuild it with 'snapsolve train'")
        return 1
    start = time.perf_counter()
    runs = []
    for run in args.runs:
        seed, hands, extra = run.split(":")
        runs.append((run, *marks_of(int(seed), hands, int(extra), args.photos, model)))
        print(f"{run}: {len(runs[-1][3])} marks cut ({time.perf_counter() - start:.0f} s)", flush=True)
    aspects = np.asarray(model.handwritten_samples, np.float32)[:, HOG_LENGTH : HOG_LENGTH + 1]
    train = feature_sets(np.asarray(model.handwritten_images), aspects, args.weights)
    tests = [feature_sets(images, aspect, args.weights) for _, images, aspect, _ in runs]
    labels = np.asarray(model.handwritten_labels)
    print("feature set | axes | " + " | ".join(run for run, *_ in runs))
    for name, samples in train.items():
        variance = 0.995 if name == "shipped" else 0.95
        axes = PCA(n_components=variance, svd_solver="full").fit(samples).components_.T.astype(np.float32)
        knn = KNeighborsClassifier(n_neighbors=5, weights="distance", algorithm="brute").fit(samples @ axes, labels)
        shares = [
            f"{100 * float(np.mean(knn.predict(test[name] @ axes) == digits)):.2f}%"
            for test, (_, _, _, digits) in zip(tests, runs)
        ]
        print(f"{name} | {axes.shape[1]} | " + " | ".join(shares), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
