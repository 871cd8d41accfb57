"""Final scoring by category, the winner and the tie-break (A15, B4.5, B10, B13.8).

Why per-category dicts: the score pad has rows (military, treasury, wonder, civilian,
commercial, guilds, science, and a Cities row for black cards), players want to see them,
and tests check each row; the total is their sum.
"""

from __future__ import annotations

from typing import Any

from engine.core.api import Outcome
from engine.seven_wonders.cards import count_in, count_scope, scope_cities
from engine.seven_wonders.data import CARDS, Card
from engine.seven_wonders.science import city_science
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import built_stages, city_name, copies_guild

CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "cities")
COLOUR_ROW = {"blue": "civilian", "yellow": "commercial", "purple": "guilds", "black": "cities"}


def card_vp(state: State, idx: int, c: Card, copied: bool = False) -> int:
    """End-of-game VP of one card as if it stood in city ``idx``.

    ``copied`` is Olympia B's copy (A12.9): the guild is scored as if it were in the city.
    Decision: a copied guild that counts the city's purple cards (Shipowners Guild) counts
    itself too, as it would if it stood there. Decision D-22: a copied Cities guild gives
    only its end-of-game VP (Counterfeiters' Guild: 5 VP, no coin loss).
    """
    vp = c.vp
    for e in c.effects:
        if e.type == "vp_per":
            n = count_scope(state, idx, e.count, e.scope)
            if copied and "purple" in e.count and e.scope in ("own", "all"):
                n += 1
            vp += e.n * n
    return vp


def treasury(state: State, idx: int) -> int:
    """coins // 3 minus debt tokens (B4.5); may be negative."""
    city = state.cities[idx]
    return city.coins // 3 - city.debt


def best_guild_copy(state: State, idx: int) -> tuple[str, int, int]:
    """Olympia B: the neighbours' guild worth most to copy, its guild VP and science gain."""
    base_science = city_science(state, idx)
    best = ("", 0, 0)
    for n in scope_cities(state, idx, "neighbours"):
        for cid in state.cities[n].built:
            c = CARDS[cid]
            if c.color != "purple":
                continue
            vp = card_vp(state, idx, c, copied=True)
            gain = city_science(state, idx, extra_wilds=1) - base_science if c.wild else 0
            if not best[0] or vp + gain > best[1] + best[2]:
                best = (cid, vp, gain)
    return best


def score_city(state: State, idx: int) -> dict[str, Any]:
    """Every row of the score pad for one city, the total, and the guild copied (if any)."""
    city = state.cities[idx]
    rows = dict.fromkeys(CATEGORIES, 0)
    rows["military"] = sum(city.tokens)
    rows["treasury"] = treasury(state, idx)
    rows["wonder"] = sum(st.vp for st in built_stages(city))
    for cid in city.built:
        c = CARDS[cid]
        row = COLOUR_ROW.get(c.color)
        if row is not None:
            rows[row] += card_vp(state, idx, c)
    rows["science"] = city_science(state, idx)
    copied = ""
    if copies_guild(city):
        copied, vp, gain = best_guild_copy(state, idx)
        rows["guilds"] += vp
        rows["science"] += gain
    out: dict[str, Any] = dict(rows)
    out["total"] = sum(rows.values())
    out["coins"] = city.coins
    out["debt"] = city.debt
    out["victory_tokens"] = count_in(city, "victory_tokens")
    out["copied_guild"] = copied
    return out


def outcome(state: State) -> Outcome:
    """Scores, ranking (tie-break on coins, A15.2; teams on team totals, D-18) and details.

    Decision D-19: the tie-break compares coins held; debt is already in the VP total.
    Decision D-26: the Free City is scored (details) but is never ranked.
    """
    sheets = [score_city(state, c) for c in range(state.n)]
    players = range(state.players)
    scores = {s: int(sheets[s]["total"]) for s in players}
    details: dict[str, Any] = {
        "categories": list(CATEGORIES),
        "cities": [{"city": c, "name": city_name(state, c), **sheets[c]} for c in range(state.n)],
    }
    if state.teams:
        teams = sorted({state.team(s) for s in players})
        team_total = {t: sum(scores[s] for s in players if state.team(s) == t) for t in teams}
        team_coins = {t: sum(state.cities[s].coins for s in players if state.team(s) == t) for t in teams}
        order = sorted(teams, key=lambda t: (-team_total[t], -team_coins[t], t))
        tiers: list[list[int]] = []
        last: tuple[int, int] | None = None
        for t in order:
            key = (team_total[t], team_coins[t])
            members = [s for s in players if state.team(s) == t]
            if key == last:
                tiers[-1].extend(members)
            else:
                tiers.append(members)
            last = key
        details["teams"] = [
            {
                "team": t,
                "seats": [s for s in players if state.team(s) == t],
                "total": team_total[t],
                "coins": team_coins[t],
            }
            for t in teams
        ]
        best = tiers[0]
        names = " & ".join(city_name(state, s) for s in best)
        reason = f"Team {names} wins with {team_total[state.team(best[0])]} VP."
        if len(best) > 2:
            reason = f"Teams share the victory with {team_total[state.team(best[0])]} VP."
        return Outcome(scores, tuple(tuple(t) for t in tiers), reason, details)
    order = sorted(players, key=lambda s: (-scores[s], -state.cities[s].coins, s))
    tiers = []
    last = None
    for s in order:
        key = (scores[s], state.cities[s].coins)
        if key == last:
            tiers[-1].append(s)
        else:
            tiers.append([s])
        last = key
    best = tiers[0]
    if len(best) == 1:
        reason = f"{city_name(state, best[0])} wins with {scores[best[0]]} VP."
        tied = [s for s in players if scores[s] == scores[best[0]] and s != best[0]]
        if tied:
            reason = reason[:-1] + f" (tie-break: more coins than {', '.join(city_name(state, s) for s in tied)})."
    else:
        reason = f"{' and '.join(city_name(state, s) for s in best)} share the victory with {scores[best[0]]} VP."
    return Outcome(scores, tuple(tuple(t) for t in tiers), reason, details)
