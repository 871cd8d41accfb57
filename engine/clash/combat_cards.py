"""Action cards in combat (rules 10.3 step 1, 10.7; data file 7.2): the combat ability printed on
each action card, declared once per side per round, with Tactics, when the side has the unit
type the ability names in the battle.

Why a provider object: the combat rules ask for card plays and their modifiers at one point
(:data:`engine.clash.combat_rounds.CARD_HOOK`); this module registers itself there at import.
Each effect happens where the combat rules give room for it: cancellations and "before
rolling" effects in :meth:`CombatCardProvider.modifiers` (asked for the attacker, then the
defender, before any die of the round), "after hits" effects in ``after_round``, a withdrawal
in ``play`` (``battle["end_now"]``). The defender's Heavy Resistance acts on the attacker's
roll, so it leaves a marker (``~heavy_resistance``) among the attacker's cards of the round.
"""

from __future__ import annotations

from typing import Any

from engine.clash.actions import Action
from engine.clash.cards_data import DECKS
from engine.clash.combat_rounds import Modifiers, fighting_units, has_fortress, register_cards, roll
from engine.clash.data import LIMITS, TABLES
from engine.clash.decks import deal
from engine.clash.state import State

SUPPORTED = tuple(DECKS.abilities)
"""Every combat ability of the deck (data file 7.2)."""
CANCELLERS = ("high_ground", "scout", "martyr")
"""Abilities that cancel the opponent's card this round (resolved first)."""
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
    if ability == "tactical_retreat" and not retreat_spaces(state, battle):
        return False
    if ability == "martyr" and not (fighting_units(state, battle, side) and fighting_units(state, battle, OTHER[side])):
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
        line = f"{TABLES.colours[seat]} plays {DECKS.actions[card].name} for {DECKS.abilities[action.name].name}"
        if action.name == "heavy_resistance":
            battle["cards"]["attacker"].append("~heavy_resistance")
        if action.name == "tactical_retreat" and not cancelled(battle, side):
            # Decision: the units withdraw to the first free space in board order.
            dest = retreat_spaces(state, battle)[0]
            for u in state.units:
                if u.owner == seat and u.space == battle["space"] and u.carrier < 0 and u.kind != "ship":
                    u.space = dest
            battle["end_now"] = "attacker"
            line += f": the defenders withdraw to {dest.upper()}"
        return [line]

    def modifiers(self, state: State, battle: dict[str, Any], side: str) -> Modifiers:
        """What the card of ``side`` does this round, in the data file's order: cancellations
        first, then "before rolling" effects (attacker first: this is called for the attacker
        first), then the changes to dice, combat value and hits."""
        mod = Modifiers()
        for ability in battle["cards"][side]:
            if ability == "trojan_horse":
                continue
            if ability == "~heavy_resistance":  # the defender's Heavy Resistance, felt here
                if not cancelled(battle, "defender"):
                    mod.cv -= len(fighting_units(state, battle, "attacker"))
                    mod.notes.append("Heavy Resistance")
                continue
            name = DECKS.abilities[ability].name
            if cancelled(battle, side):
                mod.notes.append(f"{name} cancelled")
                continue
            if ability == "high_morale":
                mod.cv += 2
            elif ability in ("surprise", "siege"):
                mod.cv += 1
                if ability == "siege":
                    _siege(state, battle, mod)
            elif ability in ("flanking", "defensive_formation", "for_the_people"):
                mod.dice += 1
            elif ability == "improved_defenses":
                mod.cancel += 1
            elif ability == "wedge_formation":
                mod.cv += len([u for u in fighting_units(state, battle, "defender") if u.kind == "army"])
            elif ability == "peltasts":
                dice = roll(state, len(fighting_units(state, battle, side)))
                if any(d >= 5 for d in dice):
                    mod.cancel += 1
                name += f" ({', '.join(str(d) for d in dice)})"
            elif ability == "archers":
                die = roll(state, 1)[0]
                name += f" ({die})"
                if die >= 5 and _kill_one(state, battle, OTHER[side]):
                    name += ": one enemy unit falls"
            elif ability == "martyr":
                _kill_one(state, battle, side)
                _kill_one(state, battle, OTHER[side])
                name += ": one unit of each side falls"
            mod.notes.append(name)
        return mod

    def after_round(self, state: State, battle: dict[str, Any]) -> list[str]:
        """After the hits: Surprise draws a card after a kill; Encircled may kill one more; Scout
        takes the cancelled card."""
        lines: list[str] = []
        last = battle["rounds"][-1] if battle.get("rounds") else {}
        for side in ("attacker", "defender"):
            cards = battle["cards"].get(side, [])
            if cancelled(battle, side):
                continue
            seat = int(battle[side])
            who = TABLES.colours[seat] if seat >= 0 else "the Barbarians"
            killed = int(last.get(side, {}).get("hits", 0))
            lost = int(last.get(OTHER[side], {}).get("hits", 0))
            if "surprise" in cards and killed >= 1:
                got, _ = deal(state, seat, 1, 0)
                if got:
                    lines.append(f"{who} draws an action card (Surprise)")
            if "encircled" in cards and killed >= lost and fighting_units(state, battle, OTHER[side]):
                die = roll(state, 1)[0]
                if die >= 5 and _kill_one(state, battle, OTHER[side]):
                    lines.append(f"Encircled ({die}): one more enemy unit falls")
                else:
                    lines.append(f"Encircled ({die}): no effect")
            if "scout" in cards:
                for ability in battle["cards"].get(OTHER[side], []):
                    taken = _take_card(state, seat, ability)
                    if taken:
                        lines.append(f"{who} takes the played {taken} (Scout)")
        return lines


