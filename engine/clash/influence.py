"""Cultural Influence (rules section 8.6) with Arts, Conversion, the boost bans of Separation of
Power, Totalitarianism and Devotion, the Colossus and the Pyramids' one-time attempts.

Why the piece is named in the action (``influence athens sparta temple``): the rules let the
influencer choose which piece turns on success, and a piece type with none left in his supply
cannot be chosen (D-33); naming it up front makes an attempt that could never change anything
illegal before the die is rolled, and leaves only one choice after the roll: whether to spend
culture tokens on the result.

Why the range boost is part of the action and not asked for: the tokens spent on range are exactly
the missing distance (spending more changes nothing), so each (source, target, piece) has one
range cost, shown with the move.
"""

from __future__ import annotations

from typing import Any

from engine.clash.actions import Action
from engine.clash.board import distances_from
from engine.clash.cities import pieces_of
from engine.clash.data import LIMITS, RULES, TABLES
from engine.clash.resources import gain_culture
from engine.clash.state import BARBARIAN, City, State
from engine.core.events import Event, public
from engine.core.text import count

RULE = RULES["influence"]
POWERS = RULES["wonder_powers"]
USED = "influenced"
"""Marker in ``Player.used``: this turn's one successful influence happened (D-05)."""


def colour(seat: int) -> str:
    """Seat display name."""
    return TABLES.colours[seat]


def wonder_city(state: State, wonder: str) -> City | None:
    """The city holding ``wonder`` (its owner has the wonder's powers), if built and standing."""
    for c in state.cities:
        if c.wonder == wonder:
            return c
    return None


def can_source(state: State, seat: int, city: City) -> bool:
    """A source city belongs to ``seat`` and holds no piece of another colour (rules 8.6 step 1)."""
    return city.owner == seat and all(col == seat for col in city.pieces.values())


def influence_range(state: State, city: City) -> int:
    """The real size (mood never changes it), +1 for the Colossus city."""
    return city.size + (int(POWERS["colossus_range"]) if city.wonder == "colossus" else 0)


def colossus_protects(state: State, seat: int, target: City) -> bool:
    """The Colossus city and its owner's cities within 2 spaces cannot be targeted by other players
    (D-12)."""
    col = wonder_city(state, "colossus")
    if col is None or col.owner == seat or target.owner != col.owner:
        return False
    if target.id == col.id:
        return True
    reach = distances_from(state, col.space, int(POWERS["colossus_protection"]))
    return target.space in reach


def colossus_shield(state: State, seat: int) -> set[int]:
    """Ids of the cities the Colossus keeps from ``seat``'s influence (all at once, for listings)."""
    col = wonder_city(state, "colossus")
    if col is None or col.owner == seat:
        return set()
    reach = distances_from(state, col.space, int(POWERS["colossus_protection"]))
    return {c.id for c in state.cities if c.owner == col.owner and c.space in reach}


def boost_banned(state: State, seat: int, target: City) -> bool:
    """Opponents may not boost range or roll against: happy cities of a Separation of Power owner,
    cities with army units of a Totalitarianism owner, cities with a Temple of a Devotion owner.

    Decision: Devotion looks at any Temple piece in the city, whatever its colour (the city
    "contains a Temple"); the army units are the owner's units standing in the city."""
    owner = target.owner
    if owner == seat or owner < 0:
        return False
    adv = state.pl[owner].advances
    if "separation_of_power" in adv and target.mood == "happy":
        return True
    if "totalitarianism" in adv and any(
        u.space == target.space and u.owner == owner and u.kind == "army" and u.carrier < 0 for u in state.units
    ):
        return True
    return "devotion" in adv and "temple" in target.pieces


def success_at(state: State, seat: int) -> int:
    """The die result needed: 5, or 4 with Conversion."""
    if "conversion" in state.pl[seat].advances:
        return int(RULE["success_with_conversion"])
    return int(RULE["success"])


def targets(state: State, seat: int, target: City) -> list[str]:
    """Pieces of ``target`` that ``seat`` may turn to his colour (not his own colour, never the
    Settlement, and only types he still has in supply, D-33)."""
    return [
        b
        for b in ("temple", "fortress", "academy", "port")
        if b in target.pieces and target.pieces[b] != seat and pieces_of(state, seat, b) < LIMITS[b]
    ]


