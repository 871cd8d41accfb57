"""Movement: land groups, Roads, ships with cargo, embarking and disembarking, Navigation and
exploration (rules section 9).

Why a Move action is taken one move at a time: a Move action is up to three moves, each possibly
revealing a region and asking for a choice before the next; listing every triple of moves would be
enormous. The first move of a Move action spends the action and opens ``state.mode == "move"``;
the next two moves belong to it until ``done`` or any other action closes it. ``Unit.moved``
holds the serial of the Move action so each unit moves once per action (rules 8.4).

A move into foreign units or a foreign city starts a battle (:mod:`engine.clash.combat`): the
group arrives, the battle is fought at once, and the Move action goes on afterwards.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from engine.clash.actions import Action
from engine.clash.board import (
    geometry,
    is_land,
    land_orientations,
    navigation_targets,
    neighbours,
    placement,
    reveal,
    revealed,
    rules_2_3,
    sea_group,
    ship_orientations,
    slot_of,
    terrain,
)
from engine.clash.cities import Occupancy, foreign_units
from engine.clash.combat import attack_refusal, start_land_battle, start_naval_battle
from engine.clash.data import LIMITS, TABLES
from engine.clash.state import BARBARIAN, City, State, Unit

BATTLE_REFUSAL = "That move cannot start a battle now. Type `moves` to see the attacks you can make."


def serial_for(state: State) -> int:
    """The Move action a move made now belongs to (the open one, or a new one)."""
    if state.mode == "move" and state.mode_left > 0:
        return state.move_serial
    return state.move_serial + 1


def can_start_new(state: State) -> bool:
    """Whether a new Move action may begin now (an action left)."""
    return state.actions_left >= 1


def _free_land(state: State, unit: Unit, serial: int) -> bool:
    if unit.moved == serial or unit.stopped or unit.fought:
        return False
    return not (unit.kind == "army" and "tactics" not in state.pl[unit.owner].advances)


def hostile(state: State, space: str, seat: int) -> bool:
    """Foreign units or a foreign city on ``space`` (entering it would be a battle)."""
    city = state.city_at(space)
    return foreign_units(state, space, seat) or (city is not None and city.owner != seat)


def _groups(armies: int, settlers: int) -> Iterable[tuple[str, ...]]:
    for a in range(armies + 1):
        for s in range(settlers + 1):
            if a + s:
                yield ("army",) * a + ("settler",) * s


def ship_capacity(state: State, space: str, seat: int) -> int:
    """Free cargo places on ``seat``'s ships on ``space``."""
    ships = [u for u in state.units if u.space == space and u.owner == seat and u.kind == "ship"]
    cargo = sum(1 for u in state.units if u.carrier in {s.id for s in ships})
    return LIMITS["cargo"] * len(ships) - cargo


def land_moves(state: State, seat: int, serial: int) -> list[Action]:
    """Every legal land move (walk, road, embark, disembark, explore) as a first-or-next move."""
    out: list[Action] = []
    p = state.pl[seat]
    occ = Occupancy(state)
    spaces: dict[tuple[str, bool], list[Unit]] = {}
    for u in state.units:
        if u.owner == seat and u.kind != "ship" and _free_land(state, u, serial):
            aboard = u.carrier >= 0
            if aboard and u.embarked == serial:
                continue
            spaces.setdefault((u.space, aboard), []).append(u)
    roads = "roads" in p.advances
    for (src, aboard), units in sorted(spaces.items()):
        armies = sum(1 for u in units if u.kind == "army")
        settlers = sum(1 for u in units if u.kind == "settler")
        groups = list(_groups(armies, settlers))
        for dest in neighbours(state, src):
            if not revealed(state, dest):
                # Exploring by land (also from a ship: the unit lands on the region it reveals).
                for g in groups:
                    out.append(Action("move", src, dest, items=g))
                continue
            ter = terrain(state, dest)
            if ter == "sea":
                if aboard:
                    continue
                cap = ship_capacity(state, dest, seat)
                # Decision: only ships fight ships; land units never board among foreign ships.
                if occ.hostile(dest, seat) or cap <= 0:
                    continue
                for g in groups:
                    if len(g) <= cap and not any(u.fought for u in units):
                        out.append(Action("move", src, dest, items=g))
                continue
            if occ.hostile(dest, seat):
                for g in groups:
                    if not attack_refusal(state, seat, dest, units, g):
                        out.append(Action("move", src, dest, items=g))
                continue
            room = LIMITS["stack"] - occ.armies_on(dest, seat)
            for g in groups:
                if g.count("army") > room:
                    continue
                out.append(Action("move", src, dest, items=g))
                if (
                    roads
                    and not aboard
                    and (occ.own_city(src, seat) or occ.own_city(dest, seat))
                    and ter in ("mountain", "forest")
                    and p.res["ore"] + p.res["gold"] >= 1
                ):
                    out.append(Action("move", src, dest, items=g, flags=("ore",)))
        if roads and not aboard:
            out.extend(_road_moves(state, seat, src, groups, occ, units))
    return out


