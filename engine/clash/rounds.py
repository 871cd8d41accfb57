"""The round around the actions: the start and end of a turn, the status phase, the next
round and the end of the game (rules sections 6, 16, 17 and 19.3-19.4).

Why apart from :mod:`engine.clash.turns`: these steps run between actions, never as one, and
each runs once per turn or round; the dispatcher of the actions themselves stays short.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.clash.actions import Action
from engine.clash.advances import eligible, payment, switch_options
from engine.clash.combat import prune_battles
from engine.clash.data import RULES, TABLES
from engine.clash.resources import gain
from engine.clash.state import City, State
from engine.clash.trade_routes import route_count
from engine.core.events import Event, public
from engine.core.text import count, join_words


def colour(seat: int) -> str:
    """Seat display name."""
    return TABLES.colours[seat]


def last_round(state: State) -> int:
    """6 normally, 4 in the four-round game, 7 with the variable end."""
    if state.options.get("four_rounds"):
        return 4
    if state.options.get("variable_end") or state.options.get("wonderful_end"):
        return 7
    return int(RULES["rounds"])


def city_at(state: State, space: str) -> City:
    """The city on ``space`` (it must exist: the action was legal)."""
    city = state.city_at(space)
    if city is None:
        raise AssertionError(f"no city on {space}")
    return city


# ------------------------------------------------------------------ turn start / end
def start_turn(state: State) -> list[Event]:
    """Reset per-turn things, the variable-end roll, then Trade Routes income (rules 6.2)."""
    seat = state.active
    p = state.pl[seat]
    state.actions_left = int(RULES["actions_per_turn"])
    state.mode = ""
    state.mode_left = 0
    state.prev_changed = sorted(set(state.changed))
    state.changed = []
    p.used = []
    p.collects = 0
    p.forced_labor = False
    p.free_economy = "free_economy" in p.advances
    events: list[Event] = []
    if state.options.get("variable_end") and seat == state.first:
        for rnd, trn, top in TABLES.rules["variable_end"]["ranges"]:
            if rnd == state.round and trn == state.turn:
                roll = state.rng.randint(1, 6)
                if roll <= top:
                    end_game(state, f"the end die showed {roll} in round {rnd}, turn {trn}")
                    return [public(f"{colour(seat)} rolls {roll} for the end of the game: the game ends now.", "end")]
                events.append(public(f"{colour(seat)} rolls {roll} for the end of the game: play goes on.", "roll"))
    if "trade_routes" in p.advances:
        n = route_count(state, seat)
        if n and "currency" in p.advances:
            state.pending = {"kind": "income", "seat": seat, "n": n}
        elif n:
            kept = gain(p, "food", n)
            events.append(public(f"{colour(seat)} gains {kept} food from {count(n, 'trade route')}.", "income"))
    return events


def end_turn(state: State) -> list[Event]:
    """Clear the turn's flags and pass to the next seat (or to the status phase)."""
    seat = state.active
    clear_turn_flags(state, seat)
    prune_battles(state)
    state.mode = ""
    state.mode_left = 0
    events = [public(f"{colour(seat)} ends the turn.", "turn")]
    nxt = state.left_of(seat)
    state.active = nxt
    if nxt == state.first:
        state.turn += 1
        if state.turn > int(RULES["turns_per_round"]):
            events.extend(start_status(state))
            return events
    events.extend(start_turn(state))
    if state.phase == "turn":
        events.append(public(f"Round {state.round}, turn {state.turn}: {colour(state.active)} to play.", "turn"))
    return events


def clear_turn_flags(state: State, seat: int) -> None:
    """End of turn: city activations and unit movement restrictions reset (rules 6.2 step 3)."""
    for c in state.cities_of(seat):
        c.activations = 0
    for u in state.units:
        if u.owner == seat:
            u.moved = -1
            u.embarked = -1
            u.stopped = False
            u.forest = False
            u.fought = False


# ------------------------------------------------------------------ status phase
def start_status(state: State) -> list[Event]:
    """Status phase step 1 (objectives declared), then the end check (rules 16-17)."""
    state.phase = "status"
    if state.wonder_end:
        # A Wonderful End (19.5, D-23, D-42): scoring replaces this round's status phase.
        end_game(state, f"a wonder was built in the last turns of round {state.round}")
        return [
            public(f"Round {state.round} ends and the game is scored: a wonder was built in the last turns.", "end")
        ]
    state.status_step = 1
    events = [public(f"Round {state.round} ends: status phase.", "status")]
    events.extend(run_status(state))
    return events


