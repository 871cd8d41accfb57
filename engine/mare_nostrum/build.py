"""The build phase (9): the PL's order, purchases paid with one set each, influence and
annexation, Hammurabi and Cleopatra, victory after each hero or wonder, the end-of-build
discard with the Hanging Gardens; and the advanced setup's 36-point purchases (5.3, AD-29).

Why payment is a follow-up step: a purchase of cost C is paid with exactly C tax cards or C
different goods (D5, AD-02). Listing every possible set would be hundreds of moves, so a
purchase is chosen first and then paid with ``pay taxes``, ``pay goods`` (one of each type
held, when that is exactly C) or one goods type at a time; ``cancel`` withdraws it.
"""

from __future__ import annotations

from engine.core.events import Event, private, public
from engine.core.text import count, join_words
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.board import blocked, has, in_supply, neighbours, units_at, war_torn
from engine.mare_nostrum.commerce import card_words, name, one_card
from engine.mare_nostrum.data import ADVANCED_POINTS, BASE_COST, CARDS, CIV_DATA, GOODS, PROVINCES, TAX, province_name
from engine.mare_nostrum.setup import zone
from engine.mare_nostrum.state import State, Unit, add, total

BUILDINGS = ("city", "caravan", "market", "temple")
UNITS = ("legion", "fortress", "trireme")


def cost(s: State, civ: str, item: str) -> int:
    """9.3 with the modifiers: Mausoleum, Julius Caesar, Pericles (heroes/wonders: their card cost)."""
    if item in CARDS:
        return CARDS[item].cost
    base = BASE_COST[item]
    if item in ("city", "caravan", "market", "temple") and has(s, civ, "mausoleum"):
        return base - 1
    if item in ("legion", "fortress") and has(s, civ, "caesar"):
        return 2
    if item == "trireme" and has(s, civ, "pericles"):
        return 2
    return base


def setup_cost(item: str) -> int:
    """AD-29: setup points at the normal card cost, no modifiers."""
    return CARDS[item].cost if item in CARDS else BASE_COST[item]


def can_pay(s: State, civ: str, c: int) -> bool:
    """Some set of exactly ``c`` cards exists in the hand: ``c`` taxes or ``c`` different goods."""
    hand = s.hands[civ]
    return c == 0 or hand.get(TAX, 0) >= c or sum(1 for g in GOODS if hand.get(g, 0)) >= c


def fortress_cap(s: State, civ: str) -> int:
    return 2 if has(s, civ, "zeus") else 1


def influence_targets(s: State, civ: str, *, setup: bool = False) -> list[str]:
    """R-B2: unowned, not blocked (D9), adjacent to a province owned at the start of the round
    (the Lighthouse waives adjacency); in setup, any province of the setup zone (AD-29)."""
    if in_supply(s, civ, "influence") < 1:
        return []
    if setup:
        pool = zone(civ)
    elif has(s, civ, "lighthouse"):
        pool = list(PROVINCES)
    else:
        near: set[str] = set()
        for base in s.start_owned.get(civ, []):
            near |= neighbours(s, civ, base)
        pool = sorted(near)
    return [p for p in pool if s.provs[p].owner is None and not blocked(s, p, civ)]


def _can_build_in(s: State, civ: str, pid: str, setup: bool) -> bool:
    """R-B1, R-B3, R-B6: own influence, not fresh (except in setup), not blocked (own capital excepted)."""
    pr = s.provs[pid]
    return pr.owner == civ and (setup or not pr.fresh) and not blocked(s, pid, civ)


