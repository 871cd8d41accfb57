"""The one protocol every game implements, and the shared template around it.

Why a base class with template methods rather than a bare Protocol: the checks every game
needs in the same order (game over? your turn? legal?), the never-mutate-the-input clone, the
versioned JSON envelope and lenient parsing are written once here, so a game only writes its
rules (OpenSpiel's ``legal_actions``/``_legal_actions`` split, boardgame.io's draft state).

A game subclasses :class:`Game` and fills in the ``_``-prefixed hooks and the abstract
methods; the platform only ever calls the public ones.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.core.errors import ExtraWords, GameOver, IllegalAction, InvalidNotation, InvalidSave, NotYourTurn
from engine.core.events import Event
from engine.core.notation import leading_match, match_text
from engine.core.text import with_article

Seat = int
S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """What ``apply`` returns: the new state, its narration, and whether it may be undone.

    ``undoable`` is False when the action drew on the RNG or revealed hidden information, so
    taking it back would let a player re-roll or un-see something.
    """

    state: S
    events: tuple[Event, ...]
    undoable: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    Attributes:
        scores: points per seat (the game's main score, e.g. personalities or VP).
        ranking: tiers of seats, best first; seats in one tier are tied.
        reason: one sentence for the chat ("Rome reached 9 personalities").
        details: per-seat score breakdowns, JSON-able.
    """

    scores: Mapping[Seat, int]
    ranking: tuple[tuple[Seat, ...], ...]
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The seats in the first tier."""
        return self.ranking[0] if self.ranking else ()

    def to_json(self) -> dict[str, Any]:
        """JSON form for the store, the CLI and adapters."""
        return {
            "scores": {str(k): v for k, v in sorted(self.scores.items())},
            "ranking": [list(t) for t in self.ranking],
            "winners": list(self.winners),
            "reason": self.reason,
            "details": dict(self.details),
        }


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Static facts the lobby and help need before any state exists."""

    name: str
    min_players: int
    max_players: int
    summary: str
    simultaneous: bool = False
    hidden_information: bool = False
    chance: bool = True
    options_help: Mapping[str, str] = field(default_factory=dict)


