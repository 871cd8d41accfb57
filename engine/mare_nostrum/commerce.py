"""The commerce phase: income (8.1) and trading between players (8.2) with the pair rule,
compulsory offers, the chain of takes, the early end, the DoC's compensation and Ulysses.

Why offers are one card per action: a seat's secret offer is then N presses of one of at most
13 buttons, and every participant who still has to choose is in ``to_move`` at once; nothing
about an offer is shown until the last participant has chosen (``Trade.revealed``).
"""

from __future__ import annotations

from engine.core.events import Event, private, public
from engine.core.text import count, join_words, with_article
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.board import credited, has
from engine.mare_nostrum.data import CIV_DATA, GOODS, TAX
from engine.mare_nostrum.state import Counts, State, Trade, add, total


def name(civ: str) -> str:
    """Display name of a civilization."""
    return CIV_DATA[civ].name


_SINGULAR = {"slaves": "slave", "gems": "gem"}


def card_noun(card: str) -> str:
    """``"tax card"``, ``"grain card"``, ``"slave card"``: a card type as a countable noun."""
    return f"{_SINGULAR.get(card, card)} card"


def one_card(card: str) -> str:
    """``"a tax card"``, ``"an oil card"``."""
    return with_article(card_noun(card))


def card_words(counts: Counts) -> str:
    """``"2 tax cards and 1 grain card"`` for a multiset of cards."""
    parts = [count(counts[c], card_noun(c)) for c in sorted(counts, key=lambda k: (k != TAX, k))]
    return join_words(parts) or "nothing"


def payment_order(s: State) -> list[str]:
    """Seat order starting with the Director of Commerce (AD-24, AD-49)."""
    order = s.seat_order
    i = order.index(s.roles["commerce"])
    return order[i:] + order[:i]


def income_owed(s: State) -> dict[str, Counts]:
    """8.1: what each player is owed: credited cities (x2 with a credited temple), credited
    caravans (x2 with a credited market), the Colossus."""
    owed: dict[str, Counts] = {c: {} for c in s.seats}
    for pid, pr in s.provs.items():
        temple = credited(s, pid, "temple") if pr.temple else None
        market = credited(s, pid, "market") if pr.market else None
        for site in pr.cities:
            who = credited(s, pid, f"city:{site}")
            if who:
                add(owed[who], TAX, 2 if temple == who else 1)
        for g in pr.caravans:
            who = credited(s, pid, f"caravan:{g}")
            if who:
                add(owed[who], g, 2 if market == who else 1)
    for c in s.seats:
        if has(s, c, "colossus"):
            add(owed[c], TAX)
    return owed


def pay_out(s: State, owed: dict[str, Counts]) -> dict[str, Counts]:
    """Pay ``owed`` from the bank; a short type is paid one card per player per pass (AD-49)."""
    got: dict[str, Counts] = {c: {} for c in owed}
    order = payment_order(s)
    for card in sorted({k for o in owed.values() for k in o}):
        want = {c: owed[c].get(card, 0) for c in order}
        if sum(want.values()) <= s.bank.get(card, 0):
            for c, n in want.items():
                if n:
                    add(got[c], card, n)
            add(s.bank, card, -sum(want.values()))
            continue
        while s.bank.get(card, 0) > 0 and any(want.values()):
            for c in order:
                if want[c] and s.bank.get(card, 0) > 0:
                    want[c] -= 1
                    add(got[c], card)
                    add(s.bank, card, -1)
    for c, cards in got.items():
        for card, n in cards.items():
            add(s.hands[c], card, n)
    return got


def collect_income(s: State) -> list[Event]:
    """Income for every player at once; the Temple of Artemis choice follows as a prompt."""
    got = pay_out(s, income_owed(s))
    events = [public(f"{name(c)} collects {card_words(got[c])}.", "income") for c in s.seats if got[c]]
    owner = next((c for c in s.seats if has(s, c, "artemis")), "")
    if owner and any(s.bank.get(g, 0) for g in GOODS):
        s.pending["artemis"] = owner
        s.phase = "artemis"
    else:
        s.phase = "commerce_n"
    return events


def artemis_actions(s: State) -> list[Action]:
    return [Action("artemis", (g,)) for g in GOODS if s.bank.get(g, 0) > 0]


