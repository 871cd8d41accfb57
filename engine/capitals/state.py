"""The state of a game of The Capitals (spec §4), its copy and its JSON form.

Why plain dataclasses with a hand-written copy and dump: the state is cloned on every
``apply`` and dumped on every step of the playouts, and it must round-trip byte for byte
(the RNG is one integer inside it). Cells are ``(x, y)`` tuples in memory and ``"x,y"``
strings in JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.rng import Rng

Cell = tuple[int, int]

NEUTRAL = -1
"""Owner id of the two-player neutral's tourist."""

PHASES = ("political", "building", "execution", "relocate", "prosperity", "over")


def cell_key(c: Cell) -> str:
    """``(1, -2)`` -> ``"1,-2"`` for JSON."""
    return f"{c[0]},{c[1]}"


def parse_cell_key(k: str) -> Cell:
    """Inverse of :func:`cell_key`."""
    a, b = k.split(",")
    return (int(a), int(b))


@dataclass(slots=True)
class Placed:
    """A tile in a city grid: the tile id, whether it lies lake side up, and the energy cubes
    placed on it (cleared at each Evaluation)."""

    tile: str
    lake: bool = False
    cubes: int = 0
    round: int = 0
    """Round in which it was built (0: setup), for the last-turn highlight."""

    def copy(self) -> Placed:
        """Independent copy."""
        return Placed(self.tile, self.lake, self.cubes, self.round)

    def to_json(self) -> dict[str, Any]:
        """Compact JSON."""
        return {"tile": self.tile, "lake": self.lake, "cubes": self.cubes, "round": self.round}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Placed:
        """Inverse of :meth:`to_json`."""
        return cls(str(raw["tile"]), bool(raw["lake"]), int(raw["cubes"]), int(raw["round"]))


