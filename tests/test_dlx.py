"""Dancing Links (solver/dlx.py) cross-checked against the bitmask Algorithm X (solver/exact.py)."""

import random

import pytest

from snapsolve.solver import dlx, exact
from snapsolve.solver.exact import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED, search_engine, solve_unique
from snapsolve.solver.grid import initial_candidates, is_valid_solution, parse_puzzle

from .conftest import FIXTURES, read_collection, sample_of


def _tree_collection(name: str) -> list[str]:
    """The first 40 puzzles of a collection as kept in tests/data (there in a clone alone)."""
    lines = (FIXTURES / "puzzles" / name).read_text().splitlines()
    return [line.strip()[:81] for line in lines if line.strip() and not line.startswith("#")]


def _same_unique_solution(lines, textbook=0):
    """Both engines find the one solution of each puzzle; the paper's search as written too on the first `textbook`."""
    for k, line in enumerate(lines):
        grid = parse_puzzle(line)
        want = exact.search_solutions(grid, limit=2)
        assert len(want) == 1 and is_valid_solution(grid, want[0]), line
        assert dlx.search_solutions(grid, limit=2) == want, line
        if k < textbook:
            assert dlx.search_solutions(grid, limit=1) == want, line
            assert dlx.search_textbook(grid, limit=2) == want, line


@pytest.mark.slow
def test_top1465_same_solution_as_bitmask():
    lines = read_collection("top1465.txt", whole=True)
    assert len(lines) == 1465
    _same_unique_solution(lines)


def test_top1465_sample_same_solution_as_bitmask():
    _same_unique_solution(sample_of(read_collection("top1465.txt"), 150))


@pytest.mark.parametrize("name", ["top1465.txt", "17clue.txt", "forum_hardest_1106_part.txt"])
def test_puzzles_in_the_tree_same_solution_as_bitmask(name):
    lines = _tree_collection(name)
    assert len(lines) >= 40
    _same_unique_solution(lines, textbook=8 if name != "forum_hardest_1106_part.txt" else 0)


@pytest.mark.parametrize("limit", [2, 7])
def test_multi_solution_counts_agree_up_to_the_limit(limit):
    for line in sample_of(read_collection("serg_benchmark.txt"), 60):
        grid = parse_puzzle(line)
        want = exact.search_solutions(grid, limit=limit)
        assert len(want) >= 2, line
        for search in (dlx.search_solutions, dlx.search_textbook):
            found = search(grid, limit=limit)
            assert len(found) == len(want), (search.__name__, line)
            assert len({tuple(s) for s in found}) == len(found), line  # distinct
            assert all(is_valid_solution(grid, s) for s in found), line
            if len(want) < limit:  # every solution found: the same set
                assert sorted(found) == sorted(want), line


def test_every_solution_counted_when_below_the_limit():
    # A solved grid with one deadly rectangle emptied has exactly two completions; both engines list both.
    solution = solve_unique(parse_puzzle(_tree_collection("top1465.txt")[0])).solution
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    cells = (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
                    if len({(c // 27) * 3 + c % 9 // 3 for c in cells}) != 2:
                        continue  # a deadly rectangle spans exactly two boxes
                    a, b = solution[cells[0]], solution[cells[1]]
                    if a == b or solution[cells[2]] != b or solution[cells[3]] != a:
                        continue
                    grid = list(solution)
                    for cell in cells:
                        grid[cell] = 0
                    want = exact.search_solutions(grid, limit=5)
                    assert len(want) == 2
                    assert sorted(dlx.search_solutions(grid, limit=5)) == sorted(want)
                    assert sorted(dlx.search_textbook(grid, limit=5)) == sorted(want)
                    return
    pytest.skip("no deadly rectangle in this solution")


def test_candidates_restrict_the_search_as_in_the_bitmask_engine():
    rng = random.Random(3)
    emptied = 0
    for line in _tree_collection("top1465.txt"):
        grid = parse_puzzle(line)
        truth = exact.search_solutions(grid, limit=1)[0]
        candidates = initial_candidates(grid)
        for _ in range(40):  # strike out wrong digits, and now and then the true one
            cell, d = rng.randrange(81), rng.randrange(9)
            if not grid[cell] and (d + 1 != truth[cell] or rng.random() < 0.05):
                candidates[cell] &= ~(1 << d)
        want = exact.search_solutions(grid, candidates, limit=2)
        emptied += not want
        assert dlx.search_solutions(grid, candidates, limit=2) == want, line
        assert dlx.search_textbook(grid, candidates, limit=2) == want, line
    assert emptied  # some strikes removed the solution: the "no solution" path is checked too


def test_an_empty_cell_without_candidates_has_no_solution():
    grid = parse_puzzle(_tree_collection("top1465.txt")[5])
    candidates = initial_candidates(grid)
    candidates[grid.index(0)] = 0
    assert dlx.search_solutions(grid, candidates) == [] and dlx.search_textbook(grid, candidates) == []


def test_clashing_givens_and_the_blank_grid():
    clash = [0] * 81
    clash[0] = clash[1] = 5
    assert dlx.search_solutions(clash) == [] and dlx.search_textbook(clash) == []
    assert solve_unique(clash, search="dlx").status == NO_SOLUTION
    found = dlx.search_solutions([0] * 81, limit=5)
    assert len(found) == 5 and len({tuple(g) for g in found}) == 5
    assert all(is_valid_solution([0] * 81, g) for g in found)
    assert solve_unique([0] * 81, search="dlx").status == MULTIPLE_SOLUTIONS


def test_solve_unique_takes_the_engine_by_name():
    assert search_engine("bitmask") is exact.search_solutions
    assert search_engine("dlx") is dlx.search_solutions
    with pytest.raises(ValueError, match="unknown exact search"):
        search_engine("links")
    for line in _tree_collection("top1465.txt")[:10]:
        grid = parse_puzzle(line)
        a, b = solve_unique(grid), solve_unique(grid, search="dlx")
        assert a.status == b.status == SOLVED and a.solution == b.solution


def test_photo_repair_decides_the_same_with_either_engine(monkeypatch):
    # A reading with one misread given: the repair's exact searches run on DLX when asked, and decide alike.
    import numpy as np

    from snapsolve.repair import choose_reading

    givens = parse_puzzle(read_collection("17clue.txt")[10])
    cell = next(i for i, d in enumerate(givens) if d)
    probs = np.zeros((81, 10))
    probs[np.arange(81), givens] = 1.0
    probs[cell] = 0.0
    probs[cell, givens[cell] % 9 + 1], probs[cell, givens[cell]] = 0.7, 0.3
    calls = []
    search = dlx.search_solutions
    monkeypatch.setattr(dlx, "search_solutions", lambda *a, **k: calls.append(1) or search(*a, **k))
    default = choose_reading(probs)
    assert not calls
    linked = choose_reading(probs, search="dlx")
    assert len(calls) >= 2  # the first reading and its repair
    assert linked == default and linked.status == SOLVED and linked.givens == givens
