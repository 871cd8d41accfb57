"""Legal actions and the reasons for refusals.

Why the list is built from the same option functions the rules use (``collect_options``,
``build_options``, ``move_options``...): an action is legal exactly when it is listed, and the
carrying-out code can trust what it gets.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.advances import eligible, payment, reservable, switch_options
from engine.clash.board import revealed
from engine.clash.cities import (
    Occupancy,
    build_options,
    can_activate,
    civic_payment,
    collect_options,
    found_spaces,
    grow_options,
    husbandry_cost,
    nationalism_applies,
    sea_neighbours,
    step_cost,
)
from engine.clash.combat_choices import CHOICE_VERBS, COMBAT_KINDS, combat_options
from engine.clash.culture import ANSWER_KINDS as CULTURE_ANSWERS
from engine.clash.culture import COSTED as CULTURE_COSTED
from engine.clash.culture import PENDING_KINDS as CULTURE_PENDING
from engine.clash.culture import cost_words as culture_cost_words
from engine.clash.culture import pending_options as culture_pending
from engine.clash.culture import refusal as culture_refusal
from engine.clash.culture import turn_options as culture_turn_options
from engine.clash.data import LIMITS, TABLES
from engine.clash.movement import hostile, move_options
from engine.clash.refusals import ANSWERS, battle_refusal, land_move_refusal, pending_refusal
from engine.clash.rounds import free_advance_options, raze_options
from engine.clash.state import MOODS, City, State
from engine.clash.turns import dogma_options
from engine.core.text import count, plural_word, with_article


def legal(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a deterministic order."""
    if state.phase == "over":
        return []
    if state.pending:
        if int(state.pending["seat"]) != seat:
            return []
        return pending_options(state)
    if state.phase != "turn" or seat != state.active:
        return []
    return turn_options(state, seat)


def is_legal_action(state: State, seat: int, action: object) -> bool:
    """Whether ``action`` is legal, listing only the part of the moves it can be among."""
    if not isinstance(action, Action):
        return False
    if state.phase != "turn" or state.pending or seat != state.active:
        return action in legal(state, seat)
    if action.kind == "move":
        return action in move_options(state, seat)
    return action in turn_options(state, seat, with_moves=False)


def pending_options(state: State) -> list[Action]:
    """The choices of the open pending decision."""
    pend = state.pending
    kind = pend["kind"]
    seat = int(pend["seat"])
    if kind in CULTURE_PENDING:
        return culture_pending(state)
    if kind in COMBAT_KINDS:
        return combat_options(state)
    if kind == "orient":
        return [Action("orient", name="turned" if o else "base") for o in pend["options"]]
    if kind == "anchor":
        return [Action("anchor", to=h) for h in pend["options"]]
    if kind == "barbarians":
        return [Action("barbarians", to=h) for h in pend["options"]]
    if kind == "income":
        return [Action("income", n=g) for g in range(int(pend["n"]) + 1)]
    if kind == "free":
        return free_advance_options(state, seat)
    if kind == "dogma":
        return dogma_options(state, seat)
    if kind == "reserve":
        return [Action("reserve", name=w) for w in reservable(state)]
    if kind == "raze":
        return [Action("raze", space=c.space) for c in raze_options(state, seat)] + [Action("keep")]
    if kind == "first":
        return [Action("first", n=s) for s in range(state.players)]
    if kind == "card":
        from engine.clash.card_flow import pending_options as card_options

        return card_options(state)
    raise AssertionError(f"unknown pending {kind}")