def purchases(s: State, civ: str, *, setup: bool = False) -> list[tuple[str, str, str]]:
    """Every ``(item, province, detail)`` the rules allow now, before asking about payment."""
    out: list[tuple[str, str, str]] = [("influence", p, "") for p in influence_targets(s, civ, setup=setup)]
    provs = zone(civ) if setup else list(PROVINCES)
    cap = CIV_DATA[civ].capital
    for pid in provs:
        if not _can_build_in(s, civ, pid, setup):
            continue
        pr, data = s.provs[pid], PROVINCES[pid]
        if s.supply["city"] > 0:
            out += [("city", pid, site) for site in data.sites if site not in pr.cities]
        if s.supply["caravan"] > 0:
            out += [("caravan", pid, g) for g in data.goods if g not in pr.caravans]
        if s.supply["market"] > 0 and not pr.market:
            out.append(("market", pid, ""))
        if s.supply["temple"] > 0 and not pr.temple:
            out.append(("temple", pid, ""))
        if in_supply(s, civ, "fortress") > 0 and len(units_at(s, pid, civ, ("fortress",))) < fortress_cap(s, civ):
            out.append(("fortress", pid, ""))
        if setup and pid != cap:
            continue
        if in_supply(s, civ, "legion") > 0:
            out.append(("legion", pid, ""))
        if in_supply(s, civ, "trireme") > 0 and data.coastal:
            out.append(("trireme", pid, ""))
    hero = CIV_DATA[civ].hero
    for card in s.market:
        if setup and card != hero:
            continue
        if CARDS[card].civ in (None, civ):
            out.append((card, "", ""))
    return out


def annex_targets(s: State, civ: str) -> list[str]:
    """9.6: own legion on another side's marker, not war-torn, not a player's capital, a marker in supply."""
    if in_supply(s, civ, "influence") < 1:
        return []
    out = []
    near: set[str] | None = None
    if s.options.get("annex_requires_adjacency"):
        near = set()
        for base in s.start_owned.get(civ, []):
            near |= neighbours(s, civ, base)
    for pid in sorted({u.loc for u in s.units if u.civ == civ and u.place == "influence"}):
        if near is not None and pid not in near:
            continue
        owner = s.provs[pid].owner
        if owner in (None, civ) or (s.is_player(owner) and CIV_DATA[str(owner)].capital == pid):
            continue
        if not war_torn(s, pid):
            out.append(pid)
    return out


def build_actions(s: State, civ: str) -> list[Action]:
    """The active player's build-turn moves (or the payment of a chosen purchase)."""
    buy = s.pending.get("buy")
    if buy:
        return pay_actions(s, civ)
    acts: list[Action] = []
    free = has(s, civ, "hammurabi") and "hammurabi" not in s.used[civ]
    hand = s.hands[civ]
    best_set = max(hand.get(TAX, 0), sum(1 for g in GOODS if hand.get(g, 0)))
    prices: dict[str, int] = {}
    for item, where, detail in purchases(s, civ):
        if item not in prices:
            prices[item] = cost(s, civ, item)
        if prices[item] <= best_set:
            acts.append(Action("buy", (item, where, detail) if detail else (item, where) if where else (item,)))
        if free and item == "influence":
            acts.append(Action("buy", ("influence", where, "free")))
    for pid in annex_targets(s, civ):
        if can_pay(s, civ, BASE_COST["influence"]):
            acts.append(Action("annex", (pid,)))
        if free:
            acts.append(Action("annex", (pid, "free")))
    if has(s, civ, "cleopatra") and "cleopatra" not in s.used[civ]:
        hand = s.hands[civ]
        if s.bank.get(TAX, 0):
            acts += [Action("swap", (g, TAX)) for g in GOODS if hand.get(g, 0)]
        if hand.get(TAX, 0):
            acts += [Action("swap", (TAX, g)) for g in GOODS if s.bank.get(g, 0)]
    acts.append(Action("done"))
    return acts


def pay_actions(s: State, civ: str) -> list[Action]:
    """Ways to go on paying the chosen purchase (see the module docstring)."""
    buy = s.pending["buy"]
    hand, paid = s.hands[civ], buy["paid"]
    need = buy["cost"] - total(paid)
    acts = []
    if not paid and hand.get(TAX, 0) >= need:
        acts.append(Action("pay", ("taxes",)))
    left = [g for g in GOODS if hand.get(g, 0) and g not in paid]
    if len(left) >= need:
        if len(left) == need:
            acts.append(Action("pay", ("goods",)))
        acts += [Action("pay", (g,)) for g in left]
    acts.append(Action("cancel"))
    return acts