class Game(ABC, Generic[S, A]):
    """Base of every game. Subclasses set the class attributes and implement the hooks."""

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    info: ClassVar[GameInfo]
    engine_version: ClassVar[int] = 1
    schema_version: ClassVar[int] = 1
    verbs: ClassVar[tuple[str, ...]] = ()

    # ----------------------------------------------------------------- rules
    @abstractmethod
    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> S:
        """A fresh game. Raises ``InvalidOptions`` with a clear message on bad options."""

    @abstractmethod
    def to_move(self, state: S) -> frozenset[Seat]:
        """Seats that may act now; empty when over, several for a simultaneous step."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every legal action of ``seat`` in a deterministic order (empty if it may not act)."""

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Carry out an already validated action on ``state`` (a private copy) in place."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game runs; the result once it is over."""

    @abstractmethod
    def notation(self, state: S, seat: Seat, action: A) -> str:
        """The canonical chat text of ``action``; ``parse`` of it gives the action back."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see, as JSON-able data."""

    @abstractmethod
    def _dump_state(self, state: S) -> dict[str, Any]:
        """The state as JSON-able data (without the envelope)."""

    @abstractmethod
    def _load_state(self, data: Mapping[str, Any]) -> S:
        """Inverse of ``_dump_state``."""

    # -------------------------------------------------- hooks with defaults
    def clone(self, state: S) -> S:
        """A deep, independent copy; override with something faster when it matters."""
        return copy.deepcopy(state)

    def is_legal(self, state: S, seat: Seat, action: A) -> bool:
        """Whether ``action`` is legal; override when enumerating all actions is costly."""
        return action in self.legal_actions(state, seat)

    def illegal_reason(self, state: S, seat: Seat, action: A) -> str:
        """Why ``action`` is illegal, for the player. Override to be more specific."""
        return "That move is not legal right now. Type `moves` to see what you can do."

    def random_state(self, state: S) -> Any:
        """The part of the state that changes when chance is used (default: ``state.rng``)."""
        rng = getattr(state, "rng", None)
        return getattr(rng, "state", rng)

    def reveals_hidden(self, before: S, after: S, seat: Seat, action: A) -> bool:
        """True when the action showed a player something hidden (a drawn card, a pick)."""
        return False

    def private_action(self, state: S, seat: Seat, action: A) -> bool:
        """True when offering this action in public would reveal hidden information (a card in
        hand, a secret pick). Such actions appear only in private move lists and buttons. The
        safe default: every action of a game with hidden information is private."""
        return self.info.hidden_information

    def notation_forms(self, state: S, seat: Seat, action: A) -> list[str]:
        """Accepted spellings of ``action``, canonical first (e.g. a short form)."""
        return [self.notation(state, seat, action)]

    def on_timeout(self, state: S, seat: Seat) -> A:
        """What happens when ``seat`` misses its deadline: by default the automatic player."""
        return self.auto_action(state, seat, seed=0)

    def auto_action(self, state: S, seat: Seat, seed: int) -> A:
        """The automatic player's choice. Override with heuristics; must be legal."""
        from engine.core.rng import Rng

        actions = self.legal_actions(state, seat)
        if not actions:
            raise NotYourTurn("This seat has nothing to do right now.")
        return Rng.from_seed(seed).choice(actions)

    def seat_names(self, state: S) -> list[str]:
        """Display names of the seats (nations, colours); default ``Player 1..n``."""
        return [f"Player {i + 1}" for i in range(self.players(state))]

    def players(self, state: S) -> int:
        """Number of seats (default: ``state.players`` or ``len(state.seats)``)."""
        n = getattr(state, "players", None)
        if isinstance(n, int):
            return n
        return len(getattr(state, "seats", ()))

    def status(self, state: S, seat: Seat | None = None) -> str:
        """One or two sentences: whose turn, what is awaited (must not leak hidden info)."""
        out = self.outcome(state)
        if out is not None:
            return "The game is over. " + out.reason
        names = self.seat_names(state)
        waiting = ", ".join(names[s] for s in sorted(self.to_move(state)))
        return f"Waiting for {waiting}."

    def private_summary(self, state: S, seat: Seat) -> str:
        """A short text of what only ``seat`` knows (its hand and what each card could do),
        for the private ``hand`` reply. Empty when the game has nothing private."""
        return ""

    def help_text(self) -> str:
        """Rules summary and notation for ``help <game>``; games add examples."""
        return self.info.summary

    def action_group(self, notation: str) -> str:
        """The heading a move is listed under in ``moves`` (default: its first word)."""
        return notation.split(" ", 1)[0]

    def action_variant(self, state: S, seat: Seat, action: A) -> bool:
        """True when ``action`` is a variant of another listed action that reaches the same
        result another way (e.g. the same purchase paid with coins instead of chips).

        Why: a player wants one line per destination, the cheapest form first; the command
        layer lists variants only on request (``moves all``, a "pay differently" button), so
        ``legal_actions`` stays complete while the short list stays short."""
        return False

    def action_cost(self, state: S, seat: Seat, action: A) -> str:
        """What ``action`` will spend, in words (``"1 gold and 5 coins"``), or ``""`` when it
        is free or the notation already says it. Shown beside the move in lists and buttons,
        so nothing is spent that the player did not see before choosing."""
        return ""

    def status_lines(self, state: S, seat: Seat | None) -> list[str]:
        """Extra lines for the ``status`` text as ``seat`` may see them (``None``: the table):
        resources, scores, what each player holds in public. Never hidden information of
        another seat. Default: nothing beyond whose turn it is."""
        return []

    # ------------------------------------------------------ public template
    def apply(self, state: S, seat: Seat, action: A) -> Step[S]:
        """Validate and carry out ``action`` for ``seat``; the input state is never changed.

        Raises:
            GameOver: the game has ended.
            NotYourTurn: ``seat`` is not among ``to_move``.
            IllegalAction: the rules forbid the action now (the message says why).
        """

        self._check_turn(state, seat)
        if not self._legal_safely(state, seat, action):
            try:
                reason = self.illegal_reason(state, seat, action)
            except _MALFORMED:
                reason = Game.illegal_reason(self, state, seat, action)
            raise IllegalAction(reason)
        new = self.clone(state)
        events = self._apply(new, seat, action)
        undoable = self.random_state(state) == self.random_state(new) and not self.reveals_hidden(
            state, new, seat, action
        )
        return Step(new, tuple(events), undoable)

    def parse(self, state: S, seat: Seat, text: str) -> A:
        """Chat text to a legal action: lenient on case, spacing and unique word prefixes.

        Raises:
            GameOver, NotYourTurn: as for ``apply``.
            InvalidNotation: the text is not in this game's notation.
            AmbiguousAction: several legal actions match; lists their notations.
            IllegalAction: no legal action matches; suggests the closest.
        """
        self._check_turn(state, seat)
        cands = [(self.notation_forms(state, seat, a), a) for a in self.legal_actions(state, seat)]
        try:
            return match_text(text, cands, verbs=self.verbs)
        except (IllegalAction, InvalidNotation):
            self.refuse_extra_words(state, seat, text, cands)
            raise

    def refuse_extra_words(self, state: S, seat: Seat, text: str, cands: list[tuple[list[str], A]]) -> None:
        """Raise ``ExtraWords`` when ``text`` is a legal move followed by more words.

        Why: a parser that stops after a known move would apply half of what was typed
        (``rondel ferrum rondel templum`` as ``rondel ferrum``); saying which move the text
        begins with lets the player retype it exactly."""
        lead = leading_match(text, cands)
        if lead is not None:
            raise ExtraWords(text.strip(), lead[0], self.private_action(state, seat, lead[1]))

    def dump(self, state: S) -> dict[str, Any]:
        """Versioned JSON (never pickle): ``{"game", "schema", "state"}``."""
        return {"game": self.id, "schema": self.schema_version, "state": self._dump_state(state)}

    def load(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`dump`; rejects other games and unknown schema versions."""
        if not isinstance(data, Mapping) or data.get("game") != self.id:
            raise InvalidSave(f"This save is not {with_article(self.info.name)} game.")
        if data.get("schema") != self.schema_version:
            raise InvalidSave(
                f"This save uses format {data.get('schema')!r}; this Agora reads format {self.schema_version}."
            )
        try:
            return self._load_state(data["state"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidSave(f"The saved {self.info.name} game is damaged ({type(exc).__name__}).") from exc

    def dumps(self, state: S) -> str:
        """Canonical JSON text of :meth:`dump` (sorted keys, no spaces): byte-stable."""
        return json.dumps(self.dump(state), sort_keys=True, separators=(",", ":"))

    # ------------------------------------------------------------- helpers
    def _legal_safely(self, state: S, seat: Seat, action: A) -> bool:
        """``is_legal``, with a malformed action (wrong type, short tuple) counted as illegal.

        Why: parsers, buttons and autocomplete build actions; whatever reaches ``apply`` must
        end in ``IllegalAction``, never in an ``IndexError``. Games still check shapes
        themselves (the action-contract test calls ``is_legal`` directly); this is the net."""
        try:
            return bool(self.is_legal(state, seat, action))
        except _MALFORMED:
            return False

    def _check_turn(self, state: S, seat: Seat) -> None:
        if self.outcome(state) is not None:
            raise GameOver("This game is over; no more moves are accepted.")
        if seat not in self.to_move(state):
            names = self.seat_names(state)
            waiting = ", ".join(names[s] for s in sorted(self.to_move(state)))
            raise NotYourTurn(f"It is not your turn. The game is waiting for {waiting}.")


AnyGame = Game[Any, Any]

_MALFORMED = (TypeError, ValueError, IndexError, KeyError, AttributeError)
"""What a rule check may raise on a malformed action instead of answering."""


def seat_list(seats: Sequence[int]) -> str:
    """Human join of seat numbers (1-based), for messages."""
    return ", ".join(str(s + 1) for s in seats)
