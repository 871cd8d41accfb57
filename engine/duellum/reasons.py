"""Read an illegal chat command anyway, so the refusal can say exactly why.

Why: ``parse`` matches typed text against the *legal* actions only, so a refused command would
otherwise get a generic "not legal right now". When no legal action matches, this module reads
the text with the same notation (lenient words, unique prefixes, ids with spaces) into an action
object regardless of legality; the game then explains it with ``illegal_reason`` ("Building a
temple in Roma costs 6 marble and 1 coin; you have 4 marble ..."). It never decides legality.
"""

from __future__ import annotations

from engine.core.notation import normalize
from engine.duellum.actions import (
    SPECIAL,
    SPECIAL_WORDS,
    VERBS,
    Action,
    BuildTemple,
    BuildWall,
    BuyTech,
    Conquer,
    Deploy,
    Done,
    EndTurn,
    Found,
    Losses,
    Move,
    Pass,
    Pick,
    PlayCard,
    Recruit,
    RondelMove,
    TakeResource,
    Trade,
    place,
    space_word,
)
from engine.duellum.data import CARDS, RES_WORDS, RULES, TECH_ORDER, UNIT_WORDS, MapData
from engine.duellum.payment import Pay
from engine.duellum.rondel import steps
from engine.duellum.state import State


def _unique(word: str, options: list[str]) -> str | None:
    if word in options:
        return word
    hits = [o for o in options if o.startswith(word)]
    return hits[0] if len(hits) == 1 else None


def _names(m: MapData) -> dict[str, int]:
    """Every way a region is spelled (id and name as printed, underscores for spaces)."""
    out = _NAMES.get(m.id)
    if out is None:
        out = {}
        for i, rid in enumerate(m.ids):
            out[rid] = i
            out[normalize(place(m, i)).replace(" ", "_")] = i
            out[normalize(m.names[i]).replace(" ", "_")] = i
        _NAMES[m.id] = out
    return out


_NAMES: dict[str, dict[str, int]] = {}


def _region(m: MapData, text: str) -> int:
    """Region index of a typed name (id or printed name, spaces or underscores, unique prefix);
    -1 if none."""
    key = text.strip().replace(" ", "_")
    if not key:
        return -1
    names = _names(m)
    if key in names:
        return names[key]
    hits = {i for name, i in names.items() if name.startswith(key)}
    return hits.pop() if len(hits) == 1 else -1


def _segment(m: MapData, words: list[str]) -> list[int]:
    """Split space-separated region names (``carthago nova baecula``): longest exact id first."""
    out: list[int] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            key = "_".join(words[i:j])
            if key in _names(m):
                out.append(_names(m)[key])
                i = j
                break
        else:
            r = _region(m, words[i])
            if r < 0:
                return []
            out.append(r)
            i += 1
    return out


def _unit(word: str, seat: int) -> int:
    if SPECIAL_WORDS[seat].startswith(word):
        return SPECIAL
    for t, w in enumerate(UNIT_WORDS):
        if (w + "s").startswith(word) or word.startswith(w):
            return t
    return -1


