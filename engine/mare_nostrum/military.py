"""The military phase (10): the sea step (launches, moves, optional sea battles) and the land
step (legion moves by land or trireme chain, mandatory battles, conquest), Helen of Troy,
loss choices by the side that takes the hits, neutral defenders.

Why the turn keeps a small record (``pending["mil"]``): the rules limit each enemy side to
one attack per province or zone per turn (AD-16, AD-18), close the conquest chance of a
province once the player acts elsewhere (AD-47) and allow one pillage per province and turn
(AD-11); everything else is derived from the units' ``moved``/``fought``/``used`` flags.
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event, public
from engine.core.rng import Rng
from engine.core.text import count, join_words
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.board import clear_war_placements, has, in_supply, neighbours, sides_in, units_at
from engine.mare_nostrum.commerce import name, one_card
from engine.mare_nostrum.data import CIV_DATA, PROVINCES, SEAS, TAX, province_name
from engine.mare_nostrum.state import State, Unit, add


def start_turn(s: State, civ: str) -> None:
    """A player's military turn begins: fresh unit flags and an empty turn record."""
    s.active = civ
    for u in s.units:
        if u.civ == civ:
            u.moved = u.fought = u.used = False
    s.pending["mil"] = {"land": False, "attacked": [], "closed": [], "pillaged": {}}


def _mil(s: State) -> dict[str, Any]:
    rec: dict[str, Any] = s.pending["mil"]
    return rec


def qualifying(s: State, civ: str) -> list[str]:
    """AD-47: provinces where ``civ`` has legions, owned by another side, with no other side's land units."""
    out = []
    for pid in sorted({u.loc for u in s.units if u.civ == civ and u.kind == "legion"}):
        owner = s.provs[pid].owner
        if owner is not None and owner != civ and sides_in(s, pid) == [civ]:
            out.append(pid)
    return out


def _attacked(s: State, loc: str, enemy: str) -> bool:
    return [loc, enemy] in _mil(s)["attacked"]


def _enemies_left(s: State, civ: str, pid: str) -> list[str]:
    return [e for e in sides_in(s, pid) if e != civ and not _attacked(s, pid, e)]


def _free_legions(s: State, civ: str, pid: str) -> list[Unit]:
    return [u for u in s.units if u.loc == pid and u.civ == civ and u.kind == "legion" and not u.place and not u.used]


def military_actions(s: State, civ: str) -> list[Action]:
    """Every move of the active player's military turn."""
    rec = _mil(s)
    acts: list[Action] = []
    ships = [u for u in s.units if u.civ == civ and u.kind == "trireme"]
    if not rec["land"]:
        launch = sorted({u.loc for u in ships if u.docked and not u.moved})
        acts += [Action("launch", (p, z)) for p in launch for z in PROVINCES[p].seas]
        sail = sorted({u.loc for u in ships if not u.docked and not u.moved and not u.fought})
        acts += [Action("sail", (z, nz)) for z in sail for nz in SEAS[z].adjacent]
        for z in sorted({u.loc for u in ships if not u.docked and not u.fought}):
            foes = sorted({u.civ for u in s.units if u.loc == z and u.kind == "trireme" and u.civ != civ})
            acts += [Action("attack", (e, z)) for e in foes if not _attacked(s, z, e)]
    # legion moves
    groups: dict[tuple[str, str], int] = {}
    for u in s.units:
        if u.civ == civ and u.kind == "legion" and not u.moved and not u.fought:
            groups[(u.loc, u.place)] = groups.get((u.loc, u.place), 0) + 1
    sides: dict[str, set[str]] = {}
    for u in s.units:
        if u.kind in ("legion", "fortress"):
            sides.setdefault(u.loc, set()).add(u.civ)
    attacked = {(loc, e) for loc, e in rec["attacked"]}
    for (pid, place) in sorted(groups):
        for q in sorted(neighbours(s, civ, pid)):
            enemy_sides = sides.get(q, set()) - {civ}
            if enemy_sides and all((q, e) in attacked for e in enemy_sides):
                continue  # Decision: no entering a province where every enemy side was already attacked.
            acts.append(Action("march", (pid, q, place) if place else (pid, q)))
    # land battles
    for pid in sorted({u.loc for u in s.units if u.civ == civ and u.kind == "legion" and not u.fought}):
        foes = _enemies_left(s, civ, pid)
        legions = sum(1 for u in units_at(s, pid, civ, ("legion",)) if not u.fought)
        forts = sum(1 for u in units_at(s, pid, civ, ("fortress",)) if not u.fought)
        for e in foes:
            # Decision: the battle against the last enemy side not yet attacked here takes every
            # legion and fortress that has not fought (AD-16: every legion fights once).
            if len(foes) == 1:
                acts.append(Action("attack", (e, pid, str(legions), str(forts))))
            else:
                acts += [Action("attack", (e, pid, str(k), str(f))) for k in range(1, legions + 1)
                         for f in range(forts + 1)]
    # conquest
    for pid in qualifying(s, civ):
        if pid in rec["closed"]:
            continue
        pr = s.provs[pid]
        if rec["pillaged"].get(pid, 0) < int(s.options.get("pillage_buildings_per_turn", 1)):
            acts += [Action("pillage", (pid, b)) for b in pr.buildings()]
        if _free_legions(s, civ, pid):
            taken = {u.place for u in s.units if u.loc == pid and u.place}
            acts += [Action("occupy", (pid, b)) for b in pr.buildings() if b not in taken]
            owner = str(pr.owner)
            is_capital = s.is_player(owner) and CIV_DATA[owner].capital == pid
            if "influence" not in taken and not is_capital:
                acts.append(Action("claim", (pid,)))
    if not obligations(s, civ):
        acts.append(Action("done"))
    return acts


