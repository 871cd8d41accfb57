"""MareNostrumGame: the engine protocol for Mare Nostrum (first edition, 3-5 players).

Why this class is thin: each rules topic lives in its own module (setup, roles, commerce,
build, military, rounds); this class maps the platform's protocol onto them and adds the
chat-facing parts (notation, status, help).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.api import Game, GameInfo, Outcome, Seat
from engine.core.errors import NotYourTurn
from engine.core.events import Event
from engine.core.rng import Rng
from engine.core.text import count, join_words
from engine.mare_nostrum import bot, draw
from engine.mare_nostrum.actions import VERBS, Action, notation_text
from engine.mare_nostrum.board import scores
from engine.mare_nostrum.build import can_pay, cost, purchases, setup_cost
from engine.mare_nostrum.commerce import card_words, name
from engine.mare_nostrum.data import BASE_COST, CARDS, CIV_DATA, PROVINCES, SEAS, province_name
from engine.mare_nostrum.military import obligations
from engine.mare_nostrum.moves import apply_action, legal_for_civ
from engine.mare_nostrum.rounds import chooser, settle
from engine.mare_nostrum.setup import OPTION_HELP, initial_state
from engine.mare_nostrum.state import State, dump_state, load_state, total
from engine.mare_nostrum.view import PHASE_TEXT, build_view

SUMMARY = (
    "Mare Nostrum (first edition): 3-5 ancient civilizations trade, build and fight around the "
    "Mediterranean; the first to build the Pyramids or own 4 heroes and wonders wins."
)

HELP = """Mare Nostrum — each round: commerce (income, then trading), build, military.
Trading: the Director of Commerce picks N (`trade 3`); everyone with at least N cards secretly
offers N cards, one press each (`offer grain`, `offer tax`); then takes follow the chain
(`take wine from rome`); `give tax` is the Director's compensation.
Build: `buy city peloponnesus sparta`, `buy caravan roma wine`, `buy influence thracia`,
`buy legion roma`, `buy pyramids`, then pay with one set of cards, all taxes or all different
goods: `pay taxes`, `pay goods` or one goods type at a time (`pay grain`); `cancel` withdraws.
`annex judaea` completes an annexation.
Leaders name the next player: `next egypt`. End a turn with `done`.
Military: `launch athenae aegaeum`, `sail aegaeum ionium`, `attack carthage in aegaeum`,
`march athenae macedonia`, `attack rome in numidia with 2 legions`, `pillage judaea city hierosolyma`,
`occupy numidia caravan slaves`, `claim numidia` (annex), `lose legion`.
Places with two-word names may be typed by their first word (`caravan gallia grain`)."""

GROUPS = {"caravan": "setup", "give": "trade", "trade": "trade", "artemis": "income", "keep": "discard",
          "swap": "Cleopatra", "annex": "build", "cancel": "payment", "lose": "losses", "helen": "Helen of Troy",
          "ulysses": "Ulysses", "done": "end the turn", "buy": "build", "pay": "payment", "offer": "secret offer",
          "take": "take a card", "propose": "draw", "accept": "draw", "decline": "draw",
          "march": "move a legion", "attack": "battle", "launch": "triremes", "sail": "triremes",
          "pillage": "conquest", "occupy": "conquest", "claim": "conquest", "next": "order"}


def _short_names() -> dict[str, str]:
    """Multi-word place ids and their first word, when that word names no other place."""
    ids = [*PROVINCES, *SEAS]
    firsts = [i.split("_")[0] for i in ids]
    return {i: i.split("_")[0] for i in ids if "_" in i and firsts.count(i.split("_")[0]) == 1
            and i.split("_")[0] not in ids}


SHORT = _short_names()


class MareNostrumGame(Game[State, Action]):
    """Mare Nostrum (first edition) with a stand-in map."""

    id = "mare-nostrum"
    aliases = ("mare_nostrum", "mn")
    info = GameInfo(
        name="Mare Nostrum",
        min_players=3,
        max_players=5,
        summary=SUMMARY,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        options_help=OPTION_HELP,
    )
    verbs = VERBS

    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game, waiting for the first setup decision (or round 1 if there is none)."""
        s = initial_state(seed, players, options)
        settle(s)
        return s

    def to_move(self, state: State) -> frozenset[Seat]:
        """Seats with a decision now; several while offers are chosen in secret."""
        if state.phase == "over":
            return frozenset()
        return frozenset(state.seat_of(c) for c in chooser(state))

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every legal move of ``seat`` in a fixed order."""
        if state.phase == "over" or not 0 <= seat < state.players:
            return []
        return legal_for_civ(state, state.seats[seat])

    def is_legal(self, state: State, seat: Seat, action: Action) -> bool:
        return isinstance(action, Action) and action in self.legal_actions(state, seat)

    def illegal_reason(self, state: State, seat: Seat, action: Action) -> str:
        """Why the move is not legal, in public terms, and what would be accepted."""
        if not isinstance(action, Action):
            return "That is not a Mare Nostrum move."
        phase = PHASE_TEXT.get(state.phase, state.phase)
        civ = state.seats[seat] if 0 <= seat < state.players else ""
        if civ and state.phase == "build" and state.active == civ and action.kind == "buy" and action.args:
            item = action.args[0]
            if item in CARDS or item in BASE_COST:
                price = cost(state, civ, item)
                if not can_pay(state, civ, price) and (item, *action.args[1:3]) in [
                        (i, w, d)[: 1 + len(action.args[1:3])] for i, w, d in purchases(state, civ)]:
                    hand = state.hands[civ]
                    kinds = sum(1 for k in hand if k != "tax")
                    return (f"That costs one set of {count(price, 'card')}: {price} taxes or {price} different goods. "
                            f"You hold {count(hand.get('tax', 0), 'tax card')} and "
                            f"{count(kinds, 'kind')} of goods.")
        if civ and state.phase == "military" and state.active == civ and action.kind == "done":
            left = obligations(state, civ)
            if left:
                return (f"Your legions in {join_words(province_name(p) for p in left)} must fight first "
                        "(`attack …`) or leave.")
        if civ and state.phase == "take" and action.kind == "take" and len(action.args) == 2:
            t = state.trade
            if t is not None and action.args[1] in t.participants and t.offers.get(action.args[1]):
                return (f"You may not take from {name(action.args[1])} now (you have just exchanged twice in a row, "
                        "or Ulysses sent you elsewhere). Take from another player.")
        return f"That move is not legal now ({phase}). Type `moves` to see what you can do."

    def _apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        return apply_action(state, state.seats[seat], action)

    def outcome(self, state: State) -> Outcome | None:
        """The winner and the heroes and wonders everyone owns (V1), or an agreed draw."""
        if state.phase != "over":
            return None
        if draw.is_drawn(state):
            cards = {i: len(state.cards[c]) for i, c in enumerate(state.seats)}
            return Outcome(cards, (tuple(range(state.players)),), "The players agreed a draw.",
                           {"cards": {c: list(v) for c, v in state.cards.items()}})
        sc = {i: len(state.cards[c]) for i, c in enumerate(state.seats)}
        win = state.seat_of(state.winner)
        rest = sorted((i for i in sc if i != win), key=lambda i: -sc[i])
        tiers: list[tuple[int, ...]] = [(win,)]
        for i in rest:
            if len(tiers) > 1 and sc[tiers[-1][0]] == sc[i]:
                tiers[-1] = (*tiers[-1], i)
            else:
                tiers.append((i,))
        why = ("built the Pyramids" if "pyramids" in state.cards[state.winner]
               else "owns 4 heroes and wonders")
        return Outcome(sc, tuple(tiers), f"{name(state.winner)} {why} and wins.",
                       {"cards": {c: list(v) for c, v in state.cards.items()}})

    def clone(self, state: State) -> State:
        return state.clone()

    def reveals_hidden(self, before: State, after: State, seat: Seat, action: Action) -> bool:
        """The reveal of the offers shows hidden cards."""
        return (before.trade is not None and not before.trade.revealed and after.trade is not None
                and after.trade.revealed) or (before.phase == "offer" and after.phase != "offer")

    def private_action(self, state: State, seat: Seat, action: Action) -> bool:
        """Offers, payments, swaps, compensation and the Gardens pick name cards of a hand; which
        purchases are listed depends on the hand (a 6-card set), so they are private too."""
        return action.kind in ("offer", "pay", "swap", "give", "keep", "artemis", "buy", "annex", "cancel")

    def notation(self, state: State, seat: Seat, action: Action) -> str:
        return notation_text(action)

    def notation_forms(self, state: State, seat: Seat, action: Action) -> list[str]:
        """The canonical text, and a short form where two-word places are typed by their first
        word (``caravan gallia grain``, ``march magna roma``)."""
        text = notation_text(action)
        short = " ".join(SHORT.get(w, w) for w in text.split(" "))
        return [text, short] if short != text else [text]

    def action_cost(self, state: State, seat: Seat, action: Action) -> str:
        """A purchase's price: ``"3 cards"`` or ``"free"`` (what makes a set is said once, in the
        help and when a payment is refused, not on every line of the list)."""
        if action.kind not in ("buy", "annex") or state.phase == "setup":
            if action.kind == "buy" and state.phase == "setup":
                return count(setup_cost(action.args[0]), "setup point")
            return ""
        if action.args[-1] == "free":
            return "free (Hammurabi)"
        item = "influence" if action.kind == "annex" else action.args[0]
        price = cost(state, state.seats[seat], item)
        return count(price, "card")

    def action_group(self, notation: str) -> str:
        return GROUPS.get(notation.split(" ", 1)[0].lower(), "other")

    def on_timeout(self, state: State, seat: Seat) -> Action:
        """Spec 16: a leader names the next player in seat order; an offer takes the first
        cards; a take is a legal card picked by the game's RNG state; losses go legions first;
        a build or military turn passes (finishing a payment is cancelled first); other
        decisions are the automatic player's."""
        acts = self.legal_actions(state, seat)
        if not acts:
            raise NotYourTurn("This seat has nothing to do right now.")
        if draw.vote_open(state):
            return draw.DECLINE  # an unanswered draw vote counts as a refusal
        acts = [a for a in acts if a != draw.PROPOSE]
        kinds = {a.kind for a in acts}
        if "next" in kinds:
            order = [c for c in state.seat_order if Action("next", (c,)) in acts]
            return Action("next", (order[0],))
        if "offer" in kinds:
            return acts[0]
        if "take" in kinds:
            return acts[Rng(state.rng).below(len(acts))]
        if "cancel" in kinds:
            return Action("cancel")
        if "done" in kinds and state.phase in ("build", "military"):
            return Action("done")
        return bot.choose(state, state.seats[seat], acts, 0)

    def auto_action(self, state: State, seat: Seat, seed: int) -> Action:
        """The automatic player's move. Decision: it never proposes a draw and declines one
        (it plays to win)."""
        acts = self.legal_actions(state, seat)
        if not acts:
            raise NotYourTurn("This seat has nothing to do right now.")
        if draw.vote_open(state):
            return draw.DECLINE
        return bot.choose(state, state.seats[seat], [a for a in acts if a != draw.PROPOSE], seed)

    def seat_names(self, state: State) -> list[str]:
        return [CIV_DATA[c].name for c in state.seats]

    def players(self, state: State) -> int:
        return state.players

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return build_view(state, seat)

    def status(self, state: State, seat: Seat | None = None) -> str:
        out = self.outcome(state)
        if out is not None:
            return "The game is over. " + out.reason
        who = ", ".join(name(c) for c in chooser(state))
        text = f"Round {state.round}, {PHASE_TEXT.get(state.phase, state.phase)}. Waiting for {who}."
        if draw.vote_open(state):
            text = (f"Round {state.round}: {name(state.pending['draw']['by'])} proposes a draw. "
                    f"Waiting for the votes of {who}.")
        t = state.trade
        if (seat is not None and 0 <= seat < state.players and state.phase == "offer" and t is not None
                and state.seats[seat] in t.participants and state.seats[seat] not in chooser(state)):
            text += " You have chosen; your offer stays hidden until everyone has chosen."
        return text

    def status_lines(self, state: State, seat: Seat | None) -> list[str]:
        lines = []
        for c in state.seats:
            sc = scores(state, c)
            cards = ", ".join(CARDS[k].name for k in state.cards[c]) or "none"
            lines.append(f"{name(c)}: {count(total(state.hands[c]), 'card')} in hand; heroes and wonders: {cards}; "
                         f"commerce {sc['commerce']}, political {sc['political']}, military {sc['military']}.")
        return lines

    def private_summary(self, state: State, seat: Seat) -> str:
        civ = state.seats[seat]
        return f"{name(civ)} — your hand: {card_words(state.hands[civ])}."

    def help_text(self) -> str:
        return HELP

    def _dump_state(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def _load_state(self, data: Mapping[str, Any]) -> State:
        return load_state(data)