@dataclass(slots=True)
class Tourist:
    """A tourist marker: whose it is, in which city it is, on which tile (``None``: beside
    the city), and whether it has paid for an activation in this Execution phase."""

    owner: int
    city: int
    cell: Cell | None = None
    moved: bool = False

    def copy(self) -> Tourist:
        """Independent copy."""
        return Tourist(self.owner, self.city, self.cell, self.moved)

    def to_json(self) -> dict[str, Any]:
        """Compact JSON."""
        return {
            "owner": self.owner,
            "city": self.city,
            "cell": None if self.cell is None else cell_key(self.cell),
            "moved": self.moved,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Tourist:
        """Inverse of :meth:`to_json`."""
        cell = raw.get("cell")
        return cls(int(raw["owner"]), int(raw["city"]), None if cell is None else parse_cell_key(cell),
                   bool(raw["moved"]))


@dataclass(slots=True)
class Player:
    """One city: tracks, prestige, power station, grid, construction markers, prosperity hand
    and Start-track position."""

    tracks: dict[str, int]
    """POP, LAB, PS, ECO, CUL levels (Progress is ``prg``)."""
    prg: int = 0
    """Space on the Progress loop."""
    laps: int = 0
    """Times the Progress marker reached or passed the upgrade symbol."""
    pre: int = 0
    station: str = ""
    level: int = 1
    nrg: int = 0
    """Energy cubes on the station."""
    city: dict[Cell, Placed] = field(default_factory=dict)
    markers: list[Cell] = field(default_factory=list)
    """Construction markers as vertices (the top-left corner of the named cell)."""
    hand: list[str] = field(default_factory=list)
    """Prosperity tiles in hand (hidden)."""
    pos: int = 0
    """Start-track position 1..5 (the upper half: this round's)."""
    old: int = 0
    """Lower half during the Political phase (last round's position), else 0."""
    loans: int = 0
    final: dict[str, int] = field(default_factory=dict)
    """Final-scoring breakdown once the game is over."""

    def copy(self) -> Player:
        """Independent copy."""
        return Player(
            tracks=dict(self.tracks),
            prg=self.prg,
            laps=self.laps,
            pre=self.pre,
            station=self.station,
            level=self.level,
            nrg=self.nrg,
            city={c: t.copy() for c, t in self.city.items()},
            markers=list(self.markers),
            hand=list(self.hand),
            pos=self.pos,
            old=self.old,
            loans=self.loans,
            final=dict(self.final),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON form (cells sorted so the text is canonical)."""
        return {
            "tracks": dict(self.tracks),
            "prg": self.prg,
            "laps": self.laps,
            "pre": self.pre,
            "station": self.station,
            "level": self.level,
            "nrg": self.nrg,
            "city": {cell_key(c): self.city[c].to_json() for c in sorted(self.city)},
            "markers": [cell_key(m) for m in self.markers],
            "hand": list(self.hand),
            "pos": self.pos,
            "old": self.old,
            "loans": self.loans,
            "final": dict(self.final),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Player:
        """Inverse of :meth:`to_json`."""
        return cls(
            tracks={str(k): int(v) for k, v in raw["tracks"].items()},
            prg=int(raw["prg"]),
            laps=int(raw["laps"]),
            pre=int(raw["pre"]),
            station=str(raw["station"]),
            level=int(raw["level"]),
            nrg=int(raw["nrg"]),
            city={parse_cell_key(k): Placed.from_json(v) for k, v in raw["city"].items()},
            markers=[parse_cell_key(m) for m in raw["markers"]],
            hand=[str(x) for x in raw["hand"]],
            pos=int(raw["pos"]),
            old=int(raw["old"]),
            loans=int(raw["loans"]),
            final={str(k): int(v) for k, v in raw["final"].items()},
        )


@dataclass(slots=True)
class State:
    """The whole game.

    ``order``/``turn`` name the seat whose decision is awaited in the current phase; phases
    without decisions (Tourism, the automatic parts of Management, Evaluations) run inside
    :func:`engine.capitals.flow.advance`.
    """

    n: int
    options: dict[str, Any]
    rng: Rng
    players: list[Player]
    round: int = 1
    phase: str = "building"
    order: list[int] = field(default_factory=list)
    turn: int = 0
    decks: dict[int, list[str]] = field(default_factory=dict)
    """Undrawn stacks by era (hidden order)."""
    box: list[str] = field(default_factory=list)
    """Tiles out of play: trimmed, undrawn leftovers, fallen off the $4 row, unused hands."""
    rows: list[list[str]] = field(default_factory=lambda: [[], [], []])
    """Projects area: the $0, $2 and $4 rows."""
    supply: dict[int, list[str]] = field(default_factory=dict)
    """Remaining power stations by level, best first."""
    spent_stations: list[str] = field(default_factory=list)
    """Stations given back to the box after an upgrade."""
    tourists: list[Tourist] = field(default_factory=list)
    hc: int | None = None
    """Holder of the Highest Culture marker."""
    neutral_cul: int | None = None
    """Culture of the two-player neutral (``None`` with 3-5 players)."""
    acts: int = 0
    """Activations done by the seat whose Execution turn it is."""
    relocating: int = -1
    """Index of the construction marker being relocated (phase ``relocate``)."""
    pending_eval: bool = False
    recent: list[dict[str, Any]] = field(default_factory=list)
    """Public summary of what changed in the last turn, for the highlight in images."""
    history: list[str] = field(default_factory=list)
    """Public one-line log of the game (the last lines are shown)."""

    @property
    def era(self) -> int:
        """Era of the current round (1..3)."""
        return min(3, (self.round - 1) // 4 + 1)

    @property
    def current(self) -> int | None:
        """The seat whose decision is awaited, or ``None``."""
        if self.phase == "over" or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]

    def start_order(self) -> list[int]:
        """Seats by Start-track position, P1 first."""
        return sorted(range(self.n), key=lambda s: self.players[s].pos)

    def clone(self) -> State:
        """Fast independent copy."""
        return State(
            n=self.n,
            options=dict(self.options),
            rng=Rng(self.rng.state),
            players=[p.copy() for p in self.players],
            round=self.round,
            phase=self.phase,
            order=list(self.order),
            turn=self.turn,
            decks={k: list(v) for k, v in self.decks.items()},
            box=list(self.box),
            rows=[list(r) for r in self.rows],
            supply={k: list(v) for k, v in self.supply.items()},
            spent_stations=list(self.spent_stations),
            tourists=[t.copy() for t in self.tourists],
            hc=self.hc,
            neutral_cul=self.neutral_cul,
            acts=self.acts,
            relocating=self.relocating,
            pending_eval=self.pending_eval,
            recent=list(self.recent),
            history=list(self.history),
        )


def dump_state(s: State) -> dict[str, Any]:
    """JSON-able form of the state."""
    return {
        "n": s.n,
        "options": dict(s.options),
        "rng": s.rng.state,
        "players": [p.to_json() for p in s.players],
        "round": s.round,
        "phase": s.phase,
        "order": list(s.order),
        "turn": s.turn,
        "decks": {str(k): list(v) for k, v in sorted(s.decks.items())},
        "box": list(s.box),
        "rows": [list(r) for r in s.rows],
        "supply": {str(k): list(v) for k, v in sorted(s.supply.items())},
        "spent_stations": list(s.spent_stations),
        "tourists": [t.to_json() for t in s.tourists],
        "hc": s.hc,
        "neutral_cul": s.neutral_cul,
        "acts": s.acts,
        "relocating": s.relocating,
        "pending_eval": s.pending_eval,
        "recent": [dict(r) for r in s.recent],
        "history": list(s.history),
    }


def load_state(raw: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`."""
    return State(
        n=int(raw["n"]),
        options=dict(raw["options"]),
        rng=Rng(int(raw["rng"])),
        players=[Player.from_json(p) for p in raw["players"]],
        round=int(raw["round"]),
        phase=str(raw["phase"]),
        order=[int(x) for x in raw["order"]],
        turn=int(raw["turn"]),
        decks={int(k): [str(x) for x in v] for k, v in raw["decks"].items()},
        box=[str(x) for x in raw["box"]],
        rows=[[str(x) for x in r] for r in raw["rows"]],
        supply={int(k): [str(x) for x in v] for k, v in raw["supply"].items()},
        spent_stations=[str(x) for x in raw["spent_stations"]],
        tourists=[Tourist.from_json(t) for t in raw["tourists"]],
        hc=None if raw["hc"] is None else int(raw["hc"]),
        neutral_cul=None if raw["neutral_cul"] is None else int(raw["neutral_cul"]),
        acts=int(raw["acts"]),
        relocating=int(raw["relocating"]),
        pending_eval=bool(raw["pending_eval"]),
        recent=[dict(r) for r in raw["recent"]],
        history=[str(x) for x in raw["history"]],
    )
