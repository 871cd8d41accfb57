"""The game state: plain mutable dataclasses with a hand-written copy and JSON form.

Why parallel lists indexed by region number instead of nested objects: ``apply`` copies the
whole state every time (the input is never mutated), and copying a handful of flat lists is an
order of magnitude faster than ``deepcopy`` of region objects; region ids appear only at the
edges (notation, view, JSON), where readability matters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.rng import Rng
from engine.duellum.data import MAPS, MapData

PHASE_RONDEL = "rondel"
PHASE_ACTION = "action"
PHASE_MOVE = "move"
PHASE_CONQUER = "conquer"
PHASE_FORTRESS = "fortress"
PHASE_LOSSES = "losses"
PHASE_FOUNDING = "founding"
PHASE_OVER = "over"

FORTRESS_POLICIES: tuple[str, ...] = ("ASK", "AUTO_FIRST_CONQUEST", "NEVER")

SPECIAL_NONE = -2
SPECIAL_BOX = -1


@dataclass(slots=True)
class Config:
    """Options fixed at setup (the spec's configuration flags and the variant)."""

    map_id: str = "rome-carthage"
    special_units: bool = False
    navigator_counts_coastal: bool = False
    duellum_to_duellum_allowed: bool = True
    fortress_policy: str = "ASK"


@dataclass(slots=True)
class Player:
    """One nation. ``res`` is [marble, iron, gold, coins]; ``box``/``supply`` are [legions, galleys]."""

    res: list[int]
    box: list[int]
    supply: list[int]
    walls: int
    techs: dict[str, int]
    pers: list[int]
    stone: int = -1
    hand: list[str] = field(default_factory=list)
    owed: int = 0
    special: int = SPECIAL_NONE

    def copy(self) -> Player:
        """An independent copy."""
        return Player(
            self.res[:],
            self.box[:],
            self.supply[:],
            self.walls,
            dict(self.techs),
            self.pers[:],
            self.stone,
            self.hand[:],
            self.owed,
            self.special,
        )

    @property
    def vp(self) -> int:
        """Personalities held (the VP track)."""
        return sum(self.pers)


@dataclass(slots=True)
class Conquest:
    """A declared conquest waiting for the defender's Fortress decision or the attacker's losses."""

    region: int
    card: str = ""
    fortress: int = 0


@dataclass(slots=True)
class TurnRecord:
    """What one turn changed, for ``view["last_turn"]`` highlights."""

    seat: int = -1
    regions: list[int] = field(default_factory=list)
    rondel_from: int = -2
    rondel_to: int = -2
    summary: list[str] = field(default_factory=list)

    def copy(self) -> TurnRecord:
        """An independent copy."""
        return TurnRecord(self.seat, self.regions[:], self.rondel_from, self.rondel_to, self.summary[:])


@dataclass(slots=True)
class State:
    """The whole game. Per-turn bookkeeping is cleared by :func:`engine.duellum.turn.start_turn`."""

    config: Config
    rng: Rng
    players: list[Player]
    owner: list[int]
    cres: list[int]
    temple: list[bool]
    wall: list[bool]
    units: list[list[list[int]]]
    bank_coins: int
    bank_temples: int
    bank_walls: int
    bank_tokens: list[int]
    bank_pers: list[int]
    draw: list[str]
    row: list[str]
    discard: list[str]
    turn: int = 1
    active: int = 0
    start_player: int = 0
    phase: str = PHASE_RONDEL
    action: int = -1
    coin_choice: bool = False
    deployable: list[int] = field(default_factory=lambda: [0, 0])
    special_deployable: list[bool] = field(default_factory=lambda: [False, False])
    deployed: dict[int, int] = field(default_factory=dict)
    moved: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])
    special_moved: bool = False
    boosts: list[tuple[int, int, int]] = field(default_factory=list)
    saved: list[int] = field(default_factory=list)
    conquered: list[int] = field(default_factory=list)
    declared: int = 0
    temples_destroyed: int = 0
    scholars: int = 0
    lost_city: list[bool] = field(default_factory=lambda: [False, False])
    mods: dict[str, int] = field(default_factory=dict)
    pending: Conquest | None = None
    winner: int = -1
    record: TurnRecord = field(default_factory=TurnRecord)
    prev_record: TurnRecord = field(default_factory=TurnRecord)
    map: MapData = field(init=False, repr=False, compare=False)
    legal_cache: dict[int, list[Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.map = MAPS[self.config.map_id]
        self.legal_cache = {}

    def touch(self) -> None:
        """Forget cached legal actions (call after changing a state in place, e.g. in tests).

        States are values: the engine never changes a state it has handed out, so the legal
        actions of a state are computed once per seat and reused by ``parse``, ``is_legal`` and
        the automatic player.
        """
        self.legal_cache = {}

    def copy(self) -> State:
        """A fast, fully independent copy (used by ``clone``)."""
        c = self.config
        p = self.pending
        return State(
            Config(
                c.map_id, c.special_units, c.navigator_counts_coastal, c.duellum_to_duellum_allowed, c.fortress_policy
            ),
            Rng(self.rng.state),
            [pl.copy() for pl in self.players],
            self.owner[:],
            self.cres[:],
            self.temple[:],
            self.wall[:],
            [[u[:] for u in pu] for pu in self.units],
            self.bank_coins,
            self.bank_temples,
            self.bank_walls,
            self.bank_tokens[:],
            self.bank_pers[:],
            self.draw[:],
            self.row[:],
            self.discard[:],
            self.turn,
            self.active,
            self.start_player,
            self.phase,
            self.action,
            self.coin_choice,
            self.deployable[:],
            self.special_deployable[:],
            dict(self.deployed),
            [dict(self.moved[0]), dict(self.moved[1])],
            self.special_moved,
            self.boosts[:],
            self.saved[:],
            self.conquered[:],
            self.declared,
            self.temples_destroyed,
            self.scholars,
            self.lost_city[:],
            dict(self.mods),
            None if p is None else Conquest(p.region, p.card, p.fortress),
            self.winner,
            self.record.copy(),
            self.prev_record.copy(),
        )

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """JSON-able form; regions by id so saves survive re-ordered data files."""
        m = self.map
        ids = m.ids

        def rec(r: TurnRecord) -> dict[str, Any]:
            return {
                "seat": r.seat,
                "regions": [ids[i] for i in r.regions],
                "rondel_from": r.rondel_from,
                "rondel_to": r.rondel_to,
                "summary": list(r.summary),
            }

        return {
            "config": {
                "map": self.config.map_id,
                "special_units": self.config.special_units,
                "navigator_counts_coastal": self.config.navigator_counts_coastal,
                "duellum_to_duellum_allowed": self.config.duellum_to_duellum_allowed,
                "fortress_policy": self.config.fortress_policy,
            },
            "rng": self.rng.state,
            "players": [
                {
                    "res": list(p.res),
                    "box": list(p.box),
                    "supply": list(p.supply),
                    "walls": p.walls,
                    "techs": dict(p.techs),
                    "pers": list(p.pers),
                    "stone": p.stone,
                    "hand": list(p.hand),
                    "owed": p.owed,
                    "special": ids[p.special] if p.special >= 0 else p.special,
                }
                for p in self.players
            ],
            "cities": {
                ids[i]: [self.owner[i], self.cres[i], self.temple[i], self.wall[i]]
                for i in range(m.size)
                if self.owner[i] >= 0
            },
            "units": [[{ids[i]: n for i, n in enumerate(u) if n} for u in pu] for pu in self.units],
            "bank": {
                "coins": self.bank_coins,
                "temples": self.bank_temples,
                "walls": self.bank_walls,
                "tokens": list(self.bank_tokens),
                "pers": list(self.bank_pers),
            },
            "deck": {"draw": list(self.draw), "row": list(self.row), "discard": list(self.discard)},
            "turn": {
                "turn": self.turn,
                "active": self.active,
                "start_player": self.start_player,
                "phase": self.phase,
                "action": self.action,
                "coin_choice": self.coin_choice,
                "deployable": list(self.deployable),
                "special_deployable": list(self.special_deployable),
                "deployed": {ids[k]: v for k, v in sorted(self.deployed.items())},
                "moved": [{ids[k]: v for k, v in sorted(d.items())} for d in self.moved],
                "special_moved": self.special_moved,
                "boosts": [[t, ids[r], x] for t, r, x in self.boosts],
                "saved": [ids[i] for i in self.saved],
                "conquered": [ids[i] for i in self.conquered],
                "declared": self.declared,
                "temples_destroyed": self.temples_destroyed,
                "scholars": self.scholars,
                "lost_city": list(self.lost_city),
                "mods": dict(sorted(self.mods.items())),
                "pending": None
                if self.pending is None
                else [ids[self.pending.region], self.pending.card, self.pending.fortress],
                "winner": self.winner,
            },
            "record": rec(self.record),
            "prev_record": rec(self.prev_record),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Inverse of :meth:`to_json` (raises ``KeyError``/``ValueError`` on damaged data)."""
        cfg = data["config"]
        config = Config(
            str(cfg["map"]),
            bool(cfg["special_units"]),
            bool(cfg["navigator_counts_coastal"]),
            bool(cfg["duellum_to_duellum_allowed"]),
            str(cfg["fortress_policy"]),
        )
        if config.map_id not in MAPS or config.fortress_policy not in FORTRESS_POLICIES:
            raise ValueError("unknown map or policy")
        m = MAPS[config.map_id]
        idx = m.index
        n = m.size

        def region(v: Any) -> int:
            if isinstance(v, int):
                return v
            return idx[str(v)]

        def rec(r: Mapping[str, Any]) -> TurnRecord:
            return TurnRecord(
                int(r["seat"]),
                [idx[x] for x in r["regions"]],
                int(r["rondel_from"]),
                int(r["rondel_to"]),
                [str(s) for s in r["summary"]],
            )

        players = [
            Player(
                [int(x) for x in p["res"]],
                [int(x) for x in p["box"]],
                [int(x) for x in p["supply"]],
                int(p["walls"]),
                {str(k): int(v) for k, v in p["techs"].items()},
                [int(x) for x in p["pers"]],
                int(p["stone"]),
                [str(c) for c in p["hand"]],
                int(p["owed"]),
                region(p["special"]),
            )
            for p in data["players"]
        ]
        owner = [-1] * n
        cres = [-1] * n
        temple = [False] * n
        wall = [False] * n
        for rid, (o, r, t, w) in data["cities"].items():
            i = idx[rid]
            owner[i], cres[i], temple[i], wall[i] = int(o), int(r), bool(t), bool(w)
        units = [[[0] * n for _ in range(2)] for _ in range(2)]
        for p, pu in enumerate(data["units"]):
            for t, u in enumerate(pu):
                for rid, k in u.items():
                    units[p][t][idx[rid]] = int(k)
        bank = data["bank"]
        deck = data["deck"]
        tn = data["turn"]
        pend = tn["pending"]
        return cls(
            config=config,
            rng=Rng(int(data["rng"])),
            players=players,
            owner=owner,
            cres=cres,
            temple=temple,
            wall=wall,
            units=units,
            bank_coins=int(bank["coins"]),
            bank_temples=int(bank["temples"]),
            bank_walls=int(bank["walls"]),
            bank_tokens=[int(x) for x in bank["tokens"]],
            bank_pers=[int(x) for x in bank["pers"]],
            draw=[str(c) for c in deck["draw"]],
            row=[str(c) for c in deck["row"]],
            discard=[str(c) for c in deck["discard"]],
            turn=int(tn["turn"]),
            active=int(tn["active"]),
            start_player=int(tn["start_player"]),
            phase=str(tn["phase"]),
            action=int(tn["action"]),
            coin_choice=bool(tn["coin_choice"]),
            deployable=[int(x) for x in tn["deployable"]],
            special_deployable=[bool(x) for x in tn["special_deployable"]],
            deployed={idx[k]: int(v) for k, v in tn["deployed"].items()},
            moved=[{idx[k]: int(v) for k, v in d.items()} for d in tn["moved"]],
            special_moved=bool(tn["special_moved"]),
            boosts=[(int(t), idx[r], int(x)) for t, r, x in tn["boosts"]],
            saved=[idx[x] for x in tn["saved"]],
            conquered=[idx[x] for x in tn["conquered"]],
            declared=int(tn["declared"]),
            temples_destroyed=int(tn["temples_destroyed"]),
            scholars=int(tn["scholars"]),
            lost_city=[bool(x) for x in tn["lost_city"]],
            mods={str(k): int(v) for k, v in tn["mods"].items()},
            pending=None if pend is None else Conquest(idx[pend[0]], str(pend[1]), int(pend[2])),
            winner=int(tn["winner"]),
            record=rec(data["record"]),
            prev_record=rec(data["prev_record"]),
        )
