"""Legal moves of a seat and the reasons a move is illegal.

Why the per-city context: one move list needs the city's own production, the neighbours'
sellable production and the prices once, then asks the (memoised) payment search once per
card and once for the next wonder stage.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.text import count
from engine.seven_wonders.actions import PICK_KINDS, Action, notation_text
from engine.seven_wonders.cards import built_names
from engine.seven_wonders.cities import debt_actions
from engine.seven_wonders.data import CARDS, Card, Cost, res_text
from engine.seven_wonders.resources import (
    Supply,
    Terms,
    missing_units,
    own_supply,
    payment_options,
    trade_terms,
)
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import (
    halikarnassos_choices,
    next_stage,
    olympia_free_available,
    stage_cost,
)


@dataclass(slots=True)
class Ctx:
    """What one city needs to price its moves this step (shared through a memo, so it is
    only ever read, except for its own payment cache)."""

    idx: int
    coins: int
    own: Supply
    terms: Terms
    names: frozenset[str]
    olympia: bool
    stage_no: int
    stage_cost: Cost | None
    pay_cache: dict[Cost, tuple[tuple[int, int], ...]]


_CTX_MEMO: dict[tuple[object, ...], Ctx] = {}
_CTX_MEMO_MAX = 4096


def context(state: State, idx: int) -> Ctx:
    """Analyse a city once for move generation.

    Why a memo keyed by content: the same city position is priced again and again (each
    ``parse`` prices every candidate, views price the hand); the key holds everything the
    analysis reads (the city, its two neighbours' boards and structures, the Age), so a hit
    is always exact.
    """
    city = state.cities[idx]
    left = state.cities[state.left(idx)]
    right = state.cities[state.right(idx)]
    key = (
        idx,
        state.age,
        city.wonder,
        city.side,
        city.stages,
        city.coins,
        city.olympia_age,
        tuple(city.built),
        left.wonder,
        tuple(left.built),
        right.wonder,
        tuple(right.built),
    )
    hit = _CTX_MEMO.get(key)
    if hit is not None:
        return hit
    stage = next_stage(city)
    ctx = Ctx(
        idx=idx,
        coins=city.coins,
        own=own_supply(state, idx),
        terms=trade_terms(state, idx),
        names=frozenset(built_names(city)),
        olympia=olympia_free_available(state, city),
        stage_no=city.stages + 1,
        stage_cost=stage_cost(city, stage) if stage is not None else None,
        pay_cache={},
    )
    if len(_CTX_MEMO) >= _CTX_MEMO_MAX:
        _CTX_MEMO.clear()
    _CTX_MEMO[key] = ctx
    return ctx


def payments(ctx: Ctx, cost: Cost, with_coins: bool = True) -> list[tuple[int, int]]:
    """Neighbour payments that pay ``cost``; with ``with_coins`` only those the city can afford
    with the coins it holds now (A7.6, A8.7)."""
    if with_coins and cost.coins > ctx.coins:
        return []
    opts = ctx.pay_cache.get(cost)
    if opts is None:
        opts = payment_options(cost.res, ctx.own, ctx.terms) if any(cost.res) else ((0, 0),)
        ctx.pay_cache[cost] = opts
    if not with_coins:
        return list(opts)
    budget = ctx.coins - cost.coins
    return [p for p in opts if p[0] + p[1] <= budget]


def is_chain(ctx: Ctx, c: Card) -> bool:
    """Free by chain (A9)."""
    return any(p in ctx.names for p in c.chain_from)


def play_actions(ctx: Ctx, cid: str) -> list[Action]:
    """Ways to build ``cid``: by chain (then only that, A9.4), paid, or with Olympia A.

    Decision: Olympia's free build is offered only for a card that costs something and is
    not free by chain (using it there would waste the once-per-Age power for nothing).
    Decision D-14: neighbours' production is the start-of-turn one (moves are computed
    before anybody's pick resolves).
    """
    c = CARDS[cid]
    if c.name in ctx.names:
        return []
    if is_chain(ctx, c):
        return [Action("play", ctx.idx, cid, via="chain")]
    out = [Action("play", ctx.idx, cid, pl, pr) for pl, pr in payments(ctx, c.cost)]
    if ctx.olympia and not c.cost.free:
        out.append(Action("play", ctx.idx, cid, via="olympia"))
    return out


def stage_payments(ctx: Ctx) -> list[tuple[int, int]]:
    """Payments for the next wonder stage (empty when complete or unaffordable)."""
    if ctx.stage_cost is None:
        return []
    return payments(ctx, ctx.stage_cost)


def card_actions(state: State, ctx: Ctx, cid: str, stage_pays: list[tuple[int, int]]) -> list[Action]:
    """All moves with one card; the Free City's constraints applied (A16.4, D-26).

    Decision: "may only discard if it can neither build the chosen card nor a wonder stage"
    is judged for the card chosen: discarding it is allowed when neither building it nor
    tucking it for the next stage is possible.
    """
    plays = play_actions(ctx, cid)
    wonders = [Action("wonder", ctx.idx, cid, pl, pr, stage=ctx.stage_no) for pl, pr in stage_pays]
    if ctx.idx == state.free_city:
        if plays and plays[0].via == "chain":
            return plays
        if plays or wonders:
            return plays + wonders
    return [*plays, *wonders, Action("sell", ctx.idx, cid)]


def pick_hand(state: State, idx: int) -> list[str]:
    """Cards ``idx`` may choose from now: in the two-player game the controller's hand minus
    the card already chosen for the other city it decides for."""
    hand = list(state.hand_of(idx))
    if state.players == 2 and state.step == "pick":
        other = state.free_city if idx != state.free_city else state.fc_ctrl
        chosen = state.pending.get(other)
        if chosen is not None and chosen.card in hand:
            hand.remove(chosen.card)
    return hand


def pick_actions(state: State, idx: int) -> list[Action]:
    """Every pick of city ``idx`` (cards in name order; per card play, wonder, sell)."""
    ctx = context(state, idx)
    stage_pays = stage_payments(ctx)
    out: list[Action] = []
    for cid in sorted(set(pick_hand(state, idx)), key=lambda c: (CARDS[c].name, c)):
        out.extend(card_actions(state, ctx, cid, stage_pays))
    return out


def controlled(state: State, seat: int) -> list[int]:
    """Cities ``seat`` decides for now (its own, and the Free City while holding its card)."""
    if state.players == 2 and state.fc_ctrl == seat:
        return [seat, state.free_city]
    return [seat]


def open_cities(state: State, seat: int) -> list[int]:
    """Cities of ``seat`` with a decision outstanding in the current step."""
    step = state.step
    mine = controlled(state, seat)
    if step == "pick":
        return [c for c in mine if c not in state.pending]
    if step == "babylon":
        return [c for c in mine if c in state.babylon and c not in state.pending]
    if step == "hali":
        return [state.hali[0]] if state.hali and state.hali[0] in mine else []
    if step == "debt":
        return [c for c in mine if c in state.owed]
    return []


def hali_actions(state: State, idx: int) -> list[Action]:
    """Halikarnassos: build one discarded card for free, or not (A12.6: "may build").

    Decision: ``skip`` is always offered; a timeout takes the automatic player's choice (the
    spec gives no default).
    """
    out = [Action("build", idx, cid) for cid in halikarnassos_choices(state, idx)]
    out.append(Action("skip", idx))
    return out


def legal(state: State, seat: int) -> list[Action]:
    """Every legal move of ``seat`` now, in a fixed order."""
    out: list[Action] = []
    for c in open_cities(state, seat):
        if state.step in ("pick", "babylon"):
            out.extend(pick_actions(state, c))
        elif state.step == "hali":
            out.extend(hali_actions(state, c))
        elif state.step == "debt":
            out.extend(debt_actions(state, c))
    return out


def legal_for(state: State, seat: int, action: Action) -> list[Action]:
    """The legal moves that share ``action``'s city, kind and card (cheap validation)."""
    if action.city not in open_cities(state, seat):
        return []
    step = state.step
    if step in ("pick", "babylon"):
        if action.kind not in PICK_KINDS or action.card not in pick_hand(state, action.city):
            return []
        ctx = context(state, action.city)
        stage_pays = stage_payments(ctx) if action.kind == "wonder" or action.city == state.free_city else []
        return [a for a in card_actions(state, ctx, action.card, stage_pays) if a.kind == action.kind]
    if step == "hali":
        return hali_actions(state, action.city)
    if step == "debt":
        return debt_actions(state, action.city)
    return []