def influence_options(
    state: State, seat: int, flags: tuple[str, ...] = (), sources: list[City] | None = None
) -> list[Action]:
    """Every attempt ``seat`` may start now (the action budget is checked by the caller).

    ``flags``: ``("arts",)`` pays 1 culture token instead of the action, ``("pyramids",)`` is
    one of the Pyramids' free attempts."""
    p = state.pl[seat]
    if USED in p.used:
        return []
    tokens = p.culture_tokens - (int(RULE["arts_tokens"]) if "arts" in flags else 0)
    if tokens < 0:
        return []
    mine = [c for c in (sources if sources is not None else state.cities_of(seat)) if can_source(state, seat, c)]
    if not mine:
        return []
    # Per listing, not per (source, target): what each target offers and whether it may be boosted.
    left = {b: LIMITS[b] - pieces_of(state, seat, b) for b in ("temple", "fortress", "academy", "port")}
    cands: list[tuple[City, list[str], bool]] = []
    shield = colossus_shield(state, seat)
    for c in state.cities:
        if c.owner == BARBARIAN or c.size < int(RULE["min_target_size"]) or c.id in shield:
            continue
        pieces = [b for b in ("temple", "fortress", "academy", "port") if c.pieces.get(b, seat) != seat and left[b] > 0]
        if pieces:
            cands.append((c, pieces, boost_banned(state, seat, c)))
    found: list[Action] = []
    if not cands:
        return found
    for src in mine:
        reach = influence_range(state, src)
        dist = distances_from(state, src.space, reach + max(0, tokens))
        for t, pieces, banned in cands:
            if t.id == src.id or t.space not in dist:
                continue
            need = max(0, dist[t.space] - reach)
            if need and (need > tokens or banned):
                continue
            for b in pieces:
                found.append(Action("influence", space=src.space, to=t.space, name=b, n=need, flags=flags))
    return found


def turn_options(state: State, seat: int) -> list[Action]:
    """Attempts as an action, and with Arts once per turn for a culture token instead (the same
    attempts, while a token is left after the range tokens)."""
    p = state.pl[seat]
    arts = "arts" in p.advances and "arts" not in p.used and p.culture_tokens >= int(RULE["arts_tokens"])
    if state.actions_left < 1 and not arts:
        return []
    base = influence_options(state, seat)
    out = list(base) if state.actions_left >= 1 else []
    if arts:
        spare = p.culture_tokens - int(RULE["arts_tokens"])
        for a in base:
            if a.n <= spare:
                out.append(Action("influence", space=a.space, to=a.to, name=a.name, n=a.n, flags=("arts",)))
    return out


def roll_die(state: State) -> int:
    """One die from the state's RNG."""
    return state.rng.randint(1, int(RULE["die_sides"]))


def attempt(state: State, seat: int, a: Action, then: dict[str, Any] | None = None) -> list[Event]:
    """Pay, roll and resolve (or ask whether to buy the missing points with culture tokens).

    ``then``: a pending choice to reopen afterwards (the second Pyramids attempt)."""
    p = state.pl[seat]
    src = state.city_at(a.space)
    tgt = state.city_at(a.to)
    if src is None or tgt is None:
        raise AssertionError("influence without cities")
    if "arts" in a.flags:
        p.used.append("arts")
        p.culture_tokens -= int(RULE["arts_tokens"])
    elif "pyramids" not in a.flags:
        state.actions_left -= 1
    p.culture_tokens -= a.n
    roll = roll_die(state)
    need = success_at(state, seat)
    how = " with Art & Sculptures" if "arts" in a.flags else " (Pyramids)" if "pyramids" in a.flags else ""
    boost = f", {count(a.n, 'culture token')} for range" if a.n else ""
    head = (
        f"{colour(seat)} attempts cultural influence{how} from {src.name} on {tgt.name}'s {a.name}{boost}: rolls {roll}"
    )
    state.changed.extend([src.space, tgt.space])
    if roll >= need:
        return [public(head + ".", "influence"), *succeed(state, seat, tgt, a.name)]
    short = need - roll
    if not boost_banned(state, seat, tgt) and p.culture_tokens >= short:
        state.pending = {
            "kind": "boost",
            "seat": seat,
            "target": tgt.space,
            "piece": a.name,
            "short": short,
            "then": then or {},
        }
        return [public(f"{head}; {count(short, 'culture token')} would make it a success.", "influence")]
    return [public(head + ": no success.", "influence"), *_resume(state, then)]


def succeed(state: State, seat: int, target: City, piece: str) -> list[Event]:
    """The piece turns to ``seat``'s colour (its VP with it); Conversion's token."""
    p = state.pl[seat]
    before = target.pieces[piece]
    target.pieces[piece] = seat
    p.used.append(USED)
    tail = ""
    if "conversion" in p.advances:
        got = gain_culture(p, int(RULE["conversion_tokens"]))
        tail = f"; Conversion gives {count(got, 'culture token')}"
    whose = "its own" if before == target.owner else f"{colour(before)}'s"
    return [
        public(
            f"{colour(seat)} influences {target.name}: {whose} {piece} becomes {colour(seat)}{tail}.",
            "influence",
        )
    ]


def boost_options(state: State) -> list[Action]:
    """After a roll that fell short: buy the missing points, or accept the failure."""
    return [Action("boost", n=int(state.pending["short"])), Action("noboost")]


