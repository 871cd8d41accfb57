"""The automatic player's steps on a rondel space: which deployment, move, conquest,
purchase or building is worth most, and when to end the turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.duellum.actions import (
    Action,
    BuildTemple,
    BuildWall,
    BuyTech,
    Conquer,
    Deploy,
    Done,
    EndTurn,
    Found,
    Move,
    PlayCard,
    Recruit,
)
from engine.duellum.bot_context import (
    SCHOLAR_VALUE,
    TECH_USE,
    Ctx,
    galley_count,
    own_unit,
)
from engine.duellum.data import CARDS, COIN, RULES, SCHOLAR
from engine.duellum.duellum import attackers, defence, fight_regions
from engine.duellum.militia import special_type
from engine.duellum.payment import can_pay
from engine.duellum.scientia import price
from engine.duellum.state import PHASE_MOVE
from engine.duellum.templum import adjacent_temples


def step(ctx: Ctx, acts: Sequence[Action]) -> Action:
    """The best-scoring step on the current space, or the end of the turn when no step scores
    above a small threshold (a step that gains nothing is not taken)."""
    best: Action | None = None
    best_score = 0.25
    for a in acts:
        score = _score(ctx, a)
        if score is None:
            continue
        score += ctx.jitter()
        if score > best_score:
            best, best_score = a, score
    if best is not None:
        return best
    done = next((a for a in acts if isinstance(a, Done)), None)
    end = next((a for a in acts if isinstance(a, EndTurn)), None)
    if end is not None and not _later_steps_matter(ctx):
        return end
    if done is not None:
        return done
    return end if end is not None else acts[0]


def _later_steps_matter(ctx: Ctx) -> bool:
    """Whether conquests or foundings may follow (else ending the turn at once saves steps)."""
    st = ctx.state
    seat = ctx.seat
    m = ctx.m
    if st.phase == PHASE_MOVE:
        for r, o in enumerate(st.owner):
            if o == ctx.enemy and attackers(st, seat, r) >= defence(st, r, seat):
                return True
    res = st.players[seat].res
    if not can_pay(res, RULES.found_cost):
        return False
    return any(m.site[r] and st.owner[r] < 0 and own_unit(st, seat, r) for r in range(m.size))


def _score(ctx: Ctx, a: Action) -> float | None:
    st = ctx.state
    seat = ctx.seat
    p = st.players[seat]
    if isinstance(a, Conquer):
        if a.card:
            plain = defence(st, a.region, seat)
            if attackers(st, seat, a.region) >= plain:
                return None
        return 20.0 + (8.0 if st.temple[a.region] else 0.0)
    if isinstance(a, Found):
        counts = [0, 0, 0]
        for r, o in enumerate(st.owner):
            if o == seat:
                counts[st.cres[r]] += 1
        from engine.duellum.founding import surcharge

        return 10.0 - 2.5 * surcharge(st, a.region, a.res) - 0.6 * counts[a.res] + (0.4 if a.res == 2 else 0.0)
    if isinstance(a, BuildTemple):
        return 12.0 - adjacent_temples(st, a.region) * 1.5 + (1.0 if st.cres[a.region] == 2 else 0.0)
    if isinstance(a, BuildWall):
        threatened = any(st.units[ctx.enemy][t][r] for t in (0, 1) for r in (a.region, *ctx.m.adj_any[a.region]))
        if threatened or st.temple[a.region]:
            return 3.0
        return 0.5 if p.res[0] > 2 else None
    if isinstance(a, BuyTech):
        first = a.tech not in st.players[ctx.enemy].techs and st.bank_pers[SCHOLAR] > 0
        return (SCHOLAR_VALUE if first else 0.0) + TECH_USE.get(a.tech, 1.0) - 0.2 * price(st, seat, a.tech)
    if isinstance(a, Recruit):
        if sum(p.box) + a.count > 4:
            return None
        on_map = sum(sum(u) for u in st.units[seat])
        gold_left = p.res[2] + p.res[COIN] - RULES.recruit_gold[a.unit] * a.count
        if gold_left < 1:
            return None
        want_gal = ctx.navigate and galley_count(ctx) < 4
        base = 2.5 if a.unit == 1 and want_gal else 2.0 if a.unit == 0 else 0.8
        return (base * a.count / (1 + a.count * 0.3)) * ctx.aggression - 0.1 * on_map
    if isinstance(a, Deploy):
        return _deploy_score(ctx, a)
    if isinstance(a, Move):
        return move_score(ctx, a)
    if isinstance(a, PlayCard):
        kind = CARDS[a.card].kind
        if kind in ("temple_marble_discount", "free_wall", "tech_discount", "free_deploy", "found_base_discount"):
            return 14.0
        return None
    return None


def _deploy_score(ctx: Ctx, a: Deploy) -> float:
    st = ctx.state
    t = a.unit if a.unit < 2 else special_type(ctx.seat)
    d = ctx.nearest(t)[a.region]
    fights = min(a.count, st.units[ctx.enemy][t][a.region]) if a.unit < 2 else 0
    return (4.0 - 0.7 * min(d, 5)) * a.count / (1 + 0.2 * (a.count - 1)) - 1.5 * fights + 1.0


def move_score(ctx: Ctx, a: Move) -> float | None:
    """What moving ``a`` is worth: units traded in fights on the way, a conquest it makes
    possible, a free city site or an open sea reached, or the borders gained towards the
    nearest target, less what leaving the start region costs. The rondel's valuation of a
    DUELLUM space scores each group's best move with it too."""
    st = ctx.state
    seat = ctx.seat
    m = ctx.m
    src, dst = a.path[0], a.path[-1]
    t = a.unit if a.unit < 2 else special_type(seat)
    n = a.count
    kills = 0
    if a.unit < 2:
        for x in fight_regions(st, seat, a):
            k = min(n, st.units[ctx.enemy][t][x])
            kills += k
            n -= k
            if not n:
                break
    score = 1.1 * kills - 1.0 * kills
    if n == 0:
        return score - 0.5
    # Value at the destination.
    if st.owner[dst] == ctx.enemy:
        d = defence(st, dst, seat)
        before = attackers(st, seat, dst)
        after = before + (n if a.unit < 2 else 0)
        if a.unit == 2:
            d = max(1, d - 1)
        if before < d <= after:
            score += (15.0 + (8.0 if st.temple[dst] else 0.0)) * ctx.aggression
        elif after < d:
            score += 1.0 * min(n, d - before) * ctx.aggression * 0.8
        else:
            score -= 0.5 * n
    elif m.site[dst] and st.owner[dst] < 0:
        if not own_unit(st, seat, dst):
            score += 6.0 - 0.8 * (n - 1)
        else:
            score -= 0.5 * n
    elif t == 1 and m.sea_weight[dst] and ctx.navigate:
        if not st.units[seat][1][dst]:
            score += 2.0 * m.sea_weight[dst] - 0.6 * (n - 1)
        else:
            score -= 0.5 * n
    else:
        near = ctx.nearest(t)
        gain = near[src] - near[dst]
        score += 0.9 * gain * min(n, 2) - 0.2
    # Cost of leaving the start region.
    if t == 1 and m.sea_weight[src] and st.units[seat][1][src] == a.count and ctx.navigate:
        score -= 2.0 * m.sea_weight[src]
    if a.unit < 2:
        left = st.units[seat][0][src] + st.units[seat][1][src] - a.count
        if left == 0:
            if st.owner[src] == seat:
                score -= 1.0
            elif m.site[src] and st.owner[src] < 0:
                score -= 6.0
            elif st.owner[src] == ctx.enemy:
                score -= 2.0
    return score
