"""Mare Nostrum (first edition) for 3-5 players.

Modules by rules topic: ``data`` (JSON tables with provenance), ``state``, ``board``
(adjacency, war-torn, credited buildings, scores), ``setup``, ``roles``, ``commerce`` (income
and trading), ``build``, ``military``, ``rounds`` (phase order), ``moves`` (dispatch),
``actions`` (notation), ``view``, ``bot`` and ``game`` (the protocol class).
"""

from engine.mare_nostrum.game import MareNostrumGame

__all__ = ["MareNostrumGame"]
