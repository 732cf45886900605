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


def test_a_misread_digit_is_repaired():
    givens = parse_puzzle(read_collection("17clue.txt")[10])
    cell = next(i for i, d in enumerate(givens) if d)
    wrong = givens[cell] % 9 + 1
    probs = one_hot(givens)
    probs[cell] = 0.0
    probs[cell, wrong], probs[cell, givens[cell]] = 0.7, 0.3  # the classifier prefers the wrong digit
    decision = choose_reading(probs)
    assert decision.solution.status == "solved"
    assert decision.givens == givens and decision.changes == [(cell, wrong, givens[cell])]
    assert decision.solution.solution == solve_unique(givens).solution
    assert "repaired" in decision.warning


def test_a_missed_digit_is_restored_from_a_faint_mark():
    givens = parse_puzzle(read_collection("17clue.txt")[11])
    cell = next(i for i, d in enumerate(givens) if d)
    probs = one_hot(givens)
    probs[cell] = 0.0
    probs[cell, 0], probs[cell, givens[cell]] = 0.9, 0.1  # read as a faint smudge
    decision = choose_reading(probs)
    assert decision.givens == givens and decision.solution.status == "solved"


def test_an_unlikely_repair_is_unsure_not_solved():
    givens = parse_puzzle(read_collection("17clue.txt")[12])
    cell = next(i for i, d in enumerate(givens) if d)
    wrong = givens[cell] % 9 + 1
    probs = one_hot(givens)
    probs[cell] = 0.0
    probs[cell, wrong], probs[cell, givens[cell]] = 0.995, 0.005
    decision = choose_reading(probs)
    assert decision.solution.status in (UNSURE, "no_solution", "multiple_solutions")
    assert decision.solution.solution is None


def test_two_equally_likely_readings_are_unsure():
    # 17-clue puzzles are minimal: dropping a given leaves several solutions, so a
    # cell that may hold its digit or be empty with equal odds has one proper reading.
    # Make a doubtful cell whose two digits both keep the puzzle unique instead:
    line = read_collection("top1465.txt")[0]
    givens = parse_puzzle(line)
    solution = solve_unique(givens).solution
    # add two extra givens from the solution so the puzzle stays unique either way
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
