"""Per-technique regression set (tests/data/techniques.txt): expected results are hodoku-py's, not ours.

Each line is a position (candidate grid) with the sets of eliminations and
placements hodoku-py 0.2's finder reports for one technique there
(benchmarks/make_technique_cases.py wrote them), or ``none`` for a
near-pattern where hodoku-py finds nothing of that technique.

A firing case passes when one of the steps our finder yields for that
technique has exactly the effect of one of hodoku-py's steps, and the step the
ladder would take (our finder's first of that technique) removes or places
nothing hodoku-py's steps of that technique do not. A ``none`` case passes when
our finder yields no step of that technique.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from snapsolve.solver.board import Board
from snapsolve.solver.exact import search_solutions
from snapsolve.solver.grid import cell_name
from snapsolve.solver.ladder import FINDERS
from snapsolve.solver.techniques import BY_NAME

DATA = Path(__file__).parent / "data" / "techniques.txt"


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, position, expected = (part.strip() for part in line.split("|"))
            out.append((name, position, expected))
    return out


CASES = _cases()


def board_of(position: str) -> Board:
    """A Board from 81 tokens: ``=d`` a given, ``+d`` a digit solved since, else the cell's candidate digits."""
    tokens = position.split()
    assert len(tokens) == 81
    values = [int(t[1]) if t[0] in "=+" else 0 for t in tokens]
    candidates = [0 if values[c] else sum(1 << (int(ch) - 1) for ch in t) for c, t in enumerate(tokens)]
    return Board(values, candidates, givens=sum(1 << c for c, t in enumerate(tokens) if t.startswith("=")))


def effect(step) -> frozenset[str]:
    """A step's eliminations and placements in the data file's notation."""
    return frozenset(
        {f"-{cell_name(c)}:{d}" for c, d in step.eliminations} | {f"+{cell_name(c)}:{d}" for c, d in step.placements}
    )


def expected_sets(expected: str) -> list[frozenset[str]]:
    return [frozenset(part.split()) for part in expected.split(";")]


#: Chain techniques: HoDoKu merges the eliminations of all chains between the same ends and our finder
#: reports the one chain that eliminates most; a case passes when our step stays within hodoku-py's.
CHAINS = {
    "x_chain",
    "xy_chain",
    "aic",
    "continuous_nice_loop",
    "discontinuous_nice_loop",
    "grouped_aic",
    "grouped_continuous_nice_loop",
    "grouped_discontinuous_nice_loop",
}


def our_steps(name: str, board: Board, most: int = 500) -> list:
    """Steps of technique `name` that its finder yields (for chains: any row of the same finder)."""
    finder = FINDERS[name]
    names = {t for t, f in FINDERS.items() if f is finder} if name in CHAINS else {name}
    return [s for s in islice(finder(board), most) if s.technique in names]


#: Forcing chains and nets: HoDoKu's find_all reports the results its own search order reaches, ours reports
#: others just as valid, so a case checks that our finder fires and that its first step is true at the position
#: (against the position's unique solution, found by exact search on its candidates), not that it is HoDoKu's.
FORCING = {"forcing_chain", "forcing_net"}

#: Cases where our finder finds nothing that hodoku-py finds (name, hodoku-py's expected text): real misses of
#: our finders, kept visible as strict xfails (the test fails once the finder catches up, to remove the entry).
KNOWN_MISSES: set[tuple[str, str]] = set()


def _params():
    out = []
    for k, (name, position, expected) in enumerate(CASES):
        marks = (
            [pytest.mark.xfail(strict=True, reason="our finder misses what hodoku-py finds here")]
            if (name, expected) in KNOWN_MISSES
            else []
        )
        out.append(pytest.param(name, position, expected, marks=marks, id=f"{name}-{k}"))
    return out


@pytest.mark.parametrize("name,position,expected", _params())
def test_case(name, position, expected):
    board = board_of(position)
    steps = our_steps(name, board)
    if expected == "none":
        assert not steps, f"{name} fired on a near-pattern: {steps[0].text}"
        return
    theirs = expected_sets(expected)
    assert steps, f"{name} found nothing; hodoku-py: {expected}"
    if name in FORCING:
        solutions = search_solutions(board.values, board.candidates, limit=2)
        assert len(solutions) == 1, "the position should have one solution"
        truth = solutions[0]
        assert steps[0].eliminations or steps[0].placements
        assert all(truth[c] != d for c, d in steps[0].eliminations), steps[0].text
        assert all(truth[c] == d for c, d in steps[0].placements), steps[0].text
        return
    if name in CHAINS and steps[0].technique != name:
        pytest.skip(f"our chain finder reports {steps[0].technique} here; hodoku-py was asked for {name} only")
    ours = [effect(s) for s in steps]
    if name not in CHAINS:
        assert any(e in theirs for e in ours), f"{name}: ours {sorted(ours[0])}, hodoku-py {expected}"
    assert ours[0] <= frozenset().union(*theirs), f"{name}: first step {sorted(ours[0])} beyond hodoku-py's"


def test_every_finder_has_a_firing_case():
    """Every finder of the table appears in the regression set."""
    covered = {name for name, _, expected in CASES if expected != "none"}
    finders_covered = {FINDERS[n] for n in covered}
    missing = set(FINDERS.values()) - finders_covered
    assert not missing, f"finders without a case: {sorted(f.__name__ for f in missing)}"


#: The techniques with must-not-fire positions (near-patterns where hodoku-py finds none of them); the other
#: finders have firing positions only. A must-not-fire case lost from the data file fails the test below.
MUST_NOT_FIRE = {
    "bug_plus_1",
    "empty_rectangle",
    "finned_jellyfish",
    "finned_swordfish",
    "finned_x_wing",
    "jellyfish",
    "locked_candidates_claiming",
    "multi_colors",
    "sashimi_x_wing",
    "skyscraper",
    "two_string_kite",
    "unique_rectangle_5",
    "x_wing",
}


def test_must_not_fire_cases_cover_their_techniques():
    """The must-not-fire positions are those listed, each for a technique that also has a firing position
    (a near-pattern of a technique never seen firing would test nothing)."""
    silent = {name for name, _, expected in CASES if expected == "none"}
    assert silent == MUST_NOT_FIRE
    firing = {name for name, _, expected in CASES if expected != "none"}
    assert silent <= firing, sorted(silent - firing)


@pytest.mark.slow
def test_data_file_is_hodoku_py_output():
    """Recompute every line with hodoku-py's finders: the stored expectations are its own."""
    pytest.importorskip("hodoku")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from make_technique_cases import findings, types_of

    for name, position, expected in CASES:
        board = board_of(position)
        found = findings(board.values, board.candidates, types_of(name, BY_NAME[name].hodoku), board.givens)
        if expected == "none":
            assert not found, (name, position)
        else:
            assert set(expected_sets(expected)) == found, (name, position)
