"""What the automatic player knows while it decides: the position, its seat and the
opponent's, how aggressive to be, and the regions worth reaching (cached per decision).

Why a module of its own: the rondel's valuation (:mod:`engine.duellum.bot_rondel`) and the
steps' (:mod:`engine.duellum.bot_steps`) both read it; :mod:`engine.duellum.bot` chooses.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.duellum.data import NAVIGATOR
from engine.duellum.state import State

# Weights of the heuristics, tuned on automatic games (bench/bench_engine_duellum.py plays them).
FAR = 99  # borders: "no target reachable"
TEMPLE_VALUE = 18.0
MARBLE_NEED = 1.6
SCHOLAR_VALUE = 12.0
GOLD_NEED = 0.4
TECH_USE = {"STRATA": 3.0, "MONETA": 3.0, "NAVIGATIO": 2.0, "RES_PUBLICA": 2.5, "COMMERCIUM": 1.5}


class Ctx:
    """Per-decision facts the heuristics share."""

    __slots__ = (
        "_duellum",
        "_nearest",
        "_targets",
        "aggression",
        "enemy",
        "m",
        "navigate",
        "rng",
        "seat",
        "state",
    )

    def __init__(self, state: State, seat: int, seed: int) -> None:
        self.state = state
        self.seat = seat
        self.enemy = 1 - seat
        self.m = state.map
        self.rng = Rng.from_seed(seed)
        # Later in the game (or when behind on personalities) conquest matters more.
        me, them = state.players[seat].vp, state.players[1 - seat].vp
        self.aggression = 1.0 + min(2.0, state.turn / 60.0) + (0.5 if them > me else 0.0)
        self._targets: dict[int, list[int]] = {}
        self._nearest: dict[int, list[int]] = {}
        self._duellum: float | None = None
        held = state.players[seat].pers[NAVIGATOR]
        self.navigate = state.bank_pers[NAVIGATOR] > 0 and held < 2

    def nearest(self, t: int) -> list[int]:
        """Per region: borders (for type ``t``) to the nearest target region (cached)."""
        got = self._nearest.get(t)
        if got is None:
            got = [FAR] * self.m.size
            frontier = self.targets(t)
            for r in frontier:
                got[r] = 0
            d = 0
            adj = self.m.adj[t]
            while frontier:
                d += 1
                nxt = []
                for r in frontier:
                    for nb in adj[r]:
                        if got[nb] == FAR:
                            got[nb] = d
                            nxt.append(nb)
                frontier = nxt
            self._nearest[t] = got
        return got

    def targets(self, t: int) -> list[int]:
        """Regions worth reaching for units of type ``t`` (cached for this decision)."""
        got = self._targets.get(t)
        if got is None:
            got = self._targets[t] = targets_of(self, t)
        return got

    def jitter(self) -> float:
        return self.rng.below(1000) / 20000.0


def targets_of(ctx: Ctx, t: int) -> list[int]:
    """Regions a unit of type ``t`` should head for: enemy cities, free city sites no unit of
    ours holds yet, and (galleys) open seas we do not sail yet."""
    st = ctx.state
    m = ctx.m
    out = []
    for r in range(m.size):
        if not m.accepts[t][r]:
            continue
        if (
            st.owner[r] == ctx.enemy
            or (m.site[r] and st.owner[r] < 0 and not own_unit(st, ctx.seat, r))
            or (t == 1 and m.sea_weight[r] and not st.units[ctx.seat][1][r])
        ):
            out.append(r)
    return out


def galley_count(ctx: Ctx) -> int:
    """Galleys on the map and in the box (a Navigator needs sea presence to be worth it)."""
    p = ctx.state.players[ctx.seat]
    return sum(ctx.state.units[ctx.seat][1]) + p.box[1]


def own_unit(st: State, seat: int, r: int) -> bool:
    """Whether ``seat`` has a legion or a galley in region ``r``."""
    return bool(st.units[seat][0][r] or st.units[seat][1][r])
