"""Game lifecycle outside the engine: create, join, leave, begin, undo, resign.

Why here and not in the engine: seats belong to chat users, games to chats, and seeds are
chosen by the service; the engine only sees seat numbers. Every state change still goes
through :meth:`Store.commit` (begin, undo and resign bump the version like a move), so the
version check and the outbox work the same as for moves.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import InvalidOptions, find_game, public
from engine.core.testing import replay
from engine.core.text import with_article
from workers import pipeline
from workers.pipeline import BOT, Loaded, MoveResult, Rejected
from workers.store import POSTED_TTL, Store, k_chat, k_lobby, k_meta, k_names, k_seats, k_user_games

ACTIVE = ("lobby", "active")


@dataclass(frozen=True, slots=True)
class Seat:
    """Who joined: platform user key and display name."""

    user: str
    name: str


def create(
    store: Store,
    game_name: str,
    *,
    platform: str,
    chat: str,
    user: str,
    name: str,
    options: Mapping[str, Any] | None = None,
    turn_hours: float = 48.0,
) -> str:
    """Open a lobby for ``game_name`` in a chat; the creator joins it.

    Raises:
        UnknownGame, InvalidOptions: with a chat-safe message.
        Rejected: the chat already has a game that is not over.
    """
    game = find_game(game_name)
    opts = dict(options or {})
    game.new_game(0, max(game.info.min_players, 2) if game.info.max_players >= 2 else 1, opts)  # validate options
    current = store.chat_game(platform, chat)
    if current:
        meta = store.meta(current)
        if meta.get("status") in ACTIVE:
            raise Rejected(
                "lobby/chat_busy",
                f"This chat already has {with_article(meta.get('title') or 'game')} (`{current}`) that is not over. "
                "Finish it or `resign` first.",
            )
    gid = store.new_game_id()
    now = store.now()
    pipe = store.r.pipeline(transaction=True)
    pipe.hset(
        k_meta(gid),
        mapping={
            "game": game.id,
            "title": game.info.name,
            "status": "lobby",
            "options": json.dumps(opts, sort_keys=True),
            "version": 0,
            "engine_version": game.engine_version,
            "home": f"{platform}:{chat}",
            "creator": user,
            "created_at": f"{now:.3f}",
            "updated_at": f"{now:.3f}",
            "turn_hours": f"{turn_hours:g}",
        },
    )
    pipe.rpush(k_lobby(gid), user)
    pipe.hset(k_names(gid), user, name)
    pipe.sadd(k_user_games(user, gid), gid)
    pipe.execute()
    # Decision: the chat index is written after the game's own MULTI (it lives in another hash
    # slot on a cluster). A crash in between leaves a lobby no chat points at: harmless, and
    # `new` again makes another.
    store.r.set(k_chat(platform, chat), gid)
    return gid


def lobby(store: Store, gid: str) -> list[Seat]:
    names = store.names(gid)
    return [Seat(u.decode(), names.get(u.decode(), u.decode())) for u in store.r.lrange(k_lobby(gid), 0, -1)]


def join(store: Store, gid: str, user: str, name: str) -> list[Seat]:
    """Add ``user`` to the lobby (idempotent). Raises ``Rejected`` when full or started."""
    meta = _lobby_meta(store, gid)
    game = find_game(meta["game"])
    seats = lobby(store, gid)
    if any(s.user == user for s in seats):
        return seats
    if len(seats) >= game.info.max_players:
        raise Rejected("lobby/full", f"The table is full ({game.info.max_players} players).")
    pipe = store.r.pipeline(transaction=True)
    pipe.rpush(k_lobby(gid), user)
    pipe.hset(k_names(gid), user, name)
    pipe.sadd(k_user_games(user, gid), gid)
    pipe.execute()
    return lobby(store, gid)


def leave(store: Store, gid: str, user: str) -> list[Seat]:
    """Leave a lobby. In a running game, players resign instead."""
    meta = store.meta(gid)
    if meta.get("status") == "active":
        raise Rejected("lobby/started", "The game has started; to stop playing, use `resign`.")
    _lobby_meta(store, gid)
    pipe = store.r.pipeline(transaction=True)
    pipe.lrem(k_lobby(gid), 0, user)
    pipe.srem(k_user_games(user, gid), gid)
    pipe.execute()
    return lobby(store, gid)


def _lobby_meta(store: Store, gid: str) -> dict[str, str]:
    meta = store.meta(gid)
    if not meta:
        raise Rejected("game/not_found", f"There is no game `{gid}`.")
    if meta.get("status") != "lobby":
        raise Rejected("lobby/started", "That game has already started.")
    return meta


def begin(
    store: Store,
    gid: str,
    user: str,
    *,
    bots: int = 0,
    bots_first: bool = False,
    seed: int | None = None,
    idem: str = "",
) -> MoveResult:
    """Seat the lobby in join order plus ``bots`` automatic players (after the humans, or
    before them with ``bots_first``) and deal the game. ``seed`` fixes the deal (replays)."""
    meta = _lobby_meta(store, gid)
    game = find_game(meta["game"])
    seats = lobby(store, gid)
    if user not in {s.user for s in seats} and user != meta.get("creator"):
        raise Rejected("auth/not_a_player", "Only players at the table can start the game. `join` first.")
    order: list[tuple[str, str]] = [(s.user, s.name) for s in seats]
    robots = [(BOT, "automatic player")] * bots
    order = robots + order if bots_first else order + robots
    players = [u for u, _ in order]
    names = {str(i): n for i, (_, n) in enumerate(order)}
    if len(players) < game.info.min_players:
        need = game.info.min_players - len(players)
        raise Rejected(
            "lobby/too_few",
            f"{game.info.name} needs at least {game.info.min_players} players; {need} more must `join`.",
        )
    seed = secrets.randbits(48) if seed is None else seed
    try:
        state = game.new_game(seed, len(players), json.loads(meta.get("options", "{}")))
    except InvalidOptions as exc:
        raise Rejected(exc.code, exc.user_message) from exc
    pipe = store.r.pipeline(transaction=True)
    pipe.delete(k_seats(gid))
    pipe.hset(k_seats(gid), mapping={str(i): u for i, u in enumerate(players)})
    pipe.hset(k_names(gid), mapping=names)
    pipe.hset(k_meta(gid), mapping={"seed": seed, "players": len(players)})
    pipe.execute()
    loaded = Loaded(gid, store.meta(gid), game, 0, None, dict(enumerate(players)))
    event = public(f"The game begins: {', '.join(_seat_labels(game, state, names))}.", kind="start")
    return _commit(
        store,
        loaded,
        state,
        [event],
        idem=idem or f"begin:{gid}",
        log_op="none",
        extra_meta={"status": "active", "started_at": f"{store.now():.3f}"},
        before=frozenset(),
    )


def _seat_labels(game: Any, state: Any, names: Mapping[str, str]) -> list[str]:
    return [f"{label} ({names.get(str(i), '?')})" for i, label in enumerate(game.seat_names(state))]


def undo(store: Store, gid: str, user: str, idem: str = "") -> MoveResult:
    """Take back the user's last move if nobody acted since and it revealed nothing."""
    loaded = pipeline.load(store, gid)
    if loaded.meta.get("status") == "over":
        return MoveResult(False, "undo/over", "The game is over; moves can no longer be taken back.")
    entries = store.log(gid)
    if not entries:
        return MoveResult(False, "undo/nothing", "There is no move to take back yet.")
    last = entries[-1]
    if last["s"] not in loaded.seats_of(user):
        # Who moved last is public (the table saw them choose); what they chose may not be.
        names = pipeline.display_names(store, loaded)
        who = names[last["s"]] if 0 <= last["s"] < len(names) else "another player"
        return MoveResult(
            False,
            "undo/not_yours",
            f"The last move was made by {who}. Only the player who made the last move can take it back, and only"
            " before anyone else has moved.",
        )
    if not last.get("u") or last.get("src") != "player":
        return MoveResult(
            False,
            "undo/revealed",
            f"`{last['t']}` can't be taken back: it revealed something hidden or used dice or a draw.",
        )
    game = loaded.game
    seed = int(loaded.meta["seed"])
    options = json.loads(loaded.meta.get("options", "{}"))
    prior = replay(game, seed, int(loaded.meta["players"]), options, [(e["s"], e["t"]) for e in entries[:-1]])
    names = pipeline.display_names(store, loaded)
    event = public(f"{names[last['s']]} took back `{last['t']}`.", kind="undo")
    return _commit(store, loaded, prior, [event], idem=idem, log_op="pop")


