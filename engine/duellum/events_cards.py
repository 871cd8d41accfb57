"""Event cards (§12, data file §6): the deck and face-up row, owed picks, and playing cards.

Why effects dispatch on the data's ``effect.type`` and ``timing`` rather than on card names:
the deck is a stand-in, so a replacement deck that reuses these effect types (with other values
or copy counts) works without code changes. A card may only be played when its effect would
change the game (data §6.2); otherwise the play is rejected and the card stays in hand.

Owed picks (§17.2): a pick owed to the non-active player may wait until just before that
player's next rondel move (the row only changes through that player's own picks, so waiting
changes nothing) — except when the draw pile holds fewer cards than the picks owed, because a
reshuffle would then mix in cards discarded later; the pick is then required at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

from engine.core.text import count
from engine.duellum.actions import Found, Pick, PlayCard, card_name
from engine.duellum.data import CARDS, COIN, FACE_UP_ROW, RES_WORDS, RULES, TECH_ORDER, UNIT_TYPES, CardDef
from engine.duellum.duellum import boosts_at, fresh
from engine.duellum.founding import base_cost, discount_key, has_unit
from engine.duellum.founding import check as check_found
from engine.duellum.log import Log
from engine.duellum.militia import limit as deploy_limit
from engine.duellum.militia import special_type
from engine.duellum.payment import gain_coins
from engine.duellum.production import produced_resource
from engine.duellum.scientia import TECH_DISCOUNT, check_buy
from engine.duellum.state import (
    PHASE_ACTION,
    PHASE_CONQUER,
    PHASE_FORTRESS,
    PHASE_FOUNDING,
    PHASE_MOVE,
    PHASE_RONDEL,
    SPECIAL_BOX,
    State,
)
from engine.duellum.templum import FREE_WALL, TEMPLE_DISCOUNT, check_temple

OWN_PHASES = (PHASE_RONDEL, PHASE_ACTION, PHASE_MOVE, PHASE_CONQUER, PHASE_FOUNDING)


# ------------------------------------------------------------- deck and row
def _reshuffle(state: State, log: Log) -> None:
    state.draw = state.discard
    state.discard = []
    state.rng.shuffle(state.draw)
    log.say(f"The discard pile ({len(state.draw)} cards) is shuffled into a new draw pile.", "cards")


def reveal(state: State, log: Log) -> str | None:
    """Turn up the top card of the draw pile (reshuffling the discards if needed); ``None`` if none."""
    if not state.draw and state.discard:
        _reshuffle(state, log)
    if not state.draw:
        return None
    return state.draw.pop()


def top_up(state: State, log: Log) -> None:
    """Fill gaps in the face-up row (only left after the deck ran out completely).

    Decision: gaps left because draw and discard pile were both empty are filled as soon as a
    pick is owed again (reshuffling cards discarded since), so the owed player chooses from a
    full row whenever cards exist (D-32 only voids a pick when no card exists at all).
    """
    new = []
    while len(state.row) < FACE_UP_ROW:
        card = reveal(state, log)
        if card is None:
            break
        state.row.append(card)
        new.append(card_name(card))
    if new:
        log.say(f"Revealed in the row: {', '.join(new)}.", "cards")


def owe(state: State, seat: int, n: int, why: str, log: Log) -> None:
    """Record ``n`` picks owed to ``seat`` (lost when the row is empty, D-32)."""
    if n <= 0:
        return
    top_up(state, log)
    if not state.row:
        log.say(f"The {log.nation(seat)} would take {count(n, 'event card')} ({why}), but the row is empty.", "cards")
        return
    state.players[seat].owed += n
    log.say(f"The {log.nation(seat)} take {count(n, 'event card')} from the row ({why}).", "cards")


def picks_forced(state: State) -> bool:
    """Whether owed picks must be taken now (the draw pile is shorter than the picks owed)."""
    owed = state.players[0].owed + state.players[1].owed
    return owed > 0 and len(state.draw) < owed


def pick_options(state: State, seat: int) -> Iterator[Pick]:
    """The distinct cards ``seat`` may take (when owed a pick)."""
    if state.players[seat].owed <= 0:
        return
    seen: set[str] = set()
    for c in state.row:
        if c not in seen:
            seen.add(c)
            yield Pick(c)


def check_pick(state: State, seat: int, a: Pick) -> str | None:
    """Why the pick is illegal, or ``None``."""
    if state.players[seat].owed <= 0:
        return "You are not owed an event card now."
    if a.card not in state.row:
        return f"{card_name(a.card)} is not in the face-up row ({', '.join(card_name(c) for c in state.row)})."
    return None


def apply_pick(state: State, seat: int, a: Pick, log: Log) -> None:
    """Take the card and refill its place from the draw pile."""
    p = state.players[seat]
    i = state.row.index(a.card)
    del state.row[i]
    p.hand.append(a.card)
    p.owed -= 1
    log.say(f"The {log.nation(seat)} take a card from the row.", "cards")
    log.tell(seat, f"You take {card_name(a.card)}: {CARDS[a.card].text}", "cards", card=a.card)
    # Decision: the new card takes the gap's place in the row (the order is cosmetic).
    new = reveal(state, log)
    if new is not None:
        state.row.insert(i, new)
        log.say(f"{card_name(new)} is revealed in the row.", "cards")
    if p.owed and not state.row:
        lost = f"{count(p.owed, 'remaining pick')} {'is' if p.owed == 1 else 'are'} lost"
        log.say(f"The row is empty: the {log.nation(seat)}' {lost}.", "cards")
        p.owed = 0


# ------------------------------------------------------------ card windows
def own_free(state: State, seat: int) -> bool:
    """Whether ``seat`` may act freely in its own turn now (between two atomic steps)."""
    return (
        seat == state.active and state.phase in OWN_PHASES and not state.coin_choice and state.players[seat].owed == 0
    )


def in_window(state: State, seat: int, card: CardDef) -> bool:
    """Whether the card's timing allows playing it now."""
    timing = card.timing
    if timing == "REACTION_CONQUEST":
        pend = state.pending
        return (
            state.phase == PHASE_FORTRESS
            and seat == 1 - state.active
            and pend is not None
            and pend.fortress == 0
            and state.config.fortress_policy == "ASK"
        )
    if timing == "CONQUEST_DECLARE" or not own_free(state, seat):
        return False
    if timing == "ANY_OWN":
        return True
    if timing == "RONDEL":
        return state.phase == PHASE_RONDEL and state.players[seat].stone >= 0
    if timing == "FOUNDING":
        return state.phase == PHASE_FOUNDING
    if timing == "ACTION:DUELLUM:MOVE":
        return state.phase == PHASE_MOVE
    if timing == "ACTION:DUELLUM:AFTER_CONQUEST":
        return state.phase == PHASE_CONQUER and bool(state.conquered)
    if timing.startswith("ACTION:"):
        names = timing.split(":", 1)[1].split(",")
        if state.action < 0 or RULES.rondel[state.action] not in names:
            return False
        if state.phase == PHASE_ACTION:
            return True
        return state.phase in (PHASE_MOVE, PHASE_CONQUER)
    return False


