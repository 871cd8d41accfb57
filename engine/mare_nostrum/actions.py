"""The action record and its chat notation.

Why one flat frozen record (kind + string arguments): actions are compared for legality
(``action in legal``), kept as hidden picks and dumped to JSON; a tuple of strings does all
three and the notation is a pure function of it. Payments are separate small steps (``pay
taxes``, ``pay grain`` …) so a purchase is a few presses instead of a list of hundreds of
possible card sets.

Notation (matched leniently by :mod:`engine.core.notation`; ids may be typed with spaces):

* setup: ``caravan gallia_cisalpina grain``; advanced setup: ``buy …`` and ``done``
* roles: ``next egypt`` (a leader names the next player), ``give commerce to rome`` (tie)
* commerce: ``artemis gold``, ``trade 3`` (the DoC's N), ``offer grain`` (one hidden card),
  ``take wine from rome``, ``ulysses yes`` / ``ulysses no``, ``give tax`` (compensation)
* build: ``buy city peloponnesus sparta``, ``buy caravan roma wine``, ``buy influence thracia``,
  ``buy influence thracia free`` (Hammurabi), ``buy legion roma``, ``buy pyramids``,
  ``annex judaea``, ``pay taxes``, ``pay goods``, ``pay grain``, ``cancel``,
  ``swap grain for tax`` / ``swap tax for gold`` (Cleopatra), ``keep gold`` / ``keep nothing``
  (Hanging Gardens), ``done``
* military: ``launch athenae aegaeum``, ``sail aegaeum ionium``, ``attack carthage in aegaeum``,
  ``march athenae macedonia``, ``march numidia africa off caravan slaves``,
  ``attack rome in numidia with 2 legions and 1 fortress``, ``pillage judaea city hierosolyma``,
  ``occupy numidia caravan slaves``, ``claim numidia`` (annex placement), ``lose legion``,
  ``lose legion on city cirta``, ``helen yes`` / ``helen no``, ``done``
* agreed-draw option: ``propose draw``; then every other seat ``accept draw`` / ``decline draw``
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.text import count

VERBS = ("caravan", "buy", "done", "next", "give", "artemis", "trade", "offer", "take", "ulysses", "annex",
         "pay", "cancel", "swap", "keep", "launch", "sail", "attack", "march", "pillage", "occupy", "claim",
         "lose", "helen", "propose", "accept", "decline")


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One move: ``kind`` and its string arguments (see the module docstring)."""

    kind: str
    args: tuple[str, ...] = ()


def _place(p: str) -> str:
    """A building/placement id as words: ``city:Cirta`` -> ``city cirta``."""
    return p.replace(":", " ").lower()


def notation_text(a: Action) -> str:
    """Canonical chat text of ``a``."""
    k, x = a.kind, a.args
    if k == "buy":
        item, where, detail = (*x, "", "", "")[:3]
        words = ["buy", item] + ([where] if where else []) + ([detail.lower()] if detail else [])
        return " ".join(words)
    if k == "give_role":
        return f"give {x[0]} to {x[1]}"
    if k == "take":
        return f"take {x[0]} from {x[1]}"
    if k == "swap":
        return f"swap {x[0]} for {x[1]}"
    if k == "march":
        base = f"march {x[0]} {x[1]}"
        return base + (f" off {_place(x[2])}" if len(x) > 2 and x[2] else "")
    if k == "attack":
        if len(x) == 2:
            return f"attack {x[0]} in {x[1]}"
        legions, forts = int(x[2]), int(x[3])
        text = f"attack {x[0]} in {x[1]} with {count(legions, 'legion')}"
        return text + (f" and {count(forts, 'fortress')}" if forts else "")
    if k in ("pillage", "occupy"):
        return f"{k} {x[0]} {_place(x[1])}"
    if k == "lose":
        return "lose " + (f"legion on {_place(x[1])}" if x[0] == "legion" and len(x) > 1 and x[1] else x[0])
    if k == "trade":
        return f"trade {x[0]}"
    if k == "draw":
        return f"{x[0]} draw"
    return " ".join((k, *(s.lower() for s in x)))
