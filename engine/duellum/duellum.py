"""DUELLUM (§8.5): movement with battles on entering or passing, then conquests.

Movement. Each unit moves at most once per DUELLUM along a path of borders its type may cross
(1 border, 2 with STRATA/NAVIGATIO, more with Forced March/Fair Winds). A group entering a region
with enemy units of its type cancels 1:1 with them at once; survivors go on. Because units of a
type are interchangeable, a move is described by its start, the regions with enemy units it
enters in order, and its end: every route through empty regions between those points has the
same result, so the action lists only those points and the engine uses the shortest route. This
keeps ``move 2 legions roma-cremona`` one chat command and the list of moves short.

Conquest. After movement the player may conquer enemy cities where their units (moved or not,
both types) are at least the city's defence; they lose that many units, the defenders lose all,
a temple is destroyed (a General at the end of the turn), a wall goes back to its owner's supply,
and the city changes hands. A Fortress (defender) may answer a declaration (§12.4).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.text import count
from engine.duellum.actions import SPECIAL, Conquer, Losses, Move, place, unit_phrase
from engine.duellum.data import CARDS, RES_WORDS, RULES, UNIT_WORDS
from engine.duellum.log import Log
from engine.duellum.militia import special_type
from engine.duellum.state import (
    PHASE_CONQUER,
    PHASE_LOSSES,
    PHASE_MOVE,
    SPECIAL_BOX,
    Conquest,
    State,
)

DEFENCE_DELTA = "conquest_defence_delta"
DECLARE_TIMING = "CONQUEST_DECLARE"


# ----------------------------------------------------------------- movement
def base_range(state: State, seat: int, kind: int) -> int:
    """Borders a unit of ``kind`` may cross this DUELLUM without cards (STRATA/NAVIGATIO: 2)."""
    tech = "STRATA" if kind == 0 else "NAVIGATIO"
    return RULES.move_range_tech if tech in state.players[seat].techs else RULES.move_range


def fresh(state: State, seat: int, t: int, region: int) -> int:
    """Units of type ``t`` in ``region`` that have not moved in this DUELLUM."""
    return state.units[seat][t][region] - state.moved[t].get(region, 0)


def boosts_at(state: State, t: int, region: int) -> list[int]:
    """Range bonuses (Forced March / Fair Winds) of unmoved units of type ``t`` in ``region``, ascending."""
    return sorted(x for bt, r, x in state.boosts if bt == t and r == region)


def enemy_present(state: State, seat: int, t: int, region: int) -> bool:
    """Whether a unit of type ``t`` entering ``region`` would fight (enemy regular or special unit of its kind)."""
    enemy = 1 - seat
    if state.units[enemy][t][region] > 0:
        return True
    return state.config.special_units and state.players[enemy].special == region and special_type(enemy) == t


def fighting(state: State, seat: int, t: int) -> list[bool]:
    """Per region: would a unit of type ``t`` entering it fight now? (:func:`enemy_present`
    of every region, computed in one pass: the move list asks it for every unit type.)"""
    enemy = 1 - seat
    out = [n > 0 for n in state.units[enemy][t]]
    special = state.players[enemy].special
    if state.config.special_units and 0 <= special < len(out) and special_type(enemy) == t:
        out[special] = True
    return out


def routes(
    state: State, seat: int, t: int, src: int, max_len: int, fights_at: list[bool] | None = None
) -> dict[tuple[int, ...], int]:
    """Distinct moves of type-``t`` units from ``src``: notation path -> fewest borders needed.

    Breadth-first over (region, enemy regions entered so far); a route's outcome depends only on
    those enemy regions (in order) and the destination, so routes with equal signatures are one
    move and only the shortest counts. Staying put without a battle is not a move.
    """
    adj = state.map.adj[t]
    best: dict[tuple[int, tuple[int, ...]], int] = {(src, ()): 0}
    frontier: list[tuple[int, tuple[int, ...]]] = [(src, ())]
    fight = fighting(state, seat, t) if fights_at is None else fights_at
    for depth in range(1, max_len + 1):
        nxt: list[tuple[int, tuple[int, ...]]] = []
        for region, fights in frontier:
            for nb in adj[region]:
                f = (*fights, nb) if fight[nb] and nb not in fights else fights
                key = (nb, f)
                if key not in best:
                    best[key] = depth
                    nxt.append(key)
        frontier = nxt
    out: dict[tuple[int, ...], int] = {}
    for (dst, fights), d in best.items():
        if d == 0 or (dst == src and not fights):
            continue
        path = (src, *fights) if fights and fights[-1] == dst else (src, *fights, dst)
        out[path] = d
    return out


def special_routes(state: State, seat: int, src: int) -> dict[tuple[int, ...], int]:
    """Destinations of the special unit (it never fights when moving, D-35b).

    Decision: it "moves like a legion/galley", so STRATA / NAVIGATIO give it range 2 as well.
    """
    kind = special_type(seat)
    reach = {src: 0}
    frontier = [src]
    for depth in range(1, base_range(state, seat, kind) + 1):
        nxt = []
        for r in frontier:
            for nb in state.map.adj[kind][r]:
                if nb not in reach:
                    reach[nb] = depth
                    nxt.append(nb)
        frontier = nxt
    return {(src, dst): d for dst, d in reach.items() if dst != src}


def group_moves(state: State, seat: int, t: int, src: int, fights_at: list[bool] | None = None) -> Iterator[Move]:
    """Every legal move of unmoved type-``t`` units starting in ``src``."""
    n = fresh(state, seat, t, src)
    if n <= 0:
        return
    base = base_range(state, seat, t)
    bs = boosts_at(state, t, src) if state.boosts else []
    top = base + (bs[-1] if bs else 0)
    for path, need in routes(state, seat, t, src, top, fights_at).items():
        most = n if need <= base else sum(1 for x in bs if x >= need - base)
        for k in range(1, most + 1):
            yield Move(t, k, path)


def move_options(state: State, seat: int) -> Iterator[Move]:
    """Every legal move of the active player (phase checked by the caller)."""
    for t in (0, 1):
        units = state.units[seat][t]
        fights_at: list[bool] | None = None
        for src in range(state.map.size):
            if units[src]:
                if fights_at is None:
                    fights_at = fighting(state, seat, t)
                yield from group_moves(state, seat, t, src, fights_at)
    if state.config.special_units and not state.special_moved:
        sp = state.players[seat].special
        if sp >= 0:
            for path in special_routes(state, seat, sp):
                yield Move(SPECIAL, 1, path)


def check_move(state: State, seat: int, a: Move) -> str | None:
    """Why the move is illegal, or ``None``."""
    if state.phase != PHASE_MOVE:
        return "Units move only in the movement step of a DUELLUM action."
    m = state.map
    if len(a.path) < 2 or any(not 0 <= r < m.size for r in a.path) or a.count < 1:
        return "Name the units and a route such as `roma-ancona`."
    src = a.path[0]
    if a.unit == SPECIAL:
        if not state.config.special_units or state.players[seat].special != src:
            return f"Your special unit is not in {m.names[src]}."
        if state.special_moved:
            return "Your special unit has already moved in this action."
        if a.path not in special_routes(state, seat, src) or a.count != 1:
            return f"Your special unit cannot reach {m.names[a.path[-1]]} from {m.names[src]} in one move."
        return None
    if a.unit not in (0, 1):
        return "Move legions or galleys."
    word = UNIT_WORDS[a.unit]
    n = fresh(state, seat, a.unit, src)
    if n < a.count:
        moved = state.moved[a.unit].get(src, 0)
        extra = f" ({moved} of them already moved in this action)" if moved else ""
        return f"You have {count(n, 'unmoved ' + word)} in {m.names[src]}{extra}."
    if not m.accepts[a.unit][a.path[-1]]:
        return f"{word.capitalize()}s can never be in {m.names[a.path[-1]]} ({m.kinds[a.path[-1]]})."
    base = base_range(state, seat, a.unit)
    bs = boosts_at(state, a.unit, src)
    top = base + (bs[-1] if bs else 0)
    options = routes(state, seat, a.unit, src, top)
    need = options.get(a.path)
    if need is None:
        crossing = "RED or REDBLUE" if a.unit == 0 else "BLUE or REDBLUE"
        same_end = ["-".join(place(m, r) for r in p) for p in options if p[-1] == a.path[-1]]
        hint = f" Routes there name the enemy-held regions they enter: {', '.join(same_end)}." if same_end else ""
        return (
            f"No route of at most {count(top, 'border')} ({crossing}) takes {word}s from {m.names[src]} "
            f"to {m.names[a.path[-1]]} entering exactly these enemy-held regions.{hint}"
        )
    if need > base:
        able = sum(1 for x in bs if x >= need - base)
        if able < a.count:
            return (
                f"That route needs {count(need, 'border')}; your {word}s move {base}, and only "
                f"{count(able, word)} there {'has' if able == 1 else 'have'} a card bonus for it."
            )
    return None


def fight_regions(state: State, seat: int, a: Move) -> tuple[int, ...]:
    """The enemy-held regions a move enters, in order (decoded from its path)."""
    middle = a.path[1:-1]
    dst = a.path[-1]
    if enemy_present(state, seat, a.unit, dst) and dst not in middle:
        return (*middle, dst)
    return middle


def apply_move(state: State, seat: int, a: Move, log: Log) -> None:
    """Move the group, fighting 1:1 wherever it enters enemy units of its type."""
    m = state.map
    src, dst = a.path[0], a.path[-1]
    route = " → ".join(m.names[r] for r in a.path)
    who = log.nation(seat)
    if a.unit == SPECIAL:
        state.players[seat].special = dst
        state.special_moved = True
        log.say(f"{who} move their {unit_phrase(SPECIAL, 1, seat)} {route}.", "move", a.path)
        return
    t = a.unit
    enemy = 1 - seat
    fights = fight_regions(state, seat, a)
    need = routes(state, seat, t, src, base_range(state, seat, t) + max(boosts_at(state, t, src), default=0))[a.path]
    _use_boosts(state, seat, t, src, a.count, need)
    state.units[seat][t][src] -= a.count
    n = a.count
    notes: list[str] = []
    for x in fights:
        k = min(n, state.units[enemy][t][x])
        if k:
            n -= k
            state.units[enemy][t][x] -= k
            state.players[seat].box[t] += k
            state.players[enemy].box[t] += k
            notes.append(f"battle in {m.names[x]}: both lose {k} {UNIT_WORDS[t]}{'s' if k != 1 else ''}")
        ep = state.players[enemy]
        alone = state.units[enemy][t][x] == 0
        if n and alone and state.config.special_units and ep.special == x and special_type(enemy) == t:
            # D-35c: the special unit fights only once no regular unit of its kind is left with it.
            n -= 1
            ep.special = SPECIAL_BOX
            state.players[seat].box[t] += 1
            notes.append(
                f"battle in {m.names[x]}: a {UNIT_WORDS[t]} and the enemy {unit_phrase(SPECIAL, 1, enemy)} fall"
            )
        if n == 0:
            break
    if n:
        state.units[seat][t][dst] += n
        state.moved[t][dst] = state.moved[t].get(dst, 0) + n
    what = unit_phrase(t, a.count, seat, omit_one=False)
    tail = ("; " + "; ".join(notes)) if notes else ""
    if n == 0:
        tail += "; none arrive"
    elif n < a.count:
        tail += f"; {n} arrive"
    log.say(f"{who} move {what} {route}{tail}.", "battle" if notes else "move", a.path)


def _use_boosts(state: State, seat: int, t: int, src: int, count: int, need: int) -> None:
    """Spend card range bonuses of the moving units: unboosted units first unless the route needs a bonus."""
    base = base_range(state, seat, t)
    mine = [(i, x) for i, (bt, r, x) in enumerate(state.boosts) if bt == t and r == src]
    mine.sort(key=lambda ix: ix[1])
    if need <= base:
        plain = fresh(state, seat, t, src) - len(mine)
        take = max(0, count - plain)
        used = [i for i, _ in mine[:take]]
    else:
        used = [i for i, x in mine if x >= need - base][:count]
    for i in sorted(used, reverse=True):
        del state.boosts[i]


# ----------------------------------------------------------------- conquest
def attackers(state: State, seat: int, region: int) -> int:
    """Regular units (legions + galleys) of ``seat`` in ``region`` (special units never count, D-28)."""
    return state.units[seat][0][region] + state.units[seat][1][region]


def defence_parts(state: State, region: int, attacker: int) -> list[tuple[str, int]]:
    """The printed defence of a city against ``attacker``, as (reason, amount) parts."""
    owner = state.owner[region]
    parts = [
        (
            "temple" if state.temple[region] else "city",
            RULES.city_defence_temple if state.temple[region] else RULES.city_defence,
        )
    ]
    d = attackers(state, owner, region)
    if d:
        parts.append((f"{d} defending unit{'s' if d != 1 else ''}", d))
    if state.wall[region]:
        parts.append(("wall", 1))
    if "RES_PUBLICA" in state.players[owner].techs:
        parts.append(("RES PUBLICA", 1))
    if state.config.special_units:
        if state.players[owner].special == region:
            parts.append(("defending special unit", 1))
        if state.players[attacker].special == region:
            parts.append(("attacking special unit", -1))
    return parts


def card_delta(card: str) -> int:
    """Defence change of a conquest card (Veterans -1, Fortress +1)."""
    return int(CARDS[card].effect.get("value", 0)) if card else 0


def defence(state: State, region: int, attacker: int, card: str = "", fortress: int = 0) -> int:
    """Final defence: all modifiers summed, then at least 1 (D-34)."""
    return max(1, sum(v for _, v in defence_parts(state, region, attacker)) + card_delta(card) + fortress)


def declare_cards(state: State, seat: int) -> list[str]:
    """Distinct cards in hand that may be played while declaring a conquest (Veterans)."""
    out: list[str] = []
    for c in state.players[seat].hand:
        cd = CARDS[c]
        if cd.timing == DECLARE_TIMING and cd.kind == DEFENCE_DELTA and c not in out:
            out.append(c)
    return out


def check_conquer(state: State, seat: int, a: Conquer) -> str | None:
    """Why the declaration is illegal, or ``None``."""
    if state.phase != PHASE_CONQUER:
        if state.phase == PHASE_MOVE:
            return "Finish your movement first (`done`); conquests come after all movement."
        return "Cities are conquered only in the conquest step of a DUELLUM action."
    m = state.map
    if not 0 <= a.region < m.size:
        return "There is no such region."
    name = m.names[a.region]
    if state.owner[a.region] != 1 - seat:
        return f"{name} is not an enemy city."
    if a.region in state.saved:
        return f"{name} was saved by a Fortress this turn; it cannot be declared again until your next turn."
    if a.card and a.card not in declare_cards(state, seat):
        return f"You hold no {CARDS[a.card].name if a.card in CARDS else a.card} to play while declaring a conquest."
    d = defence(state, a.region, seat, a.card)
    have = attackers(state, seat, a.region)
    if have < d:
        parts = ", ".join(f"{why} {v}" for why, v in defence_parts(state, a.region, seat))
        mod = f", {CARDS[a.card].name} {card_delta(a.card)}" if a.card else ""
        return f"{name} has defence {d} ({parts}{mod}); you have {count(have, 'unit')} there."
    return None


def conquer_options(state: State, seat: int) -> Iterator[Conquer]:
    """Every legal declaration."""
    if state.phase != PHASE_CONQUER:
        return
    cards = declare_cards(state, seat)
    enemy = 1 - seat
    for r, o in enumerate(state.owner):
        if o == enemy and attackers(state, seat, r) > 0:
            for card in ("", *cards):
                a = Conquer(r, card)
                if check_conquer(state, seat, a) is None:
                    yield a


def loss_range(state: State, seat: int, region: int, d: int) -> tuple[int, int]:
    """Smallest and largest number of legions the attacker can lose to pay ``d`` units."""
    legions = state.units[seat][0][region]
    galleys = state.units[seat][1][region]
    return max(0, d - galleys), min(legions, d)


def declare(state: State, seat: int, a: Conquer, log: Log) -> None:
    """Record the declared conquest (and spend a declaration card); the caller then opens the
    defender's Fortress window or resolves it."""
    m = state.map
    state.declared += 1
    state.pending = Conquest(a.region, a.card)
    note = ""
    if a.card:
        state.players[seat].hand.remove(a.card)
        state.discard.append(a.card)
        note = f", playing {CARDS[a.card].name}"
    d = defence(state, a.region, seat, a.card)
    log.say(
        f"{log.nation(seat)} declare the conquest of {m.names[a.region]} (defence {d}){note}.",
        "conquest",
        [a.region],
    )