def obligations(s: State, civ: str) -> list[str]:
    """AD-16: provinces where an unfought legion of ``civ`` still has an enemy side to attack."""
    out = []
    for pid in sorted({u.loc for u in s.units if u.civ == civ and u.kind == "legion" and not u.fought}):
        if _enemies_left(s, civ, pid):
            out.append(pid)
    return out


def _close_others(s: State, civ: str, keep: str) -> None:
    """AD-47: acting elsewhere ends the conquest chance of every other qualifying province."""
    rec = _mil(s)
    for pid in qualifying(s, civ):
        if pid != keep and pid not in rec["closed"]:
            rec["closed"].append(pid)


def apply_military(s: State, civ: str, a: Action) -> list[Event]:
    """Carry out a validated move of the active player."""
    rec = _mil(s)
    k, x = a.kind, a.args
    if k == "launch":
        u = next(u for u in s.units if u.civ == civ and u.kind == "trireme" and u.docked and not u.moved
                 and u.loc == x[0])
        u.docked, u.loc, u.moved = False, x[1], True
        s.last = [x[0], x[1]]
        return [public(f"{name(civ)} launches a trireme from {province_name(x[0])} into {province_name(x[1])}.",
                       "move")]
    if k == "sail":
        u = next(u for u in s.units if u.civ == civ and u.kind == "trireme" and not u.docked and not u.moved
                 and not u.fought and u.loc == x[0])
        u.loc, u.moved = x[1], True
        s.last = [x[0], x[1]]
        return [public(f"{name(civ)} sails a trireme from {province_name(x[0])} to {province_name(x[1])}.", "move")]
    if k == "attack" and len(x) == 2:
        return _sea_battle(s, civ, x[0], x[1])
    if k == "done":
        _close_others(s, civ, "")
        clear_war_placements(s)
        s.done.append(civ)
        s.active = ""
        s.pending.pop("mil", None)
        return [public(f"{name(civ)} ends the military turn.", "military")]
    # Decision: the first legion move, land battle or conquest step ends the sea step (AD-50).
    rec["land"] = True
    if k == "march":
        _close_others(s, civ, x[1])
        place = x[2] if len(x) > 2 else ""
        idx = next(i for i, u in enumerate(s.units) if u.civ == civ and u.kind == "legion" and u.loc == x[0]
                   and u.place == place and not u.moved and not u.fought)
        u = s.units[idx]
        u.loc, u.moved, u.place = x[1], True, ""
        s.last = [x[0], x[1]]
        events = [public(f"{name(civ)} moves a legion from {province_name(x[0])} to {province_name(x[1])}.", "move")]
        owner = s.provs[x[1]].owner
        # Decision: Helen's owner is asked on every eligible entry; declining does not use her up.
        if (owner and owner != civ and s.is_player(owner) and has(s, owner, "helen")
                and "helen" not in s.used[owner] and in_supply(s, owner, "legion") > 0):
            s.pending["helen"] = {"owner": owner, "prov": x[1], "index": idx}
        return events
    if k == "attack":
        _close_others(s, civ, x[1])
        return _land_battle(s, civ, x[0], x[1], int(x[2]), int(x[3]))
    pid = x[0]
    _close_others(s, civ, pid)
    s.last = [pid]
    pr = s.provs[pid]
    if k == "pillage":
        b = x[1]
        rec["pillaged"][pid] = rec["pillaged"].get(pid, 0) + 1
        kind, _, what = b.partition(":")
        if kind == "city":
            pr.cities.remove(what)
        elif kind == "caravan":
            pr.caravans.remove(what)
        elif kind == "temple":
            pr.temple = False
        else:
            pr.market = False
        s.supply[kind] += 1
        for u in s.units:
            if u.loc == pid and u.place == b:
                u.place = ""  # AD-48: the legion stays, unplaced, and may be placed again
                u.used = False
        events = [public(f"{name(civ)} pillages {_bname(b)} in {province_name(pid)}.", "conquest")]
        if has(s, civ, "nebuchadnezzar") and kind in ("city", "caravan"):
            card = TAX if kind == "city" else what
            if s.bank.get(card, 0) > 0:
                add(s.bank, card, -1)
                add(s.hands[civ], card)
                events.append(public(f"Nebuchadnezzar gives {name(civ)} {one_card(card)}.", "conquest"))
        return events
    legion = _free_legions(s, civ, pid)[0]
    legion.used = True
    if k == "occupy":
        legion.place = x[1]
        return [public(f"{name(civ)} occupies {_bname(x[1])} in {province_name(pid)}.", "conquest")]
    legion.place = "influence"
    return [public(f"{name(civ)} places a legion on {name(str(pr.owner))}'s influence in {province_name(pid)} "
                   "to annex it.", "conquest")]


