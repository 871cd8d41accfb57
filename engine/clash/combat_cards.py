"""Action cards in combat (rules 10.3 step 1, 10.7; data file 7.2): the combat ability printed on
each action card, declared once per side per round, with Tactics, when the side has the unit
type the ability names in the battle.

Why a provider object: the combat rules ask for card plays and their modifiers at one point
(:data:`engine.clash.combat_rounds.CARD_HOOK`); this module registers itself there at import.
Abilities whose effect is a change of dice, combat value or hits, the cancellation of the
opponent's card, or Surprise's draw, are offered; the others (Peltasts, Encircled, Heavy
Resistance, Siege, Tactical Retreat, Scout, Martyr, Archers: rolls before the round, removed
units, a withdrawal) are not offered in battle yet (the card can still be played for its
non-combat effect).
"""

from __future__ import annotations

from typing import Any

from engine.clash.actions import Action
from engine.clash.cards_data import DECKS
from engine.clash.combat_rounds import Modifiers, fighting_units, has_fortress, register_cards
from engine.clash.data import TABLES
from engine.clash.decks import deal
from engine.clash.state import State

SUPPORTED = (
    "high_morale",
    "flanking",
    "defensive_formation",
    "for_the_people",
    "improved_defenses",
    "wedge_formation",
    "high_ground",
    "surprise",
)
OTHER = {"attacker": "defender", "defender": "attacker"}


def _has_units(state: State, battle: dict[str, Any], side: str, kinds: tuple[str, ...]) -> bool:
    """The side has one of the named things in the battle (army units, ships, its Fortress)."""
    naval = battle["kind"] == "naval"
    if naval and "ship" in kinds and fighting_units(state, battle, side):
        return True
    if not naval and "army" in kinds and fighting_units(state, battle, side):
        return True
    return side == "defender" and "fortress" in kinds and has_fortress(state, battle)


def _city_battle(state: State, battle: dict[str, Any]) -> bool:
    city = state.city_at(str(battle["space"]))
    return city is not None and city.owner == int(battle["defender"])


def usable(state: State, battle: dict[str, Any], side: str, ability: str) -> bool:
    """Whether ``side`` may use ``ability`` in this battle now."""
    if ability not in SUPPORTED:
        return False
    ab = DECKS.abilities[ability]
    if not _has_units(state, battle, side, ab.units):
        return False
    r = ab.restriction
    if r == "attacker":
        return side == "attacker"
    if r == "defender":
        return side == "defender"
    if r == "defender_city":
        return side == "defender" and _city_battle(state, battle)
    if r == "attacker_city":
        return side == "attacker" and _city_battle(state, battle)
    if r == "land_not_city_attack":
        return battle["kind"] != "naval" and not (side == "attacker" and _city_battle(state, battle))
    return True


def trojan_possible(state: State, battle: dict[str, Any]) -> bool:
    """The Trojan Horse event of this round: the attacker of a defended city may pay 1 wood and
    1 culture token once per battle, in the first round (data file 9, card 38). Decision: gold
    may stand in for the wood, and using it takes the attacker's card declaration of that round."""
    if state.decks.get("trojan") != state.round or battle["kind"] != "land" or battle.get("trojan"):
        return False
    if int(battle["round"]) != 1 or not _city_battle(state, battle):
        return False
    defended = bool(fighting_units(state, battle, "defender")) or has_fortress(state, battle)
    p = state.pl[int(battle["attacker"])]
    return defended and p.culture_tokens >= 1 and p.res["wood"] + p.res["gold"] >= 1


class CombatCardProvider:
    """The combat abilities of the action cards in the players' hands."""

    def options(self, state: State, battle: dict[str, Any], side: str) -> list[Action]:
        """The abilities ``side`` may declare this round (one action per ability)."""
        seat = int(battle[side])
        if not state.decks:
            return []
        if side == "defender" and "trojan_horse" in battle["cards"].get("attacker", []):
            return []  # the Trojan Horse forbids the defender's card in the first round
        abilities = dict.fromkeys(DECKS.actions[c].combat for c in state.decks["hands"][seat])
        out = [Action("tactic", name=a) for a in abilities if usable(state, battle, side, a)]
        if side == "attacker" and trojan_possible(state, battle):
            out.append(Action("tactic", name="trojan_horse"))
        return out

    def play(self, state: State, battle: dict[str, Any], side: str, action: Action) -> list[str]:
        """Discard the first card of the hand with that ability and record it for the round."""
        seat = int(battle[side])
        if action.name == "trojan_horse":
            p = state.pl[seat]
            if p.res["wood"]:
                p.res["wood"] -= 1
            else:
                p.res["gold"] -= 1
            p.culture_tokens -= 1
            p.event_halves += 2
            battle["cards"][side].append(action.name)
            battle["trojan"] = True
            return [f"{TABLES.colours[seat]} uses the Trojan Horse: 1 point, and the defender may play no card now"]
        card = next(c for c in state.decks["hands"][seat] if DECKS.actions[c].combat == action.name)
        state.decks["hands"][seat].remove(card)
        state.decks["action_discard"].append(card)
        battle["cards"][side].append(action.name)
        return [f"{TABLES.colours[seat]} plays {DECKS.actions[card].name} for {DECKS.abilities[action.name].name}"]

    def modifiers(self, state: State, battle: dict[str, Any], side: str) -> Modifiers:
        """What the card of ``side`` adds this round (nothing when the opponent's High Ground
        cancels it)."""
        mod = Modifiers()
        for ability in battle["cards"][side]:
            if ability == "trojan_horse":
                continue
            theirs = battle["cards"].get(OTHER[side], [])
            if ability != "high_ground" and "high_ground" in theirs:
                mod.notes.append(f"{DECKS.abilities[ability].name} cancelled")
                continue
            name = DECKS.abilities[ability].name
            if ability == "high_morale":
                mod.cv += 2
            elif ability == "surprise":
                mod.cv += 1
            elif ability in ("flanking", "defensive_formation", "for_the_people"):
                mod.dice += 1
            elif ability == "improved_defenses":
                mod.cancel += 1
            elif ability == "wedge_formation":
                mod.cv += len([u for u in fighting_units(state, battle, "defender") if u.kind == "army"])
            mod.notes.append(name)
        return mod

    def after_round(self, state: State, battle: dict[str, Any]) -> list[str]:
        """Surprise: a side that killed at least one unit this round draws an action card."""
        lines: list[str] = []
        last = battle["rounds"][-1] if battle.get("rounds") else {}
        for side in ("attacker", "defender"):
            cards = battle["cards"].get(side, [])
            cancelled = "high_ground" in battle["cards"].get(OTHER[side], [])
            if "surprise" in cards and not cancelled and int(last.get(side, {}).get("hits", 0)) >= 1:
                seat = int(battle[side])
                got, _ = deal(state, seat, 1, 0)
                if got:
                    lines.append(f"{TABLES.colours[seat]} draws an action card (Surprise)")
        return lines


register_cards(CombatCardProvider())