def _choices(card: CardDef, state: State, seat: int) -> Iterator[PlayCard]:
    """Every argument combination of a card (before the 'effect can apply' test)."""
    kind = card.kind
    cid = card.id
    if kind in ("destroy_wall",):
        for r in range(state.map.size):
            if state.wall[r]:
                yield PlayCard(cid, region=r)
    elif kind == "gain_resources_choice":
        for combo in combinations_with_replacement(range(3), card.value):
            yield PlayCard(cid, res=tuple(combo))
    elif kind == "gain_coins":
        lack = max(0, card.value - state.bank_coins)
        for combo in combinations_with_replacement(range(3), lack):
            yield PlayCard(cid, res=tuple(combo))
    elif kind == "unit_range_bonus":
        # Decision: the card names a regular legion/galley (its text says "one of your legions"),
        # never the variant's special unit.
        t = UNIT_TYPES.index(str(card.effect["unit"]))
        for r in range(state.map.size):
            if state.units[seat][t][r]:
                yield PlayCard(cid, region=r)
                yield PlayCard(cid, region=r, stack=True)
    elif kind == "found_base_discount":
        for k in range(3):
            yield PlayCard(cid, res=(k,))
    elif kind == "gain_conquered_city_resource":
        for r in dict.fromkeys(state.conquered):
            yield PlayCard(cid, region=r)
    else:
        yield PlayCard(cid)


