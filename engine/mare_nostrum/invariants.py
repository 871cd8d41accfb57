"""Invariants derived from the spec, checked after every step of the random playouts.

Why in the engine package: the playout tests and the benchmarks share them, and they document
what the engine promises: cards conserved, supplies by player count, piece limits, board
capacities, one copy of each hero and wonder, no negative stocks.
"""

from __future__ import annotations

from engine.mare_nostrum.board import fortress_cap_for, on_board
from engine.mare_nostrum.data import BUILDING_SUPPLY, CARDS, CIVS, DECK, PLAYER_PIECES, PROVINCES
from engine.mare_nostrum.state import State, total


def check(s: State) -> None:
    """Raise ``AssertionError`` naming the first broken invariant."""
    # cards: bank + hands + cards acquired in an open trade = the whole deck
    held = dict(s.bank)
    for h in s.hands.values():
        for c, n in h.items():
            assert n > 0, "empty or negative hand entry"
            held[c] = held.get(c, 0) + n
    if s.trade is not None:
        for acq in s.trade.acquired.values():
            for c, n in acq.items():
                assert n >= 0, "negative acquired count"
                held[c] = held.get(c, 0) + n
        if s.trade.revealed:
            for civ, off in s.trade.offers.items():
                for c, n in off.items():
                    assert 0 < n <= s.hands[civ].get(c, 0), "offered card not in hand"
    assert all(v >= 0 for v in s.bank.values()), "negative bank"
    assert {k: v for k, v in held.items() if v} == DECK, f"cards not conserved: {held}"
    # buildings: supply + board = the supply for the player count
    board = {"city": 0, "caravan": 0, "market": 0, "temple": 0}
    for pid, pr in s.provs.items():
        data = PROVINCES[pid]
        assert len(set(pr.cities)) == len(pr.cities) and set(pr.cities) <= set(data.sites), pid
        assert len(set(pr.caravans)) == len(pr.caravans) and set(pr.caravans) <= set(data.goods), pid
        board["city"] += len(pr.cities)
        board["caravan"] += len(pr.caravans)
        board["market"] += pr.market
        board["temple"] += pr.temple
        if pr.buildings():
            assert pr.owner is not None, f"buildings in unowned {pid}"
    for k, v in board.items():
        assert s.supply[k] >= 0 and s.supply[k] + v == BUILDING_SUPPLY[s.players][k], f"{k} supply"
    # pieces
    for civ in CIVS:
        for kind, limit in PLAYER_PIECES.items():
            assert on_board(s, civ, kind) <= limit, f"{civ} has too many {kind}"
    for u in s.units:
        if u.kind == "trireme":
            assert (u.loc in PROVINCES) == u.docked, "trireme location"
        else:
            assert u.loc in PROVINCES, "land unit at sea"
        if u.place:
            assert u.kind == "legion" and u.civ in s.seats, "placement"
    forts: dict[tuple[str, str], int] = {}
    places: set[tuple[str, str]] = set()
    for u in s.units:
        if u.kind == "fortress":
            forts[(u.loc, u.civ)] = forts.get((u.loc, u.civ), 0) + 1
        if u.place:
            assert (u.loc, u.place) not in places, f"two legions on one thing in {u.loc}"
            places.add((u.loc, u.place))
    for (pid, civ), n in forts.items():
        assert n <= fortress_cap_for(s, civ), f"fortresses in {pid}"
    # heroes and wonders: one copy each
    owned = [c for v in s.cards.values() for c in v]
    assert len(owned) == len(set(owned)) and not set(owned) & set(s.market), "card copies"
    assert set(owned) | set(s.market) <= set(CARDS)
    # roles: three holders; at the start of the game, one role per player
    assert set(s.roles) == {"commerce", "political", "military"} or s.phase == "setup"
    if s.round == 1 and s.roles:
        assert len(set(s.roles.values())) == 3, "two starting roles"
    if s.trade is None and s.phase not in ("give",):
        assert all(total(h) >= 0 for h in s.hands.values())
