"""One entry point for cultural influence, wonders and trading: their actions, their open choices
and their notation, so the shared dispatchers (``turns``, ``moves``, ``notation``) each need only
one line to include them.
"""

from __future__ import annotations

from engine.clash import influence, trading, wonders
from engine.clash.actions import Action
from engine.clash.state import State
from engine.clash.trade_cards import DECK_ITEMS, card_word
from engine.core.events import Event

TURN_KINDS = ("influence", "wonder", "gardens", "trade", "invite")
PENDING_KINDS = ("boost", "pyramids", "lighthouse", "offer", "trade")
ANSWER_KINDS = (
    "boost",
    "noboost",
    "influence",
    "noinfluence",
    "move",
    "noship",
    "give",
    "get",
    "offer",
    "cancel",
    "accept",
    "decline",
)
COSTED = ("influence", "boost", "wonder", "gardens")
WAITING = {
    "boost": "to decide on spending culture tokens on the influence roll",
    "pyramids": "to make the Pyramids' free influence attempts",
    "lighthouse": "to move a ship with the Lighthouse",
    "offer": "to finish a trade offer",
    "trade": "to answer a trade offer",
}


def turn_options(state: State, seat: int) -> list[Action]:
    """The active player's influence attempts, wonders, Hanging Gardens and trade offers."""
    if state.phase != "turn":
        return []
    return [
        *influence.turn_options(state, seat),
        *wonders.wonder_options(state, seat),
        *wonders.gardens_options(state, seat),
        *trading.open_options(state, seat),
    ]


def pending_options(state: State) -> list[Action]:
    """The choices of one of this module's open decisions."""
    kind = state.pending["kind"]
    if kind == "boost":
        return influence.boost_options(state)
    if kind == "pyramids":
        return influence.pyramids_options(state)
    if kind == "lighthouse":
        return wonders.lighthouse_options(state)
    if kind == "offer":
        return trading.compose_options(state)
    return trading.answer_options(state)


def apply_turn(state: State, seat: int, a: Action) -> list[Event]:
    """Carry out a legal turn action of this module."""
    if a.kind == "influence":
        return influence.attempt(state, seat, a)
    if a.kind == "wonder":
        return wonders.build_wonder(state, seat, a)
    if a.kind == "gardens":
        return wonders.use_gardens(state, seat, a)
    return trading.open_offer(state, seat, a)


def apply_pending(state: State, seat: int, a: Action) -> list[Event]:
    """Carry out the answer to one of this module's open decisions."""
    kind = state.pending["kind"]
    if kind == "boost":
        return influence.answer_boost(state, seat, a)
    if kind == "pyramids":
        return influence.answer_pyramids(state, seat, a)
    if kind == "lighthouse":
        return wonders.answer_lighthouse(state, seat, a)
    if kind == "offer":
        return trading.compose(state, seat, a)
    return trading.answer(state, seat, a)


def text(state: State, seat: int, a: Action, city: str, target: str) -> str:
    """Notation of this module's actions (``city``/``target``: the cities as written)."""
    k = a.kind
    if k == "influence":
        how = " arts" if "arts" in a.flags else ""
        return f"influence {city} {target} {a.name}{how}"
    if k == "wonder":
        return f"wonder {city} {a.name.replace('_', '-')}"
    if k == "gardens":
        return f"gardens {city}"
    if k in ("trade", "invite"):
        from engine.clash.data import TABLES

        return f"{k} {TABLES.colours[a.n].lower()}"
    if k in ("give", "get", "accept") and (a.name == "card" or a.name in DECK_ITEMS or a.items):
        return trade_text(a)
    if k in ("give", "get"):
        # "get 1 idea", "get 2 ideas": the parser reads either form.
        word = "idea" if a.name == "ideas" and a.n == 1 else a.name
        return f"{k} {a.n} {word}"
    if k == "boost":
        return f"boost {a.n}"
    return {"noboost": "no boost", "noinfluence": "no influence", "noship": "no ship"}.get(k, k)


def trade_text(a: Action) -> str:
    """``give card <card>`` / ``take back <card>``, ``get 1 action card``, ``accept <card> ...``."""
    if a.kind == "give":
        return f"give card {card_word(a.items[0])}" if a.n else f"take back {card_word(a.items[0])}"
    if a.kind == "get":
        return f"get {a.n} {a.name} card" + ("" if a.n == 1 else "s")  # "get 2 action cards"
    return " ".join(["accept", *(card_word(c) for c in a.items)])


def refusal(state: State, seat: int, words: list[str]) -> str:
    """Why a typed influence attempt or wonder is refused ("" when the words do not say enough)."""
    if words[0] == "influence":
        return influence.refusal(state, seat, words)
    if words[0] in ("give", "get"):
        return trading.refusal(state, seat, words)
    return wonders.refusal(state, seat, words)


def cost_words(state: State, seat: int, a: Action) -> list[str]:
    """What one of this module's actions spends, for move lists and buttons."""
    from engine.clash.resources import amount_text, plan_payment
    from engine.core.text import count, join_words

    if a.kind == "influence":
        tokens = a.n + (1 if "arts" in a.flags else 0)
        return [count(tokens, "culture token")] if tokens else []
    if a.kind == "boost":
        return [count(a.n, "culture token")]
    if a.kind == "wonder":
        plan = plan_payment(state.pl[seat], wonders.resource_cost(a.name)) or {}
        parts = [amount_text(r, n) for r, n in plan.items() if n]
        return [join_words([*parts, count(wonders.culture_cost(a.name), "culture token")])]
    return ["1 mood token"]