def resolve(state: State, seat: int, log: Log) -> None:
    """Resolve the pending conquest after the Fortress decision."""
    pend = state.pending
    assert pend is not None
    region = pend.region
    d = defence(state, region, seat, pend.card, pend.fortress)
    have = attackers(state, seat, region)
    if have < d:
        state.saved.append(region)
        state.pending = None
        state.phase = PHASE_CONQUER
        log.say(
            f"{state.map.names[region]} is safe (defence {d} against {have}); all units stay.",
            "conquest",
            [region],
        )
        return
    # Decision: when the attacker could pay with either type, it chooses the split after the
    # defender's Fortress decision (the number of losses is only known then; RT-11).
    lo, hi = loss_range(state, seat, region, d)
    if lo == hi:
        execute(state, seat, lo, d - lo, log)
    else:
        state.phase = PHASE_LOSSES


def losses_options(state: State, seat: int) -> Iterator[Losses]:
    """The possible splits of the conquest losses."""
    pend = state.pending
    if state.phase != PHASE_LOSSES or pend is None:
        return
    d = defence(state, pend.region, seat, pend.card, pend.fortress)
    lo, hi = loss_range(state, seat, pend.region, d)
    for legions in range(hi, lo - 1, -1):
        yield Losses(legions, d - legions)


