"""The automatic player's scores for cultural influence, wonders and trade answers.

Why a separate table: :mod:`engine.clash.bot` scores the first part's actions on one scale
(found 100, grow about 90, advances 55-80, collect about 40); these scores sit on the same scale:
a wonder (5 points) comes right after founding, an influence attempt is worth its chance of taking
a point from an opponent, and a trade offer is accepted only when what comes in is worth at least
what goes out. The offers it writes itself come from :mod:`engine.clash.bot_trade`.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.data import TABLES
from engine.clash.influence import boost_banned, success_at
from engine.clash.state import State

SCORED = frozenset(
    {
        "influence",
        "boost",
        "noboost",
        "noinfluence",
        "wonder",
        "gardens",
        "trade",
        "invite",
        "take",
        "give",
        "get",
        "offer",
        "cancel",
        "accept",
        "decline",
        "noship",
    }
)
WORTH = {"food": 1.0, "wood": 1.0, "ore": 1.0, "ideas": 1.0, "gold": 1.5, "mood": 1.2, "culture": 1.2}


def success_chance(state: State, seat: int, a: Action) -> float:
    """Chance of success when every spare culture token may be spent on the roll."""
    p = state.pl[seat]
    target = state.city_at(a.to)
    spare = p.culture_tokens - a.n - (1 if "arts" in a.flags else 0)
    if target is None or boost_banned(state, seat, target):
        spare = 0
    need = max(1, success_at(state, seat) - max(0, spare))
    return max(0, 7 - need) / 6


def score(state: State, seat: int, a: Action) -> float:
    """Higher is better (same scale as :func:`engine.clash.bot.score`)."""
    k = a.kind
    if k == "wonder":
        return 96
    if k == "influence":
        chance = success_chance(state, seat, a)
        if "pyramids" in a.flags:
            return 60 + 30 * chance
        bonus = 15 if "arts" in a.flags else 0
        saving = 20 if saving_for_wonder(state, seat) else 0  # actions and tokens go to the wonder
        return 25 + 45 * chance + bonus - 3 * a.n - saving
    if k == "boost":
        plan = wonder_plan(state, seat)
        keep = TABLES.wonders[plan].cost.get("culture", 0) if plan else 0
        if saving_for_wonder(state, seat) and state.pl[seat].culture_tokens - a.n < keep:
            return 1
        return 70
    if k == "gardens":
        city = state.city_at(a.space)
        return 50 if city is not None and city.mood == "angry" else 12
    if k == "accept":
        return 20 if offer_gain(state, seat, a) >= 0 else 0
    if k == "decline":
        return 10
    if k == "cancel":
        return 5
    if k == "noship":
        return 9
    if k == "noboost":
        return 2
    return 0 if k == "noinfluence" else -1


def offer_gain(state: State, seat: int, a: Action | None = None) -> float:
    """What an offer is worth to the seat answering it: goods received minus goods given, a good
    it holds none of counting a little more; the cards handed over with ``a`` (an ``accept``)
    count at :func:`card_worth`."""
    from engine.clash.trading import holding

    pend = state.pending
    me = state.pl[seat]
    got = sum(n * (WORTH[i] + (0.3 if holding(me, i) == 0 else 0)) for i, n in pend["give"].items() if i in WORTH)
    got += sum(card_worth(state, seat, c, False) for c in pend.get("cards", []))
    paid = sum(n * WORTH[i] for i, n in pend["get"].items() if i in WORTH)
    paid += sum(card_worth(state, seat, c, True) for c in (a.items if a is not None else ()))
    return float(got - paid)


CARD_WORTH = 2.5
"""An unknown card's worth in resources: an action card saves an action or more; an objective
card may become 2 points."""
SCORING_SOON = 100.0
"""An objective card the holder could complete now: never given away."""


def card_worth(state: State, seat: int, card: str, mine: bool) -> float:
    """A card's worth to ``seat``; an objective card it holds whose objective is met now (a
    status objective to claim, an immediate one whose fact happened) is worth :data:`SCORING_SOON`."""
    from engine.clash.cards_data import DECKS
    from engine.clash.objectives import HALVES, immediate_facts, status_met

    if not mine or card not in DECKS.objectives:
        return CARD_WORTH
    for half in HALVES:
        obj = DECKS.objectives[card].half(half)
        if obj.timing == "S" and status_met(state, seat, obj):
            return SCORING_SOON
        if obj.timing == "I" and immediate_facts(state, seat, obj):
            return SCORING_SOON
    return CARD_WORTH


def wonder_plan(state: State, seat: int) -> str:
    """The revealed wonder the player is working towards: Engineering owned, not reserved by
    another player, its advance owned or within reach (first the one already allowed)."""
    p = state.pl[seat]
    if "engineering" not in p.advances:
        return ""
    best = ""
    for w in state.revealed_wonders:
        if state.reserved.get(w, seat) != seat:
            continue
        reqs = TABLES.wonders[w].requires
        if all(r in p.advances for r in reqs):
            return w
        best = best or w
    return best


def advance_score(state: State, seat: int, name: str) -> float:
    """Advances towards a wonder: Engineering once a wonder is on the table, then the wonder's
    advance (0: no opinion)."""
    p = state.pl[seat]
    if name == "engineering" and state.revealed_wonders:
        return 83
    plan = wonder_plan(state, seat)
    if plan and name in TABLES.wonders[plan].requires:
        return 84
    if saving_for_wonder(state, seat):
        return 30  # the resources go to the wonder first
    if plan and TABLES.advances[name].border == "culture" and p.culture_level < 5:
        return 81
    return 0


def resource_wants(state: State, seat: int) -> dict[str, float]:
    """Extra value of resources the planned wonder still needs."""
    plan = wonder_plan(state, seat)
    if not plan:
        return {}
    p = state.pl[seat]
    out: dict[str, float] = {}
    for r, n in TABLES.wonders[plan].cost.items():
        if r in p.res and p.res[r] < n:
            out[r] = 3.5
    return out


def saving_for_wonder(state: State, seat: int) -> bool:
    """The planned wonder only waits for resources: its advances are owned and the culture level
    can hold its tokens, so advances and city growth wait."""
    plan = wonder_plan(state, seat)
    if not plan:
        return False
    p = state.pl[seat]
    w = TABLES.wonders[plan]
    return all(r in p.advances for r in w.requires) and p.culture_level >= w.cost.get("culture", 0)
