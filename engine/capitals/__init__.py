"""The Capitals for 2-5 players: city grids of square tiles, six city tracks, power stations,
tourists and three World Expo Evaluations.

Modules by rules topic: ``data`` (JSON tiles and board), ``state``, ``tracks`` (the one
track-change primitive, money and loans, progress and station upgrades), ``grid``
(coordinates, construction markers, placement rules), ``effects`` (builds and activations),
``setup``, ``political``, ``building``, ``tourism``, ``execution``, ``management``
(relocation, refill, prosperity), ``expo`` (Evaluations and final scoring), ``actions``
(move record and notation), ``flow`` (phase machine), ``bot``, ``view``, ``builder`` (test
positions) and ``game`` (the protocol class).
"""

from engine.capitals.game import CapitalsGame

__all__ = ["CapitalsGame"]
