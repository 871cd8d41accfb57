"""The invariants of spec §17.3, checked after every step of the random playouts.

Written with whole-list operations so that checking every step stays cheap next to the engine.
"""

from __future__ import annotations

from engine.duellum.data import CARDS, RULES
from engine.duellum.state import PHASE_OVER, SPECIAL_BOX, SPECIAL_NONE, State

DECK = sorted(cid for cid, c in CARDS.items() for _ in range(c.copies))


class Invariants:
    """Callable checker; remembers personalities to assert they are never lost."""

    def __init__(self) -> None:
        self.held: list[list[int]] | None = None
        self.turn = 0

    def __call__(self, s: State) -> None:
        m = s.map
        n = m.size
        sea = [r for r in range(n) if not m.accepts[0][r]]
        land = [r for r in range(n) if not m.accepts[1][r]]
        for seat, p in enumerate(s.players):
            for t in (0, 1):
                units = s.units[seat][t]
                assert sum(units) + p.box[t] + p.supply[t] == RULES.units_per_player[t], f"unit count {seat}/{t}"
                assert min(units) >= 0 and p.box[t] >= 0 and p.supply[t] >= 0
            assert not any(s.units[seat][0][r] for r in sea), "legion in a SEA region"
            assert not any(s.units[seat][1][r] for r in land), "galley in a LAND region"
            assert min(p.res) >= 0, f"negative stock {p.res}"
            assert p.walls >= 0 and p.owed >= 0
            if s.config.special_units:
                assert p.special == SPECIAL_BOX or 0 <= p.special < n
                if p.special >= 0:
                    assert m.accepts[0 if seat == 0 else 1][p.special], "special unit on a wrong region kind"
            else:
                assert p.special == SPECIAL_NONE
        for t in (0, 1):
            assert not any(a and b for a, b in zip(s.units[0][t], s.units[1][t], strict=True)), "enemy units share"
        placed = [0, 0, 0]
        for r, (o, res, tem, wal) in enumerate(zip(s.owner, s.cres, s.temple, s.wall, strict=True)):
            if o < 0:
                assert not tem and not wal and res == -1
            else:
                assert m.site[r] and 0 <= res < 3, "city without a city site"
                placed[res] += 1
        assert [placed[k] + s.bank_tokens[k] for k in range(3)] == list(RULES.city_tokens)
        assert sum(s.temple) + s.bank_temples == RULES.temples
        assert sum(s.wall) + s.players[0].walls + s.players[1].walls + s.bank_walls == RULES.walls
        for kind in range(5):
            held = s.players[0].pers[kind] + s.players[1].pers[kind]
            assert held + s.bank_pers[kind] == RULES.personalities[kind] and s.bank_pers[kind] >= 0
        assert s.bank_coins >= 0 and s.bank_coins + s.players[0].res[3] + s.players[1].res[3] == RULES.coin_supply
        cards = s.draw + s.row + s.discard + s.players[0].hand + s.players[1].hand
        assert sorted(cards) == DECK, "event cards lost or duplicated"
        assert len(s.row) <= 3
        held_now = [s.players[0].pers[:], s.players[1].pers[:]]
        if self.held is not None:
            for seat in (0, 1):
                assert all(a >= b for a, b in zip(held_now[seat], self.held[seat], strict=True)), "personality lost"
        self.held = held_now
        assert s.turn >= self.turn
        self.turn = s.turn
        if s.phase == PHASE_OVER:
            assert s.winner in (0, 1) and s.players[s.winner].vp >= RULES.win
            assert s.players[1 - s.winner].vp < RULES.win
        else:
            assert s.players[0].vp < RULES.win and s.players[1].vp < RULES.win
