"""The turn state machine (§5, §17.2): rondel → action → founding → personalities → next turn,
with the Fortress reaction, owed card picks and free actions (cards, trades) in between.

Why one dispatcher: ``legal_actions``, ``is_legal``/``illegal_reason`` and ``apply`` must agree
exactly, so all three go through the same gate (whose decision is awaited, which kind of action
that decision allows) before the rule modules check the details.

Steps that have nothing to decide when they begin are skipped automatically: when a step is
entered and its only legal actions are ``done``/``end turn``, the engine finishes it itself, so a
plain production turn is one chat message. A step is never closed behind the player's back once
they have acted in it: ``done`` always means the step they are looking at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.duellum import commercium, duellum, events_cards, founding, militia, production, rondel, scientia, templum
from engine.duellum.actions import (
    Action,
    BuildTemple,
    BuildWall,
    BuyTech,
    Conquer,
    Deploy,
    Done,
    EndTurn,
    Found,
    Losses,
    Move,
    Pass,
    Pick,
    PlayCard,
    Recruit,
    RondelMove,
    TakeResource,
    Trade,
    well_formed,
)
from engine.duellum.data import CARDS, RULES
from engine.duellum.log import Log
from engine.duellum.personalities import award
from engine.duellum.state import (
    PHASE_ACTION,
    PHASE_CONQUER,
    PHASE_FORTRESS,
    PHASE_FOUNDING,
    PHASE_LOSSES,
    PHASE_MOVE,
    PHASE_OVER,
    PHASE_RONDEL,
    SPECIAL_BOX,
    State,
    TurnRecord,
)

STEP_PHASES = (PHASE_ACTION, PHASE_MOVE, PHASE_CONQUER, PHASE_FOUNDING)


# ---------------------------------------------------------------- turn flow
def start_turn(state: State, seat: int) -> None:
    """Begin ``seat``'s turn: snapshot the recruitment box and clear the per-turn counters."""
    state.active = seat
    state.phase = PHASE_RONDEL
    state.action = -1
    state.coin_choice = False
    p = state.players[seat]
    state.deployable = p.box[:]
    state.special_deployable = [False, False]
    state.special_deployable[seat] = p.special == SPECIAL_BOX
    state.deployed = {}
    state.moved = [{}, {}]
    state.special_moved = False
    state.boosts = []
    state.saved = []
    state.conquered = []
    state.declared = 0
    state.temples_destroyed = 0
    state.scholars = 0
    state.lost_city = [False, False]
    state.mods = {}
    state.pending = None
    if state.record.summary:
        state.prev_record = state.record
    state.record = TurnRecord(seat=seat)


def begin_action(state: State, seat: int, log: Log) -> None:
    """Start the action of the space the stone just reached."""
    name = RULES.rondel[state.action]
    res = production.PRODUCES.get(name)
    if res is not None:
        state.phase = PHASE_ACTION
        production.produce(state, seat, res, log)
    elif name == "DUELLUM":
        state.phase = PHASE_MOVE
    else:
        state.phase = PHASE_ACTION


def finish_step(state: State, log: Log) -> None:
    """``done``: close the current step and move to the next one."""
    seat = state.active
    if state.phase == PHASE_ACTION:
        state.phase = PHASE_FOUNDING
    elif state.phase == PHASE_MOVE:
        state.boosts = []
        state.phase = PHASE_CONQUER
    elif state.phase == PHASE_CONQUER:
        state.phase = PHASE_FOUNDING
        if state.lost_city[1 - seat]:
            # D-11: one card per turn for losing cities, after the whole conquest step.
            events_cards.owe(state, 1 - seat, 1, "lost a city", log)
    elif state.phase == PHASE_FOUNDING:
        end_turn(state, log)


