"""Seat names: each city is named after its colour (the neutral is Grey).

Why colours: the rulebook's own examples speak of Red, Blue, Green, Purple and Black cities,
and colours are what the images show.
"""

from __future__ import annotations

from engine.capitals.state import NEUTRAL

SEAT_NAMES = ("Red", "Blue", "Green", "Purple", "Black")
NEUTRAL_NAME = "Grey"


def seat_name(seat: int) -> str:
    """``Red`` for seat 0 ... ``Grey`` for the neutral."""
    return NEUTRAL_NAME if seat == NEUTRAL else SEAT_NAMES[seat]
