"""SevenWondersGame: the engine protocol for 7 Wonders (first edition) with Cities.

Why this class is thin: each rules topic lives in its own module (setup, moves, turns,
resources, military, science, scoring, cities, wonders); this class only maps the platform's
protocol onto them and adds the chat-facing parts (notation forms, status, help).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.api import Game, GameInfo, Outcome, Seat
from engine.core.errors import NotYourTurn
from engine.core.events import Event
from engine.core.text import count
from engine.seven_wonders import bot
from engine.seven_wonders.actions import VERBS, Action, alias_texts, notation_text, well_formed
from engine.seven_wonders.cities import timeout_debt
from engine.seven_wonders.data import CARDS
from engine.seven_wonders.military import strength
from engine.seven_wonders.moves import cheapest_trade, controlled, illegal_reason, legal, legal_for, open_cities
from engine.seven_wonders.scoring import outcome, score_city
from engine.seven_wonders.setup import OPTION_HELP, initial_state
from engine.seven_wonders.state import State, dump_state, load_state
from engine.seven_wonders.turns import apply_action, start_age
from engine.seven_wonders.view import awaiting, build_view, card_json, own_hand
from engine.seven_wonders.wonders import city_name, stages_of

SUMMARY = (
    "7 Wonders (first edition) with the Cities expansion: 2-8 players draft cards over three Ages, "
    "choosing simultaneously each turn, to build structures, wonder stages and armies."
)

HELP = """7 Wonders — every turn all players secretly choose one card of their hand, then all
choices are revealed and the hands pass (left in Ages I and III, right in Age II).
With a card you may:
  play <card>            build it (pay its cost, buy missing resources from neighbours)
  wonder <card>          tuck it to build your next wonder stage
  sell <card>            discard it for 3 coins (also: discard <card>)
When you buy resources, the payment is part of the move:
  play Caravansery pay left 2 right 1
