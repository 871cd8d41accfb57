"""A simultaneous two-player plug-in game for race tests ("sim").

Why: in the toy race only one seat moves at a time, so a lost race always ends in
``NotYourTurn``. Here both seats pick at once (``pick 1``..``pick 3``, like a 7 Wonders card
pick); the loser of a commit race is still legal after the winner's pick and must be applied
after it. A round resolves when both have picked; the first to 10 points wins (seat 0 on a tie).
Registered with ``AGORA_PLUGINS=tests.support.toy,tests.workers.simgame`` in workers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Event, Game, GameInfo, InvalidOptions, Outcome, public, register

TARGET = 10


@dataclass(frozen=True, slots=True)
class Pick:
    n: int


@dataclass
class SimState:
    players: int
    scores: list[int] = field(default_factory=lambda: [0, 0])
    picks: dict[int, int] = field(default_factory=dict)
    rounds: int = 0
    winner: int | None = None


class SimGame(Game[SimState, Pick]):
    id = "sim"
    info = GameInfo(
        "Simultaneous picks", 2, 2, "Both pick 1–3 at once; first to 10 wins.", simultaneous=True, chance=False
    )
    verbs = ("pick",)

    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> SimState:
        if players != 2 or options:
            raise InvalidOptions("Simultaneous picks is for exactly 2 players, without options.")
        return SimState(players)

    def to_move(self, state: SimState) -> frozenset[int]:
        if state.winner is not None:
            return frozenset()
        return frozenset(s for s in range(2) if s not in state.picks)

    def legal_actions(self, state: SimState, seat: int) -> list[Pick]:
        return [Pick(1), Pick(2), Pick(3)] if seat in self.to_move(state) else []

    def _apply(self, state: SimState, seat: int, action: Pick) -> list[Event]:
        state.picks[seat] = action.n
        events = [public(f"Player {seat + 1} has picked.", kind="pick")]
        if len(state.picks) == 2:
            for s, n in state.picks.items():
                state.scores[s] += n
            state.rounds += 1
            events.append(public(f"Round {state.rounds}: {state.picks[0]} and {state.picks[1]}.", kind="reveal"))
            state.picks = {}
            if max(state.scores) >= TARGET:
                state.winner = 0 if state.scores[0] >= state.scores[1] else 1
        return events

    def outcome(self, state: SimState) -> Outcome | None:
        if state.winner is None:
            return None
        w = state.winner
        return Outcome({0: state.scores[0], 1: state.scores[1]}, ((w,), (1 - w,)), f"Player {w + 1} got to 10.")

    def notation(self, state: SimState, seat: int, action: Pick) -> str:
        return f"pick {action.n}"

    def private_action(self, state: SimState, seat: int, action: Pick) -> bool:
        return True

    def view(self, state: SimState, seat: int | None) -> dict[str, Any]:
        return {
            "game": "sim",
            "viewer": seat,
            "players": [{"seat": s, "score": state.scores[s], "picked": s in state.picks} for s in range(2)],
        }

    def _dump_state(self, state: SimState) -> dict[str, Any]:
        return {
            "players": state.players,
            "scores": list(state.scores),
            "picks": {str(k): v for k, v in sorted(state.picks.items())},
            "rounds": state.rounds,
            "winner": state.winner,
        }

    def _load_state(self, data: Mapping[str, Any]) -> SimState:
        return SimState(
            data["players"],
            list(data["scores"]),
            {int(k): v for k, v in data["picks"].items()},
            data["rounds"],
            data["winner"],
        )


register(SimGame())
