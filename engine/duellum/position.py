"""Set up an Antike Duellum position by naming it: who owns which city, where units stand,
what each nation holds, whose turn it is and in which step.

Why public: the rulebook's examples start from mid-game positions, and so do rule tests,
tutorials and bug reports. Editing a :class:`State` by hand breaks the component totals and
leaves stale cached moves behind; every method here keeps the totals of §17.3 (units come from
the personal supply, tokens, temples, walls and coins from the bank) and drops the cached legal
moves, so a test reads like the example it checks::

    s = (Position(active="Romans")
         .city("Tarraco", "Carthaginians", "gold", temple=True)
         .units("Romans", "Tarraco", legions=3)
         .resources("Romans", marble=2, coins=5)
         .conquest_step()
         .build())

Regions, nations, resources and rondel spaces are named as printed (``Carthago Nova``) or by id
(``carthago_nova``); seats may also be given as 0 (brown) and 1 (beige).
"""

from __future__ import annotations

from typing import Any

from engine.core.notation import normalize
from engine.duellum.data import RES_WORDS, RULES
from engine.duellum.setup import new_state
from engine.duellum.state import (
    PHASE_ACTION,
    PHASE_CONQUER,
    PHASE_FOUNDING,
    PHASE_MOVE,
    PHASE_RONDEL,
    SPECIAL_BOX,
    State,
)
from engine.duellum.turn import start_turn

RES_INDEX = {"marble": 0, "iron": 1, "gold": 2, "coins": 3, "coin": 3}
PERSONALITY_NAMES = ("king", "scholar", "general", "navigator", "citizen")


class PositionError(ValueError):
    """The position asked for is impossible (more units than a nation owns, an unknown name)."""


def space_index(name: str, nth: int = 0) -> int:
    """Rondel index of a space name; ``nth`` (or a ``-a``/``-b`` suffix) picks a DUELLUM space."""
    key = name.strip().upper()
    if key[-2:] in ("-A", "-B"):
        key, nth = key[:-2], "AB".index(key[-1])
    hits = [i for i, s in enumerate(RULES.rondel) if s == key]
    if len(hits) <= nth:
        raise PositionError(f"No rondel space {name!r}.")
    return hits[nth]


