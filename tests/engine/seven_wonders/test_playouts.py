"""Random complete games over every player count and mode, with the protocol's checks and
the game's invariants: card conservation, equal hands, coins, turns per Age, dump/load,
notation round trips and replay determinism."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core.testing import random_playout, replay
from engine.seven_wonders.data import CARDS
from engine.seven_wonders.state import State

from .builders import G


def universe(cities: bool) -> Counter[str]:
    """Every physical card of the boxes in play."""
    out: Counter[str] = Counter()
    for c in CARDS.values():
        if c.expansion == "cities" and not cities:
            continue
        out[c.id] += max(1, len(c.copies))
    return out


class Invariants:
    """Checks run after every step; remembers the turns seen per Age."""

    def __init__(self) -> None:
        self.turns: dict[int, int] = {}
        self.box: list[str] | None = None

    def __call__(self, s: State) -> None:
        if self.box is None:
            self.box = sorted(universe(s.cities_opt).elements())
        places: list[str] = [*s.fc_pile, *s.discard, *s.unused]
        for d in s.decks:
            places.extend(d)
        for h in s.hands:
            places.extend(h)
        for c in s.cities:
            places.extend(c.built)
            places.extend(c.tucked)
            assert c.coins >= 0 and c.debt >= 0 and c.diplomacy >= 0
            assert len(c.tucked) == c.stages
            assert len({CARDS[x].name for x in c.built}) == len(c.built), "two structures with one name"
        places.sort()
        assert places == self.box, "a card is missing or duplicated"
        for a in s.pending.values():
            assert a.card in s.hand_of(a.city)
        if s.step == "pick":
            sizes = [len(h) for h in s.hands]
            if s.players == 2:
                sizes[s.fc_ctrl] -= 1
                assert len(s.fc_pile) == s.hand_size - s.turn
            assert set(sizes) == {s.hand_size - s.turn + 1}, sizes
        if s.step != "over":
            self.turns[s.age] = max(self.turns.get(s.age, 0), s.turn)
            for age in range(1, s.age):
                assert self.turns[age] == s.turns_per_age, (age, self.turns)
        else:
            assert self.turns == {1: s.turns_per_age, 2: s.turns_per_age, 3: s.turns_per_age}
            assert all(not h for h in s.hands) and not s.fc_pile and not any(s.decks)


def configs() -> list[tuple[int, dict[str, Any]]]:
    out: list[tuple[int, dict[str, Any]]] = []
    for n in range(2, 9):
        for cities in (True, False):
            if n == 8 and not cities:
                continue
            for side in ("A", "B", "random"):
                out.append((n, {"cities": cities, "side": side}))
            if cities and n in (4, 6, 8):
                out.append((n, {"cities": True, "teams": True, "side": "random"}))
    return out


CONFIGS = configs()
SMALL = [(n, o) for n, o in CONFIGS if o.get("teams") or o["side"] == ("A", "B", "random")[(n + o["cities"]) % 3]]


def _id(n: int, o: dict[str, Any]) -> str:
    return f"{n}p-" + "-".join(f"{k}={v}" for k, v in o.items())


@pytest.mark.parametrize(("n", "opts"), SMALL, ids=[_id(n, o) for n, o in SMALL])
def test_full_checks_small_batch(n: int, opts: dict[str, Any]) -> None:
    """One game per configuration with every protocol check on at every step."""
    inv = Invariants()
    p = random_playout(G, 1000 + n, n, opts, invariants=inv, check_notation=4)
    assert p.over
    out = G.outcome(p.state)
    assert out is not None and sorted(s for t in out.ranking for s in t) == list(range(n))
    assert set(out.scores) == set(range(n))


BIG = [(seed, n, opts) for seed in range(8) for n, opts in CONFIGS]


@pytest.mark.parametrize(("seed", "n", "opts"), BIG)
def test_random_games_big_batch(seed: int, n: int, opts: dict[str, Any]) -> None:
    """Many games with cheaper checks (invariants every step, dump/load now and then)."""
    inv = Invariants()
    p = random_playout(
        G,
        seed,
        n,
        opts,
        invariants=inv,
        auto_share=(0.2, 0.5, 0.9)[seed % 3],
        check_mutation=False,
        check_notation=1,
        check_dump_every=23,
        check_replay=False,
    )
    assert p.over


def test_replay_is_deterministic_and_dump_round_trips() -> None:
    p = random_playout(G, 77, 5, {"side": "random"}, check_replay=True)
    again = replay(G, 77, 5, {"side": "random"}, p.log)
    assert G.dumps(again) == G.dumps(p.state)
    assert G.dumps(G.load(G.dump(p.state))) == G.dumps(p.state)
    other = random_playout(G, 78, 5, {"side": "random"}, check_replay=False)
    assert G.dumps(other.state) != G.dumps(p.state)


def test_batches_cover_every_count_and_mode() -> None:
    assert len(BIG) >= 300
    assert {n for _, n, _ in BIG} == set(range(2, 9))
    assert {(n, o["cities"], bool(o.get("teams"))) for n, o in SMALL} == {
        (n, o["cities"], bool(o.get("teams"))) for n, o in CONFIGS
    }
    assert {o["side"] for _, o in SMALL} == {"A", "B", "random"}
