"""Tiles, power stations and board constants of The Capitals, loaded from the JSON files here.

Why data files with a small effect notation: most Era II/III, station and prosperity values
are stand-ins (data file, tag S). Keeping every value in JSON, written in the data file's own
notation (``PRG+1``, ``adj(IND): POP+1``, ``pay ECO-12 -> CUL+9``), means a printed value can
replace a stand-in by editing one line; the rules code only sees the typed records parsed and
validated here. The only file access of the engine is the ``importlib.resources`` read below.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

TRACKS = ("POP", "LAB", "PS", "PRG", "ECO", "CUL")
"""The six city tracks in the canonical batch order (POP before LAB, D-20)."""
GAINS = (*TRACKS, "PRE", "NRG")
"""Everything an effect can change: the tracks, prestige and cubes on the station."""
TYPES = ("RES", "IND", "COM", "TOU", "PUB", "PRO")
BUILDING_TYPES = ("RES", "IND", "COM", "TOU", "PUB")
TYPE_WORDS = {
    "RES": "residential",
    "IND": "industry",
    "COM": "commerce",
    "TOU": "tourism",
    "PUB": "public",
    "PRO": "prosperity",
}
TRACK_WORDS = {
    "POP": "Population",
    "LAB": "Labour",
    "PS": "Public Services",
    "PRG": "Progress",
    "ECO": "money",
    "CUL": "Culture",
    "PRE": "prestige",
    "NRG": "energy cube",
}


@dataclass(frozen=True, slots=True)
class Delta:
    """``track`` moves by ``d`` (``PRE``/``NRG`` are prestige and station cubes)."""

    track: str
    d: int

    def text(self) -> str:
        """``PRG+1``-style text, as printed in the data file."""
        return f"{self.track}{self.d:+d}"


@dataclass(frozen=True, slots=True)
class Imm:
    """One immediate effect (spec §7.1): ``delta``, ``pay`` (mandatory payment for a gain),
    ``per`` (conditional: per ``n`` of track ``of``) or ``era`` (value by the build's era)."""

    kind: str
    gain: tuple[Delta, ...]
    cost: int = 0
    n: int = 0
    of: str = ""
    by_era: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class Cons:
    """A construction effect: per tile of ``type`` (``"new"``: per newly represented type)
    adjacent (``scope="adj"``) or anywhere in the city (``"city"``), with optional density."""

    scope: str
    type: str
    density: str | None
    gain: tuple[Delta, ...]


@dataclass(frozen=True, slots=True)
class Act:
    """An activation: ``printed`` cubes, a cost that must be paid in full, then the gain."""

    printed: int
    cost: tuple[Delta, ...]
    gain: tuple[Delta, ...]


@dataclass(frozen=True, slots=True)
class Perm:
    """A permanent trigger: ``adj_activated`` (optional type filter), ``activate`` (a tile of
    type ``filter`` is activated) or ``station_upgrade``."""

    on: str
    filter: str | None
    gain: tuple[Delta, ...]


@dataclass(frozen=True, slots=True)
class End:
    """An end-game effect: ``adj``/``city`` (per other tile of ``type``), ``eco`` (per ``n``
    money, not spent) or ``pre_eval`` (a gain at step 0 of the Era III Evaluation)."""

    kind: str
    type: str
    n: int
    gain: tuple[Delta, ...]


@dataclass(frozen=True, slots=True)
class Req:
    """A prosperity requirement (ties satisfy, D-24)."""

    kind: str
    of: tuple[str, ...]

    def text(self) -> str:
        """Player-facing wording."""
        if self.kind in ("MOST", "FEWEST"):
            what = "building tiles" if self.of == ("ALL",) else " and ".join(TYPE_WORDS[t] for t in self.of) + " tiles"
            return f"{'most' if self.kind == 'MOST' else 'fewest'} {what}"
        what = "power station level" if self.of == ("station",) else TRACK_WORDS[self.of[0]]
        return f"{'highest' if self.kind == 'HIGHEST' else 'lowest'} {what}"


@dataclass(frozen=True, slots=True)
class Tile:
    """A building tile (starting, era or prosperity)."""

    id: str
    name: str
    slug: str
    era: int
    """0 for starting tiles and prosperity tiles."""
    type: str
    density: str | None
    four_plus: bool
    imm: tuple[Imm, ...]
    cons: tuple[Cons, ...]
    act: Act | None
    perm: tuple[Perm, ...]
    end: tuple[End, ...]
    req: Req | None
    copies: int
    status: Any


@dataclass(frozen=True, slots=True)
class Station:
    """A power station: level, cubes placed when taken and activations per turn."""

    id: str
    name: str
    level: int
    cubes: int
    activations: int
    copies: int
    status: Any


@dataclass(frozen=True, slots=True)
class TrackDef:
    """Range, start space and end symbols of a city track."""

    min: int
    max: int
    start: int
    bottom: dict[str, int]
    top: dict[str, int]


@dataclass(frozen=True, slots=True)
class Position:
    """A Start-track position."""

    pos: int
    money: int
    mult: int
    icon: int | None


@dataclass(frozen=True, slots=True)
class Board:
    """Every board constant (data file §2)."""

    tracks: dict[str, TrackDef]
    prg_length: int
    prg_start: int
    labour_prestige: tuple[int, ...]
    ps_icons: dict[int, tuple[Delta, ...]]
    attraction: tuple[tuple[int, int, int], ...]
    """(level, culture needed, range) rows."""
    positions: tuple[Position, ...]
    political_positions: dict[int, int]
    setup_positions: dict[int, int]
    rounds: int
    per_era: int
    evaluations: tuple[int, ...]
    prosperity_rounds: tuple[int, ...]
    c: dict[str, Any]
    """Other constants by name (row costs, loan, penalties, bonuses)."""


_DELTA = re.compile(r"^(POP|LAB|PS|PRG|ECO|CUL|PRE|NRG)([+-]\d+)$")


def slugify(name: str) -> str:
    """``Museum of Industry`` -> ``museum-of-industry`` (one word for the notation)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def delta(text: str) -> Delta:
    """Parse ``PRG+1``."""
    m = _DELTA.match(text.strip())
    if not m:
        raise ValueError(f"bad delta {text!r}")
    return Delta(m.group(1), int(m.group(2)))


def deltas(texts: Any) -> tuple[Delta, ...]:
    """Parse a list of deltas (or a comma-joined string)."""
    if isinstance(texts, str):
        texts = [t for t in texts.split(",") if t.strip()]
    return tuple(delta(t) for t in texts)


def parse_imm(text: str) -> Imm:
    """Parse one immediate-effect string (data file §1)."""
    t = text.strip()
    if t.startswith("pay "):
        cost_s, gain_s = t[4:].split("->")
        cost = delta(cost_s)
        if cost.track != "ECO" or cost.d >= 0:
            raise ValueError(f"only money payments are known: {text!r}")
        return Imm("pay", deltas(gain_s), cost=-cost.d)
    m = re.match(r"^per (\d+) (POP|LAB|PS|ECO|CUL): (.+)$", t)
    if m:
        return Imm("per", deltas(m.group(3)), n=int(m.group(1)), of=m.group(2))
    m = re.match(r"^by era: (POP|LAB|PS|PRG|ECO|CUL|PRE|NRG)([+-]\d+)/([+-]\d+)/([+-]\d+)$", t)
    if m:
        vals = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        return Imm("era", (Delta(m.group(1), 0),), by_era=vals)
    return Imm("delta", (delta(t),))


def parse_cons(text: str) -> Cons:
    """Parse ``adj(IND): POP+1`` / ``city(RES high): CUL+3`` / ``adj(new type): LAB+1``."""
    m = re.match(r"^(adj|city)\(([A-Za-z ]+)\): (.+)$", text.strip())
    if not m:
        raise ValueError(f"bad construction effect {text!r}")
    what = m.group(2).split()
    if what == ["new", "type"]:
        typ, dens = "new", None
    else:
        typ, dens = what[0], (what[1] if len(what) > 1 else None)
        if typ not in TYPES or dens not in (None, "high", "med", "low"):
            raise ValueError(f"bad construction filter {text!r}")
    return Cons(m.group(1), typ, dens, deltas(m.group(3)))


def parse_perm(text: str) -> Perm:
    """Parse ``on adj-activated(COM): ECO+3`` and the other permanent triggers."""
    m = re.match(r"^on (adj-activated|activate|station-upgrade)(?:\((\w+)\))?: (.+)$", text.strip())
    if not m:
        raise ValueError(f"bad permanent effect {text!r}")
    on = m.group(1).replace("-", "_")
    filt = m.group(2)
    if filt is not None and filt not in TYPES:
        raise ValueError(f"bad permanent filter {text!r}")
    if on == "activate" and filt is None:
        raise ValueError(f"on activate needs a type: {text!r}")
    return Perm(on, filt, deltas(m.group(3)))


def parse_end(text: str) -> End:
    """Parse ``PRE+1 per adj(RES)``, ``PRE+1 per city(IND)``, ``PRE+1 per 5 ECO``, ``pre-eval: LAB+3``."""
    t = text.strip()
    if t.startswith("pre-eval:"):
        return End("pre_eval", "", 0, deltas(t[len("pre-eval:") :]))
    m = re.match(r"^(\S+) per (adj|city)\((\w+)\)$", t)
    if m and m.group(3) in TYPES:
        return End(m.group(2), m.group(3), 1, (delta(m.group(1)),))
    m = re.match(r"^(\S+) per (\d+) ECO$", t)
    if m:
        return End("eco", "", int(m.group(2)), (delta(m.group(1)),))
    raise ValueError(f"bad end-game effect {text!r}")


def parse_req(text: str) -> Req:
    """Parse ``MOST(IND+COM)``, ``HIGHEST(station)`` and the like."""
    m = re.match(r"^(MOST|FEWEST|HIGHEST|LOWEST)\(([\w+]+)\)$", text.strip())
    if not m:
        raise ValueError(f"bad requirement {text!r}")
    kind, of = m.group(1), tuple(m.group(2).split("+"))
    if kind in ("MOST", "FEWEST"):
        if of != ("ALL",) and not all(t in BUILDING_TYPES for t in of):
            raise ValueError(f"bad requirement types {text!r}")
    elif len(of) != 1 or (of[0] not in TRACKS and of[0] != "station"):
        raise ValueError(f"bad requirement track {text!r}")
    return Req(kind, of)


def _tile(raw: dict[str, Any], *, era: int, typ: str | None = None) -> Tile:
    act_raw = raw.get("act")
    act = None
    if act_raw is not None:
        act = Act(int(act_raw["printed"]), deltas(act_raw.get("cost", [])), deltas(act_raw["gain"]))
        if any(c.d >= 0 for c in act.cost) or any(g.d <= 0 for g in act.gain):
            raise ValueError(f"activation costs must be negative and gains positive: {raw['id']}")
    kind = typ or str(raw["type"])
    if kind not in TYPES:
        raise ValueError(f"bad type in {raw['id']}")
    players = raw.get("players", "all")
    if players not in ("all", "4+"):
        raise ValueError(f"bad players in {raw['id']}")
    return Tile(
        id=str(raw["id"]),
        name=str(raw["name"]),
        slug=slugify(str(raw["name"])),
        era=era,
        type=kind,
        density=raw.get("density"),
        four_plus=players == "4+",
        imm=tuple(parse_imm(t) for t in raw.get("imm", [])),
        cons=tuple(parse_cons(t) for t in raw.get("cons", [])),
        act=act,
        perm=tuple(parse_perm(t) for t in raw.get("perm", [])),
        end=tuple(parse_end(t) for t in raw.get("end", [])),
        req=parse_req(raw["req"]) if "req" in raw else None,
        copies=int(raw.get("copies", 1)),
        status=raw.get("status"),
    )


def read_json(name: str) -> Any:
    """One data file of this package, parsed."""
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


def build_board(raw: dict[str, Any]) -> Board:
    """Typed board constants from ``board.json``."""
    tracks = {
        k: TrackDef(int(v["min"]), int(v["max"]), int(v["start"]), dict(v["bottom"]), dict(v["top"]))
        for k, v in raw["tracks"].items()
    }
    st = raw["start_track"]
    return Board(
        tracks=tracks,
        prg_length=int(raw["progress"]["length"]),
        prg_start=int(raw["progress"]["start"]),
        labour_prestige=tuple(int(x) for x in raw["labour_prestige"]["values"]),
        ps_icons={int(k): deltas(v) for k, v in raw["ps_icons"]["levels"].items()},
        attraction=tuple((int(a["level"]), int(a["culture"]), int(a["range"])) for a in raw["attraction"]["levels"]),
        positions=tuple(Position(int(p["pos"]), int(p["money"]), int(p["mult"]), p["icon"]) for p in st["positions"]),
        political_positions={int(k): int(v) for k, v in st["political_positions"].items() if k.isdigit()},
        setup_positions={int(k): int(v) for k, v in st["setup_positions"].items() if k.isdigit()},
        rounds=int(raw["rounds"]["count"]),
        per_era=int(raw["rounds"]["per_era"]),
        evaluations=tuple(int(x) for x in raw["rounds"]["evaluations"]),
        prosperity_rounds=tuple(int(x) for x in raw["rounds"]["prosperity"]),
        c=dict(raw["constants"]),
    )


def build_tiles(raw: dict[str, Any], pros: dict[str, Any]) -> dict[str, Tile]:
    """Every tile by id: starting, era and prosperity tiles."""
    out: dict[str, Tile] = {}
    for r in raw["starting"]:
        out[r["id"]] = _tile(r, era=0)
    for r in raw["era"]:
        out[r["id"]] = _tile(r, era=int(r["era"]))
    for r in pros["tiles"]:
        out[r["id"]] = _tile(r, era=0, typ="PRO")
    slugs = [t.slug for t in out.values()]
    if len(set(slugs)) != len(slugs):
        raise ValueError("two tiles share a name")
    return out


def build_stations(raw: dict[str, Any]) -> dict[str, Station]:
    """Every power station by id."""
    return {
        s["id"]: Station(s["id"], s["name"], int(s["level"]), int(s["cubes"]), int(s["activations"]),
                         int(s.get("copies", 1)), s.get("status"))
        for s in raw["stations"]
    }


BOARD = build_board(read_json("board.json"))
TILES = build_tiles(read_json("tiles.json"), read_json("prosperity.json"))
STATIONS = build_stations(read_json("stations.json"))
BY_SLUG = {t.slug: t for t in TILES.values()}
ERA_TILES = {e: tuple(t.id for t in TILES.values() if t.era == e) for e in (1, 2, 3)}
PROSPERITY = tuple(t.id for t in TILES.values() if t.type == "PRO")
STATION_LEVELS = {
    lvl: tuple(sorted((s.id for s in STATIONS.values() if s.level == lvl), key=lambda i: (-STATIONS[i].cubes, i)))
    for lvl in sorted({s.level for s in STATIONS.values()})
}
MAX_STATION_LEVEL = max(STATION_LEVELS)
HOTEL = "S-HOT"
CITY_HALL = "S-HAL"
START_STATION = "S-PWR"
LAKE = "LAKE"
