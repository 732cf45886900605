"""snapsolve: a photo of a Sudoku in, its solution out.

The command line (``snapsolve.cli``) and the pipeline (``snapsolve.pipeline``)
that joins the ``vision`` and ``solver`` packages.
"""

__version__ = "0.1.0"