def resign(store: Store, gid: str, user: str, idem: str = "") -> MoveResult:
    """Leave a running game: with two seats the other wins; with more, an automatic player
    takes the seat over so the table can finish."""
    loaded = pipeline.load(store, gid)
    if loaded.meta.get("status") == "over":
        return MoveResult(False, "action/game_over", "This game is already over.")
    mine = loaded.seats_of(user)
    if not mine:
        return MoveResult(False, "auth/not_a_player", "You are not playing in this game.")
    names = pipeline.display_names(store, loaded)
    humans = [s for s, u in loaded.seats.items() if u != BOT]
    if len(loaded.seats) == 2 or len(humans) <= len(mine):
        others = [s for s in sorted(loaded.seats) if s not in mine]
        result = {
            "scores": {},
            "ranking": [others, mine] if others else [mine],
            "winners": others,
            "reason": f"{', '.join(names[s] for s in mine)} resigned.",
            "details": {"resigned": mine},
        }
        event = public(
            f"{', '.join(names[s] for s in mine)} resigned. "
            + (f"{', '.join(names[s] for s in others)} wins." if others else ""),
            kind="resign",
        )
        return _commit(
            store,
            loaded,
            loaded.state,
            [event],
            idem=idem,
            log_op="none",
            extra_meta={"status": "over", "result": json.dumps(result)},
            force_over=True,
        )
    pipe = store.r.pipeline(transaction=True)
    for s in mine:
        pipe.hset(k_seats(gid), str(s), BOT)
        pipe.hset(k_names(gid), str(s), "automatic player")
    pipe.execute()
    loaded.seats = store.seats(gid)
    event = public(f"{', '.join(names[s] for s in mine)} resigned; an automatic player takes over.", kind="resign")
    return _commit(store, loaded, loaded.state, [event], idem=idem, log_op="none")