def _road_moves(
    state: State, seat: int, src: str, groups: list[tuple[str, ...]], occ: Occupancy, units: list[Unit]
) -> list[Action]:
    """Two-space Roads moves from/to an own city (rules 9.2, D-08: a battle only at the end)."""
    p = state.pl[seat]
    out: list[Action] = []
    if p.res["food"] + p.res["gold"] < 1:
        return out
    reach: dict[str, bool] = {}
    for mid in neighbours(state, src):
        if not is_land(state, mid) or occ.hostile(mid, seat):
            continue
        for dest in neighbours(state, mid):
            if dest == src or dest in neighbours(state, src) or not is_land(state, dest):
                continue
            if not (occ.own_city(src, seat) or occ.own_city(dest, seat)):
                continue
            needs_ore = terrain(state, mid) == "mountain"
            reach[dest] = reach.get(dest, True) and needs_ore
    for dest, needs_ore in sorted(reach.items()):
        room = LIMITS["stack"] - occ.armies_on(dest, seat)
        attack = occ.hostile(dest, seat)
        for g in groups:
            if g.count("army") > room or (attack and attack_refusal(state, seat, dest, units, g)):
                continue
            if not needs_ore:
                out.append(Action("move", src, dest, items=g, flags=("road",)))
            if p.res["food"] + p.res["ore"] + p.res["gold"] >= 2 and _pay_road(p.res, True, True) is not None:
                out.append(Action("move", src, dest, items=g, flags=("ore", "road")))
    return out


def _pay_road(res: dict[str, int], food: bool, ore: bool) -> dict[str, int] | None:
    have = dict(res)
    taken: dict[str, int] = {}
    for r, need in (("food", food), ("ore", ore)):
        if not need:
            continue
        if have[r] >= 1:
            have[r] -= 1
            taken[r] = taken.get(r, 0) + 1
        elif have["gold"] >= 1:
            have["gold"] -= 1
            taken["gold"] = taken.get("gold", 0) + 1
        else:
            return None
    return taken


def _ship_reach(state: State, start: str, seat: int) -> set[str]:
    """Sea spaces a ship on ``start`` reaches in its sea group without passing a foreign ship."""
    seen = {start}
    queue = deque([start])
    nb = geometry(state.players).neighbours
    while queue:
        h = queue.popleft()
        for n in nb[h]:
            if n in seen or state.terrain.get(n) != "sea":
                continue
            seen.add(n)
            if not any(u.space == n and u.owner != seat and u.kind == "ship" for u in state.units):
                queue.append(n)
    return seen


def ship_moves(state: State, seat: int, serial: int) -> list[Action]:
    """Every legal ship move: within the sea group, exploring, and with Navigation around the edge."""
    out: list[Action] = []
    Occupancy(state)
    by_space: dict[str, list[Unit]] = {}
    for u in state.units:
        if u.owner == seat and u.kind == "ship" and u.moved != serial and not u.fought:
            by_space.setdefault(u.space, []).append(u)
    nav = "navigation" in state.pl[seat].advances
    for src, ships in sorted(by_space.items()):
        ships.sort(key=lambda u: u.number)
        subsets = _subsets([f"ship{u.number}" for u in ships])
        reach = _ship_reach(state, src, seat)
        dests: list[tuple[str, tuple[str, ...]]] = []
        for h in sorted(reach - {src}):
            dests.append((h, ()))
        for slot_id, hexes in _explorable(state, reach).items():
            dests.append((hexes[0], ()))
            del slot_id
        if nav:
            group = sea_group(state, src)
            seen = {d for d, _ in dests} | {src}
            for kind, where in navigation_targets(state, group):
                if kind == "sea":
                    if where not in seen:
                        dests.append((where, ("around",)))
                elif where not in seen:
                    dests.append((where, ("around",)))
        for items in subsets:
            for dest, flags in dests:
                out.append(Action("move", src, dest, items=items, flags=flags))
    return out


def _explorable(state: State, reach: set[str]) -> dict[str, list[str]]:
    geo = geometry(state.players)
    out: dict[str, set[str]] = {}
    for h in reach:
        for n in geo.neighbours[h]:
            if n not in state.terrain:
                out.setdefault(geo.slot_of[n], set()).add(n)
    return {k: sorted(v) for k, v in sorted(out.items())}