def effect_reason(state: State, seat: int, a: PlayCard) -> str | None:
    """Why this card play would not change the game (or has bad choices), or ``None``."""
    card = CARDS[a.card]
    kind = card.kind
    m = state.map
    opp = state.players[1 - seat]
    me = state.players[seat]
    name = card.name
    if kind == "conquest_defence_delta":
        return None
    if kind == "destroy_wall":
        if not any(state.wall):
            return f"{name} needs a town wall on the map; there is none."
        if not 0 <= a.region < m.size or not state.wall[a.region]:
            return f"Name a city with a wall for {name}."
        return None
    if kind == "opponent_lose_coins":
        need = int(card.effect.get("min_opponent_coins", 2))
        if opp.res[COIN] < need:
            return f"{name} needs your opponent to hold at least {need} coins; they hold {opp.res[COIN]}."
        return None
    if kind == "gain_gold_per_opponent_tech":
        if not opp.techs:
            return f"{name} needs your opponent to own at least one technology."
        return None
    if kind == "production_bonus":
        return None if produced_resource(state) >= 0 else f"{name} is played during a production action."
    if kind == "gain_resources_choice":
        if len(a.res) != card.value or any(not 0 <= k < 3 for k in a.res) or list(a.res) != sorted(a.res):
            return f"Name {card.value} resources for {name}, e.g. `play {name} marble iron`."
        return None
    if kind == "gain_coins":
        lack = max(0, card.value - state.bank_coins)
        if len(a.res) != lack or list(a.res) != sorted(a.res) or any(not 0 <= k < 3 for k in a.res):
            if lack:
                return f"The bank lacks {count(lack, 'coin')}: name {count(lack, 'resource')} to take instead."
            return f"The bank has the coins; play {name} without naming resources."
        return None
    if kind == "unit_range_bonus":
        t = UNIT_TYPES.index(str(card.effect["unit"]))
        word = UNIT_TYPES[t].lower()
        if not 0 <= a.region < m.size:
            return f"Name the region of the {word} for {name}."
        bs = boosts_at(state, t, a.region)
        if a.stack:
            if not bs:
                return f"No {word} in {m.names[a.region]} has a bonus to add to."
            return None
        if fresh(state, seat, t, a.region) - len(bs) <= 0:
            return f"You have no unmoved {word} without a bonus in {m.names[a.region]}."
        return None
    if kind == "rondel_free_steps_bonus":
        return None
    if kind == "free_recruit":
        t = UNIT_TYPES.index(str(card.effect["unit"]))
        if me.supply[t] <= 0:
            return f"Your personal supply has no {UNIT_TYPES[t].lower()}."
        return None
    if kind == "free_deploy":
        special = state.config.special_units and state.special_deployable[seat] and me.special == SPECIAL_BOX
        for r, o in enumerate(state.owner):
            if o == seat and deploy_limit(state, r) > 0:
                for t in (0, 1):
                    if state.deployable[t] > 0 and m.accepts[t][r]:
                        return None
                if special and state.temple[r] and m.accepts[special_type(seat)][r]:
                    return None
        return f"{name} needs a unit you could deploy in this action."
    if kind == "temple_marble_discount":
        d = state.mods.get(TEMPLE_DISCOUNT, 0) + card.value
        if any(o == seat and check_temple(state, seat, r, d) is None for r, o in enumerate(state.owner)):
            return None
        return f"{name} needs a temple you could build in this action."
    if kind == "free_wall":
        if me.walls > 0 and any(o == seat and not state.wall[r] for r, o in enumerate(state.owner)):
            return None
        return f"{name} needs a wall in your supply and a city without a wall."
    if kind == "found_base_discount":
        if len(a.res) != 1 or not 0 <= a.res[0] < 3:
            return f"Name the resource {name} saves: marble, iron or gold."
        cost = list(base_cost(state))
        cost[a.res[0]] = max(0, cost[a.res[0]] - card.value)
        for r in range(m.size):
            if not m.site[r] or state.owner[r] >= 0 or not has_unit(state, seat, r):
                continue
            for k in range(3):
                if check_found(state, seat, Found(r, k), (cost[0], cost[1], cost[2])) is None:
                    return None
        return f"{name} needs a city you could found now."
    if kind == "tech_discount":
        d = state.mods.get(TECH_DISCOUNT, 0) + card.value
        if any(check_buy(state, seat, t, d) is None for t in TECH_ORDER):
            return None
        return f"{name} needs a technology you could buy in this action."
    if kind == "gain_conquered_city_resource":
        if not state.conquered:
            return f"{name} needs a city you conquered this turn."
        if a.region not in state.conquered:
            return f"Name a city you conquered this turn for {name}."
        return None
    return f"{name} cannot be played."


