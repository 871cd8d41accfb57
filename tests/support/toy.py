"""A tiny two-player game for service-layer tests: race to 21 with a die.

Why a toy: pipeline, store and adapter tests need a game whose moves are few and predictable,
independent of any real game's rules. ``add N`` (1–3) is undoable; ``roll`` uses the RNG and
so cannot be undone; the player who brings the total to 21 or more wins. Seat 1 holds a secret
word (hidden information) that only its own view shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Event, Game, GameInfo, InvalidOptions, Outcome, Rng, private, public, register


@dataclass(frozen=True, slots=True)
class Add:
    n: int


@dataclass(frozen=True, slots=True)
class Roll:
    pass


@dataclass
class ToyState:
    players: int
    total: int = 0
    turn: int = 0
    winner: int | None = None
    secret: str = "plover"
    rng: Rng = field(default_factory=lambda: Rng(1))


class ToyGame(Game[ToyState, Any]):
    id = "toy"
    aliases = ("race",)
    info = GameInfo("Toy race", 2, 2, "Add 1–3 or roll a die; reach 21 to win.", hidden_information=True,
                    options_help={"target": "ignored"})
    verbs = ("add", "roll")

    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> ToyState:
        if players != 2:
            raise InvalidOptions("Toy race is for exactly 2 players.")
        if options and set(options) - {"target"}:
            raise InvalidOptions("Toy race has only the option `target`.")
        return ToyState(players, rng=Rng.from_seed(seed))

    def to_move(self, state: ToyState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset([state.turn])

    def legal_actions(self, state: ToyState, seat: int) -> list[Any]:
        if seat not in self.to_move(state):
            return []
        return [Add(1), Add(2), Add(3), Roll()]

    def _apply(self, state: ToyState, seat: int, action: Any) -> list[Event]:
        if isinstance(action, Roll):
            n = state.rng.randint(1, 6)
            text = f"Player {seat + 1} rolls {n}."
        else:
            n = action.n
            text = f"Player {seat + 1} adds {n}."
        state.total += n
        events = [public(text + f" Total {state.total}.", kind="move")]
        if seat == 1:
            events.append(private(1, f"(Your secret word is still {state.secret}.)"))
        if state.total >= 21:
            state.winner = seat
        state.turn = 1 - seat
        return events

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.winner is None:
            return None
        w = state.winner
        return Outcome({w: 1, 1 - w: 0}, ((w,), (1 - w,)), f"Player {w + 1} reached 21.")

    def notation(self, state: ToyState, seat: int, action: Any) -> str:
        return "roll" if isinstance(action, Roll) else f"add {action.n}"

    def private_action(self, state: ToyState, seat: int, action: Any) -> bool:
        return False

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {
            "game": "toy", "viewer": seat, "total": state.total, "turn": state.turn,
            "players": [{"seat": s, "vp": int(state.winner == s),
                         "hand": [state.secret] if (s == 1 and seat == 1) else None} for s in range(2)],
        }

    def _dump_state(self, state: ToyState) -> dict[str, Any]:
        return {"players": state.players, "total": state.total, "turn": state.turn, "winner": state.winner,
                "secret": state.secret, "rng": state.rng.state}

    def _load_state(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(data["players"], data["total"], data["turn"], data["winner"], data["secret"],
                        Rng(data["rng"]))


register(ToyGame())
