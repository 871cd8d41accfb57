"""The one move pipeline: load -> authorize -> parse -> apply -> commit -> follow-ups.

Why one function for every change (typed move, button, timeout, automatic player): the
checks, the optimistic-concurrency commit and the outbox messages are then identical for all
of them, so "accepted" always means committed, and a race or a redelivery can never apply a
move twice (ARCHITECTURE.md, "One move pipeline").

Concurrency: the commit compares the version read at load time. When another move won the
race, the commit answers ``stale`` and this move is re-validated against the new state
(parsed and applied again), so nothing is lost and nothing stale is applied.
Idempotency: the caller's key (the platform's update or interaction id) is checked inside the
same atomic step; a second submission with the same key returns the first one's result (or,
once that answer left the game's window of answers, "applied already": every committed key's
hash is kept), however long after the first it comes.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import AnyGame, EngineError, Event, find_game, private, public
from workers import metrics
from workers.logs import log_context
from workers.store import LOG_CHUNK, POSTED_TTL, Outgoing, Store
from workers.timing import DEFAULT_MISSES, HOUR, SAFETY, next_due, seat_clock, table_deadline

log = logging.getLogger(__name__)

MAX_RACES = 25
BOT = "bot"


@dataclass(slots=True)
class MoveResult:
    """What the submitter is told. ``message`` is always safe to show to that user."""

    ok: bool
    code: str
    message: str
    version: int = 0
    seat: int | None = None
    notation: str = ""
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    # Not sent anywhere: whether the commit left work for the ``kick`` task (an automatic
    # player to wake, a finished game to archive), whether it posted a turn whose board is to
    # be drawn, and the game as the move left it (to draw that board without reading it).
    follow: bool = True
    board: bool = False
    after: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "code": self.code,
            "message": self.message,
            "version": self.version,
            "seat": self.seat,
            "notation": self.notation,
            "duplicate": self.duplicate,
            "events": self.events,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveResult:
        return cls(**{k: data[k] for k in cls.__slots__ if k in data})  # type: ignore[attr-defined]


class Rejected(Exception):
    """A submission refused before any engine call (no game, not a player...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Loaded:
    """A game read from the store at one version."""

    gid: str
    meta: dict[str, str]
    game: AnyGame
    version: int
    state: Any
    seats: dict[int, str]

    @property
    def home(self) -> tuple[str, str]:
        platform, _, chat = self.meta.get("home", "console:local").partition(":")
        return platform, chat

    @property
    def tables(self) -> list[tuple[str, str]]:
        """Every chat that shows this game: the home chat, then the chats that joined it by
        its join code (``meta["tables"]``, ``platform:chat`` separated by spaces)."""
        extra = [t.partition(":") for t in self.meta.get("tables", "").split()]
        return [self.home, *[(p, c) for p, _, c in extra if c and (p, c) != self.home]]

    def seats_of(self, user: str) -> list[int]:
        return sorted(s for s, u in self.seats.items() if u == user)

    def automatic(self, seat: int) -> bool:
        """Whether the automatic player moves for ``seat``: a bot's seat, or a human's seat on
        autopilot after missed deadlines (until they type ``back``)."""
        return automatic(self.meta, self.seats, seat)


def automatic(meta: Mapping[str, str], seats: Mapping[int, str], seat: int) -> bool:
    """See :meth:`Loaded.automatic` (also used on a meta about to be committed)."""
    return seats.get(seat, BOT) == BOT or meta.get(f"auto:{seat}") == "1"


def load(store: Store, gid: str) -> Loaded:
    """Read meta, seats and the snapshot of ``gid``.

    Raises:
        Rejected: no such game, or it has not started.
    """
    # One MULTI for meta, snapshot and seats: read apart, a commit landing in between paired
    # the old meta (posted_v, deadline_at, status) with the new state and version.
    return _loaded(gid, store.game_record(gid))


def _loaded(gid: str, record: tuple[dict[str, str], int, str | None, dict[int, str]]) -> Loaded:
    """A :class:`Loaded` from a record read by the store (raises :class:`Rejected`)."""
    meta, version, snap, seats = record
    if not meta:
        raise Rejected("game/not_found", f"There is no game `{gid}`.")
    if meta.get("status") == "lobby":
        raise Rejected("game/not_started", "The game has not started yet. Use `begin` once everyone has joined.")
    if snap is None:
        raise Rejected("game/not_found", f"Game `{gid}` has no saved state.")
    game = find_game(meta["game"])
    return Loaded(gid, meta, game, version, game.load(json.loads(snap)), seats)


def display_names(store: Store, loaded: Loaded) -> list[str]:
    """``Romans (alice)`` per seat: the game's seat name plus who sits there."""
    base = loaded.game.seat_names(loaded.state)
    names = store.names(loaded.gid)
    out = []
    for seat, label in enumerate(base):
        who = names.get(str(seat))
        out.append(f"{label} ({who})" if who else label)
    return out


def submit(store: Store, gid: str, **kwargs: Any) -> MoveResult:
    """Apply one move given as chat text, exactly once (see :func:`_submit` for the arguments).

    Every line logged while it runs names the game and the seat; the answer is counted in the
    process's metrics by result code."""
    started = time.perf_counter()
    source = str(kwargs.get("source", "player"))
    with log_context(game=gid, seat=kwargs.get("seat")):
        result = _submit(store, gid, **kwargs)
    elapsed = time.perf_counter() - started
    code = "duplicate" if result.duplicate else result.code
    metrics.observe_move(code, source, elapsed)
    # The move's text is not logged: in a game with hidden choices it is private.
    with log_context(game=gid, seat=result.seat):
        log.info("%s move answered %s at version %s in %.1f ms", source, code, result.version, elapsed * 1000)
    return result


def _submit(
    store: Store,
    gid: str,
    *,
    text: str,
    idem: str,
    user: str | None = None,
    seat: int | None = None,
    source: str = "player",
    after_commit: Callable[[Loaded, MoveResult], None] | None = None,
    before_commit: Callable[[], None] | None = None,
    at_version: int | None = None,
) -> MoveResult:
    """Apply one move given as chat text, exactly once.

    Args:
        user: the platform user key (``telegram:42``); authorizes and picks the seat.
        seat: act for this seat directly (automatic player, timeouts); skips the user check.
        source: ``player``, ``auto`` or ``timeout`` (kept in the log).
        after_commit: called once after a successful commit (render, notifications, bots).
        at_version: timeouts: act only while the game is at this version or its deadline is
            still past; otherwise answer ``pipeline/moved_on`` and change nothing.
    """
    # The first load also reads the key's stored answer (one round trip): a redelivered or
    # repeated submission returns it before any engine call.
    record, prev = store.move_record(gid, idem)
    if prev is not None:
        res = MoveResult.from_json(prev)
        res.duplicate = True
        return res
    for attempt in range(MAX_RACES):
        try:
            loaded = _loaded(gid, record) if attempt == 0 else load(store, gid)
        except Rejected as exc:
            return MoveResult(False, exc.code, exc.message)
        if loaded.meta.get("status") == "over":
            return MoveResult(False, "action/game_over", "This game is over; no more moves are accepted.")
        if at_version is not None and loaded.version != at_version and not _deadline_passed(loaded, store.now()):
            return MoveResult(False, "pipeline/moved_on", "The game moved on; nothing was done.", loaded.version)
        acting = _acting_seat(loaded, user, seat)
        if isinstance(acting, MoveResult):
            return _earlier_answer(store, gid, idem) or acting
        game, state = loaded.game, loaded.state
        try:
            action = game.parse(state, acting, text)
            notation = game.notation(state, acting, action)
            secret = game.private_action(state, acting, action)
            step = game.apply(state, acting, action)
        except EngineError as exc:
            refusal = MoveResult(False, exc.code, exc.user_message, loaded.version, acting)
            return _earlier_answer(store, gid, idem) or refusal
        if before_commit:
            before_commit()
        result = _commit_step(store, loaded, acting, notation, step, idem, source, secret=secret)
        if result is None:
            continue  # lost a race: re-validate against the new state
        if after_commit and not result.duplicate:
            after_commit(loaded, result)
        return result
    return MoveResult(False, "store/busy", "The game is very busy right now; please send your move again.")


def _earlier_answer(store: Store, gid: str, idem: str) -> MoveResult | None:
    """The stored answer of a copy of this request that committed while this one was loading.

    Why: two copies of one request (a client retry, a double tap) can arrive together; the
    first passes the early key check and commits, the second passes it too, then loads the
    state the first produced and finds its move illegal or out of turn. Telling the player
    "refused" for a move that was applied is wrong, so a refusal re-checks the key first.
    The same holds for a copy sent again long after (its answer out of the window): the
    game's record of committed keys answers it "applied already" (``Store.earlier_answer``)."""
    if not idem:
        return None
    prev = store.earlier_answer(gid, idem)
    if prev is None:
        return None
    res = MoveResult.from_json(prev)
    res.duplicate = True
    return res


def _deadline_passed(loaded: Loaded, now: float) -> bool:
    deadline = loaded.meta.get("deadline_at")
    return bool(deadline) and now >= float(deadline or 0)


def _acting_seat(loaded: Loaded, user: str | None, seat: int | None) -> int | MoveResult:
    if seat is not None:
        return seat
    mine = loaded.seats_of(user or "")
    if not mine:
        return MoveResult(False, "auth/not_a_player", "You are not playing in this game.", loaded.version)
    movers = loaded.game.to_move(loaded.state)
    ready = [s for s in mine if s in movers]
    return ready[0] if ready else mine[0]


def _commit_step(
    store: Store,
    loaded: Loaded,
    seat: int,
    notation: str,
    step: Any,
    idem: str,
    source: str,
    *,
    secret: bool = False,
) -> MoveResult | None:
    game = loaded.game
    new_state = step.state
    events: list[Event] = list(step.events)
    outcome = game.outcome(new_state)
    now = store.now()
    seat_meta = _seat_meta(store, loaded, seat, notation, source, secret, events)
    at = Loaded(loaded.gid, {**loaded.meta, **seat_meta}, game, loaded.version, loaded.state, loaded.seats)
    plan = plan_after_step(store, at, new_state, events, now, acting=seat)
    meta: dict[str, Any] = {"updated_at": f"{now:.3f}", **seat_meta, **plan.meta}
    if outcome is not None:
        meta["status"] = "over"
        meta["result"] = json.dumps(outcome.to_json())
    result = MoveResult(
        True,
        "ok",
        f"Done: {notation}.",
        0,
        seat,
        notation,
        events=[e.to_json() for e in events if e.visible_to(seat)],
        over=outcome is not None,
    )
    committed = store.commit(
        loaded.gid,
        expected=loaded.version,
        idem=idem,
        snapshot=game.dumps(new_state),
        log_entry={"s": seat, "t": notation, "u": int(step.undoable), "k": idem, "src": source, "at": int(now)},
        events={"v": loaded.version + 1, "s": seat, "events": [e.to_json() for e in events]},
        meta=meta,
        deadline=plan.deadline,
        result=result.to_json(),
        outgoing=plan.outgoing,
        keep_snapshot=plan.keep_snapshot,
    )
    if committed.status == "stale":
        return None
    out = MoveResult.from_json(committed.data)
    out.duplicate = committed.status == "dup"
    after_meta = {**loaded.meta, **meta}
    out.follow = outcome is not None or any(automatic(after_meta, loaded.seats, s) for s in game.to_move(new_state))
    out.board = "posted_v" in plan.meta
    flat = {k: str(v) for k, v in after_meta.items() if v is not None}
    out.after = Loaded(loaded.gid, flat, game, out.version, new_state, loaded.seats)
    if not out.duplicate and out.version % LOG_CHUNK == 0:
        try:
            store.compact_log(loaded.gid)
        except Exception:  # storage housekeeping: a failure must not cost the move
            log.warning("could not compact the log of %s", loaded.gid, exc_info=True)
    return out


def _seat_meta(
    store: Store, loaded: Loaded, seat: int, notation: str, source: str, secret: bool, events: list[Event]
) -> dict[str, Any]:
    """Missed-deadline bookkeeping of the acting seat, and what the table and the player are
    told when a timeout played for them (issue: a pick "typed by nobody" must say so).

    A player's own move clears the count of consecutive misses (and ends autopilot); a timeout
    adds one, and at the table's limit (``miss_limit``, default 2) the seat goes on autopilot
    until ``back`` or the player's own move.
    """
    key = f"misses:{seat}"
    if source == "player":
        if loaded.meta.get(f"auto:{seat}") == "1":
            # Decision: a player who moves for their own seat on autopilot is back, as with `back`.
            name = display_names(store, loaded)[seat]
            events.append(
                public(f"👋 {name} is back and plays again; the automatic player steps aside.", kind="autopilot")
            )
            return {key: None, f"auto:{seat}": None}
        return {key: None} if loaded.meta.get(key) else {}
    if source != "timeout":
        return {}
    name = display_names(store, loaded)[seat]
    misses = int(float(loaded.meta.get(key) or 0)) + 1
    limit = int(float(loaded.meta.get("miss_limit") or DEFAULT_MISSES))
    shown = "a move was made for them" if secret else f"`{notation}` was played for them"
    events.append(public(f"⌛ Time ran out for {name}; {shown}.", kind="timeout"))
    events.append(
        private(seat, f"⌛ Your time ran out in `{loaded.gid}`, so `{notation}` was played for you.", kind="timeout")
    )
    out: dict[str, Any] = {key: misses}
    if limit > 0 and misses >= limit:
        out[f"auto:{seat}"] = "1"
        events.append(
            public(
                f"🤖 {name} missed {misses} deadlines in a row: the automatic player takes the seat "
                "until they type `back`.",
                kind="autopilot",
            )
        )
    return out


@dataclass(slots=True)
class Plan:
    """Meta fields, next deadline and outbox messages that follow from a new state."""

    meta: dict[str, Any]
    deadline: float | None
    outgoing: list[Outgoing]
    keep_snapshot: int = 0


def plan_after_step(
    store: Store,
    loaded: Loaded,
    new_state: Any,
    events: list[Event],
    now: float,
    before: frozenset[int] | None = None,
    *,
    acting: int | None = None,
) -> Plan:
    """Decide what a committed step sends and schedules (shared by moves, undo, start).

    A board is posted to the game's home chat when a seat that was not awaited becomes awaited
    or the game ends (one message per turn, not per click, and not per secret pick of a
    simultaneous step); its caption gathers the public events since the last posted board.
    Private events go to their seat's user only. With a posted turn, every awaited seat gets a
    ``prompt`` (adapters show hands and buttons privately) and a deadline. Without one, a seat
    still gets a prompt whenever what it is awaited for changed (its legal moves differ), so
    every new decision reaches its player with buttons. Automatic players
    get a short safety deadline so a lost task cannot stall the game. ``before`` is who was
    awaited before the step (default: from ``loaded.state``; ``begin`` passes nobody).
    """
    game = loaded.game
    if before is None:
        before = game.to_move(loaded.state)
    after = game.to_move(new_state)
    over = game.outcome(new_state) is not None
    gid = loaded.gid
    outgoing: list[Outgoing] = []
    meta: dict[str, Any] = {}
    posted_v = int(loaded.meta.get("posted_v", "0") or 0)
    nv = loaded.version + 1
    for seat, user in sorted(loaded.seats.items()):
        texts = [e.text for e in events if e.seats is not None and seat in e.seats]
        if texts and user != BOT:
            outgoing.append(
                _msg(user, nv, {"type": "private", "game": gid, "user": user, "seat": seat, "text": "\n".join(texts)})
            )
    # A board is posted when someone new is awaited (not when one of several simultaneous
    # choosers has chosen) or when the game ends.
    if not after <= before or over:
        meta["posted_v"] = nv
        outgoing += turn_posts(loaded, nv, posted_v + 1)
        for seat in sorted(after):
            user = loaded.seats.get(seat, BOT)
            if not loaded.automatic(seat):
                outgoing.append(_msg(user, nv, {"type": "prompt", "game": gid, "user": user, "seat": seat}))
    else:
        if after:
            # Nobody new is awaited, but what a seat is awaited for may have changed: the last
            # chooser of a simultaneous step who must now pay or take debt alone, the next step of
            # a multi-step turn. Without a prompt that seat sat with "You chose: …" and no buttons
            # while the game waited for it (a silent stall).
            for seat in sorted(after):
                user = loaded.seats.get(seat, BOT)
                changed = _awaited_for(game, loaded.state, seat) != _awaited_for(game, new_state, seat)
                if changed and not loaded.automatic(seat):
                    # ``step``: the same turn goes on; an adapter may show it in place of the
                    # pressed buttons instead (it waits a moment for that, see ``at``).
                    prompt = {"type": "prompt", "game": gid, "user": user, "seat": seat}
                    outgoing.append(_msg(user, nv, {**prompt, "step": True, "at": round(now, 3)}))
        # The last one still to choose in a simultaneous step: everyone is waiting for them.
        if len(before) > 1 and len(after) == 1 and after < before:
            (last,) = after
            user = loaded.seats.get(last, BOT)
            # Decision: only when other people are at the table; against automatic players
            # alone, who always choose at once, it would come every round.
            people = [s for s in loaded.seats if s != last and not loaded.automatic(s)]
            if not loaded.automatic(last) and people:
                text = f"⏳ Everyone else has chosen in {game.info.name} `{gid}`: the table is waiting for you."
                outgoing.append(
                    Outgoing(
                        user.split(":", 1)[0],
                        {
                            "type": "private",
                            "game": gid,
                            "user": user,
                            "seat": last,
                            "text": text,
                            "key": f"{gid}:{nv}:waiting:{last}",
                        },
                    )
                )
        # No board this time: a timeout or autopilot notice must still reach the table now.
        notes = [e.text for e in events if e.seats is None and e.kind in ("timeout", "autopilot")]
        if notes:
            # Every table of the game hears it, each on its own platform (as turn posts do).
            for i, (platform, chat) in enumerate(loaded.tables):
                key = f"{gid}:{nv}:notice" + (f"@{platform}:{chat}" if i else "")
                notice = {"type": "notice", "game": gid, "chat": chat, "text": "\n".join(notes), "key": key}
                outgoing.append(Outgoing(platform, notice))
    if acting is not None:
        meta.update(_charge_bank(loaded, acting, before, now))
    deadline = None
    if not over and after:
        turn_meta = clock_meta(loaded, after, before, now, nv)
        meta.update(turn_meta)
        deadline = index_time(store, gid, {**loaded.meta, **turn_meta}, loaded.seats, after, now)
    else:
        meta.update({"deadline_at": None, "remind_at": None, "safety_at": None, "turn_at": None})
    keep = POSTED_TTL if "posted_v" in meta else 0
    return Plan(meta, deadline, outgoing, keep)


def _awaited_for(game: AnyGame, state: Any, seat: int) -> list[str]:
    """What ``seat`` is awaited for: its legal moves (the same choices mean the same wait)."""
    return [repr(a) for a in game.legal_actions(state, seat)]


def turn_posts(loaded: Loaded, version: int, since: int) -> list[Outgoing]:
    """The turn post for every table of the game, each on its own platform. The home chat's
    key stays ``{gid}:{v}:turn``; another table's names its chat, so each is sent once."""
    out = []
    for i, (platform, chat) in enumerate(loaded.tables):
        key = f"{loaded.gid}:{version}:turn" + (f"@{platform}:{chat}" if i else "")
        out.append(Outgoing(platform, {"type": "turn", "game": loaded.gid, "chat": chat, "since": since, "key": key}))
    return out


def _msg(user: str, version: int, message: dict[str, Any]) -> Outgoing:
    platform = user.split(":", 1)[0]
    return Outgoing(platform, {**message, "key": f"{message['game']}:{version}:{message['type']}:{message['seat']}"})


def clock_meta(
    loaded: Loaded, after: frozenset[int], before: frozenset[int], now: float, version: int
) -> dict[str, Any]:
    """The step's clock fields after a commit.

    Issue 9 item 1: a human's deadline is always the table's timer (``turn_hours``), set when a
    human becomes awaited and kept while the same step goes on; the automatic players' 15 s
    safety net is ``safety_at``, apart, so a bot at the table can never shorten a human's turn.
    """
    autos = {s for s in after if loaded.automatic(s)}
    humans = after - autos
    meta: dict[str, Any] = {"remind_at": None, "safety_at": f"{now + SAFETY:.3f}" if autos else None}
    # The same step goes on while nobody new is awaited (a simultaneous pick made by another
    # seat, or the next part of the same player's turn); a new round starts a fresh clock.
    still = after <= before and bool(loaded.meta.get("turn_at"))
    if not humans:
        meta.update({"deadline_at": None, "turn_at": None})
        return meta
    if still:
        return meta
    turn = float(loaded.meta.get("turn_hours", "0") or 0) * HOUR
    meta.update({"turn_at": f"{now:.3f}", "turn_v": version, "deadline_at": f"{now + turn:.3f}" if turn > 0 else None})
    for seat in humans:
        away = float(loaded.meta.get(f"away_until:{seat}") or 0)
        meta[f"ext:{seat}"] = f"{away - now:.3f}" if away > now else None
    return meta


def _charge_bank(loaded: Loaded, seat: int, before: frozenset[int], now: float) -> dict[str, Any]:
    """A move made after the step's deadline draws the overrun from the seat's time bank."""
    if seat not in before or loaded.automatic(seat) or not float(loaded.meta.get("bank_secs") or 0):
        return {}
    base = table_deadline(loaded.meta, seat)
    if base is None or now <= base:
        return {}
    used = float(loaded.meta.get(f"bank_used:{seat}") or 0) + (now - base)
    return {f"bank_used:{seat}": f"{min(used, float(loaded.meta['bank_secs'])):.3f}"}


def index_time(
    store: Store, gid: str, meta: Mapping[str, Any], seats: Mapping[int, str], after: frozenset[int], now: float
) -> float | None:
    """The next moment the sweep must look at the game: the bots' safety net, and each awaited
    human's next unsent reminder or timeout (none while the table is paused)."""
    flat = {k: str(v) for k, v in meta.items() if v is not None and v != ""}
    times: list[float] = []
    if flat.get("safety_at"):
        times.append(float(flat["safety_at"]))
    if not flat.get("paused_at"):
        # Every awaited human's settings in one round trip, then every sent-reminder mark in
        # one more (7 Wonders awaits up to 7 seats at once: two reads per seat were 14).
        humans = [s for s in sorted(after) if not automatic(flat, seats, s)]
        turn_v = flat.get("turn_v", "")
        clocks = [
            seat_clock(flat, seat, user, now)
            for seat, user in zip(humans, store.users([seats[s] for s in humans]), strict=True)
        ]
        wanted = [(seat, [k for k, _ in clock.reminders]) for seat, clock in zip(humans, clocks, strict=True)]
        marks = _sent_marks(store, gid, turn_v, wanted)
        for clock, sent in zip(clocks, marks, strict=True):
            t = next_due(clock, sent)
            if t is not None:
                times.append(t)
    return min(times) if times else None


def _sent_marks(store: Store, gid: str, turn_v: str, wanted: list[tuple[int, list[str]]]) -> list[set[str]]:
    """:func:`sent_leads` of several seats in one round trip (none when nothing is asked)."""
    flat_keys = [(seat, lead) for seat, leads in wanted for lead in leads]
    if not flat_keys:
        return [set() for _ in wanted]
    marks = store.r.mget([k_remind_lead(gid, turn_v, seat, lead) for seat, lead in flat_keys])
    sent: dict[int, set[str]] = {seat: set() for seat, _ in wanted}
    for (seat, lead), mark in zip(flat_keys, marks, strict=True):
        if mark:
            sent[seat].add(lead)
    return [sent[seat] for seat, _ in wanted]


def k_remind_lead(gid: str, turn_v: str, seat: int, lead: str) -> str:
    """De-duplication of one reminder: one step (``turn_v``), one seat, one lead time."""
    from workers.store import partition, tag

    # In the game's partition, so the marks of one seat are read with one MGET on a cluster.
    return f"{tag(partition(gid))}remind:{gid}:{turn_v}:{seat}:{lead}"


def sent_leads(store: Store, gid: str, turn_v: str, seat: int, keys: list[str]) -> set[str]:
    if not keys:
        return set()
    marks = store.r.mget([k_remind_lead(gid, turn_v, seat, k) for k in keys])
    return {k for k, m in zip(keys, marks, strict=True) if m}
