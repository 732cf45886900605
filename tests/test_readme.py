"""The README keeps telling the truth: its JSON example is a real run of the shipped sample, and it says how to run
the tests it leaves out.

The example is checked field by field against ``snapsolve --json --no-image samples/02_25_honor_view_10_0.jpg``
run now (``seconds`` varies; a list ending in ``...`` is shortened to its first items). When the model or the
output changes, update it with ``python tests/test_readme.py --update`` (or paste what the failing test prints).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

if __package__:
    from .conftest import ROOT
else:  # run as a script (--update)
    from pathlib import Path

    ROOT = Path(__file__).resolve().parent.parent

README = ROOT / "README.md"
#: The command whose output the README shows (run from the checkout's root).
EXAMPLE_COMMAND = ["--json", "--no-image", "samples/02_25_honor_view_10_0.jpg"]
#: The line before the example's ```json block in the README.
MARKER = "<!-- readme-json-example -->"
#: Fields that change from run to run: their value is not compared.
VARYING = {"seconds"}
#: Lists shown shortened, to this many first items and "...".
SHORTENED = {"cell_confidence": 4}


def readme_example() -> str:
    """The text of the README's JSON example (between its ```json fence and the closing one)."""
    text = README.read_text()
    found = re.search(re.escape(MARKER) + r"\n```json\n(.*?)\n```", text, re.S)
    assert found, f"README.md has no {MARKER} followed by a ```json block"
    return found.group(1)


def parse_example(text: str) -> dict:
    """The example as data: a list's closing ``...`` (shortened) becomes the string "..."."""
    return json.loads(re.sub(r",\s*\.\.\.\s*\]", ', "..."]', text))


def real_run() -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "snapsolve", *EXAMPLE_COMMAND], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def differences(shown, real, path: str = "") -> list[str]:
    """Where the README's `shown` object says otherwise than the `real` one (every key shown, none extra)."""
    if isinstance(shown, dict) and isinstance(real, dict):
        out = [f"{path}.{k}: in the README, not in the output" for k in shown.keys() - real.keys()]
        out += [f"{path}.{k}: in the output, not in the README" for k in real.keys() - shown.keys()]
        for key in shown.keys() & real.keys():
            if key not in VARYING:
                out += differences(shown[key], real[key], f"{path}.{key}")
        return out
    if isinstance(shown, list) and isinstance(real, list):
        if shown and shown[-1] == "...":
            shown, real = shown[:-1], real[: len(shown) - 1]
        if len(shown) != len(real):
            return [f"{path}: {len(shown)} items in the README, {len(real)} in the output"]
        return [d for i, (a, b) in enumerate(zip(shown, real)) for d in differences(a, b, f"{path}[{i}]")]
    return [] if shown == real else [f"{path}: {shown!r} in the README, {real!r} in the output"]


def _dumps(key: str, value) -> str:
    if key in SHORTENED and isinstance(value, list) and len(value) > SHORTENED[key]:
        return json.dumps(value[: SHORTENED[key]])[:-1] + ", ...]"
    return json.dumps(value)


def example_text(result: dict) -> str:
    """`result` laid out as the README shows it: one grid field a line, long lists shortened."""
    indent = " " * 12
    grids = []
    for grid in result["grids"]:
        fields = [f'"{k}": {_dumps(k, v)}' for k, v in grid.items()]
        grids.append("{" + f",\n{indent}".join(fields) + "}")
    head = ", ".join(f'"{k}": {json.dumps(result[k])}' for k in ("input", "error", "seconds"))
    first = ("input", "error", "seconds", "grids")
    rest = ", ".join(f'"{k}": {json.dumps(v)}' for k, v in result.items() if k not in first)
    return f'{{{head},\n "grids": [' + f",\n{indent[:-1]}".join(grids) + f"],\n {rest}}}"


def test_the_readme_json_example_is_a_real_run_of_the_sample():
    real = real_run()
    stale = differences(parse_example(readme_example()), real)
    assert not stale, (
        "README.md's JSON example is stale:\n  " + "\n  ".join(stale) + "\nUpdate it with "
        "'python tests/test_readme.py --update', or paste:\n" + example_text(real)
    )


def test_the_example_layout_reads_back():
    """What --update writes is what the test reads: the same object, shortened lists aside."""
    real = real_run()
    assert differences(parse_example(example_text(real)), real) == []


def test_the_readme_is_short_and_its_pages_are_there():
    """The README stays at most 300 lines; every file it and the docs pages link to is in the tree."""
    assert len(README.read_text().splitlines()) <= 300
    for page in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name} links to {target}, which is not there"


def test_the_readme_says_how_to_run_the_slow_tests():
    """pyproject.toml deselects the tests marked slow from the README's test command; the README says so, and how
    to run them."""
    settings = (ROOT / "pyproject.toml").read_text()
    assert "addopts = \"-m 'not slow'\"" in settings and 'markers = ["slow: ' in settings
    text = " ".join(README.read_text().split())
    assert "python -m pytest -q -m slow" in text and 'python -m pytest -q -m "slow or not slow"' in text


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        raise SystemExit("usage: python tests/test_readme.py --update   (writes a fresh JSON example into README.md)")
    fresh = example_text(real_run())
    text = README.read_text()
    README.write_text(text.replace(readme_example(), fresh))
    print(f"README.md: JSON example written from 'snapsolve {' '.join(EXAMPLE_COMMAND)}'")
