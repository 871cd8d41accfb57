"""Chat notation of actions (see :mod:`engine.clash.actions` for the list of forms).

Why cities are written by name: players think "collect in Athens", and a name is shorter than a
space; the record keeps the space, and ``notation_forms`` also accepts the space (``collect d2``).
"""

from __future__ import annotations

from engine.clash.actions import Action, slug
from engine.clash.culture import ANSWER_KINDS, TURN_KINDS
from engine.clash.culture import text as culture_text
from engine.clash.data import TABLES
from engine.clash.state import State

CULTURE_WORDS = frozenset(TURN_KINDS + ANSWER_KINDS) - {"move"}


def city_word(state: State, space: str) -> str:
    """The name of the city on ``space`` as one lower-case word."""
    city = state.city_at(space)
    return city.name.lower().replace(" ", "-") if city else space


def text(state: State, seat: int, a: Action, by_space: bool = False) -> str:
    """Canonical notation (``by_space``: the city written as its space)."""
    k = a.kind
    city = a.space if by_space else city_word(state, a.space) if a.space else ""
    if k in CULTURE_WORDS:
        target = a.to if by_space else city_word(state, a.to) if a.to else ""
        return culture_text(state, seat, a, city, target)
    flags = "".join(" " + f for f in a.flags)
    if k == "advance":
        keep = (" keep " + " ".join(slug(x) for x in a.items)) if a.items else ""
        return f"advance {slug(a.name)}{keep}"
    if k == "found":
        return f"found {a.space}"
    if k in ("collect", "build"):
        return f"{k} {city} {' '.join(a.items)}{flags}"
    if k == "grow":
        port = f" {a.to}" if a.to else ""
        return f"grow {city} {a.name}{port}{flags}"
    if k == "move":
        if a.items[0].startswith("ship"):
            return f"move {' '.join(a.items)} {a.to}{flags}"
        verb = "attack" if _attacks(state, seat, a) else "move"
        return f"{verb} {a.space} {a.to} {' '.join(a.items)}{flags}"
    if k in ("continue", "retreat", "refugee", "fanatic", "reinforce", "target", "lose", "siege", "nocard"):
        return _combat_text(state, a)
    if k in ("keep_camp", "raze_camp"):
        return f"{k[:4]} camp"
    if k == "civic":
        steps = " 2" if a.n == 2 else ""
        return f"civic {city}{steps}{flags}"
    if k in ("theater", "orient"):
        return f"{k} {a.name}"
    if k in ("anchor", "barbarians"):
        return f"{k} {a.to}"
    if k == "income":
        total = int(state.pending.get("n", 0)) if state.pending else 0
        return f"income food {total - a.n} gold {a.n}"
    if k == "raze":
        return f"raze {city}"
    if k == "reserve":
        return f"reserve {a.name.replace('_', '-')}"
    if k == "keep":
        return "no raze"
    if k == "first":
        return f"first {TABLES.colours[a.n].lower()}"
    if k == "takeover":
        boost = f" {a.n}" if a.n else ""
        return f"takeover {city} {a.to}{boost}"
    if k in ("play", "great", "choose", "tactic"):
        from engine.clash.cards_data import DECKS
        from engine.clash.cards_data import slug as card_slug

        if k == "play":
            return "play " + card_slug(next(c.name for c in DECKS.actions.values() if c.effect == a.name))
        if k == "great":
            return "play " + card_slug(DECKS.events[a.name].name)
        if k == "tactic":
            if a.name == "trojan_horse":
                return "play trojan-horse"
            return "play " + card_slug(DECKS.abilities[a.name].name)
        step = state.pending.get("step", {}) if state.pending.get("kind") == "card" else {}
        return f"{'claim' if step.get('do') == 'claim' else 'choose'} {a.name}"
    return k


