"""The one track-change primitive (spec §7.2) with money, loans, Progress and station upgrades.

Why one primitive: every effect in the game — immediate, construction, activation, permanent,
Public Services icons, lakes, pass bonus — moves tracks, and the rules about track ends (the
end symbol at most once per event, §3.1/§7.3), the Labour cap by Population, the $1 floor with
automatic minimum loans (§10) and station upgrades on the Progress loop (§11) must hold for
all of them alike. :func:`apply_batch` adds the canonical POP-before-LAB order (D-20).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.capitals.data import BOARD, MAX_STATION_LEVEL, STATIONS, TILES, TRACK_WORDS, Delta
from engine.capitals.state import State
from engine.core.text import count


@dataclass(slots=True)
class Event:
    """One event scope (§7.3): a build, an activation, one player's PS icons, a lake, a pass
    bonus... End symbols fire at most once per (event, track, end). ``notes`` collects the
    public consequences worth telling (loans, upgrades, end symbols)."""

    seat: int
    fired: set[tuple[str, str]] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


def gain_word(track: str, d: int) -> str:
    """``+2 Culture``, ``-$3``, ``+1 prestige``, ``+3 energy cubes`` for event texts."""
    sign = "+" if d >= 0 else "-"
    a = abs(d)
    if track == "ECO":
        return f"{sign}${a}"
    words = {
        "POP": "Population", "LAB": "Labour", "PS": "Public Services", "PRG": "Progress",
        "CUL": "Culture",
    }
    if track in words:
        return f"{sign}{a} {words[track]}"
    if track == "PRE":
        return f"{sign}{a} prestige"
    return f"{sign}{count(a, 'energy cube')}"


def _end_symbol(s: State, ev: Event, track: str, end: str) -> None:
    """Apply the symbol printed at one end of a track, once per event."""
    key = (track, end)
    if key in ev.fired:
        return
    ev.fired.add(key)
    tdef = BOARD.tracks[track]
    symbol = tdef.top if end == "top" else tdef.bottom
    p = s.players[ev.seat]
    for what, amount in symbol.items():
        if what == "PRE":
            p.pre += amount
        elif what == "NRG":
            p.nrg += amount
    name = TRACK_WORDS[track] if track != "ECO" else "Economy"
    ev.notes.append(f"reached the {'top' if end == 'top' else 'bottom'} of {name}: "
                    f"{', '.join(gain_word(k, v) for k, v in symbol.items())}")


def loans_needed(eco: int, amount: int) -> int:
    """The fewest loans that leave at least the minimum money after paying ``amount`` (§10)."""
    floor = int(BOARD.c["min_eco_after_payment"])
    money = int(BOARD.c["loan_money"])
    short = amount + floor - eco
    return 0 if amount <= 0 or short <= 0 else -(-short // money)


def pay(s: State, ev: Event, amount: int) -> int:
    """Pay ``amount`` dollars, taking the minimum loans first (Extra Tax Action, D-31, D-14:
    prestige may go negative). Returns the number of loans."""
    if amount <= 0:
        return 0
    p = s.players[ev.seat]
    k = loans_needed(p.tracks["ECO"], amount)
    if k:
        p.tracks["ECO"] += k * int(BOARD.c["loan_money"])
        p.pre -= k * int(BOARD.c["loan_prestige"])
        p.loans += k
        ev.notes.append(f"took {count(k, 'loan')}, {gain_word('PRE', -k)}")
    p.tracks["ECO"] -= amount
    return k


def upgrade_station(s: State, ev: Event) -> None:
    """Upgrade the power station one level (§11): the best remaining station of the next
    level, its printed cubes plus every cube of the old one; then ``on station-upgrade``
    effects. At the top level nothing happens (D-16)."""
    p = s.players[ev.seat]
    nxt = p.level + 1
    if nxt > MAX_STATION_LEVEL or not s.supply.get(nxt):
        return
    new = s.supply[nxt].pop(0)
    s.spent_stations.append(p.station)
    p.station = new
    p.level = nxt
    p.nrg += STATIONS[new].cubes
    ev.notes.append(f"upgraded the power station to level {nxt}, which brought {count(STATIONS[new].cubes, 'cube')}")
    for placed in p.city.values():
        if placed.lake:
            continue
        for perm in TILES[placed.tile].perm:
            if perm.on == "station_upgrade":
                for g in perm.gain:
                    change(s, ev, g.track, g.d)


def advance_progress(s: State, ev: Event, d: int) -> None:
    """Move along the Progress loop; each time the marker reaches or passes the symbol the
    station upgrades once. Decision: a Progress loss (no known tile has one) moves back
    without undoing upgrades."""
    p = s.players[ev.seat]
    length = BOARD.prg_length
    total = p.prg + d
    crossings = total // length if d > 0 else 0
    p.prg = total % length
    p.laps += crossings
    for _ in range(crossings):
        upgrade_station(s, ev)


def change(s: State, ev: Event, track: str, d: int) -> None:
    """Apply one change to one quantity (spec §7.2). Money losses are payments (loans)."""
    if d == 0:
        return
    p = s.players[ev.seat]
    if track == "PRE":
        p.pre += d
        return
    if track == "NRG":
        p.nrg = max(0, p.nrg + d)
        return
    if track == "ECO" and d < 0:
        pay(s, ev, -d)
        return
    if track == "PRG":
        advance_progress(s, ev, d)
        return
    tdef = BOARD.tracks[track]
    level = p.tracks[track]
    target = level + d
    if track == "LAB":
        target = min(target, p.tracks["POP"])  # the excess is lost, no end symbol
    if target > tdef.max:
        target = tdef.max
        _end_symbol(s, ev, track, "top")
    elif target < tdef.min:
        target = tdef.min
        _end_symbol(s, ev, track, "bottom")
    p.tracks[track] = target
    if track == "POP" and p.tracks["LAB"] > target:
        p.tracks["LAB"] = target


def batch_order(items: Iterable[Delta]) -> list[Delta]:
    """POP changes first, then LAB, then the rest in step order (§7.2, D-20)."""
    xs = list(items)
    return ([x for x in xs if x.track == "POP"] + [x for x in xs if x.track == "LAB"]
            + [x for x in xs if x.track not in ("POP", "LAB")])


def apply_batch(s: State, ev: Event, items: Iterable[Delta]) -> None:
    """Apply every change of one build or activation in the canonical order."""
    for x in batch_order(items):
        change(s, ev, x.track, x.d)


def can_afford_cost(s: State, seat: int, cost: Iterable[Delta]) -> bool:
    """Whether an exchange cost can be paid in full (D-21): non-money tracks may not pass
    their start end; money may always be raised with loans."""
    p = s.players[seat]
    for c in cost:
        if c.track in ("ECO", "PRE", "NRG"):
            continue
        if c.track == "PRG":
            return False
        if p.tracks[c.track] + c.d < BOARD.tracks[c.track].min:
            return False
    return True


def summary(before: dict[str, int], after: dict[str, int]) -> str:
    """``+2 Population, -1 Public Services`` from two snapshots (for event texts)."""
    parts = []
    for k in ("POP", "LAB", "PS", "PRG", "ECO", "CUL", "PRE", "NRG"):
        d = after[k] - before[k]
        if d:
            parts.append(gain_word(k, d))
    return ", ".join(parts)


def snapshot(s: State, seat: int) -> dict[str, int]:
    """The quantities :func:`summary` compares (Progress counted in whole spaces moved)."""
    p = s.players[seat]
    return {**p.tracks, "PRG": p.prg + BOARD.prg_length * p.laps, "PRE": p.pre, "NRG": p.nrg}
