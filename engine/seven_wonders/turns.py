"""The course of an Age: hidden picks, simultaneous resolution, the end-of-turn steps, passing.

Why a step machine: a turn is one simultaneous choice followed by steps that may each wait
for a single seat (Babylon B's last card, a Halikarnassos build, pay/debt prompts). The
order is fixed by the rules (A10.1, B3.3) and, on the last turn of an Age, by D-21:

1. every pick is validated against the start-of-turn state (legal moves are computed from it);
2. coin costs and neighbour payments are paid;
3. every chosen card is placed (structure, under the board, discard pile with +3 coins);
4. immediate effects: coin gains counted after all placements (D-13), diplomacy tokens;
5. last turn only: last cards are discarded, Babylon B plays its last card (mini-turn);
6. Halikarnassos free builds (the discard pile includes this turn's discards);
7. one coin-loss step for everything triggered in 3-6 (B4.4, D-34);
8. hands pass (left, right, left by Age), or the Age ends with its conflicts.
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event, private, public
from engine.core.text import count
from engine.seven_wonders.actions import Action, notation_text
from engine.seven_wonders.cards import count_scope, sell_coins
from engine.seven_wonders.cities import record_loss, settle, start_loss_step
from engine.seven_wonders.data import CARDS, Effect
from engine.seven_wonders.military import resolve_conflicts
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import (
    city_name,
    halikarnassos_choices,
    plays_last_card,
    stages_of,
)

FREE_CITY_HOLDER = (0, 1, 0)
"""Decision (A16.2 leaves it open): the seat that holds the Free City card at the start of
Ages I, II, III; alternating keeps the number of Free City turns even over the game."""

AGE_NAMES = ("I", "II", "III")


def direction(age: int) -> str:
    """Passing direction of an Age: left, right, left (A5.3, D-29)."""
    return "right" if age == 2 else "left"


def hand_text(cards: list[str]) -> str:
    """Names of a hand, sorted."""
    return ", ".join(sorted(CARDS[c].name for c in cards))


def start_age(state: State, age: int) -> list[Event]:
    """Deal the Age's deck (A4.2; two players: the rest is the Free City's pile, A16.2)."""
    state.age = age
    state.turn = 1
    deck = state.decks[age - 1]
    size = state.hand_size
    for s in range(state.players):
        state.hands[s] = deck[s * size : (s + 1) * size]
    state.decks[age - 1] = []
    if state.players == 2:
        state.fc_pile = deck[2 * size : 3 * size]
        state.fc_ctrl = FREE_CITY_HOLDER[age - 1]
    state.step = "pick"
    state.reveal += 1
    events = [
        public(
            f"Age {AGE_NAMES[age - 1]} begins: {size} cards each, hands pass to the {direction(age)}.",
            "age",
            age=age,
        )
    ]
    events.extend(_turn_start(state))
    return events


def _turn_start(state: State) -> list[Event]:
    events: list[Event] = []
    if state.players == 2:
        state.hands[state.fc_ctrl].append(state.fc_pile.pop())
        events.append(
            public(f"{city_name(state, state.fc_ctrl)} holds the Free City card this turn.", "turn", seat=state.fc_ctrl)
        )
    for s in range(state.players):
        events.append(private(s, f"Your hand: {hand_text(state.hands[s])}.", "hand", cards=sorted(state.hands[s])))
    return events


def submit_pick(state: State, seat: int, action: Action) -> list[Event]:
    """Store a hidden pick; only the chooser learns what it is (A5.1)."""
    state.pending[action.city] = action
    for_city = "" if action.city == seat else " for the Free City"
    return [
        private(seat, f"You chose: {notation_text(action, seat)}.", "pick", action=action.to_json()),
        public(f"{city_name(state, seat)} has chosen{for_city}.", "chosen", seat=seat, city=action.city),
    ]


def _apply_effects(state: State, idx: int, effects: tuple[Effect, ...] | list[Effect], events: list[Event]) -> None:
    """Immediate effects of a card or stage put into play by ``idx`` (A10.1 step 4, B3.3)."""
    city = state.cities[idx]
    name = city_name(state, idx)
    for e in effects:
        kind = e.type
        if kind == "coins":
            city.coins += e.n
            events.append(public(f"{name} takes {e.n} coins.", "coins", city=idx, coins=e.n))
        elif kind == "coins_neighbours":
            for nb in (state.left(idx), state.right(idx)):
                state.cities[nb].coins += e.n
                text = f"{city_name(state, nb)} takes {count(e.n, 'coin')}."
                events.append(public(text, "coins", city=nb, coins=e.n))
        elif kind == "coins_per":
            gain = e.n * count_scope(state, idx, e.count, e.scope)
            city.coins += gain
            events.append(public(f"{name} takes {gain} coins.", "coins", city=idx, coins=gain))
        elif kind == "diplomacy":
            city.diplomacy += 1
            events.append(
                public(f"{name} takes a diplomacy token and will sit out the next conflicts.", "diplomacy", city=idx)
            )
        elif kind in ("coin_loss", "coin_loss_per"):
            record_loss(state, idx, e)
        elif kind == "discard_build":
            state.hali.append(idx)


def resolve_picks(state: State, picks: dict[int, Action]) -> list[Event]:
    """Resolve a set of picks at once: pay, place, then immediate effects (D-13)."""
    events: list[Event] = []
    order = sorted(picks)
    # Step 2: coin costs and neighbour payments.
    for idx in order:
        a = picks[idx]
        city = state.cities[idx]
        if a.kind == "play" and a.via == "":
            city.coins -= CARDS[a.card].cost.coins
        elif a.kind == "wonder":
            stage = stages_of(city)[city.stages]
            city.coins -= stage.cost.coins
        if a.trade:
            city.coins -= a.trade
            state.cities[state.left(idx)].coins += a.pay_left
            state.cities[state.right(idx)].coins += a.pay_right
    # Step 3: place the cards.
    placed: list[tuple[int, tuple[Effect, ...]]] = []
    for idx in order:
        a = picks[idx]
        city = state.cities[idx]
        state.hand_of(idx).remove(a.card)
        name = city_name(state, idx)
        trade = ""
        if a.trade:
            parts = []
            if a.pay_left:
                parts.append(f"{a.pay_left} to {city_name(state, state.left(idx))}")
            if a.pay_right:
                parts.append(f"{a.pay_right} to {city_name(state, state.right(idx))}")
            trade = " (paying " + " and ".join(parts) + ")"
        entry: dict[str, Any] = {"city": idx, "action": a.kind, "pay_left": a.pay_left, "pay_right": a.pay_right}
        if a.kind == "play":
            city.built.append(a.card)
            if a.via == "olympia":
                city.olympia_age = state.age
            how = {"chain": " for free through its chain", "olympia": " for free with Olympia's power"}.get(a.via, "")
            events.append(
                public(f"{name} builds {CARDS[a.card].name}{how}{trade}.", "build", city=idx, card=a.card, via=a.via)
            )
            entry["card"] = a.card
            entry["via"] = a.via
            placed.append((idx, CARDS[a.card].effects))
        elif a.kind == "wonder":
            stage = stages_of(city)[city.stages]
            city.tucked.append(a.card)
            city.stages += 1
            events.append(public(f"{name} builds stage {city.stages} of its wonder{trade}.", "stage", city=idx))
            events.append(private(state.controller(idx), f"{CARDS[a.card].name} is tucked under the wonder of {name}."))
            entry["stage"] = city.stages
            placed.append((idx, stage.effects))
        else:
            state.discard.append(a.card)
            city.coins += sell_coins()
            events.append(public(f"{name} discards a card for {sell_coins()} coins.", "sell", city=idx))
            events.append(private(state.controller(idx), f"{CARDS[a.card].name} was discarded for {name}."))
        state.recent.append(entry)
    # Step 4: immediate effects. Decision D-13: count-based coin gains count after every card
    # of this resolution is placed (a neighbour's brown card built this turn counts).
    # Decision (A16.4 says the Free City's card is revealed first): it resolves in this same
    # simultaneous step; validation against the start of the turn makes the order irrelevant
    # and D-13 counting treats every city alike.
    for idx, effects in placed:
        _apply_effects(state, idx, effects, events)
    state.reveal += 1
    return events


def build_from_discard(state: State, action: Action) -> list[Event]:
    """Halikarnassos: build a discarded card for free (A12.6), or renounce."""
    idx = action.city
    state.hali.pop(0)
    name = city_name(state, idx)
    if action.kind == "skip":
        return [public(f"{name} builds nothing from the discard pile.", "hali", city=idx)]
    state.discard.remove(action.card)
    state.cities[idx].built.append(action.card)
    state.reveal += 1
    events = [
        public(f"{name} builds {CARDS[action.card].name} from the discard pile.", "hali", city=idx, card=action.card)
    ]
    state.recent.append({"city": idx, "action": "build", "card": action.card, "pay_left": 0, "pay_right": 0})
    _apply_effects(state, idx, CARDS[action.card].effects, events)
    return events


def _discard_last_cards(state: State) -> list[Event]:
    """Last turn of an Age: last cards go to the discard pile for nothing, except Babylon B's
    (D-21 step 2; A16.6 and D-37 for the Free City's pile)."""
    state.babylon = []
    # Decision (A12.4, D-32): Babylon B's stage 2 counts if it stands now, i.e. also when it
    # was built with the other card of this very last turn.
    for s in range(state.players):
        if plays_last_card(state.cities[s]):
            state.babylon.append(s)
        else:
            state.discard.extend(state.hands[s])
            state.hands[s].clear()
    if state.players == 2:
        if plays_last_card(state.cities[state.free_city]):
            state.babylon.append(state.free_city)
        else:
            state.discard.extend(state.fc_pile)
            state.fc_pile.clear()
    events = [public("The last cards of the Age are discarded.", "discard")]
    for idx in state.babylon:
        events.append(public(f"{city_name(state, idx)} plays its last card (Babylon).", "babylon", city=idx))
    return events


def _pass_hands(state: State) -> list[Event]:
    n = state.players
    if n == 2:
        state.hands = [state.hands[1], state.hands[0]]
        state.fc_ctrl = 1 - state.fc_ctrl
    elif direction(state.age) == "left":
        state.hands = [state.hands[(s - 1) % n] for s in range(n)]
    else:
        state.hands = [state.hands[(s + 1) % n] for s in range(n)]
    state.turn += 1
    state.step = "pick"
    state.reveal += 1
    return _turn_start(state)


def advance(state: State) -> list[Event]:
    """Run the turn's automatic steps until a decision is needed or the game ends."""
    events: list[Event] = []
    while True:
        step = state.step
        if step == "pick":
            if len(state.pending) < state.n:
                return events
            picks = state.pending
            state.pending = {}
            state.recent = []
            events.extend(resolve_picks(state, picks))
            state.step = "last" if state.turn == state.turns_per_age else "hali"
        elif step == "last":
            events.extend(_discard_last_cards(state))
            state.step = "babylon"
        elif step == "babylon":
            if any(c not in state.pending for c in state.babylon):
                return events
            picks = {c: state.pending[c] for c in state.babylon}
            state.pending = {}
            state.babylon = []
            if picks:
                events.extend(resolve_picks(state, picks))
            state.step = "hali"
        elif step == "hali":
            while state.hali and not halikarnassos_choices(state, state.hali[0]):
                idx = state.hali.pop(0)
                events.append(public(f"{city_name(state, idx)} finds nothing to build in the discard pile.", "hali"))
            if state.hali:
                return events
            state.step = "losses"
        elif step == "losses":
            events.extend(start_loss_step(state))
            state.step = "debt"
        elif step == "debt":
            if state.owed:
                return events
            state.step = "end"
        elif step == "end":
            if state.turn < state.turns_per_age:
                events.extend(_pass_hands(state))
                return events
            events.extend(resolve_conflicts(state))
            if state.age == 3:
                state.step = "over"
                events.append(public("The game is over.", "end"))
                return events
            events.extend(start_age(state, state.age + 1))
            return events
        else:
            return events


def apply_action(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out a validated action and run the automatic steps that follow."""
    if action.kind in ("play", "wonder", "sell"):
        events = submit_pick(state, seat, action)
    elif action.kind in ("build", "skip"):
        events = build_from_discard(state, action)
    else:
        events = settle(state, action)
    events.extend(advance(state))
    return events
