"""The automatic player: trades, builds and fights with simple, fast heuristics.

Why heuristics: the game is won by heroes and wonders, which need a set of 9 (or 12) cards, so
the bot keeps goods variety and taxes, buys cards when it can, otherwise grows its economy,
and attacks only with a clear dice advantage. Every choice is among ``legal`` moves.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.board import has, sides_in, units_at
from engine.mare_nostrum.data import CARDS, GOODS, TAX
from engine.mare_nostrum.state import State

BUY_RANK = {"pyramids": 100, "temple": 30, "market": 28, "city": 26, "caravan": 25, "influence": 22,
            "legion": 12, "trireme": 8, "fortress": 6}


def _goal(s: State, civ: str) -> str:
    """``"tax"`` or ``"goods"``: the kind of 9-card set the bot is collecting this round."""
    hand = s.hands[civ]
    kinds = sum(1 for g in GOODS if hand.get(g, 0))
    return TAX if hand.get(TAX, 0) >= kinds else "goods"


def _value(s: State, civ: str, card: str) -> float:
    """How much ``civ`` wants one more ``card``: a card towards its set is worth most."""
    hand = s.hands[civ]
    goal = _goal(s, civ)
    if card == TAX:
        return 3.0 if goal == TAX else 1.0
    if hand.get(card, 0):
        return 0.5
    return 3.0 if goal == "goods" else 2.0


def _spare(s: State, civ: str, card: str) -> float:
    """How gladly ``civ`` gives ``card`` away (offers and compensation): spare copies first,
    never the last card of a kind towards its set while another card will do."""
    hand = dict(s.hands[civ])
    if s.trade is not None and not s.trade.revealed:
        for k, n in s.trade.offers.get(civ, {}).items():
            hand[k] = hand.get(k, 0) - n
    left = hand.get(card, 0)
    goal = _goal(s, civ)
    if card == TAX:
        return 0.0 if goal == TAX else 1.0 + left / 10
    return float(left) - 1.0 + (1.5 if goal == TAX else 0.0)


def choose(s: State, civ: str, acts: list[Action], seed: int) -> Action:
    """Pick a sensible legal action."""
    rng = Rng.from_seed(seed)
    kinds = {a.kind for a in acts}
    if "offer" in kinds or "give" in kinds:
        return max(acts, key=lambda a: (_spare(s, civ, a.args[0]), a.args))
    if "take" in kinds:
        return max(acts, key=lambda a: (_value(s, civ, a.args[0]), a.args))
    if "trade" in kinds:
        n = len(acts) - 1
        return Action("trade", (str(min(n, 6)),))
    if "pay" in kinds:
        return _pay(s, civ, acts)
    if "lose" in kinds:
        return min(acts, key=lambda a: (a.args[0] == "fortress", a.args))
    if "keep" in kinds or "artemis" in kinds:
        real = [a for a in acts if a.args[0] != "nothing"] or acts
        return max(real, key=lambda a: (_value(s, civ, a.args[0]), a.args))
    if "ulysses" in kinds or "helen" in kinds:
        return acts[0]
    if "buy" in kinds or "annex" in kinds:
        return _build(s, civ, acts, rng)
    if kinds & {"march", "attack", "launch", "sail", "pillage", "occupy", "claim"}:
        return _military(s, civ, acts, rng)
    return rng.choice(acts)


def _pay(s: State, civ: str, acts: list[Action]) -> Action:
    hand = s.hands[civ]
    for a in acts:
        if a.args == ("taxes",):
            return a
    goods = [a for a in acts if a.kind == "pay" and a.args[0] in GOODS]
    if goods:
        return max(goods, key=lambda a: hand.get(a.args[0], 0))
    return next((a for a in acts if a.kind == "pay"), acts[-1])


def _build(s: State, civ: str, acts: list[Action], rng: Rng) -> Action:
    best: tuple[float, Action] | None = None
    for a in acts:
        if a.kind == "annex":
            score = 27.0
        elif a.kind == "buy":
            item = a.args[0]
            score = 90.0 if item in CARDS else float(BUY_RANK.get(item, 0))
            if len(a.args) > 2 and a.args[2] == "free":
                score += 5
        else:
            continue
        score += rng.below(100) / 100.0
        if best is None or score > best[0]:
            best = (score, a)
    assert best is not None
    return best[1]


def _military(s: State, civ: str, acts: list[Action], rng: Rng) -> Action:
    for kind in ("claim", "occupy", "pillage"):
        for a in acts:
            if a.kind == kind and (kind != "pillage" or has(s, civ, "nebuchadnezzar") or rng.below(4) == 0):
                return a
    attacks = [a for a in acts if a.kind == "attack"]
    if attacks:
        return max(attacks, key=lambda a: (len(a.args), a.args[2:] if len(a.args) > 2 else ()))
    launches = [a for a in acts if a.kind == "launch"]
    if launches:
        return rng.choice(launches)
    marches = []
    for a in acts:
        if a.kind != "march":
            continue
        src, dst = a.args[0], a.args[1]
        foes = [e for e in sides_in(s, dst) if e != civ]
        mine = len(units_at(s, src, civ, ("legion",)))
        owner = s.provs[dst].owner
        if foes:
            strength = sum(6 if u.kind == "fortress" else 3.5 for u in units_at(s, dst) if u.civ != civ)
            if mine * 3.5 > strength * 1.5 and not (len(a.args) > 2):
                marches.append(a)
        elif owner not in (None, civ) and not (len(a.args) > 2):
            marches.append(a)
    if marches and rng.below(3):
        return rng.choice(marches)
    done = [a for a in acts if a.kind == "done"]
    return done[0] if done else rng.choice(acts)
