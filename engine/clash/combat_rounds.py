"""One combat round: dice, combat value, hits and the modifiers that change them (rules 10.3, 10.4,
10.6 and the Barbarian differences of 11.3).

Why the modifiers are gathered into one record per side before rolling: the rules apply them in a
fixed arithmetic (D-10: ``hits = max(0, floor(CV / 5) + extra − cancelled)``, capped at the enemy's
units), and advances, the Fortress and action cards all feed the same four numbers. The action
cards' combat abilities (rules 10.7) plug in at exactly one point, :func:`card_modifiers`, through
:data:`CARD_HOOK`; with no card in play it adds nothing.

The battle record (``state.battle``) is a plain JSON-able dict; the keys this module reads:
``kind`` (``land`` | ``naval`` | ``barbarian_attack``), ``attacker``, ``defender`` (seats,
``BARBARIAN`` for Barbarians), ``space`` (where the defender stands), ``att`` (ids of the
attacking units still alive), ``round`` (1-based), ``siege`` (what the attacker paid with
Siegecraft: ``wood`` cancels the Fortress die, ``ore`` its hit cancellation), ``disembark``
(the attackers came from ships) and ``cards`` (``{"attacker": [...], "defender": [...]}``: the
combat cards played this round, filled by the card module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.clash.actions import Action
from engine.clash.state import BARBARIAN, State, Unit
from engine.core.text import join_words

SIDES = ("attacker", "defender")


@dataclass(slots=True)
class Modifiers:
    """What one side adds to its roll this round.

    Attributes:
        dice: extra dice (the Fortress, cards).
        cv: added to the sum of the dice (Fanaticism, cards).
        hits: extra hits after dividing by 5 (Steel Weapons, cards).
        cancel: hits of the *enemy* this side cancels (Fortress, War Ships, cards).
        notes: short words naming what applied, for the narration (``fortress``).
    """

    dice: int = 0
    cv: int = 0
    hits: int = 0
    cancel: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, other: Modifiers) -> None:
        """Sum ``other`` into this record."""
        self.dice += other.dice
        self.cv += other.cv
        self.hits += other.hits
        self.cancel += other.cancel
        self.notes.extend(other.notes)


class CombatCards(Protocol):
    """What the action-card module provides for combat (rules 10.7).

    ``options`` lists the card plays ``side`` may declare now (empty: the side is not asked);
    ``play`` records a declared card in ``battle["cards"][side]`` (and discards it); ``modifiers``
    turns the cards played this round into :class:`Modifiers` for ``side``.

    A provider may also define ``after_round(state, battle) -> list[str]`` for "after hits"
    effects, and a card that ends the battle before the dice (a tactical retreat) sets
    ``battle["end_now"]`` to the winning side (``"attacker"``/``"defender"``) in ``play``; its
    own unit movements are its business. ``battle["rounds"][-1]`` holds the last round's dice.
    """

    def options(self, state: State, battle: dict[str, Any], side: str) -> list[Action]: ...

    def play(self, state: State, battle: dict[str, Any], side: str, action: Action) -> list[str]: ...

    def modifiers(self, state: State, battle: dict[str, Any], side: str) -> Modifiers: ...


CARD_HOOK: list[CombatCards] = []
"""The registered combat-card provider (at most one). The card module appends itself at import;
empty means no combat cards exist, and battles never stop to ask for one."""


def register_cards(provider: CombatCards) -> None:
    """Install the combat-card provider (replacing any earlier one)."""
    CARD_HOOK.clear()
    CARD_HOOK.append(provider)


def card_options(state: State, battle: dict[str, Any], side: str) -> list[Action]:
    """Combat-card plays ``side`` may declare this round (rules 10.3 step 1); Barbarians never play."""
    seat = seat_of(battle, side)
    if not CARD_HOOK or seat == BARBARIAN or "tactics" not in state.pl[seat].advances:
        return []
    if battle.get("cards", {}).get(side):
        return []
    return CARD_HOOK[0].options(state, battle, side)


def after_round_cards(state: State, battle: dict[str, Any]) -> list[str]:
    """Effects of played cards "after hits" (the provider's optional ``after_round``), called once
    the round's casualties are removed and before the battle checks who is left."""
    hook = getattr(CARD_HOOK[0], "after_round", None) if CARD_HOOK else None
    if hook is None or not any(battle.get("cards", {}).values()):
        return []
    out: list[str] = hook(state, battle)
    return out


def card_modifiers(state: State, battle: dict[str, Any], side: str) -> Modifiers:
    """The single point where played combat cards change a round: empty with no card in play."""
    if not CARD_HOOK or not battle.get("cards", {}).get(side):
        return Modifiers()
    return CARD_HOOK[0].modifiers(state, battle, side)


def seat_of(battle: dict[str, Any], side: str) -> int:
    """The seat fighting as ``side``."""
    return int(battle[side])


def roll_die(state: State) -> int:
    """One six-sided die from the state's RNG (tests replace this to inject dice)."""
    return state.rng.randint(1, 6)


ROLL: list[Callable[[State], int]] = [roll_die]
"""The die roller in use; tests swap in a scripted one (the rulebook examples give the dice)."""


def roll(state: State, n: int) -> list[int]:
    """``n`` dice."""
    return [ROLL[0](state) for _ in range(n)]


def owns(state: State, seat: int, advance: str) -> bool:
    """Whether ``seat`` (never the Barbarians) owns ``advance``."""
    return seat != BARBARIAN and advance in state.pl[seat].advances


def fighting_units(state: State, battle: dict[str, Any], side: str) -> list[Unit]:
    """The units of ``side`` that roll dice and take hits: army units on land, Ships at sea."""
    kind = "ship" if battle["kind"] == "naval" else "army"
    if side == "attacker" and battle["kind"] != "barbarian_attack":
        ids = set(battle["att"])
        return [u for u in state.units if u.id in ids and u.kind == kind]
    seat = seat_of(battle, side)
    where = battle["camp"] if side == "attacker" else battle["space"]
    return [
        u
        for u in state.units
        if u.space == where and u.owner == seat and u.kind == kind and (kind == "ship" or u.carrier < 0)
    ]


def has_fortress(state: State, battle: dict[str, Any]) -> bool:
    """The defender's city has a working Fortress (land battles and Barbarian attacks only)."""
    if battle["kind"] == "naval":
        return False
    city = state.city_at(battle["space"])
    if city is None or city.owner != seat_of(battle, "defender") or "fortress" not in city.pieces:
        return False
    # A captured Fortress defends only an owner with Tactics, the Fortress's advance (rules 10.8).
    return owns(state, city.owner, "tactics")


def side_modifiers(state: State, battle: dict[str, Any], side: str) -> Modifiers:
    """Every modifier of ``side`` this round: the Fortress, Steel Weapons, War Ships,
    Fanaticism, then the combat cards (rules 10.4, 10.6, 10.7)."""
    mod = Modifiers()
    seat = seat_of(battle, side)
    enemy = seat_of(battle, "defender" if side == "attacker" else "attacker")
    first = int(battle["round"]) == 1
    naval = battle["kind"] == "naval"
    if side == "defender" and first and has_fortress(state, battle):
        siege = battle.get("siege", [])
        if "wood" not in siege:
            mod.dice += 1
        if "ore" not in siege:
            mod.cancel += 1
        mod.notes.append("fortress")
    if first and not naval and owns(state, seat, "steel_weapons") and not owns(state, enemy, "steel_weapons"):
        mod.hits += 1
        mod.notes.append("Steel Weapons")
    if first and owns(state, seat, "war_ships") and (naval or (side == "attacker" and battle.get("disembark"))):
        mod.cancel += 1
        mod.notes.append("War Ships")
    if first and not naval and owns(state, seat, "fanaticism"):
        city = state.city_at(battle["space"])
        if city is not None and "temple" in city.pieces:
            mod.cv += 2
            mod.notes.append("Fanaticism")
    mod.add(card_modifiers(state, battle, side))
    return mod


@dataclass(slots=True)
class RoundResult:
    """What one side did in a round (kept in the battle record for the image and the log)."""

    dice: list[int]
    cv: int
    hits: int
    notes: list[str]

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"dice": list(self.dice), "cv": self.cv, "hits": self.hits, "notes": list(self.notes)}