def cancelled(battle: dict[str, Any], side: str) -> bool:
    """The card of ``side`` is cancelled by the opponent's High Ground, Scout or Martyr (two
    cancelling cards cancel each other)."""
    theirs = battle["cards"].get(OTHER[side], [])
    return any(c in CANCELLERS for c in theirs)


def _kill_one(state: State, battle: dict[str, Any], side: str) -> bool:
    """One fighting unit of ``side`` falls (Decision: the one carrying the least cargo)."""
    from engine.clash.combat import remove_unit

    units = fighting_units(state, battle, side)
    if not units:
        return False
    cargo = {u.id: sum(1 for c in state.units if c.carrier == u.id) for u in units}
    remove_unit(state, min(units, key=lambda u: (cargo[u.id], u.id)))
    battle["lost"][side] = int(battle["lost"][side]) + 1
    return True


def _siege(state: State, battle: dict[str, Any], mod: Modifiers) -> None:
    """Siege: the Fortress works this round only if the defender pays 2 food (Decision: he pays
    when he can, a Fortress being worth more than 2 food in a battle)."""
    seat = int(battle["defender"])
    if not has_fortress(state, battle) or seat < 0:
        return
    p = state.pl[seat]
    if p.res["food"] >= 2:
        p.res["food"] -= 2
        mod.notes.append("the defender pays 2 food for his Fortress")
    else:
        battle["siege"] = sorted(set(battle.get("siege", [])) | {"wood", "ore"})


def _take_card(state: State, seat: int, ability: str) -> str:
    """Scout: the opponent's card played this round goes to ``seat``'s hand."""
    if seat < 0 or ability not in DECKS.abilities:
        return ""
    pile = state.decks["action_discard"]
    for card in reversed(pile):
        if DECKS.actions[card].combat == ability:
            pile.remove(card)
            state.decks["hands"][seat].append(card)
            return DECKS.actions[card].name
    return ""


def retreat_spaces(state: State, battle: dict[str, Any]) -> list[str]:
    """Tactical Retreat: adjacent land spaces without foreign units or cities with room for the
    defender's army units."""
    from engine.clash.board import is_land, neighbours
    from engine.clash.cities import armies_on

    if battle["kind"] != "land":
        return []
    seat = int(battle["defender"])
    n = len(fighting_units(state, battle, "defender"))
    out = []
    for h in neighbours(state, str(battle["space"])):
        if not is_land(state, h) or h not in state.terrain:
            continue
        city = state.city_at(h)
        if city is not None and city.owner != seat:
            continue
        if any(u.space == h and u.owner != seat for u in state.units):
            continue
        if armies_on(state, h, seat) + n <= LIMITS["stack"]:
            out.append(h)
    return sorted(out)


register_cards(CombatCardProvider())