def apply_artemis(s: State, a: Action) -> list[Event]:
    civ = s.pending.pop("artemis")
    add(s.bank, a.args[0], -1)
    add(s.hands[civ], a.args[0])
    s.phase = "commerce_n"
    return [private(s.seat_of(civ), f"The Temple of Artemis gives you {one_card(a.args[0])}.", "income"),
            public(f"{name(civ)} takes 1 goods card from the Temple of Artemis.", "income")]


# ------------------------------------------------------------------ trading
def n_actions(s: State) -> list[Action]:
    """Step 1: N from 0 to the DoC's hand size."""
    return [Action("trade", (str(k),)) for k in range(total(s.hands[s.roles["commerce"]]) + 1)]


def start_trade(s: State, n: int) -> list[Event]:
    """Step 2: every player holding at least N cards must offer exactly N (QA-08)."""
    doc = s.roles["commerce"]
    if n == 0:
        s.trade = None
        s.phase = "build_start"
        return [public(f"{name(doc)} announces no trading this round.", "trade")]
    parts = [c for c in s.seats if total(s.hands[c]) >= n]
    s.trade = Trade(n=n, participants=parts, offers={c: {} for c in parts}, taker=doc,
                    start_sizes={c: total(s.hands[c]) for c in s.seats})
    out = [c for c in s.seats if c not in parts]
    text = f"{name(doc)} asks for {count(n, 'card')} from each trader."
    if out:
        text += f" {join_words(name(c) for c in out)} {'sits' if len(out) == 1 else 'sit'} out (too few cards)."
    s.phase = "offer"
    _auto_offers(s)
    return [public(text, "trade"), *_maybe_reveal(s)]


def _auto_offers(s: State) -> None:
    """A participant holding exactly N cards offers them all at once: there is nothing to
    choose, and hand sizes are public, so this shows nobody anything new. (A hand of a single
    card type is not filled in automatically: that would reveal its composition.)"""
    t = s.trade
    assert t is not None
    for c in t.participants:
        hand = s.hands[c]
        # Decision: only this case is automatic; every other offer is chosen card by card.
        if total(t.offers[c]) == 0 and total(hand) == t.n:
            t.offers[c] = dict(hand)


def offering(s: State) -> list[str]:
    """Participants still choosing their offer."""
    t = s.trade
    assert t is not None
    return [c for c in t.participants if total(t.offers[c]) < t.n]


def offer_actions(s: State, civ: str) -> list[Action]:
    t = s.trade
    if t is None or civ not in offering(s):
        return []
    hand, off = s.hands[civ], t.offers[civ]
    return [Action("offer", (c,)) for c in (TAX, *GOODS) if hand.get(c, 0) > off.get(c, 0)]


def apply_offer(s: State, civ: str, a: Action) -> list[Event]:
    t = s.trade
    assert t is not None
    add(t.offers[civ], a.args[0])
    events = [private(s.seat_of(civ), f"You offer {card_words(t.offers[civ])} so far"
                      f" ({total(t.offers[civ])} of {t.n}).", "trade")]
    if total(t.offers[civ]) == t.n:
        events.append(public(f"{name(civ)} has chosen an offer.", "trade"))
    return events + _maybe_reveal(s)


def _maybe_reveal(s: State) -> list[Event]:
    """Step 3: when the last participant has chosen, all offers are turned face up at once."""
    t = s.trade
    assert t is not None
    if offering(s):
        return []
    t.revealed = True
    shown = "; ".join(f"{name(c)}: {card_words(t.offers[c])}" for c in t.participants)
    s.phase = "take"
    return [public(f"The offers are revealed. {shown}.", "reveal"), *_check_end(s)]


def _pair_blocked(t: Trade, taker: str) -> str:
    """The pair rule: after (T, X) then (X, T), T may not take from X."""
    if len(t.history) >= 2:
        (a1, b1), (a2, b2) = t.history[-2], t.history[-1]
        if a1 == taker and b2 == taker and b1 == a2:
            return b1
    return ""


def targets(s: State) -> list[str]:
    """Legal targets of the current taker (8.2 step 4)."""
    t = s.trade
    assert t is not None
    if t.forced:
        return [t.forced] if total(t.offers[t.forced]) else []
    blocked = _pair_blocked(t, t.taker)
    return [c for c in t.participants if c not in (t.taker, blocked) and total(t.offers[c])]


def take_actions(s: State) -> list[Action]:
    t = s.trade
    assert t is not None
    return [Action("take", (card, v)) for v in targets(s) for card in (TAX, *GOODS) if t.offers[v].get(card, 0)]


