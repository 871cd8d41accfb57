"""The game state: cities, hands, decks, the turn step machine, hidden picks.

Why plain mutable dataclasses with a hand-written ``clone``: ``Game.apply`` copies the state
before every action and a 7-player game takes ~170 actions; ``copy.deepcopy`` would dominate
the run time. Everything is JSON-able through :func:`dump_state` / :func:`load_state`.

Seats and cities: city ``i`` is seat ``i``'s city; in the two-player game city 2 is the Free
City, controlled each turn by the seat ``fc_ctrl`` holding the Free City card.

Steps (``State.step``): ``pick`` (simultaneous choice), ``babylon`` (Babylon B last-card
mini-turn), ``hali`` (Halikarnassos free build), ``debt`` (pay/debt decisions), ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.rng import Rng
from engine.seven_wonders.actions import Action


@dataclass(slots=True)
class City:
    """One city: board, built structures, coins and tokens."""

    wonder: str
    side: str
    coins: int
    stages: int = 0
    built: list[str] = field(default_factory=list)
    tucked: list[str] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    debt: int = 0
    diplomacy: int = 0
    olympia_age: int = 0
    """Age in which Olympia A's free build was used (0 = not used yet)."""

    def copy(self) -> City:
        """Independent copy (lists copied)."""
        return City(
            self.wonder,
            self.side,
            self.coins,
            self.stages,
            list(self.built),
            list(self.tucked),
            list(self.tokens),
            self.debt,
            self.diplomacy,
            self.olympia_age,
        )

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "wonder": self.wonder,
            "side": self.side,
            "coins": self.coins,
            "stages": self.stages,
            "built": list(self.built),
            "tucked": list(self.tucked),
            "tokens": list(self.tokens),
            "debt": self.debt,
            "diplomacy": self.diplomacy,
            "olympia_age": self.olympia_age,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> City:
        """Inverse of :meth:`to_json`."""
        return cls(
            wonder=str(raw["wonder"]),
            side=str(raw["side"]),
            coins=int(raw["coins"]),
            stages=int(raw["stages"]),
            built=[str(x) for x in raw["built"]],
            tucked=[str(x) for x in raw["tucked"]],
            tokens=[int(x) for x in raw["tokens"]],
            debt=int(raw["debt"]),
            diplomacy=int(raw["diplomacy"]),
            olympia_age=int(raw["olympia_age"]),
        )


