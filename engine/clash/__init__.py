"""Clash of Cultures (2012 base game), first part: map and exploration, cities, all 48 advances,
movement, the round with its status phase, scoring and the end.

Modules by rules topic: ``data`` (JSON tables with provenance), ``hexes`` and ``board`` (map,
distances, exploration, Navigation), ``state``, ``setup``, ``resources`` (caps, levels, payments),
``cities`` (found, collect, build, grow, mood, civic), ``advances``, ``movement``,
``trade_routes``, ``turns`` (turn, status phase, end), ``moves`` (legal actions, refusals),
``actions`` and ``notation``, ``scoring``, ``bot``, ``view``, ``builder`` (test positions) and
``game`` (the protocol class). Second part: ``influence`` (cultural influence, the Pyramids'
attempts), ``wonders``, ``trading``, ``culture`` (their one entry
point for the shared dispatchers) and ``bot_culture``. Combat, barbarian attacks and the card decks
come with the rest of the second part.
"""

from engine.clash.game import ClashGame

__all__ = ["ClashGame"]
