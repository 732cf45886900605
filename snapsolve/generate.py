"""``snapsolve generate``: new puzzles at a chosen level, as text, JSON Lines, PNG or PDF pages."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from .solver.generator import Generated, GenerationFailed, generate
from .solver.grid import format_puzzle

#: Solved grids per answer-key page (3 across, 4 down).
KEY_PER_PAGE = 12


def write_pages(puzzles, level: str, path: Path, per_page: int, key: bool = True) -> list[Path]:
    """Render puzzles onto pages, then (with `key`) answer-key pages of small solved grids numbered like them.

    Parameters
    ----------
    puzzles : list of solver.generator.Generated
        Each with ``givens`` and ``solution`` (the solver's Solution: ``solution``, ``level``, ``score``).
    level : str
        For the pages' titles.
    path : Path
        ``.pdf``: one multi-page PDF. Otherwise PNG files: ``NAME.png`` (``NAME-1.png``, ... when there
        are several pages) and the answer key as ``NAME-key.png`` (``NAME-key-1.png``, ...).
    per_page : int
        Puzzles per page.
    key : bool
        Add the answer key (`KEY_PER_PAGE` solutions a page).

    Returns
    -------
    list of Path
        The files written.
    """
    from .vision.render import render_page  # only pages need the drawing code (and OpenCV)

    pages, answers = [], []
    for start in range(0, len(puzzles), per_page):
        chunk = puzzles[start : start + per_page]
        captions = [f"#{start + i + 1}   {g.solution.level}, score {g.solution.score}" for i, g in enumerate(chunk)]
        pages.append(render_page([g.givens for g in chunk], title=f"Sudoku - {level}", subtitles=captions))
    for start in range(0, len(puzzles) if key else 0, KEY_PER_PAGE):
        chunk = puzzles[start : start + KEY_PER_PAGE]
        answers.append(
            render_page(
                [g.solution.solution for g in chunk],
                title=f"Answers - {level}",
                subtitles=[f"#{start + i + 1}" for i in range(len(chunk))],
                per_row=3,
            )
        )
    if path.suffix.lower() == ".pdf":
        pages[0].save(path, save_all=True, append_images=pages[1:] + answers, resolution=150)
        return [path]

    def names(stem: str, count: int) -> list[Path]:
        return (
            [path.with_name(f"{stem}{path.suffix}")]
            if count == 1
            else [path.with_name(f"{stem}-{i + 1}{path.suffix}") for i in range(count)]
        )

    out = names(path.stem, len(pages)) + (names(f"{path.stem}-key", len(answers)) if answers else [])
    for page, p in zip(pages + answers, out):
        page.save(p)
    return out


def _usage_problem(args: argparse.Namespace, fmt: str) -> str | None:
    """The line that says what is wrong with the arguments (a usage error), or None."""
    problem = None
    if args.count < 1:
        problem = "--count must be at least 1"
    elif args.max_givens is not None and args.max_givens < 17:
        problem = "--max-givens must be at least 17: no puzzle with 16 givens has one solution (McGuire et al., 2012)"
    elif args.max_givens is not None and args.symmetric:
        problem = "--max-givens does not combine with --symmetric"
    if problem:
        return f"snapsolve generate: {problem}"
    if fmt not in ("txt", "json", "png", "pdf"):
        return f"snapsolve: unknown format {fmt!r} (use txt, json, png or pdf)"
    return None


def _json_of(made: Generated) -> dict:
    """One generated puzzle's JSON object: puzzle, solution, level, score, givens (a count), techniques."""
    s = made.solution
    assert s.solution is not None  # a generated puzzle is solved
    return {
        "puzzle": format_puzzle(made.givens),
        "solution": format_puzzle(s.solution),
        "level": s.level,
        "score": s.score,
        "givens": sum(1 for d in made.givens if d),
        "techniques": s.techniques,
    }


def run(args: argparse.Namespace) -> int:
    """Generate and write; exit status 0, 1 when the level could not be reached."""
    fmt = args.format or (args.output.suffix.lstrip(".").lower() if args.output else "txt")
    problem = _usage_problem(args, fmt)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if fmt in ("png", "pdf") and not args.output:
        args.output = Path(f"sudoku-{args.level}.{fmt}")
    puzzles, solutions = [], []
    bar = tqdm(total=args.count, unit="puzzle", file=sys.stderr, disable=not sys.stderr.isatty())
    sink = args.output.open("w") if args.output and fmt in ("txt", "json") else sys.stdout
    try:
        for made in generate(
            args.level,
            args.count,
            seed=args.seed,
            symmetric=args.symmetric,
            minimal=args.minimal,
            max_givens=args.max_givens,
        ):
            puzzles.append(made)
            bar.update()
            if fmt == "txt":
                print(format_puzzle(made.givens), file=sink, flush=True)
                assert made.solution.solution is not None  # a generated puzzle is solved
                solutions.append(format_puzzle(made.solution.solution))
            elif fmt == "json":
                print(json.dumps(_json_of(made)), file=sink, flush=True)
        if fmt == "txt" and not args.no_key:  # comment lines: the file still reads as puzzles
            print("# answers", file=sink)
            for number, solution in enumerate(solutions, start=1):
                print(f"# {number} {solution}", file=sink)
    except GenerationFailed as exc:
        print(f"snapsolve: {exc}", file=sys.stderr)
        return exc.kind.exit_status
    finally:
        bar.close()
        if sink is not sys.stdout:
            sink.close()
    if fmt in ("png", "pdf"):
        for path in write_pages(puzzles, args.level, args.output, args.per_page, key=not args.no_key):
            print(f"wrote {path}", file=sys.stderr)
    return 0
