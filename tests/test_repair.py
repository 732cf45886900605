"""Consistency repair: misread digits fixed by the rules, doubtful readings reported as unsure."""

import cv2
import numpy as np

from snapsolve.pipeline import read_grids
from snapsolve.repair import UNSURE, choose_reading
from solver.dlx import solve_unique
from solver.grid import parse_puzzle
from vision.dataset import labelled_photos

from .conftest import read_collection


def one_hot(givens):
    probs = np.full((81, 10), 0.0)
    probs[np.arange(81), givens] = 1.0
    return probs


def doubtful(line_index, odds):
    """A 17-clue puzzle read with certainty except its first given, whose class odds are `odds(true digit)`."""
    givens = parse_puzzle(read_collection("17clue.txt")[line_index])
    cell = next(i for i, d in enumerate(givens) if d)
    probs = one_hot(givens)
    probs[cell] = 0.0
    for cls, p in odds(givens[cell]).items():
        probs[cell, cls] = p
    return givens, cell, probs


def test_a_misread_digit_is_repaired():
    # the classifier prefers a wrong digit
    givens, cell, probs = doubtful(10, lambda d: {d % 9 + 1: 0.7, d: 0.3})
    wrong = givens[cell] % 9 + 1
    decision = choose_reading(probs)
    assert decision.solution.status == "solved"
    assert decision.givens == givens and decision.changes == [(cell, wrong, givens[cell])]
    assert decision.solution.solution == solve_unique(givens).solution
    assert "repaired" in decision.warning


def test_a_missed_digit_is_restored_from_a_faint_mark():
    givens, _, probs = doubtful(11, lambda d: {0: 0.9, d: 0.1})  # read as a faint smudge
    decision = choose_reading(probs)
    assert decision.givens == givens and decision.solution.status == "solved"


def test_an_unlikely_repair_is_unsure_not_solved():
    _, _, probs = doubtful(12, lambda d: {d % 9 + 1: 0.995, d: 0.005})
    decision = choose_reading(probs)
    assert decision.solution.status in (UNSURE, "no_solution", "multiple_solutions")
    assert decision.solution.solution is None


def test_two_equally_likely_readings_are_unsure():
    # 17-clue puzzles are minimal: a given that may be empty has one proper reading.
    # So take a puzzle with spare givens, where the doubtful cell's two readings
    # (its digit, or empty) both have exactly one solution:
    line = read_collection("top1465.txt")[0]
    givens = parse_puzzle(line)
    solution = solve_unique(givens).solution
    # twelve extra givens from the solution: the puzzle stays unique either way
    empty = [i for i, d in enumerate(givens) if not d]
    extra = empty[:12]
    for i in extra:
        givens[i] = solution[i]
    cell = extra[0]
    probs = one_hot(givens)
    probs[cell] = 0.0
    probs[cell, givens[cell]], probs[cell, 0] = 0.5, 0.5
    decision = choose_reading(probs)
    assert decision.solution.status == UNSURE and decision.solution.solution is None


def test_no_confident_wrong_answer_on_the_shared_photos(photos_dir, model):
    solved = confident_wrong = 0
    for photo in labelled_photos(photos_dir):
        readings = read_grids(cv2.imread(str(photo.image_path)), model)
        if not readings:
            continue
        decision = choose_reading(readings[0].probabilities)
        if decision.solution.status == "solved":
            if decision.solution.solution != solve_unique(photo.givens).solution:
                confident_wrong += 1
            else:
                solved += 1
    assert confident_wrong == 0
    assert solved >= 150