def check_losses(state: State, seat: int, a: Losses) -> str | None:
    """Why the loss split is illegal, or ``None``."""
    pend = state.pending
    if state.phase != PHASE_LOSSES or pend is None:
        return "There are no conquest losses to choose now."
    d = defence(state, pend.region, seat, pend.card, pend.fortress)
    lo, hi = loss_range(state, seat, pend.region, d)
    if a.legions + a.galleys != d or not lo <= a.legions <= hi:
        name = state.map.names[pend.region]
        return f"Remove exactly {d} units from {name}: between {lo} and {hi} legions, the rest galleys."
    return None


def execute(state: State, seat: int, legions: int, galleys: int, log: Log) -> None:
    """Carry out a successful conquest with the attacker losing ``legions`` + ``galleys``."""
    pend = state.pending
    assert pend is not None
    region = pend.region
    m = state.map
    enemy = 1 - seat
    me, them = state.players[seat], state.players[enemy]
    state.units[seat][0][region] -= legions
    state.units[seat][1][region] -= galleys
    me.box[0] += legions
    me.box[1] += galleys
    lost = []
    for t in (0, 1):
        k = state.units[enemy][t][region]
        if k:
            state.units[enemy][t][region] = 0
            them.box[t] += k
            lost.append(f"{k} {UNIT_WORDS[t]}{'s' if k != 1 else ''}")
    extras = []
    if state.temple[region]:
        state.temple[region] = False
        state.bank_temples += 1
        state.temples_destroyed += 1
        extras.append("the temple is destroyed")
    if state.wall[region]:
        state.wall[region] = False
        them.walls += 1
        extras.append(f"the wall returns to the {m.nations[enemy]}")
    state.owner[region] = seat
    state.lost_city[enemy] = True
    state.conquered.append(region)
    state.pending = None
    state.phase = PHASE_CONQUER
    paid = " and ".join(f"{k} {UNIT_WORDS[t]}{'s' if k != 1 else ''}" for t, k in ((0, legions), (1, galleys)) if k)
    defenders = f"; the {m.nations[enemy]} lose {', '.join(lost)}" if lost else ""
    tail = ("; " + "; ".join(extras)) if extras else ""
    log.say(
        f"{log.nation(seat)} conquer {m.names[region]} ({RES_WORDS[state.cres[region]]}), losing {paid}"
        f"{defenders}{tail}.",
        "conquest",
        [region],
    )
