"""Changes to a running game's clock that are not moves: the timer, vacations, pause and
resume, muting reminders, autopilot's end, and handing a seat to a substitute.

Why not through the move pipeline: none of these changes the position, so none bumps the
version (a button pressed before ``away`` stays valid). Each one is still atomic: the game
record is watched, the fields, the deadline index and the table's notices are written in one
MULTI, and a concurrent commit makes it retry against the new record. The index is
recomputed with the same function a commit uses (``pipeline.index_time``).
"""

from __future__ import annotations

import json
import time as _time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import redis

from engine.core.text import count
from workers import pipeline, timing
from workers.pipeline import BOT, Loaded, Rejected
from workers.store import Store, k_deadlines, k_meta, k_names, k_outbox, k_seats, k_user_games
from workers.timing import DAY, format_duration

RETRIES = 20


@dataclass(slots=True)
class Change:
    """What one clock operation writes: meta fields (None deletes), seats, messages."""

    reply: str
    fields: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    private: list[tuple[str, int, str]] = field(default_factory=list)  # (user, seat, text)
    prompts: list[tuple[str, int]] = field(default_factory=list)  # (user, seat)
    games_of: tuple[str, str] | None = None  # (old user, new user)


def update(store: Store, gid: str, decide: Callable[[Loaded, float], Change]) -> Change:
    """Run ``decide`` on the current record and write its change atomically (retrying when a
    move lands in between). ``decide`` raises ``Rejected`` to refuse: nothing is written."""
    key = k_meta(gid)
    for _ in range(RETRIES):
        with store.r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                loaded = pipeline.load(store, gid)
                now = store.now()
                change = decide(loaded, now)
                meta = {**loaded.meta}
                for f, v in change.fields.items():
                    if v is None or v == "":
                        meta.pop(f, None)
                    else:
                        meta[f] = str(v)
                seats = {**loaded.seats, **change.seats}
                movers = loaded.game.to_move(loaded.state)
                nxt = pipeline.index_time(store, gid, meta, seats, movers, now)
                pipe.multi()
                sets = {f: str(v) for f, v in change.fields.items() if v is not None and v != ""}
                dels = [f for f, v in change.fields.items() if v is None or v == ""]
                if sets:
                    pipe.hset(key, mapping=sets)
                if dels:
                    pipe.hdel(key, *dels)
                if change.seats:
                    pipe.hset(k_seats(gid), mapping={str(s): u for s, u in change.seats.items()})
                if change.names:
                    pipe.hset(k_names(gid), mapping=change.names)
                if change.games_of:
                    old, new = change.games_of
                    if old not in seats.values():
                        pipe.srem(k_user_games(old, gid), gid)
                    pipe.sadd(k_user_games(new, gid), gid)
                if meta.get("status") == "active" and nxt is not None:
                    pipe.zadd(k_deadlines(gid), {gid: nxt})
                else:
                    pipe.zrem(k_deadlines(gid), gid)
                _queue(pipe, loaded, change, now)
                pipe.execute()
                return change
            except redis.WatchError:
                continue
    raise Rejected("store/busy", "The game is very busy right now; please try again.")


def _queue(pipe: Any, loaded: Loaded, change: Change, now: float) -> None:
    platform, chat = loaded.home
    stamp = f"{now:.3f}"
    msg: dict[str, Any]
    for i, text in enumerate(change.notices):
        msg = {"type": "notice", "game": loaded.gid, "chat": chat, "text": text, "key": f"{loaded.gid}:n:{stamp}:{i}"}
        pipe.xadd(k_outbox(platform, loaded.gid), {"m": json.dumps(msg)}, maxlen=100000, approximate=True)
    for i, (user, seat, text) in enumerate(change.private):
        msg = {
            "type": "private",
            "game": loaded.gid,
            "user": user,
            "seat": seat,
            "text": text,
            "key": f"{loaded.gid}:p:{stamp}:{i}",
        }
        pipe.xadd(k_outbox(user.split(":", 1)[0], loaded.gid), {"m": json.dumps(msg)}, maxlen=100000, approximate=True)
    for user, seat in change.prompts:
        msg = {
            "type": "prompt",
            "game": loaded.gid,
            "user": user,
            "seat": seat,
            "version": loaded.version,
            "key": f"{loaded.gid}:prompt:{stamp}:{seat}",
        }
        pipe.xadd(k_outbox(user.split(":", 1)[0], loaded.gid), {"m": json.dumps(msg)}, maxlen=100000, approximate=True)


