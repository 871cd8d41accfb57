"""A public position builder: set up who owns what and whose step it is in a few readable lines.

Why in the engine package: tests, benchmarks and the rulebook examples all need positions such
as "a happy size-3 city with 2 mood tokens"; building them through one small API (never by
editing the state by hand in a test) keeps them valid (pieces in supply, terrain revealed) and
short. Example::

    pos = Position(2).clear_units().city(0, "d2", mood="happy", pieces=("temple", "academy"))
    pos.give(0, food=2, ore=1).turn(0)
    pos.play(0, "collect athens food ore wood wood")
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.clash.board import reveal
from engine.clash.cards_data import DECKS
from engine.clash.cities import add_unit, city_named
from engine.clash.data import TABLES
from engine.clash.game import ClashGame
from engine.clash.resources import clamp
from engine.clash.rounds import clear_turn_flags, start_turn
from engine.clash.state import BARBARIAN, City, State, Unit
from engine.core.events import Event

GAME = ClashGame()


class Position:
    """A game state under construction (``state``) and helpers to play it by notation."""

    def __init__(self, players: int = 2, seed: int = 1, **options: bool) -> None:
        self.state: State = GAME.new_game(seed, players, options)
        self.events: list[Event] = []
        # Positions start with empty hands (the dealt cards go back under their decks), so a
        # rules test meets no card it did not ask for; ``hand`` and ``goals`` give cards.
        d = self.state.decks
        for seat in range(players):
            d["action"].extend(d["hands"][seat])
            d["objective"].extend(d["goals"][seat])
            d["hands"][seat] = []
            d["goals"][seat] = []

    # ----------------------------------------------------------------- map
    def tile(self, slot: str, tile: str, *, revealed: bool = False, rotated: bool = False) -> Position:
        """Put ``tile`` face down (or up) in ``slot`` (swapping it with wherever it lay)."""
        s = self.state
        target = next(x for x in s.slots if x.id == slot)
        other = next((x for x in s.slots if x.tile == tile), None)
        if other is not None and other is not target:
            other.tile = target.tile
            if other.revealed:
                reveal(s, other, other.rotated)
        target.tile = tile
        if revealed or target.revealed:
            reveal(s, target, rotated)
        return self

    def reveal_all(self) -> Position:
        """Turn every region face up in base orientation (for tests not about exploring)."""
        for slot in self.state.slots:
            if not slot.revealed:
                reveal(self.state, slot, False)
        return self

    # ------------------------------------------------------------ pieces
    def clear_units(self) -> Position:
        """Remove every unit (the starting settlers included)."""
        self.state.units.clear()
        return self

    def clear_cities(self, seat: int | None = None) -> Position:
        """Remove the cities of ``seat`` (all players when ``None``)."""
        self.state.cities = [c for c in self.state.cities if seat is not None and c.owner != seat]
        return self

    def city(
        self,
        seat: int,
        space: str,
        *,
        mood: str = "neutral",
        pieces: Iterable[str] = (),
        port: str = "",
        name: str = "",
    ) -> City:
        """Add (or replace) a city of ``seat`` on ``space`` with the given buildings."""
        s = self.state
        old = s.city_at(space)
        if old is not None:
            s.cities.remove(old)
        if seat == BARBARIAN:
            city = City(s.new_id(), seat, space, f"Barbarian camp {space.upper()}", mood)
        else:
            city = City(s.new_id(), seat, space, name or city_named(s, seat), mood)
        for b in pieces:
            city.pieces[b] = seat
        if port:
            city.port_space = port
        s.cities.append(city)
        return city

    def units(self, seat: int, space: str, *, army: int = 0, settler: int = 0) -> Position:
        """Add land units of ``seat`` on a land space."""
        for _ in range(army):
            self._unit(seat, "army", space)
        for _ in range(settler):
            self._unit(seat, "settler", space)
        return self

    def ship(self, seat: int, space: str, *, army: int = 0, settler: int = 0) -> Unit:
        """Add a ship of ``seat`` with cargo."""
        ship = add_unit(self.state, seat, "ship", space)
        for _ in range(army):
            add_unit(self.state, seat, "army", space, carrier=ship.id)
        for _ in range(settler):
            add_unit(self.state, seat, "settler", space, carrier=ship.id)
        return ship

    def _unit(self, seat: int, kind: str, space: str) -> None:
        if seat == BARBARIAN:
            self.state.units.append(Unit(self.state.new_id(), seat, kind, space))
        else:
            add_unit(self.state, seat, kind, space)

    # ----------------------------------------------------------- players
    def give(
        self,
        seat: int,
        *,
        food: int | None = None,
        wood: int | None = None,
        ore: int | None = None,
        ideas: int | None = None,
        gold: int | None = None,
    ) -> Position:
        """Set resources (unnamed ones stay)."""
        p = self.state.pl[seat]
        for key, val in (("food", food), ("wood", wood), ("ore", ore), ("ideas", ideas), ("gold", gold)):
            if val is not None:
                p.res[key] = val
        return self

    def tokens(
        self,
        seat: int,
        *,
        mood: int | None = None,
        culture: int | None = None,
        culture_level: int | None = None,
        happiness_level: int | None = None,
    ) -> Position:
        """Set levels and tokens (tokens are capped by the levels, as in play)."""
        p = self.state.pl[seat]
        if culture_level is not None:
            p.culture_level = culture_level
            p.levels_reached = [x for x in p.levels_reached if not x.startswith("culture")] + [
                f"culture{v}" for v in (3, 5, 7) if v <= culture_level
            ]
        if happiness_level is not None:
            p.happiness_level = happiness_level
            p.levels_reached = [x for x in p.levels_reached if not x.startswith("happiness")] + [
                f"happiness{v}" for v in (3, 5, 7) if v <= happiness_level
            ]
        if mood is not None:
            p.mood_tokens = mood
        if culture is not None:
            p.culture_tokens = culture
        clamp(p)
        return self

    def advances(self, seat: int, *names: str) -> Position:
        """Give advances without paying or triggering anything."""
        p = self.state.pl[seat]
        for n in names:
            if n not in TABLES.advances:
                raise KeyError(n)
            if n not in p.advances:
                p.advances.append(n)
        return self

    def turn(self, seat: int, *, round_: int = 1, turn: int = 1, first: int | None = None) -> Position:
        """Make it ``seat``'s new turn: last turn's activations and movement restrictions are cleared
        and its start-of-turn effects (Trade Routes) happen now."""
        s = self.state
        s.pending = {}
        s.phase = "turn"
        s.round = round_
        s.turn = turn
        s.first = seat if first is None else first
        s.active = seat
        clear_turn_flags(s, seat)
        self.events.extend(start_turn(s))
        if s.decks:
            from engine.clash.action_cards import new_turn, turn_key

            s.decks["turn_key"] = turn_key(s)
            new_turn(s)
        return self

    # -------------------------------------------------------------- cards
    def hand(self, seat: int, *effects: str) -> Position:
        """Give ``seat`` action cards by effect (``leadership``), taken from wherever they are;
        the hand is emptied first."""
        d = self.state.decks
        for c in d["hands"][seat]:
            d["action"].append(c)
        d["hands"][seat] = []
        for effect in effects:
            card = next(c for c in d["action"] if DECKS.actions[c].effect == effect)
            d["action"].remove(card)
            d["hands"][seat].append(card)
        return self

    def goals(self, seat: int, *cards: str) -> Position:
        """Give ``seat`` exactly these objective cards (``obj07``), taken from wherever they are."""
        d = self.state.decks
        for s in range(self.state.players):
            for c in list(d["goals"][s]):
                if c in cards or s == seat:
                    d["goals"][s].remove(c)
                    d["objective"].append(c)
        for c in cards:
            d["objective"].remove(c)
            d["goals"][seat].append(c)
        return self

    def next_events(self, *cards: str) -> Position:
        """Put these event cards (``evt03``) on top of the event deck, in this order."""
        d = self.state.decks
        for c in cards:
            (d["event"] if c in d["event"] else d["event_discard"]).remove(c)
        d["event"][0:0] = list(cards)
        return self

    # -------------------------------------------------------------- play
    def play(self, seat: int, text: str) -> list[Event]:
        """Parse and apply one action; the state advances."""
        action = GAME.parse(self.state, seat, text)
        step = GAME.apply(self.state, seat, action)
        self.state = step.state
        self.events.extend(step.events)
        return list(step.events)

    def moves(self, seat: int) -> list[str]:
        """Notation of every legal action of ``seat``."""
        return [GAME.notation(self.state, seat, a) for a in GAME.legal_actions(self.state, seat)]

    def p(self, seat: int) -> object:
        """The player board of ``seat``."""
        return self.state.pl[seat]


def crowded_position() -> tuple[State, int]:
    """A crowded mid-game position built on purpose: the whole 4-player map revealed, Red with
    5 grown cities, 12 army units in stacks, 4 settlers, 2 ships with cargo, Roads, Navigation,
    Husbandry, Draft and Voting, and plenty of resources and tokens."""
    pos = Position(4, seed=7).clear_units().reveal_all()
    land = sorted(
        h
        for h, t in pos.state.terrain.items()
        if t in ("fertile", "forest", "mountain") and pos.state.city_at(h) is None
    )
    sea = sorted(h for h, t in pos.state.terrain.items() if t == "sea")
    for space in land[:4]:
        pos.city(0, space, pieces=("temple", "academy"), mood="happy")
    pos.city(0, "c2", pieces=("temple", "academy", "fortress"))
    pos.advances(
        0,
        "tactics",
        "engineering",
        "roads",
        "fishing",
        "navigation",
        "storage",
        "husbandry",
        "myths",
        "writing",
        "draft",
        "philosophy",
        "voting",
        "rituals",
        "irrigation",
    )
    pos.give(0, food=6, wood=6, ore=6, ideas=4, gold=3).tokens(0, culture_level=5, happiness_level=5, mood=4, culture=3)
    for space in land[4:10]:
        pos.units(0, space, army=2, settler=0)
    pos.units(0, land[10], settler=2).units(0, land[11], settler=2)
    pos.ship(0, sea[0], army=1, settler=0)
    pos.ship(0, sea[0])
    pos.turn(0)
    return pos.state, 0
