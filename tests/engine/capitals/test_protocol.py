"""The engine protocol: the action contract (legal exactly when listed; anything else raises
IllegalAction and changes nothing), notation round trips and forms, dump/load, views and
leaks of hidden information (spec §17), and the automatic player."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.capitals.actions import Action
from engine.capitals.builder import GAME, Table
from engine.capitals.data import TILES
from engine.core.errors import IllegalAction, InvalidNotation, InvalidSave
from engine.core.rng import Rng


def positions(seed: int, players: int, steps: int, **options: Any) -> list[Any]:
    """States met along one automatic game."""
    s = GAME.new_game(seed, players, options)
    rng = Rng.from_seed(seed)
    out = []
    for _ in range(steps):
        if GAME.outcome(s) is not None:
            break
        seat = next(iter(GAME.to_move(s)))
        out.append(s)
        acts = GAME.legal_actions(s, seat)
        a = rng.choice(acts) if rng.below(3) == 0 else GAME.auto_action(s, seat, rng.next64() & 0xFFFF)
        s = GAME.apply(s, seat, a).state
    return out


def malformed(rng: Rng, s: Any) -> Any:
    kinds = ["position", "build", "activate", "done", "pass", "relocate", "prosper", "lake", "fly", ""]
    cells: list[Any] = [None, (0, 0), (1, -1), (99, 99), (-40, 2), (1,), [1, 2], "m12", (1.5, 2), (1, [2])]
    tiles: list[Any] = ["", "I-18", "P-01", "S-HOT", "NOPE", 7, *s.rows[0][:2]]
    return Action(
        kind=rng.choice(kinds),
        pos=rng.choice([0, 1, 3, 5, 6, -1, 99]),
        tile=rng.choice(tiles),
        cell=rng.choice(cells),
        tourists=rng.choice([(), (0,), (9,), (-1, 0), (0, 0)]),
        choice=rng.choice(["", "cube", "money", "gold"]),
    )


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_action_contract_by_property(seed: int, players: int) -> None:
    rng = Rng.from_seed(seed * 31)
    for s in positions(seed, players, 120, prosperity=True)[::3]:
        seat = next(iter(GAME.to_move(s)))
        legal = GAME.legal_actions(s, seat)
        before = GAME.dumps(s)
        for _ in range(25):
            a = malformed(rng, s)
            if a in legal:
                continue
            assert not GAME.is_legal(s, seat, a)
            with pytest.raises(IllegalAction):
                GAME.apply(s, seat, a)
        for junk in ("hello", None, ("build", "m12")):
            with pytest.raises(IllegalAction):
                GAME.apply(s, seat, junk)
        for a in legal[:: max(1, len(legal) // 10)]:
            assert GAME.is_legal(s, seat, a)
            assert GAME.parse(s, seat, GAME.notation(s, seat, a)) == a
            for form in GAME.notation_forms(s, seat, a):
                assert GAME.parse(s, seat, form) == a, form
        assert GAME.dumps(s) == before


def test_build_notation_forms_and_prefixes() -> None:
    t = Table().clear_rows().row(0, "Museum of Industry", "Market").building(0)
    s, seat = t.state, 0
    a = Action("build", tile="I-19", cell=(0, -1))
    assert GAME.notation(s, seat, a) == "build museum m12"
    for text in ("build museum m12", "BUILD Museum-of-Industry M12", "build museum of industry m12",
                 "build museum-of-industry 0 -1", "build museum-of-industry 0,-1"):
        assert GAME.parse(s, seat, text) == a, text
    with pytest.raises(InvalidNotation):
        GAME.parse(s, seat, "construct museum m12")
    with pytest.raises(IllegalAction):
        GAME.parse(s, seat, "build museum z26")


def test_dump_load_round_trip_and_bad_saves() -> None:
    for s in positions(5, 4, 150, prosperity=True)[::25]:
        again = GAME.load(json.loads(json.dumps(GAME.dump(s))))
        assert GAME.dumps(again) == GAME.dumps(s) and again == s
    with pytest.raises(InvalidSave):
        GAME.load({"game": "chess", "schema": 1, "state": {}})
    with pytest.raises(InvalidSave):
        GAME.load({"game": "capitals", "schema": 1, "state": {"n": 2}})


def hidden_tiles(s: Any, seat: int) -> list[str]:
    """Tiles ``seat`` may not know: other hands and the undrawn stacks."""
    out = [t for o, p in enumerate(s.players) if o != seat for t in p.hand]
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_view_or_public_event_leaks_a_hand(players: int) -> None:
    s = GAME.new_game(11, players, {"prosperity": True})
    rng = Rng.from_seed(players)
    while GAME.outcome(s) is None:
        seat = next(iter(GAME.to_move(s)))
        a = GAME.auto_action(s, seat, rng.next64() & 0xFFFF)
        step = GAME.apply(s, seat, a)
        revealed = {a.tile} if a.kind in ("prosper", "lake") else set()
        for viewer in [None, *range(players)]:
            text = json.dumps(GAME.view(step.state, viewer))
            secret = [t for t in hidden_tiles(step.state, -1 if viewer is None else viewer)
                      if t not in revealed]
            for t in secret:
                assert f'"{t}"' not in text and TILES[t].name not in text, (viewer, t)
        for ev in step.events:
            assert ev.public
            for t in hidden_tiles(step.state, -1):
                if t not in revealed:
                    assert TILES[t].name not in ev.text
        s = step.state
    assert GAME.private_action(s, 0, Action("lake", tile="P-01", cell=(0, 0)))
    assert not GAME.private_action(s, 0, Action("done"))


def test_closed_scores_show_only_your_own_prestige() -> None:
    s = GAME.new_game(3, 3)
    v = GAME.view(s, 1)
    assert [p["prestige"] is None for p in v["players"]] == [True, False, True]
    assert all(p["prestige"] is None for p in GAME.view(s, None)["players"])
    opened = GAME.new_game(3, 3, {"open_scores": True})
    assert all(p["prestige"] is not None for p in GAME.view(opened, None)["players"])


def test_automatic_player_beats_random_play() -> None:
    wins = 0
    games = 8
    for g in range(games):
        s = GAME.new_game(100 + g, 2, {"prosperity": True})
        rng = Rng.from_seed(g)
        bot_seat = g % 2
        while GAME.outcome(s) is None:
            seat = next(iter(GAME.to_move(s)))
            a = GAME.auto_action(s, seat, g) if seat == bot_seat else rng.choice(GAME.legal_actions(s, seat))
            s = GAME.apply(s, seat, a).state
        out = GAME.outcome(s)
        assert out is not None
        wins += out.winners == (bot_seat,)
    assert wins >= 7


def test_status_help_and_costs_read_well() -> None:
    t = Table(players=3).clear_rows().row(1, "Market").row(0, "Bakery").building(0)
    assert "Round 1 of 12" in GAME.status(t.state)
    assert "build" in GAME.help_text()
    s = t.state
    costs = {GAME.notation(s, 0, a): GAME.action_cost(s, 0, a) for a in GAME.legal_actions(s, 0)}
    assert costs["build market m12"] == "$2" and costs["build bakery m12"] == ""
    assert all("(s)" not in line for line in GAME.status_lines(s, 0))


def test_moves_are_grouped_by_tile_so_buttons_offer_its_cells() -> None:
    t = Table().clear_rows().row(0, "Market", "School").building(0)
    groups = {GAME.action_group(m) for m in t.legal()}
    assert groups == {"build market", "build school"}
    assert GAME.action_group("position p2") == "buy a Start position"
    assert GAME.action_group("pass cube") == "pass bonus"
