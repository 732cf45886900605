"""Cell classes and kinds of mark: the columns of a reading's class probabilities, and a typed view of them.

A cell holds one of four kinds of mark (`KINDS`): nothing, a printed digit,
a handwritten digit, or pencilled candidates. The digit models read each cell
as one of 20 classes (`CLASSES`), the kinds with their digits, and a reading's
class probabilities are an (81, 20) array whose columns are those classes.
`ClassProbabilities` names the columns, so that no code slices them by number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The kinds of mark, in the order of a kind index (`CellClassifier.kind_probabilities`' columns).
KINDS = ("empty", "printed", "handwritten", "candidates")
EMPTY, PRINTED, HANDWRITTEN, CANDIDATES = range(4)
#: Cell classes: column k of a reading's (81, 20) probabilities. Written as in ``.cells`` label files:
#: ``.`` empty, ``1``-``9`` printed, ``h1``-``h9`` handwritten, ``c`` candidates.
CLASSES = (".",) + tuple("123456789") + tuple(f"h{d}" for d in range(1, 10)) + ("c",)
#: The columns of each kind: the empty class, printed digits 1..9, handwritten digits 1..9, candidates.
EMPTY_CLASS = 0
PRINTED_CLASSES = slice(1, 10)
HANDWRITTEN_CLASSES = slice(10, 19)
CANDIDATES_CLASS = 19


def kind_of(cls: int) -> int:
    """Kind (EMPTY .. CANDIDATES) of a class column."""
    return EMPTY if cls == 0 else PRINTED if cls <= 9 else HANDWRITTEN if cls <= 18 else CANDIDATES


@dataclass(frozen=True)
class ClassProbabilities:
    """Class probabilities of some cells, by kind.

    Each property is a view of `array` (NumPy basic slicing): reading it copies
    nothing, and writing into it writes into `array`.

    Attributes
    ----------
    array : np.ndarray
        Shape (n, len(CLASSES)), float: per cell, the probability of each class of `CLASSES`.
    """

    array: np.ndarray

    @property
    def empty(self) -> np.ndarray:
        """Shape (n,): P(no mark)."""
        return self.array[:, EMPTY_CLASS]

    @property
    def printed(self) -> np.ndarray:
        """Shape (n, 9): P(printed digit 1..9), column d - 1 for digit d."""
        return self.array[:, PRINTED_CLASSES]

    @property
    def handwritten(self) -> np.ndarray:
        """Shape (n, 9): P(handwritten digit 1..9), column d - 1 for digit d."""
        return self.array[:, HANDWRITTEN_CLASSES]

    @property
    def candidates(self) -> np.ndarray:
        """Shape (n,): P(pencilled candidates)."""
        return self.array[:, CANDIDATES_CLASS]

    def givens(self) -> np.ndarray:
        """Shape (n, 10) float64: P(no printed digit) (column 0, whatever else the cell holds) and P(printed
        digit 1..9) (column d), as `snapsolve.repair.choose_reading` reads a grid."""
        out = np.empty((len(self.array), 10))
        out[:, 1:] = self.printed
        out[:, 0] = 1.0 - out[:, 1:].sum(axis=1)
        return out
