"""Prosperity requirements (spec §9.6, data file §8): majorities, minorities, track leaders.

Why compare against every other real city with ties allowed: the Warehouse says "most, or at
least tied", and the spec applies that to every requirement (D-24); the two-player neutral has
no city and no tracks besides Culture, so it never counts.
"""

from __future__ import annotations

from engine.capitals.data import TILES, Req
from engine.capitals.state import State


def tile_count(s: State, seat: int, of: tuple[str, ...]) -> int:
    """Tiles of the given types in a city (``ALL``: every building tile); lakes excluded,
    starting and prosperity tiles included (D-36)."""
    kinds = set(of)
    everything = kinds == {"ALL"}
    return sum(
        1
        for t in s.players[seat].city.values()
        if not t.lake and (everything or TILES[t.tile].type in kinds)
    )


def measure(s: State, seat: int, req: Req) -> int:
    """The number a requirement compares."""
    p = s.players[seat]
    if req.kind in ("MOST", "FEWEST"):
        return tile_count(s, seat, req.of)
    if req.of == ("station",):
        return p.level
    if req.of[0] == "PRG":
        return p.laps * 100 + p.prg
    return p.tracks[req.of[0]]


def requirement_met(s: State, seat: int, tile_id: str) -> bool:
    """Whether ``seat`` may build the prosperity tile now (ties satisfy)."""
    req = TILES[tile_id].req
    if req is None:
        return False
    mine = measure(s, seat, req)
    others = [measure(s, o, req) for o in range(s.n) if o != seat]
    if req.kind in ("MOST", "HIGHEST"):
        return all(mine >= x for x in others)
    return all(mine <= x for x in others)

