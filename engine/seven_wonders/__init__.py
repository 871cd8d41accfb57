"""7 Wonders (first edition) with the Cities expansion, for 2-8 players.

Modules by rules topic: ``data`` (JSON tables), ``cards``, ``state``, ``actions`` (move
record and notation), ``setup``, ``resources`` (production, trading, payment search),
``moves`` (legal moves, illegal reasons), ``turns`` (simultaneous resolution and steps),
``military``, ``science``, ``scoring``, ``cities`` (debt, diplomacy, black cards),
``wonders``, ``view``, ``bot`` and ``game`` (the protocol class).
"""

from engine.seven_wonders.game import SevenWondersGame

__all__ = ["SevenWondersGame"]
