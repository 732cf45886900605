"""The README keeps telling the truth: how to run the tests it leaves out."""

from __future__ import annotations

import tomllib

from .conftest import ROOT

README = ROOT / "README.md"


def test_the_readme_says_how_to_run_the_slow_tests():
    """pyproject.toml deselects the tests marked slow from the README's test command; the README says so, and how
    to run them."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-m 'not slow'" in options["addopts"] and any(m.startswith("slow:") for m in options["markers"])
    text = " ".join(README.read_text().split())
    assert "python -m pytest -q -m slow" in text and 'python -m pytest -q -m "slow or not slow"' in text
