"""The engine protocol: options, notation, view, status, dump/load, determinism, undo flags."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import AmbiguousAction, IllegalAction, InvalidNotation, InvalidOptions, InvalidSave
from engine.core.registry import find_game
from engine.core.rng import Rng
from engine.duellum import DuellumGame
from engine.duellum.actions import BuildTemple, Deploy, Found, Move, Recruit

from .builders import GAME, Board

BROWN, BEIGE = 0, 1


def test_registry_finds_the_game() -> None:
    g = find_game("Antike Duellum")
    assert isinstance(g, DuellumGame) and find_game("ad") is g
    assert g.info.min_players == g.info.max_players == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mapp": "A"}, "Unknown option(s) mapp. Antike Duellum accepts: map: rome-carthage"),
        ({"map": "atlantis"}, "Unknown map 'atlantis'. Maps: rome-carthage (or A), greece-persia (or B)."),
        ({"special_units": "maybe"}, "Option `special_units` must be true or false"),
        ({"fortress_policy": "SOMETIMES"}, "Accepted: ASK, AUTO_FIRST_CONQUEST, NEVER."),
    ],
)
def test_invalid_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions) as info:
        GAME.new_game(1, 2, options)
    assert message in info.value.user_message


@pytest.mark.parametrize("players", [1, 3, 4])
def test_exactly_two_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="exactly 2 players"):
        GAME.new_game(1, players, {})


def test_map_options_and_aliases() -> None:
    assert GAME.new_game(1, 2).map.id == "rome-carthage"
    assert GAME.new_game(1, 2, {"map": "B"}).map.id == "greece-persia"
    assert GAME.new_game(1, 2, {"map": "a"}).map.id == "rome-carthage"
    assert GAME.new_game(1, 2, {"map": "Greece-Persia"}).map.id == "greece-persia"
    s = GAME.new_game(1, 2, {"map": "B", "special_units": "true", "navigator_counts_coastal": True})
    assert s.config.special_units and s.config.navigator_counts_coastal
    assert GAME.seat_names(s) == ["Greeks", "Persians"]


def _midgame(seed: int = 3, steps: int = 60, options: dict[str, object] | None = None) -> tuple[object, list[object]]:
    s = GAME.new_game(seed, 2, options or {})
    rng = Rng.from_seed(seed)
    log = []
    for _ in range(steps):
        seat = rng.choice(sorted(GAME.to_move(s)))
        a = GAME.auto_action(s, seat, rng.next64() & 0xFFFF)
        log.append((seat, GAME.notation(s, seat, a)))
        s = GAME.apply(s, seat, a).state
    return s, log


def test_dump_load_round_trip_and_json() -> None:
    for opts in ({}, {"map": "B", "special_units": True}):
        s, _ = _midgame(options=opts)
        d = GAME.dump(s)
        text = json.dumps(d)
        again = GAME.load(json.loads(text))
        assert GAME.dumps(again) == GAME.dumps(s)
        assert again == s
    with pytest.raises(InvalidSave):
        GAME.load({"game": "chess", "schema": 1, "state": {}})
    with pytest.raises(InvalidSave):
        GAME.load({"game": "duellum", "schema": 99, "state": {}})
    with pytest.raises(InvalidSave):
        GAME.load({"game": "duellum", "schema": 1, "state": {"config": {}}})


def test_determinism() -> None:
    a, log_a = _midgame(seed=11, steps=150)
    b, log_b = _midgame(seed=11, steps=150)
    assert log_a == log_b and GAME.dumps(a) == GAME.dumps(b)
    s = GAME.new_game(11, 2, {})
    for seat, text in log_a:
        s = GAME.apply(s, seat, GAME.parse(s, seat, text)).state
    assert GAME.dumps(s) == GAME.dumps(a)
    assert GAME.dumps(GAME.new_game(11, 2)) != GAME.dumps(GAME.new_game(12, 2))


def test_apply_never_mutates_and_clone_is_independent() -> None:
    s, _ = _midgame()
    before = GAME.dumps(s)
    seat = sorted(GAME.to_move(s))[0]
    for a in GAME.legal_actions(s, seat)[:20]:
        GAME.apply(s, seat, a)
        assert GAME.dumps(s) == before
    c = GAME.clone(s)
    c.players[0].res[0] += 5
    c.units[0][0][0] += 1
    c.row.append("X")
    assert GAME.dumps(s) == before


def test_view_schema_and_hidden_information() -> None:
    b = (
        Board(active=BROWN)
        .hand(BEIGE, "FORTRESS", "ORACLE")
        .hand(BROWN, "LEVY")
        .row("RICH_HARVEST", "TREASURY", "PILLAGE")
    )
    b.units(BROWN, "roma", legions=2).city("ancona", BEIGE, "gold", temple=True, wall=True)
    v = GAME.view(b.state, BROWN)
    for key in (
        "game",
        "viewer",
        "map",
        "map_side",
        "turn",
        "active",
        "to_move",
        "phase",
        "awaiting",
        "over",
        "winner",
        "players",
        "rondel_spaces",
        "regions",
        "borders",
        "event_row",
        "deck_size",
        "discard_size",
        "bank",
        "cards",
        "last_turn",
    ):
        assert key in v
    assert v["game"] == "duellum" and v["map_side"] == "A" and v["viewer"] == BROWN
    me, them = v["players"]
    assert me["hand"] == ["LEVY"] and them["hand"] is None and them["hand_count"] == 2
    assert me["nation"] == "Carthaginians" and me["colour"] == "BROWN" and them["colour"] == "BEIGE"
    assert set(me["resources"]) == {"marble", "iron", "gold", "coins"}
    assert set(me["personalities"]) == {"king", "scholar", "general", "navigator", "citizen"}
    assert "FORTRESS" not in v["cards"] and "LEVY" in v["cards"]
    text = json.dumps(v)
    assert '"rng"' not in text and str(b.state.rng.state) not in text and "FORTRESS" not in text
    assert v["event_row"] == ["RICH_HARVEST", "TREASURY", "PILLAGE"]
    roma = next(r for r in v["regions"] if r["id"] == "roma")
    assert roma["units"] == [{"owner": 0, "legion": 2, "galley": 0}] and roma["city"]["owner"] == BEIGE
    ancona = next(r for r in v["regions"] if r["id"] == "ancona")
    assert ancona["city"] == {"owner": 1, "resource": "gold", "temple": True, "wall": True, "defence": 4}
    assert v["deck_size"] == len(b.state.draw) and len(v["borders"]) == 95
    assert v["bank"]["city_tokens"] == {"marble": 10, "iron": 10, "gold": 7}
    spectator = GAME.view(b.state, None)
    assert all(p["hand"] is None for p in spectator["players"])


def test_view_last_turn_and_status() -> None:
    b = Board(active=BROWN).stone(BROWN, "FERRUM")
    b.play(BROWN, "rondel aurum")
    v = GAME.view(b.state, BEIGE)
    lt = v["last_turn"]
    assert lt["seat"] == BROWN and lt["rondel"]["to"] == "AURUM" and lt["rondel"]["from"] == "FERRUM"
    assert "carthago_nova" in lt["regions"] and lt["summary"][0] == "Carthaginians move to AURUM."
    assert v["phase"] == "rondel" and v["active"] == BEIGE
    assert GAME.status(b.state) == (
        "Turn 6: the Romans move their stone on the rondel. Personalities: Carthaginians 0, Romans 0."
    )


def test_help_and_groups() -> None:
    text = GAME.help_text()
    assert "rondel scientia pay iron" in text and "move 2 legions Roma-Ancona" in text
    assert GAME.action_group("rondel templum") == "rondel"
    assert GAME.action_group("temple roma") == "build" and GAME.action_group("wall roma") == "build"
    assert GAME.action_group("play fortress") == "cards" and GAME.action_group("done") == "finish"
    assert set(GAME.verbs) >= {
        "rondel",
        "temple",
        "wall",
        "deploy",
        "buy",
        "recruit",
        "move",
        "conquer",
        "found",
        "trade",
        "play",
        "take",
        "done",
        "end",
        "pass",
        "lose",
    }


def test_lenient_parsing() -> None:
    b = Board(active=BROWN).stone(BROWN, "FERRUM").resources(BROWN, iron=3)
    s = b.state
    assert GAME.parse(s, BROWN, "RONDEL   Templum") == GAME.parse(s, BROWN, "rondel templum")
    assert GAME.parse(s, BROWN, "rondel temp") == GAME.parse(s, BROWN, "rondel templum")
    assert GAME.parse(s, BROWN, "rondel militia pay 1 iron") == GAME.parse(s, BROWN, "rondel militia pay iron")
    with pytest.raises(InvalidNotation, match="I don't know the word `fly`"):
        GAME.parse(s, BROWN, "fly roma")
    b = Board(active=BROWN).techs(BROWN, "STRATA").units(BROWN, "carthago_nova", legions=2).action("DUELLUM")
    s = b.state
    want = Move(0, 2, (b.r("carthago_nova"), b.r("numantia")))
    assert GAME.parse(s, BROWN, "move 2 legions carthago nova-numantia") == want
    assert GAME.parse(s, BROWN, "move 2 leg carthago n-numa") == want
    assert GAME.parse(s, BROWN, "move 2 legions carthago_nova-saguntum-numantia") == want  # route typed
    assert GAME.parse(s, BROWN, "move 1 legion carthago_nova baecula") == Move(
        0, 1, (b.r("carthago_nova"), b.r("baecula"))
    )
    with pytest.raises(IllegalAction, match=r"have 2 unmoved"):
        GAME.parse(s, BROWN, "move 3 legions carthago_nova-saguntum")


def test_ambiguous_duellum_on_first_placement() -> None:
    s = GAME.new_game(1, 2)
    with pytest.raises(AmbiguousAction) as info:
        GAME.parse(s, s.active, "rondel duellum")
    assert info.value.candidates == ("rondel duellum-a", "rondel duellum-b")


def test_specific_illegal_reasons_in_chat() -> None:
    b = Board(active=BEIGE).resources(BEIGE, marble=4, coins=0).city("ancona", BEIGE, "gold", temple=True)
    b.action("TEMPLUM")
    with pytest.raises(IllegalAction) as info:
        b.play(BEIGE, "temple roma")
    assert info.value.reason == (
        "Building a temple in Roma costs 6 marble and 1 coin (coins replace missing marble; the surcharge must be "
        "coins); you have 4 marble, 3 iron, 3 gold and 0 coins."
    )
    with pytest.raises(IllegalAction, match="Carthago is not one of your cities"):
        b.play(BEIGE, "build temple carthago")
    with pytest.raises(IllegalAction, match="Units are deployed only in a MILITIA action"):
        b.play(BEIGE, "deploy legion roma")
    with pytest.raises(IllegalAction, match="Cities are founded in the founding step"):
        b.do(BEIGE, Found(b.r("tarraco"), 2))
    with pytest.raises(IllegalAction, match="Technologies are bought only in a SCIENTIA action"):
        b.play(BEIGE, "buy strata")
    with pytest.raises(IllegalAction, match="You do not hold Fortress"):
        b.play(BEIGE, "play fortress")
    assert GAME.illegal_reason(b.state, BEIGE, Recruit(0, 1)) == "Units are recruited only in a SCIENTIA action."
    assert not GAME.is_legal(b.state, BEIGE, Deploy(0, 1, b.r("roma")))
    assert GAME.is_legal(b.state, BEIGE, BuildTemple(b.r("ancona"))) is False


def test_opponent_hand_never_in_reasons() -> None:
    b = Board(active=BROWN).hand(BEIGE, "FORTRESS").resources(BEIGE, coins=5)
    with pytest.raises(IllegalAction) as info:
        b.play(BROWN, "play fortress")
    assert info.value.reason == "You do not hold Fortress."


def test_undo_flags() -> None:
    b = Board(active=BROWN).stone(BROWN, "FERRUM").hand(BROWN, "MERCHANT_CARAVAN")
    assert b.play(BROWN, "rondel aurum").undoable
    assert not b.play(BROWN, "play merchant_caravan iron iron").undoable
    b.state.players[BEIGE].owed = 1
    b.start(BEIGE)
    assert not b.play(BEIGE, f"take {b.state.row[0].lower()}").undoable


def test_events_name_regions() -> None:
    b = Board(active=BROWN).units(BROWN, "roma", legions=2).action("DUELLUM")
    step = b.play(BROWN, "move 2 legions roma-ancona")
    ev = step.events[0]
    assert ev.public and ev.text == "Carthaginians move 2 legions Roma → Ancona."
    assert ev.data["regions"] == ["roma", "ancona"]


def test_private_event_for_the_picked_card() -> None:
    b = Board(active=BROWN)
    b.state.players[BEIGE].owed = 1
    b.start(BEIGE)
    card = b.state.row[0]
    step = b.play(BEIGE, f"take {card.lower()}")
    private = [e for e in step.events if not e.public]
    assert private and private[0].seats == frozenset({BEIGE}) and card.replace("_", " ").title()[:4] in private[0].text


def test_on_timeout_and_auto_action_are_legal() -> None:
    s, _ = _midgame(seed=5, steps=40)
    for seat in sorted(GAME.to_move(s)):
        assert GAME.on_timeout(s, seat) in GAME.legal_actions(s, seat)
        assert GAME.auto_action(s, seat, 7) == GAME.auto_action(s, seat, 7)


def test_is_legal_agrees_with_legal_actions() -> None:
    rng = Rng.from_seed(99)
    for seed in range(4):
        s = GAME.new_game(seed, 2, {"map": "B" if seed % 2 else "A", "special_units": seed == 3})
        for _ in range(150):
            if GAME.outcome(s) is not None:
                break
            seat = rng.choice(sorted(GAME.to_move(s)))
            acts = GAME.legal_actions(s, seat)
            for a in acts:
                assert GAME.is_legal(s, seat, a), a
            for a in _perturb(acts):
                assert GAME.is_legal(s, seat, a) == (a in acts), a
            a = GAME.auto_action(s, seat, rng.next64() & 0xFF) if rng.below(2) else rng.choice(acts)
            s = GAME.apply(s, seat, a).state


def _perturb(acts: list[object]) -> list[object]:
    import dataclasses

    out: list[object] = []
    for a in acts[:40]:
        for f in dataclasses.fields(a):  # type: ignore[arg-type]
            v = getattr(a, f.name)
            if isinstance(v, int) and not isinstance(v, bool):
                for d in (-1, 1, 2):
                    out.append(dataclasses.replace(a, **{f.name: v + d}))  # type: ignore[type-var]
    return out


def test_help_examples_use_known_verbs() -> None:
    import re

    commands = re.findall(r"`([^`]+)`", GAME.help_text())
    assert len(commands) > 15
    for c in commands:
        assert c.split(" ")[0] in GAME.verbs, c


def test_fortress_window_view() -> None:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold").units(BROWN, "tarraco", legions=2).hand(BEIGE, "FORTRESS")
    b.conquest_step()
    b.play(BROWN, "conquer tarraco")
    v = GAME.view(b.state, BROWN)
    assert v["phase"] == "fortress" and v["to_move"] == [BEIGE]
    assert v["pending_conquest"] == {"region": "tarraco", "card": None}
    assert GAME.legal_actions(b.state, BROWN) == [] and [
        GAME.notation(b.state, BEIGE, a) for a in GAME.legal_actions(b.state, BEIGE)
    ] == ["play Fortress", "pass"]
    assert "Fortress" in GAME.status(b.state, None)


def test_parse_never_crashes_on_garbage() -> None:
    from engine.core.errors import EngineError

    words = [
        *GAME.verbs,
        "2",
        "0",
        "99",
        "legions",
        "galley",
        "general",
        "roma",
        "ancona-roma",
        "carthago",
        "nova",
        "with",
        "for",
        "pay",
        "iron",
        "gold",
        "coin",
        "fortress",
        "merchant",
        "again",
        "-",
        "x",
        "",
    ]
    rng = Rng.from_seed(5)
    states = [_midgame(seed=s, steps=25 * s)[0] for s in range(1, 5)]
    for _ in range(600):
        s = rng.choice(states)
        seat = sorted(GAME.to_move(s))[0]
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        try:
            action = GAME.parse(s, seat, text)
        except EngineError:
            continue
        assert action in GAME.legal_actions(s, seat)


def test_brief_example_commands() -> None:
    b = Board(active=BEIGE).stone(BEIGE, "FERRUM").techs(BEIGE, "COMMERCIUM").resources(BEIGE, marble=8, iron=3)
    b.play(BEIGE, "trade marble marble iron for gold gold")
    assert b.res(BEIGE)[:3] == (6, 2, 5)
    b.play(BEIGE, "rondel templum")
    b.play(BEIGE, "temple roma")
    b.play(BEIGE, "wall roma")
    b = Board(active=BEIGE).stone(BEIGE, "AURUM").resources(BEIGE, iron=1, gold=9)
    b.play(BEIGE, "rondel scientia pay iron")
    b.play(BEIGE, "buy strata")
    b.play(BEIGE, "recruit legion")
    b = Board(active=BEIGE).action("MILITIA")
    b.play(BEIGE, "deploy legion roma")
    b = Board(active=BEIGE).units(BEIGE, "roma", legions=2).city("ancona", BROWN, "gold").action("DUELLUM")
    b.play(BEIGE, "move 2 legions roma-ancona")
    b.play(BEIGE, "done")
    b.play(BEIGE, "conquer ancona")
    b = Board(active=BEIGE).units(BEIGE, "ancona", legions=1).founding_step()
    b.play(BEIGE, "found ancona gold")
    assert b.owner("ancona") == BEIGE
