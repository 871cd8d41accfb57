"""What one seat (or a spectator) may see, as JSON-able data: the renderer's contract.

Why one function builds everything from public facts plus the viewer's own cards: the
public table image and the private hand image are drawn from this dict alone, so hidden
information (other hands, other players' pending picks, tucked cards, the discard pile, the
decks, the RNG) can only leak if it is put here, and it never is.

View schema (``SevenWondersGame().view(state, seat)``; ``seat`` None = spectator). Keys
may be added; these exist with these meanings. Card ids are the ``id`` fields of
``data/cards.json``; every id that appears anywhere in a view is described in ``cards``.
Resources are named ``wood stone clay ore glass papyrus loom``.

```
{
  "game": "seven-wonders",
  "viewer": seat | null,
  "players": int,                       # seats (the Free City is not a seat)
  "options": {"cities": bool, "side": "A"|"B"|"random", "teams": bool},
  "age": 1|2|3, "turn": int, "turns_in_age": int, "hand_size": int,
  "direction": "left"|"right",          # where hands pass this Age ("left" = seat i to i+1)
  "step": "pick"|"babylon"|"hali"|"debt"|"over",
  "awaiting": str,                       # sentence: what the table waits for (no hidden info)
  "to_move": [seat, ...],                # seats that still have to decide
  "chosen": [seat, ...],                 # seats whose choice for this step is in (flag only)
  "free_city": city | null,              # index of the Free City (two-player game)
  "free_city_holder": seat | null,       # seat holding the Free City card this turn
  "cities": [{                           # index = city; city i is seat i's
      "index": int, "name": str, "seat": seat | null, "free_city": bool,
      "left": city, "right": city,       # neighbours (left = clockwise, rules 0.2)
      "team": int | null,
      "wonder": {"id": str, "name": str, "side": "A"|"B", "resource": str,
                 "stages_built": int,
                 "stages": [{"stage": int, "cost": COST, "text": str, "built": bool}]},
      "structures": {"brown": [id], "grey": [id], "blue": [id], "green": [id],
                     "yellow": [id], "red": [id], "purple": [id], "black": [id]},
      "coins": int, "debt": int, "diplomacy": int,
      "military": {"shields": int, "tokens": [int], "points": int},
      "science": {"compass": int, "gear": int, "tablet": int, "wildcards": int, "masks": int},
      "hand_count": int,                 # cards in its hand (Free City: its face-down pile)
      "has_chosen": bool,                # its pick for this step is in
      "owes": int,                       # coins awaiting its pay/debt decision (0: none)
      "vp_now": int                      # victory points it would score now (all public)
  }],
  "decks": {"age_1": int, "age_2": int, "age_3": int},   # undealt cards (sizes only)
  "discard_size": int, "free_city_pile": int,
  "hand": [HAND_CARD] | null,            # viewer's own hand, priced for the viewer's city
  "free_city_hand": [HAND_CARD] | null,  # the same hand priced for the Free City (holder only)
  "teammate_hand": [id] | null,          # team variant: the teammate's hand (B13.3)
  "tucked": [id] | null,                 # cards under the viewer's own wonder
  "my_picks": [{"city": city, "move": str}],   # viewer's own hidden picks this step
  "prompt": null | {"kind": "pick"|"babylon", "cities": [city]}
                 | {"kind": "hali", "city": city, "choices": [id]}       # discard pile choices
                 | {"kind": "debt", "city": city, "owed": int, "coins": int},
  "last_turn": [{"city": city, "action": "play"|"wonder"|"sell"|"build",
                 "card": id (play/build only), "via": str, "stage": int,
                 "pay_left": int, "pay_right": int}],
  "scores": null | [SCORE],              # when the game is over: per city, see scoring.py
  "public_vp": [int],                    # per city: VP if the game ended now (all public facts)
  "cards": {id: {"name": str, "age": int, "color": str, "cost": COST,
                 "chain_from": [name], "text": str}}
}
COST = {"coins": int, "resources": {resource: int}}
HAND_CARD = {"id": id, "name": str, "color": str,
             "play": {"legal": bool, "free_by_chain": bool, "duplicate": bool,
                      "affordable": bool,           # buildable now with coins held
                      "cheapest_trade": int | null, # fewest coins to neighbours (0: own
                                                    # production; null: cannot be bought)
                      "payments": [[left, right]],  # every payment affordable now
                      "olympia": bool},             # Olympia A free build usable on it
             "wonder": {"legal": bool, "stage": int | null, "cheapest_trade": int | null,
                        "payments": [[left, right]]},
             "sell": bool}
```
"""