def check_play(state: State, seat: int, a: PlayCard) -> str | None:
    """Why the card play is illegal, or ``None`` (never reveals the opponent's hand)."""
    card = CARDS.get(a.card)
    if card is None:
        return f"There is no event card called {a.card}."
    if a.card not in state.players[seat].hand:
        return f"You do not hold {card.name}."
    if not in_window(state, seat, card):
        return f"{card.name} cannot be played now ({_timing_text(card.timing)})."
    reason = effect_reason(state, seat, a)
    if reason is None and a not in set(_choices(card, state, seat)):
        return f"{card.name} does not take these choices."
    return reason


def _timing_text(timing: str) -> str:
    if timing == "ANY_OWN":
        return "only between steps of your own turn"
    if timing == "RONDEL":
        return "only before you move your stone, not on your first turn"
    if timing == "FOUNDING":
        return "only in your founding step"
    if timing == "CONQUEST_DECLARE":
        return "only together with a conquest: `conquer <city> with <card>`"
    if timing == "REACTION_CONQUEST":
        return "only when your opponent declares the conquest of one of your cities"
    if timing == "ACTION:DUELLUM:MOVE":
        return "only during your DUELLUM movement"
    if timing == "ACTION:DUELLUM:AFTER_CONQUEST":
        return "only in your DUELLUM conquest step after a successful conquest"
    return "only during your " + " / ".join(timing.split(":", 1)[1].split(",")) + " action"


def play_options(state: State, seat: int) -> Iterator[PlayCard]:
    """Every legal card play of ``seat`` now."""
    hand = state.players[seat].hand
    if not hand:
        return
    for cid in dict.fromkeys(hand):
        card = CARDS[cid]
        if card.timing == "CONQUEST_DECLARE" or not in_window(state, seat, card):
            continue
        for a in _choices(card, state, seat):
            if effect_reason(state, seat, a) is None:
                yield a


