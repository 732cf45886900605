"""The reading decision: which marks of a grid are its printed puzzle, and what the player wrote.

A classifier alone turns one misread digit into "no solution". Knowing the
rules does better: the most probable reading that is a proper puzzle is
chosen, marks that do not look like the grid's own print are taken for the
player's pen, and the player's entries are judged in the light of the
solution, accusing a mistake only when sure.

Modules, in the order a grid goes through them:

- `reading`: the most probable reading with exactly one solution (`choose_reading`), its status and
  calibrated confidence (`Decision`);
- `looks`: pen versus print, how unlike the grid's own print each given looks (`MarkLooks`, `pen_scores`);
- `written`: the pen among the givens of a solved reading (`separate_written`);
- `givens`: the givens of a grid, marks taken out and put back until the puzzle has one solution
  (`decide_givens`);
- `entries`: the player's entries, sure, mistaken or asked about (`read_entries`);
- `written_grid`: a grid written wholly by hand, read by the handwritten-digit model (`is_written_grid`,
  `upside_down`, `decide_written_grid`);
- `second_look`: the second look at a doubted entry (the image distortion model, the player's own copies).
"""

from .entries import DoubtedEntry, EntryReading, read_entries
from .givens import decide_givens
from .looks import (
    MarkLooks,
    doubted_by_looks,
    doubted_by_shape,
    like_the_players_pen,
    lone_far_copies,
    pen_scores,
    unlike_the_print,
)
from .reading import UNSURE, Decision, calibrated_confidence, choose_reading
from .second_look import Reread
from .written import separate_written
from .written_grid import (
    decide_written_grid,
    is_written_grid,
    printed_reading_holds,
    upside_down,
    written_given_probabilities,
)

__all__ = [
    "UNSURE",
    "Decision",
    "DoubtedEntry",
    "EntryReading",
    "MarkLooks",
    "Reread",
    "calibrated_confidence",
    "choose_reading",
    "decide_givens",
    "decide_written_grid",
    "doubted_by_looks",
    "doubted_by_shape",
    "is_written_grid",
    "printed_reading_holds",
    "like_the_players_pen",
    "lone_far_copies",
    "pen_scores",
    "read_entries",
    "separate_written",
    "unlike_the_print",
    "upside_down",
    "written_given_probabilities",
]