def forms(state: State, seat: int, a: Action) -> list[str]:
    """Canonical text first, then the same with the city written as its space."""
    out = [text(state, seat, a)]
    if a.kind in ("collect", "build", "grow", "civic", "raze", "influence", "wonder", "gardens"):
        alt = text(state, seat, a, by_space=True)
        if alt != out[0]:
            out.append(alt)
    if a.kind in ("advance", "play", "great", "choose", "tactic") and "-" in out[0]:
        out.append(out[0].replace("-", " "))
    if a.kind == "move" and out[0].startswith("attack "):
        out.append("move " + out[0][7:])
    if a.kind == "get" and a.n != 1:
        # Decision: the singular form stays readable, so logs written before "cards" replay.
        out.append(f"get {a.n} {a.name} card")
    if a.kind == "retreat":
        out.append("stop")  # the rules call it stopping the attack
    if a.kind in ("keep_camp", "raze_camp"):
        out.append(a.kind[:4])  # `keep` / `raze` alone: only the camp's choices are open then
    if a.kind in ("refugee", "fanatic", "target"):
        alt = out[0].split(" ")[0] + " " + " ".join(x for x in (a.space, a.to) if x)
        if alt != out[0]:
            out.append(alt)
    return out


def _attacks(state: State, seat: int, a: Action) -> bool:
    """A land move into foreign units or a foreign city (written ``attack``)."""
    from engine.clash.movement import hostile

    return a.to in state.terrain and hostile(state, a.to, seat)


def _combat_text(state: State, a: Action) -> str:
    k = a.kind
    if k in ("continue", "retreat"):
        return k
    if k == "nocard":
        return "no card"
    if k == "siege":
        return f"siege {' '.join(a.items)}" if a.items else "no siege"
    if k in ("refugee", "fanatic"):
        return f"{k} {city_word(state, a.space)}"
    if k == "reinforce":
        return f"reinforce {a.to}"
    if k == "target":
        return f"target {a.space} {city_word(state, a.to)}"
    return f"lose {' '.join(a.items)}" if a.items else "lose nothing"


_ORDER = ("food", "wood", "ore", "gold", "mood", "settler", "army", "ship")
_MOVE_ORDER = ("army", "settler")
_PLURAL = {"armies": "army", "settlers": "settler", "ships": "ship", "moods": "mood"}


def normalize_typed(text: str) -> str:
    """Accept natural variants before matching: any order of resources and units
    (``collect athens wood wood food``), counts (``build athens 2 army``), plurals, and units
    before the spaces of a move (``move army b3 c3``)."""
    from engine.core.notation import tokens

    words = [_PLURAL.get(w, w) for w in tokens(text)]
    if words and words[0] == "lose":
        # The losses of a Barbarian attack in the order the options are written: units, then
        # buildings alphabetically, the city's destruction last.
        rank = {"army": 0, "settler": 1, "destroyed": 3}
        return " ".join(["lose", *sorted(words[1:], key=lambda w: (rank.get(w, 2), w))])
    if not words or words[0] not in ("collect", "build", "move", "attack"):
        return text
    expanded: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w.isascii() and w.isdigit() and i + 1 < len(words) and words[i + 1] in _ORDER and 1 <= int(w) <= 8:
            expanded.extend([words[i + 1]] * int(w))
            i += 2
            continue
        expanded.append(w)
        i += 1
    verb, rest = expanded[0], expanded[1:]
    if verb in ("collect", "build") and rest:
        order = ("food", "wood", "ore", "gold", "mood") if verb == "collect" else ("settler", "army", "ship")
        items = sorted((w for w in rest[1:] if w in order), key=order.index)
        others = [w for w in rest[1:] if w not in order]
        return " ".join([verb, rest[0], *items, *others])
    if verb in ("move", "attack"):
        units = [w for w in rest if w in _MOVE_ORDER]
        others = [w for w in rest if w not in _MOVE_ORDER]
        if units and len(others) >= 2:
            units.sort(key=_MOVE_ORDER.index)
            return " ".join([verb, others[0], others[1], *units, *others[2:]])
    return " ".join(expanded)