class Position:
    """A position under construction; every method changes it and returns it (chainable)."""

    def __init__(self, map_id: str = "rome-carthage", active: int | str = 0, seed: int = 0, **options: Any) -> None:
        self._state: State = new_state(seed, 2, {"map": map_id, **options})
        self._state.turn = 5
        for p in self._state.players:
            p.stone = 0
        self.start(active)

    # ------------------------------------------------------------- names
    @property
    def state(self) -> State:
        """The live state (cached moves dropped, since callers may change it in place)."""
        self._state.touch()
        return self._state

    def seat(self, who: int | str) -> int:
        """Seat of a nation name (``Romans``), a colour (``brown``) or a seat number."""
        if isinstance(who, int):
            if who not in (0, 1):
                raise PositionError(f"No seat {who}: seats are 0 and 1.")
            return who
        key = normalize(who)
        for s, nation in enumerate(self._state.map.nations):
            if normalize(nation) == key or key == ("brown", "beige")[s]:
                return s
        raise PositionError(f"No nation {who!r} on this map: {', '.join(self._state.map.nations)}.")

    def r(self, region: str) -> int:
        """Region index of a printed name or an id."""
        m = self._state.map
        key = normalize(region).replace(" ", "_")
        if key in m.index:
            return m.index[key]
        for i, name in enumerate(m.names):
            if normalize(name).replace(" ", "_") == key or normalize(name.split(" (")[0]).replace(" ", "_") == key:
                return i
        raise PositionError(f"No region {region!r} on this map.")

    # ------------------------------------------------------------ holdings
    def start(self, who: int | str) -> Position:
        """Begin ``who``'s turn now (snapshots its recruitment box; the rondel step)."""
        start_turn(self.state, self.seat(who))
        return self

    def resources(self, who: int | str, **amounts: int) -> Position:
        """Set marble/iron/gold/coins (coins come from / go back to the bank)."""
        s = self.state
        p = s.players[self.seat(who)]
        for k, v in amounts.items():
            i = RES_INDEX[k]
            if i == 3:
                if s.bank_coins + p.res[3] - v < 0:
                    raise PositionError(f"The bank has only {s.bank_coins + p.res[3]} coins.")
                s.bank_coins += p.res[3] - v
            p.res[i] = v
        return self

    def bank(self, coins: int, rest_to: int | str = 1) -> Position:
        """Leave the bank ``coins`` coins; the rest goes to (or comes from) ``rest_to``."""
        s = self.state
        s.players[self.seat(rest_to)].res[3] += s.bank_coins - coins
        s.bank_coins = coins
        return self

    def city(self, region: str, owner: int | str, res: str, temple: bool = False, wall: bool = False) -> Position:
        """Put a city (replacing any) with the bank's token, temple and wall."""
        s = self.state
        i = self.r(region)
        self.no_city(region)
        k = RES_WORDS.index(res.lower())
        s.owner[i], s.cres[i] = self.seat(owner), k
        s.bank_tokens[k] -= 1
        if temple:
            s.temple[i] = True
            s.bank_temples -= 1
        if wall:
            s.wall[i] = True
            s.bank_walls -= 1
        return self

    def no_city(self, region: str) -> Position:
        """Remove a city (its token, temple and wall go back to the bank)."""
        s = self.state
        i = self.r(region)
        if s.owner[i] >= 0:
            s.bank_tokens[s.cres[i]] += 1
            if s.temple[i]:
                s.bank_temples += 1
            if s.wall[i]:
                s.bank_walls += 1
        s.owner[i], s.cres[i], s.temple[i], s.wall[i] = -1, -1, False, False
        return self

    def units(self, who: int | str, region: str, legions: int = 0, galleys: int = 0) -> Position:
        """Set a nation's units in ``region`` (taken from / returned to its personal supply)."""
        s = self.state
        seat, i = self.seat(who), self.r(region)
        p = s.players[seat]
        for t, n in ((0, legions), (1, galleys)):
            if p.supply[t] + s.units[seat][t][i] - n < 0:
                raise PositionError(f"The {s.map.nations[seat]} have no more units of that kind in their supply.")
            p.supply[t] += s.units[seat][t][i] - n
            s.units[seat][t][i] = n
        return self

    def box(self, who: int | str, legions: int, galleys: int) -> Position:
        """Set a nation's recruitment box (from / to the personal supply)."""
        p = self.state.players[self.seat(who)]
        for t, n in ((0, legions), (1, galleys)):
            p.supply[t] += p.box[t] - n
            p.box[t] = n
        return self

    def techs(self, who: int | str, *techs: str, turn: int = 1) -> Position:
        """Give technologies (ids or printed names; acquired in an earlier turn by default)."""
        for t in techs:
            self.state.players[self.seat(who)].techs[normalize(t).replace(" ", "_").upper()] = turn
        return self

    def hand(self, who: int | str, *cards: str) -> Position:
        """Put event cards into a hand (taken out of the draw pile, row or discard pile)."""
        s = self.state
        for c in cards:
            cid = normalize(c).replace(" ", "_").upper()
            for pile in (s.draw, s.row, s.discard):
                if cid in pile:
                    pile.remove(cid)
                    break
            s.players[self.seat(who)].hand.append(cid)
        return self

    def row(self, *cards: str) -> Position:
        """Set the face-up row (cards moved between the row and the draw pile)."""
        s = self.state
        s.draw.extend(s.row)
        s.row = []
        for c in cards:
            cid = normalize(c).replace(" ", "_").upper()
            s.draw.remove(cid)
            s.row.append(cid)
        return self

    def owed(self, who: int | str, cards: int) -> Position:
        """A nation owes itself ``cards`` picks from the face-up row."""
        self.state.players[self.seat(who)].owed = cards
        return self

    def personalities(self, who: int | str, **held: int) -> Position:
        """Set held personalities (from / to the bank supply)."""
        p = self.state.players[self.seat(who)]
        for k, v in held.items():
            i = PERSONALITY_NAMES.index(k)
            self.state.bank_pers[i] += p.pers[i] - v
            p.pers[i] = v
        return self

    def walls_in_supply(self, who: int | str, n: int) -> Position:
        """Set walls in the personal supply (from / to the bank)."""
        p = self.state.players[self.seat(who)]
        self.state.bank_walls += p.walls - n
        p.walls = n
        return self

    def special(self, who: int | str, region: str | None) -> Position:
        """Place a special unit (variant) in a region, or in the box with ``None``."""
        self.state.players[self.seat(who)].special = SPECIAL_BOX if region is None else self.r(region)
        return self

    # ------------------------------------------------------------- the turn
    def stone(self, who: int | str, space: str, nth: int = 0) -> Position:
        """Put a nation's stone on a rondel space (``first``: not placed yet)."""
        self.state.players[self.seat(who)].stone = -1 if space == "first" else space_index(space, nth)
        return self

    def action(self, space: str, nth: int = 0) -> Position:
        """The active nation is in ``space``'s action (stone there, nothing done yet)."""
        s = self.state
        i = space_index(space, nth)
        s.players[s.active].stone = i
        s.action = i
        s.phase = PHASE_MOVE if RULES.rondel[i] == "DUELLUM" else PHASE_ACTION
        return self

    def rondel_step(self) -> Position:
        """The active nation is about to move its stone."""
        self.state.phase = PHASE_RONDEL
        return self

    def conquest_step(self) -> Position:
        """The active nation is in the conquest step of DUELLUM."""
        self.action("DUELLUM")
        self.state.phase = PHASE_CONQUER
        return self

    def founding_step(self) -> Position:
        """The active nation is in the founding step (after an action)."""
        self.action("MARMOR")
        self.state.phase = PHASE_FOUNDING
        return self

    def build(self) -> State:
        """The finished position: an independent state the engine may be given."""
        out = self.state.copy()
        out.touch()
        return out