def turn_options(state: State, seat: int, with_moves: bool = True) -> list[Action]:
    """The active player's actions in a turn (``with_moves=False``: all but unit moves)."""
    p = state.pl[seat]
    out: list[Action] = [Action("end")]
    if state.mode:
        out.append(Action("done"))
    has_action = state.actions_left >= 1
    mine = state.cities_of(seat)
    # Civic Improvement: a further city in the open action costs nothing more.
    for c in mine:
        if c.mood == "happy":
            continue
        for steps in (1, 2):
            if MOODS.index(c.mood) + steps > 2:
                continue
            cost = steps * step_cost(p, c)
            if (state.mode == "civic" or has_action) and civic_payment(p, cost) is not None:
                out.append(Action("civic", space=c.space, n=steps))
            if "voting" in p.advances and p.mood_tokens >= 1:
                q = p.mood_tokens
                p.mood_tokens -= 1
                ok = civic_payment(p, cost) is not None
                p.mood_tokens = q
                if ok:
                    out.append(Action("civic", space=c.space, n=steps, flags=("voting",)))
    if with_moves:
        out.extend(move_options(state, seat))
    free_collect = p.free_economy and p.collects == 0
    occ = Occupancy(state)
    if has_action or free_collect:
        for c in mine:
            if not can_activate(state, c):
                continue
            if p.free_economy and p.collects >= 1 and p.mood_tokens < 2:
                continue
            base = collect_options(state, seat, c, False, occ)
            for items in base:
                out.append(Action("collect", space=c.space, items=items))
            if (
                "husbandry" in p.advances
                and "husbandry" not in p.used
                and p.res["food"] + p.res["gold"] >= husbandry_cost(p)
            ):
                for items in collect_options(state, seat, c, True, occ):
                    if items not in base:
                        out.append(Action("collect", space=c.space, items=items, flags=("husbandry",)))
    if has_action:
        for adv in TABLES.advance_order:
            if eligible(p, adv) and payment(state, p, adv, False) is not None:
                for keep in switch_options(p, adv):
                    out.append(Action("advance", name=adv, items=keep))
        for space in found_spaces(state, seat):
            out.append(Action("found", space=space))
        for c in mine:
            if not can_activate(state, c):
                continue
            for items, draft in build_options(state, seat, c):
                flags: tuple[str, ...] = ("draft",) if draft else ()
                if nationalism_applies(p, items):
                    for tok in ("culture", "mood"):
                        out.append(Action("build", space=c.space, items=items, flags=tuple(sorted((*flags, tok)))))
                else:
                    out.append(Action("build", space=c.space, items=items, flags=flags))
            for b, port, tok, san in grow_options(state, seat, c):
                gflags = tuple(sorted(x for x in (tok, "settler" if san else "") if x))
                out.append(Action("grow", space=c.space, name=b, to=port, flags=gflags))
        if "taxes" in p.advances and "taxes" not in p.used and p.mood_tokens >= 1:
            out.append(Action("taxes"))
        if "civil_liberties" in p.advances:
            out.append(Action("liberties"))
        if (
            "cartography" in p.advances
            and "cartography" not in p.used
            and any(u.owner == seat and u.kind == "ship" for u in state.units)
        ):
            out.append(Action("cartography"))
    if "absolute_power" in p.advances and "absolute_power" not in p.used and p.mood_tokens >= 2:
        out.append(Action("absolute"))
    if "forced_labor" in p.advances and not p.forced_labor and p.mood_tokens >= 1:
        out.append(Action("forced"))
    if "theater_music" in p.advances and "theater_music" not in p.used:
        if p.mood_tokens >= 1 and p.culture_tokens < p.culture_level:
            out.append(Action("theater", name="culture"))
        if p.culture_tokens >= 1 and p.mood_tokens < p.happiness_level:
            out.append(Action("theater", name="mood"))
    out.extend(culture_turn_options(state, seat))
    if state.decks:
        from engine.clash.action_cards import card_turn_options

        out.extend(card_turn_options(state, seat, out))
    return out


def illegal_reason(state: State, seat: int, action: object) -> str:
    """Why ``action`` is not legal, in words a player understands (no hidden information)."""
    if not isinstance(action, Action):
        return "That is not a Clash of Cultures move."
    if (
        state.pending
        and int(state.pending["seat"]) == seat
        and action.kind
        not in (
            "orient",
            "anchor",
            "barbarians",
            "income",
            "advance",
            "raze",
            "keep",
            "first",
            "choose",
            *CULTURE_ANSWERS,
        )
        and action.kind not in CHOICE_VERBS
    ):
        return "First finish the open choice. Type `moves` to see it."
    if action.kind == "move" and action.to and revealed(state, action.to) and hostile(state, action.to, seat):
        return battle_refusal(state, seat, action.space, action.to, action.items)
    if (
        action.kind != "end"
        and state.actions_left < 1
        and action.kind
        in ("advance", "found", "build", "grow", "taxes", "liberties", "cartography", "wonder", "gardens")
    ):
        return "You have no action left this turn; type `end` to end your turn."
    if action.kind == "advance" and action.name in TABLES.advances:
        p = state.pl[seat]
        if action.name in p.advances:
            return f"You already own {TABLES.advances[action.name].name}."
        if not eligible(p, action.name):
            return advance_refusal(p.advances, action.name)
        if action.name == "steel_weapons" and state.pending.get("kind") == "free":
            return "Steel Weapons still costs 2 ore as a free advance (gold may stand in)."
        return f"You cannot pay for {TABLES.advances[action.name].name}."
    return "That move is not legal right now. Type `moves` to see what you can do."


