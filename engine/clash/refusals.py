"""Refusals that say what was wrong and what is accepted: battle and movement moves typed with
a mistake, choice words typed when no such question is open, and other moves typed while a
question awaits this seat.

Why a module of its own: :func:`engine.clash.moves.explain` dispatches on the typed verb, and
these explanations need the board, the units and the open question; keeping them here keeps the
legal-move module small. Found by play-testing: refusals once named the wrong cause ("Units that
entered a Forest..." for more units than stood there) or only listed the closest moves.
"""

from __future__ import annotations

from engine.clash.board import neighbours
from engine.clash.combat import attack_refusal
from engine.clash.combat_choices import WAITING
from engine.clash.culture import WAITING as CULTURE_WAITING
from engine.clash.movement import BATTLE_REFUSAL, serial_for
from engine.clash.notation import text as notation
from engine.clash.state import State, Unit
from engine.core.text import count, join_words

ANSWERS = {
    "continue": "answers the question after a battle round (go on or stop)",
    "retreat": "answers the question after a battle round (go on or stop)",
    "siege": "pays for Siegecraft before a battle against a Fortress",
    "refugee": "places the Settler the owner of a captured city gets",
    "fanatic": "places the army unit Fanaticism gives after a lost battle",
    "lose": "chooses the losses after a Barbarian attack",
    "target": "chooses which Barbarian settlement attacks which city",
    "reinforce": "chooses the Barbarian settlement that gets one more unit",
    "barbarians": "places Barbarians in a newly explored region",
    "orient": "turns a region being explored",
    "anchor": "places a ship that explored a region",
    "stop": "stops an attack after a battle round",
    "keep": "keeps a Barbarian settlement you have just taken",
    "keep camp": "keeps a Barbarian settlement you have just taken",
    "raze camp": "razes a Barbarian settlement you have just taken",
    "no card": "declines to play a combat card in a battle",
    "no siege": "declines to pay for Siegecraft before a battle against a Fortress",
}
"""What each choice word answers, for a choice typed when no such question is open."""


ASKED = {
    "orient": "turn the region you explored",
    "anchor": "place the ship that explored",
    "barbarians": "place the Barbarians in the new region",
    "income": "take your trade route income",
    "free": "choose your free advance",
    "dogma": "choose Dogma's free advance",
    "raze": "decide on razing a city",
    "first": "choose the first player",
    "reserve": "reserve a wonder with Monuments",
}
"""The open questions outside battles, for "first answer this" refusals."""


def pending_refusal(state: State, seat: int, words: list[str]) -> str:
    """The seat must answer an open question first: say which and how (the choices themselves
    when there are a few; the number of losses for a Barbarian attack)."""
    from engine.clash.moves import pending_options

    kind = str(state.pending["kind"])
    opts = [notation(state, seat, a) for a in pending_options(state)]
    if kind == "barbarian_losses" and words[0] == "lose" and opts:
        hits = len(opts[0].split()) - 1 - opts[0].split().count("destroyed")
        return (
            f"The Barbarians landed {count(hits, 'hit')}: name {count(hits, 'loss')}, "
            f"units in the city first, e.g. `{opts[0]}`."
        )
    asked = (WAITING.get(kind, "") or ASKED.get(kind, "") or CULTURE_WAITING.get(kind, "")).removeprefix("to ")
    head = f"First {asked}" if asked else "First make the open choice"
    if any(o.split(" ")[0] == words[0] for o in opts):
        # The player is answering this question, with a choice that is not among them.
        head = f"`{' '.join(words)}` is not one of the choices"
    if len(opts) <= 6:
        return f"{head}: type {join_words([f'`{o}`' for o in opts], 'or')}."
    return f"{head}: type one of the {len(opts)} choices `moves` lists, e.g. `{opts[0]}`."


def battle_refusal(state: State, seat: int, src: str, dest: str, items: tuple[str, ...]) -> str:
    """Why a move into foreign units or a foreign city cannot start a battle."""
    if src and not items:
        return f"Say which units attack, e.g. `attack {src} {dest} army`."
    if src and items and not items[0].startswith("ship"):
        if src not in state.terrain:
            return f"There is no space {src.upper()}."
        here = [u for u in state.units if u.owner == seat and u.space == src and u.kind != "ship"]
        if not here:
            return f"You have no units on {src.upper()}."
        if dest not in neighbours(state, src):
            return f"{dest.upper()} is not next to {src.upper()}: an attack goes to a neighbouring space."
        why = _units_refusal(state, src, here, list(items), check_free=True)
        if why:
            return why
        if "army" in items and "tactics" not in state.pl[seat].advances:
            return "Army units move only with Tactics."
        units = [u for u in state.units if u.owner == seat and u.space == src and u.kind != "ship" and not u.fought]
        why = attack_refusal(state, seat, dest, units, items)
        if why:
            return why
        if any(u.fought for u in state.units if u.owner == seat and u.space == src):
            return "Units that fought this turn cannot move again."
    if state.terrain.get(dest) == "sea" and items and not items[0].startswith("ship"):
        return "Land units cannot board a ship on a space with foreign ships."
    return BATTLE_REFUSAL


def land_move_refusal(state: State, seat: int, src: str, dest: str, words: list[str]) -> str:
    """Why a land move between two named spaces is refused, when it is plain: no such space,
    no units there, not enough of them, or too far ("" leaves the closest legal moves to say)."""
    for h in (src, dest):
        if h not in state.terrain:
            return f"There is no space {h.upper()} on this map."
    here = [u for u in state.units if u.owner == seat and u.space == src and u.kind != "ship"]
    if not here:
        return f"You have no units on {src.upper()}."
    items = [w for w in words if w in ("army", "settler")]
    if not items:
        return f"Say which units move, e.g. `move {src} {dest} {here[0].kind}`."
    why = _units_refusal(state, src, here, items, check_free=False)
    if why:
        return why
    if dest not in neighbours(state, src) and "road" not in words:
        return f"{dest.upper()} is not next to {src.upper()}: a unit moves one space at a time (two with `road`)."
    return _units_refusal(state, src, here, items, check_free=True)


def _units_refusal(state: State, src: str, here: list[Unit], items: list[str], check_free: bool) -> str:
    """More units named than stand on ``src`` (``check_free``: than may move from it now)."""
    for kind in ("army", "settler"):
        have = sum(1 for u in here if u.kind == kind)
        if items.count(kind) > have:
            return f"You have {count(have, kind)} on {src.upper()}, not {items.count(kind)}."
    if not check_free:
        return ""
    serial = serial_for(state)
    for kind in ("army", "settler"):
        free = [u for u in here if u.kind == kind and not (u.fought or u.stopped or u.moved == serial)]
        if items.count(kind) > len(free):
            return _stuck(kind, len(free), src, [u for u in here if u.kind == kind and u not in free])
    return ""


def _stuck(kind: str, free: int, src: str, held: list[Unit]) -> str:
    """Why fewer units of ``kind`` than asked can move from ``src``: the first reason that
    holds one of them back (fought, stopped by a Mountain, already moved in this Move action)."""
    where = src.upper()
    head = f"Only {count(free, kind)} on {where} can move now" if free else f"No {kind} on {where} can move now"
    if any(u.fought for u in held):
        why = "units that fought this turn stay where they are"
    elif any(u.stopped for u in held):
        why = "units that entered a Mountain this turn stop there"
    else:
        why = "each unit moves once per Move action; type `done` and move it in your next action"
    return f"{head}: {why}."