# ------------------------------------------------------------------ helpers
def _running(loaded: Loaded, what: str) -> None:
    if loaded.meta.get("status") != "active":
        raise Rejected("game/over", f"This game is over, so there is nothing to {what}.")


def _my_seats(loaded: Loaded, user: str) -> list[int]:
    mine = loaded.seats_of(user)
    if not mine:
        raise Rejected("auth/not_a_player", "You are not playing in this game.")
    return mine


def _creator(loaded: Loaded, user: str, what: str, admin: bool = False) -> None:
    """Game administration is for the game's creator or the chat's administrators."""
    if loaded.meta.get("creator") != user and not admin:
        raise Rejected("auth/not_creator", f"Only the player who opened this table (or a chat admin) can {what}.")


def name_of(store: Store, loaded: Loaded, seat: int) -> str:
    return pipeline.display_names(store, loaded)[seat]


def humans(loaded: Loaded) -> list[int]:
    return sorted(s for s, u in loaded.seats.items() if u != BOT)


# ------------------------------------------------------------------ timer
def set_timer(store: Store, gid: str, user: str, table: Mapping[str, Any], *, admin: bool = False) -> Change:
    """The creator changes the table's clock options (validated ``turn_hours``, ``timer``,
    ``bank_secs``, ``vacation_days``, ``miss_limit``, ``quiet_deadlines``; None clears one).
    The current turn keeps its start: its deadline becomes start + the new duration, but never
    sooner than five minutes from now.
    Decision: a shorter timer must not time a player out the moment it is set."""

    def decide(loaded: Loaded, now: float) -> Change:
        _running(loaded, "time")
        _creator(loaded, user, "change the timer", admin)
        fields: dict[str, Any] = dict(table)
        if "turn_hours" in table:
            turn = float(table["turn_hours"]) * 3600
            if loaded.meta.get("turn_at"):
                start = float(loaded.meta["turn_at"])
                fields["deadline_at"] = f"{max(start + turn, now + min(turn, 300.0)):.3f}" if turn > 0 else None
        after = {k: str(v) for k, v in {**loaded.meta, **fields}.items() if v is not None}
        text = timing.table_summary(after)
        return Change(text, fields, notices=[f"⏱ The table's clock is changed. {text}"])

    return update(store, gid, decide)


# --------------------------------------------------------------- vacation
def away(store: Store, gid: str, user: str, seconds: float) -> Change:
    """Go on vacation: the seat's clock stops for ``seconds`` (charged to its budget now and
    refunded in part by an early ``back``); no reminders or timeouts meanwhile."""

    def decide(loaded: Loaded, now: float) -> Change:
        _running(loaded, "pause")
        mine = _my_seats(loaded, user)
        budget = timing.fnum(loaded.meta, "vacation_days", timing.DEFAULT_VACATION_DAYS) * DAY
        fields: dict[str, Any] = {}
        until = 0.0
        awaited = loaded.game.to_move(loaded.state)
        for seat in mine:
            used = timing.fnum(loaded.meta, f"away_used:{seat}")
            if used + seconds > budget + 1:
                left = max(0.0, budget - used)
                raise Rejected(
                    "away/budget",
                    f"That is more than your vacation time left in this game: {format_duration(left)} "
                    f"of {format_duration(budget)}. Nothing was changed."
                    + (f" Try `away {int(left // 3600)}h`." if left >= 3600 else ""),
                )
            start = max(now, timing.fnum(loaded.meta, f"away_until:{seat}"))
            until = start + seconds
            fields[f"away_used:{seat}"] = f"{used + seconds:.3f}"
            fields[f"away_until:{seat}"] = f"{until:.3f}"
            if seat in awaited and loaded.meta.get("turn_at"):
                fields[f"ext:{seat}"] = f"{timing.fnum(loaded.meta, f'ext:{seat}') + seconds:.3f}"
        left = budget - timing.fnum({k: str(v) for k, v in fields.items()}, f"away_used:{mine[0]}")
        name = name_of(store, loaded, mine[0])
        return Change(
            f"Enjoy your time off. Your clock is stopped for {format_duration(seconds)}; "
            f"vacation left in this game: {format_duration(left)}. Type `back` when you return.",
            fields,
            notices=[f"🏖 {name} is away for {format_duration(seconds)}; their clock is stopped."],
        )

    return update(store, gid, decide)


