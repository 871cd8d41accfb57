"""The automatic player's trade offers: what it writes in its own turn and when a player invites it.

Why a plan computed from the state alone: an offer is written in several steps (``trade blue``,
``give 1 wood``, ``get 1 ore``, ``offer``), each one a separate call of the automatic player with
its own seed. The plan (partner, goods given, goods asked) depends only on the state, which the
composing steps do not change, so every step finds the same plan and the next step towards it;
the seed plays no part, and the same game gives the same offers.

What the plan is: the first build the player wants (its planned wonder, a city piece, an advance)
that it cannot pay for now but could after getting at most two resources it lacks, which another
player holds; it gives as many of the resources it has to spare, one for one (the automatic
player's own rule for accepting takes such an exchange). Gold and tokens are never given away:
Gold already stands in for any missing resource, so a build Gold could pay needs no trade.

Decisions:
- At most one offer of its own per turn (invitations count as offers), so a declined offer is
  never repeated in the same turn and no game waits on a loop of offers.
- When invited, it writes the same kind of offer for its next turn; when nothing is missing it
  offers one resource it has plenty of for one it holds least of. An offer the inviter already
  declined this turn is not written again: the next one gives one resource more, and when that
  is declined too it withdraws.
- A player whose deadline passed is played by the automatic player without trading
  (:meth:`engine.clash.game.ClashGame.on_timeout`): nobody trades in the name of an absent player.
"""

from __future__ import annotations

from copy import copy
from dataclasses import replace

from engine.clash.actions import Action
from engine.clash.advances import cost_of, eligible
from engine.clash.bot_culture import saving_for_wonder, wonder_plan
from engine.clash.cities import can_activate, grow_cost, grow_options
from engine.clash.data import RESOURCES, TABLES
from engine.clash.resources import cap
from engine.clash.state import Player, State
from engine.clash.trading import OFFERS, USED, declined_key, holding, room
from engine.clash.wonders import resource_cost

GOODS: tuple[str, ...] = ("food", "wood", "ore", "ideas")
"""What the automatic player gives and asks for."""
MAX_MISSING = 2
"""A build more than this many resources away is not worth a trade yet."""

Goods = dict[str, int]
Plan = tuple[Goods, Goods]


def _rich(state: State, seat: int) -> State:
    """A shallow copy of ``state`` in which ``seat`` holds every resource to its cap, to ask the
    rules what the player could do if only the resources were there (read only)."""
    p = state.pl[seat]
    out = copy(state)
    out.pl = list(state.pl)
    out.pl[seat] = replace(p, res={r: cap(p, r) for r in RESOURCES})
    return out


def goals(state: State, seat: int) -> list[tuple[Goods, tuple[str, ...]]]:
    """The builds the player wants, best first, as (resource cost, substitutes for Food): the
    planned wonder when only resources are missing, a piece for a city that may grow, the first
    advance in the automatic player's order it may acquire."""
    from engine.clash.bot import ADVANCE_PRIORITY

    p = state.pl[seat]
    out: list[tuple[Goods, tuple[str, ...]]] = []
    plan = wonder_plan(state, seat)
    if plan and saving_for_wonder(state, seat):
        out.append((resource_cost(plan), ()))
    rich = _rich(state, seat)
    own_turn = state.active == seat
    for city in state.cities_of(seat):
        if own_turn and not can_activate(state, city):
            continue
        grows = grow_options(rich, seat, city)
        if grows:
            out.append((grow_cost(p, grows[0][0]), ()))
            break
    order = [a for a in ADVANCE_PRIORITY if a in TABLES.advances] + list(TABLES.advance_order)
    for adv in order:
        if eligible(p, adv):
            out.append((cost_of(state, p, adv, False), ("ideas",)))
            break
    return out


def shortfall(p: Player, cost: Goods, order: tuple[str, ...]) -> Goods:
    """The resources ``p`` lacks for ``cost`` after paying what it can (Ideas for Food where
    ``order`` allows, then Gold for the rest): empty when ``p`` can pay."""
    have = dict(p.res)
    short: Goods = {}
    for res, n in cost.items():
        need = n
        for sub in order if res == "food" else ():
            use = min(have[sub], need)
            have[sub] -= use
            need -= use
        use = min(have.get(res, 0), need)
        have[res] = have.get(res, 0) - use
        need -= use
        if need:
            short[res] = need
    gold = have["gold"]
    for res in sorted(short, key=RESOURCES.index):
        paid = min(gold, short[res])
        short[res] -= paid
        gold -= paid
    return {r: n for r, n in short.items() if n}


def _spare(p: Player, keep: Goods) -> Goods:
    """What ``p`` holds of each good beyond what its wanted builds need."""
    return {g: p.res[g] - keep.get(g, 0) for g in GOODS if p.res[g] - keep.get(g, 0) > 0}


