"""``python -m snapsolve``: the same as the ``snapsolve`` command."""

from .cli import run

if __name__ == "__main__":
    run()
