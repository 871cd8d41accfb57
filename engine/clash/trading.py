"""Trading between players (rules section 8.7): an offer put together step by step and answered
by the other seat of the trade; resources, mood and culture tokens, action and objective cards.

Why an offer is composed in steps (``trade blue``, ``give 2 food``, ``get 1 ore``, ``offer``):
every legal action must be listable, and every possible exchange of seven kinds of goods in any
amounts cannot be; each step has at most a few dozen choices, which also makes good buttons.
While the offer waits for the answer, the other seat is the one to move (``to_move``), as for any
out-of-turn decision; when he misses the deadline the offer is declined.

Decisions:
- The rules let a player trade with anyone in his own turn, and with the active player in
  another's turn. Only one seat moves at a time (``to_move``), so a non-active player's proposal
  goes through the active player's trade window: the active player either writes an offer
  (``trade blue``) or asks for one (``invite blue``), which hands the pen to Blue; Blue writes his
  offer to the active player, who answers it. Nothing else of the turn changes meanwhile, and
  a missed deadline drops the offer being written. Players arrange this in the chat as before.
- An exchange that would take a receiver above a cap (resources, or tokens above his level) is not
  offered: nothing is ever lost in a trade (CC-EX-39 e); the rules' alternative ("unless both
  confirm") is not offered, since a loss both agree to is the same as a smaller trade. The same
  resource or token may not be on both sides (cards may: :mod:`engine.clash.trade_cards`).
- At most three offers per turn (data), invitations included, so that offers cannot hold up the
  game.
- Cards in an offer are named only to the two seats of the trade; publicly an offer reads
  "Red offers Blue 1 action card for 2 ore" (:mod:`engine.clash.trade_cards`).
"""

from __future__ import annotations

from typing import Any

from engine.clash import trade_cards
from engine.clash.actions import Action
from engine.clash.data import RULES, TABLES
from engine.clash.resources import cap
from engine.clash.state import Player, State
from engine.clash.trade_cards import DECK_ITEMS
from engine.core.events import Event, private, public
from engine.core.text import count, join_words

ITEMS: tuple[str, ...] = tuple(str(x) for x in RULES["trade"]["items"])
OFFERS = int(RULES["trade"]["offers_per_turn"])
USED = "trade_offer"


def colour(seat: int) -> str:
    """Seat display name."""
    return TABLES.colours[seat]


def holding(p: Player, item: str) -> int:
    """How much of a tradeable good ``p`` holds."""
    if item == "mood":
        return p.mood_tokens
    if item == "culture":
        return p.culture_tokens
    return p.res[item]


def limit(p: Player, item: str) -> int:
    """The most of ``item`` ``p`` may hold (resource caps; token caps are the levels)."""
    if item == "mood":
        return p.happiness_level
    if item == "culture":
        return p.culture_level
    return cap(p, item)


def room(p: Player, item: str) -> int:
    """How much more of ``item`` ``p`` can take without losing any."""
    return max(0, limit(p, item) - holding(p, item))


def goods_text(goods: dict[str, int]) -> str:
    """``2 food and 1 mood token`` (``nothing`` when empty)."""
    parts = []
    for item in (*ITEMS, *DECK_ITEMS):
        n = int(goods.get(item, 0))
        if not n:
            continue
        if item in DECK_ITEMS:
            parts.append(count(n, f"{item} card"))
        elif item == "mood":
            parts.append(count(n, "mood token"))
        elif item == "culture":
            parts.append(count(n, "culture token"))
        else:
            parts.append(count(n, "idea") if item == "ideas" else f"{n} {item}")
    return join_words(parts) or "nothing"


def offer_text(offerer: int, other: int, give: dict[str, int], get: dict[str, int]) -> str:
    """``Red offers Blue 2 food for 1 ore`` (a one-sided offer is a gift asked or given)."""
    if not get:
        return f"{colour(offerer)} offers {colour(other)} {goods_text(give)} as a gift"
    if not give:
        return f"{colour(offerer)} asks {colour(other)} for {goods_text(get)} as a gift"
    return f"{colour(offerer)} offers {colour(other)} {goods_text(give)} for {goods_text(get)}"


def deal_text(offerer: int, give: dict[str, int], get: dict[str, int]) -> str:
    """``Red gives 2 food and receives 1 ore`` (one side only when the other is empty)."""
    parts = []
    if give:
        parts.append(f"gives {goods_text(give)}")
    if get:
        parts.append(f"receives {goods_text(get)}")
    return f"{colour(offerer)} " + " and ".join(parts)


# ------------------------------------------------------------------ opening an offer
def open_options(state: State, seat: int) -> list[Action]:
    """``trade <colour>`` (write an offer) and ``invite <colour>`` (ask for one) for every other
    player, while offers are left this turn."""
    if state.pl[seat].used.count(USED) >= OFFERS:
        return []
    others = [s for s in state.clockwise_from(seat) if s != seat]
    return [Action("trade", n=s) for s in others] + [Action("invite", n=s) for s in others]