def back(store: Store, gid: str, user: str) -> Change:
    """Back from vacation (unused time is refunded) and/or from autopilot."""

    def decide(loaded: Loaded, now: float) -> Change:
        _running(loaded, "come back to")
        mine = _my_seats(loaded, user)
        fields: dict[str, Any] = {}
        said = []
        notices = []
        name = name_of(store, loaded, mine[0])
        for seat in mine:
            until = timing.fnum(loaded.meta, f"away_until:{seat}")
            if until > now:
                refund = until - now
                used = timing.fnum(loaded.meta, f"away_used:{seat}")
                fields[f"away_used:{seat}"] = f"{max(0.0, used - refund):.3f}"
                ext = timing.fnum(loaded.meta, f"ext:{seat}")
                if ext:
                    fields[f"ext:{seat}"] = f"{max(0.0, ext - refund):.3f}"
                said.append(f"{format_duration(refund)} of vacation given back")
                notices.append(f"👋 {name} is back; their clock runs again.")
            if until:
                fields[f"away_until:{seat}"] = None
            if loaded.meta.get(f"auto:{seat}") == "1":
                fields[f"auto:{seat}"] = None
                fields[f"misses:{seat}"] = None
                said.append("the automatic player hands your seat back")
                notices.append(f"👋 {name} is back and plays again; the automatic player steps aside.")
        if not fields:
            return Change("You were not away, and your seat is not on autopilot: nothing to do.")
        return Change("Welcome back: " + ", ".join(said) + ".", fields, notices=notices)

    return update(store, gid, decide)


# ------------------------------------------------------------ pause/resume
def vote(store: Store, gid: str, user: str, *, pause: bool) -> Change:
    """A vote to pause (or resume) the table; a majority of the human players decides.

    Decision: a majority is more than half of the human seats (both of two players, two of
    three). While paused no human's clock runs: no reminders or timeouts; moves are still
    accepted. On resume every deadline moves by the time the pause lasted."""
    word = "pause" if pause else "resume"

    def decide(loaded: Loaded, now: float) -> Change:
        _running(loaded, word)
        mine = _my_seats(loaded, user)
        paused = bool(loaded.meta.get("paused_at"))
        if paused == pause:
            return Change("The game is already paused." if pause else "The game is not paused.")
        key = "pause_votes" if pause else "resume_votes"
        votes = set(json.loads(loaded.meta.get(key) or "[]")) | set(mine)
        table = humans(loaded)
        need = len(table) // 2 + 1
        have = len(votes & set(table))
        name = name_of(store, loaded, mine[0])
        if have < need:
            more = need - have
            text = f"{name} asks to {word} the game; {count(more, 'more vote')} needed (`{word}`)."
            return Change(text, {key: json.dumps(sorted(votes))}, notices=[f"🗳 {text}"])
        fields: dict[str, Any] = {"pause_votes": None, "resume_votes": None}
        if pause:
            fields["paused_at"] = f"{now:.3f}"
            text = "⏸ The game is paused: no clock runs until the table votes to `resume`."
        else:
            fields["paused_at"] = None
            start = float(loaded.meta["paused_at"])
            turn_at = timing.fnum(loaded.meta, "turn_at")
            if turn_at:
                shift = now - max(start, turn_at)
                fields["turn_at"] = f"{turn_at + shift:.3f}"
                if loaded.meta.get("deadline_at"):
                    fields["deadline_at"] = f"{float(loaded.meta['deadline_at']) + shift:.3f}"
            text = f"▶️ The game resumes after a pause of {format_duration(now - start)}; deadlines moved with it."
        return Change(text, fields, notices=[text])

    return update(store, gid, decide)