def _bname(b: str) -> str:
    kind, _, what = b.partition(":")
    if kind == "city":
        return f"the city of {what}"
    if kind == "caravan":
        return f"the {what} caravan"
    return f"the {kind}"


def helen_actions(s: State) -> list[Action]:
    return [Action("helen", ("yes",)), Action("helen", ("no",))]


def apply_helen(s: State, a: Action) -> list[Event]:
    """AD-27: the entering legion goes home and one of the owner's legions takes its place."""
    info = s.pending.pop("helen")
    if a.args[0] == "no":
        return []
    owner, pid = info["owner"], info["prov"]
    entering = s.units.pop(int(info["index"]))
    s.units.append(Unit(owner, "legion", pid))
    s.used[owner].append("helen")
    return [public(f"{name(owner)} plays Helen of Troy: {name(entering.civ)}'s legion entering "
                   f"{province_name(pid)} is replaced by a legion of {name(owner)}.", "military")]


def _roll(rng: Rng, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def _sea_battle(s: State, civ: str, enemy: str, zone: str) -> list[Event]:
    """10.5 at sea: all of the attacker's unfought triremes there against all the enemy's."""
    _mil(s)["attacked"].append([zone, enemy])
    mine = [u for u in s.units if u.civ == civ and u.loc == zone and u.kind == "trireme" and not u.fought]
    theirs = [u for u in s.units if u.civ == enemy and u.loc == zone and u.kind == "trireme"]
    rng = Rng(s.rng)
    da, dd = _roll(rng, len(mine)), _roll(rng, len(theirs))
    s.rng = rng.state
    ta = sum(da) + (len(da) if has(s, civ, "pericles") else 0)
    td = sum(dd) + (len(dd) if has(s, enemy, "pericles") else 0)
    for u in mine:
        u.fought = True
    lost_a, lost_d = min(td // 5, len(mine)), min(ta // 5, len(theirs))
    for u in mine[:lost_a] + theirs[:lost_d]:
        s.units.remove(u)
    s.last = [zone]
    return [public(f"Sea battle in {province_name(zone)}: {name(civ)} rolls {_dice(da)} (total {ta}), "
                   f"{name(enemy)} rolls {_dice(dd)} (total {td}). {name(civ)} loses "
                   f"{count(lost_a, 'trireme')}, {name(enemy)} loses {count(lost_d, 'trireme')}.", "battle",
                   dice={civ: da, enemy: dd})]


def _dice(d: list[int]) -> str:
    return join_words(str(x) for x in d) if d else "nothing"


def _land_battle(s: State, civ: str, enemy: str, pid: str, k: int, f: int) -> list[Event]:
    """10.5 on land: committed legions and fortresses against all the enemy's land units there."""
    _mil(s)["attacked"].append([pid, enemy])
    legions = [u for u in s.units if u.civ == civ and u.loc == pid and u.kind == "legion" and not u.fought][:k]
    forts = [u for u in s.units if u.civ == civ and u.loc == pid and u.kind == "fortress" and not u.fought][:f]
    d_legions = units_at(s, pid, enemy, ("legion",))
    d_forts = units_at(s, pid, enemy, ("fortress",))
    rng = Rng(s.rng)
    da, dd = _roll(rng, len(legions)), _roll(rng, len(d_legions))
    s.rng = rng.state
    ta = sum(da) + 6 * len(forts) + (len(da) if has(s, civ, "hannibal") else 0)
    td = sum(dd) + 6 * len(d_forts) + (len(dd) if has(s, enemy, "hannibal") else 0)
    for u in legions + forts:
        u.fought = True
    s.last = [pid]
    a_forts = f" with {count(len(forts), 'fortress')}" if forts else ""
    d_extra = f" with {count(len(d_forts), 'fortress')}" if d_forts else ""
    events = [public(f"Battle in {province_name(pid)}: {name(civ)} rolls {_dice(da)}{a_forts} (total {ta}), "
                     f"{name(enemy)} rolls {_dice(dd)}{d_extra} (total {td}). {name(civ)} scores "
                     f"{count(ta // 5, 'hit')}, {name(enemy)} {count(td // 5, 'hit')}.", "battle",
                     dice={civ: da, enemy: dd}, province=pid)]
    s.pending["losses"] = [
        {"civ": civ, "loc": pid, "hits": td // 5, "attacker": True, "legion": len(legions), "fortress": len(forts)},
        {"civ": enemy, "loc": pid, "hits": ta // 5, "attacker": False},
    ]
    events += settle_losses(s)
    return events


def loss_pool(s: State, entry: dict[str, Any]) -> list[Unit]:
    """Units that may be taken as losses: all the defender's land units there; for the
    attacker, only as many legions and fortresses as it committed to this battle (units that
    fought an earlier battle in the same province are alike, so any of them stands in)."""
    if not entry["attacker"]:
        return [u for u in s.units
                if u.civ == entry["civ"] and u.loc == entry["loc"] and u.kind in ("legion", "fortress")]
    out: list[Unit] = []
    for kind in ("legion", "fortress"):
        mine = [u for u in s.units if u.civ == entry["civ"] and u.loc == entry["loc"] and u.kind == kind and u.fought]
        out += mine[: int(entry.get(kind, 0))]
    return out


def _classes(pool: list[Unit]) -> list[tuple[str, str]]:
    return sorted({(u.kind, u.place) for u in pool})


def settle_losses(s: State) -> list[Event]:
    """Apply every loss with no real choice (all units alike, or all must go; neutrals lose
    legions first, AD-45); the sides that must choose are asked one after the other."""
    events: list[Event] = []
    queue: list[dict[str, Any]] = s.pending.get("losses", [])
    for entry in list(queue):
        pool = loss_pool(s, entry)
        if entry["hits"] <= 0 or not pool:
            queue.remove(entry)
            continue
        if entry["hits"] >= len(pool) or len(_classes(pool)) == 1 or not s.is_player(entry["civ"]):
            pool.sort(key=lambda u: u.kind != "legion")
            gone = pool[: entry["hits"]]
            for u in gone:
                s.units.remove(u)
                if entry["attacker"]:
                    entry[u.kind] -= 1
            legs = sum(1 for u in gone if u.kind == "legion")
            events.append(public(f"{name(entry['civ'])} loses " + join_words(
                x for x in (count(legs, "legion") if legs else "",
                            count(len(gone) - legs, "fortress") if len(gone) > legs else "")) + ".", "battle"))
            queue.remove(entry)
    if queue:
        return events
    s.pending.pop("losses", None)
    # Decision: placements in a war-torn province are cleared once the battle's losses are
    # taken (and at the end of every turn), not when a legion enters, so an occupier who wins
    # its defence keeps its placements (QA-26).
    clear_war_placements(s)
    return events


def loss_actions(s: State) -> list[Action]:
    entry = s.pending["losses"][0]
    return [Action("lose", (kind, place) if place else (kind,)) for kind, place in _classes(loss_pool(s, entry))]


def apply_loss(s: State, a: Action) -> list[Event]:
    entry = s.pending["losses"][0]
    place = a.args[1] if len(a.args) > 1 else ""
    u = next(u for u in loss_pool(s, entry) if u.kind == a.args[0] and u.place == place)
    s.units.remove(u)
    entry["hits"] -= 1
    if entry["attacker"]:
        entry[u.kind] -= 1
    events = [public(f"{name(entry['civ'])} loses a {a.args[0]}"
                     + (f" from {_bname(place)}" if place and place != "influence" else "") + ".", "battle")]
    return events + settle_losses(s)


def loss_chooser(s: State) -> str:
    return str(s.pending["losses"][0]["civ"])