from __future__ import annotations

from typing import Any

from engine.core.text import count
from engine.seven_wonders.actions import notation_text
from engine.seven_wonders.data import CARDS, COLOURS, RES_NAMES, SYMBOLS, Cost, Effect
from engine.seven_wonders.military import strength
from engine.seven_wonders.moves import (
    Ctx,
    card_actions,
    context,
    controlled,
    is_chain,
    open_cities,
    payments,
    stage_payments,
)
from engine.seven_wonders.science import masks, symbols, wildcards
from engine.seven_wonders.scoring import score_city
from engine.seven_wonders.state import State
from engine.seven_wonders.turns import AGE_NAMES, direction
from engine.seven_wonders.wonders import board, city_name, halikarnassos_choices, stage_cost, stages_of

_COUNT_WORDS = {
    "stages": "wonder stage",
    "victory_tokens": "victory token",
    "defeat_tokens": "defeat token",
}
_SCOPE_WORDS = {
    "own": "in your city",
    "neighbours": "in both neighbouring cities",
    "all": "in your city and both neighbours",
}


def cost_json(cost: Cost) -> dict[str, Any]:
    """COST of the schema."""
    return {"coins": cost.coins, "resources": {RES_NAMES[i]: n for i, n in enumerate(cost.res) if n}}


def _counted(e: Effect) -> str:
    words = [_COUNT_WORDS.get(c, f"{c} card") for c in e.count]
    return " / ".join(words)


def effect_text(e: Effect) -> str:
    """One effect in words (for card and stage texts)."""
    t = e.type
    res = " or ".join(RES_NAMES["WSCOGPL".index(ch)] for ch in e.res)
    if t == "produce":
        return "produces " + ", ".join(RES_NAMES["WSCOGPL".index(ch)] for ch in e.res)
    if t == "produce_any":
        return f"produces one of {res} each turn"
    if t == "produce_owned":
        return "produces one unit of a type your brown/grey cards or board already produce"
    if t == "produce_missing":
        return "produces one unit of a type your brown/grey cards and board do not produce"
    if t == "vp":
        return f"{e.n} VP"
    if t == "shields":
        return count(e.n, "shield")
    if t == "science":
        return f"science symbol: {e.symbol}"
    if t == "science_wild":
        return "a science symbol of your choice at game end"
    if t == "mask":
        return "mask: copies a neighbour's green card symbol at game end"
    if t == "discount":
        side = {"left": "the left neighbour", "right": "the right neighbour", "both": "both neighbours"}[e.side]
        goods = "raw materials" if e.goods == "raw" else "manufactured goods"
        return f"buy {goods} from {side} for 1 coin"
    if t == "dock":
        return f"first purchase each turn from the {e.side} neighbour costs 1 coin less"
    if t == "coins":
        return f"+{count(e.n, 'coin')} now"
    if t == "coins_neighbours":
        return f"each neighbour takes {count(e.n, 'coin')}"
    if t == "coins_per":
        return f"+{count(e.n, 'coin')} now per {_counted(e)} {_SCOPE_WORDS[e.scope]}"
    if t == "vp_per":
        return f"{e.n} VP per {_counted(e)} {_SCOPE_WORDS[e.scope]} at game end"
    if t == "diplomacy":
        return "take a diplomacy token"
    if t == "coin_loss":
        return f"every opponent loses {count(e.n, 'coin')}"
    if t == "coin_loss_per":
        return f"every opponent loses {e.n} coin per {_counted(e)} they have"
    if t == "free_stages":
        return "wonder stages cost no resources"
    if t == "discard_build":
        return "build a discarded card for free at the end of the turn"
    if t == "play_last_card":
        return "play the last card of each Age"
    if t == "free_build_per_age":
        return "once per Age, build a structure for free"
    if t == "copy_guild":
        return "copy a neighbour's guild at game end"
    return t


def card_json(cid: str) -> dict[str, Any]:
    """Static description of a card (``cards`` entries)."""
    c = CARDS[cid]
    return {
        "name": c.name,
        "age": c.age,
        "color": c.color,
        "cost": cost_json(c.cost),
        "chain_from": list(c.chain_from),
        "text": "; ".join(effect_text(e) for e in c.effects),
    }


