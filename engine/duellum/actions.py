"""Action types (frozen, slotted, hashable) and their chat notation.

Why one small class per kind of decision: ``legal_actions`` lists them, ``parse`` matches typed
text against their notation, and equality is structural, so ``parse(notation(a)) == a`` holds by
construction. Regions are stored as indices of the game's map; the notation uses region ids
(underscores read as spaces by the core matcher, so ``carthago nova`` works).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.core.notation import normalize
from engine.core.text import count, plural_word
from engine.duellum.data import CARDS, RES_WORDS, RULES, TECHS, UNIT_WORDS, MapData

Pay = tuple[int, int, int, int]
"""An exact payment: marble, iron, gold, coins."""

PAY_DOC = """``pay`` of an action with a cost in chips: ``None`` pays chips first and coins for what is
missing (the usual choice); an exact ``(marble, iron, gold, coins)`` is another way to pay the
same cost, e.g. with coins to keep chips safe from Burglary (§7 lets the player choose)."""

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
    """Build a temple in an own city (TEMPLUM); ``pay``: see :data:`PAY_DOC`."""

    region: int
    pay: Pay | None = None


@dataclass(frozen=True, slots=True)
class BuildWall:
    """Build a wall from the personal supply in an own city (TEMPLUM); ``pay``: see :data:`PAY_DOC`."""

    region: int
    pay: Pay | None = None


@dataclass(frozen=True, slots=True)
class Deploy:
    """Deploy ``count`` units of ``unit`` (0 legion, 1 galley, 2 special) into an own city (MILITIA)."""

    unit: int
    count: int
    region: int
    pay: Pay | None = None


@dataclass(frozen=True, slots=True)
class BuyTech:
    """Buy a technology (SCIENTIA); ``pay``: see :data:`PAY_DOC`."""

    tech: str
    pay: Pay | None = None


@dataclass(frozen=True, slots=True)
class Recruit:
    """Move units from the personal supply to the recruitment box for gold (SCIENTIA)."""

    unit: int
    count: int
    pay: Pay | None = None


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
    pay: Pay | None = None


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
    """A card as printed on it (``MERCHANT_CARAVAN`` -> ``Merchant Caravan``): what players type."""
    c = CARDS.get(card)
    return c.name if c else card.replace("_", " ").title()


def place(m: MapData, region: int) -> str:
    """A region as printed on the board, without a parenthetical gloss
    (``Aigaion Pelagos (Aegean Sea)`` -> ``Aigaion Pelagos``): short enough to type."""
    return m.names[region].split(" (", 1)[0].strip()


def tech_words(tech: str) -> str:
    """A technology as printed (``RES_PUBLICA`` -> ``Res Publica``)."""
    t = TECHS.get(tech)
    return t.name if t else tech.replace("_", " ").title()


def pay_words(pay: tuple[int, ...]) -> str:
    """``(0, 1, 2, 3)`` -> ``iron 2 gold 3 coins``: a payment as typed after ``pay``."""
    parts = []
    for k, n in enumerate(pay):
        if n:
            parts.append(plural_word(RES_WORDS[k], n) if n == 1 else count(n, RES_WORDS[k]))
    return " ".join(parts) if parts else "nothing"


_FORMS: dict[tuple[str, int, Action], list[str]] = {}
_FORMS_LIMIT = 20_000


def forms(m: MapData, seat: int, a: Action) -> list[str]:
    """Accepted spellings of ``a``, canonical first (cached; do not modify the list).

    The canonical form names regions, cards and technologies as printed on the board; the
    second spells them by id (``carthago_nova``, ``forced_march``), as older messages did. Other
    ways of typing a move (``move 1 legion roma ancona``, ``pay 2 iron``, ``build temple roma``)
    are read by :mod:`engine.duellum.reasons` when the listed forms do not match, which keeps
    parsing fast.
    """
    key = (m.id, seat, a)
    out = _FORMS.get(key)
    if out is None:
        shown = _form(seat, a, lambda r: place(m, r), card_words, tech_words)
        by_id = _form(seat, a, lambda r: m.ids[r], lambda c: c.lower(), lambda t: t.lower())
        out = [shown] if normalize(by_id) == normalize(shown) else [shown, by_id]
        if isinstance(a, RondelMove) and any(a.pay):
            out.append(f"rondel {space_word(a.space)} pay {' '.join(chips(a.pay))}")
        if isinstance(a, Pass):
            out.append("decline")
        if isinstance(a, EndTurn):
            out.append("end")
        if len(_FORMS) < _FORMS_LIMIT:
            _FORMS[key] = out
    return out


def _paid(text: str, pay: tuple[int, ...] | None) -> str:
    return f"{text} pay {pay_words(pay)}" if pay is not None else text


def _form(
    seat: int,
    a: Action,
    region: Callable[[int], str],
    card: Callable[[str], str],
    tech: Callable[[str], str],
) -> str:
    if isinstance(a, RondelMove):
        return _paid(f"rondel {space_word(a.space)}", a.pay if any(a.pay) else None)
    if isinstance(a, TakeResource):
        return f"take {RES_WORDS[a.res]}"
    if isinstance(a, BuildTemple):
        return _paid(f"temple {region(a.region)}", a.pay)
    if isinstance(a, BuildWall):
        return _paid(f"wall {region(a.region)}", a.pay)
    if isinstance(a, Deploy):
        return _paid(f"deploy {unit_phrase(a.unit, a.count, seat)} {region(a.region)}", a.pay)
    if isinstance(a, BuyTech):
        return _paid(f"buy {tech(a.tech)}", a.pay)
    if isinstance(a, Recruit):
        return _paid(f"recruit {unit_phrase(a.unit, a.count, seat)}", a.pay)
    if isinstance(a, Move):
        return f"move {unit_phrase(a.unit, a.count, seat)} {'-'.join(region(r) for r in a.path)}"
    if isinstance(a, Conquer):
        if a.card:
            return f"conquer {region(a.region)} with {card(a.card)}"
        return f"conquer {region(a.region)}"
    if isinstance(a, Losses):
        parts = []
        if a.legions:
            parts.append(unit_phrase(0, a.legions, seat, omit_one=False))
        if a.galleys:
            parts.append(unit_phrase(1, a.galleys, seat, omit_one=False))
        return "lose " + " ".join(parts)
    if isinstance(a, Found):
        return _paid(f"found {region(a.region)} {RES_WORDS[a.res]}", a.pay)
    if isinstance(a, Trade):
        return f"trade {' '.join(chips(a.give))} for {' '.join(chips(a.get))}"
    if isinstance(a, PlayCard):
        words = ["play", card(a.card)]
        if a.region >= 0:
            words.append(region(a.region))
        words.extend(RES_WORDS[r] for r in a.res)
        if a.stack:
            words.append("again")
        return " ".join(words)
    if isinstance(a, Pick):
        return f"take {card(a.card)}"
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, Done):
        return "done"
    if isinstance(a, EndTurn):
        return "end turn"
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


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(x: object, size: int, top: int = 1 << 30) -> bool:
    return isinstance(x, tuple) and len(x) == size and all(_int(v) and 0 <= v <= top for v in x)


def well_formed(m: MapData, a: object) -> bool:
    """Whether ``a`` is a Duellum action whose fields have the right types, lengths and ranges.

    Why before any rule check: parsers, buttons and autocomplete build actions, and a rule
    module indexing a tuple by position must never see a short one (an ``IndexError`` instead
    of a refusal) nor ignore a long one (a trade whose fourth "received" chip is dropped).
    """

    def region(r: object) -> bool:
        return _int(r) and 0 <= r < m.size  # type: ignore[operator]

    def pay(p: object) -> bool:
        return p is None or _ints(p, 4)

    if isinstance(a, RondelMove):
        return _int(a.space) and 0 <= a.space < len(RULES.rondel) and _ints(a.pay, 4)
    if isinstance(a, TakeResource):
        return _int(a.res) and 0 <= a.res < 3
    if isinstance(a, (BuildTemple, BuildWall)):
        return region(a.region) and pay(a.pay)
    if isinstance(a, Deploy):
        return a.unit in (0, 1, SPECIAL) and _int(a.count) and a.count >= 1 and region(a.region) and pay(a.pay)
    if isinstance(a, BuyTech):
        return isinstance(a.tech, str) and a.tech in TECHS and pay(a.pay)
    if isinstance(a, Recruit):
        return a.unit in (0, 1) and _int(a.count) and a.count >= 1 and pay(a.pay)
    if isinstance(a, Move):
        return (
            a.unit in (0, 1, SPECIAL)
            and _int(a.count)
            and a.count >= 1
            and isinstance(a.path, tuple)
            and len(a.path) >= 2
            and all(region(r) for r in a.path)
        )
    if isinstance(a, Conquer):
        return region(a.region) and isinstance(a.card, str) and (a.card == "" or a.card in CARDS)
    if isinstance(a, Losses):
        return _int(a.legions) and _int(a.galleys) and a.legions >= 0 and a.galleys >= 0
    if isinstance(a, Found):
        return region(a.region) and _int(a.res) and 0 <= a.res < 3 and pay(a.pay)
    if isinstance(a, Trade):
        return _ints(a.give, 4) and _ints(a.get, 3)
    if isinstance(a, PlayCard):
        return (
            isinstance(a.card, str)
            and a.card in CARDS
            and (a.region == -1 or region(a.region))
            and _int(a.region)
            and isinstance(a.res, tuple)
            and all(_int(r) and 0 <= r < 3 for r in a.res)
            and isinstance(a.stack, bool)
        )
    if isinstance(a, Pick):
        return isinstance(a.card, str) and a.card in CARDS
    return isinstance(a, (Pass, Done, EndTurn))


def id_notation(m: MapData, seat: int, a: Action) -> str:
    """The notation spelled with ids (``move legion carthago_nova-saguntum``): stable names for
    tests and logs that must not change when a printed name does."""
    return _form(seat, a, lambda r: m.ids[r], lambda c: c.lower(), lambda t: t.lower())
