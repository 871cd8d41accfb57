"""The automatic player: simple, deterministic heuristics that finish games.

Why heuristics rather than search: it must answer in well under a millisecond or two (it also
drives the random playouts), be legal by construction (it only chooses among ``legal``), and be
a sensible opponent: produce what it lacks, buy first technologies (Scholars), build temples
(Citizens), spread units to free city sites and found cities (Kings), sail galleys into open
seas (Navigators) and conquer weak cities, temples first (Generals). As the game drags on it
turns more aggressive, so two bots never turtle forever.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import NotYourTurn
from engine.duellum.actions import (
    Action,
    Losses,
    Pass,
    Pick,
    PlayCard,
    RondelMove,
    TakeResource,
    Trade,
)
from engine.duellum.bot_context import Ctx
from engine.duellum.bot_rondel import rondel
from engine.duellum.bot_steps import step
from engine.duellum.data import CARDS
from engine.duellum.duellum import attackers, defence
from engine.duellum.state import PHASE_FORTRESS, PHASE_LOSSES, PHASE_RONDEL, State
from engine.duellum.turn import legal

PICK_ORDER = (
    "FORTRESS",
    "MERCHANT_CARAVAN",
    "TREASURY",
    "RICH_HARVEST",
    "VETERANS",
    "MASTER_BUILDER",
    "COLONISTS",
    "LEVY",
    "LIBRARY",
    "ACADEMY",
    "MERCENARIES",
    "SHIPWRIGHTS",
    "EARTHQUAKE",
    "PILLAGE",
    "BURGLARY",
    "ORACLE",
    "STONEMASONS",
    "FORCED_MARCH",
    "FAIR_WINDS",
)
ALWAYS_PLAY = (
    "gain_resources_choice",
    "gain_coins",
    "free_recruit",
    "opponent_lose_coins",
    "production_bonus",
    "gain_gold_per_opponent_tech",
    "gain_conquered_city_resource",
)


def choose(state: State, seat: int, seed: int) -> Action:
    """The automatic player's action for ``seat`` (one of ``legal``)."""
    acts = legal(state, seat)
    if not acts:
        raise NotYourTurn("This seat has nothing to do right now.")
    # Decision: the automatic player pays chips first (the plain forms); paying in coins
    # instead is a human's choice against Burglary that the heuristics do not weigh.
    acts = [a for a in acts if getattr(a, "pay", None) is None or isinstance(a, RondelMove)]
    if len(acts) == 1:
        return acts[0]
    ctx = Ctx(state, seat, seed)
    if isinstance(acts[0], Pick):
        return _pick(acts)
    if state.phase == PHASE_FORTRESS:
        return _fortress(ctx, acts)
    if state.phase == PHASE_LOSSES:
        return _losses(acts)
    if isinstance(acts[0], TakeResource):
        res = state.players[seat].res
        return min((a for a in acts if isinstance(a, TakeResource)), key=lambda a: res[a.res])
    play = _free_card(ctx, acts)
    if play is not None:
        return play
    trade = _trade(ctx, acts)
    if trade is not None:
        return trade
    if state.phase == PHASE_RONDEL:
        return rondel(ctx, acts)
    return step(ctx, acts)


# ------------------------------------------------------------------ picks
def _pick(acts: Sequence[Action]) -> Action:
    def rank(a: Action) -> int:
        assert isinstance(a, Pick)
        return PICK_ORDER.index(a.card) if a.card in PICK_ORDER else len(PICK_ORDER)

    return min(acts, key=rank)


def _fortress(ctx: Ctx, acts: Sequence[Action]) -> Action:
    st = ctx.state
    pend = st.pending
    plays = [a for a in acts if isinstance(a, PlayCard)]
    if pend is None or not plays:
        return Pass()
    attacker = st.active
    d = defence(st, pend.region, attacker, pend.card)
    saves = attackers(st, attacker, pend.region) < d + 1
    if saves or st.temple[pend.region]:
        return plays[0]
    return Pass()


def _losses(acts: Sequence[Action]) -> Action:
    # Keep legions (they conquer land cities); lose galleys first.
    return min(acts, key=lambda a: a.legions if isinstance(a, Losses) else 0)


# ------------------------------------------------------------ free actions
def _free_card(ctx: Ctx, acts: Sequence[Action]) -> Action | None:
    st = ctx.state
    res = st.players[ctx.seat].res
    for a in acts:
        if not isinstance(a, PlayCard):
            continue
        kind = CARDS[a.card].kind
        if kind in ALWAYS_PLAY:
            if kind in ("gain_resources_choice", "gain_coins") and a.res:
                # Take the chips we hold least of.
                want = sorted(range(3), key=lambda k: (res[k], k))
                if a.res != tuple(sorted(want[: len(a.res)])):
                    continue
            return a
        if kind == "destroy_wall" and st.owner[a.region] == ctx.enemy:
            near = any(st.units[ctx.seat][t][r] for t in (0, 1) for r in (a.region, *ctx.m.adj_any[a.region]))
            if near:
                return a
    return None


def _trade(ctx: Ctx, acts: Sequence[Action]) -> Action | None:
    res = ctx.state.players[ctx.seat].res
    hi = max(range(3), key=lambda k: res[k])
    lo = min(range(3), key=lambda k: res[k])
    if res[hi] < 6 or res[lo] > 1:
        return None
    for a in acts:
        if isinstance(a, Trade) and a.give[hi] == 3 and a.get[lo] == 2:
            return a
    return None