def _hand_entry(state: State, ctx: Ctx, cid: str, stage_pays: list[tuple[int, int]]) -> dict[str, Any]:
    c = CARDS[cid]
    legal_moves = card_actions(state, ctx, cid, stage_pays)
    plays = [a for a in legal_moves if a.kind == "play"]
    chain = is_chain(ctx, c) and c.name not in ctx.names
    all_pays = payments(ctx, c.cost, with_coins=False) if any(c.cost.res) else [(0, 0)]
    stage_all = payments(ctx, ctx.stage_cost, with_coins=False) if ctx.stage_cost is not None else []
    return {
        "id": cid,
        "name": c.name,
        "color": c.color,
        "play": {
            "legal": bool(plays),
            "free_by_chain": chain,
            "duplicate": c.name in ctx.names,
            "affordable": any(a.via != "olympia" for a in plays),
            "cheapest_trade": 0 if chain else (min(p[0] + p[1] for p in all_pays) if all_pays else None),
            "payments": [[a.pay_left, a.pay_right] for a in plays if a.via == ""],
            "olympia": any(a.via == "olympia" for a in plays),
        },
        "wonder": {
            "legal": any(a.kind == "wonder" for a in legal_moves),
            "stage": ctx.stage_no if ctx.stage_cost is not None else None,
            "cheapest_trade": min(p[0] + p[1] for p in stage_all) if stage_all else None,
            "payments": [[a.pay_left, a.pay_right] for a in legal_moves if a.kind == "wonder"],
        },
        "sell": any(a.kind == "sell" for a in legal_moves),
    }


def _hand_view(state: State, idx: int, cards: list[str]) -> list[dict[str, Any]]:
    ctx = context(state, idx)
    pays = stage_payments(ctx)
    return [_hand_entry(state, ctx, cid, pays) for cid in sorted(cards, key=lambda c: (CARDS[c].name, c))]


def own_hand(state: State, seat: int) -> list[dict[str, Any]]:
    """``build_view(state, seat)["hand"] or []`` without the rest of the view.

    Why: the private "your turn" note needs only the seat's hand, and the whole view (every
    city with its score) cost ten times as much, once per prompt (issue 12: a move's CPU)."""
    if not 0 <= seat < state.players or state.step == "over":
        return []
    return _hand_view(state, seat, list(state.hands[seat]))


def _chosen(state: State, seat: int) -> bool:
    if state.step not in ("pick", "babylon"):
        return False
    mine = controlled(state, seat)
    need = mine if state.step == "pick" else [c for c in mine if c in state.babylon]
    return bool(need) and all(c in state.pending for c in need)


def awaiting(state: State) -> str:
    """Public sentence: what the table waits for."""
    if state.step == "over":
        return "The game is over."
    seats = [s for s in range(state.players) if open_cities(state, s)]
    names = ", ".join(city_name(state, s) for s in seats)
    if state.step == "pick":
        age = AGE_NAMES[state.age - 1]
        return f"Age {age}, turn {state.turn}/{state.turns_per_age}: waiting for {names} to choose a card."
    if state.step == "babylon":
        return f"Waiting for {names} to play the last card of the Age (Babylon)."
    if state.step == "hali":
        return f"Waiting for {names} to build from the discard pile (Halikarnassos)."
    return f"Waiting for {names} to pay coins or take debt."


def _stage_text(effects: tuple[Effect, ...]) -> str:
    return "; ".join(effect_text(e) for e in effects)