def cheapest_trade(state: State, action: Action) -> bool:
    """Whether ``action`` is among the cheapest payments of its kind for its card (so the
    payment-free short form may name it, A8.10).

    Decision: when several payments share the lowest total, the short form matches all of
    them and the parser answers "ambiguous" with the choices, instead of preferring the left
    neighbour (A8.10): whom to pay is the buyer's choice (A8.8) and it helps a rival.
    """
    if not action.trade or action.kind not in ("play", "wonder"):
        return False
    ctx = context(state, action.city)
    if action.kind == "play":
        opts = [(a.pay_left, a.pay_right) for a in play_actions(ctx, action.card) if a.via == ""]
    else:
        opts = stage_payments(ctx)
    return bool(opts) and action.trade == min(p[0] + p[1] for p in opts)


def _afford_reason(ctx: Ctx, cost: Cost, what: str, pay: tuple[int, int]) -> str:
    if cost.coins > ctx.coins:
        return f"{what} costs {count(cost.coins, 'coin')} and you have {ctx.coins}."
    missing, vectors = missing_units(cost.res, ctx.own)
    if missing == 0:
        if pay != (0, 0):
            return f"You produce everything {what} needs: you pay no neighbour for it."
        return f"You cannot pay for {what}."
    wanted = " or ".join(res_text(v) for v in vectors[:3])
    all_pairs = set(payment_options(cost.res, ctx.own, ctx.terms))
    if not all_pairs:
        return (
            f"{what} needs {wanted} more than you produce, and your neighbours cannot sell that "
            "(only their board resource and brown and grey cards are for sale)."
        )
    budget = ctx.coins - cost.coins
    cheapest = min(p[0] + p[1] for p in all_pairs)
    if cheapest > budget:
        return (
            f"You lack {wanted} for {what}; buying it costs at least {cheapest} coins"
            + (f" besides the {cost.coins}-coin cost" if cost.coins else "")
            + f", and you have {ctx.coins}."
        )
    valid = sorted(p for p in all_pairs if p[0] + p[1] <= budget)
    shown = "; ".join(f"pay left {a} right {b}" for a, b in valid[:6])
    return (
        f"That payment does not match a way to buy the missing {wanted} from your neighbours "
        f"(a neighbour is paid only for what it can sell). Possible: {shown}."
    )


