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
from engine.core.rng import Rng
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
    Losses,
    Move,
    Pass,
    Pick,
    PlayCard,
    Recruit,
    RondelMove,
    TakeResource,
    Trade,
)
from engine.duellum.data import CARDS, COIN, NAVIGATOR, RULES, SCHOLAR
from engine.duellum.duellum import attackers, defence, fight_regions, fighting, group_moves
from engine.duellum.militia import special_type
from engine.duellum.payment import can_pay
from engine.duellum.production import amount
from engine.duellum.scientia import price
from engine.duellum.state import PHASE_FORTRESS, PHASE_LOSSES, PHASE_MOVE, PHASE_RONDEL, State
from engine.duellum.templum import adjacent_temples
from engine.duellum.turn import legal

FAR = 99
TEMPLE_VALUE = 18.0
MARBLE_NEED = 1.6
SCHOLAR_VALUE = 12.0
GOLD_NEED = 0.4
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
TECH_USE = {"STRATA": 3.0, "MONETA": 3.0, "NAVIGATIO": 2.0, "RES_PUBLICA": 2.5, "COMMERCIUM": 1.5}


class _Ctx:
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
            got = self._targets[t] = _targets(self, t)
        return got

    def jitter(self) -> float:
        return self.rng.below(1000) / 20000.0


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
    ctx = _Ctx(state, seat, seed)
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
        return _rondel(ctx, acts)
    return _step(ctx, acts)


# ------------------------------------------------------------------ picks
def _pick(acts: Sequence[Action]) -> Action:
    def rank(a: Action) -> int:
        assert isinstance(a, Pick)
        return PICK_ORDER.index(a.card) if a.card in PICK_ORDER else len(PICK_ORDER)

    return min(acts, key=rank)


def _fortress(ctx: _Ctx, acts: Sequence[Action]) -> Action:
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
def _free_card(ctx: _Ctx, acts: Sequence[Action]) -> Action | None:
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


def _trade(ctx: _Ctx, acts: Sequence[Action]) -> Action | None:
    res = ctx.state.players[ctx.seat].res
    hi = max(range(3), key=lambda k: res[k])
    lo = min(range(3), key=lambda k: res[k])
    if res[hi] < 6 or res[lo] > 1:
        return None
    for a in acts:
        if isinstance(a, Trade) and a.give[hi] == 3 and a.get[lo] == 2:
            return a
    return None


# ------------------------------------------------------------------ rondel
def _weights(ctx: _Ctx) -> list[float]:
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


def _space_value(ctx: _Ctx, space: int, w: list[float]) -> float:
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
        if ctx.navigate and _galleys(ctx) < 4 and p.supply[1] and gold >= RULES.recruit_gold[1]:
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


def _duellum_value(ctx: _Ctx) -> float:
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
                    sc = _move_score(ctx, mv)
                    if sc is not None and sc > best:
                        best = sc
                value += min(best, 25.0)
    if st.config.special_units and st.players[seat].special >= 0:
        value += 0.5
    return value


def _galleys(ctx: _Ctx) -> int:
    p = ctx.state.players[ctx.seat]
    return sum(ctx.state.units[ctx.seat][1]) + p.box[1]


def _own_unit(st: State, seat: int, r: int) -> bool:
    return bool(st.units[seat][0][r] or st.units[seat][1][r])


def _rondel(ctx: _Ctx, acts: Sequence[Action]) -> Action:
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


# ------------------------------------------------------------------ steps
def _step(ctx: _Ctx, acts: Sequence[Action]) -> Action:
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


def _later_steps_matter(ctx: _Ctx) -> bool:
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
    return any(m.site[r] and st.owner[r] < 0 and _own_unit(st, seat, r) for r in range(m.size))


def _score(ctx: _Ctx, a: Action) -> float | None:
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
        want_gal = ctx.navigate and _galleys(ctx) < 4
        base = 2.5 if a.unit == 1 and want_gal else 2.0 if a.unit == 0 else 0.8
        return (base * a.count / (1 + a.count * 0.3)) * ctx.aggression - 0.1 * on_map
    if isinstance(a, Deploy):
        return _deploy_score(ctx, a)
    if isinstance(a, Move):
        return _move_score(ctx, a)
    if isinstance(a, PlayCard):
        kind = CARDS[a.card].kind
        if kind in ("temple_marble_discount", "free_wall", "tech_discount", "free_deploy", "found_base_discount"):
            return 14.0
        return None
    return None


def _targets(ctx: _Ctx, t: int) -> list[int]:
    st = ctx.state
    m = ctx.m
    out = []
    for r in range(m.size):
        if not m.accepts[t][r]:
            continue
        if (
            st.owner[r] == ctx.enemy
            or (m.site[r] and st.owner[r] < 0 and not _own_unit(st, ctx.seat, r))
            or (t == 1 and m.sea_weight[r] and not st.units[ctx.seat][1][r])
        ):
            out.append(r)
    return out


def _deploy_score(ctx: _Ctx, a: Deploy) -> float:
    st = ctx.state
    t = a.unit if a.unit < 2 else special_type(ctx.seat)
    d = ctx.nearest(t)[a.region]
    fights = min(a.count, st.units[ctx.enemy][t][a.region]) if a.unit < 2 else 0
    return (4.0 - 0.7 * min(d, 5)) * a.count / (1 + 0.2 * (a.count - 1)) - 1.5 * fights + 1.0


def _move_score(ctx: _Ctx, a: Move) -> float | None:
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
        if not _own_unit(st, seat, dst):
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
