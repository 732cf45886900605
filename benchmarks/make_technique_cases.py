"""Write tests/data/techniques.txt: per-technique positions with hodoku-py's findings (the independent source).

Usage:
  pip install -e '.[bench]'
  python benchmarks/make_technique_cases.py [--per 3] [--out tests/data/techniques.txt]
      [--keep] [--puzzles levels|hardest|top1465|FILE] [--skip N] [--minutes M]
      [--path hodoku|ours] [--only NAME ...]

--keep reads the cases already in --out and asks hodoku-py only about the
techniques that have fewer than --per firing cases (to fill gaps); --puzzles
chooses where HoDoKu's paths start (default: the level sample interleaved
with top1465; ``hardest`` is ../shared/puzzles/forum_hardest_1106_part.txt,
whose paths reach fish, colouring, uniqueness and forcing techniques);
--minutes stops after that long (the file is written after every puzzle);
a --puzzles value that names a file reads one puzzle per line from it.
--only asks hodoku-py about these techniques alone.
--examples FILE adds positions from HoDoKu's own technique examples
(benchmarks/data/hodoku_examples.txt: the page's load line gives the grid and
the candidates HoDoKu had deleted); there too the expected result is what
hodoku-py's finder reports at the position, checked against the page's stated
eliminations (a mismatch is reported and the example skipped).

Positions come from HoDoKu's own solution paths (hodoku-py's solve loop,
replayed step by step) on the level sample and on puzzle collections. At each
position, every technique of `solver.techniques.TECHNIQUES` that still needs
cases and that HoDoKu's order reaches there (no earlier technique fires: the
same context our ladder gives a finder) is asked of hodoku-py's finder (``SudokuStepFinder.find_all``); the
elimination (or placement) sets of all steps it reports are written as the
expected result. With --path ours the positions are those of this project's
solution path instead (`solve_puzzle`'s steps replayed on a `Board`): HoDoKu's
loop takes seconds a step on hard puzzles, which leaves rare techniques (jellyfish,
BUG+1, uniqueness test 5, X-Chain) without cases in any time one can wait; our
ladder has HoDoKu's order, so "reached" is read the same way, from the row of
the technique our path applied. Either way, expected results are hodoku-py's
alone: this project's finders only choose where to look.

Must-not-fire cases: a firing position is perturbed by giving one cell of the
pattern back one candidate it lost (a near-pattern); when hodoku-py then finds
no step of the technique, the perturbed position is written with ``none``.

Line format (``|``-separated):
  technique | 81 tokens: ``=d`` a given, ``+d`` a digit solved since (avoidable rectangles tell them apart),
  else the candidate digits | expected
where expected is ``none`` or ``;``-separated sets of ``-r1c2:5`` eliminations
and ``+r1c2:5`` placements.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from hodoku.core.grid import Grid
from hodoku.core.scoring import SOLVER_STEPS, STEP_CONFIG
from hodoku.core.types import SolutionType
from hodoku.solver.solver import _apply_step
from hodoku.solver.step_finder import SudokuStepFinder

from snapsolve.solver.board import Board
from snapsolve.solver.grid import initial_candidates, parse_puzzle
from snapsolve.solver.ladder import FINDERS  # the techniques that have a finder
from snapsolve.solver.solve import solve_puzzle  # --path ours: positions only
from snapsolve.solver.techniques import BY_NAME, TECHNIQUES  # names and HoDoKu types

from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script

ROOT = Path(__file__).resolve().parents[1]

#: Our technique -> the hodoku-py SolutionTypes it corresponds to (hodoku-py splits some Java types).
EXTRA_TYPES = {
    "simple_colors": ["SIMPLE_COLORS_TRAP", "SIMPLE_COLORS_WRAP"],
    "multi_colors": ["MULTI_COLORS_1", "MULTI_COLORS_2"],
    "forcing_chain": ["FORCING_CHAIN_CONTRADICTION", "FORCING_CHAIN_VERITY"],
    "forcing_net": ["FORCING_NET_CONTRADICTION", "FORCING_NET_VERITY"],
}
#: Too slow to ask at every position (asked only when HoDoKu's own path uses them).
PATH_ONLY = {
    "x_chain",
    "xy_chain",
    "continuous_nice_loop",
    "discontinuous_nice_loop",
    "aic",
    "grouped_continuous_nice_loop",
    "grouped_discontinuous_nice_loop",
    "grouped_aic",
    "als_xz",
    "als_xy_wing",
    "forcing_chain",
    "forcing_net",
}


def types_of(name: str, hodoku: str) -> list[SolutionType]:
    return [SolutionType[t] for t in EXTRA_TYPES.get(name, [hodoku])]


def cell_name(c: int) -> str:
    return f"r{c // 9 + 1}c{c % 9 + 1}"


def position_text(values: list[int], cands: list[int], givens: int | None = None) -> str:
    """The 81 tokens of a position; `givens` (81-bit set) marks the givens among the filled cells (default: all)."""
    return " ".join(
        ("=" if givens is None or givens >> c & 1 else "+") + str(v)
        if v
        else "".join(str(d) for d in range(1, 10) if cands[c] >> (d - 1) & 1)
        for c, v in enumerate(values)
    )


def effect(step) -> frozenset[str]:
    out = {f"-{cell_name(c.index)}:{c.value}" for c in step.candidates_to_delete}
    if step.type in (
        SolutionType.FULL_HOUSE,
        SolutionType.NAKED_SINGLE,
        SolutionType.HIDDEN_SINGLE,
        SolutionType.BUG_PLUS_1,
        SolutionType.FORCING_CHAIN_VERITY,
        SolutionType.FORCING_NET_VERITY,
        SolutionType.FORCING_CHAIN_CONTRADICTION,
        SolutionType.FORCING_NET_CONTRADICTION,
    ):
        out |= {f"+{cell_name(i)}:{v}" for i, v in zip(step.indices, step.values)}
    return frozenset(out)


def grid_from(values: list[int], cands: list[int], givens: int | None = None) -> Grid:
    grid = Grid()
    grid.set_sudoku(
        "".join(("" if givens is None or givens >> c & 1 else "+") + str(v) if v else "0" for c, v in enumerate(values))
    )
    for c in range(81):
        if not values[c]:
            for d in range(1, 10):
                if grid.candidates[c] >> (d - 1) & 1 and not cands[c] >> (d - 1) & 1:
                    grid.del_candidate(c, d)
    return grid


def findings(values, cands, types, givens: int | None = None) -> set[frozenset[str]]:
    grid = grid_from(values, cands, givens)
    finder = SudokuStepFinder(grid)
    out = set()
    for t in types:
        for step in finder.find_all(t):
            if step.type in types:
                e = effect(step)
                if e:
                    out.add(e)
    return out


def puzzle_list(choice: str, rng: random.Random) -> list[str]:
    """The puzzles of --puzzles: ``levels`` (HoDoKu's level examples, hardest first, each paired with a
    top1465 puzzle drawn by `rng`), ``hardest``, ``top1465``, or a file of puzzles."""
    top = read_puzzles(SHARED / "top1465.txt")
    if choice == "levels":
        puzzles = [
            line.split()[0]
            for line in (ROOT / "benchmarks" / "data" / "hodoku_levels.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
        return [p for pair in zip(puzzles[::-1], rng.sample(top, len(puzzles))) for p in pair]
    if choice == "hardest":
        return read_puzzles(SHARED / "forum_hardest_1106_part.txt")
    if choice == "top1465":
        return top
    return read_puzzles(Path(choice))


def read_kept(path: Path, cases: dict, negatives: dict) -> set[str]:
    """Add the cases of a cases file (`write`'s format) to `cases` and `negatives`; return their positions."""
    seen = set()
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, key, expected = (part.strip() for part in line.split("|"))
            seen.add(key)
            if expected == "none":
                negatives[name].append(key)
            else:
                cases[name].append((key, {frozenset(e.split()) for e in expected.split(";")}))
    return seen


def add_case(cases: dict, negatives: dict, name: str, case: tuple[str, set], near: tuple) -> None:
    """Add a firing case (position, findings) of technique `name`, and, while it has fewer than two and is
    not PATH_ONLY, the near miss `near_miss(*near)` makes of it (when there is one)."""
    cases[name].append(case)
    if name not in PATH_ONLY and len(negatives[name]) < 2:
        negative = near_miss(*near)
        if negative:
            negatives[name].append(negative)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=3, help="firing cases per technique")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "techniques.txt")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the cases in --out, look only for the missing")
    parser.add_argument("--puzzles", default="levels", help="levels, hardest, top1465 or a file of puzzles")
    parser.add_argument(
        "--path",
        choices=["hodoku", "ours"],
        default="hodoku",
        help="whose solution path gives the positions (see above)",
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="ask hodoku-py about these techniques only")
    parser.add_argument("--skip", type=int, default=0, help="start at this puzzle of the list")
    parser.add_argument("--minutes", type=float, default=0, help="stop after this long (0: no limit)")
    parser.add_argument("--examples", type=Path, help="HoDoKu example lines to add (see hodoku_examples.txt)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    puzzles = puzzle_list(args.puzzles, rng)[args.skip :]
    wanted = {t.name: types_of(t.name, t.hodoku) for t in TECHNIQUES if t.name in FINDERS}
    asked = set(args.only or wanted)
    if asked - set(wanted):
        parser.error(f"no such technique with a finder: {sorted(asked - set(wanted))}")
    cases: dict[str, list[tuple[str, set]]] = {name: [] for name in wanted}
    negatives: dict[str, list[str]] = {name: [] for name in wanted}
    seen_positions = read_kept(args.out, cases, negatives) if args.keep and args.out.exists() else set()
    if args.examples:
        for name, values, cands, givens, stated in read_examples(args.examples):
            key = position_text(values, cands, givens)
            if key in seen_positions:
                continue
            found = findings(values, cands, wanted[name], givens)
            if not found or (stated and stated not in found):  # a page showing a placement states no elimination
                print(
                    f"example for {name} skipped: hodoku-py finds {sorted(map(sorted, found))}, "
                    f"the page states {sorted(stated)}",
                    file=sys.stderr,
                )
                continue
            seen_positions.add(key)
            add_case(cases, negatives, name, (key, found), (values, cands, wanted[name], found, rng, givens))
        write(args.out, wanted, cases, negatives)
    started = time.monotonic()
    positions = hodoku_path if args.path == "hodoku" else our_path
    for k, puzzle in enumerate(puzzles):
        if args.minutes and time.monotonic() - started > args.minutes * 60:
            break
        for values, cands, givens, step_type in positions(puzzle):
            key = position_text(values, cands, givens)
            if key not in seen_positions:
                seen_positions.add(key)
                reached = STEP_CONFIG[step_type].index  # every technique before this one was tried: none fired
                for name, types in wanted.items():
                    if name not in asked or len(cases[name]) >= args.per or STEP_CONFIG[types[0]].index > reached:
                        continue
                    if name in PATH_ONLY and step_type not in types:
                        continue
                    found = findings(values, cands, types, givens)
                    if found:
                        add_case(
                            cases,
                            negatives,
                            name,
                            (key, found),
                            (values, cands, types, found, rng, givens),
                        )
        write(args.out, wanted, cases, negatives)
        print(
            f"{k + 1}/{len(puzzles)} puzzles; missing: {[n for n in asked if len(cases[n]) < args.per]}",
            file=sys.stderr,
        )
        if all(len(cases[n]) >= args.per for n in asked):
            break
    write(args.out, wanted, cases, negatives)


def hodoku_path(puzzle: str):
    """(values, candidates, givens as an 81-bit set, SolutionType of the step taken there) along HoDoKu's
    solution path of `puzzle`."""
    grid = Grid()
    grid.set_sudoku(puzzle)
    for _ in range(200):
        if grid.is_solved():
            return
        finder = SudokuStepFinder(grid)
        step = next((s for cfg in SOLVER_STEPS if (s := finder.get_step(cfg.solution_type)) is not None), None)
        if step is None:
            return
        yield list(grid.values), list(grid.candidates), grid.givens, step.type
        _apply_step(grid, step)


def our_path(puzzle: str):
    """The same along this project's solution path (positions only: its finders decide no expected result)."""
    givens = parse_puzzle(puzzle)
    board = Board(givens)
    for step in solve_puzzle(givens).steps:
        yield (
            list(board.values),
            list(board.candidates),
            board.givens,
            types_of(step.technique, BY_NAME[step.technique].hodoku)[0],
        )
        board.apply(step)


def write(out: Path, wanted, cases, negatives) -> None:
    """Write the cases found so far (called after every puzzle, so an interrupted run keeps them)."""
    lines = [
        "# technique | position (=d given, +d solved since, else candidates) | expected (hodoku-py 0.2 find_all) "
        "or none",
        "# Generated by benchmarks/make_technique_cases.py from hodoku-py's finders; do not edit by hand.",
    ]
    for name in wanted:
        for key, found in cases[name]:
            lines.append(f"{name} | {key} | " + " ; ".join(" ".join(sorted(e)) for e in sorted(found, key=sorted)))
        for key in negatives[name]:
            lines.append(f"{name} | {key} | none")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(
        f"wrote {out}: {sum(map(len, cases.values()))} firing, {sum(map(len, negatives.values()))} "
        f"must-not-fire; without cases: {[n for n in wanted if not cases[n]]}",
        file=sys.stderr,
    )


def read_examples(path: Path):
    """(technique, values, candidates, givens as an 81-bit set, stated eliminations) from HoDoKu example
    load lines.

    HoDoKu's line ``:type:digits:grid:deleted:eliminations:...``: the grid has
    81 cells, ``.`` empty, ``d`` a given, ``+d`` a placed digit; ``deleted``
    and ``eliminations`` are ``drc`` triples (digit, row, column).
    """
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, load, _page = (part.strip() for part in line.split("|"))
        fields = load.split(":")
        grid, deleted, eliminated = fields[3], fields[4], fields[5]
        values = [int(ch) for ch in grid.replace("+", "").replace(".", "0")]
        assert len(values) == 81, line
        givens, cell, solved = 0, 0, False
        for ch in grid:  # a "+" precedes every solved (non-given) digit
            if ch == "+":
                solved = True
                continue
            if ch != "." and not solved:
                givens |= 1 << cell
            cell, solved = cell + 1, False
        cands = initial_candidates(values)
        for token in deleted.split():
            d, r, col = map(int, token)
            cands[(r - 1) * 9 + col - 1] &= ~(1 << (d - 1))
        stated = frozenset(f"-r{t[1]}c{t[2]}:{t[0]}" for t in eliminated.split())
        yield name, values, cands, givens, stated


def near_miss(values, cands, types, found, rng, givens: int | None = None) -> str | None:
    """A position one candidate away from a firing one where hodoku-py finds no step of these types."""
    digits = {int(e.split(":")[1]) for effect_set in found for e in effect_set}
    empty = [c for c in range(81) if not values[c]]
    tries = [
        (c, d)
        for c in empty
        for d in digits
        if not cands[c] >> (d - 1) & 1 and all(values[p] != d for p in range(81) if p != c and _sees(p, c))
    ]
    rng.shuffle(tries)
    for c, d in tries[:40]:
        trial = list(cands)
        trial[c] |= 1 << (d - 1)
        if not findings(values, trial, types, givens):
            return position_text(values, trial, givens)
    return None


def _sees(a: int, b: int) -> bool:
    return a // 9 == b // 9 or a % 9 == b % 9 or (a // 27 == b // 27 and a % 9 // 3 == b % 9 // 3)


if __name__ == "__main__":
    main()