def open_offer(state: State, seat: int, a: Action) -> list[Event]:
    """Start composing an offer to seat ``a.n``, or let seat ``a.n`` compose one to the active
    player (no action is spent)."""
    state.pl[seat].used.append(USED)
    if a.kind == "invite":
        state.pending = {"kind": "offer", "seat": a.n, "to": seat, "give": {}, "get": {}, "cards": []}
        return [public(f"{colour(seat)} invites {colour(a.n)} to make a trade offer.", "trade")]
    state.pending = {"kind": "offer", "seat": seat, "to": a.n, "give": {}, "get": {}, "cards": []}
    return [public(f"{colour(seat)} prepares a trade offer for {colour(a.n)}.", "trade")]


# ------------------------------------------------------------------ composing
def compose_options(state: State) -> list[Action]:
    """Set an amount to give or to get, send the offer, or drop it."""
    pend = state.pending
    me = state.pl[int(pend["seat"])]
    other = state.pl[int(pend["to"])]
    give: dict[str, int] = pend["give"]
    get: dict[str, int] = pend["get"]
    out: list[Action] = []
    for item in ITEMS:
        if not get.get(item):
            top = min(holding(me, item), room(other, item))
            out.extend(Action("give", name=item, n=n) for n in range(top + 1) if n != give.get(item, 0))
    for item in ITEMS:
        if not give.get(item):
            top = min(holding(other, item), room(me, item))
            out.extend(Action("get", name=item, n=n) for n in range(top + 1) if n != get.get(item, 0))
    out.extend(trade_cards.give_options(state, pend))
    out.extend(trade_cards.get_options(state, pend))
    if give or get:
        out.append(Action("offer"))
    out.append(Action("cancel"))
    return out


def compose(state: State, seat: int, a: Action) -> list[Event]:
    """One composing step (amounts are set, not added: ``give 2 food`` means 2 food in all)."""
    pend = state.pending
    if a.kind == "give" and a.name == "card":
        trade_cards.set_card(pend, a)
        return []
    if a.kind in ("give", "get"):
        side: dict[str, int] = pend[a.kind]
        if a.n:
            side[a.name] = a.n
        else:
            side.pop(a.name, None)
        return []
    if a.kind == "cancel":
        state.pending = {}
        if seat != state.active and not (pend["give"] or pend["get"] or pend.get("cards")):
            return [public(f"{colour(seat)} makes no trade offer.", "trade")]  # invited, wrote nothing
        return [public(f"{colour(seat)} withdraws the trade offer.", "trade")]
    other = int(pend["to"])
    cards = list(pend.get("cards", []))
    state.pending = {
        "kind": "trade",
        "seat": other,
        "from": seat,
        "give": pend["give"],
        "get": pend["get"],
        "cards": cards,
    }
    events = [
        public(
            f"{offer_text(seat, other, pend['give'], pend['get'])}. {colour(other)}: `accept` or `decline`.",
            "trade",
        )
    ]
    if cards:
        events.append(private((seat, other), f"The cards {colour(seat)} offers: {trade_cards.names(cards)}.", "trade"))
    return events


def trade_parties(state: State) -> tuple[int, ...]:
    """The two seats of the offer being written or answered (none when no offer is open)."""
    pend = state.pending
    if pend.get("kind") == "offer":
        return (int(pend["seat"]), int(pend["to"]))
    if pend.get("kind") == "trade":
        return (int(pend["from"]), int(pend["seat"]))
    return ()


def offer_view(pend: dict[str, Any]) -> dict[str, Any]:
    """The open offer as everyone may see it (trades are public)."""
    out: dict[str, Any] = {"give": dict(pend.get("give", {})), "get": dict(pend.get("get", {}))}
    if pend.get("kind") == "offer":
        out["to"] = int(pend["to"])
    else:
        out["from"] = int(pend["from"])
    return out


def declined_key(offerer: int, other: int, give: dict[str, int], get: dict[str, int]) -> str:
    """The mark a declined offer leaves in the active player's once-per-turn list."""

    def side(goods: dict[str, int]) -> str:
        return ",".join(f"{k}{int(n)}" for k, n in sorted(goods.items()))

    return f"declined:{offerer}:{other}:{side(give)}>{side(get)}"


# ------------------------------------------------------------------ answering
def answer_options(state: State) -> list[Action]:
    """Accept (when the exchange is still possible; with cards asked, once per set of cards the
    answering seat may hand over) or decline."""
    if not exchange_possible(state):
        return [Action("decline")]
    return [Action("accept", items=c) for c in trade_cards.accept_choices(state, state.pending)] + [Action("decline")]


