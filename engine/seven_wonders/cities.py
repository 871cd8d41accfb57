"""Cities expansion: coin losses and debt, diplomacy tokens, the black cards' special rules.

Why losses are recorded and resolved later: every coin-loss effect of a turn resolves at the
end of the turn, after all income (B3.3 step 6, B4.4, D-21), and variable losses are counted
then (Builders' Union, D-33). Each victim then decides once how much to pay and how much debt
to take (D-34), so the engine keeps a list of triggered losses and turns them into one amount
owed per city at the coin-loss step.
"""

from __future__ import annotations

from engine.core.events import Event, public
from engine.core.text import count
from engine.seven_wonders.actions import Action
from engine.seven_wonders.cards import victory_count
from engine.seven_wonders.data import CARDS, Effect
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import city_name

HIDEOUT_COIN_LOSS = next(e.n for e in CARDS["hideout"].effects if e.type == "coin_loss")
"""Decision D-02: Hideout makes opponents lose 1 coin (rulebook) although the printed card
shows 2. The value lives in the data file (card ``hideout``) so switching it needs no code."""

TIMEOUT_PAYS_MAX = True
"""Decision D-27: an unanswered pay/debt prompt pays as many coins as possible."""


def record_loss(state: State, owner: int, effect: Effect) -> None:
    """Remember a coin-loss effect put into play by ``owner`` this turn (B4.1)."""
    if effect.type == "coin_loss":
        state.losses.append((owner, "fixed", effect.n))
    elif effect.type == "coin_loss_per":
        state.losses.append((owner, effect.count[0], effect.n))


def owed_amounts(state: State) -> list[int]:
    """Coins each city owes for this turn's losses. The owner is exempt; every other city,
    teammate and Free City included, pays (B4.2, B11.1, B13.5)."""
    owed = [0] * state.n
    for owner, what, n in state.losses:
        for v in range(state.n):
            if v == owner:
                continue
            city = state.cities[v]
            if what == "fixed":
                owed[v] += n
            elif what == "victory_tokens":
                owed[v] += n * victory_count(city)
            elif what == "stages":
                # Decision D-33: Builders' Union counts the stages built when the loss
                # resolves, so a stage the victim built this same turn counts.
                owed[v] += n * city.stages
    return owed


def start_loss_step(state: State) -> list[Event]:
    """Turn this turn's losses into pay/debt prompts; cities without coins take debt at once."""
    events: list[Event] = []
    if not state.losses:
        return events
    owed = owed_amounts(state)
    state.losses = []
    parts = [f"{city_name(state, c)} {owed[c]}" for c in range(state.n) if owed[c]]
    if parts:
        events.append(public("Coin losses this turn: " + ", ".join(parts) + ".", "loss"))
    for c in range(state.n):
        amount = owed[c]
        if not amount:
            continue
        city = state.cities[c]
        if city.coins == 0:
            city.debt += amount
            events.append(public(f"{city_name(state, c)} has no coins and takes {amount} debt.", "debt", city=c))
        else:
            state.owed[c] = amount
    return events


def debt_actions(state: State, idx: int) -> list[Action]:
    """Pay/debt options of a city owing coins: pay x coins (0..min(owed, coins)), rest debt
    (B4.3); most coins first."""
    owed = state.owed.get(idx, 0)
    if not owed:
        return []
    top = min(owed, state.cities[idx].coins)
    return [Action("pay", idx, coins=x, debt=owed - x) for x in range(top, -1, -1)]


def settle(state: State, action: Action) -> list[Event]:
    """Apply a pay/debt decision.

    Decision: pay/debt answers are public and take effect at once (they are not hidden until
    all victims have answered): the amounts owed are public and the choice cannot change
    what the other victims owe.
    """
    city = state.cities[action.city]
    city.coins -= action.coins
    city.debt += action.debt
    del state.owed[action.city]
    return [
        public(
            f"{city_name(state, action.city)} pays {count(action.coins, 'coin')} and takes "
            f"{count(action.debt, 'debt token')}.",
            "debt",
            city=action.city,
            coins=action.coins,
            debt=action.debt,
        )
    ]


def timeout_debt(state: State, idx: int) -> Action:
    """The default answer to a pay/debt prompt (D-27)."""
    options = debt_actions(state, idx)
    return options[0] if TIMEOUT_PAYS_MAX else options[-1]
