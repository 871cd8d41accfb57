"""7 Wonders view reading: public city records, card symbols, short names, last-turn phrases.

Why a model module: the public table must be drawn only from public facts, so every read of
the view for the table happens here, through an explicit list of keys (never ``hand``,
``my_picks``, ``tucked``, ``teammate_hand``, ``free_city_hand``, ``prompt`` or ``viewer``), and
the drawing modules only see the typed records built here. Card effects come from the
engine's card data (``engine.seven_wonders.data``), which is static and public; the view's
``cards`` table is only consulted for ids that are public (built cards, last-turn cards).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.seven_wonders.data import CARDS, Effect
from renderer.base import RGB
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_opt_int, as_str, str_list

COLOURS: Final[tuple[str, ...]] = ("brown", "grey", "blue", "green", "yellow", "red", "purple", "black")

# Card colours of the physical game, with a word for each so colour is never the only cue.
CARD_FILL: Final[Mapping[str, RGB]] = {
    "brown": (134, 84, 40),
    "grey": (140, 140, 140),
    "blue": (40, 96, 196),
    "green": (36, 136, 66),
    "yellow": (232, 184, 30),
    "red": (196, 40, 40),
    "purple": (118, 58, 160),
    "black": (40, 40, 40),
}
COLOUR_LABEL: Final[Mapping[str, str]] = {
    "brown": "Raw",
    "grey": "Goods",
    "blue": "Civic",
    "green": "Science",
    "yellow": "Trade",
    "red": "Military",
    "purple": "Guild",
    "black": "City",
}

RES_ORDER: Final[tuple[str, ...]] = ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")
RES_LETTER: Final[Mapping[str, str]] = {
    "wood": "W",
    "stone": "S",
    "clay": "C",
    "ore": "O",
    "glass": "G",
    "papyrus": "P",
    "loom": "L",
}
_LETTER_RES: Final[Mapping[str, str]] = {v: k for k, v in RES_LETTER.items()}

# Long names shortened for the table's card chips (the hand image shows full names).
_SHORT_NAMES: Final[Mapping[str, str]] = {
    "East Trading Post": "E. Trading Post",
    "West Trading Post": "W. Trading Post",
    "Chamber of Commerce": "Chamber of Comm.",
    "Clandestine Dock West": "Dock West",
    "Clandestine Dock East": "Dock East",
    "Architects' Cabinet": "Architects' Cab.",
    "Gates of the City": "City Gates",
    "Guild of Shadows": "Shadows",
}

_COUNT_SHORT: Final[Mapping[str, str]] = {
    "stages": "stage",
    "victory_tokens": "win",
    "defeat_tokens": "loss",
}


@dataclass(frozen=True, slots=True)
class Token:
    """One symbol on a card chip: ``kind`` is res | or | vp | shield | sci | coin | text."""

    kind: str
    value: str = ""
    n: int = 0


def _count_words(count: Sequence[str]) -> str:
    return "+".join(_COUNT_SHORT.get(c, c) for c in count)


def _effect_tokens(e: Effect) -> list[Token]:
    t = e.type
    if t == "produce":
        return [Token("res", _LETTER_RES.get(ch, ch)) for ch in e.res]
    if t == "produce_any":
        out: list[Token] = []
        for i, ch in enumerate(e.res):
            if i:
                out.append(Token("or"))
            out.append(Token("res", _LETTER_RES.get(ch, ch)))
        return out
    if t == "vp":
        return [Token("vp", n=e.n)]
    if t == "shields":
        return [Token("shield", n=e.n)]
    if t == "science":
        return [Token("sci", e.symbol)]
    if t == "science_wild":
        return [Token("sci", "any")]
    if t == "coins":
        return [Token("coin", n=e.n)]
    if t == "discount":
        arrows = {"left": "◀", "right": "▶", "both": "◀▶"}.get(e.side, "")
        goods = "raw" if e.goods == "raw" else "goods"
        return [Token("text", f"{goods} 1c {arrows}")]
    if t == "dock":
        return [Token("text", "−1c ◀" if e.side == "left" else "−1c ▶")]
    if t == "vp_per":
        return [Token("vp", n=e.n), Token("text", f"/{_count_words(e.count)}")]
    if t == "coins_per":
        return [Token("text", f"{e.n}c/{_count_words(e.count)}")]
    simple = {
        "mask": "mask",
        "diplomacy": "diplomacy",
        "coin_loss": f"all −{e.n}c",
        "coin_loss_per": f"all −{e.n}c/{_count_words(e.count)}",
        "produce_owned": "+1 own res",
        "produce_missing": "+1 missing res",
        "free_stages": "free stages",
    }
    word = simple.get(t)
    return [Token("text", word)] if word else []


@functools.cache
def card_tokens(card_id: str) -> tuple[Token, ...]:
    """The key symbols of a card (resources, VP, shields, science, coins, short effect words).

    Immediate coin gains of combined cards (e.g. Haven's coins) are left out when the card
    also scores VP per the same thing: the chip shows what still matters on the table.
    """
    card = CARDS.get(card_id)
    if card is None:
        return ()
    effects = list(card.effects)
    if any(e.type == "vp_per" for e in effects):
        effects = [e for e in effects if e.type != "coins_per"]
    if card.color == "black":
        effects = [e for e in effects if e.type != "coins_neighbours"]
    tokens: list[Token] = []
    for e in effects:
        tokens.extend(_effect_tokens(e))
    return tuple(tokens)


def card_name(card_id: str, cards: Mapping[str, Any]) -> str:
    """Full card name: engine data, else the view's ``cards`` entry, else the id."""
    card = CARDS.get(card_id)
    if card is not None:
        return card.name
    return as_str(as_map(cards.get(card_id)).get("name"), card_id.replace("_", " ").title())


def card_colour(card_id: str, cards: Mapping[str, Any], default: str = "black") -> str:
    """Card colour name (one of :data:`COLOURS`)."""
    card = CARDS.get(card_id)
    if card is not None:
        return card.color
    colour = as_str(as_map(cards.get(card_id)).get("color"), default)
    return colour if colour in CARD_FILL else default


def short_name(card_id: str, cards: Mapping[str, Any]) -> str:
    """The chip name: guild names lose the word "Guild" (their row says Guild), long names shrink."""
    name = card_name(card_id, cards)
    if name in _SHORT_NAMES:
        return _SHORT_NAMES[name]
    if name.endswith(" Guild"):
        return name[: -len(" Guild")]
    return name


def cost_tokens(cost: Mapping[str, Any]) -> tuple[Token, ...]:
    """A COST of the view as tokens: coins first, then one chip per resource unit."""
    out: list[Token] = []
    coins = as_int(cost.get("coins"))
    if coins:
        out.append(Token("coin", n=coins))
    res = as_map(cost.get("resources"))
    for name in RES_ORDER:
        out.extend(Token("res", name) for _ in range(min(as_int(res.get(name)), 9)))
    return tuple(out)


def wonder_short(name: str) -> str:
    """Drop "The" and the city ("The Temple of Artemis in Ephesos" -> "Temple of Artemis")."""
    if name.startswith("The "):
        name = name[4:]
    for joint in (" in ", " of "):
        head, sep, tail = name.rpartition(joint)
        if sep and head and " " not in tail:
            return head
    return name


# ----------------------------------------------------------------------------- city records


@dataclass(frozen=True, slots=True)
class Stage:
    """One wonder stage as shown on the table."""

    number: int
    built: bool
    new: bool  # built during the last resolved turn


@dataclass(frozen=True, slots=True)
class City:
    """Everything public about one city, ready to draw."""

    index: int
    name: str
    seat: int | None
    free_city: bool
    left: str
    right: str
    team: int | None
    wonder: str
    side: str
    resource: str
    stages: tuple[Stage, ...]
    structures: tuple[tuple[str, tuple[str, ...]], ...]  # (colour, card ids) in COLOURS order
    coins: int
    debt: int
    diplomacy: int
    shields: int
    tokens: tuple[int, ...]
    science: tuple[int, int, int, int, int]  # compass, gear, tablet, wildcards, masks
    hand_count: int
    status: str  # "chosen" | "choosing" | "" (not asked this step)
    owes: int
    last: tuple[str, ...]  # last turn's actions of this city, in words
    new_cards: frozenset[str]
    score: Mapping[str, Any] | None
    rank: int | None
    played_by: str  # 2 players, Free City: the city of the seat that plays it this turn
    next_cost: tuple[Token, ...]  # cost of the next wonder stage (public board)
    vp: int | None = None  # victory points if the game ended now (the view's public_vp)


def _status(view: Mapping[str, Any], city: Mapping[str, Any], controller: int | None) -> str:
    step = as_str(view.get("step"))
    if step == "over" or controller is None:
        return ""
    if as_bool(city.get("has_chosen")):
        return "chosen"
    to_move = {as_opt_int(s) for s in as_list(view.get("to_move"))}
    if controller not in to_move:
        return ""
    wonder = as_map(city.get("wonder"))
    wid, side = as_str(wonder.get("id")), as_str(wonder.get("side"))
    if step == "pick":
        return "choosing"
    if step == "babylon":
        return "choosing" if wid == "babylon" and side == "B" else ""
    if step == "hali":
        return "choosing" if wid == "halikarnassos" else ""
    if step == "debt":
        return "paying" if as_int(city.get("owes")) > 0 else ""
    return ""


def _pay_words(record: Mapping[str, Any]) -> str:
    left, right = as_int(record.get("pay_left")), as_int(record.get("pay_right"))
    parts = []
    if left:
        parts.append(f"{left}c to left")
    if right:
        parts.append(f"{right}c to right")
    return f" · paid {' + '.join(parts)}" if parts else ""


def last_turn_words(record: Mapping[str, Any], cards: Mapping[str, Any]) -> str:
    """One resolved action in words (the sold card stays hidden: it went face down)."""
    action = as_str(record.get("action"))
    card = as_str(record.get("card"))
    pay = _pay_words(record)
    if action == "play":
        via = {"chain": " (free: chain)", "olympia": " (free: Olympia)"}.get(as_str(record.get("via")), "")
        return f"built {card_name(card, cards)}{via}{pay}"
    if action == "wonder":
        return f"wonder stage {as_int(record.get('stage'))}{pay}"
    if action == "sell":
        return "sold a card for 3 coins"
    if action == "build":
        return f"built {card_name(card, cards)} from the discard pile"
    return action


def _name_of(names: Sequence[str], index: int | None) -> str:
    return names[index] if index is not None and 0 <= index < len(names) else ""


def _ranks(scores: Sequence[Mapping[str, Any]]) -> list[int]:
    totals = [as_int(s.get("total")) for s in scores]
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def cities(view: Mapping[str, Any]) -> list[City]:
    """Public city records of ``view`` (reads only public keys; see the module docstring)."""
    raw = [as_map(c) for c in as_list(view.get("cities"))]
    names = [as_str(c.get("name"), f"City {i + 1}") for i, c in enumerate(raw)]
    cards = as_map(view.get("cards"))
    records = [as_map(r) for r in as_list(view.get("last_turn"))]
    scores = [as_map(s) for s in as_list(view.get("scores"))]
    ranks = _ranks(scores) if scores else []
    holder_seat = as_opt_int(view.get("free_city_holder"))
    public_vp = [as_opt_int(v) for v in as_list(view.get("public_vp"))]
    out: list[City] = []
    for i, c in enumerate(raw):
        index = as_int(c.get("index"), i)
        free = as_bool(c.get("free_city"))
        seat = as_opt_int(c.get("seat"))
        controller = holder_seat if free else seat
        mine = [r for r in records if as_int(r.get("city"), -1) == index]
        new_cards = frozenset(as_str(r.get("card")) for r in mine if as_str(r.get("action")) in ("play", "build"))
        new_stages = {as_int(r.get("stage")) for r in mine if as_str(r.get("action")) == "wonder"}
        wonder = as_map(c.get("wonder"))
        built = as_int(wonder.get("stages_built"))
        stage_list = [as_map(s) for s in as_list(wonder.get("stages"))]
        stages = tuple(
            Stage(k + 1, as_bool(s.get("built")) or k < built, (k + 1) in new_stages) for k, s in enumerate(stage_list)
        )
        struct = as_map(c.get("structures"))
        military = as_map(c.get("military"))
        sci = as_map(c.get("science"))

        out.append(
            City(
                index=index,
                name=names[i],
                seat=seat,
                free_city=free,
                left=_name_of(names, as_opt_int(c.get("left"))) or "?",
                right=_name_of(names, as_opt_int(c.get("right"))) or "?",
                team=as_opt_int(c.get("team")),
                wonder=as_str(wonder.get("name"), "Wonder"),
                side=as_str(wonder.get("side")),
                resource=as_str(wonder.get("resource")),
                stages=stages,
                structures=tuple((col, tuple(str_list(struct.get(col)))) for col in COLOURS),
                coins=as_int(c.get("coins")),
                debt=as_int(c.get("debt")),
                diplomacy=as_int(c.get("diplomacy")),
                shields=as_int(military.get("shields")),
                tokens=tuple(as_int(t) for t in as_list(military.get("tokens"))),
                science=(
                    as_int(sci.get("compass")),
                    as_int(sci.get("gear")),
                    as_int(sci.get("tablet")),
                    as_int(sci.get("wildcards")),
                    as_int(sci.get("masks")),
                ),
                hand_count=as_int(c.get("hand_count")),
                status=_status(view, c, controller),
                owes=as_int(c.get("owes")),
                last=tuple(last_turn_words(r, cards) for r in mine),
                new_cards=new_cards,
                score=scores[i] if i < len(scores) else None,
                rank=ranks[i] if i < len(ranks) else None,
                played_by=_name_of(names, holder_seat) if free else "",
                next_cost=cost_tokens(as_map(stage_list[built].get("cost"))) if built < len(stage_list) else (),
                vp=public_vp[i] if i < len(public_vp) else None,
            )
        )
    return out


AGE_NAMES: Final[Mapping[int, str]] = {1: "I", 2: "II", 3: "III"}