def explain(state: State, seat: int, text: str) -> str:
    """Why a typed move that matched no legal action is refused, when the words say enough
    (an advance by name, a move into foreign units, a city action without actions left)."""
    from engine.core.notation import tokens

    words = tokens(text)
    if not words:
        return ""
    verb = words[0]
    if (verb in ("influence", "wonder") and not state.pending) or (verb in ("give", "get") and state.pending):
        return culture_refusal(state, seat, words)
    choosing_advance = verb == "advance" and state.pending.get("kind") in ("free", "dogma")
    if state.pending and int(state.pending["seat"]) == seat and not choosing_advance:
        return pending_refusal(state, seat, words)
    pair = " ".join(words[:2])
    if pair in ANSWERS:
        return f"`{pair}` {ANSWERS[pair]}; no such question is open now. Type `moves` to see what you can do."
    if verb in ANSWERS:
        return f"`{verb}` {ANSWERS[verb]}; no such question is open now. Type `moves` to see what you can do."
    if verb == "advance" and len(words) >= 2:
        key = "_".join(words[1:]).replace("-", "_")
        for adv in TABLES.advance_order:
            if adv == key or TABLES.advances[adv].name.lower().replace(" ", "_") == key:
                return illegal_reason(state, seat, Action("advance", name=adv))
        return ""
    if verb in ("move", "attack") and len(words) >= 3:
        dest = next(
            (w for w in words[1:] if len(w) >= 2 and w[0].isalpha() and w[1:].isdigit() and w in state.terrain), ""
        )
        spaces = [w for w in words[1:] if len(w) >= 2 and w[0].isalpha() and w[1:].isdigit()]
        if len(spaces) >= 2:
            dest = spaces[1]
        elif spaces and words[1].startswith("ship"):
            dest = spaces[0]
        if dest and revealed(state, dest) and hostile(state, dest, seat):
            src = spaces[0] if len(spaces) >= 2 else ""
            kinds = tuple(w for w in words if w in ("army", "settler"))
            return battle_refusal(state, seat, src, dest, kinds)
        if verb == "attack" and dest and revealed(state, dest):
            return f"There is nothing foreign on {dest.upper()} to attack; to go there, type `move`."
        if len(spaces) >= 2 and not words[1].startswith("ship"):
            return land_move_refusal(state, seat, spaces[0], dest, words)
        return ""
    if verb in ("found", "collect", "build", "grow") and state.actions_left < 1 and not state.pending:
        return "You have no action left this turn; type `end` to end your turn."
    if verb in ("build", "grow", "collect") and len(words) >= 2:
        city = next((c for c in state.cities_of(seat) if words[1] in (c.name.lower(), c.space)), None)
        if city is None:
            return f"You have no city called `{words[1]}`."
        if not can_activate(state, city):
            return f"{city.name} is angry and was already activated this turn."
        if verb == "grow" and len(words) >= 3:
            return _grow_refusal(state, seat, city, words[2])
        if verb == "build":
            return _build_refusal(state, seat, city, words[2:])
    if verb == "found" and len(words) >= 2:
        space = words[1]
        if not any(u.owner == seat and u.kind == "settler" and u.space == space and u.carrier < 0 for u in state.units):
            return f"You have no settler on {space.upper()}."
        if state.terrain.get(space) == "barren":
            return "No city may be founded on a Barren space."
        if space in state.exhausted:
            return "No city may be founded on exhausted land."
        if len(state.cities_of(seat)) >= LIMITS["settlement"]:
            return "You already have all 7 cities on the board."
    return ""


def _grow_refusal(state: State, seat: int, city: City, building: str) -> str:
    """Why a city cannot get ``building`` (component limits and size rules say so plainly)."""
    from engine.clash.cities import BUILDING_ADVANCE, acts_angry, pieces_of

    if building not in BUILDING_ADVANCE:
        return "A city can add a temple, fortress, academy or port."
    if acts_angry(state, city):
        return f"{city.name} is angry: an angry city cannot grow."
    if building in city.pieces:
        return f"{city.name} already has {with_article(building)}."
    if city.size >= LIMITS["city_size"]:
        return f"{city.name} already has the largest size, 5."
    n = len(state.cities_of(seat))
    if city.size + 1 > n:
        return f"A city cannot grow larger than your number of cities ({n})."
    need = BUILDING_ADVANCE[building]
    if need not in state.pl[seat].advances:
        return f"{with_article(building.capitalize())} needs {TABLES.advances[need].name}."
    if pieces_of(state, seat, building) >= LIMITS[building]:
        return f"All your {LIMITS[building]} {plural_word(building)} are on the board."
    if building == "port" and not sea_neighbours(state, city.space):
        return f"{city.name} is not next to the sea."
    return "You cannot pay 1 food, 1 ore and 1 wood (gold may stand in for any of them)."