def end_turn(state: State, log: Log) -> None:
    """Personalities, walls, victory check (owed picks are void on victory, D-36), next turn."""
    seat = state.active
    gains = award(state, log)
    for s in (0, 1):
        if state.players[s].vp >= RULES.win:
            state.winner = s
            state.phase = PHASE_OVER
            log.say(f"The {log.nation(s)} reach {state.players[s].vp} personalities and win the game!", "victory")
            return
    for s in (seat, 1 - seat):
        if gains[s]:
            events_cards.owe(state, 1 - s, gains[s], f"the {log.nation(s)} gained personalities", log)
    state.turn += 1
    start_turn(state, 1 - seat)


def advance(state: State, log: Log) -> None:
    """Skip freshly entered steps while nothing but ``done``/``end turn`` is possible in them.

    Decision: this is only a shortcut for chat (the player could not do anything in such a
    step); a step the player has acted in is never closed automatically.
    """
    while (
        state.phase in STEP_PHASES
        and not state.coin_choice
        and state.players[state.active].owed == 0
        and not events_cards.picks_forced(state)
    ):
        if next(_choices(state, state.active), None) is not None:
            return
        finish_step(state, log)


# ------------------------------------------------------------ who decides
def to_move(state: State) -> frozenset[int]:
    """Seats awaited now: the defender for a Fortress, forced pickers, else the active player
    (and the opponent too while it has picks it may take early)."""
    if state.phase == PHASE_OVER:
        return frozenset()
    if state.phase == PHASE_FORTRESS:
        return frozenset([1 - state.active])
    owed = [p.owed for p in state.players]
    if events_cards.picks_forced(state):
        return frozenset(s for s in (0, 1) if owed[s] > 0)
    active = state.active
    if owed[active] > 0 or owed[1 - active] == 0:
        return frozenset([active])
    # Decision (§17.2): the opponent may take owed cards at once or wait until just before its
    # next rondel move; both seats are awaited meanwhile.
    return frozenset([active, 1 - active])


def _choices(state: State, seat: int) -> Iterator[Action]:
    """Options of the active player's current step other than finishing it."""
    phase = state.phase
    if phase == PHASE_ACTION:
        name = RULES.rondel[state.action]
        if name == "TEMPLUM":
            yield from templum.options(state, seat)
        elif name == "MILITIA":
            yield from militia.options(state, seat)
        elif name == "SCIENTIA":
            yield from scientia.options(state, seat)
    elif phase == PHASE_MOVE:
        yield from duellum.move_options(state, seat)
    elif phase == PHASE_CONQUER:
        yield from duellum.conquer_options(state, seat)
    elif phase == PHASE_FOUNDING:
        yield from founding.options(state, seat)
    yield from events_cards.play_options(state, seat)
    yield from commercium.options(state, seat)


def is_variant(state: State, seat: int, a: Action) -> bool:
    """Whether ``a`` is another way to do a listed move: an explicit payment of a cost (the
    plain form pays chips first), a rondel move paid otherwise than usual, or a trade that a
    plain trade makes pointless. Variants are listed after every plain move."""
    return _variant_test(state, seat)(a)


_PAID_TYPES = (BuildTemple, BuildWall, Deploy, BuyTech, Recruit, Found)


def _variant_test(state: State, seat: int) -> Callable[[Action], bool]:
    """:func:`is_variant` for every action of one list: what depends on the seat (its chips,
    whether it may trade) is looked up once, not once per action.

    Why: sorting a list of moves asks it for every action, hundreds in a rondel step with
    COMMERCIUM; the action classes have no subclasses, so the exact type decides."""
    res = state.players[seat].res
    marble, iron, gold = res[0], res[1], res[2]
    trades_hidden = commercium.variants_possible(state, seat)

    def test(a: Action) -> bool:
        if type(a) is RondelMove:
            return a.pay != rondel.usual_of(marble, iron, gold, sum(a.pay))
        if type(a) is Trade:
            return trades_hidden and commercium.hides(a)
        if isinstance(a, _PAID_TYPES):
            return a.pay is not None
        return False

    return test