def apply_build(s: State, civ: str, a: Action) -> list[Event]:
    """Carry out a validated build-phase move."""
    if a.kind == "buy":
        item = a.args[0]
        where = a.args[1] if len(a.args) > 1 else ""
        detail = a.args[2] if len(a.args) > 2 else ""
        if detail == "free":
            s.used[civ].append("hammurabi")
            return complete(s, civ, item, where, "")
        c = cost(s, civ, item)
        # Decision: a purchase is chosen first and then paid (taxes, goods, or one type at a
        # time); it takes effect when the set is complete and may be cancelled before that.
        s.pending["buy"] = {"item": item, "where": where, "detail": detail, "cost": c, "paid": {}}
        return []
    if a.kind == "annex":
        if len(a.args) > 1:
            s.used[civ].append("hammurabi")
            return complete(s, civ, "annex", a.args[0], "")
        s.pending["buy"] = {"item": "annex", "where": a.args[0], "detail": "", "cost": BASE_COST["influence"],
                            "paid": {}}
        return []
    if a.kind == "pay":
        return _pay(s, civ, a.args[0])
    if a.kind == "cancel":
        s.pending.pop("buy")
        return []
    if a.kind == "swap":
        give, get = a.args
        add(s.hands[civ], give, -1)
        add(s.bank, give)
        add(s.bank, get, -1)
        add(s.hands[civ], get)
        s.used[civ].append("cleopatra")
        return [public(f"{name(civ)} uses Cleopatra to swap one card with the bank.", "build"),
                private(s.seat_of(civ), f"You swap {one_card(give)} for {one_card(get)}.", "build")]
    # done
    s.done.append(civ)
    s.active = ""
    return [public(f"{name(civ)} ends the build turn.", "build")]


def _pay(s: State, civ: str, what: str) -> list[Event]:
    buy = s.pending["buy"]
    hand = s.hands[civ]
    if what == "taxes":
        buy["paid"] = {TAX: buy["cost"]}
    elif what == "goods":
        for g in GOODS:
            if hand.get(g, 0) and g not in buy["paid"]:
                buy["paid"][g] = 1
    else:
        buy["paid"][what] = 1
    if total(buy["paid"]) < buy["cost"]:
        return []
    s.pending.pop("buy")
    for card, n in buy["paid"].items():
        add(hand, card, -n)
        add(s.bank, card, n)
    paid = buy["paid"]
    events = [private(s.seat_of(civ), f"You pay {card_words(paid)}.", "build")]
    return events + complete(s, civ, buy["item"], buy["where"], buy["detail"])


def place_item(s: State, civ: str, item: str, where: str, detail: str, *, setup: bool = False) -> None:
    """Put a bought piece on the board (or the card in front of the buyer)."""
    pr = s.provs.get(where)
    if item == "influence":
        assert pr is not None
        pr.owner = civ
        pr.fresh = not setup
    elif item in BUILDINGS:
        assert pr is not None
        s.supply[item] -= 1
        if item == "city":
            pr.cities.append(detail)
        elif item == "caravan":
            pr.caravans.append(detail)
        elif item == "market":
            pr.market = True
        else:
            pr.temple = True
    elif item in UNITS:
        s.units.append(Unit(civ, item, where, docked=item == "trireme"))
    else:
        s.cards[civ].append(item)
        s.market.remove(item)


def describe(item: str, where: str, detail: str) -> str:
    """``"the city of Sparta in Peloponnesus"``, ``"a wine caravan in Roma"`` for events."""
    if item in CARDS:
        return CARDS[item].name
    place = province_name(where)
    if item == "city":
        return f"the city of {detail} in {place}"
    if item == "caravan":
        kind = {"slaves": "slave", "gems": "gem"}.get(detail, detail)  # "a slave caravan"
        return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} caravan in {place}"
    if item == "influence":
        return f"influence in {place}"
    if item == "annex":
        return f"the annexation of {place}"
    return f"{'an' if item[0] in 'aeiou' else 'a'} {item} in {place}"


