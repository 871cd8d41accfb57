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
    step_cost,
)
from engine.clash.data import TABLES
from engine.clash.movement import BATTLE_REFUSAL, hostile, move_options
from engine.clash.state import MOODS, State
from engine.clash.turns import dogma_options, free_advance_options, raze_options


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


def pending_options(state: State) -> list[Action]:
    """The choices of the open pending decision."""
    pend = state.pending
    kind = pend["kind"]
    seat = int(pend["seat"])
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
    raise AssertionError(f"unknown pending {kind}")


def turn_options(state: State, seat: int) -> list[Action]:
    """The active player's actions in a turn."""
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
    return out


def illegal_reason(state: State, seat: int, action: object) -> str:
    """Why ``action`` is not legal, in words a player understands (no hidden information)."""
    if not isinstance(action, Action):
        return "That is not a Clash of Cultures move."
    if (
        state.pending
        and int(state.pending["seat"]) == seat
        and action.kind not in ("orient", "anchor", "barbarians", "income", "advance", "raze", "keep", "first")
    ):
        return "First finish the open choice. Type `moves` to see it."
    if action.kind == "move" and action.to and revealed(state, action.to) and hostile(state, action.to, seat):
        return BATTLE_REFUSAL
    if (
        action.kind != "end"
        and state.actions_left < 1
        and action.kind in ("advance", "found", "build", "grow", "taxes", "liberties", "cartography")
    ):
        return "You have no action left this turn; type `end` to end your turn."
    if action.kind == "advance" and action.name in TABLES.advances:
        p = state.pl[seat]
        if action.name in p.advances:
            return f"You already own {TABLES.advances[action.name].name}."
        if not eligible(p, action.name):
            return (
                f"You may not take {TABLES.advances[action.name].name} yet: check its category's first advance, "
                "its prerequisite and, for a government, its gateway advance."
            )
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
    if verb == "advance" and len(words) >= 2:
        key = "_".join(words[1:]).replace("-", "_")
        for adv in TABLES.advance_order:
            if adv == key or TABLES.advances[adv].name.lower().replace(" ", "_") == key:
                return illegal_reason(state, seat, Action("advance", name=adv))
        return ""
    if verb == "move" and len(words) >= 3:
        dest = next(
            (w for w in words[1:] if len(w) >= 2 and w[0].isalpha() and w[1:].isdigit() and w in state.terrain), ""
        )
        spaces = [w for w in words[1:] if len(w) >= 2 and w[0].isalpha() and w[1:].isdigit()]
        if len(spaces) >= 2:
            dest = spaces[1]
        elif spaces and words[1].startswith("ship"):
            dest = spaces[0]
        if dest and revealed(state, dest) and hostile(state, dest, seat):
            return BATTLE_REFUSAL
        return ""
    if verb in ("found", "collect", "build", "grow") and state.actions_left < 1 and not state.pending:
        return "You have no action left this turn; type `end` to end your turn."
    return ""
