"""Soundness of the logical solver on the shared collections, against Dancing Links.

No step may eliminate the true digit of a cell or place a wrong one. Default
runs check fixed samples; ``pytest -m slow`` checks whole collections.
"""

import pytest

from snapsolve.solver.exact import MULTIPLE_SOLUTIONS, solve_unique
from snapsolve.solver.grid import parse_puzzle
from snapsolve.solver.logic import solve_logically
from snapsolve.solver.solve import solve_puzzle

from .conftest import read_collection, sample_of


def check_sound(lines):
    """Return (puzzles solved by logic alone, steps checked); fail on any wrong step."""
    solved = steps = 0
    for line in lines:
        givens = parse_puzzle(line)
        truth = solve_unique(givens).solution
        result = solve_logically(givens)
        for step in result.steps:
            steps += 1
            for cell, digit in step.placements:
                assert truth[cell] == digit, f"{line}: {step.text}"
            for cell, digit in step.eliminations:
                assert truth[cell] != digit, f"{line}: {step.text}"
        solved += result.solved
    return solved, steps


def test_top1465_sample_sound_and_mostly_logical():
    lines = sample_of(read_collection("top1465.txt"), 150)
    solved, steps = check_sound(lines)
    assert steps > 33 * len(lines)  # hard puzzles: some 50 logical steps each
    assert solved / len(lines) >= 0.95


def test_hardest_sample_sound():
    check_sound(sample_of(read_collection("forum_hardest_1106_part.txt"), 60))


def test_17clue_sample_sound_and_logical():
    lines = sample_of(read_collection("17clue.txt"), 800, seed=2)
    solved, _ = check_sound(lines)
    assert solved == len(lines)


@pytest.mark.slow
def test_top1465_all_sound_and_95_percent_logical():
    lines = read_collection("top1465.txt")
    solved, _ = check_sound(lines)
    assert solved / len(lines) >= 0.95


@pytest.mark.slow
def test_hardest_all_sound():
    check_sound(read_collection("forum_hardest_1106_part.txt"))


@pytest.mark.slow
def test_17clue_5000_sound():
    check_sound(sample_of(read_collection("17clue.txt"), 5000, seed=3))


def test_puzzles_with_several_solutions_skip_logic():
    for line in sample_of(read_collection("serg_benchmark.txt"), 50):
        result = solve_puzzle(parse_puzzle(line))
        assert result.status == MULTIPLE_SOLUTIONS and result.steps == [] and result.solution is None


def test_grading_levels_follow_techniques():
    easy = solve_puzzle(parse_puzzle(read_collection("17clue.txt")[0]))
    assert easy.level in ("easy", "medium") and not easy.needs_search
    hard = [solve_puzzle(parse_puzzle(line)) for line in read_collection("top1465.txt")[:3]]
    assert all(h.level in ("unfair", "extreme") for h in hard)
    assert all(h.score > 1000 for h in hard)
