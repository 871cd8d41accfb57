"""What a seat (or a spectator) may see, as JSON-able data for chat text and the renderer.

Why built from public facts only (AD-30): hands, offers before the reveal and the Hanging
Gardens card are private. Everyone sees hand sizes, revealed offers, acquired cards, the bank
(AD-41) and the whole board. A seat additionally sees its own hand, its own pending offer and
the payment it is making.
"""

from __future__ import annotations

from typing import Any

from engine.mare_nostrum.board import in_supply, scores, war_torn
from engine.mare_nostrum.data import CARDS, CIV_DATA, MAP_PROVENANCE, ROLE_NAMES, province_name
from engine.mare_nostrum.rounds import chooser
from engine.mare_nostrum.state import State, total

PHASE_TEXT = {
    "setup": "setup", "roles": "role reassignment", "artemis": "income", "commerce_n": "commerce",
    "offer": "trading, secret offers", "take": "trading, taking cards in turn", "ulysses": "trading", "give": "trading",
    "build": "build", "gardens": "end of build", "military": "military", "over": "game over",
}


def build_view(s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator)."""
    me = s.seats[seat] if seat is not None and 0 <= seat < s.players else None
    provinces = {}
    for pid, pr in s.provs.items():
        units = [{"civ": u.civ, "kind": u.kind, "docked": u.docked, "place": u.place}
                 for u in s.units if u.loc == pid]
        provinces[pid] = {"name": province_name(pid), "owner": pr.owner, "cities": list(pr.cities),
                          "caravans": list(pr.caravans), "temple": pr.temple, "market": pr.market,
                          "fresh": pr.fresh, "war_torn": war_torn(s, pid), "units": units}
    seas: dict[str, dict[str, int]] = {}
    for u in s.units:
        if u.kind == "trireme" and not u.docked:
            seas.setdefault(u.loc, {}).setdefault(u.civ, 0)
            seas[u.loc][u.civ] += 1
    players = []
    for c in s.seats:
        players.append({
            "civ": c, "name": CIV_DATA[c].name, "seat": s.seat_of(c), "hand_size": total(s.hands[c]),
            "cards": [{"id": k, "name": CARDS[k].name, "text": CARDS[k].text} for k in s.cards[c]],
            "roles": [ROLE_NAMES[r] for r, h in s.roles.items() if h == c],
            "scores": scores(s, c),
            "supply": {k: in_supply(s, c, k) for k in ("influence", "legion", "fortress", "trireme")},
        })
    view: dict[str, Any] = {
        "game": "mare-nostrum", "round": s.round, "phase": s.phase, "phase_text": PHASE_TEXT.get(s.phase, s.phase),
        "map": MAP_PROVENANCE, "roles": {ROLE_NAMES[r]: c for r, c in s.roles.items()},
        "to_move": chooser(s), "active": s.active, "done": list(s.done), "players": players,
        "neutrals": list(s.neutrals), "provinces": provinces, "seas": seas, "bank": dict(sorted(s.bank.items())),
        "supply": dict(s.supply), "market": [{"id": k, "name": CARDS[k].name, "cost": CARDS[k].cost}
                                             for k in s.market],
        "winner": s.winner, "last": list(s.last),
    }
    if "draw" in s.pending:
        view["draw_vote"] = {"by": s.pending["draw"]["by"], "accepted": sorted(s.pending["draw"]["votes"])}
    if s.pending.get("drawn"):
        view["drawn"] = True
    t = s.trade
    if t is not None:
        trade: dict[str, Any] = {"n": t.n, "participants": list(t.participants), "revealed": t.revealed,
                                 "taker": t.taker, "history": [list(h) for h in t.history],
                                 "acquired": {c: dict(v) for c, v in t.acquired.items()}}
        if t.revealed:
            trade["offers"] = {c: dict(v) for c, v in t.offers.items()}
        else:
            trade["chosen"] = [c for c in t.participants if total(t.offers[c]) == t.n]
        view["trade"] = trade
    if s.phase == "military" and "losses" in s.pending:
        view["losses"] = [dict(e) for e in s.pending["losses"]]
    if me is not None:
        view["me"] = me
        view["hand"] = dict(sorted(s.hands[me].items()))
        if t is not None and not t.revealed and me in t.offers:
            view["my_offer"] = dict(t.offers[me])
        if "buy" in s.pending and s.active == me:
            view["buying"] = {k: v for k, v in s.pending["buy"].items()}
    return view
