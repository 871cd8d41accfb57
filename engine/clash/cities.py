"""Cities: founding, activation (Collect, Build, Increase City Size), mood and Civic Improvement
(rules sections 5 and 8.2-8.5).

Why options are enumerated here as small tuples: a Collect is fully described by the multiset of
resources it yields (which space gave which does not matter once the spaces are legal), a Build by
the units it makes, so ``legal_actions`` can list every distinct outcome without listing every
equivalent assignment of spaces.
"""

from __future__ import annotations

from collections import Counter

from engine.clash.board import distances_from, is_land, neighbours, terrain
from engine.clash.data import LIMITS, RULES, TABLES
from engine.clash.resources import add_cost, gain, gain_culture, gain_mood, pay, plan_payment
from engine.clash.state import BARBARIAN, MOODS, City, Player, State, Unit

COLLECT_ORDER = ("food", "wood", "ore", "gold", "mood")
UNIT_KINDS = ("settler", "army", "ship")
BUILDING_ADVANCE = {"temple": "myths", "fortress": "tactics", "academy": "writing", "port": "fishing"}


# ------------------------------------------------------------------ counting
def units_of(state: State, seat: int, kind: str) -> int:
    """Units of ``kind`` of ``seat`` on the board (carried ones included)."""
    return sum(1 for u in state.units if u.owner == seat and u.kind == kind)


def pieces_of(state: State, seat: int, building: str) -> int:
    """Pieces of ``building`` in ``seat``'s colour on the board (in any city)."""
    return sum(1 for c in state.cities for b, col in c.pieces.items() if b == building and col == seat)


def armies_on(state: State, space: str, owner: int) -> int:
    """Army units of ``owner`` standing on ``space`` (units aboard ships do not count)."""
    return sum(1 for u in state.units if u.space == space and u.owner == owner and u.kind == "army" and u.carrier < 0)


def foreign_units(state: State, space: str, seat: int) -> bool:
    """Any unit on ``space`` not owned by ``seat`` (Barbarians included)."""
    return any(u.space == space and u.owner != seat for u in state.units)


class Occupancy:
    """Who stands where, indexed once per listing (legal-action listing asks this hundreds of times)."""

    def __init__(self, state: State) -> None:
        self.owners: dict[str, set[int]] = {}
        self.armies: Counter[tuple[str, int]] = Counter()
        self.cities: dict[str, City] = {c.space: c for c in state.cities}
        for u in state.units:
            self.owners.setdefault(u.space, set()).add(u.owner)
            if u.kind == "army" and u.carrier < 0:
                self.armies[(u.space, u.owner)] += 1

    def foreign(self, space: str, seat: int) -> bool:
        """Any unit not owned by ``seat`` on ``space``."""
        return any(o != seat for o in self.owners.get(space, ()))

    def hostile(self, space: str, seat: int) -> bool:
        """Foreign units or a foreign city on ``space``."""
        city = self.cities.get(space)
        return self.foreign(space, seat) or (city is not None and city.owner != seat)

    def own_city(self, space: str, seat: int) -> bool:
        """A city of ``seat`` on ``space``."""
        city = self.cities.get(space)
        return city is not None and city.owner == seat

    def armies_on(self, space: str, seat: int) -> int:
        """Army units of ``seat`` standing on ``space``."""
        return self.armies[(space, seat)]


def add_unit(state: State, seat: int, kind: str, space: str, carrier: int = -1) -> Unit:
    """Place a new unit (ships get the lowest free number 1..4)."""
    number = 0
    if kind == "ship":
        taken = {u.number for u in state.units if u.owner == seat and u.kind == "ship"}
        number = min(n for n in range(1, 5) if n not in taken)
    unit = Unit(state.new_id(), seat, kind, space, carrier, number)
    state.units.append(unit)
    return unit


def city_named(state: State, seat: int) -> str:
    """The next unused city name of ``seat``'s colour."""
    used = {c.name for c in state.cities}
    for name in TABLES.city_names[seat]:
        if name not in used:
            return name
    return f"{TABLES.colours[seat]} city {len(state.cities_of(seat)) + 1}"


# ------------------------------------------------------------------ mood and activation
def effective_size(state: State, city: City) -> int:
    """Happy size+1, neutral size, angry 1 (D-03); Forced Labor: angry acts as neutral."""
    mood = city.mood
    if mood == "angry" and city.owner >= 0 and state.pl[city.owner].forced_labor:
        mood = "neutral"
    if mood == "happy":
        return city.size + 1
    if mood == "neutral":
        return city.size
    return 1


