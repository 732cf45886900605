"""``python -m snapsolve``: the same as the ``snapsolve`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
