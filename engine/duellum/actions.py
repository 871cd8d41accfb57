"""Action types (frozen, slotted, hashable) and their chat notation.

Why one small class per kind of decision: ``legal_actions`` lists them, ``parse`` matches typed
text against their notation, and equality is structural, so ``parse(notation(a)) == a`` holds by
construction. Regions are stored as indices of the game's map; the notation uses region ids
(underscores read as spaces by the core matcher, so ``carthago nova`` works).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.notation import normalize
from engine.duellum.data import CARDS, RES_WORDS, RULES, UNIT_WORDS, MapData

SPECIAL = 2
"""Unit index of the variant's special unit (legion-type for brown, galley-type for beige)."""

SPECIAL_WORDS: tuple[str, str] = ("general", "admiral")
"""Chat word of each seat's special unit: brown's General-unit, beige's Admiral (§16)."""


@dataclass(frozen=True, slots=True)
class RondelMove:
    """Move the stone to ``space``; ``pay`` = [marble, iron, gold, coins] for the extra steps."""

    space: int
    pay: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class TakeResource:
    """Take a resource chip instead of a coin the bank does not have (production)."""

    res: int


@dataclass(frozen=True, slots=True)
class BuildTemple:
    """Build a temple in an own city (TEMPLUM)."""

    region: int


@dataclass(frozen=True, slots=True)
class BuildWall:
    """Build a wall from the personal supply in an own city (TEMPLUM)."""

    region: int


@dataclass(frozen=True, slots=True)
class Deploy:
    """Deploy ``count`` units of ``unit`` (0 legion, 1 galley, 2 special) into an own city (MILITIA)."""

    unit: int
    count: int
    region: int


@dataclass(frozen=True, slots=True)
class BuyTech:
    """Buy a technology (SCIENTIA)."""

    tech: str


@dataclass(frozen=True, slots=True)
class Recruit:
    """Move units from the personal supply to the recruitment box for gold (SCIENTIA)."""

    unit: int
    count: int


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``count`` units along ``path``: start, the regions with enemy units it passes, end.

    Regions without enemy units of the moving type between those points are not part of the
    action: every route through them gives the same result, so the engine picks the shortest.
    """

    unit: int
    count: int
    path: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Conquer:
    """Declare the conquest of an enemy city, optionally with a declaration card (Veterans)."""

    region: int
    card: str = ""


@dataclass(frozen=True, slots=True)
class Losses:
    """Which of the attacker's units are removed by a conquest (when there is a choice)."""

    legions: int
    galleys: int


@dataclass(frozen=True, slots=True)
class Found:
    """Found a city in ``region`` producing ``res`` (0 marble, 1 iron, 2 gold)."""

    region: int
    res: int


@dataclass(frozen=True, slots=True)
class Trade:
    """COMMERCIUM: give 3 chips (``give`` = [marble, iron, gold, coins]), get 2 (``get`` = [m, i, g])."""

    give: tuple[int, int, int, int]
    get: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play an event card; ``region``/``res``/``stack`` are the card's choices where it has any."""

    card: str
    region: int = -1
    res: tuple[int, ...] = ()
    stack: bool = False


@dataclass(frozen=True, slots=True)
class Pick:
    """Take a card from the face-up row (owed for a lost city or an opponent's personality)."""

    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to play a Fortress against the declared conquest."""


@dataclass(frozen=True, slots=True)
class Done:
    """Finish the current step (action, movement, conquests, founding)."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Finish the whole turn now, skipping the remaining optional steps."""


Action = (
    RondelMove
    | TakeResource
    | BuildTemple
    | BuildWall
    | Deploy
    | BuyTech
    | Recruit
    | Move
    | Conquer
    | Losses
    | Found
    | Trade
    | PlayCard
    | Pick
    | Pass
    | Done
    | EndTurn
)

VERBS: tuple[str, ...] = (
    "rondel",
    "take",
    "build",
    "temple",
    "wall",
    "deploy",
    "buy",
    "recruit",
    "move",
    "conquer",
    "lose",
    "found",
    "trade",
    "play",
    "pass",
    "decline",
    "done",
    "end",
)


def space_word(space: int) -> str:
    """The rondel space as typed: its Latin name; the two DUELLUM spaces are ``duellum-a``/``-b``.

    Decision: ``duellum-a`` is the space after AURUM, ``duellum-b`` the one after SCIENTIA; typing
    ``rondel duellum`` picks the one that is affordable (ambiguous only on the first placement).
    """
    name = RULES.rondel[space].lower()
    if RULES.rondel.count(RULES.rondel[space]) > 1:
        nth = [i for i, s in enumerate(RULES.rondel) if s == RULES.rondel[space]].index(space)
        return f"{name}-{'abcdefgh'[nth]}"
    return name


def unit_phrase(unit: int, count: int, seat: int, *, omit_one: bool = True) -> str:
    """``legion``, ``2 legions``, ``galley``; the special unit by its name."""
    if unit == SPECIAL:
        return SPECIAL_WORDS[seat]
    word = UNIT_WORDS[unit] + ("s" if count != 1 else "")
    return word if count == 1 and omit_one else f"{count} {word}"


