"""Military conflicts at the end of each Age, with diplomacy and the team variant (A11, B5, B13).

Why the "participants in seating order" procedure: it covers every diplomacy case with one
rule (B5.5): absent cities drop out, their neighbours become adjacent for this conflict, two
remaining cities fight once, one or none fight nobody.
"""

from __future__ import annotations

from engine.core.events import Event, public
from engine.core.text import count
from engine.seven_wonders.data import CARDS, TABLES
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import built_stages, city_name


def strength(state: State, idx: int) -> int:
    """Shields of red cards, black cards and wonder stages (A11.1)."""
    city = state.cities[idx]
    return sum(CARDS[c].shields for c in city.built) + sum(st.shields for st in built_stages(city))


def _battle(state: State, a: int, b: int, win: int, copies: int, events: list[Event]) -> None:
    sa, sb = strength(state, a), strength(state, b)
    na, nb = city_name(state, a), city_name(state, b)
    if sa == sb:
        events.append(public(f"{na} and {nb} tie ({count(sa, 'shield')} each).", "battle", cities=[a, b]))
        return
    winner, loser = (a, b) if sa > sb else (b, a)
    state.cities[winner].tokens.extend([win] * copies)
    state.cities[loser].tokens.extend([TABLES.defeat_token] * copies)
    won = f"a +{win} victory token" if copies == 1 else f"{copies} +{win} victory tokens"
    lost = f"a {TABLES.defeat_token} defeat token" if copies == 1 else f"{copies} {TABLES.defeat_token} defeat tokens"
    events.append(
        public(
            f"{city_name(state, winner)} ({count(max(sa, sb), 'shield')}) beats {city_name(state, loser)} "
            f"({count(min(sa, sb), 'shield')}): {city_name(state, winner)} takes {won},"
            f" {city_name(state, loser)} {lost}.",
            "battle",
            winner=winner,
            loser=loser,
            tokens=copies,
        )
    )


def resolve_conflicts(state: State) -> list[Event]:
    """Resolve the current Age's conflicts in place and narrate them."""
    win = TABLES.victory_tokens[state.age - 1]
    events: list[Event] = [public(f"Age {'I' * state.age} conflicts.", "battle")]
    n = state.n
    # Every city holding a diplomacy token must use exactly one (B5.2, B5.3, D-36).
    using = [c for c in range(n) if state.cities[c].diplomacy > 0]
    for c in using:
        state.cities[c].diplomacy -= 1
        events.append(public(f"{city_name(state, c)} uses a diplomacy token.", "battle", city=c))
    if state.teams:
        # Decision (D-30, B13.6, B13.7): each player fights its opposing neighbour only;
        # tokens are doubled, and halved to one per side when either side used diplomacy.
        for a in range(n):
            b = state.left(a)
            if state.team(a) == state.team(b):
                continue
            copies = 1 if (a in using or b in using) else 2
            _battle(state, a, b, win, copies, events)
        return events
    present = [c for c in range(n) if c not in using]
    if len(present) >= 3:
        for i, a in enumerate(present):
            _battle(state, a, present[(i + 1) % len(present)], win, 1, events)
    elif len(present) == 2:
        _battle(state, present[0], present[1], win, 1, events)
    else:
        events.append(public("Nobody is left to fight: no conflict tokens this Age.", "battle"))
    return events