def _number(word: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is True but ``int("²")`` raises (found by fuzzing)."""
    return word.isascii() and word.isdigit()


def _count_unit(words: list[str], seat: int) -> tuple[int, int, list[str]]:
    """``[2] legions ...`` -> (unit, count, rest)."""
    count = 1
    if words and _number(words[0]):
        count = int(words[0])
        words = words[1:]
    if not words:
        return -1, count, []
    return _unit(words[0], seat), count, words[1:]


def _res(word: str, coins: bool = True) -> int:
    options = list(RES_WORDS if coins else RES_WORDS[:3])
    found = _unique(word.rstrip("s") if word.endswith("coins") else word, options)
    return options.index(found) if found else -1


def _amounts(words: list[str], size: int) -> tuple[int, ...] | None:
    """``iron iron gold`` or ``2 iron 1 gold`` -> counts per resource (None if unreadable)."""
    out = [0] * size
    n = 1
    for w in words:
        if _number(w):
            n = int(w)
            continue
        k = _res(w, coins=size == 4)
        if k < 0:
            return None
        out[k] += n
        n = 1
    return tuple(out)


def _card(words: list[str]) -> tuple[str, list[str]]:
    """Longest card name at the start of ``words`` (unique prefixes per word)."""
    best = ("", words)
    for cid in CARDS:
        parts = cid.lower().split("_")
        fits = len(words) >= len(parts) and all(c.startswith(w) for w, c in zip(words, parts, strict=False))
        if fits and (not best[0] or len(parts) > len(best[0].split("_"))):
            best = (cid, words[len(parts) :])
    return best


def _split_pay(rest: list[str]) -> tuple[list[str], Pay | None, bool]:
    """``roma pay 2 coins marble`` -> (``roma``, (1, 0, 0, 2), readable)."""
    if "pay" not in rest:
        return rest, None, True
    i = rest.index("pay")
    amounts = _amounts(rest[i + 1 :], 4)
    if amounts is None or not rest[i + 1 :]:
        return rest[:i], None, False
    return rest[:i], (amounts[0], amounts[1], amounts[2], amounts[3]), True


def guess(state: State, seat: int, text: str) -> Action | None:
    """The action ``text`` names, legal or not; ``None`` when it cannot be read.

    Every word must be used: text with words left over (``rondel ferrum rondel templum``) is
    not read as its first part."""
    words = normalize(text).split(" ")
    if not words or not words[0]:
        return None
    verb = _unique(words[0], list(VERBS))
    rest = words[1:]
    m = state.map
    if verb is None:
        return None
    if verb == "build" and rest:
        verb, rest = _unique(rest[0], ["temple", "wall"]), rest[1:]
    if verb == "rondel":
        return _rondel(state, seat, rest)
    rest, pay, readable = _split_pay(rest)
    if not readable or (pay is not None and verb not in ("temple", "wall", "deploy", "recruit", "buy", "found")):
        return None
    if verb in ("temple", "wall"):
        r = _region(m, " ".join(rest))
        if r < 0:
            return None
        return BuildTemple(r, pay) if verb == "temple" else BuildWall(r, pay)
    if verb == "deploy":
        t, n, rest = _count_unit(rest, seat)
        r = _region(m, " ".join(rest))
        return Deploy(t, n, r, pay) if t >= 0 and r >= 0 else None
    if verb == "recruit":
        t, n, rest = _count_unit(rest, seat)
        return Recruit(t, n, pay) if t in (0, 1) and not rest else None
    if verb == "buy":
        tech = _unique("_".join(rest), [t.lower() for t in TECH_ORDER])
        return BuyTech(tech.upper(), pay) if tech else None
    if verb == "move":
        t, n, rest = _count_unit(rest, seat)
        if t < 0 or not rest:
            return None
        joined = " ".join(w for w in rest if w != "to")
        if "-" in joined:
            path = tuple(_region(m, p) for p in joined.split("-"))
        else:
            path = tuple(_segment(m, [w for w in rest if w != "to"]))
        if len(path) < 2 or min(path) < 0:
            return None
        return Move(t, n, path)
    if verb == "conquer":
        card = ""
        if "with" in rest:
            i = rest.index("with")
            card, left = _card(rest[i + 1 :])
            if left or not card:
                return None
            rest = rest[:i]
        r = _region(m, " ".join(rest))
        if r < 0 and len(rest) > 1:
            card, _ = _card(rest[-1:])
            r = _region(m, " ".join(rest[:-1]))
        return Conquer(r, card) if r >= 0 else None
    if verb == "lose":
        counts = [0, 0]
        n = 1
        for w in rest:
            if _number(w):
                n = int(w)
                continue
            t = _unit(w, seat)
            if t not in (0, 1):
                return None
            counts[t] += n
            n = 1
        return Losses(counts[0], counts[1])
    if verb == "found":
        if len(rest) < 2:
            return None
        k = _res(rest[-1], coins=False)
        r = _region(m, " ".join(rest[:-1]))
        return Found(r, k, pay) if r >= 0 and k >= 0 else None
    if verb == "trade":
        if "for" not in rest:
            return None
        i = rest.index("for")
        give = _amounts(rest[:i], 4)
        get = _amounts(rest[i + 1 :], 4)
        if give is None or get is None:
            return None
        if get[3]:
            return Trade((give[0], give[1], give[2], give[3]), (-1, 0, 0))
        return Trade((give[0], give[1], give[2], give[3]), (get[0], get[1], get[2]))
    if verb == "play":
        card, rest = _card(rest)
        if not card:
            return None
        stack = bool(rest) and rest[-1] == "again"
        if stack:
            rest = rest[:-1]
        res = tuple(k for k in (_res(w, coins=False) for w in rest) if k >= 0)
        others = [w for w in rest if _res(w, coins=False) < 0]
        region = _region(m, " ".join(others)) if others else -1
        if others and region < 0:
            return None
        return PlayCard(card, region, res, stack)
    if verb == "take":
        if len(rest) == 1 and _res(rest[0], coins=False) >= 0 and not _card(rest)[0]:
            return TakeResource(_res(rest[0], coins=False))
        card, left = _card(rest)
        return Pick(card) if card and not left else None
    if verb in ("pass", "decline"):
        return None if rest else Pass()
    if verb == "done":
        return None if rest else Done()
    if verb == "end":
        return None if rest not in ([], ["turn"]) else EndTurn()
    return None


def _rondel(state: State, seat: int, rest: list[str]) -> Action | None:
    if not rest:
        return None
    names = [space_word(i) for i in range(len(RULES.rondel))]
    word = rest[0]
    hits = [i for i, n in enumerate(names) if n.startswith(word)]
    if not hits:
        return None
    if len(hits) > 1:
        stone = state.players[seat].stone
        hits.sort(key=lambda i: steps(stone, i) if stone >= 0 else i)
    space = hits[0]
    pay: tuple[int, ...] = (0, 0, 0, 0)
    if len(rest) > 1:
        if rest[1] != "pay":
            return None
        amounts = _amounts(rest[2:], 4)
        if amounts is None:
            return None
        pay = amounts
    return RondelMove(space, (pay[0], pay[1], pay[2], pay[3]))