def acts_angry(state: State, city: City) -> bool:
    """Angry and not turned neutral by Forced Labor this turn."""
    return city.mood == "angry" and not (city.owner >= 0 and state.pl[city.owner].forced_labor)


def can_activate(state: State, city: City) -> bool:
    """An angry city is activated at most once per turn (D-02); Forced Labor keeps that limit."""
    return not (city.mood == "angry" and city.activations >= 1)


def finish_activation(city: City) -> bool:
    """Count the activation; a second or later one this turn lowers the mood one step as its
    last step (rules 5.5). Returns True when the mood dropped."""
    dropped = False
    if city.activations >= 1 and city.mood != "angry":
        city.mood = MOODS[MOODS.index(city.mood) - 1]
        dropped = True
    city.activations += 1
    return dropped


# ------------------------------------------------------------------ found
def can_found_at(state: State, seat: int, space: str) -> bool:
    """Rules 8.2: land, not Barren, no exhausted marker, no city, no foreign units, a Settlement."""
    return (
        is_land(state, space)
        and terrain(state, space) != "barren"
        and space not in state.exhausted
        and state.city_at(space) is None
        and not foreign_units(state, space, seat)
        and len(state.cities_of(seat)) < LIMITS["settlement"]
    )


def found_spaces(state: State, seat: int) -> list[str]:
    """Spaces where one of ``seat``'s settlers (not aboard a ship) may found a city."""
    spaces = {u.space for u in state.units if u.owner == seat and u.kind == "settler" and u.carrier < 0}
    return sorted(s for s in spaces if can_found_at(state, seat, s))


def found(state: State, seat: int, space: str) -> City:
    """Remove a settler and place a new neutral size-1 city."""
    settler = next(
        u for u in state.units if u.owner == seat and u.kind == "settler" and u.space == space and u.carrier < 0
    )
    state.units.remove(settler)
    city = City(state.new_id(), seat, space, city_named(state, seat))
    state.cities.append(city)
    return city


# ------------------------------------------------------------------ collect
def port_works(state: State, city: City) -> bool:
    """The city's Port gives its powers (building Ships, Gold or a mood token from the sea) only
    to an owner with Fishing, the Port's advance: a Port taken by capture does nothing for a
    captor without Fishing, though it still counts for size and points (rules 5.3, 10.8)."""
    return "port" in city.pieces and city.owner >= 0 and "fishing" in state.pl[city.owner].advances


def _yields(p: Player, ter: str, port: bool) -> tuple[str, ...]:
    adv = p.advances
    if ter == "fertile":
        return ("food",) if "farming" in adv else ()
    if ter == "forest":
        return ("wood",) if "farming" in adv else ()
    if ter == "mountain":
        return ("ore",) if "mining" in adv else ()
    if ter == "barren":
        return ("food",) if "irrigation" in adv else ()
    if ter == "sea" and "fishing" in adv:
        return ("food", "gold", "mood") if port else ("food",)
    return ()


def collect_spaces(
    state: State, seat: int, city: City, husbandry: bool, occ: Occupancy | None = None
) -> list[tuple[str, tuple[str, ...]]]:
    """Usable spaces with what each may yield (rules 8.3.1, D-24)."""
    p = state.pl[seat]
    port = port_works(state, city)
    cands = {city.space, *neighbours(state, city.space)}
    if husbandry:
        for h, d in distances_from(state, city.space, 2).items():
            if d <= 2 and is_land(state, h):
                cands.add(h)
    out = []
    occ = occ or Occupancy(state)
    for h in sorted(cands):
        ter = terrain(state, h)
        if not ter or h in state.exhausted or occ.foreign(h, seat):
            continue
        other = occ.cities.get(h)
        if other is not None and other.id != city.id:
            continue
        if ter == "sea" and h not in neighbours(state, city.space):
            continue
        ys = _yields(p, ter, port)
        if ys:
            out.append((h, ys))
    return out


