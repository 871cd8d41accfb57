"""``DuellumGame``: the Antike Duellum engine wired into the core protocol.

Why this module is thin: the rules live in the topic modules (rondel, production, templum,
militia, scientia, duellum, founding, personalities, events_cards, commercium) behind the turn
dispatcher; this class only adapts them to :class:`engine.core.api.Game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core.api import Game, GameInfo, Outcome
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.notation import normalize
from engine.core.text import count
from engine.duellum import bot, turn
from engine.duellum.actions import (
    VERBS,
    Action,
    BuildTemple,
    BuildWall,
    BuyTech,
    Conquer,
    Deploy,
    Done,
    EndTurn,
    Found,
    Losses,
    Move,
    Pass,
    Pick,
    PlayCard,
    Recruit,
    RondelMove,
    TakeResource,
    Trade,
    card_words,
    forms,
    group,
    key,
    notation,
    pay_words,
)
from engine.duellum.costs import cost_words, seat_line, tech_prices, usual_payment
from engine.duellum.data import CARDS
from engine.duellum.duellum import enemy_present
from engine.duellum.log import Log
from engine.duellum.reasons import guess
from engine.duellum.rules_text import HELP
from engine.duellum.setup import OPTIONS_HELP, new_state
from engine.duellum.state import PHASE_FORTRESS, PHASE_FOUNDING, PHASE_OVER, State
from engine.duellum.view import status, view

VERB_TYPES: dict[str, tuple[type, ...]] = {
    "rondel": (RondelMove,),
    "take": (TakeResource, Pick),
    "temple": (BuildTemple,),
    "wall": (BuildWall,),
    "deploy": (Deploy,),
    "buy": (BuyTech,),
    "recruit": (Recruit,),
    "move": (Move,),
    "conquer": (Conquer,),
    "lose": (Losses,),
    "found": (Found,),
    "trade": (Trade,),
    "play": (PlayCard,),
    "pass": (Pass,),
    "done": (Done,),
    "end": (EndTurn,),
}
"""Which action types a canonical notation starting with each verb can be (parse fast path)."""


class DuellumGame(Game[State, Action]):
    """Antike Duellum (Mac Gerdts, 2012) for two players, on either map side."""

    id: ClassVar[str] = "duellum"
    aliases: ClassVar[tuple[str, ...]] = ("antike-duellum", "antike", "ad")
    info: ClassVar[GameInfo] = GameInfo(
        name="Antike Duellum",
        min_players=2,
        max_players=2,
        summary=(
            "Two ancient nations race to 9 personalities: move your stone on the rondel to produce, "
            "build temples, raise and move armies, buy know-how, found and conquer cities."
        ),
        simultaneous=False,
        hidden_information=True,
        chance=True,
        options_help=OPTIONS_HELP,
    )
    verbs: ClassVar[tuple[str, ...]] = VERBS

    # ------------------------------------------------------------- rules
    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game (options: see ``info.options_help``)."""
        return new_state(seed, players, options)

    def to_move(self, state: State) -> frozenset[int]:
        """Seats awaited now."""
        return turn.to_move(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action of ``seat``."""
        return turn.legal(state, seat)

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        """Direct check (no enumeration of every action)."""
        return turn.check(state, seat, action) is None

    def illegal_reason(self, state: State, seat: int, action: Action) -> str:
        """The specific reason the rules forbid ``action``."""
        return turn.check(state, seat, action) or super().illegal_reason(state, seat, action)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        log = Log(state)
        turn.apply(state, seat, action, log)
        return log.events

    def outcome(self, state: State) -> Outcome | None:
        """Scores are personalities; the winner is the first to 9."""
        if state.phase != PHASE_OVER:
            return None
        w = state.winner
        scores = {s: state.players[s].vp for s in (0, 1)}
        return Outcome(
            scores=scores,
            ranking=((w,), (1 - w,)),
            reason=f"The {state.map.nations[w]} reached {scores[w]} personalities.",
            details={
                str(s): {
                    k: state.players[s].pers[i]
                    for i, k in enumerate(("king", "scholar", "general", "navigator", "citizen"))
                }
                for s in (0, 1)
            },
        )

    # ---------------------------------------------------------- notation
    def parse(self, state: State, seat: int, text: str) -> Action:
        """The core's lenient matching; a refused command is read anyway to say exactly why.

        A route typed through empty regions (``roma-genua-massilia``) is accepted as the move it
        describes (the canonical notation names only the start, enemy-held stops and the end).
        """
        self._check_turn(state, seat)
        acts = self.legal_actions(state, seat)
        typed = normalize(text)
        # Fast path: the exact canonical notation of exactly one legal action (the common case
        # for buttons and copied moves); anything else goes through the core's lenient matcher.
        kinds = VERB_TYPES.get(typed.split(" ", 1)[0], ())
        hits = [a for a in acts if isinstance(a, kinds) and key(state.map, seat, a) == typed]
        if len(hits) == 1:
            return hits[0]
        try:
            return super().parse(state, seat, text)
        except IllegalAction as exc:
            action = guess(state, seat, text)
            if action is None:
                raise
            if isinstance(action, Move) and action.unit in (0, 1) and len(action.path) > 2:
                middle = tuple(r for r in action.path[1:-1] if enemy_present(state, seat, action.unit, r))
                action = Move(action.unit, action.count, (action.path[0], *middle, action.path[-1]))
            reason = turn.check(state, seat, action)
            if reason is None and action in self.legal_actions(state, seat):
                return action
            raise IllegalAction(reason or exc.reason) from exc

    def notation(self, state: State, seat: int, action: Action) -> str:
        """Canonical chat text."""
        return notation(state.map, seat, action)

    def notation_forms(self, state: State, seat: int, action: Action) -> list[str]:
        """Canonical text first, then accepted alternatives (``end`` finishes the founding step;
        a plain move with its usual payment spelled out, ``temple Roma pay 6 marble coin``)."""
        out = forms(state.map, seat, action)
        if isinstance(action, Done) and state.phase == PHASE_FOUNDING:
            out = [*out, "end turn", "end"]
        if getattr(action, "pay", 0) is None:
            usual = usual_payment(state, seat, action)
            if usual is not None and any(usual):
                out = [*out, f"{out[0]} pay {pay_words(usual)}"]
        return out

    def action_group(self, notation: str) -> str:
        """Heading in the moves list."""
        return group(notation)

    def action_variant(self, state: State, seat: int, action: Action) -> bool:
        """Another payment of a listed move (coins instead of chips, other chips for rondel
        steps) or a trade a plain trade makes pointless: listed only on request."""
        return turn.is_variant(state, seat, action)

    def action_cost(self, state: State, seat: int, action: Action) -> str:
        """What a plain move will spend (``1 gold and 5 coins``); moves naming their payment
        (``rondel militia pay 2 gold``, ``buy Navigatio pay 6 coins``) and free ones: ``""``."""
        return cost_words(state, seat, action)

    def status_lines(self, state: State, seat: int | None) -> list[str]:
        """Each nation's resources, personalities, cities, temples, technologies and number of
        event cards (all public), then what the technologies cost the asking seat now."""
        lines = [seat_line(state, s) for s in (0, 1)]
        if seat in (0, 1):
            lines.append(f"Technologies for you now: {tech_prices(state, seat)}.")
        else:
            lines.extend(
                f"Technologies for the {state.map.nations[s]} now: {tech_prices(state, s)}." for s in (0, 1)
            )
        return lines

    # ------------------------------------------------------------- views
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The view per docs/duellum-view.md."""
        return view(state, seat)

    def status(self, state: State, seat: int | None = None) -> str:
        """Whose turn and what is awaited."""
        return status(state, seat)

    def help_text(self) -> str:
        """Rules summary and notation."""
        return HELP

    def private_action(self, state: State, seat: int, action: Action) -> bool:
        """Only moves that use a card from the hand are private: offering `play earthquake` as
        a public button would show the table what the player holds. Everything else (rondel,
        moves, founding, card picks from the face-up row, passing) is public knowledge."""
        return isinstance(action, PlayCard) or (isinstance(action, Conquer) and bool(action.card))

    def private_summary(self, state: State, seat: int) -> str:
        """The seat's event cards with their texts, for the private ``hand`` reply.

        What the seat's own view shows of them (its nation, its hand, the cards' names and
        texts), read without building the whole view (a tenth of the cost, once per prompt)."""
        hand = list(state.players[seat].hand)
        head = f"{state.map.nations[seat]}: {count(len(hand), 'event card')} in hand."
        if not hand:
            return head + " Cards come from the face-up row when your opponent gains a personality or you lose a city."
        lines = [head]
        for card in hand:
            text = CARDS[card].text
            lines.append(f"• {CARDS[card].name} (`play {card_words(card)}`) — {text}".rstrip(" —"))
        return "\n".join(lines)

    def seat_names(self, state: State) -> list[str]:
        """Nation names (seat 0 brown, seat 1 beige)."""
        return list(state.map.nations)

    def players(self, state: State) -> int:
        """Always 2."""
        return 2

    # --------------------------------------------------------- machinery
    def clone(self, state: State) -> State:
        """Hand-written copy (much faster than deepcopy)."""
        return state.copy()

    def _dump_state(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def _load_state(self, data: Mapping[str, Any]) -> State:
        return State.from_json(data)

    def reveals_hidden(self, before: State, after: State, seat: int, action: Action) -> bool:
        """A card drawn into the row, a card played from a hand, or a Fortress window opened."""
        return (
            isinstance(action, PlayCard)
            or len(before.draw) != len(after.draw)
            or len(before.discard) != len(after.discard)
            or (after.phase == PHASE_FORTRESS and before.phase != PHASE_FORTRESS)
        )

    def on_timeout(self, state: State, seat: int) -> Action:
        """A missed Fortress decision means "no Fortress" (D-12); otherwise the automatic player acts.

        Decision: for every other decision (the turn, owed card picks, conquest losses) the
        automatic player's choice keeps the game moving sensibly; passing would waste the turn.
        """
        if state.phase == PHASE_FORTRESS and seat != state.active:
            return Pass()
        return self.auto_action(state, seat, seed=state.turn)

    def auto_action(self, state: State, seat: int, seed: int) -> Action:
        """The automatic player's choice (deterministic for a seed)."""
        return bot.choose(state, seat, seed)