def _build_refusal(state: State, seat: int, city: City, kinds: list[str]) -> str:
    """Why a Build is refused: unit limits, stacking, ports, size and payment."""
    from engine.clash.cities import armies_on, effective_size, units_of

    units = [k for k in kinds if k in ("settler", "army", "ship")]
    if len(units) > effective_size(state, city):
        return f"{city.name} can build at most {count(effective_size(state, city), 'unit')} now."
    for kind in ("settler", "army", "ship"):
        if units_of(state, seat, kind) + units.count(kind) > LIMITS[kind]:
            return f"You may have at most {count(LIMITS[kind], kind)} on the board."
    if armies_on(state, city.space, seat) + units.count("army") > LIMITS["stack"]:
        return "At most 4 army units may stand on one space."
    if "ship" in units and "port" not in city.pieces:
        return "Ships are built only in a city with a port."
    if "ship" in units and "fishing" not in state.pl[seat].advances:
        return f"The port of {city.name} builds ships only for an owner with Fishing."
    return "You cannot pay for those units."


def cost_words(state: State, seat: int, a: Action) -> str:
    """What ``a`` will spend, in words, for move lists and buttons (``""`` when free)."""
    from engine.clash.advances import payment as adv_payment
    from engine.clash.cities import build_cost, draft_tokens, grow_cost
    from engine.clash.resources import add_cost, cost_text, plan_payment

    p = state.pl[seat]
    parts: list[str] = []
    if a.kind == "advance":
        free = bool(state.pending) and state.pending.get("kind") in ("free", "dogma")
        plan = adv_payment(state, p, a.name, free)
        if plan:
            parts.append(cost_text(plan))
    elif a.kind == "build":
        plan = plan_payment(p, build_cost(p, a.items, "draft" in a.flags))
        if plan:
            parts.append(cost_text(plan))
        if "draft" in a.flags:
            parts.append(count(draft_tokens(p), "mood token"))
    elif a.kind == "grow":
        plan = plan_payment(p, add_cost(grow_cost(p, a.name), {"food": 1} if "settler" in a.flags else {}))
        if plan:
            parts.append(cost_text(plan))
    elif a.kind == "civic":
        city = state.city_at(a.space)
        if city is not None:
            paid = civic_payment(p, a.n * step_cost(p, city))
            if paid:
                mood = paid.pop("mood", 0) + (1 if "voting" in a.flags else 0)
                if mood:
                    parts.append(count(mood, "mood token"))
                if paid:
                    parts.append(cost_text(paid))
    elif a.kind == "collect":
        if "husbandry" in a.flags and husbandry_cost(p):
            parts.append("1 food")
        if p.free_economy and p.collects >= 1:
            parts.append("2 mood tokens")
    elif a.kind == "move":
        if "road" in a.flags:
            parts.append("1 food")
        if "ore" in a.flags:
            parts.append("1 ore")
    elif a.kind == "taxes" or a.kind == "forced":
        parts.append("1 mood token")
    elif a.kind == "absolute":
        parts.append("2 mood tokens")
    elif a.kind in CULTURE_COSTED:
        parts.extend(culture_cost_words(state, seat, a))
    return " and ".join(parts)


def advance_refusal(owned: list[str], adv: str) -> str:
    """Why ``adv`` cannot be taken yet: the category's first advance, the red prerequisite or
    the government's gateway."""
    a = TABLES.advances[adv]
    first = TABLES.advances[TABLES.by_category[a.category][0]]
    if not any(TABLES.advances[x].category == a.category for x in owned) and a.index != 0:
        return f"{a.name} needs {first.name} first, the first {a.category.capitalize()} advance."
    if a.prereq and a.prereq not in owned:
        return f"{a.name} needs {TABLES.advances[a.prereq].name} first."
    if a.gateway and a.gateway not in owned:
        return f"{a.name} needs {TABLES.advances[a.gateway].name} first (the way into {a.category.capitalize()})."
    return f"You may not take {a.name} now."