def _subsets(names: list[str]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    n = len(names)
    for mask in range(1, 1 << n):
        out.append(tuple(names[i] for i in range(n) if mask >> i & 1))
    return out


def move_options(state: State, seat: int) -> list[Action]:
    """Every legal next move (continuing the open Move action or starting a new one)."""
    if not (state.mode == "move" and state.mode_left > 0) and not can_start_new(state):
        return []
    serial = serial_for(state)
    return land_moves(state, seat, serial) + ship_moves(state, seat, serial)


# ------------------------------------------------------------------ carrying out
def _pick_land_units(state: State, seat: int, action: Action, serial: int) -> list[Unit]:
    """Decision: units of one kind on one space are interchangeable; the lowest ids move first
    (into a battle, units that entered a Forest this turn come last: they may not attack)."""
    attack = revealed(state, action.to) and hostile(state, action.to, seat)
    aboard_src = terrain(state, action.space) == "sea"
    pool = sorted(
        (
            u
            for u in state.units
            if u.owner == seat
            and u.space == action.space
            and u.kind != "ship"
            and (u.carrier >= 0) == aboard_src
            and _free_land(state, u, serial)
            and not (aboard_src and u.embarked == serial)
        ),
        key=lambda u: (attack and u.forest, u.id),
    )
    chosen: list[Unit] = []
    for kind in ("army", "settler"):
        need = action.items.count(kind)
        chosen.extend([u for u in pool if u.kind == kind][:need])
    return chosen


def apply_move(state: State, seat: int, action: Action) -> list[str]:
    """Carry out one move; may open a pending choice (exploration). Returns narration lines."""
    if not (state.mode == "move" and state.mode_left > 0):
        state.move_serial += 1
        state.actions_left -= 1
        state.mode = "move"
        state.mode_left = 3
    state.mode_left -= 1
    serial = state.move_serial
    state.changed.extend([action.space, action.to])
    if action.items and action.items[0].startswith("ship"):
        return _move_ships(state, seat, action, serial)
    units = _pick_land_units(state, seat, action, serial)
    dest = action.to
    if not revealed(state, dest):
        slot = slot_of(state, dest)
        opts = land_orientations(state, slot, dest)
        state.pending = {
            "kind": "orient",
            "seat": seat,
            "slot": slot.id,
            "options": [int(o) for o in opts],
            "units": [u.id for u in units],
            "dest": dest,
            "mode": "land",
            "origin": action.space,
        }
        if len(opts) == 1:
            return finish_orientation(state, opts[0])
        return ["reveals a region; choose how to turn it"]
    p = state.pl[seat]
    if "road" in action.flags or "ore" in action.flags:
        plan = _pay_road(p.res, "road" in action.flags, "ore" in action.flags)
        if plan is None:
            raise AssertionError("road move without the means to pay")
        for r, n in plan.items():
            p.res[r] -= n
    ter = terrain(state, dest)
    if hostile(state, dest, seat):
        for u in units:
            u.moved = serial
        return start_land_battle(state, seat, units, action.space, dest)
    if ter == "sea":
        _embark(state, seat, units, dest, serial)
        return ["embarks"]
    _arrive(state, units, dest, serial, ignore_terrain="ore" in action.flags)
    return []


def _embark(state: State, seat: int, units: list[Unit], dest: str, serial: int) -> None:
    ships = sorted(
        (u for u in state.units if u.space == dest and u.owner == seat and u.kind == "ship"), key=lambda u: u.number
    )
    for u in units:
        for s in ships:
            if sum(1 for c in state.units if c.carrier == s.id) < LIMITS["cargo"]:
                u.carrier = s.id
                break
        u.space = dest
        u.moved = serial
        u.embarked = serial


def _arrive(state: State, units: list[Unit], dest: str, serial: int, ignore_terrain: bool) -> None:
    ter = terrain(state, dest)
    for u in units:
        u.space = dest
        u.carrier = -1
        u.moved = serial
        if not ignore_terrain:
            if ter == "mountain":
                u.stopped = True
            elif ter == "forest":
                u.forest = True


def _ships_named(state: State, seat: int, space: str, names: tuple[str, ...]) -> list[Unit]:
    nums = {int(n[4:]) for n in names}
    return [u for u in state.units if u.owner == seat and u.kind == "ship" and u.space == space and u.number in nums]


def _place_ships(state: State, ships: list[Unit], dest: str, serial: int) -> None:
    ids = {s.id for s in ships}
    for s in ships:
        s.space = dest
        s.moved = serial
    for u in state.units:
        if u.carrier in ids:
            u.space = dest


def _move_ships(state: State, seat: int, action: Action, serial: int) -> list[str]:
    ships = _ships_named(state, seat, action.space, action.items)
    dest = action.to
    if revealed(state, dest):
        battle = hostile(state, dest, seat)
        _place_ships(state, ships, dest, serial)
        if battle:
            return start_naval_battle(state, seat, ships, action.space, dest, built=False)
        return ["sails around the board edge"] if "around" in action.flags else []
    slot = slot_of(state, dest)
    if "around" in action.flags:
        # Decision: a region reached around the board edge (rules 9.4) is entered from outside
        # the map, so its Sea needs no connection to the ship's group: rules 2 and 3 (then the
        # player's choice) turn it, and the ship ends on any of its Sea spaces (none: it returns).
        group: frozenset[str] = frozenset()
        opts = rules_2_3(state, slot, [False, True])
        enters = "sea" in placement(slot, False).values()
    else:
        group = sea_group(state, action.space)
        opts, enters = ship_orientations(state, slot, group)
    state.pending = {
        "kind": "orient",
        "seat": seat,
        "slot": slot.id,
        "options": [int(o) for o in opts],
        "units": [s.id for s in ships],
        "dest": dest,
        "mode": "ship" if enters else "ship_back",
        "origin": action.space,
        "group": sorted(group),
    }
    for s in ships:
        s.moved = serial
    if len(opts) == 1:
        return finish_orientation(state, opts[0])
    return ["reveals a region; choose how to turn it"]


def finish_orientation(state: State, rotated: bool) -> list[str]:
    """Reveal the pending region with the chosen orientation and complete the exploring move."""
    pend = state.pending
    slot = next(s for s in state.slots if s.id == pend["slot"])
    reveal(state, slot, rotated)
    seat = int(pend["seat"])
    units = [state.unit(i) for i in pend["units"]]
    serial = state.move_serial
    lines = [f"reveals a region ({'turned' if rotated else 'base'} orientation)"]
    state.changed.extend(slot.hexes)
    state.pending = {}
    if pend["mode"] == "land":
        _arrive(state, units, pend["dest"], serial, ignore_terrain=False)
    elif pend["mode"] == "ship":
        group = pend["group"]
        # The ship may end on any Sea space of the region connected to its sea group (rules 9.7).
        joined = sea_group(state, group[0]) if group else frozenset(slot.hexes)
        landing = sorted(h for h in slot.hexes if state.terrain[h] == "sea" and h in joined)
        if len(landing) == 1:
            _place_ships(state, units, landing[0], serial)
        else:
            state.pending = {
                "kind": "anchor",
                "seat": seat,
                "options": landing,
                "units": pend["units"],
                "slot": slot.id,
            }
            return lines
    elif pend["mode"] != "card":  # "card": explored by a card, no unit moves
        lines.append("the ship returns to where it started")
    lines.extend(
        barbarians_from_exploration(state, seat, slot.id, pend["dest"] if pend["mode"] in ("land", "card") else "")
    )
    return lines


def anchor(state: State, space: str) -> list[str]:
    """The exploring ship ends on the chosen Sea space of the new region."""
    pend = state.pending
    units = [state.unit(i) for i in pend["units"]]
    seat = int(pend["seat"])
    state.pending = {}
    _place_ships(state, units, space, state.move_serial)
    return barbarians_from_exploration(state, seat, str(pend["slot"]), "")


def barbarians_from_exploration(state: State, seat: int, slot_id: str, entered: str) -> list[str]:
    """Rules 11.1: a region with at least 2 Fertile spaces gets a Barbarian settlement and army
    on a Fertile space other than the one entered (the explorer chooses)."""
    slot = next(s for s in state.slots if s.id == slot_id)
    if slot.tile.startswith("start:") or not TABLES.tiles[slot.tile].barbarians:
        return []
    spaces = sorted(
        h
        for h in slot.hexes
        if state.terrain[h] == "fertile"
        and h != entered
        and state.city_at(h) is None
        and not any(u.space == h for u in state.units)
    )
    settlements = sum(1 for c in state.cities if c.owner == BARBARIAN)
    if not spaces or settlements >= LIMITS["barbarian_settlement"]:
        return []  # D-16: impossible steps are skipped.
    if len(spaces) == 1:
        return place_barbarians(state, spaces[0])
    state.pending = {"kind": "barbarians", "seat": seat, "options": spaces}
    return [f"Barbarians will appear in the new region: {TABLES.colours[seat]} chooses where"]


def place_barbarians(state: State, space: str) -> list[str]:
    """A Barbarian settlement with one Barbarian army unit."""
    state.pending = {}
    state.cities.append(City(state.new_id(), BARBARIAN, space, f"Barbarian camp {space.upper()}"))
    if sum(1 for u in state.units if u.owner == BARBARIAN) < LIMITS["barbarian_army"]:
        state.units.append(Unit(state.new_id(), BARBARIAN, "army", space))
    state.changed.append(space)
    return [f"Barbarians settle on {space.upper()}"]