def collect_options(
    state: State, seat: int, city: City, husbandry: bool, occ: Occupancy | None = None
) -> list[tuple[str, ...]]:
    """Every distinct maximal collection (sorted resource tuples).

    Decision: only collections of the largest possible number of resources are offered; taking
    fewer is never better (an excess is simply lost at the cap) and would only lengthen the list."""
    spaces = collect_spaces(state, seat, city, husbandry, occ)
    land = Counter(ys[0] for h, ys in spaces if terrain(state, h) != "sea")
    sea_opts = sorted({y for h, ys in spaces if terrain(state, h) == "sea" for y in ys})
    e = effective_size(state, city)
    most = min(e, sum(land.values()) + (1 if sea_opts else 0))
    found_: set[tuple[str, ...]] = set()
    for f in range(land["food"] + 1):
        for w in range(land["wood"] + 1):
            for o in range(land["ore"] + 1):
                base = f + w + o
                if base > most:
                    continue
                items = ["food"] * f + ["wood"] * w + ["ore"] * o
                if base == most:
                    found_.add(_sorted(items))
                elif base + 1 == most:
                    for s in sea_opts:
                        found_.add(_sorted([*items, s]))
    return sorted(found_, key=lambda t: [COLLECT_ORDER.index(x) for x in t])


def _sorted(items: list[str]) -> tuple[str, ...]:
    return tuple(sorted(items, key=COLLECT_ORDER.index))


def husbandry_cost(p: Player) -> int:
    """Food paid before a Husbandry collect (0 with Roads)."""
    return 0 if "roads" in p.advances else 1


def collect(state: State, seat: int, city: City, items: tuple[str, ...]) -> None:
    """Gain the collected resources (caps apply afterwards) and Public Education's Idea."""
    p = state.pl[seat]
    for r in items:
        if r == "mood":
            gain_mood(p)
        else:
            gain(p, r)
    if "public_education" in p.advances and "academy" in city.pieces and "public_education" not in p.used:
        p.used.append("public_education")
        gain(p, "ideas")


# ------------------------------------------------------------------ build units
def unit_cost(kind: str) -> dict[str, int]:
    """Resources one unit costs (AD-31)."""
    return dict(RULES["unit_cost"][kind])


def draft_tokens(p: Player) -> int:
    """Mood tokens for one army paid through Draft (2 with Civil Liberties)."""
    return 2 if "civil_liberties" in p.advances else 1


def build_cost(p: Player, items: tuple[str, ...], draft: bool) -> dict[str, int]:
    """Resources for a Build (one army fewer when paid with mood tokens through Draft)."""
    kinds = list(items)
    if draft:
        kinds.remove("army")
    return add_cost(*(unit_cost(k) for k in kinds))


def build_options(state: State, seat: int, city: City) -> list[tuple[tuple[str, ...], bool]]:
    """Every affordable Build of this city: (units sorted settler/army/ship, paid by Draft)."""
    p = state.pl[seat]
    e = effective_size(state, city)
    max_s = min(e, LIMITS["settler"] - units_of(state, seat, "settler"))
    max_a = min(e, LIMITS["army"] - units_of(state, seat, "army"), LIMITS["stack"] - armies_on(state, city.space, seat))
    max_h = min(e, LIMITS["ship"] - units_of(state, seat, "ship")) if port_works(state, city) and city.port_space else 0
    # A Build onto a foreign ship starts a naval battle the builder cannot stop (D-15); see
    # :func:`engine.clash.combat.battle_after_build`.
    out = []
    can_draft = "draft" in p.advances and p.mood_tokens >= draft_tokens(p)
    for s in range(max(0, max_s) + 1):
        for a in range(max(0, max_a) + 1):
            for h in range(max(0, max_h) + 1):
                if not 1 <= s + a + h <= e:
                    continue
                items = ("settler",) * s + ("army",) * a + ("ship",) * h
                for draft in (False, True) if (a and can_draft) else (False,):
                    if plan_payment(p, build_cost(p, items, draft)) is not None:
                        out.append((items, draft))
    return out


def build(state: State, seat: int, city: City, items: tuple[str, ...], draft: bool, token: str) -> None:
    """Pay and place the units (ships on the port space); Draft, Medicine and Nationalism."""
    p = state.pl[seat]
    plan = plan_payment(p, build_cost(p, items, draft))
    if plan is None:
        raise AssertionError("build without the means to pay")
    pay(p, plan)
    if draft:
        p.mood_tokens -= draft_tokens(p)
    for kind in items:
        add_unit(state, seat, kind, city.port_space if kind == "ship" else city.space)
    if "medicine" in p.advances and plan:
        # Decision: Medicine returns the most flexible resource spent (Gold, then Ore, Food, Wood).
        back = next(r for r in ("gold", "ore", "food", "wood") if plan.get(r))
        gain(p, back)
    if token:
        if token == "mood":
            gain_mood(p)
        else:
            gain_culture(p)