def chips(counts: tuple[int, ...]) -> list[str]:
    """Repeated resource words: (2, 0, 1, 0) -> ['marble', 'marble', 'gold']."""
    out: list[str] = []
    for k, n in enumerate(counts):
        out.extend([RES_WORDS[k]] * n)
    return out


def card_words(card: str) -> str:
    """A card id as typed (``MERCHANT_CARAVAN`` -> ``merchant_caravan``)."""
    return card.lower()


_FORMS: dict[tuple[str, int, Action], list[str]] = {}
_FORMS_LIMIT = 20_000


def forms(m: MapData, seat: int, a: Action) -> list[str]:
    """Accepted spellings of ``a``, canonical first (cached; do not modify the list).

    Only a few spellings are listed: other ways of typing a move (``move 1 legion roma ancona``,
    ``pay 2 iron``, ``build temple roma``) are read by :mod:`engine.duellum.reasons` when the
    listed forms do not match, which keeps parsing fast.
    """
    key = (m.id, seat, a)
    out = _FORMS.get(key)
    if out is None:
        out = _forms(m, seat, a)
        if len(_FORMS) < _FORMS_LIMIT:
            _FORMS[key] = out
    return out


def _forms(m: MapData, seat: int, a: Action) -> list[str]:
    ids = m.ids
    if isinstance(a, RondelMove):
        base = f"rondel {space_word(a.space)}"
        return [f"{base} pay {' '.join(chips(a.pay))}" if any(a.pay) else base]
    if isinstance(a, TakeResource):
        return [f"take {RES_WORDS[a.res]}"]
    if isinstance(a, BuildTemple):
        return [f"temple {ids[a.region]}"]
    if isinstance(a, BuildWall):
        return [f"wall {ids[a.region]}"]
    if isinstance(a, Deploy):
        return [f"deploy {unit_phrase(a.unit, a.count, seat)} {ids[a.region]}"]
    if isinstance(a, BuyTech):
        return [f"buy {a.tech.lower()}"]
    if isinstance(a, Recruit):
        return [f"recruit {unit_phrase(a.unit, a.count, seat)}"]
    if isinstance(a, Move):
        return [f"move {unit_phrase(a.unit, a.count, seat)} {'-'.join(ids[r] for r in a.path)}"]
    if isinstance(a, Conquer):
        if a.card:
            return [f"conquer {ids[a.region]} with {card_words(a.card)}"]
        return [f"conquer {ids[a.region]}"]
    if isinstance(a, Losses):
        parts = []
        if a.legions:
            parts.append(unit_phrase(0, a.legions, seat, omit_one=False))
        if a.galleys:
            parts.append(unit_phrase(1, a.galleys, seat, omit_one=False))
        return ["lose " + " ".join(parts)]
    if isinstance(a, Found):
        return [f"found {ids[a.region]} {RES_WORDS[a.res]}"]
    if isinstance(a, Trade):
        return [f"trade {' '.join(chips(a.give))} for {' '.join(chips(a.get))}"]
    if isinstance(a, PlayCard):
        words = ["play", card_words(a.card)]
        if a.region >= 0:
            words.append(ids[a.region])
        words.extend(RES_WORDS[r] for r in a.res)
        if a.stack:
            words.append("again")
        return [" ".join(words)]
    if isinstance(a, Pick):
        return [f"take {card_words(a.card)}"]
    if isinstance(a, Pass):
        return ["pass", "decline"]
    if isinstance(a, Done):
        return ["done"]
    if isinstance(a, EndTurn):
        return ["end turn", "end"]
    raise TypeError(f"not a Duellum action: {a!r}")


_KEYS: dict[tuple[str, int, Action], str] = {}


def key(m: MapData, seat: int, a: Action) -> str:
    """The canonical notation as the core matcher normalizes it (cached): for fast exact lookups."""
    k = (m.id, seat, a)
    out = _KEYS.get(k)
    if out is None:
        out = normalize(forms(m, seat, a)[0])
        if len(_KEYS) < _FORMS_LIMIT:
            _KEYS[k] = out
    return out


def notation(m: MapData, seat: int, a: Action) -> str:
    """The canonical chat text of ``a``."""
    return forms(m, seat, a)[0]


def group(text: str) -> str:
    """The heading a move is listed under (``moves`` command)."""
    verb = text.split(" ", 1)[0]
    return {
        "rondel": "rondel",
        "take": "take",
        "temple": "build",
        "wall": "build",
        "deploy": "deploy",
        "buy": "scientia",
        "recruit": "scientia",
        "move": "move",
        "conquer": "conquer",
        "lose": "conquer",
        "found": "found",
        "trade": "trade",
        "play": "cards",
        "pass": "cards",
        "done": "finish",
        "end": "finish",
    }.get(verb, verb)


def card_name(card: str) -> str:
    """Display name of a card id."""
    c = CARDS.get(card)
    return c.name if c else card.title()
