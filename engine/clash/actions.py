"""The action record and its chat notation.

Why one flat frozen record: actions are compared for legality (``action in legal``), listed and
dumped to JSON; a flat record with defaults does all three cheaply. Spaces are hex labels
(``c4``), cities are named in notation but identified by their space in the record, so a city
keeps working in old logs even if the naming changes.

Notation (matched leniently by :mod:`engine.core.notation`; cities by name, spaces like ``c4``):

* ``advance farming`` / ``advance voting keep civil-liberties free-economy`` (government switch)
* ``found c4``
* ``collect athens food food wood`` (``husbandry`` at the end: Husbandry's wider reach)
* ``build athens settler army`` (``draft``: one army paid with mood tokens; ``mood``/``culture``:
  Nationalism's token)
* ``grow athens temple culture`` / ``grow athens port e4`` (``settler``: Sanitation)
* ``move c4 d4 army army settler`` (``road``: 2 spaces for 1 Food; ``ore``: ignore terrain)
* ``move ship1 ship2 e6`` (``around``: Navigation)
* ``civic athens`` / ``civic athens 2`` (``voting``: no action, 1 mood token)
* ``done`` (close a Move or Civic Improvement action), ``end`` (end the turn)
* ``taxes``, ``liberties``, ``cartography``, ``absolute``, ``forced``, ``theater culture``/``theater mood``
* cards: ``play leadership`` (an action card by name; ``play great-artist`` for a great person),
  ``choose athens`` (a choice a card or event asks for), ``claim wealth`` / ``claim none``
  (status-phase objectives)
* choices: ``orient base``/``orient turned``, ``barbarians g3``, ``anchor d5``,
  ``income food 2 gold 1``, ``raze sparta``/``no raze``, ``first blue``, ``reserve pyramids``
* influence, wonders, trading (:mod:`engine.clash.culture`): ``influence athens sparta temple``
  (``arts``: Art & Sculptures), ``boost 2``/``no boost``, ``no influence``, ``wonder athens pyramids``,
  ``gardens athens``, ``no ship``, ``trade blue``, ``give 2 food``, ``get 1 ore``, ``offer``, ``cancel``,
  ``accept``/``decline``
* battles (see :mod:`engine.clash.combat_choices`): ``attack c4 d4 army army`` (a move into foreign
  units or a city), ``continue``/``retreat``, ``siege wood ore``/``no siege``, ``no card``,
  ``refugee athens``, ``fanatic athens``, ``keep camp``/``raze camp``, ``reinforce g3``,
  ``target g3 athens``, ``lose army temple``
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

VERBS = (
    "advance",
    "found",
    "collect",
    "build",
    "grow",
    "move",
    "civic",
    "done",
    "end",
    "taxes",
    "liberties",
    "cartography",
    "absolute",
    "forced",
    "theater",
    "orient",
    "barbarians",
    "anchor",
    "income",
    "raze",
    "no",
    "first",
    "reserve",
    "play",
    "choose",
    "claim",
    "takeover",
    "influence",
    "boost",
    "wonder",
    "gardens",
    "trade",
    "give",
    "get",
    "offer",
    "cancel",
    "accept",
    "decline",
    "attack",
    "continue",
    "retreat",
    "stop",
    "siege",
    "refugee",
    "fanatic",
    "keep",
    "reinforce",
    "target",
    "lose",
)


@dataclass(frozen=True, slots=True)
class Action:
    """One action or step.

    Attributes:
        kind: see the module notation list.
        space: the city's space (city actions), the origin (moves), the founding space.
        to: destination (moves, barbarians, anchor), port space (grow).
        name: advance id, building, token kind, orientation, colour seat for ``first``.
        items: collected resources, built units, moving units or ships, kept advances.
        flags: sorted option words (``husbandry``, ``draft``, ``road``, ``ore``, ``around``,
            ``settler``, ``voting``).
        n: steps (civic), Gold taken (income), seat (first).
    """

    kind: str
    space: str = ""
    to: str = ""
    name: str = ""
    items: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    n: int = 0

    def to_json(self) -> dict[str, Any]:
        """Compact JSON (defaults omitted)."""
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("space", "to", "name", "n"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("items", "flags"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_json`."""
        return cls(
            kind=str(raw["kind"]),
            space=str(raw.get("space", "")),
            to=str(raw.get("to", "")),
            name=str(raw.get("name", "")),
            items=tuple(str(x) for x in raw.get("items", ())),
            flags=tuple(str(x) for x in raw.get("flags", ())),
            n=int(raw.get("n", 0)),
        )


def slug(advance_id: str) -> str:
    """``war_ships`` -> ``war-ships`` (one word for the parser)."""
    return advance_id.replace("_", "-")