def nationalism_applies(p: Player, items: tuple[str, ...]) -> bool:
    """Nationalism's token after a Build with at least one army unit or Ship."""
    return "nationalism" in p.advances and any(k in ("army", "ship") for k in items)


# ------------------------------------------------------------------ increase city size
def grow_cost(p: Player, building: str) -> dict[str, int]:
    """1 Food + 1 Ore + 1 Wood; State Religion: a Temple without Food once per turn."""
    cost = dict(RULES["building_cost"])
    if building == "temple" and "state_religion" in p.advances and "state_religion" not in p.used:
        cost.pop("food", None)
    return cost


def sea_neighbours(state: State, space: str) -> list[str]:
    """Revealed Sea spaces next to ``space``."""
    return sorted(h for h in neighbours(state, space) if terrain(state, h) == "sea")


def grow_options(state: State, seat: int, city: City) -> list[tuple[str, str, str, bool]]:
    """Every legal Increase City Size: (building, port space, temple token, Sanitation settler)."""
    p = state.pl[seat]
    if acts_angry(state, city) or city.size >= LIMITS["city_size"] or city.size + 1 > len(state.cities_of(seat)):
        return []
    out = []
    for b in ("temple", "fortress", "academy", "port"):
        if b in city.pieces or BUILDING_ADVANCE[b] not in p.advances or pieces_of(state, seat, b) >= LIMITS[b]:
            continue
        ports = sea_neighbours(state, city.space) if b == "port" else [""]
        tokens = ("mood", "culture") if b == "temple" else ("",)
        san = [False]
        if "sanitation" in p.advances and units_of(state, seat, "settler") < LIMITS["settler"]:
            san.append(True)
        for port in ports:
            for tok in tokens:
                for s in san:
                    cost = add_cost(grow_cost(p, b), {"food": 1} if s else {})
                    if plan_payment(p, cost) is not None:
                        out.append((b, port, tok, s))
    return out


def grow(state: State, seat: int, city: City, building: str, port: str, token: str, sanitation: bool) -> None:
    """Pay, add the piece and apply its "when built" effect (Academy +2 Ideas, Temple token)."""
    p = state.pl[seat]
    cost = grow_cost(p, building)
    if building == "temple" and "food" not in cost:
        p.used.append("state_religion")
    plan = plan_payment(p, add_cost(cost, {"food": 1} if sanitation else {}))
    if plan is None:
        raise AssertionError("grow without the means to pay")
    pay(p, plan)
    city.pieces[building] = seat
    if building == "port":
        city.port_space = port
    if building == "academy":
        gain(p, "ideas", 2)
    if building == "temple":
        if token == "mood":
            gain_mood(p)
        else:
            gain_culture(p)
    if sanitation:
        add_unit(state, seat, "settler", city.space)


# ------------------------------------------------------------------ civic improvement
def step_cost(p: Player, city: City) -> int:
    """Mood tokens per mood step: the city's size (Circus & Sports: one less, at least 1)."""
    if "circus_sports" in p.advances:
        return max(1, city.size - 1)
    return city.size


def civic_payment(p: Player, total: int) -> dict[str, int] | None:
    """Pay ``total`` mood tokens; with Rituals, Food, Wood, Ore and Gold may stand in (never Ideas).

    Decision: mood tokens are used first, then Food, Wood, Ore and Gold in that order."""
    taken: dict[str, int] = {}
    need = total
    use = min(p.mood_tokens, need)
    if use:
        taken["mood"] = use
    need -= use
    if need and "rituals" in p.advances:
        for r in ("food", "wood", "ore", "gold"):
            use = min(p.res[r], need)
            if use:
                taken[r] = use
                need -= use
    return taken if need == 0 else None


def civic(state: State, seat: int, city: City, steps: int) -> dict[str, int]:
    """Raise the city's mood ``steps`` steps and pay; returns what was paid."""
    p = state.pl[seat]
    plan = civic_payment(p, steps * step_cost(p, city))
    if plan is None:
        raise AssertionError("civic improvement without the means to pay")
    for r, n in plan.items():
        if r == "mood":
            p.mood_tokens -= n
        else:
            p.res[r] -= n
    city.mood = MOODS[min(2, MOODS.index(city.mood) + steps)]
    return plan


def barbarian_cities(state: State) -> list[City]:
    """The Barbarian settlements on the map."""
    return [c for c in state.cities if c.owner == BARBARIAN]