def _gives(spare: Goods, units: int, other: Player, exclude: Goods) -> Goods | None:
    """``units`` resources from ``spare`` (the largest piles first) that ``other`` can take."""
    left = {g: min(n, room(other, g)) for g, n in spare.items() if g not in exclude}
    give: Goods = {}
    for _ in range(units):
        best = max(left, key=lambda g: (left[g], -GOODS.index(g)), default="")
        if not best or left[best] <= 0:
            return None
        give[best] = give.get(best, 0) + 1
        left[best] -= 1
    return give


def _can_take(me: Player, other: Player, get: Goods) -> bool:
    return all(holding(other, g) >= n and room(me, g) >= n for g, n in get.items())


def wants(state: State, seat: int) -> list[tuple[Goods, Goods]]:
    """For each wanted build it could pay after a trade, best first: (what it lacks, what its
    builds up to this one need in all, which a trade must leave it)."""
    me = state.pl[seat]
    keep: Goods = {}
    out: list[tuple[Goods, Goods]] = []
    for cost, order in goals(state, seat):
        short = shortfall(me, cost, order)
        for g, n in cost.items():
            keep[g] = keep.get(g, 0) + n
        # Payable now: its resources stay, and the next build may still lack some. Too far off
        # (or lacking Gold): the next build may be within reach.
        if short and sum(short.values()) <= MAX_MISSING and all(g in GOODS for g in short):
            out.append((short, dict(keep)))
    return out


def candidates(state: State, seat: int, other: int, wanted: list[tuple[Goods, Goods]]) -> list[Plan]:
    """Offers to ``other``, the best first: what the first wanted build ``other`` can supply
    lacks, one for one, then the same with one resource more given."""
    me, them = state.pl[seat], state.pl[other]
    for short, keep in wanted:
        if not _can_take(me, them, short):
            continue
        out: list[Plan] = []
        units = sum(short.values())
        for extra in (0, 1):
            give = _gives(_spare(me, keep), units + extra, them, short)
            if give is not None:
                out.append((give, short))
        return out
    return []


def _fallback(state: State, seat: int, other: int) -> list[Plan]:
    """When invited with nothing lacking: one of its largest pile (at least 3 to spare) for one of
    the good it holds least of, if ``other`` has it."""
    me, them = state.pl[seat], state.pl[other]
    spare = _spare(me, {})
    big = max(spare, key=lambda g: (spare[g], -GOODS.index(g)), default="")
    if not big or spare[big] < 3 or room(them, big) < 1:
        return []
    wants = sorted((g for g in GOODS if g != big), key=lambda g: (me.res[g], GOODS.index(g)))
    for g in wants:
        if _can_take(me, them, {g: 1}):
            return [({big: 1}, {g: 1}), ({big: 2}, {g: 1})] if room(them, big) >= 2 else [({big: 1}, {g: 1})]
    return []


def offer_plan(
    state: State, seat: int, other: int, invited: bool, wanted: list[tuple[Goods, Goods]] | None = None
) -> Plan | None:
    """The offer to write to ``other`` (``None``: none worth writing): the first candidate that
    ``other`` has not declined this turn (``wanted``: :func:`wants`, when already known)."""
    plans = candidates(state, seat, other, wants(state, seat) if wanted is None else wanted)
    if invited and not plans:
        plans = _fallback(state, seat, other)
    declined = set(state.pl[state.active].used)
    for give, get in plans:
        if declined_key(seat, other, give, get) not in declined:
            return give, get
    return None


def opening(state: State, seat: int, actions: list[Action]) -> Action | None:
    """``trade <colour>`` when the player has not traded this turn, has an action left to use
    what it gets, and some other player can supply what it lacks; the partner holding the most of
    it (clockwise on ties)."""
    p = state.pl[seat]
    if state.phase != "turn" or state.active != seat or state.actions_left < 1 or USED in p.used or OFFERS < 1:
        return None
    wanted = wants(state, seat)
    if not wanted:
        return None
    best: tuple[int, int] | None = None
    for other in state.clockwise_from(seat)[1:]:
        plan = offer_plan(state, seat, other, False, wanted)
        if plan is None:
            continue
        supply = sum(holding(state.pl[other], g) for g in plan[1])
        if best is None or supply > best[0]:
            best = (supply, other)
    if best is None:
        return None
    action = Action("trade", n=best[1])
    return action if action in actions else None


def compose_step(state: State, seat: int, actions: list[Action]) -> Action:
    """The next step towards the planned offer: clear what is not in it, set each amount, send it
    (``cancel`` when there is no offer worth writing)."""
    pend = state.pending
    other = int(pend["to"])
    invited = state.active != seat
    plan = offer_plan(state, seat, other, invited)
    if plan is None or pend.get("cards"):
        return Action("cancel")
    give, get = plan
    steps: list[Action] = []
    for side, want in (("give", give), ("get", get)):
        steps += [Action(side, name=g, n=0) for g in pend[side] if g not in want]
    for side, want in (("give", give), ("get", get)):
        steps += [Action(side, name=g, n=n) for g, n in want.items() if pend[side].get(g, 0) != n]
    step = steps[0] if steps else Action("offer")
    return step if step in actions else Action("cancel")
