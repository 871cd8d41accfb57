"""A public position builder: a test sets up who owns what and whose step it is in a few
readable lines, then plays on with real actions.

Why in the engine package: rules tests, benchmarks and the bot's tests all need mid-game
positions (a legion on a caravan, three heroes owned, offers face up). Every helper keeps the
component totals consistent: cards come from the bank, buildings from the supply, units from
the owner's pieces, so the invariants still hold in tests.
"""

from __future__ import annotations

from typing import Any

from engine.core.api import Step
from engine.core.events import Event
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.board import in_supply, owned
from engine.mare_nostrum.commerce import _maybe_reveal
from engine.mare_nostrum.data import CIVS, TAX
from engine.mare_nostrum.game import MareNostrumGame
from engine.mare_nostrum.military import start_turn
from engine.mare_nostrum.rounds import settle
from engine.mare_nostrum.state import Prov, State, Trade, Unit, add, total

GAME = MareNostrumGame()


class Position:
    """A mutable test position around a real :class:`State`.

    ``Position(5)`` is round 1 of a basic 5-player game after Rome chose grain and oil, with
    the Director of Commerce to pick N. ``empty=True`` removes every piece, card and hand.
    """

    def __init__(self, players: int = 5, *, civs: tuple[str, ...] | None = None, seed: int = 1,
                 empty: bool = False, **options: Any) -> None:
        opts = dict(options)
        if civs is not None:
            opts["civs"] = list(civs)
        s = GAME.new_game(seed, players, opts)
        while s.phase == "setup" and s.pending["setup"]["mode"] == "basic":
            seat = min(GAME.to_move(s))
            acts = GAME.legal_actions(s, seat)
            pick = next((a for a in acts if a.args[1] in ("grain", "oil")), acts[0])
            s = GAME.apply(s, seat, pick).state
        self.state: State = s
        if empty:
            self.clear()

    # ------------------------------------------------------------- board
    def clear(self) -> Position:
        """No pieces, no buildings, no cards in hands; heroes back in the market."""
        s = self.state
        for pid, pr in s.provs.items():
            s.supply["city"] += len(pr.cities)
            s.supply["caravan"] += len(pr.caravans)
            s.supply["market"] += pr.market
            s.supply["temple"] += pr.temple
            s.provs[pid] = Prov()
        s.units = []
        for c in s.seats:
            for card, n in s.hands[c].items():
                add(s.bank, card, n)
            s.hands[c] = {}
            s.market.extend(s.cards[c])
            s.cards[c] = []
        s.start_owned = {c: [] for c in s.seats}
        return self

    def own(self, civ: str, *pids: str, fresh: bool = False) -> Position:
        """Put ``civ``'s influence marker in each province (owned since the round began)."""
        for pid in pids:
            self.state.provs[pid].owner = civ
            self.state.provs[pid].fresh = fresh
        self._snapshot()
        return self

    def unown(self, *pids: str) -> Position:
        for pid in pids:
            self.state.provs[pid].owner = None
        self._snapshot()
        return self

    def _snapshot(self) -> None:
        s = self.state
        s.start_owned = {c: [p for p in owned(s, c) if not s.provs[p].fresh] for c in s.seats}

    def city(self, pid: str, *sites: str) -> Position:
        for site in sites:
            self.state.provs[pid].cities.append(site)
            self.state.supply["city"] -= 1
        return self

    def caravan(self, pid: str, *goods: str) -> Position:
        for g in goods:
            self.state.provs[pid].caravans.append(g)
            self.state.supply["caravan"] -= 1
        return self

    def temple(self, pid: str) -> Position:
        self.state.provs[pid].temple = True
        self.state.supply["temple"] -= 1
        return self

    def market(self, pid: str) -> Position:
        self.state.provs[pid].market = True
        self.state.supply["market"] -= 1
        return self

    def unit(self, civ: str, kind: str, loc: str, n: int = 1, *, docked: bool = False, place: str = "") -> Position:
        """Add ``n`` units (a trireme in a province is docked; in a sea zone it is at sea)."""
        for _ in range(n):
            if civ in self.state.seats:
                assert in_supply(self.state, civ, kind) > 0, f"{civ} has no {kind} left"
            self.state.units.append(Unit(civ, kind, loc, docked=docked or (kind == "trireme" and loc in
                                                                            self.state.provs), place=place))
        return self

    def legion(self, civ: str, loc: str, n: int = 1, *, place: str = "") -> Position:
        return self.unit(civ, "legion", loc, n, place=place)

    def fortress(self, civ: str, loc: str, n: int = 1) -> Position:
        return self.unit(civ, "fortress", loc, n)

    def trireme(self, civ: str, loc: str, n: int = 1) -> Position:
        return self.unit(civ, "trireme", loc, n)

    # ------------------------------------------------------------- cards
    def hand(self, civ: str, **cards: int) -> Position:
        """Set ``civ``'s hand (cards go back to / come from the bank)."""
        s = self.state
        for card, n in s.hands[civ].items():
            add(s.bank, card, n)
        s.hands[civ] = {}
        for card, n in cards.items():
            add(s.bank, card, -n)
            add(s.hands[civ], card, n)
        return self

    def give_card(self, civ: str, *cards: str) -> Position:
        """Hand heroes or wonders to ``civ`` from the market."""
        for c in cards:
            self.state.market.remove(c)
            self.state.cards[civ].append(c)
        return self

    def roles(self, commerce: str | None = None, political: str | None = None,
              military: str | None = None) -> Position:
        for role, civ in (("commerce", commerce), ("political", political), ("military", military)):
            if civ:
                self.state.roles[role] = civ
        return self

    # ------------------------------------------------------------- steps
    def build_turn(self, civ: str) -> Position:
        """It is ``civ``'s build turn (others before it in ``done``)."""
        s = self.state
        s.trade = None
        s.pending = {}
        s.phase, s.active = "build", civ
        s.done = []
        return self

    def build_phase(self, done: tuple[str, ...] = ()) -> Position:
        """The build phase has begun: the Political Leader names who builds next."""
        s = self.state
        s.trade, s.pending, s.phase, s.active = None, {}, "build", ""
        s.done = list(done)
        settle(s)
        return self

    def military_phase(self, done: tuple[str, ...] = ()) -> Position:
        """The military phase has begun: the Military Leader names who moves next."""
        s = self.state
        s.trade, s.pending, s.phase, s.active = None, {}, "military", ""
        s.done = list(done)
        settle(s)
        return self

    def military_turn(self, civ: str, done: tuple[str, ...] = ()) -> Position:
        """It is ``civ``'s military turn."""
        s = self.state
        s.trade = None
        s.pending = {}
        s.phase = "military"
        s.done = list(done)
        start_turn(s, civ)
        return self

    def commerce(self) -> Position:
        """The Director of Commerce is to pick N."""
        s = self.state
        s.trade, s.pending, s.phase, s.active = None, {}, "commerce_n", ""
        return self

    def offers(self, n: int, **offers: dict[str, int]) -> Position:
        """Trading with these face-up offers (the participants are the civs named); the DoC takes first."""
        s = self.state
        parts = [c for c in s.seats if c in offers]
        s.trade = Trade(n=n, participants=parts, offers={c: dict(offers[c]) for c in parts},
                        taker=s.roles["commerce"], start_sizes={c: total(s.hands[c]) for c in s.seats})
        s.pending, s.phase = {}, "offer"
        for c in parts:
            for card, k in offers[c].items():
                assert s.hands[c].get(card, 0) >= k, f"{c} does not hold {k} {card}"
        _maybe_reveal(s)
        return self

    def income(self) -> list[Event]:
        """Collect income now (8.1) and continue to the next decision; returns the events."""
        s = self.state
        s.trade, s.pending, s.phase = None, {}, "income"
        return settle(s)

    def new_round(self) -> list[Event]:
        """End the round now: the next round starts with role reassignment and income."""
        s = self.state
        s.trade, s.pending, s.phase, s.active = None, {}, "round_start", ""
        s.round += 1
        return settle(s)

    # ------------------------------------------------------------ playing
    def seat(self, civ: str) -> int:
        return self.state.seat_of(civ)

    def legal(self, civ: str) -> list[str]:
        """Notations of ``civ``'s legal actions now."""
        seat = self.seat(civ)
        return [GAME.notation(self.state, seat, a) for a in GAME.legal_actions(self.state, seat)]

    def play(self, civ: str, *texts: str) -> Step[State]:
        """Parse and apply each notation for ``civ``; returns the last step."""
        step: Step[State] | None = None
        for text in texts:
            seat = self.seat(civ)
            action = GAME.parse(self.state, seat, text)
            step = GAME.apply(self.state, seat, action)
            self.state = step.state
        assert step is not None
        return step

    def act(self, civ: str, action: Action) -> Step[State]:
        step = GAME.apply(self.state, self.seat(civ), action)
        self.state = step.state
        return step

    def dice(self, *rolls: int) -> Position:
        """Make the next dice come out as ``rolls`` (searches the RNG seed; fine for a few dice)."""
        from engine.core.rng import Rng

        for seed in range(2_000_000):
            r = Rng.from_seed(seed)
            if all(r.randint(1, 6) == d for d in rolls):
                self.state.rng = Rng.from_seed(seed).state
                return self
        raise AssertionError("no seed gives these dice")


__all__ = ["CIVS", "GAME", "TAX", "Position"]
