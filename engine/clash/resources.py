"""Resources, tokens, levels and payments (rules sections 4.1-4.3).

Why every gain goes through here: the caps (8; Food 2 before Storage; Ideas 2 with Dogma; tokens
capped by the matching level) and the event trigger when a level reaches 3, 5 or 7 are easy to
forget at one of the many places that give something; one function each keeps them exact.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.clash.data import RESOURCES, RULES
from engine.clash.state import Player, State

CAP = int(RULES["resource_cap"])
EVENT_LEVELS = tuple(int(x) for x in RULES["event_levels"])


def cap(p: Player, res: str) -> int:
    """The holding limit of one resource for ``p``."""
    if res == "food" and "storage" not in p.advances:
        return int(RULES["food_cap_without_storage"])
    if res == "ideas" and "dogma" not in p.advances:
        return CAP
    if res == "ideas":
        return int(RULES["ideas_cap_with_dogma"])
    return CAP


def gain(p: Player, res: str, n: int = 1) -> int:
    """Add ``n`` of a resource up to its cap; returns what was actually kept."""
    before = p.res[res]
    p.res[res] = min(cap(p, res), before + n)
    return p.res[res] - before


def clamp(p: Player) -> None:
    """Discard everything above the caps at once (e.g. Ideas on acquiring Dogma)."""
    for r in RESOURCES:
        p.res[r] = min(p.res[r], cap(p, r))
    p.mood_tokens = min(p.mood_tokens, p.happiness_level)
    p.culture_tokens = min(p.culture_tokens, p.culture_level)


def gain_mood(p: Player, n: int = 1) -> int:
    """Mood tokens up to the Happiness level (token cap = level, CC-EX-39)."""
    before = p.mood_tokens
    p.mood_tokens = min(p.happiness_level, before + n)
    return p.mood_tokens - before


def gain_culture(p: Player, n: int = 1) -> int:
    """Culture tokens up to the Culture level."""
    before = p.culture_tokens
    p.culture_tokens = min(p.culture_level, before + n)
    return p.culture_tokens - before


def event_due(state: State, seat: int, track: str, level: int) -> None:
    """Hook: a level reached 3, 5 or 7, so the player draws an Event card (rules 4.3, 12.1).

    The draw is recorded in ``state.event_log`` and queued for :mod:`engine.clash.events`; it is
    resolved right after the action that raised the level (``turns._after_levels``)."""
    state.event_log.append([seat, track, level])
    if state.decks:
        from engine.clash.events import queue_event

        queue_event(state, seat)


def raise_level(state: State, seat: int, track: str) -> None:
    """One step on a level track (capped at 8), then one matching token (rules 4.3)."""
    p = state.pl[seat]
    top = int(RULES["level_cap"])
    if track == "culture":
        if p.culture_level < top:
            p.culture_level += 1
            _maybe_event(state, seat, track, p.culture_level)
        gain_culture(p)
    else:
        if p.happiness_level < top:
            p.happiness_level += 1
            _maybe_event(state, seat, track, p.happiness_level)
        gain_mood(p)


def _maybe_event(state: State, seat: int, track: str, level: int) -> None:
    key = f"{track}{level}"
    p = state.pl[seat]
    if level in EVENT_LEVELS and key not in p.levels_reached:
        p.levels_reached.append(key)
        event_due(state, seat, track, level)


def plan_payment(p: Player, cost: Mapping[str, int], order: tuple[str, ...] = ()) -> dict[str, int] | None:
    """How ``p`` pays ``cost``: the named resources first, Gold for the shortfall (rules 4.1).

    ``order`` lists substitutes tried before Gold for a resource (``{"food": ("ideas",)}`` is
    written as ``order=("ideas",)`` for the Food of an advance).
    Decision: the engine pays with the named resource (for advances Ideas before Food) and uses
    Gold only for what is missing, so nobody spends a wildcard they did not need to.
    Returns the amounts taken per resource, or ``None`` when ``p`` cannot pay."""
    have = dict(p.res)
    taken = {r: 0 for r in RESOURCES}
    for res, n in cost.items():
        need = n
        if res == "food" and order:
            for sub in order:
                use = min(have[sub], need)
                have[sub] -= use
                taken[sub] += use
                need -= use
        use = min(have[res], need)
        have[res] -= use
        taken[res] += use
        need -= use
        if need:
            gold = min(have["gold"], need)
            have["gold"] -= gold
            taken["gold"] += gold
            need -= gold
        if need:
            return None
    return {r: n for r, n in taken.items() if n}


def pay(p: Player, taken: Mapping[str, int]) -> None:
    """Remove a planned payment."""
    for r, n in taken.items():
        p.res[r] -= n
        if p.res[r] < 0:
            raise AssertionError("negative resource after payment")


def add_cost(*costs: Mapping[str, int]) -> dict[str, int]:
    """Sum of several costs."""
    out: dict[str, int] = {}
    for c in costs:
        for r, n in c.items():
            out[r] = out.get(r, 0) + n
    return {r: n for r, n in out.items() if n}


def amount_text(resource: str, n: int) -> str:
    """``"2 ore"``, ``"1 idea"``: food, wood, ore and gold are mass nouns; ideas count."""
    from engine.core.text import count

    return count(n, "idea") if resource == "ideas" else f"{n} {resource}"


def cost_text(cost: Mapping[str, int]) -> str:
    """``"1 food, 1 ore and 1 idea"`` (see :func:`amount_text`)."""
    from engine.core.text import join_words

    parts = [amount_text(r, n) for r, n in cost.items() if n]
    return join_words(parts) if parts else "nothing"