def hits_from(cv: int, extra: int, cancelled: int) -> int:
    """D-10: ``max(0, floor(CV / 5) + extra − cancelled)`` (before the cap; CC-EX-22)."""
    return max(0, cv // 5 + extra - cancelled)


def roll_round(state: State, battle: dict[str, Any]) -> dict[str, RoundResult]:
    """Both sides roll at once (attacker's dice first from the RNG) and score their hits.

    Hits are capped at the enemy's fighting units, except the Barbarians' hits in a Barbarian
    attack, which go on to remove city pieces (rules 11.3)."""
    mods = {side: side_modifiers(state, battle, side) for side in SIDES}
    units = {side: fighting_units(state, battle, side) for side in SIDES}
    out: dict[str, RoundResult] = {}
    for side in SIDES:
        enemy = "defender" if side == "attacker" else "attacker"
        dice = roll(state, len(units[side]) + mods[side].dice)
        cv = sum(dice) + mods[side].cv if dice else 0
        hits = hits_from(cv, mods[side].hits, mods[enemy].cancel) if dice else 0
        if not (battle["kind"] == "barbarian_attack" and side == "attacker"):
            hits = min(hits, len(units[enemy]))
        out[side] = RoundResult(dice, cv, hits, mods[side].notes)
    return out


def describe_notes(battle: dict[str, Any], notes: list[str]) -> str:
    """The modifiers of one side's roll as the chat tells them, each with what it did, so that
    "rolls 6, 2 with War Ships: 0 hits" does not read as War Ships making hits (play-test).
    Unknown notes (a card's name) are told as they are."""
    siege = battle.get("siege", [])
    fortress = [w for w, paid in (("+1 die", "wood"), ("cancels 1 enemy hit", "ore")) if paid not in siege]
    told = {
        "fortress": f"the Fortress ({' and '.join(fortress)})" if fortress else "the Fortress (undone by Siegecraft)",
        "Steel Weapons": "Steel Weapons (+1 hit)",
        "War Ships": "War Ships (cancels 1 enemy hit)",
        "Fanaticism": "Fanaticism (+2)",
    }
    return join_words([told.get(n, n) for n in notes])
