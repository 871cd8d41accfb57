"""Typed, forgiving readers for view dicts (JSON-shaped ``Mapping[str, Any]``).

Why: views arrive as plain JSON data from the engine (or from Redis). The renderer must
never crash the turn pipeline over a missing optional key or a ``null`` where a number was
expected — the platform would then post no board at all — so every read goes through one
of these helpers, which return a sensible empty value instead. They also give mypy real
types to check the drawing code against.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def as_int(value: object, default: int = 0) -> int:
    """``value`` as an int (bools and non-numbers give ``default``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return int(value)


def as_opt_int(value: object) -> int | None:
    """``value`` as an int, or None when it is missing or not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def as_str(value: object, default: str = "") -> str:
    """``value`` as a string (None gives ``default``; numbers are formatted)."""
    if value is None:
        return default
    return value if isinstance(value, str) else str(value)


def as_bool(value: object) -> bool:
    """``value`` as a bool (anything falsy, or missing, is False)."""
    return bool(value)


def as_list(value: object) -> list[Any]:
    """``value`` as a list (tuples accepted; anything else gives an empty list)."""
    if isinstance(value, list | tuple):
        return list(value)
    return []


def as_map(value: object) -> Mapping[str, Any]:
    """``value`` as a mapping (anything else gives an empty one)."""
    if isinstance(value, Mapping):
        return value
    return {}


def str_list(value: object) -> list[str]:
    """``value`` as a list of strings (non-strings skipped)."""
    return [v for v in as_list(value) if isinstance(v, str)]
