"""Prototype selection: the few training samples a nearest-neighbour model needs to keep.

`condense` is Hart's condensed nearest neighbour rule (P. E. Hart, "The
Condensed Nearest Neighbor Rule", IEEE Transactions on Information Theory
14(3), 1968) with a margin: samples are taken into the kept set until every
training sample's nearest kept sample of its own class is at least `margin`
times nearer than the nearest kept sample of any other class. With a margin
of 1 that is Hart's rule (every sample read right by its one nearest kept
sample); a larger margin keeps more samples near the borders between
classes, where the distances that the reading decision compares (a digit's
nearest against the next digit's) are decided.
"""

from __future__ import annotations

import numpy as np

#: Samples taken into the kept set at a time, at random among those the kept set does not yet serve.
CONDENSE_BATCH = 64


def condense(
    samples: np.ndarray,
    labels: np.ndarray,
    margin: float = 1.0,
    seed: int = 0,
    batch: int = CONDENSE_BATCH,
    keep: np.ndarray | None = None,
) -> np.ndarray:
    """Indices of a condensed subset of `samples` (Hart 1968, with a margin; see the module's notes).

    Starts from the samples `keep` and one random sample of each class, then repeatedly adds up to
    `batch` random samples among those not yet served (whose nearest kept
    sample of another class is nearer than `margin` times their nearest kept
    sample of their own class), until every sample is served. Each round
    measures the distances to the samples just added only, so the whole costs
    one (n, kept) distance computation.

    Parameters
    ----------
    samples : np.ndarray
        Shape (n, d), float: the samples as the model compares them (Euclidean distance).
    labels : np.ndarray
        Shape (n,), int: each sample's class.
    margin : float
        At least 1: how much nearer than any other class a sample's own class must be among the kept samples.
    seed : int
        Seeds the random choices: the same arguments give the same subset.
    batch : int
        Samples added per round (the smaller, the fewer samples kept beyond need; the more rounds).
    keep : np.ndarray, optional
        Indices of samples kept whatever the rule says (such as the only samples of a rare source).

    Returns
    -------
    np.ndarray
        Shape (m,), int64, sorted: the kept samples' indices, m <= n.

    Raises
    ------
    ValueError
        `margin` is below 1, or `samples` and `labels` differ in length.
    """
    if margin < 1:
        raise ValueError(f"the margin must be at least 1, not {margin}")
    samples = np.asarray(samples, np.float64)
    labels = np.asarray(labels)
    if len(samples) != len(labels):
        raise ValueError(f"{len(samples)} samples but {len(labels)} labels")
    rng = np.random.default_rng(seed)
    squared = np.einsum("ij,ij->i", samples, samples)
    own = np.full(len(samples), np.inf)  # squared distance to the nearest kept sample of the own class
    other = np.full(len(samples), np.inf)  # ... of any other class
    kept = np.zeros(len(samples), bool)
    adding = np.array([rng.choice(np.flatnonzero(labels == c)) for c in np.unique(labels)])
    if keep is not None:
        adding = np.union1d(adding, np.asarray(keep, np.int64))
    while adding.size:
        kept[adding] = True
        apart = squared[:, None] - 2.0 * samples @ samples[adding].T + squared[adding][None, :]
        np.maximum(apart, 0.0, out=apart)
        same = labels[:, None] == labels[adding][None, :]
        own = np.minimum(own, np.where(same, apart, np.inf).min(axis=1))
        other = np.minimum(other, np.where(same, np.inf, apart).min(axis=1))
        own[adding] = 0.0
        unserved = np.flatnonzero(~kept & (other < margin**2 * own))
        adding = rng.choice(unserved, min(batch, unserved.size), replace=False) if unserved.size else unserved
    return np.flatnonzero(kept)
