"""The parts of a Duellum view the drawing code needs, read once into small typed records.

Why a separate reading step: the static map geometry (regions, borders, rondel spaces) is
the cache key of the map base, and owners' colours/letters are used by every piece; reading
them once keeps the drawing functions short and the public/private split explicit (nothing
here reads the viewer's hand).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from renderer.base import RGB, ink_on, player_fill
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_opt_int, as_str, str_list

# Rules §6.1 (decision D-01), used when a view lacks ``rondel_spaces``.
DEFAULT_RONDEL: tuple[str, ...] = ("FERRUM", "TEMPLUM", "AURUM", "DUELLUM", "MILITIA", "MARMOR", "SCIENTIA", "DUELLUM")
TECHS: tuple[str, ...] = ("STRATA", "NAVIGATIO", "MONETA", "RES PUBLICA", "COMMERCIUM")
PERSONALITIES: tuple[str, ...] = ("king", "scholar", "general", "navigator", "citizen")
WIN_PERSONALITIES = 9
NAVIGATOR_STEP = 7
MAP_SCALE = 0.75  # the data file's 1600 x 1000 map is drawn 1200 x 750 (see renderer.duellum)


@dataclass(frozen=True, slots=True)
class Owner:
    """How one seat is drawn: its nation name, fill colour, text colour on it and its letter."""

    seat: int
    name: str
    colour: str
    fill: RGB
    ink: RGB
    letter: str


@dataclass(frozen=True, slots=True)
class Region:
    """Static facts of one region (part of the map-base cache key)."""

    id: str
    name: str
    kind: str
    city_site: bool
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything static about a board: regions, borders and the rondel's spaces."""

    regions: tuple[Region, ...]
    borders: tuple[tuple[str, str, str], ...]
    rondel: tuple[str, ...]

    digest: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hash((self.regions, self.borders, self.rondel)))

    def __hash__(self) -> int:
        """The contents' hash, computed once: it is part of the map base's cache key looked up
        for every board, and hashing ~40 regions and ~90 borders each time took ~0.3 ms."""
        return self.digest


_GEOMETRIES: dict[Hashable, Geometry] = {}
_GEOMETRIES_MAX = 16  # maps in use at once: two sides, and a test's variants
_GEOMETRIES_LOCK = threading.Lock()


def geometry(view: Mapping[str, Any]) -> Geometry:
    """The static part of ``view`` (hashable: used as part of the base-layer cache key).

    Remembered by the raw values it is read from: reading and hashing the records took
    ~0.9 ms of every Duellum board, while gathering the raw values into a tuple takes a
    tenth of that (a view with values that cannot be hashed is simply read every time).
    """
    regions = [as_map(item) for item in as_list(view.get("regions"))]
    borders = [as_map(item) for item in as_list(view.get("borders"))]
    raw = (
        tuple((r.get("id"), r.get("name"), r.get("kind"), r.get("city_site"), r.get("x"), r.get("y")) for r in regions),
        tuple((b.get("a"), b.get("b"), b.get("colour")) for b in borders),
        view.get("rondel_spaces"),
    )
    try:
        key: Hashable = (raw[0], raw[1], tuple(raw[2]) if isinstance(raw[2], list) else raw[2])
        found = _GEOMETRIES.get(key)
    except TypeError:  # an unhashable value somewhere: no memo for this view
        return _read_geometry(view)
    if found is None:
        found = _read_geometry(view)
        with _GEOMETRIES_LOCK:
            while len(_GEOMETRIES) >= _GEOMETRIES_MAX:
                _GEOMETRIES.pop(next(iter(_GEOMETRIES)))
            _GEOMETRIES[key] = found
    return found


def _read_geometry(view: Mapping[str, Any]) -> Geometry:
    regions = tuple(
        Region(
            id=as_str(r.get("id")),
            name=as_str(r.get("name"), as_str(r.get("id"))),
            kind=as_str(r.get("kind"), "LAND").upper(),
            city_site=as_bool(r.get("city_site")),
            x=round(as_int(r.get("x")) * MAP_SCALE),
            y=round(as_int(r.get("y")) * MAP_SCALE),
        )
        for r in (as_map(item) for item in as_list(view.get("regions")))
    )
    borders = tuple(
        (as_str(b.get("a")), as_str(b.get("b")), as_str(b.get("colour"), "RED").upper())
        for b in (as_map(item) for item in as_list(view.get("borders")))
    )
    rondel = tuple(str_list(view.get("rondel_spaces"))) or DEFAULT_RONDEL
    return Geometry(regions, borders, rondel)


def owners(view: Mapping[str, Any]) -> list[Owner]:
    """One :class:`Owner` per seat; letters are the nations' initials, made unique if needed."""
    players = [as_map(p) for p in as_list(view.get("players"))]
    names = [as_str(p.get("nation"), f"Player {i + 1}") for i, p in enumerate(players)]
    letters = _unique_letters(names)
    out = []
    for i, p in enumerate(players):
        colour = as_str(p.get("colour"), "BROWN" if i == 0 else "BEIGE")
        fill = player_fill(colour, i)
        out.append(Owner(seat=i, name=names[i], colour=colour.upper(), fill=fill, ink=ink_on(fill), letter=letters[i]))
    return out


def owner_of(owner_list: Sequence[Owner], seat: object) -> Owner | None:
    """The owner for ``seat`` (None when the seat is missing or unknown)."""
    s = as_opt_int(seat)
    if s is None or not 0 <= s < len(owner_list):
        return None
    return owner_list[s]


def _unique_letters(names: Sequence[str]) -> list[str]:
    letters = [(n.strip()[:1] or str(i + 1)).upper() for i, n in enumerate(names)]
    if len(set(letters)) == len(letters):
        return letters
    return [f"{n.strip()[:2].title()}" if n.strip() else str(i + 1) for i, n in enumerate(names)]


_SUFFIX = re.compile(r"^([A-Z][A-Z ]*?)[\s_\-#(]*(?:[AB12]|\([ab]\))\)?$")


def space_label(space: str) -> str:
    """Display name of a rondel space id: ``DUELLUM_A`` / ``DUELLUM (b)`` → ``DUELLUM``."""
    m = _SUFFIX.match(space.strip().upper())
    if m and m.group(1).strip() in DEFAULT_RONDEL:
        return m.group(1).strip()
    return space.strip().upper()


def space_index(spaces: Sequence[str], value: object) -> int | None:
    """Index of a stone's position on the rondel, or None (not placed yet / unknown).

    Accepts an index, an exact space id, or a bare name that occurs once. A bare name that
    occurs twice (``DUELLUM`` on the stand-in rondel, when a view does not tell the two
    spaces apart) maps to its first occurrence.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value % len(spaces) if spaces else None
    if not isinstance(value, str) or not value:
        return None
    if value in spaces:
        return spaces.index(value)
    label = space_label(value)
    for i, s in enumerate(spaces):
        if space_label(s) == label:
            return i
    return None
