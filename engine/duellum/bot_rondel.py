"""The automatic player's rondel move: what each space would give it now, against what the
steps there cost.

Why a valuation per space: the rondel decides the whole turn (produce, buy, build, move or
fight), so each reachable space is weighed by what the player lacks and what it could do there.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.duellum.actions import (
    Action,
    PlayCard,
    RondelMove,
)
from engine.duellum.bot_context import (
    GOLD_NEED,
    MARBLE_NEED,
    SCHOLAR_VALUE,
    TECH_USE,
    TEMPLE_VALUE,
    Ctx,
    galley_count,
)
from engine.duellum.bot_steps import move_score
from engine.duellum.data import CARDS, COIN, RULES, SCHOLAR
from engine.duellum.duellum import attackers, defence, fighting, group_moves
from engine.duellum.payment import can_pay
from engine.duellum.production import amount
from engine.duellum.scientia import price
from engine.duellum.templum import adjacent_temples


def _weights(ctx: Ctx) -> list[float]:
    """How much one more chip of each resource (and a coin) is worth now."""
    p = ctx.state.players[ctx.seat]
    w = [1.0, 1.0, 1.0, 1.4]
    if p.res[0] < RULES.temple_marble and ctx.state.bank_temples:
        w[0] += MARBLE_NEED
    if p.res[1] < 2:
        w[1] += 0.4
    if p.res[2] < 6:
        w[2] += GOLD_NEED
    for k in range(3):
        if p.res[k] == 0:
            w[k] += 0.6
        elif p.res[k] > 20:
            w[k] = 0.05
        elif p.res[k] > 12:
            w[k] = 0.2
        elif p.res[k] > 8:
            w[k] -= 0.5
    if p.res[COIN] > 8:
        w[COIN] = 0.5
    waiting = ctx.state.deployable[0] + ctx.state.deployable[1]
    if waiting and p.res[1] + p.res[COIN] < 2 * waiting:
        w[1] += 0.3 * min(waiting, 4)
    return w


def _affordable_count(res: list[int], cost: tuple[int, int, int], coins: int, cap: int) -> int:
    r = res[:]
    n = 0
    while n < cap and can_pay(r, cost, coins):
        for k in range(3):
            use = min(r[k], cost[k])
            r[k] -= use
            r[COIN] -= cost[k] - use
        r[COIN] -= coins
        n += 1
    return n


def _space_value(ctx: Ctx, space: int, w: list[float]) -> float:
    st = ctx.state
    seat = ctx.seat
    p = st.players[seat]
    name = RULES.rondel[space]
    if name in ("MARMOR", "FERRUM", "AURUM"):
        k = ("MARMOR", "FERRUM", "AURUM").index(name)
        return amount(st, seat, k) * w[k] + (w[COIN] if st.bank_coins else 1.0)
    if name == "TEMPLUM":
        value = 0.0
        res = p.res[:]
        if st.bank_temples:
            spots = sorted(adjacent_temples(st, r) for r, o in enumerate(st.owner) if o == seat and not st.temple[r])
            for extra in spots[:2]:
                if can_pay(res, (RULES.temple_marble, 0, 0), extra):
                    value += TEMPLE_VALUE
                    need = RULES.temple_marble
                    use = min(res[0], need)
                    res[0] -= use
                    res[COIN] -= need - use + extra
        walls = min(p.walls, sum(1 for r, o in enumerate(st.owner) if o == seat and not st.wall[r]))
        value += 0.8 * min(walls, res[0] + res[COIN])
        return value
    if name == "SCIENTIA":
        value = 0.0
        gold = p.res[2] + p.res[COIN]
        best = []
        for tech in TECH_USE:
            if tech in p.techs:
                continue
            cost = price(st, seat, tech, 0)
            if cost <= gold:
                first = tech not in st.players[ctx.enemy].techs and st.bank_pers[SCHOLAR] > 0
                best.append((SCHOLAR_VALUE if first else 0.0) + TECH_USE[tech])
        if best:
            value += max(best)
        if sum(p.box) == 0 and sum(p.supply) > 0 and gold >= 2:
            value += 2.0 * ctx.aggression
        if ctx.navigate and galley_count(ctx) < 4 and p.supply[1] and gold >= RULES.recruit_gold[1]:
            value += 2.5
        return value
    if name == "MILITIA":
        iron = p.res[1] + p.res[COIN]
        cities = [r for r, o in enumerate(st.owner) if o == seat]
        slots = [0, 0]
        for r in cities:
            cap = RULES.deploy_limit_temple if st.temple[r] else RULES.deploy_limit
            for t in (0, 1):
                if ctx.m.accepts[t][r]:
                    slots[t] += cap
        legions = min(st.deployable[0], slots[0])
        galleys = min(st.deployable[1], slots[1])
        n = min(legions + galleys, iron // RULES.deploy_iron)
        on_map = sum(sum(u) for u in st.units[seat])
        value = n * (3.0 if on_map < 6 else 1.5) * ctx.aggression
        if ctx.navigate and galleys and iron >= RULES.deploy_iron:
            value += 2.0 * min(galleys, iron // RULES.deploy_iron)
        return value
    if ctx._duellum is None:
        ctx._duellum = _duellum_value(ctx)
    return ctx._duellum


def _duellum_value(ctx: Ctx) -> float:
    """What a DUELLUM would achieve: the best move of each group of units (as the movement
    step would score it), plus conquests already possible without moving."""
    st = ctx.state
    seat = ctx.seat
    m = ctx.m
    value = 0.0
    for r, o in enumerate(st.owner):
        if o == ctx.enemy and attackers(st, seat, r) >= defence(st, r, seat):
            value += 15.0 + (8.0 if st.temple[r] else 0.0)
    for t in (0, 1):
        units = st.units[seat][t]
        fights_at = fighting(st, seat, t) if any(units) else []
        for src in range(m.size):
            if units[src]:
                best = 0.0
                for mv in group_moves(st, seat, t, src, fights_at):
                    sc = move_score(ctx, mv)
                    if sc is not None and sc > best:
                        best = sc
                value += min(best, 25.0)
    if st.config.special_units and st.players[seat].special >= 0:
        value += 0.5
    return value


def rondel(ctx: Ctx, acts: Sequence[Action]) -> Action:
    """The rondel move whose space is worth most after what the extra steps cost (chips and
    coins weighed by how much the player lacks them); a free-steps card is played first when
    the best move is paid."""
    w = _weights(ctx)
    values: dict[int, float] = {}
    best: Action | None = None
    best_score = -1e9
    for a in acts:
        if not isinstance(a, RondelMove):
            continue
        if a.space not in values:
            values[a.space] = _space_value(ctx, a.space, w)
        cost = sum(a.pay[k] * w[k] for k in range(4)) * 1.6
        score = values[a.space] - cost + ctx.jitter()
        if score > best_score:
            best, best_score = a, score
    assert best is not None
    if isinstance(best, RondelMove) and any(best.pay):
        for a in acts:
            if isinstance(a, PlayCard) and CARDS[a.card].kind == "rondel_free_steps_bonus":
                return a
    return best