def exchange_possible(state: State) -> bool:
    """Both sides still hold what they give and have room for what they get."""
    pend = state.pending
    giver = state.pl[int(pend["from"])]
    taker = state.pl[int(pend["seat"])]
    if not trade_cards.cards_possible(state, pend) or not trade_cards.accept_choices(state, pend):
        return False
    for item, n in pend["give"].items():
        if item not in DECK_ITEMS and (holding(giver, item) < n or room(taker, item) < n):
            return False
    goods = [(item, n) for item, n in pend["get"].items() if item not in DECK_ITEMS]
    return all(holding(taker, item) >= n and room(giver, item) >= n for item, n in goods)


def answer(state: State, seat: int, a: Action) -> list[Event]:
    """Carry out the exchange atomically, or drop it; the turn goes back to the offerer."""
    pend = state.pending
    state.pending = {}
    offerer = int(pend["from"])
    if a.kind == "decline":
        # Remembered until the active player's turn ends, so that the automatic player never
        # writes a declined offer again in the same turn (:mod:`engine.clash.bot_trade`).
        state.pl[state.active].used.append(declined_key(offerer, seat, pend["give"], pend["get"]))
        return [public(f"{colour(seat)} declines {colour(offerer)}'s offer.", "trade")]
    giver = state.pl[offerer]
    taker = state.pl[seat]
    for item, n in pend["give"].items():
        if item not in DECK_ITEMS:
            _move(giver, taker, item, int(n))
    for item, n in pend["get"].items():
        if item not in DECK_ITEMS:
            _move(taker, giver, item, int(n))
    given: list[str] = list(pend.get("cards", []))
    trade_cards.move(state, offerer, seat, given)
    trade_cards.move(state, seat, offerer, a.items)
    events = [
        public(
            f"{colour(seat)} accepts: {deal_text(offerer, pend['give'], pend['get'])}.",
            "trade",
        )
    ]
    parts = []
    if given:
        parts.append(f"{colour(seat)} receives {trade_cards.names(given)}")
    if a.items:
        parts.append(f"{colour(offerer)} receives {trade_cards.names(a.items)}")
    if parts:
        events.append(private((offerer, seat), "; ".join(parts) + ".", "trade"))
    return events


def _move(src: Player, dst: Player, item: str, n: int) -> None:
    if item == "mood":
        src.mood_tokens -= n
        dst.mood_tokens += n
    elif item == "culture":
        src.culture_tokens -= n
        dst.culture_tokens += n
    else:
        src.res[item] -= n
        dst.res[item] += n
    if holding(src, item) < 0 or holding(dst, item) > limit(dst, item):
        raise AssertionError("trade beyond a stock or a cap")


ALIASES = {"moods": "mood", "idea": "ideas", "cultures": "culture", "token": "", "tokens": ""}


def refusal(state: State, seat: int, words: list[str]) -> str:
    """Why a typed ``give``/``get`` step is refused: what a side holds, what the receiver may
    still hold (a trade never wastes anything), or the good already on the other side."""
    pend = state.pending
    if pend.get("kind") != "offer" or len(words) < 3 or not (words[1].isascii() and words[1].isdigit()):
        return ""
    n = int(words[1])
    item = ALIASES.get(words[2], words[2])
    if item in DECK_ITEMS:
        return _card_refusal(state, words[0], item)
    if item not in ITEMS:
        goods = [*ITEMS, "action cards", "objective cards"]
        return f"Goods to trade: {join_words(goods)}."
    other_side = "get" if words[0] == "give" else "give"
    if pend[other_side].get(item):
        return f"{_goods_word(item, 2).capitalize()} are already on the other side of the offer."
    me, other = state.pl[int(pend["seat"])], state.pl[int(pend["to"])]
    src, dst = (me, other) if words[0] == "give" else (other, me)
    who_src = "You have" if src is me else f"{colour(other.seat)} has"
    if holding(src, item) < n:
        return f"{who_src} {holding(src, item)} {_goods_word(item, holding(src, item))}."
    who_dst = "you" if dst is me else colour(other.seat)
    free = room(dst, item)
    if not free:
        return f"A trade never wastes anything: {who_dst} cannot take any more {_goods_word(item, 2)}."
    return f"A trade never wastes anything: {who_dst} can take only {free} more {_goods_word(item, free)}."


def _card_refusal(state: State, verb: str, deck: str) -> str:
    """A card step typed wrong: one's own cards are named, the other's are asked by number."""
    pend = state.pending
    if verb == "give":
        return "Name each card you give: `give card <card>` (`hand` shows yours)."
    other = int(pend["to"])
    held = len(trade_cards.hand(state, other, deck))
    most = min(held, trade_cards.MAX_ASK)
    if not held:
        return f"{colour(other)} holds no {deck} cards."
    return (
        f"{colour(other)} holds {count(held, f'{deck} card')}; an offer may ask for at most "
        f"{count(most, f'{deck} card')}."
    )


def _goods_word(item: str, n: int) -> str:
    word = {"mood": "mood token", "culture": "culture token", "ideas": "idea"}.get(item, item)
    return word if n == 1 or item in ("food", "wood", "ore", "gold") else word + "s"
