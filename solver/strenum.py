"""`StrEnum`: enum members that are their string values (Python 3.11's `enum.StrEnum`, built here on 3.10).

A member compares equal to its value, hashes like it, formats and prints as it
and is written by `json.dumps` as it: the solver's technique names, levels and
statuses keep their JSON strings while code names them by member.
"""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10
    from enum import Enum

    class StrEnum(str, Enum):
        """Python 3.11's `enum.StrEnum` on 3.10: `str` and `format` give the value."""

        def __str__(self) -> str:
            return str(self.value)

        def __format__(self, spec: str) -> str:
            return str.__format__(str(self.value), spec)


__all__ = ["StrEnum"]