def illegal_reason(state: State, seat: int, action: Action) -> str:
    """Why ``action`` is not legal, from public facts and the seat's own hand only."""
    if state.step == "over":
        return "The game is over."
    mine = controlled(state, seat)
    if action.city not in mine:
        return "You do not decide for that city."
    if action.city not in open_cities(state, seat):
        if state.step in ("pick", "babylon") and action.city in state.pending:
            return "You have already chosen this turn; wait for the others."
        return "That city has nothing to decide right now."
    step = state.step
    if step == "debt":
        owed = state.owed[action.city]
        top = min(owed, state.cities[action.city].coins)
        example = f"pay {top} debt {owed - top}"
        return f"You owe {count(owed, 'coin')}: pay 0 to {top} and take the rest as debt (e.g. `{example}`)."
    if step == "hali":
        if action.kind not in ("build", "skip"):
            return "Choose a discarded card to build for free (`build <card>`) or `skip`."
        return "That card is not in the discard pile, or your city already has a structure with that name."
    if action.kind not in PICK_KINDS:
        return "Choose a card: `play <card>`, `wonder <card>` or `sell <card>`."
    if action.card not in CARDS or action.card not in pick_hand(state, action.city):
        hand = state.hand_of(action.city)
        if action.card in hand:
            return "That card is already chosen for your other city this turn."
        return "That card is not in your hand."
    ctx = context(state, action.city)
    c = CARDS[action.card]
    fc = action.city == state.free_city
    if action.kind == "play":
        if c.name in ctx.names:
            return f"Your city already has {c.name}; a city never holds two structures with the same name."
        if is_chain(ctx, c):
            chain = notation_text(Action("play", action.city, action.card, via="chain"), seat)
            return f"{c.name} is free for you through its chain: type `{chain}`."
        if action.via == "olympia":
            return "Olympia's free build is not available (not built yet, used this Age, or the card is free anyway)."
        if action.via == "chain":
            return f"You have no structure that chains to {c.name}."
        return _afford_reason(ctx, c.cost, c.name, (action.pay_left, action.pay_right))
    if action.kind == "wonder":
        if ctx.stage_cost is None:
            return "Your wonder is complete."
        if action.stage != ctx.stage_no:
            return f"Stages are built in order: your next stage is stage {ctx.stage_no}."
        if fc and is_chain(ctx, c) and c.name not in ctx.names:
            return f"The Free City must build {c.name} through its chain."
        return _afford_reason(ctx, ctx.stage_cost, f"stage {ctx.stage_no}", (action.pay_left, action.pay_right))
    if fc:
        if is_chain(ctx, c) and c.name not in ctx.names:
            return f"The Free City must build {c.name} through its chain."
        return "The Free City may discard a card only when it can neither build it nor a wonder stage."
    return "That move is not legal right now."