def complete(s: State, civ: str, item: str, where: str, detail: str) -> list[Event]:
    """The paid purchase takes effect (R-B7: at once); victory is checked after heroes and wonders."""
    s.last = [where] if where else []
    if item == "annex":
        pr = s.provs[where]
        old = pr.owner
        pr.owner = civ
        pr.fresh = True
        for u in s.units:
            if u.loc == where and u.civ == civ:
                u.place = ""
        return [public(f"{name(civ)} completes the annexation of {province_name(where)}"
                       f" ({name(str(old))}'s marker is removed).", "build")]
    place_item(s, civ, item, where, detail)
    events = [public(f"{name(civ)} builds {describe(item, where, detail)}.", "build")]
    if item in CARDS:
        mine = s.cards[civ]
        if item == "pyramids" or len(mine) >= 4:
            s.winner = civ
            s.phase = "over"
            why = ("builds the Pyramids" if item == "pyramids"
                   else f"owns 4 heroes and wonders ({join_words(CARDS[c].name for c in mine)})")
            events.append(public(f"{name(civ)} {why} and wins the game!", "victory"))
    return events


# ---------------------------------------------------------------- discard
def discard(s: State) -> list[Event]:
    """9.7: keep up to 2 tax cards; the Hanging Gardens owner also keeps 1 goods card
    (asked every time, see below)."""
    events = []
    for civ in s.seats:
        if has(s, civ, "gardens"):
            # Decision: asked every time, whatever the hand holds: asking only when there is a choice
            # would tell the table something about a hidden hand.
            s.pending["gardens"] = civ
            continue
        events += _discard_one(s, civ, "")
    s.phase = "gardens" if "gardens" in s.pending else "military_start"
    return events


def _discard_one(s: State, civ: str, keep: str) -> list[Event]:
    hand = s.hands[civ]
    back = dict(hand)
    kept = {TAX: min(2, hand.get(TAX, 0))} if hand.get(TAX, 0) else {}
    if keep:
        kept[keep] = 1
    for card, n in kept.items():
        add(back, card, -n)
    for card, n in back.items():
        add(s.bank, card, n)
    s.hands[civ] = kept
    if not total(back):
        return []
    return [public(f"{name(civ)} discards {count(total(back), 'card')} and keeps {count(total(kept), 'card')}.",
                   "discard")]


def gardens_actions(s: State) -> list[Action]:
    civ = s.pending["gardens"]
    return [Action("keep", (g,)) for g in GOODS if s.hands[civ].get(g, 0)] + [Action("keep", ("nothing",))]


def apply_gardens(s: State, a: Action) -> list[Event]:
    civ = s.pending.pop("gardens")
    events = _discard_one(s, civ, "" if a.args[0] == "nothing" else a.args[0])
    s.phase = "military_start"
    return events


# ----------------------------------------------------------- advanced setup
def setup_actions(s: State, civ: str) -> list[Action]:
    """AD-29: purchases with the remaining points in the setup zone; ``done`` loses the rest."""
    points = s.pending["setup"]["points"]
    acts = []
    for item, where, detail in purchases(s, civ, setup=True):
        if setup_cost(item) <= points:
            acts.append(Action("buy", (item, where, detail) if detail else (item, where) if where else (item,)))
    acts.append(Action("done"))
    return acts


def apply_setup_buy(s: State, civ: str, a: Action) -> list[Event]:
    info = s.pending["setup"]
    if a.kind == "done":
        info["queue"].pop(0)
        left = info["points"]
        info["points"] = ADVANCED_POINTS - BASE_COST["influence"]
        return [public(f"{name(civ)} finishes the setup" + (f" ({count(left, 'point')} unused)." if left else "."),
                       "setup")]
    item = a.args[0]
    where = a.args[1] if len(a.args) > 1 else ""
    detail = a.args[2] if len(a.args) > 2 else ""
    info["points"] -= setup_cost(item)
    place_item(s, civ, item, where, detail, setup=True)
    return [public(f"{name(civ)} sets up {describe(item, where, detail)}.", "setup")]