def apply_play(state: State, seat: int, a: PlayCard, log: Log) -> None:
    """Discard the card and carry out its effect (the Fortress is resolved by the caller)."""
    card = CARDS[a.card]
    p = state.players[seat]
    p.hand.remove(a.card)
    state.discard.append(a.card)
    who = log.nation(seat)
    m = state.map
    kind = card.kind
    v = card.value
    head = f"{who} play {card.name}"
    if kind == "conquest_defence_delta":
        pend = state.pending
        assert pend is not None
        pend.fortress += v
        log.say(f"{head}: the defence of {m.names[pend.region]} is {v:+d} for this conquest.", "cards", [pend.region])
    elif kind == "destroy_wall":
        owner = state.owner[a.region]
        state.wall[a.region] = False
        state.players[owner].walls += 1
        log.say(
            f"{head}: the wall of {m.names[a.region]} is destroyed and returns to the {m.nations[owner]}.",
            "cards",
            [a.region],
        )
    elif kind == "opponent_lose_coins":
        opp = state.players[1 - seat]
        lose = opp.res[COIN] // 2
        opp.res[COIN] -= lose
        state.bank_coins += lose
        log.say(f"{head}: the {m.nations[1 - seat]} return {count(lose, 'coin')} to the bank.", "cards")
    elif kind == "gain_gold_per_opponent_tech":
        n = v * len(state.players[1 - seat].techs)
        p.res[2] += n
        log.say(f"{head}: +{n} gold.", "cards")
    elif kind == "production_bonus":
        r = produced_resource(state)
        p.res[r] += v
        log.say(f"{head}: +{v} {RES_WORDS[r]}.", "cards")
    elif kind == "gain_resources_choice":
        for k in a.res:
            p.res[k] += 1
        log.say(f"{head}: +{', '.join(RES_WORDS[k] for k in a.res)}.", "cards")
    elif kind == "gain_coins":
        lack = gain_coins(state, seat, v)
        for k in a.res[:lack]:
            p.res[k] += 1
        extra = f" and {', '.join(RES_WORDS[k] for k in a.res)} instead of missing coins" if a.res else ""
        log.say(f"{head}: +{count(v - lack, 'coin')}{extra}.", "cards")
    elif kind == "unit_range_bonus":
        t = UNIT_TYPES.index(str(card.effect["unit"]))
        if a.stack:
            i = next(i for i, (bt, r, x) in enumerate(state.boosts) if bt == t and r == a.region)
            bt, r, x = state.boosts[i]
            state.boosts[i] = (bt, r, x + v)
        else:
            state.boosts.append((t, a.region, v))
        log.say(
            f"{head}: a {UNIT_TYPES[t].lower()} in {m.names[a.region]} may cross {count(v, 'more border')}.",
            "cards",
            [a.region],
        )
    elif kind == "rondel_free_steps_bonus":
        state.mods[kind] = state.mods.get(kind, 0) + v
        log.say(f"{head}: {RULES.free_steps + state.mods[kind]} rondel steps are free this turn.", "cards")
    elif kind == "free_recruit":
        t = UNIT_TYPES.index(str(card.effect["unit"]))
        n = min(v, p.supply[t])
        p.supply[t] -= n
        p.box[t] += n
        moves = "moves" if n == 1 else "move"
        log.say(f"{head}: {count(n, UNIT_TYPES[t].lower())} {moves} into their recruitment box.", "cards")
    elif kind in ("free_deploy", TEMPLE_DISCOUNT, FREE_WALL, TECH_DISCOUNT):
        # Decision: action-modifying cards (Levy, Master Builder, Stonemasons, Library, Colonists)
        # are played first and apply to the next unit / temple / wall / technology / city of this
        # turn; they may only be played when such a purchase is possible now (data §6.2).
        state.mods[kind] = state.mods.get(kind, 0) + v
        log.say(f"{head}.", "cards")
    elif kind == "found_base_discount":
        key = discount_key(a.res[0])
        state.mods[key] = state.mods.get(key, 0) + v
        log.say(f"{head}: the next city costs {v} {RES_WORDS[a.res[0]]} less.", "cards")
    elif kind == "gain_conquered_city_resource":
        r = state.cres[a.region]
        p.res[r] += v
        log.say(f"{head}: +{v} {RES_WORDS[r]} from {m.names[a.region]}.", "cards", [a.region])