If one payment is clearly cheapest, `play Caravansery` picks it. Chains build for free
(`play Temple` with an Altar). Olympia's free build: `play Palace olympia`.
Halikarnassos: `build <card>` from the discard pile, or `skip`.
Coin losses (Cities): `pay 2 debt 1` pays 2 coins and takes 1 debt token.
Two players: moves for the Free City start with `city`, e.g. `city play Baths`.
Options: cities (default true), side "A"/"B"/"random" (default A), teams (4, 6, 8 players).
Examples: `play baths`, `wonder loom`, `sell altar`, `play caravansery pay left 2 right 1`."""

GROUPS = {
    "play": "build a structure",
    "wonder": "build a wonder stage",
    "sell": "discard for coins",
    "discard": "discard for coins",
    "build": "build from the discard pile",
    "skip": "build from the discard pile",
    "pay": "coin loss",
    "city": "free city",
}


def hand_card_line(card: dict[str, Any], text: str) -> str:
    """One card of the private summary: what playing it would do now (``card``: an entry of
    a seat's hand as its view lists it), then the card's ``text``."""
    play = card["play"]
    if play["duplicate"]:
        how = "already built (same name)"
    elif play["free_by_chain"]:
        how = "free by chain"
    elif play["legal"] and play["cheapest_trade"] == 0:
        how = "buildable now"
    elif play["legal"] and play["cheapest_trade"] is None:
        how = "buildable only with Olympia's free build"
    elif play["legal"]:
        how = f"buildable, trade {count(play['cheapest_trade'], 'coin')}"
    else:
        how = "not buildable now"
    wonder = card["wonder"]
    stage = ""
    if wonder["legal"]:
        trade = f" (trade {wonder['cheapest_trade']})" if wonder["cheapest_trade"] else ""
        stage = f"; wonder stage {wonder['stage']}{trade}"
    return f"• {card['name']} ({card['color']}) — {how}{stage}. {text}".rstrip()


class SevenWondersGame(Game[State, Action]):
    """7 Wonders + Cities (first edition)."""

    id = "seven-wonders"
    aliases = ("7w", "7wonders")
    info = GameInfo(
        name="7 Wonders",
        min_players=2,
        max_players=8,
        summary=SUMMARY,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        options_help=OPTION_HELP,
    )
    verbs = VERBS

    # ----------------------------------------------------------------- rules
    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game with Age I dealt."""
        state = initial_state(seed, players, options)
        start_age(state, 1)
        return state

    def to_move(self, state: State) -> frozenset[Seat]:
        """Every seat with a decision outstanding (several during a simultaneous pick)."""
        return frozenset(s for s in range(state.players) if open_cities(state, s))

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every legal move of ``seat``."""
        return legal(state, seat)

    def is_legal(self, state: State, seat: Seat, action: Action) -> bool:
        """Checks only the moves with the same card (faster than listing all)."""
        return well_formed(action) and action in legal_for(state, seat, action)

    def illegal_reason(self, state: State, seat: Seat, action: Action) -> str:
        """Why the move is illegal (never mentions other players' cards)."""
        if not well_formed(action):
            return "That is not a 7 Wonders move. Type `moves` to see yours."
        return illegal_reason(state, seat, action)

    def _apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        return apply_action(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        """The result once Age III's conflicts are over."""
        if state.step != "over":
            return None
        return outcome(state)

    def clone(self, state: State) -> State:
        """Hand-written copy (much faster than deepcopy)."""
        return state.clone()

    def reveals_hidden(self, before: State, after: State, seat: Seat, action: Action) -> bool:
        """True when the move completed a simultaneous step, passed hands or showed a discarded
        card; a pick that leaves others still choosing changes nothing anyone saw."""
        return after.reveal != before.reveal

    # -------------------------------------------------------------- notation
    def notation(self, state: State, seat: Seat, action: Action) -> str:
        """Canonical text (``parse`` gives the action back)."""
        return notation_text(action, seat)

    def notation_forms(self, state: State, seat: Seat, action: Action) -> list[str]:
        """Canonical text, the payment-free short form for the cheapest payment, ``discard``."""
        short = bool(action.trade) and cheapest_trade(state, action)
        return [notation_text(action, seat), *alias_texts(action, seat, short)]

    def action_group(self, notation: str) -> str:
        """Heading for ``moves``."""
        return GROUPS.get(notation.split(" ", 1)[0].lower(), "other")

    def action_variant(self, state: State, seat: Seat, action: Action) -> bool:
        """A build paying the neighbours more than the cheapest way to buy the same resources:
        listed only on request (``moves all``); the cheapest payments come first per card."""
        return action.kind in ("play", "wonder") and bool(action.trade) and not cheapest_trade(state, action)

    def action_cost(self, state: State, seat: Seat, action: Action) -> str:
        """Coins a build spends in all (the card's coin cost plus what the neighbours are paid),
        e.g. ``3 coins``; ``""`` for free builds, sales and debt payments."""
        if action.kind not in ("play", "wonder") or action.via:
            return ""
        coins = action.trade
        if action.kind == "play" and action.card in CARDS:
            coins += CARDS[action.card].cost.coins
        return count(coins, "coin") if coins else ""

    def status_lines(self, state: State, seat: Seat | None) -> list[str]:
        """Every city's public standing: coins (and debt), wonder stages, shields and the
        victory points it would score now (everything built is public; hands are not)."""
        out = []
        for idx in range(state.n):
            city = state.cities[idx]
            score = score_city(state, idx)
            debt = f" and {count(city.debt, 'debt token')}" if city.debt else ""
            out.append(
                f"{city_name(state, idx)}: {count(city.coins, 'coin')}{debt}, "
                f"wonder {city.stages}/{len(stages_of(city))}, {count(strength(state, idx), 'shield')}, "
                f"{count(score['total'], 'victory point')} so far."
            )
        return out

    # ------------------------------------------------------------- players
    def on_timeout(self, state: State, seat: Seat) -> Action:
        """Pay/debt: pay as many coins as possible (D-27). A pick: discard the least useful
        card for coins. Halikarnassos: the bot's choice (the spec gives no rule)."""
        cities = open_cities(state, seat)
        if not cities:
            raise NotYourTurn("This seat has nothing to do right now.")
        if state.step == "debt":
            return timeout_debt(state, cities[0])
        if state.step in ("pick", "babylon"):
            return bot.least_useful_sell(state, seat)
        return bot.auto_action(state, seat, 0)

    def auto_action(self, state: State, seat: Seat, seed: int) -> Action:
        """The automatic player's move."""
        if not open_cities(state, seat):
            raise NotYourTurn("This seat has nothing to do right now.")
        return bot.auto_action(state, seat, seed)

    def seat_names(self, state: State) -> list[str]:
        """Seats are named after their wonder's city."""
        return [city_name(state, s) for s in range(state.players)]

    def players(self, state: State) -> int:
        """Number of seats."""
        return state.players

    # ----------------------------------------------------------------- views
    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """See :mod:`engine.seven_wonders.view` for the schema."""
        return build_view(state, seat)

    def status(self, state: State, seat: Seat | None = None) -> str:
        """Who we are waiting for (and what the viewer must do)."""
        out = self.outcome(state)
        if out is not None:
            return "The game is over. " + out.reason
        text = awaiting(state)
        if seat is None or not 0 <= seat < state.players:
            return text
        mine = open_cities(state, seat)
        if mine:
            if state.step == "debt":
                owed = state.owed[mine[0]]
                return text + f" You owe {count(owed, 'coin')}: `pay <coins> debt <tokens>`."
            if state.step == "hali":
                return text + " Your move: `build <card>` from the discard pile or `skip`."
            return text + " Your move: choose a card (`play`, `wonder` or `sell`)."
        if state.step in ("pick", "babylon") and any(c in state.pending for c in controlled(state, seat)):
            return text + " You have chosen; your pick stays hidden until everyone has chosen."
        return text

    def private_summary(self, state: State, seat: Seat) -> str:
        """The seat's hand with what each card could do now, for the private ``hand`` reply.

        Built from the parts of the seat's own view it shows (its hand, its city's public
        board, the card texts), so it can contain nothing the seat may not see; the rest of the
        view is not built (``own_hand``: a tenth of the cost)."""
        hand = own_hand(state, seat)
        city = state.cities[seat]
        head = f"{city_name(state, seat)} — {count(city.coins, 'coin')}, wonder stages {city.stages}/" \
            f"{len(stages_of(city))}. Age {state.age}, turn {state.turn}/{state.turns_per_age}."
        if not hand:
            return head + " Your hand is empty right now."
        lines = [head, "Your hand:"]
        lines += [hand_card_line(card, card_json(card["id"]).get("text", "")) for card in hand]
        return "\n".join(lines)

    def help_text(self) -> str:
        """Rules summary and notation with examples."""
        return HELP

    # ------------------------------------------------------------- storage
    def _dump_state(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def _load_state(self, data: Mapping[str, Any]) -> State:
        return load_state(data)