def answer_boost(state: State, seat: int, a: Action) -> list[Event]:
    """Carry out the choice after the roll."""
    pend = state.pending
    state.pending = {}
    then = dict(pend.get("then") or {})
    target = state.city_at(str(pend["target"]))
    if target is None:
        raise AssertionError("boost without a target")
    if a.kind == "boost":
        state.pl[seat].culture_tokens -= a.n
        events = [public(f"{colour(seat)} spends {count(a.n, 'culture token')} on the roll.", "influence")]
        events.extend(succeed(state, seat, target, str(pend["piece"])))
        return events
    return [public(f"{colour(seat)} keeps the tokens: no success.", "influence"), *_resume(state, then)]


# ------------------------------------------------------------------ Pyramids
def open_pyramids(state: State, seat: int, city: City, left: int) -> list[Event]:
    """Offer the Pyramids' free attempts from ``city`` (D-11); nothing when none is possible."""
    if left <= 0 or not pyramid_attempts(state, seat, city):
        return []
    state.pending = {"kind": "pyramids", "seat": seat, "source": city.space, "left": left}
    return [public(f"{colour(seat)} may make {count(left, 'free influence attempt')} from {city.name}.", "wonder")]


def pyramid_attempts(state: State, seat: int, city: City) -> list[Action]:
    """Attempts from the Pyramids city that cost no action."""
    return influence_options(state, seat, ("pyramids",), [city])


def pyramids_options(state: State) -> list[Action]:
    """The open Pyramids choice: an attempt, or let the remaining attempts lapse."""
    city = state.city_at(str(state.pending["source"]))
    seat = int(state.pending["seat"])
    if city is None:
        return [Action("noinfluence")]
    return [*pyramid_attempts(state, seat, city), Action("noinfluence")]


def answer_pyramids(state: State, seat: int, a: Action) -> list[Event]:
    """One free attempt (the next one reopens after a failure) or stop."""
    pend = state.pending
    state.pending = {}
    if a.kind == "noinfluence":
        return [public(f"{colour(seat)} makes no further influence attempt.", "influence")]
    left = int(pend["left"]) - 1
    then = {"kind": "pyramids", "seat": seat, "source": pend["source"], "left": left} if left > 0 else {}
    return attempt(state, seat, a, then)


def _resume(state: State, then: dict[str, Any] | None) -> list[Event]:
    """After a failed attempt, the second Pyramids attempt (when one is left and possible)."""
    if not then or then.get("kind") != "pyramids":
        return []
    city = state.city_at(str(then["source"]))
    if city is None:
        return []
    return open_pyramids(state, int(then["seat"]), city, int(then["left"]))


# ------------------------------------------------------------------ refusals
def _city_named(state: State, word: str) -> City | None:
    for c in state.cities:
        if word in (c.name.lower().replace(" ", "-"), c.space):
            return c
    return None


def refusal(state: State, seat: int, words: list[str]) -> str:
    """Why a typed ``influence <source> <target> <piece>`` is refused ("" when the words do not
    say enough)."""
    p = state.pl[seat]
    if USED in p.used:
        return "Cultural influence can succeed only once per turn, and you already succeeded this turn."
    if state.actions_left < 1 and "arts" not in words:
        return "You have no action left this turn; type `end` to end your turn."
    if len(words) < 3:
        return ""
    src = _city_named(state, words[1])
    tgt = _city_named(state, words[2])
    if src is None or src.owner != seat:
        return f"You have no city called `{words[1]}`."
    if not can_source(state, seat, src):
        return f"{src.name} holds a piece of another colour, so it cannot spread your culture."
    if tgt is None:
        return f"There is no city called `{words[2]}`."
    if tgt.owner == BARBARIAN:
        return "Barbarian settlements cannot be influenced."
    if tgt.size < int(RULE["min_target_size"]):
        return f"{tgt.name} has size 1; only cities of size 2 or more can be influenced."
    if colossus_protects(state, seat, tgt):
        return f"The Colossus of Rhodes protects {tgt.name} from foreign influence."
    piece = words[3] if len(words) >= 4 else ""
    if piece:
        if piece not in tgt.pieces or tgt.pieces[piece] == seat:
            return f"{tgt.name} has no {piece} of another colour."
        if pieces_of(state, seat, piece) >= LIMITS[piece]:
            return f"All your {LIMITS[piece]} {piece}s are on the board."
    reach = influence_range(state, src)
    dist = distances_from(state, src.space).get(tgt.space, 999)
    if dist > reach:
        if boost_banned(state, seat, tgt):
            return f"{tgt.name} is {dist} spaces from {src.name} (range {reach}) and may not be reached with tokens."
        return (
            f"{tgt.name} is {dist} spaces from {src.name}: its range is {reach}, and you have "
            f"{count(p.culture_tokens, 'culture token')}."
        )
    return ""