# ------------------------------------------------------------------- mute
def mute(store: Store, gid: str, user: str, scope: str) -> Change:
    """``turn`` (this step only), ``game`` (until ``mute off``) or ``off``."""

    def decide(loaded: Loaded, now: float) -> Change:
        _running(loaded, "mute")
        mine = _my_seats(loaded, user)
        value = {"turn": loaded.meta.get("turn_v") or "0", "game": "game", "off": None}[scope]
        text = {
            "turn": "No more reminders for this turn.",
            "game": "No more reminders in this game (`mute off` turns them back on).",
            "off": "Reminders are on again in this game.",
        }[scope]
        return Change(text, {f"mute:{s}": value for s in mine})

    return update(store, gid, decide)


# ------------------------------------------------------------- substitute
def substitute(
    store: Store, gid: str, by: str, seat: int, new_user: str, new_name: str, *, admin: bool = False
) -> Change:
    """The creator hands ``seat`` to ``new_user``, who gets a private summary; the old player
    can no longer act for it. Autopilot, missed deadlines and vacation of the seat are reset."""
    from workers.commands.helpers import private_text

    def decide(loaded: Loaded, now: float) -> Change:
        _running(loaded, "hand over")
        _creator(loaded, by, "hand a seat to a substitute", admin)
        if seat not in loaded.seats:
            raise Rejected("sub/seat", f"There is no seat {seat + 1}; seats run from 1 to {len(loaded.seats)}.")
        old = loaded.seats[seat]
        if old == new_user:
            raise Rejected("sub/same", "That player already holds this seat.")
        if new_user in loaded.seats.values():
            # Decision: one seat per person; two seats would let one player see two hands.
            raise Rejected("sub/already", f"{new_name} already plays in this game; choose someone else.")
        label = loaded.game.seat_names(loaded.state)[seat]
        old_name = store.names(gid).get(str(seat)) or label
        fields: dict[str, Any] = {f"{k}:{seat}": None for k in ("auto", "misses", "away_until", "ext", "mute")}
        game, state = loaded.game, loaded.state
        summary = (
            f"You now play {label} in {game.info.name} `{gid}` (taking over from {old_name}).\n"
            + game.status(state, seat)
            + "\n"
            + private_text(game, state, seat)
        )
        change = Change(
            f"{new_name} now plays {label} instead of {old_name}.",
            fields,
            seats={seat: new_user},
            names={str(seat): new_name},
            notices=[f"🔁 {new_name} now plays {label} instead of {old_name}."],
            private=[(new_user, seat, summary)],
            games_of=(old, new_user),
        )
        if seat in game.to_move(state):
            change.prompts.append((new_user, seat))
        return change

    return update(store, gid, decide)


def find_user(store: Store, platform: str, text: str) -> tuple[str, str] | None:
    """(user key, name) of ``@name`` or ``platform:id`` among users who have talked to the bot
    on this platform (the name index is kept by ``Store.touch_user``)."""
    raw = text.strip().lstrip("@")
    if ":" in raw and store.r.exists(f"agora:u:{raw}"):
        return raw, store.user(raw).get("name") or raw
    hit = store.r.hget(f"agora:names:{platform}", raw.lower())
    if hit:
        key = hit.decode()
        return key, store.user(key).get("name") or raw
    return None


def waiting_since(meta: Mapping[str, str]) -> float:
    return timing.fnum(meta, "turn_at") or timing.fnum(meta, "updated_at") or _time.time()