def _commit(
    store: Store,
    loaded: Loaded,
    state: Any,
    events: list[Any],
    *,
    idem: str,
    log_op: str,
    extra_meta: Mapping[str, Any] | None = None,
    force_over: bool = False,
    before: frozenset[int] | None = None,
) -> MoveResult:
    now = store.now()
    plan = pipeline.plan_after_step(store, loaded, state, events, now, before)
    meta = {"updated_at": f"{now:.3f}", **plan.meta, **(extra_meta or {})}
    if force_over:
        meta.update({"deadline_at": None, "remind_at": None})
        plan.deadline = None
        if "posted_v" not in plan.meta:
            meta["posted_v"] = loaded.version + 1
            plan.outgoing.extend(_turn_messages(loaded))
    result = MoveResult(
        True,
        "ok",
        events[0].text if events else "Done.",
        0,
        None,
        "",
        over=force_over,
        events=[e.to_json() for e in events],
    )
    committed = store.commit(
        loaded.gid,
        expected=loaded.version,
        idem=idem,
        snapshot=loaded.game.dumps(state),
        log_op=log_op,
        events={"v": loaded.version + 1, "s": None, "events": [e.to_json() for e in events]},
        meta=meta,
        deadline=plan.deadline,
        result=result.to_json(),
        outgoing=plan.outgoing,
        keep_snapshot=POSTED_TTL if "posted_v" in meta else 0,
        game=loaded.game.id,
    )
    if committed.status == "stale":
        return MoveResult(False, "store/stale", "Someone moved at the same moment; please try again.")
    out = MoveResult.from_json(committed.data)
    out.duplicate = committed.status == "dup"
    return out


def _turn_messages(loaded: Loaded) -> list[Any]:
    nv = loaded.version + 1
    posted = int(loaded.meta.get("posted_v", "0") or 0)
    return pipeline.turn_posts(loaded, nv, posted + 1)


def add_table(store: Store, gid: str, platform: str, chat: str) -> bool:
    """Make a chat one of the game's tables (it joined by the join code): its boards are
    posted there too, and commands typed there act on this game. False when the chat shows
    another game that is not over (it is then left alone)."""
    meta = store.meta(gid)
    here = f"{platform}:{chat}"
    tables = meta.get("tables", "").split()
    if not meta or meta.get("home") == here or here in tables:
        return True
    current = store.chat_game(platform, chat)
    if current and current != gid and store.meta(current).get("status") in ACTIVE:
        return False
    # Decision: two writes in two hash slots, the chat index first: a crash in between leaves
    # the chat acting on the game without its boards, and the same join code again (not yet
    # a table, already pointing here) completes it. The other order could not be completed.
    store.r.set(k_chat(platform, chat), gid)
    store.r.hset(k_meta(gid), "tables", " ".join([*tables, here]))
    return True
