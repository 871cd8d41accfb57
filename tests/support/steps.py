"""A two-player test game whose turns have the shapes that stalled real tables (issue 9).

Why a game of its own: 7 Wonders reaches "the last picker must now pay or take debt" only
after many moves of a lucky deal, and Duellum's multi-step turns need a long set-up; this
game has both shapes on every round, so adapter tests reach them in a few presses.

A round: both players ``pick 1``–``pick 3`` at the same time (openly: no hidden information);
the one who picked last then decides alone, ``settle keep`` or ``settle give`` (what a seat is
awaited for changes while nobody new is awaited); then player 1 takes a two-step turn,
``walk left|right`` and then ``rest short|long`` (the next step of the same turn). The first
to 12 points wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Event, Game, GameInfo, InvalidOptions, Outcome, public, register


@dataclass(frozen=True, slots=True)
class Move:
    verb: str
    arg: str


@dataclass
class StepsState:
    players: int = 2
    phase: str = "pick"  # pick | settle | walk | rest
    picked: dict[int, int] = field(default_factory=dict)
    last: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None


class StepsGame(Game[StepsState, Move]):
    id = "steps"
    info = GameInfo("Steps", 2, 2, "Pick together, settle alone, walk and rest.")
    verbs = ("pick", "settle", "walk", "rest")

    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> StepsState:
        if players != 2:
            raise InvalidOptions("Steps is for exactly 2 players.")
        return StepsState()

    def to_move(self, state: StepsState) -> frozenset[int]:
        if state.winner is not None:
            return frozenset()
        if state.phase == "pick":
            return frozenset(s for s in (0, 1) if s not in state.picked)
        if state.phase == "settle":
            return frozenset([state.last])
        return frozenset([0])

    def legal_actions(self, state: StepsState, seat: int) -> list[Move]:
        if seat not in self.to_move(state):
            return []
        return {
            "pick": [Move("pick", "1"), Move("pick", "2"), Move("pick", "3")],
            "settle": [Move("settle", "keep"), Move("settle", "give")],
            "walk": [Move("walk", "left"), Move("walk", "right")],
            "rest": [Move("rest", "short"), Move("rest", "long")],
        }[state.phase]

    def _apply(self, state: StepsState, seat: int, action: Move) -> list[Event]:
        names = self.seat_names(state)
        if action.verb == "pick":
            state.picked[seat] = int(action.arg)
            state.last = seat
            if len(state.picked) < 2:
                return [public(f"{names[seat]} has picked.", kind="pick")]
            text = ", ".join(f"{names[s]} {n}" for s, n in sorted(state.picked.items()))
            for s, n in state.picked.items():
                state.points[s] += n
            state.picked = {}
            state.phase = "settle"
            return [public(f"Picks revealed: {text}.", kind="reveal")]
        if action.verb == "settle":
            if action.arg == "give":
                state.points[1 - seat] += 1
            state.phase = "walk"
        elif action.verb == "walk":
            state.phase = "rest"
        else:
            state.phase = "pick"
        if max(state.points) >= 12:
            state.winner = 0 if state.points[0] >= state.points[1] else 1
        return [public(f"{names[seat]}: {action.verb} {action.arg}.", kind="move")]

    def outcome(self, state: StepsState) -> Outcome | None:
        if state.winner is None:
            return None
        w = state.winner
        return Outcome({w: 1, 1 - w: 0}, ((w,), (1 - w,)), f"{self.seat_names(state)[w]} reached 12 points.")

    def notation(self, state: StepsState, seat: int, action: Move) -> str:
        return f"{action.verb} {action.arg}"

    def status(self, state: StepsState, seat: int | None = None) -> str:
        waiting = " and ".join(self.seat_names(state)[s] for s in sorted(self.to_move(state)))
        return f"{waiting}: {state.phase}." if waiting else "The game is over."

    def view(self, state: StepsState, seat: int | None) -> dict[str, Any]:
        return {"game": "steps", "viewer": seat, "phase": state.phase,
                "players": [{"seat": s, "vp": state.points[s]} for s in (0, 1)]}

    def _dump_state(self, state: StepsState) -> dict[str, Any]:
        return {"phase": state.phase, "picked": {str(k): v for k, v in state.picked.items()}, "last": state.last,
                "points": list(state.points), "winner": state.winner}

    def _load_state(self, data: Mapping[str, Any]) -> StepsState:
        return StepsState(2, data["phase"], {int(k): v for k, v in data["picked"].items()}, data["last"],
                          list(data["points"]), data["winner"])


register(StepsGame())