def apply_take(s: State, a: Action) -> list[Event]:
    t = s.trade
    assert t is not None
    card, victim = a.args
    taker = t.taker
    # Ulysses may be offered only if taking from the owner was legal before this take (AD-06).
    owner = next((c for c in t.participants if has(s, c, "ulysses")), "")
    # Decision: the owner is asked after every eligible take; declining does not use Ulysses up.
    ulysses_ok = (bool(owner) and owner not in (taker, victim) and not t.forced
                  and "ulysses" not in s.used[owner] and total(t.offers[owner]) > 0
                  and owner != _pair_blocked(t, taker))
    add(t.offers[victim], card, -1)
    add(s.hands[victim], card, -1)
    t.acquired.setdefault(taker, {})
    add(t.acquired[taker], card)
    t.last_card = card
    t.forced = ""
    events = [public(f"{name(taker)} takes {one_card(card)} from {name(victim)}.", "trade")]
    if ulysses_ok:
        s.pending["ulysses"] = {"owner": owner, "taker": taker, "victim": victim, "card": card}
        s.phase = "ulysses"
        return events
    t.history.append([taker, victim])
    t.taker = victim
    return events + _check_end(s)


def apply_ulysses(s: State, a: Action) -> list[Event]:
    """AD-06: the card goes back to the victim's offer; the taker takes from the owner instead."""
    t = s.trade
    assert t is not None
    info = s.pending.pop("ulysses")
    owner, taker, victim, card = info["owner"], info["taker"], info["victim"], info["card"]
    s.phase = "take"
    if a.args[0] == "no":
        t.history.append([taker, victim])
        t.taker = victim
        return _check_end(s)
    s.used[owner].append("ulysses")
    add(t.acquired[taker], card, -1)
    add(s.hands[victim], card)
    add(t.offers[victim], card)
    t.forced = owner
    return [public(f"{name(owner)} plays Ulysses: {name(taker)} puts the card back and must take from "
                   f"{name(owner)} instead.", "trade")]


def _check_end(s: State) -> list[Event]:
    """Step 5: E1 (nothing face up) or E2 (the taker has no legal target)."""
    t = s.trade
    assert t is not None
    if any(total(o) for o in t.offers.values()) and targets(s):
        return []
    for c, acq in t.acquired.items():
        for card, n in acq.items():
            add(s.hands[c], card, n)
    s.pending["doc_acquired"] = dict(t.acquired.get(s.roles["commerce"], {}))
    t.acquired = {}
    t.offers = {c: {} for c in t.participants}
    events = [public("Trading ends; unused offered cards go back to their owners.", "trade")]
    doc = s.roles["commerce"]
    if t.history and t.taker != doc:
        s.phase = "give"
        events.append(public(f"{name(doc)} must give {name(t.taker)} one card.", "trade"))
        return events
    return events + finish_trade(s)


def give_actions(s: State) -> list[Action]:
    t = s.trade
    assert t is not None
    doc = s.roles["commerce"]
    hand = dict(s.hands[doc])
    if s.options.get("doc_compensation_excludes_acquired"):
        for card, n in s.pending.get("doc_acquired", {}).items():
            hand[card] = hand.get(card, 0) - n
        if not any(v > 0 for v in hand.values()):
            hand = dict(s.hands[doc])
    return [Action("give", (c,)) for c in (TAX, *GOODS) if hand.get(c, 0) > 0]


def apply_give(s: State, a: Action) -> list[Event]:
    t = s.trade
    assert t is not None
    doc, card = s.roles["commerce"], a.args[0]
    add(s.hands[doc], card, -1)
    add(s.hands[t.taker], card)
    events = [private([s.seat_of(doc), s.seat_of(t.taker)],
                      f"{name(doc)} gives {name(t.taker)} {one_card(card)}.", "trade"),
              public(f"{name(doc)} gives {name(t.taker)} one card.", "trade")]
    return events + finish_trade(s)


def finish_trade(s: State) -> list[Event]:
    """Settling up done: the invariant (every hand at its pre-trade size) and on to building."""
    t = s.trade
    assert t is not None
    for c, n in t.start_sizes.items():
        if total(s.hands[c]) != n:
            raise AssertionError(f"trade broke the hand size of {c}")
    s.trade = None
    s.pending.pop("doc_acquired", None)
    s.phase = "build_start"
    return []
