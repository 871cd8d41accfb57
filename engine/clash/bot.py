"""The automatic player: develops cities, founds new ones, explores, advances, and fights when the
odds are good (undefended cities, lone settlers, weak Barbarian settlements; :mod:`bot_combat`).

Why a scored one-step choice: each turn offers dozens of actions; a small table of priorities
(found > grow > advance > collect what is short > build settlers > explore > calm angry cities)
plays sensibly and fast (well under 50 ms a decision), and a tiny seeded jitter breaks ties so
automatic games differ.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.board import distance, neighbours, revealed, terrain
from engine.clash.bot_combat import (
    approach_score,
    attack_score,
    combat_choice,
    leaves_open,
    threatened,
    wants_armies,
)
from engine.clash.bot_culture import SCORED as CULTURE_SCORED
from engine.clash.bot_culture import advance_score, resource_wants, saving_for_wonder
from engine.clash.bot_culture import score as culture_score
from engine.clash.bot_trade import compose_step, opening
from engine.clash.cities import units_of
from engine.clash.combat_choices import COMBAT_KINDS
from engine.clash.movement import hostile
from engine.clash.moves import legal
from engine.clash.state import State
from engine.core.rng import Rng

ADVANCE_PRIORITY = (
    "storage",
    "tactics",
    "myths",
    "writing",
    "fishing",
    "irrigation",
    "engineering",
    "roads",
    "husbandry",
    "rituals",
    "arts",
    "math",
    "philosophy",
    "bartering",
    "trade_routes",
    "sanitation",
    "public_education",
    "state_religion",
    "circus_sports",
    "theater_music",
    "monuments",
    "astronomy",
    "navigation",
    "medicine",
    "taxes",
    "currency",
    "free_education",
    "priesthood",
    "draft",
    "voting",
    "civil_liberties",
    "free_economy",
)


def score(state: State, seat: int, a: Action) -> float:
    """Higher is better."""
    p = state.pl[seat]
    k = a.kind
    if k == "build" and "army" in a.items and wants_armies(state, seat, a.space):
        city = state.city_at(a.space)
        few = units_of(state, seat, "army") < 3
        if city is not None and not city.activations and threatened(state, seat, a.space):
            return 92 + a.items.count("army")  # defend a city a foreign army could take
        return 4 if city is None or city.activations else (72 if few else 50) + a.items.count("army")
    if k == "found":
        near = min((distance(state, a.space, c.space) for c in state.cities if c.owner == seat), default=9)
        return 45 if near <= 1 else 100
    if k == "grow":
        if saving_for_wonder(state, seat):
            return 30
        return 90 + {"temple": 3, "academy": 2, "port": 1, "fortress": 0}[a.name] + (1 if "culture" in a.flags else 0)
    if k == "advance":
        towards = advance_score(state, seat, a.name)  # wonders
        if towards:
            return towards
        if a.name in ADVANCE_PRIORITY:
            return 80 - ADVANCE_PRIORITY.index(a.name) * 0.5
        return 55
    if k == "collect":
        city = state.city_at(a.space)
        assert city is not None
        if city.activations:
            return 5
        ore = 4.0 if p.res["ore"] < 2 and wants_armies(state, seat, a.space) else 2.5
        want = {"food": 3 if p.res["food"] < 2 else 1, "ore": ore, "wood": 2.5, "gold": 3, "mood": 1}
        want.update(resource_wants(state, seat))
        have = dict(p.res)
        val = 0.0
        for r in a.items:
            if r in have and have[r] >= 8:
                continue
            val += want.get(r, 1)
            if r in have:
                have[r] += 1
        return 40 + val
    if k == "build":
        city = state.city_at(a.space)
        assert city is not None
        if city.activations:
            return 4
        if (
            set(a.items) == {"settler"}
            and len(a.items) == 1
            and units_of(state, seat, "settler") == 0
            and len(state.cities_of(seat)) < 6
        ):
            return 88
        return 10 + a.items.count("army")
    if k == "move" and a.to in state.terrain and hostile(state, a.to, seat):
        return attack_score(state, seat, a)
    if k == "move" and "army" in a.items and not a.items[0].startswith("ship") and revealed(state, a.to):
        closer = approach_score(state, seat, a)
        if closer:
            return closer
    if k == "move" and leaves_open(state, seat, a):
        return 0  # never walk the last army out of a city a foreign army could take (play-test)
    if k == "move":
        if a.items[0].startswith("ship"):
            return 30 if not revealed(state, a.to) else 8
        if not revealed(state, a.to):
            return 84
        if "settler" in a.items and "army" not in a.items and len(a.items) == 1:
            here = min((distance(state, a.space, c.space) for c in state.cities if c.owner == seat), default=0)
            there = min((distance(state, a.to, c.space) for c in state.cities if c.owner == seat), default=0)
            if terrain(state, a.to) in ("fertile", "forest", "mountain") and there >= 2 > here:
                return 86
            unexplored = any(not revealed(state, n) for n in neighbours(state, a.to))
            return 60 + (10 if unexplored else 0) + there if there > here else 20
        return 3
    if k == "civic":
        city = state.city_at(a.space)
        assert city is not None
        return 50 if city.mood == "angry" else 12
    if k in ("orient", "anchor", "barbarians", "first", "keep", "raze"):
        return 10 if k != "raze" else 0
    if k == "income":
        return a.n
    if k in ("taxes", "liberties", "cartography"):
        return 35
    if k in ("play", "great"):
        from engine.clash.card_bot import play_score

        return play_score(a, state, seat)
    if k == "takeover":
        from engine.clash.card_bot import takeover_score

        return takeover_score(state, seat, a)
    if k in CULTURE_SCORED:
        return culture_score(state, seat, a)
    if k == "theater":
        return 1
    if k == "done":
        return 2
    if k == "end":
        return 1
    return 0


def auto_action(state: State, seat: int, seed: int, trading: bool = True) -> Action:
    """The automatic player's move (legal by construction); ``trading=False`` never opens or
    writes a trade offer (a player who missed the deadline, :mod:`engine.clash.bot_trade`)."""
    actions = legal(state, seat)
    if not actions:
        raise ValueError("no legal action")
    rng = Rng.from_seed(seed)
    if state.pending and state.pending["kind"] == "offer":
        return compose_step(state, seat, actions) if trading else Action("cancel")
    if trading and not state.pending:
        offer = opening(state, seat, actions)
        if offer is not None:
            return offer  # trading is free: first get what the wanted build lacks
    if state.pending and state.pending["kind"] in ("free", "dogma"):

        def pick(a: Action) -> float:
            return -ADVANCE_PRIORITY.index(a.name) if a.name in ADVANCE_PRIORITY else -99

        return max(actions, key=lambda a: (pick(a), -actions.index(a)))
    if state.pending and state.pending["kind"] == "first":
        return Action("first", n=seat)
    if state.pending and state.pending["kind"] == "card":
        from engine.clash.card_bot import choose

        return choose(state, seat, actions)
    if state.pending and state.pending["kind"] == "combat_card":
        from engine.clash.card_bot import combat_card

        return combat_card(state, seat, actions)
    if state.pending and state.pending["kind"] in COMBAT_KINDS:
        return combat_choice(state, seat, actions)
    scored = [(score(state, seat, a), a) for a in actions]
    best = max(v for v, _ in scored)
    top = [a for v, a in scored if v >= best - 0.01]
    return top[rng.below(len(top))]