def legal(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` in a fixed order (cached on the state; a fresh list)."""
    cached = state.legal_cache.get(seat)
    if cached is None:
        acts = _legal(state, seat)
        # Plain moves first, in the rules' order; variants (other payments) after them.
        cached = state.legal_cache[seat] = sorted(acts, key=_variant_test(state, seat))
    return list(cached)


def _legal(state: State, seat: int) -> list[Action]:
    if seat not in to_move(state):
        return []
    p = state.players[seat]
    if p.owed > 0:
        return list(events_cards.pick_options(state, seat))
    if state.phase == PHASE_FORTRESS:
        return [*events_cards.play_options(state, seat), Pass()]
    if seat != state.active:
        return []
    if state.phase == PHASE_LOSSES:
        return list(duellum.losses_options(state, seat))
    if state.coin_choice:
        return list(production.options(state))
    if state.phase == PHASE_RONDEL:
        out: list[Action] = list(rondel.options(state, seat))
        out += events_cards.play_options(state, seat)
        out += commercium.options(state, seat)
        return out
    out = list(_choices(state, seat))
    out.append(Done())
    if state.phase != PHASE_FOUNDING:
        out.append(EndTurn())
    return out


def check(state: State, seat: int, a: Action) -> str | None:
    """Why ``a`` is illegal for ``seat`` now, or ``None`` (turn order is checked by the caller)."""
    if state.phase == PHASE_OVER:
        return "The game is over."
    if not well_formed(state.map, a):
        return "That is not an Antike Duellum move. Type `moves` to see yours."
    if seat not in to_move(state):
        return "It is not your turn."
    p = state.players[seat]
    if p.owed > 0:
        if isinstance(a, Pick):
            return events_cards.check_pick(state, seat, a)
        return f"First take your owed event card{'s' if p.owed > 1 else ''} from the row: `take <card>`."
    if isinstance(a, Pick):
        return "You are not owed an event card now."
    if state.phase == PHASE_FORTRESS:
        if isinstance(a, Pass):
            return None
        if isinstance(a, PlayCard):
            return events_cards.check_play(state, seat, a)
        return "Your opponent has declared a conquest: `play fortress` or `pass`."
    if seat != state.active:
        return "It is not your turn; you may only take owed event cards."
    if state.phase == PHASE_LOSSES:
        if isinstance(a, Losses):
            return duellum.check_losses(state, seat, a)
        return "Choose which units the conquest costs first, e.g. `lose 2 legions`."
    if isinstance(a, Losses):
        return "There are no conquest losses to choose now."
    if state.coin_choice:
        if isinstance(a, TakeResource):
            return production.check(state, a)
        return "The bank has no coin for you: first choose a chip instead, e.g. `take iron`."
    if isinstance(a, TakeResource):
        return production.check(state, a)
    if isinstance(a, Pass):
        return "There is no conquest to answer."
    if isinstance(a, PlayCard):
        return events_cards.check_play(state, seat, a)
    if isinstance(a, Trade):
        return commercium.check(state, seat, a)
    if isinstance(a, RondelMove):
        if state.phase != PHASE_RONDEL:
            return "You have already moved your stone this turn."
        return rondel.check(state, seat, a)
    if state.phase == PHASE_RONDEL:
        return "First move your stone on the rondel, e.g. `rondel templum`."
    if isinstance(a, Done):
        return None
    if isinstance(a, EndTurn):
        return "In the founding step `done` ends the turn." if state.phase == PHASE_FOUNDING else None
    if isinstance(a, BuildTemple):
        return templum.check_temple(state, seat, a.region, choice=a.pay)
    if isinstance(a, BuildWall):
        return templum.check_wall(state, seat, a.region, a.pay)
    if isinstance(a, Deploy):
        return militia.check(state, seat, a)
    if isinstance(a, BuyTech):
        return scientia.check_buy(state, seat, a.tech, choice=a.pay)
    if isinstance(a, Recruit):
        return scientia.check_recruit(state, seat, a)
    if isinstance(a, Move):
        return duellum.check_move(state, seat, a)
    if isinstance(a, Conquer):
        return duellum.check_conquer(state, seat, a)
    if isinstance(a, Found):
        return founding.check(state, seat, a)
    return "That is not an Antike Duellum move."


# ------------------------------------------------------------------- apply
def fortress_card(state: State, seat: int) -> str | None:
    """The Fortress-type card ``seat`` could answer a conquest with, if any."""
    for c in state.players[seat].hand:
        cd = CARDS[c]
        if cd.timing == "REACTION_CONQUEST" and cd.kind == duellum.DEFENCE_DELTA:
            return c
    return None


def apply(state: State, seat: int, a: Action, log: Log) -> None:
    """Carry out a legal action; skip the steps it enters that have nothing to decide."""
    state.touch()
    if isinstance(a, (RondelMove, TakeResource, Done)):
        _apply(state, seat, a, log)
        advance(state, log)
    else:
        _apply(state, seat, a, log)


def _apply(state: State, seat: int, a: Action, log: Log) -> None:
    if isinstance(a, Pick):
        events_cards.apply_pick(state, seat, a, log)
    elif isinstance(a, RondelMove):
        rondel.apply(state, seat, a, log)
        state.action = a.space
        begin_action(state, seat, log)
    elif isinstance(a, TakeResource):
        production.apply(state, seat, a, log)
    elif isinstance(a, PlayCard):
        events_cards.apply_play(state, seat, a, log)
        if state.phase == PHASE_FORTRESS:
            duellum.resolve(state, state.active, log)
    elif isinstance(a, Pass):
        log.say(f"The {log.nation(seat)} play no Fortress.", "cards")
        duellum.resolve(state, state.active, log)
    elif isinstance(a, Trade):
        commercium.apply(state, seat, a, log)
    elif isinstance(a, Done):
        log.say(_done_text(state, log), "turn")
        finish_step(state, log)
    elif isinstance(a, EndTurn):
        log.say(f"{log.nation(seat)} end their turn.", "turn")
        start = state.turn
        while state.turn == start and state.phase in STEP_PHASES:
            finish_step(state, log)
    elif isinstance(a, BuildTemple):
        templum.apply_temple(state, seat, a, log)
    elif isinstance(a, BuildWall):
        templum.apply_wall(state, seat, a, log)
    elif isinstance(a, Deploy):
        militia.apply(state, seat, a, log)
    elif isinstance(a, BuyTech):
        scientia.apply_buy(state, seat, a, log)
    elif isinstance(a, Recruit):
        scientia.apply_recruit(state, seat, a, log)
    elif isinstance(a, Move):
        duellum.apply_move(state, seat, a, log)
    elif isinstance(a, Conquer):
        _declare(state, seat, a, log)
    elif isinstance(a, Losses):
        duellum.execute(state, seat, a.legions, a.galleys, log)
    elif isinstance(a, Found):
        founding.apply(state, seat, a, log)


def _done_text(state: State, log: Log) -> str:
    who = log.nation(state.active)
    if state.phase == PHASE_ACTION:
        return f"{who} finish {RULES.rondel[state.action]}."
    if state.phase == PHASE_MOVE:
        return f"{who} finish moving."
    if state.phase == PHASE_CONQUER:
        return f"{who} finish their conquests."
    return f"{who} end their turn."


def _declare(state: State, seat: int, a: Conquer, log: Log) -> None:
    """Declare a conquest and apply the Fortress policy (D-12): ask the defender (ASK), play it
    automatically on the first conquest of the turn (AUTO_FIRST_CONQUEST), or never (NEVER)."""
    card = fortress_card(state, 1 - seat)
    policy = state.config.fortress_policy
    first = state.declared == 0
    duellum.declare(state, seat, a, log)
    if card is not None and policy == "ASK":
        state.phase = PHASE_FORTRESS
        return
    if card is not None and policy == "AUTO_FIRST_CONQUEST" and first and state.pending is not None:
        state.players[1 - seat].hand.remove(card)
        state.discard.append(card)
        state.pending.fortress += CARDS[card].value
        log.say(f"The {log.nation(1 - seat)} play {CARDS[card].name} automatically.", "cards", [a.region])
    duellum.resolve(state, seat, log)
