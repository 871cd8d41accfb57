"""The automatic player: greedy on points and resources, seeded, always legal.

Why greedy estimates instead of search: the bot replaces absent players and fills timeouts,
so it must be cheap (it runs inside every random test game) and play sensibly: value
resources early, points late, science by the real formula, shields when they change a
neighbour battle, and coins at a third of a point.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.seven_wonders.actions import Action
from engine.seven_wonders.cards import count_scope
from engine.seven_wonders.data import CARDS, SYMBOLS, TABLES, Effect
from engine.seven_wonders.military import strength
from engine.seven_wonders.moves import legal, open_cities, pick_actions
from engine.seven_wonders.resources import own_supply
from engine.seven_wonders.science import best_score, masks, symbols, wildcards
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import next_stage, stages_of

COIN_VP = 1 / 3
RESOURCE_WEIGHT = (1.3, 0.9, 0.15)
"""Value of one more resource unit in Ages I, II, III."""
CHAIN_SOURCES = frozenset(p for c in CARDS.values() for p in c.chain_from)


def _military_gain(state: State, idx: int, extra: int) -> float:
    if not extra:
        return 0.0
    win = TABLES.victory_tokens[state.age - 1]
    mine = strength(state, idx)
    gain = 0.0
    for nb in (state.left(idx), state.right(idx)):
        theirs = strength(state, nb)

        def result(x: int, y: int = theirs) -> int:
            return win if x > y else (-1 if x < y else 0)

        gain += result(mine + extra) - result(mine)
    return 0.7 * gain + 0.2 * extra


def _effects_value(state: State, idx: int, effects: tuple[Effect, ...]) -> float:
    age = state.age
    weight = RESOURCE_WEIGHT[age - 1]
    own = own_supply(state, idx)
    v = 0.0
    for e in effects:
        kind = e.type
        if kind == "produce":
            for ch in e.res:
                t = "WSCOGPL".index(ch)
                v += weight * (0.5 if own.fixed[t] else 1.0)
        elif kind in ("produce_any", "produce_owned", "produce_missing"):
            v += weight * 1.2
        elif kind == "vp":
            v += e.n
        elif kind == "shields":
            v += _military_gain(state, idx, e.n)
        elif kind == "coins":
            v += e.n * COIN_VP
        elif kind == "coins_neighbours":
            v -= e.n * COIN_VP * 0.5
        elif kind == "coins_per":
            v += e.n * count_scope(state, idx, e.count, e.scope) * COIN_VP
        elif kind == "vp_per":
            v += e.n * count_scope(state, idx, e.count, e.scope) + (1 if age < 3 else 0)
        elif kind == "discount":
            v += (1.5, 1.0, 0.2)[age - 1]
        elif kind == "dock":
            v += (0.8, 0.5, 0.1)[age - 1]
        elif kind == "diplomacy":
            v += 0.6
        elif kind in ("coin_loss", "coin_loss_per"):
            v += 0.8
        elif kind == "mask":
            v += 1.5
        elif kind == "science_wild":
            c, g, t = symbols(state, idx)
            w = wildcards(state, idx)
            v += best_score((c, g, t), w + 1) - best_score((c, g, t), w) + 1
        elif kind == "free_stages":
            city = state.cities[idx]
            v += 1.5 * (len(stages_of(city)) - city.stages)
        elif kind in ("discard_build", "free_build_per_age", "copy_guild"):
            v += 3.0
        elif kind == "play_last_card":
            v += 2.0
    return v


def card_value(state: State, idx: int, cid: str) -> float:
    """Estimated worth of building ``cid`` in city ``idx`` now (before costs)."""
    c = CARDS[cid]
    v = _effects_value(state, idx, c.effects)
    if c.science:
        counts = list(symbols(state, idx))
        w = wildcards(state, idx)
        before = best_score((counts[0], counts[1], counts[2]), w, masks(state, idx))
        counts[SYMBOLS.index(c.science)] += 1
        after = best_score((counts[0], counts[1], counts[2]), w, masks(state, idx))
        v += after - before + (1.5 if state.age < 3 else 0.0)
    if c.name in CHAIN_SOURCES and state.age < 3:
        v += 0.8
    return v


def action_value(state: State, a: Action) -> float:
    """Greedy value of one move."""
    idx = a.city
    if a.kind == "sell":
        return 3 * COIN_VP + (0.4 if state.cities[idx].coins < 3 else 0.0)
    if a.kind == "skip":
        return 0.0
    if a.kind == "pay":
        return -a.coins * COIN_VP - a.debt
    if a.kind == "build":
        return card_value(state, idx, a.card)
    if a.kind == "play":
        c = CARDS[a.card]
        cost = 0 if a.via else c.cost.coins
        v = card_value(state, idx, a.card) - (cost + a.trade) * COIN_VP
        if a.via == "olympia":
            v -= 0.6
        return v
    stage = next_stage(state.cities[idx])
    if stage is None:
        return -10.0
    return _effects_value(state, idx, stage.effects) - (stage.cost.coins + a.trade) * COIN_VP + 0.3


def choose(state: State, actions: list[Action], seed: int) -> Action:
    """Best action by value; ties and near-ties broken by the seed."""
    rng = Rng.from_seed(seed)
    best = actions[0]
    best_v = -1e9
    for a in actions:
        v = action_value(state, a) + rng.below(1000) / 5000
        if v > best_v:
            best, best_v = a, v
    return best


def auto_action(state: State, seat: int, seed: int) -> Action:
    """The automatic player's move for ``seat`` (the first city it must decide for)."""
    cities = open_cities(state, seat)
    if not cities:
        raise ValueError("this seat has nothing to decide")
    actions = [a for a in legal(state, seat) if a.city == cities[0]]
    if state.step == "debt":
        return actions[0]
    return choose(state, actions, seed)


def least_useful_sell(state: State, seat: int) -> Action:
    """Timeout default for a pick: discard for coins the card the bot values least; when
    discarding is not allowed (Free City, A16.4), the bot's move."""
    cities = open_cities(state, seat)
    idx = cities[0]
    actions = pick_actions(state, idx)
    sells = [a for a in actions if a.kind == "sell"]
    if not sells:
        return choose(state, actions, 0)
    return min(sells, key=lambda a: (card_value(state, idx, a.card), CARDS[a.card].name))
