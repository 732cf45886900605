"""A logical path that breaks the rules raises LogicError; it is never replaced by the search answer."""

import pytest

from snapsolve.solver import logic
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import parse_puzzle
from snapsolve.solver.solve import LogicError, solve_puzzle
from snapsolve.solver.steps import Step

from .conftest import read_collection

# An easy puzzle that singles alone solve.
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _bogus_finder(wrong: tuple[int, int], placement: bool):
    """A finder that offers one false step (at the head of the ladder), then nothing."""
    used = []

    def find(board):
        cell, digit = wrong
        if used or board.values[cell] or not board.candidates[cell] >> (digit - 1) & 1:
            return
        used.append(True)
        if placement:
            yield Step("naked_single", placements=(wrong,), fixed_text="Naked Single: bogus")
        else:
            yield Step("x_wing", eliminations=(wrong,), fixed_text="X-Wing: bogus")

    return find


@pytest.mark.parametrize("placement", [False, True])
def test_false_step_on_a_logically_solved_puzzle_raises(monkeypatch, placement):
    givens = parse_puzzle(EASY)
    truth = solve_unique(givens).solution
    assert solve_puzzle(givens).solution == truth and not solve_puzzle(givens).needs_search
    cell = next(c for c in range(81) if not givens[c])
    wrong = (
        (cell, truth[cell])
        if not placement
        else (cell, next(d for d in range(1, 10) if d != truth[cell] and _allowed(givens, cell, d)))
    )
    monkeypatch.setattr(logic, "LADDER", [("bogus", _bogus_finder(wrong, placement))] + logic.LADDER)
    with pytest.raises(LogicError):
        solve_puzzle(givens)


def test_false_elimination_on_a_puzzle_that_needs_search_raises(monkeypatch):
    """Logic gets stuck, the search finishes; the false step must still raise, not be papered over."""
    line = next(p for p in read_collection("top1465.txt")[:50] if solve_puzzle(parse_puzzle(p)).needs_search)
    givens = parse_puzzle(line)
    truth = solve_unique(givens).solution
    cell = next(c for c in range(81) if not givens[c])
    monkeypatch.setattr(logic, "LADDER", [("bogus", _bogus_finder((cell, truth[cell]), False))] + logic.LADDER)
    with pytest.raises(LogicError, match="x_wing"):
        solve_puzzle(givens)


def test_false_step_in_the_remaining_steps_from_a_position_raises(monkeypatch):
    givens = parse_puzzle(EASY)
    truth = solve_unique(givens).solution
    entries = [0] * 81
    first_empty = next(c for c in range(81) if not givens[c])
    entries[first_empty] = truth[first_empty]
    target = next(c for c in range(81) if not givens[c] and c != first_empty)
    calls = []
    real = logic.solve_logically

    def solve_then_break(grid, *args, **kwargs):
        calls.append(grid)
        if len(calls) == 2:  # the player's position: inject a false elimination
            monkeypatch.setattr(
                logic, "LADDER", [("bogus", _bogus_finder((target, truth[target]), False))] + logic.LADDER
            )
        return real(grid, *args, **kwargs)

    from snapsolve.solver import position, solve

    monkeypatch.setattr(solve, "solve_logically", solve_then_break)
    monkeypatch.setattr(position, "solve_logically", solve_then_break)
    with pytest.raises(LogicError):
        solve_puzzle(givens, entries=entries)


def _allowed(givens, cell, digit):
    from snapsolve.solver.grid import PEERS

    return all(givens[p] != digit for p in PEERS[cell])
