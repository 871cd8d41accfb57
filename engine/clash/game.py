"""ClashGame: the engine protocol for Clash of Cultures (2012 base game).

Why this class is thin: each rules topic lives in its own module (setup, board, cities,
advances, movement, turns, scoring); this class maps the platform's protocol onto them and adds
the chat-facing parts (notation forms, status, help).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.clash import bot
from engine.clash.actions import VERBS, Action
from engine.clash.cards import after_action, hidden_view, private_summary, secret_choice, snapshot
from engine.clash.combat_choices import COMBAT_KINDS, timeout_choice, waiting_text
from engine.clash.culture import WAITING as CULTURE_WAITING
from engine.clash.data import RESOURCES, TABLES
from engine.clash.decks import init_decks
from engine.clash.moves import cost_words, explain, illegal_reason, is_legal_action, legal
from engine.clash.notation import forms, normalize_typed, text
from engine.clash.rounds import start_turn
from engine.clash.scoring import halves, outcome, show
from engine.clash.setup import OPTION_HELP, initial_state
from engine.clash.state import State, dump_state, load_state
from engine.clash.trade_cards import card_name
from engine.clash.trading import offer_text, trade_parties
from engine.clash.view import build_view, orient_choices
from engine.core.api import Game, GameInfo, Outcome, Seat
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.events import Event
from engine.core.text import count

SUMMARY = (
    "Clash of Cultures (2012): 2-4 players explore a hidden map, found and grow cities, and race through "
    "48 advances over six rounds of three turns."
)

HELP = """Clash of Cultures — each round every player takes three turns of up to three actions, then
a status phase gives everyone a free advance. Points: 1 per city piece, ½ per advance.
Actions (city names or spaces both work):
  advance farming                 buy an advance (2 food; ideas count as food, gold as anything)
  found c4                        a settler founds a city
  collect athens food wood ore    activate a city to collect
  build athens settler army       activate a city to build units
  grow athens temple culture      activate a city to add a building (port: `grow athens port e4`)
  move c4 d4 army settler         move a group (`road` for 2 spaces, `ore` to ignore terrain)
  move ship1 e6                   move ships (`around` with Navigation)
  civic athens                    make a city one step happier (`civic athens 2` for two steps)
  done / end                      close a Move or Civic action / end your turn
  influence athens sparta temple  roll for a piece of Sparta (5 or more; culture tokens add range
                                  and, after the roll, points; `arts` at the end: Art & Sculptures)
  wonder athens pyramids          build a revealed wonder (Engineering)
  trade blue, give 2 food, get 1 ore, offer     write a trade offer; Blue answers `accept` or `decline`
  invite blue                                   let Blue write a trade offer to you (you answer it)
  give card <card>, get 1 action card           cards in an offer (named only to the two traders)
