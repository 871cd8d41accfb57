"""Build Antike Duellum positions directly for rule tests.

Why a builder: the rulebook examples start from mid-game positions (cities with temples, units
in place, a stone on MILITIA); playing there move by move would hide what is tested. Every
helper keeps the component totals consistent (units come from the personal supply, tokens,
temples and walls from the bank), so the invariants of §17.3 still hold in tests.
"""

from __future__ import annotations

from typing import Any

from engine.core.api import Step
from engine.duellum import DuellumGame
from engine.duellum.actions import Action, id_notation
from engine.duellum.data import RES_WORDS, RULES
from engine.duellum.duellum import defence
from engine.duellum.state import PHASE_ACTION, PHASE_CONQUER, PHASE_FOUNDING, PHASE_MOVE, SPECIAL_BOX, State
from engine.duellum.turn import start_turn

GAME = DuellumGame()
RES = {"marble": 0, "iron": 1, "gold": 2, "coins": 3}


def space_index(name: str, nth: int = 0) -> int:
    """Rondel index of a space name (``nth`` picks DUELLUM a/b)."""
    return [i for i, s in enumerate(RULES.rondel) if s == name.upper()][nth]


class Board:
    """A mutable test position around a real :class:`State`."""

    def __init__(self, map_id: str = "rome-carthage", active: int = 0, seed: int = 0, **options: Any) -> None:
        self.game = GAME
        self._state: State = GAME.new_game(seed, 2, {"map": map_id, **options})
        self.state.turn = 5
        for p in self.state.players:
            p.stone = 0
        self.start(active)

    @property
    def state(self) -> State:
        """The current state; tests change it in place, so cached legal actions are dropped."""
        self._state.touch()
        return self._state

    @state.setter
    def state(self, value: State) -> None:
        self._state = value

    # ----------------------------------------------------------- helpers
    def r(self, region: str) -> int:
        """Region index of an id."""
        return self.state.map.index[region]

    def start(self, seat: int) -> Board:
        """Begin ``seat``'s turn now (snapshots its recruitment box)."""
        start_turn(self.state, seat)
        return self

    def resources(self, seat: int, **amounts: int) -> Board:
        """Set marble/iron/gold/coins of ``seat`` (coins come from / go to the bank)."""
        p = self.state.players[seat]
        for k, v in amounts.items():
            i = RES[k]
            if i == 3:
                self.state.bank_coins += p.res[3] - v
            p.res[i] = v
        return self

    def city(self, region: str, owner: int, res: str, temple: bool = False, wall: bool = False) -> Board:
        """Put a city (replacing any) with the bank's token, temple and wall."""
        s = self.state
        i = self.r(region)
        self.no_city(region)
        k = RES_WORDS.index(res)
        s.owner[i], s.cres[i] = owner, k
        s.bank_tokens[k] -= 1
        if temple:
            s.temple[i] = True
            s.bank_temples -= 1
        if wall:
            s.wall[i] = True
            s.bank_walls -= 1
        return self

    def no_city(self, region: str) -> Board:
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

    def units(self, seat: int, region: str, legions: int = 0, galleys: int = 0) -> Board:
        """Set ``seat``'s units in ``region`` (taken from / returned to the personal supply)."""
        s = self.state
        i = self.r(region)
        p = s.players[seat]
        for t, n in ((0, legions), (1, galleys)):
            p.supply[t] += s.units[seat][t][i] - n
            s.units[seat][t][i] = n
            assert p.supply[t] >= 0
        return self

    def box(self, seat: int, legions: int, galleys: int) -> Board:
        """Set ``seat``'s recruitment box (from / to the personal supply)."""
        p = self.state.players[seat]
        for t, n in ((0, legions), (1, galleys)):
            p.supply[t] += p.box[t] - n
            p.box[t] = n
        return self

    def techs(self, seat: int, *techs: str, turn: int = 1) -> Board:
        """Give technologies (acquired in an earlier turn by default)."""
        for t in techs:
            self.state.players[seat].techs[t] = turn
        return self

    def hand(self, seat: int, *cards: str) -> Board:
        """Put cards into a hand (taken out of the draw pile / row when there)."""
        s = self.state
        for c in cards:
            if c in s.draw:
                s.draw.remove(c)
            elif c in s.row:
                s.row.remove(c)
            elif c in s.discard:
                s.discard.remove(c)
            s.players[seat].hand.append(c)
        return self

    def row(self, *cards: str) -> Board:
        """Set the face-up row (cards moved between row and draw pile)."""
        s = self.state
        s.draw.extend(s.row)
        s.row = []
        for c in cards:
            s.draw.remove(c)
            s.row.append(c)
        return self

    def personalities(self, seat: int, **held: int) -> Board:
        """Set held personalities (from / to the bank supply)."""
        names = ("king", "scholar", "general", "navigator", "citizen")
        p = self.state.players[seat]
        for k, v in held.items():
            i = names.index(k)
            self.state.bank_pers[i] += p.pers[i] - v
            p.pers[i] = v
        return self

    def walls_in_supply(self, seat: int, n: int) -> Board:
        """Set walls in the personal supply (from / to the bank)."""
        p = self.state.players[seat]
        self.state.bank_walls += p.walls - n
        p.walls = n
        return self

    def special(self, seat: int, region: str | None) -> Board:
        """Place a special unit (variant) in a region, or in the box with ``None``."""
        self.state.players[seat].special = SPECIAL_BOX if region is None else self.r(region)
        return self

    # -------------------------------------------------------- positions
    def stone(self, seat: int, space: str, nth: int = 0) -> Board:
        """Put ``seat``'s stone on a rondel space."""
        self.state.players[seat].stone = space_index(space, nth)
        return self

    def action(self, space: str, nth: int = 0) -> Board:
        """The active player is in ``space``'s action (stone there, nothing done yet)."""
        s = self.state
        i = space_index(space, nth)
        s.players[s.active].stone = i
        s.action = i
        s.phase = PHASE_MOVE if space.upper() == "DUELLUM" else PHASE_ACTION
        return self

    def conquest_step(self) -> Board:
        """The active player is in the conquest step of DUELLUM."""
        self.action("DUELLUM")
        self.state.phase = PHASE_CONQUER
        return self

    def founding_step(self) -> Board:
        """The active player is in the founding step (after an action)."""
        self.action("MARMOR")
        self.state.phase = PHASE_FOUNDING
        return self

    # ------------------------------------------------------------- play
    def play(self, seat: int, text: str) -> Step[State]:
        """Parse and apply a chat command; the board moves on to the new state."""
        action = self.game.parse(self.state, seat, text)
        step = self.game.apply(self.state, seat, action)
        self.state = step.state
        return step

    def do(self, seat: int, action: Action) -> Step[State]:
        """Apply an action object."""
        step = self.game.apply(self.state, seat, action)
        self.state = step.state
        return step

    def legal_texts(self, seat: int) -> list[str]:
        """Notations of the legal actions of ``seat``, spelled with ids (``move legion
        roma-genua``) so rule tests do not depend on printed names."""
        return [id_notation(self.state.map, seat, a) for a in self.game.legal_actions(self.state, seat)]

    # ------------------------------------------------------------ reads
    def res(self, seat: int) -> tuple[int, int, int, int]:
        """(marble, iron, gold, coins) of ``seat``."""
        r = self.state.players[seat].res
        return (r[0], r[1], r[2], r[3])

    def n(self, seat: int, region: str) -> tuple[int, int]:
        """(legions, galleys) of ``seat`` in ``region``."""
        i = self.r(region)
        return (self.state.units[seat][0][i], self.state.units[seat][1][i])

    def owner(self, region: str) -> int:
        """City owner (-1 none)."""
        return self.state.owner[self.r(region)]

    def defence(self, region: str) -> int:
        """Defence of the city in ``region`` against the other nation."""
        i = self.r(region)
        return defence(self.state, i, 1 - self.state.owner[i])
