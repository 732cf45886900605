"""Handwritten-digit feature sets compared crop by crop, on the marks of held-out hands, without rebuilding a model.

The shipped model keeps every handwritten sample's upright normalised image
(`CellClassifier.handwritten_images`), so other shape features can be measured
from them and compared with the shipped ones without rendering the training
data again. This script cuts the handwritten marks out of the photos of
`benchmarks/handwriting.py` (the whole cell pipeline, as a reading does),
normalises them as the model does (`vision.features.normalised_images`, upright)
and reads each with a scikit-learn KNN (k = 5, distance-weighted, the model's
k) fitted on the stored samples in each feature set's principal axes:

- ``shipped``: the model's features (`features_of`: HOG of 7-pixel cells,
  aspect ratio, ink thumbnail) in the model's own principal axes
  (`CellClassifier.handwritten_projection`);
- ``fine W``: the same with a HOG of 4-pixel cells (`vision.features.hog` with
  ``cell=4``, 1,296 values) appended, weighted W, in principal axes keeping
  95% of the variance (`vision.training.principal_axes`).

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
from sklearn.neighbors import KNeighborsClassifier

from snapsolve.pipeline import default_model, read_grids
from snapsolve.vision.features import features_of, hog, normalised_images
from snapsolve.vision.training import principal_axes

#: Side (pixels) of the finer HOG's cells.
FINE_CELL = 4
#: Share of the variance the finer feature sets' principal axes keep (the shipped set keeps the model's own).
FINE_VARIANCE = 0.95


def marks_of(seed: int, hands: str, extra: int, photos: int, model) -> tuple[list[np.ndarray], np.ndarray]:
    """The handwritten marks of `make_photos(photos, seed, extra, hands)` as the model cuts them: their crops
    (`CellMarks.crops`, each (h, w) uint8) and the digits written, shape (m,) int."""
    crops, digits = [], []
    for photo in make_photos(photos, seed, extra, hands):
        readings = read_grids(photo["image"], model)
        if not readings:
            continue
        cut = readings[0].marks.crops
        for cell, digit in photo["written"].items():
            if cut[cell] is not None and cut[cell].size:
                crops.append(cut[cell])
                digits.append(digit)
    return crops, np.array(digits)


def feature_sets(shipped: np.ndarray, images: np.ndarray, weights: list[float]) -> dict[str, np.ndarray]:
    """Each compared feature set: name -> (n, d) float32. `shipped` (n, FEATURE_LENGTH) float32 are the
    model's own features (`features_of`, upright) and `images` (n, NORM_SIZE, NORM_SIZE) uint8 the same marks'
    upright normalised images, whose finer HOG is appended, times each of `weights`."""
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
        crops, digits = marks_of(int(seed), hands, int(extra), args.photos, model)
        images = normalised_images(crops, upright=True)
        runs.append((run, feature_sets(features_of(crops, upright=True, images=images), images, args.weights), digits))
        print(f"{run}: {len(digits)} marks cut ({time.perf_counter() - start:.0f} s)", flush=True)
    samples = np.asarray(model.handwritten_samples, np.float32)
    train = feature_sets(samples, np.asarray(model.handwritten_images), args.weights)
    labels = np.asarray(model.handwritten_labels)
    print("feature set | axes | " + " | ".join(run for run, _, _ in runs))
    for name, features in train.items():
        shipped = name == "shipped"
        axes = np.asarray(model.handwritten_projection) if shipped else principal_axes(features, FINE_VARIANCE)
        knn = KNeighborsClassifier(n_neighbors=model.k, weights="distance", algorithm="brute")
        knn.fit(features @ axes, labels)
        shares = [f"{100 * float(np.mean(knn.predict(sets[name] @ axes) == digits)):.2f}%" for _, sets, digits in runs]
        print(f"{name} | {axes.shape[1]} | " + " | ".join(shares), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