def status_end_check(state: State) -> list[Event]:
    """After status step 1: the end of the game, or step 2 begins (rules 16-17)."""
    events: list[Event] = []
    no_city = [s for s in range(state.players) if not state.cities_of(s)]
    if state.round >= last_round(state) or no_city:
        why = (
            f"{join_words(colour(s) for s in no_city)} {'has' if len(no_city) == 1 else 'have'} no city left"
            if no_city
            else f"round {state.round} was the last"
        )
        end_game(state, why)
        events.append(public(f"The game ends: {why}.", "end"))
        return events
    state.status_step = 2
    order = seat_order(state)
    passes = 2 if state.options.get("four_rounds") else 1
    state.status_queue = order * passes
    return events


def seat_order(state: State) -> list[int]:
    """Seats clockwise from the first player."""
    return state.clockwise_from(state.first)


def free_advance_options(state: State, seat: int) -> list[Action]:
    """Advances ``seat`` may take free in status step 2 (Steel Weapons' Ore still due)."""
    p = state.pl[seat]
    out = []
    for adv in TABLES.advance_order:
        if eligible(p, adv) and payment(state, p, adv, True) is not None:
            for keep in switch_options(p, adv):
                out.append(Action("advance", name=adv, items=keep))
    return out


def raze_options(state: State, seat: int) -> list[City]:
    """Own size-1 cities that may be razed (never the only city, D-43)."""
    mine = state.cities_of(seat)
    if len(mine) < 2:
        return []
    return [c for c in mine if c.size == 1]


def run_status(state: State) -> list[Event]:
    """Advance the status phase until a seat must choose or the next round begins."""
    events: list[Event] = []
    while not state.pending and state.phase == "status":
        if state.status_step == 1:
            from engine.clash.cards import status_claims

            events.extend(status_claims(state, seat_order(state)))
            if state.pending:
                return events
            events.extend(status_end_check(state))
        elif state.status_step == 2:
            if _ask_next(state, free_advance_options, "free"):
                return events
            state.status_step = 3
        elif state.status_step == 3:
            for seat in seat_order(state):
                # One Action card and one Objective card each: recorded here, dealt and
                # privately announced after the action that ran this step (cards.draw_logged).
                state.card_log.append([seat, "status-draw"])
            state.status_step = 4
            state.status_queue = seat_order(state)
        elif state.status_step == 4:
            if _ask_next(state, raze_options, "raze"):
                return events
            state.status_step = 5
        elif state.status_step == 5:
            chooser = first_player_chooser(state)
            if chooser >= 0:
                state.pending = {"kind": "first", "seat": chooser}
                return events
            events.extend(next_round(state))
    return events


def first_player_chooser(state: State) -> int:
    """Rules 16 step 5 and D-06: -1 when the first player stays, else the seat who chooses."""
    total = [p.culture_level + p.happiness_level for p in state.pl]
    best = max(total)
    if total[state.first] >= best:
        return -1
    for s in state.clockwise_from(state.left_of(state.first)):
        if total[s] == best:
            return s
    return -1


def next_round(state: State) -> list[Event]:
    """Move the round marker and start the first player's turn."""
    state.round += 1
    state.turn = 1
    state.phase = "turn"
    state.status_step = 0
    state.active = state.first
    events = [public(f"Round {state.round} begins; {colour(state.first)} is the first player.", "round")]
    events.extend(start_turn(state))
    return events


def end_game(state: State, why: str) -> None:
    """Stop the game; the outcome is scored from the final state."""
    state.phase = "over"
    state.pending = {}
    state.end_reason = why


def _ask_next(state: State, options: Callable[[State, int], Sequence[object]], kind: str) -> bool:
    """Take seats from the status queue, in order, until one has a choice of ``kind`` to make
    (True: it is now pending); a seat without one is passed over. Why a queue: each seat
    chooses in turn order, and a choice interrupts the status phase until it is made."""
    while state.status_queue:
        seat = state.status_queue.pop(0)
        if options(state, seat):
            state.pending = {"kind": kind, "seat": seat}
            return True
    return False
