"""The action record and its chat notation.

Notation (matched leniently by :mod:`engine.core.notation`). A tile is named by its short
label (:mod:`engine.capitals.labels`: ``opera`` for the Opera House, ``art deco`` for the Art
Deco Flats), by a unique prefix of it, by its whole name or by its slug (``opera-house``):

* ``position p3`` — Political phase: buy Start-track position P3.
* ``build market n12`` — Building phase: take the Market from the Projects area and place it
  on cell n12 (the spec's coordinates also work: ``build market 1 -1``). Tiles have no
  rotation in this game (spec §8.1), so none is typed.
* ``activate market`` — Execution phase, paying with cubes only;
  ``activate market tourists red blue`` also moves the Red and Blue tourist markers onto it.
* ``done`` — end your activations; ``pass cube`` / ``pass money`` — activate nothing and take
  the pass bonus.
* ``relocate o12`` — Management phase: move a full construction marker to the street corner
  at the top-left of cell o12.
* ``prosper three n12`` / ``lake three n12`` — prosperity step (the Three Pennants).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.capitals.data import TILES
from engine.capitals.grid import cell_name, xy_text
from engine.capitals.labels import label, name_words
from engine.capitals.state import NEUTRAL, Cell, cell_key, parse_cell_key

VERBS = ("position", "build", "activate", "done", "pass", "relocate", "prosper", "lake")
COLOURS = ("red", "blue", "green", "purple", "black")
NEUTRAL_COLOUR = "grey"


def colour(owner: int) -> str:
    """Colour word of a seat (or the neutral)."""
    return NEUTRAL_COLOUR if owner == NEUTRAL else COLOURS[owner]


@dataclass(frozen=True, slots=True)
class Action:
    """One move.

    Attributes:
        kind: ``position`` | ``build`` | ``activate`` | ``done`` | ``pass`` | ``relocate`` |
            ``prosper`` | ``lake``.
        pos: position bought (``position``).
        tile: tile id (``build``, ``prosper``, ``lake``).
        cell: target cell, the activated tile's cell, or the marker's new vertex.
        tourists: owners of the tourist markers paying for an activation, sorted.
        choice: ``cube`` or ``money`` (``pass``).
    """

    kind: str
    pos: int = 0
    tile: str = ""
    cell: Cell | None = None
    tourists: tuple[int, ...] = ()
    choice: str = ""

    def to_json(self) -> dict[str, Any]:
        """Compact JSON (defaults omitted)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.pos:
            out["pos"] = self.pos
        if self.tile:
            out["tile"] = self.tile
        if self.cell is not None:
            out["cell"] = cell_key(self.cell)
        if self.tourists:
            out["tourists"] = list(self.tourists)
        if self.choice:
            out["choice"] = self.choice
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_json`."""
        cell = raw.get("cell")
        return cls(
            kind=str(raw["kind"]),
            pos=int(raw.get("pos", 0)),
            tile=str(raw.get("tile", "")),
            cell=None if cell is None else parse_cell_key(str(cell)),
            tourists=tuple(int(x) for x in raw.get("tourists", ())),
            choice=str(raw.get("choice", "")),
        )


def notation_text(a: Action, tile_at: str = "") -> str:
    """Canonical notation. ``tile_at`` is the id of the tile on ``a.cell`` (activations)."""
    if a.kind == "position":
        return f"position p{a.pos}"
    if a.kind in ("build", "prosper", "lake"):
        assert a.cell is not None
        return f"{a.kind} {label(a.tile)} {cell_name(a.cell)}"
    if a.kind == "activate":
        text = f"activate {label(tile_at) if tile_at in TILES else tile_at}"
        if a.tourists:
            text += " tourists " + " ".join(colour(o) for o in a.tourists)
        return text
    if a.kind == "pass":
        return f"pass {a.choice}"
    if a.kind == "relocate":
        assert a.cell is not None
        return f"relocate {cell_name(a.cell)}"
    return a.kind


def _tile_names(tile: str) -> list[str]:
    """Every accepted name of a tile: its label, its whole name, its slug (no duplicates)."""
    out: list[str] = []
    for name in (label(tile), " ".join(name_words(tile)), TILES[tile].slug):
        if name not in out:
            out.append(name)
    return out


def alias_texts(a: Action, tile_at: str = "") -> list[str]:
    """Other accepted spellings: the tile's whole name and slug, the spec's ``x y``
    coordinates, ``tourist`` for ``tourists``."""
    out: list[str] = []
    if a.kind in ("build", "prosper", "lake") and a.cell is not None:
        names = _tile_names(a.tile)
        out += [f"{a.kind} {n} {cell_name(a.cell)}" for n in names[1:]]
        out += [f"{a.kind} {n} {xy_text(a.cell)}" for n in names]
    if a.kind == "relocate" and a.cell is not None:
        out.append(f"relocate {xy_text(a.cell)}")
    if a.kind == "activate" and tile_at in TILES:
        tourists = " ".join(colour(o) for o in a.tourists)
        for i, n in enumerate(_tile_names(tile_at)):
            if i:
                out.append(f"activate {n}" + (f" tourists {tourists}" if a.tourists else ""))
            if a.tourists:
                out.append(f"activate {n} tourist {tourists}")
    if a.kind == "position":
        out.append(f"position {a.pos}")
    return out