Choices: `orient base` or `orient turned`, `barbarians g3`, `anchor d5`, `raze sparta`, `no raze`,
`first blue`, `reserve pyramids`. Abilities: `taxes`, `liberties`, `cartography` (each takes an action);
`absolute`, `forced`, `theater culture` (free).
Cards: `play leadership` plays an action card (`hand` shows yours, privately); `choose <option>`
answers what an event or card asks; `claim wealth` / `claim none` declares objectives in the status
phase.
Battles: moving army units into foreign units or a foreign city attacks (`attack b3 c3 army army`
or `move b3 c3 army army`; ships: `move ship1 e6`). After each round the attacker types `continue`
or `retreat` (`stop`); other battle choices: `siege wood ore`, `no siege`, `refugee athens`, `keep camp`,
`raze camp`, `lose army temple`, `target g3 athens`, `reinforce g3`."""

GROUPS = {
    "advance": "advances",
    "found": "found a city",
    "collect": "collect",
    "build": "build units",
    "grow": "increase city size",
    "move": "move",
    "civic": "civic improvement",
    "done": "turn",
    "end": "turn",
    "play": "cards",
    "choose": "choices",
    "claim": "objectives",
    "takeover": "cultural influence",
    "influence": "cultural influence",
    "wonder": "wonders",
    "gardens": "wonders",
    "trade": "trade",
    "invite": "trade",
    "take": "trade offer: give",
    "give": "trade offer: give",
    "get": "trade offer: get",
    "offer": "trade offer",
    "cancel": "trade offer",
    "accept": "trade offer",
    "decline": "trade offer",
}


class ClashGame(Game[State, Action]):
    """Clash of Cultures, first part: map, cities, advances, movement, rounds and scoring."""

    id = "clash"
    aliases = ("clash-of-cultures", "coc")
    info = GameInfo(
        name="Clash of Cultures",
        min_players=2,
        max_players=4,
        summary=SUMMARY,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        options_help=OPTION_HELP,
    )
    verbs = VERBS

    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game with the first player's turn started."""
        state = initial_state(seed, players, options)
        init_decks(state, seed)
        start_turn(state)
        return state

    def to_move(self, state: State) -> frozenset[Seat]:
        """The seat of the open choice, else the active player."""
        if state.phase == "over":
            return frozenset()
        if state.pending:
            return frozenset({int(state.pending["seat"])})
        return frozenset({state.active})

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every legal action of ``seat``."""
        return legal(state, seat)

    def is_legal(self, state: State, seat: Seat, action: Action) -> bool:
        """As listed by ``legal_actions``, checking only the relevant part of the list."""
        return is_legal_action(state, seat, action)

    def illegal_reason(self, state: State, seat: Seat, action: Action) -> str:
        """Why the action is refused."""
        return illegal_reason(state, seat, action)

    def _apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        from engine.clash.turns import apply_action

        before = snapshot(state)
        events = apply_action(state, seat, action)
        events.extend(after_action(state, seat, action, before))
        return events

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game has ended."""
        return outcome(state) if state.phase == "over" else None

    def clone(self, state: State) -> State:
        """Hand-written copy."""
        return state.clone()

    def reveals_hidden(self, before: State, after: State, seat: Seat, action: Action) -> bool:
        """Revealing a face-down region (also for turning it) or a wonder card shows what nobody knew."""
        turning = after.pending.get("kind") == "orient" and before.pending != after.pending
        decks = ("event", "action", "objective", "event_discard", "objective_discard")
        drew = bool(before.decks) and any(len(before.decks[k]) != len(after.decks[k]) for k in decks)
        return (
            turning
            or drew
            or sum(s.revealed for s in after.slots) != sum(s.revealed for s in before.slots)
            or len(after.revealed_wonders) != len(before.revealed_wonders)
        )

    def parse(self, state: State, seat: Seat, text_: str) -> Action:
        """As the base parse, but a refused move of a known kind says why (``explain``)."""
        try:
            return super().parse(state, seat, normalize_typed(text_))
        except IllegalAction as exc:
            why = explain(state, seat, text_)
            if why:
                raise IllegalAction(why) from exc
            raise

    def notation(self, state: State, seat: Seat, action: Action) -> str:
        """Canonical text."""
        return text(state, seat, action)

    def notation_forms(self, state: State, seat: Seat, action: Action) -> list[str]:
        """Canonical text, the city as a space, advances with spaces."""
        return forms(state, seat, action)

    def action_group(self, notation: str) -> str:
        """Heading for ``moves``: city actions by city and kind ("Athens: collect"), the rest by kind."""
        words = notation.split(" ")
        if words[0] in ("collect", "build", "grow", "civic") and len(words) > 1:
            return f"{words[1].capitalize()}: {GROUPS[words[0]]}"
        if words[0] == "attack" and len(words) > 1:
            return f"attack from {words[1].upper()}"
        if words[0] == "move" and len(words) > 1:
            return "move ships" if words[1].startswith("ship") else f"move from {words[1].upper()}"
        return GROUPS.get(words[0], "choices")

    def action_cost(self, state: State, seat: Seat, action: Action) -> str:
        """What the action spends (gold standing in for a missing resource is named)."""
        return cost_words(state, seat, action)

    def on_timeout(self, state: State, seat: Seat) -> Action:
        """A missed deadline declines a trade offer (and drops one being written) and takes the safe
        option of a battle choice (stop, no payment, no card); otherwise the automatic player moves
        (without trading: nobody writes offers in the name of an absent player)."""
        kind = state.pending.get("kind") if state.pending else ""
        if kind == "trade" and int(state.pending["seat"]) == seat:
            return Action("decline")
        if kind == "offer" and int(state.pending["seat"]) == seat:
            return Action("cancel")
        if state.pending and state.pending["kind"] in COMBAT_KINDS and int(state.pending["seat"]) == seat:
            return timeout_choice(state)
        if seat not in self.to_move(state):
            raise NotYourTurn("This seat has nothing to do right now.")
        return bot.auto_action(state, seat, 0, trading=False)

    def auto_action(self, state: State, seat: Seat, seed: int) -> Action:
        """The automatic player's move."""
        if seat not in self.to_move(state):
            raise NotYourTurn("This seat has nothing to do right now.")
        return bot.auto_action(state, seat, seed)

    def seat_names(self, state: State) -> list[str]:
        """Seats are named by colour."""
        return [TABLES.colours[s] for s in range(state.players)]

    def players(self, state: State) -> int:
        """Number of seats."""
        return state.players

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """See :mod:`engine.clash.view`; the cards of ``seat``'s hands only in its own view."""
        view = build_view(state, seat) | hidden_view(state, seat)
        offer = view["pending"].get("offer")
        if offer is not None and seat is not None and seat in trade_parties(state):
            # The cards of an offer: only the two seats of the trade see which they are.
            offer["cards"] = [card_name(c) for c in state.pending.get("cards", [])]
        for p, counts in zip(view["players"], view.get("card_counts", []), strict=False):
            p["action_cards"] = counts["actions"]
            p["objective_cards"] = counts["objectives"]
            p["objectives_done"] = len(state.decks["done"][p["seat"]])
        return view

    def private_summary(self, state: State, seat: Seat) -> str:
        """The seat's action and objective cards."""
        return private_summary(state, seat)

    def private_action(self, state: State, seat: Seat, action: Action) -> bool:
        """Card plays, objective claims and choices naming hidden cards are offered only in
        private; map actions stay public so a turn can be played in the group."""
        hidden = action.kind in ("play", "great") or (action.kind == "tactic" and action.name != "trojan_horse")
        # Trade steps that name cards: giving one's own card, and the cards handed over on accepting.
        hidden = hidden or (action.kind == "give" and action.name == "card")
        hidden = hidden or (action.kind == "accept" and bool(action.items))
        return hidden or (action.kind == "choose" and secret_choice(state))

    def status(self, state: State, seat: Seat | None = None) -> str:
        """Round, turn, who is awaited and for what."""
        out = self.outcome(state)
        if out is not None:
            return "The game is over. " + out.reason
        names = self.seat_names(state)
        if state.pending:
            who = names[int(state.pending["seat"])]
            what = {
                "orient": "to turn an explored region",
                "anchor": "to place an exploring ship",
                "barbarians": "to place Barbarians",
                "income": "to take trade route income",
                "free": "to choose a free advance",
                "dogma": "to choose Dogma's free advance",
                "raze": "to decide on razing a city",
                "first": "to choose the first player",
                "reserve": "to reserve a wonder with Monuments",
                **CULTURE_WAITING,
            }
            if state.pending["kind"] == "card":
                what["card"] = "to " + str(state.pending.get("prompt", "make a choice")).split(":")[0]
            asked = what.get(state.pending["kind"], "") or waiting_text(state)
            text = f"Round {state.round}: waiting for {who} {asked}."
            if state.pending["kind"] == "trade":
                pend = state.pending
                text += f" {offer_text(int(pend['from']), int(pend['seat']), pend['give'], pend['get'])}:"
                text += " `accept` or `decline`."
            if state.pending["kind"] == "orient":
                for name, ter in orient_choices(state).items():
                    spaces = ", ".join(f"{h.upper()} {t}" for h, t in ter.items())
                    text += f" `orient {name}`: {spaces}."
            return text
        return (
            f"Round {state.round}, turn {state.turn}: {names[state.active]} to play, "
            f"{count(state.actions_left, 'action')} left."
        )

    def status_lines(self, state: State, seat: Seat | None) -> list[str]:
        """Each player's resources, tokens, levels and points."""
        lines = []
        for p in state.pl:
            res = ", ".join(count(p.res[r], "idea" if r == "ideas" else r) for r in RESOURCES)
            lines.append(
                f"{TABLES.colours[p.seat]}: {res}; {count(p.mood_tokens, 'mood token')}, "
                f"{count(p.culture_tokens, 'culture token')}; culture level {p.culture_level}, "
                f"happiness level {p.happiness_level}; {count(len(p.advances), 'advance')}; "
                f"{show(halves(state, p.seat))} points"
            )
        return lines

    def help_text(self) -> str:
        """Rules summary and notation."""
        return HELP

    def _dump_state(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def _load_state(self, data: Mapping[str, Any]) -> State:
        return load_state(data)