def city_json(state: State, idx: int) -> dict[str, Any]:
    """One city's public board."""
    city = state.cities[idx]
    w = board(city)
    structures: dict[str, list[str]] = {col: [] for col in COLOURS}
    for cid in city.built:
        structures[CARDS[cid].color].append(cid)
    sym = symbols(state, idx)
    fc = idx == state.free_city
    hand_count = len(state.fc_pile) if fc else len(state.hands[idx])
    return {
        "index": idx,
        "name": city_name(state, idx),
        "seat": None if fc else idx,
        "free_city": fc,
        "left": state.left(idx),
        "right": state.right(idx),
        "team": state.team(idx) if state.teams else None,
        "wonder": {
            "id": w.id,
            "name": w.name,
            "side": city.side,
            "resource": RES_NAMES[w.resource],
            "stages_built": city.stages,
            "stages": [
                {
                    "stage": i + 1,
                    "cost": cost_json(stage_cost(city, st) if i >= city.stages else st.cost),
                    "text": _stage_text(st.effects),
                    "built": i < city.stages,
                }
                for i, st in enumerate(stages_of(city))
            ],
        },
        "structures": structures,
        "coins": city.coins,
        "debt": city.debt,
        "diplomacy": city.diplomacy,
        "military": {"shields": strength(state, idx), "tokens": list(city.tokens), "points": sum(city.tokens)},
        "science": {
            SYMBOLS[0]: sym[0],
            SYMBOLS[1]: sym[1],
            SYMBOLS[2]: sym[2],
            "wildcards": wildcards(state, idx),
            "masks": masks(state, idx),
        },
        "hand_count": hand_count,
        "has_chosen": idx in state.pending,
        "owes": state.owed.get(idx, 0),
        "vp_now": score_city(state, idx)["total"],
    }


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: spectator); see the module docstring for the schema."""
    n = state.n
    chosen = [s for s in range(state.players) if _chosen(state, s)]
    to_move = [s for s in range(state.players) if open_cities(state, s)]
    view: dict[str, Any] = {
        "game": "seven-wonders",
        "viewer": seat,
        "players": state.players,
        "options": {"cities": state.cities_opt, "side": state.side_opt, "teams": state.teams},
        "age": state.age,
        "turn": state.turn,
        "turns_in_age": state.turns_per_age,
        "hand_size": state.hand_size,
        "direction": direction(state.age),
        "step": state.step,
        "awaiting": awaiting(state),
        "to_move": to_move,
        "chosen": chosen,
        "free_city": state.free_city if state.players == 2 else None,
        "free_city_holder": state.fc_ctrl if state.players == 2 else None,
        "cities": [city_json(state, c) for c in range(n)],
        "decks": {f"age_{i + 1}": len(d) for i, d in enumerate(state.decks)},
        "discard_size": len(state.discard),
        "free_city_pile": len(state.fc_pile),
        "hand": None,
        "free_city_hand": None,
        "teammate_hand": None,
        "tucked": None,
        "my_picks": [],
        "prompt": None,
        "last_turn": [dict(r) for r in state.recent],
        "scores": [score_city(state, c) for c in range(n)] if state.step == "over" else None,
        # Victory points each city would score if the game ended now: everything scored is
        # on the table (structures, wonder, tokens, coins), so the running count is public.
        "public_vp": [int(score_city(state, c)["total"]) for c in range(n)],
    }
    seen: set[str] = set()
    for c in range(n):
        seen.update(state.cities[c].built)
    if seat is not None and 0 <= seat < state.players:
        own_cards = list(state.hands[seat])
        view["hand"] = _hand_view(state, seat, own_cards) if state.step != "over" else []
        seen.update(own_cards)
        if state.players == 2 and state.fc_ctrl == seat and state.step != "over":
            fc = state.free_city
            fc_cards = list(state.hand_of(fc))
            view["free_city_hand"] = _hand_view(state, fc, fc_cards)
            seen.update(fc_cards)
        if state.teams:
            # Decision (B13.3): teammates may show each other their hands at will, so the
            # view simply shows the teammate's hand (their pending pick stays hidden).
            mate = seat + 1 if seat % 2 == 0 else seat - 1
            view["teammate_hand"] = sorted(state.hands[mate])
            seen.update(state.hands[mate])
        # Decision: a player sees the cards under their own wonder; the Free City's tucked
        # cards stay hidden from both players (each chose only some of them).
        view["tucked"] = list(state.cities[seat].tucked)
        seen.update(state.cities[seat].tucked)
        view["my_picks"] = [
            {"city": c, "move": notation_text(state.pending[c], seat)}
            for c in controlled(state, seat)
            if c in state.pending
        ]
        for c in controlled(state, seat):
            if c in state.pending:
                seen.add(state.pending[c].card)
        opened = open_cities(state, seat)
        if opened:
            if state.step in ("pick", "babylon"):
                view["prompt"] = {"kind": state.step, "cities": opened}
            elif state.step == "hali":
                choices = halikarnassos_choices(state, opened[0])
                view["prompt"] = {"kind": "hali", "city": opened[0], "choices": choices}
                seen.update(choices)
            elif state.step == "debt":
                c = opened[0]
                view["prompt"] = {"kind": "debt", "city": c, "owed": state.owed[c], "coins": state.cities[c].coins}
    for r in state.recent:
        card = r.get("card")
        if isinstance(card, str):
            seen.add(card)
    view["cards"] = {cid: card_json(cid) for cid in sorted(seen)}
    return view