@dataclass(slots=True)
class State:
    """A whole game."""

    players: int
    cities_opt: bool
    side_opt: str
    teams: bool
    hand_size: int
    cities: list[City]
    hands: list[list[str]]
    """One hand per seat (in the two-player game the Free City plays from ``hands[fc_ctrl]``)."""
    decks: list[list[str]]
    """Undealt Age decks, index 0..2 for Ages I..III."""
    rng: Rng
    fc_pile: list[str] = field(default_factory=list)
    fc_ctrl: int = -1
    age: int = 1
    turn: int = 1
    step: str = "pick"
    discard: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    """Cards out of the game (copies for more players, undrawn guilds and black cards)."""
    pending: dict[int, Action] = field(default_factory=dict)
    """Hidden picks of this step, by city."""
    babylon: list[int] = field(default_factory=list)
    """Cities still to play their last card (Babylon B), during step ``babylon``."""
    hali: list[int] = field(default_factory=list)
    """Cities with a pending Halikarnassos free build, in order."""
    losses: list[tuple[int, str, int]] = field(default_factory=list)
    """Coin-loss effects triggered this turn: (owner city, what is counted, amount)."""
    owed: dict[int, int] = field(default_factory=dict)
    """Coin losses awaiting a pay/debt decision, by city."""
    reveal: int = 0
    """Counts resolutions that showed hidden cards (for ``reveals_hidden``)."""
    recent: list[dict[str, Any]] = field(default_factory=list)
    """Public summary of the last resolved turn, for views."""

    @property
    def n(self) -> int:
        """Number of cities (3 in the two-player game)."""
        return len(self.cities)

    @property
    def free_city(self) -> int:
        """Index of the Free City, or -1."""
        return 2 if self.players == 2 else -1

    @property
    def turns_per_age(self) -> int:
        """Turns in an Age: one fewer than the hand size."""
        return self.hand_size - 1

    def left(self, city: int) -> int:
        """Left neighbour (clockwise, rules 0.2)."""
        return (city + 1) % len(self.cities)

    def right(self, city: int) -> int:
        """Right neighbour."""
        return (city - 1) % len(self.cities)

    def controller(self, city: int) -> int:
        """The seat that decides for ``city``."""
        return city if city < self.players else self.fc_ctrl

    def hand_of(self, city: int) -> list[str]:
        """The hand ``city`` plays from this step."""
        if city < self.players:
            return self.hands[city]
        if self.step == "babylon":
            return self.fc_pile
        return self.hands[self.fc_ctrl]

    def team(self, city: int) -> int:
        """Team number in the team variant (teammates sit side by side: 0-1, 2-3, ...)."""
        return city // 2

    def clone(self) -> State:
        """Fast independent copy."""
        return State(
            players=self.players,
            cities_opt=self.cities_opt,
            side_opt=self.side_opt,
            teams=self.teams,
            hand_size=self.hand_size,
            cities=[c.copy() for c in self.cities],
            hands=[list(h) for h in self.hands],
            decks=[list(d) for d in self.decks],
            rng=Rng(self.rng.state),
            fc_pile=list(self.fc_pile),
            fc_ctrl=self.fc_ctrl,
            age=self.age,
            turn=self.turn,
            step=self.step,
            discard=list(self.discard),
            unused=list(self.unused),
            pending=dict(self.pending),
            babylon=list(self.babylon),
            hali=list(self.hali),
            losses=list(self.losses),
            owed=dict(self.owed),
            reveal=self.reveal,
            recent=list(self.recent),  # entries are never mutated after creation
        )


def dump_state(s: State) -> dict[str, Any]:
    """JSON-able form of the state."""
    return {
        "players": s.players,
        "options": {"cities": s.cities_opt, "side": s.side_opt, "teams": s.teams},
        "hand_size": s.hand_size,
        "cities": [c.to_json() for c in s.cities],
        "hands": [list(h) for h in s.hands],
        "decks": [list(d) for d in s.decks],
        "rng": s.rng.state,
        "fc_pile": list(s.fc_pile),
        "fc_ctrl": s.fc_ctrl,
        "age": s.age,
        "turn": s.turn,
        "step": s.step,
        "discard": list(s.discard),
        "unused": list(s.unused),
        "pending": {str(k): v.to_json() for k, v in sorted(s.pending.items())},
        "babylon": list(s.babylon),
        "hali": list(s.hali),
        "losses": [list(x) for x in s.losses],
        "owed": {str(k): v for k, v in sorted(s.owed.items())},
        "reveal": s.reveal,
        "recent": [dict(r) for r in s.recent],
    }


def load_state(raw: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`."""
    opts = raw["options"]
    return State(
        players=int(raw["players"]),
        cities_opt=bool(opts["cities"]),
        side_opt=str(opts["side"]),
        teams=bool(opts["teams"]),
        hand_size=int(raw["hand_size"]),
        cities=[City.from_json(c) for c in raw["cities"]],
        hands=[[str(x) for x in h] for h in raw["hands"]],
        decks=[[str(x) for x in d] for d in raw["decks"]],
        rng=Rng(int(raw["rng"])),
        fc_pile=[str(x) for x in raw["fc_pile"]],
        fc_ctrl=int(raw["fc_ctrl"]),
        age=int(raw["age"]),
        turn=int(raw["turn"]),
        step=str(raw["step"]),
        discard=[str(x) for x in raw["discard"]],
        unused=[str(x) for x in raw["unused"]],
        pending={int(k): Action.from_json(v) for k, v in raw["pending"].items()},
        babylon=[int(x) for x in raw["babylon"]],
        hali=[int(x) for x in raw["hali"]],
        losses=[(int(a), str(b), int(c)) for a, b, c in raw["losses"]],
        owed={int(k): int(v) for k, v in raw["owed"].items()},
        reveal=int(raw["reveal"]),
        recent=[dict(r) for r in raw["recent"]],
    )
