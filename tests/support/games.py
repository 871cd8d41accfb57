"""The games of this source tree, for property tests that run "for every game"."""

from __future__ import annotations

import sys
from pathlib import Path

from engine import list_games
from engine.core.api import AnyGame

ROOT = Path(__file__).resolve().parents[2] / "engine"


def games_in_checkout() -> dict[str, AnyGame]:
    """Every registered game whose code is part of this source tree, by id.

    Why: a game installed into the same environment from another checkout is tested by its own
    tree, not by this one."""
    out: dict[str, AnyGame] = {}
    for g in list_games():
        module = sys.modules.get(type(g).__module__)
        path = Path(getattr(module, "__file__", "") or "").resolve()
        if ROOT in path.parents:
            out[g.id] = g
    return out
