"""Hand-built Antike Duellum views (docs/duellum-view.md) for renderer tests and the benchmark.

Why by hand: the renderer is tested against the view contract, not against one engine
version; views are built from the stand-in maps of the rules data file (copied verbatim
into duellum_maps.json) with cities, temples, walls, units, cards and a last-turn record.
``random_view`` makes seeded varied positions for the benchmark and the robustness tests.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

MAPS_FILE = Path(__file__).with_name("duellum_maps.json")
RONDEL = ["FERRUM", "TEMPLUM", "AURUM", "DUELLUM", "MILITIA", "MARMOR", "SCIENTIA", "DUELLUM"]
TECHS = ["STRATA", "NAVIGATIO", "MONETA", "RES PUBLICA", "COMMERCIUM"]

# Short card texts (paraphrases of the stand-in deck, data file §6.3).
CARDS: dict[str, dict[str, str]] = {
    "FORTRESS": {"name": "Fortress", "text": "Play when your city is attacked: defence +1 for that conquest."},
    "EARTHQUAKE": {"name": "Earthquake", "text": "Destroy one town wall on the map; it returns to its owner."},
    "BURGLARY": {"name": "Burglary", "text": "Your opponent returns half of their coins (rounded down)."},
    "ACADEMY": {"name": "Academy", "text": "During Scientia: gain 1 gold per technology your opponent owns."},
    "RICH_HARVEST": {"name": "Rich Harvest", "text": "During a production action: +2 of the produced resource."},
    "MERCHANT_CARAVAN": {"name": "Merchant Caravan", "text": "Take 2 resources of your choice from the bank."},
    "TREASURY": {"name": "Treasury", "text": "Take 2 coins from the bank."},
    "FORCED_MARCH": {"name": "Forced March", "text": "One legion may cross one more border this Duellum."},
    "FAIR_WINDS": {"name": "Fair Winds", "text": "One galley may cross one more border this Duellum."},
    "ORACLE": {"name": "Oracle", "text": "This rondel move: 4 steps are free instead of 3."},
    "MERCENARIES": {"name": "Mercenaries", "text": "Move 1 legion from your supply to your recruitment box."},
    "SHIPWRIGHTS": {"name": "Shipwrights", "text": "Move 1 galley from your supply to your recruitment box."},
    "LEVY": {"name": "Levy", "text": "During Militia: one unit is deployed for free."},
    "MASTER_BUILDER": {"name": "Master Builder", "text": "During Templum: one temple costs 3 marble less."},
    "STONEMASONS": {"name": "Stonemasons", "text": "During Templum: one wall costs no marble."},
    "COLONISTS": {"name": "Colonists", "text": "One city founded this turn costs 1 resource less."},
    "LIBRARY": {"name": "Library", "text": "During Scientia: one technology costs 2 gold less."},
    "VETERANS": {"name": "Veterans", "text": "When declaring a conquest: defence -1 (at least 1)."},
    "PILLAGE": {"name": "Pillage", "text": "After a conquest: take 2 of the conquered city's resource."},
}

# Extra founded cities, temples, walls and units per side: (region, owner, resource, temple, wall).
_CITIES: dict[str, list[tuple[str, int, str, bool, bool]]] = {
    "A": [
        ("tarraco", 0, "gold", True, False),
        ("saguntum", 0, "iron", False, True),
        ("caesarea", 0, "gold", False, False),
        ("ancona", 1, "gold", True, True),
        ("croton", 1, "marble", False, False),
        ("syracusae", 1, "iron", True, False),
        ("carales", 1, "marble", False, False),
    ],
    "B": [
        ("oreos", 0, "iron", False, True),
        ("delphi", 0, "gold", True, False),
        ("naxos", 0, "marble", False, False),
        ("pergamon", 1, "iron", True, True),
        ("halikarnassos", 1, "gold", False, False),
        ("samos", 1, "marble", False, False),
    ],
}
_UNITS: dict[str, list[tuple[str, int, int, int]]] = {  # region, owner, legions, galleys
    "A": [
        ("tarraco", 0, 2, 1),
        ("tarraco", 1, 0, 1),
        ("carthago", 0, 1, 1),
        ("mare_sardoum", 0, 0, 2),
        ("roma", 1, 3, 1),
        ("corsica", 1, 0, 1),
        ("massilia", 1, 1, 0),
        ("numidia", 0, 2, 0),
        ("mare_ionium", 1, 0, 2),
    ],
    "B": [
        ("ainos", 0, 2, 0),
        ("ainos", 1, 0, 1),
        ("aigaion", 0, 0, 2),
        ("lemnos", 1, 0, 1),
        ("sardeis", 1, 3, 0),
        ("athenai", 0, 1, 1),
        ("ikarion", 1, 0, 2),
        ("thracia", 0, 1, 0),
    ],
}
_START_RESOURCE = {"MARBLE": "marble", "IRON": "iron", "GOLD": "gold"}


@cache
def _maps() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MAPS_FILE.read_text(encoding="utf-8"))
    return data


def map_data(side: str) -> dict[str, Any]:
    """The stand-in map of ``side`` ("A" or "B") as in the data file."""
    return copy.deepcopy(_maps()[side])


def _player(seat: int, nation: str, colour: str, viewer: int | None, hand: list[str]) -> dict[str, Any]:
    return {
        "seat": seat,
        "nation": nation,
        "colour": colour,
        "resources": {"marble": 4 + seat, "iron": 2, "gold": 6 - seat, "coins": 1 + seat},
        "recruitment_box": {"legion": 2, "galley": 1 + seat},
        "supply": {"legion": 6 - seat, "galley": 8},
        "walls_in_supply": 1 + seat,
        "techs": ["STRATA", "MONETA"] if seat == 0 else ["NAVIGATIO"],
        "personalities": {"king": 1, "scholar": 2 - seat, "general": 0, "navigator": seat, "citizen": 0},
        "vp": 3,
        "sea_points": 4 + 2 * seat,
        "rondel": "MARMOR" if seat == 0 else "DUELLUM",
        "hand": list(hand) if viewer == seat else None,
        "hand_count": len(hand),
    }


HANDS = {0: ["FORTRESS", "ORACLE"], 1: ["EARTHQUAKE"]}
EVENT_ROW = ["TREASURY", "FORCED_MARCH", "ACADEMY"]


def make_view(
    side: str = "A",
    viewer: int | None = None,
    *,
    turn: int = 9,
    changed: list[str] | None = None,
    rondel_move: dict[str, Any] | None = None,
    hands: dict[int, list[str]] | None = None,
    summary: list[str] | None = None,
) -> dict[str, Any]:
    """A mid-game view per the contract: start cities plus founded ones, units, cards, last turn."""
    m = map_data(side)
    hands = HANDS if hands is None else hands
    nations = m["nations"]
    players = [
        _player(0, nations["BROWN"], "BROWN", viewer, hands.get(0, [])),
        _player(1, nations["BEIGE"], "BEIGE", viewer, hands.get(1, [])),
    ]
    cities: dict[str, dict[str, Any]] = {}
    for seat, colour in ((0, "BROWN"), (1, "BEIGE")):
        for rid, res in m["start_cities"][colour].items():
            cities[rid] = {"owner": seat, "resource": _START_RESOURCE[res], "temple": False, "wall": False}
    for rid, owner, res, temple, wall in _CITIES[side]:
        cities[rid] = {"owner": owner, "resource": res, "temple": temple, "wall": wall}
    units: dict[str, list[dict[str, int]]] = {}
    for rid, owner, legions, galleys in _UNITS[side]:
        units.setdefault(rid, []).append({"owner": owner, "legion": legions, "galley": galleys})
    regions = [{**r, "city": cities.get(r["id"]), "units": units.get(r["id"], [])} for r in m["regions"]]
    return _assemble(m, viewer, players, regions, turn, changed, rondel_move, summary)


def _assemble(
    m: dict[str, Any],
    viewer: int | None,
    players: list[dict[str, Any]],
    regions: list[dict[str, Any]],
    turn: int,
    changed: list[str] | None,
    rondel_move: dict[str, Any] | None,
    summary: list[str] | None,
) -> dict[str, Any]:
    active = turn % 2
    mover = 1 - active
    visible = set(EVENT_ROW)
    if viewer is not None and players[viewer]["hand"]:
        visible |= set(players[viewer]["hand"])
    default_changed = [regions[3]["id"], regions[14]["id"]]
    return {
        "game": "duellum",
        "viewer": viewer,
        "map": m["map"],
        "map_side": m["side"],
        "turn": turn,
        "active": active,
        "to_move": [active],
        "phase": "rondel",
        "awaiting": f"{players[active]['nation']} to move the rondel stone",
        "over": False,
        "winner": None,
        "players": players,
        "rondel_spaces": list(RONDEL),
        "regions": regions,
        "borders": [{"a": a, "b": b, "colour": c} for a, b, c in m["borders"]],
        "event_row": list(EVENT_ROW),
        "deck_size": 17,
        "discard_size": 2,
        "bank": {
            "coins": 14,
            "temples": 8,
            "walls": 6,
            "city_tokens": {"marble": 7, "iron": 7, "gold": 5},
            "personalities": {"king": 4, "scholar": 2, "general": 4, "navigator": 1, "citizen": 4},
        },
        "cards": {cid: dict(CARDS[cid]) for cid in sorted(visible)},
        "last_turn": {
            "seat": mover,
            "regions": default_changed if changed is None else changed,
            "rondel": rondel_move if rondel_move is not None else {"seat": mover, "from": "AURUM", "to": "DUELLUM"},
            "summary": summary
            if summary is not None
            else [
                f"{players[mover]['nation']} moved to DUELLUM (free).",
                f"{players[mover]['nation']} moved 2 legions from {regions[14]['name']} to {regions[3]['name']}.",
                f"{players[mover]['nation']} conquered {regions[3]['name']} (defence 2, lost 2 legions).",
                f"{players[active]['nation']} took the event card Fortress.",
            ],
        },
    }


def random_view(side: str, seed: int, viewer: int | None = None) -> dict[str, Any]:
    """A seeded random (legal-looking) position: random cities, units, techs and rondel stones."""
    rng = random.Random(seed)
    m = map_data(side)
    view = make_view(side, viewer, turn=rng.randrange(1, 80))
    for player in view["players"]:
        player["resources"] = {k: rng.randrange(0, 15) for k in ("marble", "iron", "gold", "coins")}
        player["techs"] = sorted(rng.sample(TECHS, rng.randrange(0, 6)))
        player["rondel"] = rng.choice([*RONDEL, None])
        player["personalities"] = {k: rng.randrange(0, 3) for k in player["personalities"]}
        player["vp"] = sum(player["personalities"].values())
        player["sea_points"] = rng.randrange(0, 15)
        player["hand_count"] = len(player["hand"] or []) if player["hand"] else rng.randrange(0, 4)
    for region in view["regions"]:
        region["city"] = None
        region["units"] = []
        if region["city_site"] and rng.random() < 0.5:
            region["city"] = {
                "owner": rng.randrange(2),
                "resource": rng.choice(["marble", "iron", "gold"]),
                "temple": rng.random() < 0.3,
                "wall": rng.random() < 0.3,
            }
        for owner in (0, 1):
            if rng.random() < 0.25:
                legions = rng.randrange(0, 5) if region["kind"] != "SEA" else 0
                galleys = rng.randrange(0, 4) if region["kind"] != "LAND" else 0
                if legions or galleys:
                    region["units"].append({"owner": owner, "legion": legions, "galley": galleys})
    ids = [r["id"] for r in m["regions"]]
    view["last_turn"]["regions"] = rng.sample(ids, rng.randrange(0, 5))
    frm = rng.choice([*RONDEL, None])
    view["last_turn"]["rondel"] = {"seat": view["last_turn"]["seat"], "from": frm, "to": rng.choice(RONDEL)}
    view["event_row"] = rng.sample(sorted(CARDS), 3)
    view["cards"] = {cid: dict(CARDS[cid]) for cid in view["event_row"]}
    for player in view["players"]:
        for cid in player["hand"] or []:
            view["cards"][cid] = dict(CARDS[cid])
    return view
