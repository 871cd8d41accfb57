"""What the outbox turns into messages: the turn post, the private prompt, the reminder, and
the hand-over when a player first opens the private chat.

Why built at delivery time from the stored snapshot: a message describes the turn it was
queued for, even when the game has moved on since, and never carries a stale keyboard.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from engine import AnyGame
from engine.core.text import count
from workers import images, pipeline
from workers.commands.base import CommandBase
from workers.commands.context import GID, Context
from workers.commands.helpers import private_text, safe_png
from workers.commands.play import move_entries
from workers.compact import events_version, unpack_events
from workers.gamelog import events_between
from workers.loading import parsed_state
from workers.pipeline import BOT
from workers.replies import Button, Part, Reply, say
from workers.store import EVENTS_KEPT

log = logging.getLogger(__name__)


class PostParts(CommandBase):
    """Builders of outbox messages; adapters call them when they deliver."""

    def connect(self, ctx: Context, payload: str) -> Reply:
        """A user opened their private chat with the bot through a link naming a game
        (Telegram's ``t.me/<bot>?start=<gid>``).

        Why: a bot may not write first to a user who never opened the private chat, so hands
        and secret choices wait until they do. This remembers the chat and hands over what was
        waiting: the "your turn" prompt when the game awaits them, else their hand.
        """
        self.store.touch_user(ctx.own_key, ctx.name, ctx.chat)
        intro = "Connected. Your private information (hands, secret choices, your turn) arrives here."
        gid = payload.strip().lower()
        if not (GID.match(gid) and self.store.meta(gid)):
            return say(intro + " `help` lists the commands.", private=True)
        if self.store.meta(gid).get("status") == "lobby":
            return say(intro + f" `{gid}` has not begun yet; your hand comes here when it does.", private=True)
        loaded = pipeline.load(self.store, gid)
        seats = loaded.seats_of(ctx.user_key)
        if not seats:
            return say(intro + f" You are not playing in `{gid}`.", private=True)
        parts = say(intro + f" Game `{gid}`:", private=True)
        prompts = [self.prompt_part({"game": gid, "seat": s}) for s in seats]
        waiting = [p for p in prompts if p is not None]
        parts += waiting if waiting else self.cmd_hand(ctx, gid)
        return parts

    # ------------------------------------------------------ outbox helpers
    def turn_part(self, message: dict[str, Any]) -> Part:
        """The one message a posted turn makes in the home chat: board, what happened, who's next."""
        gid, version = message["game"], int(message["version"])
        record, snap, known, raw_events = self.store.post_record(gid, version)  # one round trip
        loaded = pipeline.loaded_from(gid, record)
        # ``drawn``: the version the board shows. Decision (store.POSTED_KEPT): a post whose
        # snapshot was pruned (more than POSTED_KEPT newer posts waited, e.g. a consumer killed
        # while drawing left its claim and its successors waited it out while the game went on)
        # is drawn from the game as it is now, like its text; it never goes out without a board.
        if snap and version == loaded.version:
            state, drawn, text = loaded.state, version, loaded.snap  # the current snapshot, parsed once
        elif snap:
            state, drawn, text = parsed_state(loaded.game, snap), version, snap
        else:
            state, drawn, text = loaded.state, loaded.version, loaded.snap
        at = pipeline.Loaded(gid, loaded.meta, loaded.game, version, state, loaded.seats, text)
        names = pipeline.display_names(self.store, at, known)
        lines = []
        since = int(message.get("since", 0))
        for entry in events_between(raw_events, since, version):
            lines += [ev["text"] for ev in entry.get("events", []) if ev.get("seats") is None]
        # A post that gathers many turns (posts merged while the delivery caught up) can start
        # before the oldest kept events: say that some are missing instead of implying none.
        oldest = events_version(raw_events[0]) if raw_events else None
        if oldest is None and raw_events:
            oldest = int(json.loads(unpack_events(raw_events[0])).get("v", 0))
        older = len(raw_events) >= EVENTS_KEPT and since < (oldest or 0)
        if len(lines) > 12 or older:
            keep = lines[-11:]
            earlier = len(lines) - len(keep)
            head = "… earlier moves (see `log`)"
            if earlier and not older:
                head = f"… {count(earlier, 'earlier line')} (see `log`)"
            lines = [head, *keep]
        game = loaded.game
        outcome = game.outcome(state)
        result = json.loads(loaded.meta["result"]) if loaded.meta.get("result") and version == loaded.version else None
        if outcome is not None or result:
            reason = (result or {}).get("reason") or (outcome.reason if outcome else "")
            lines.append(f"🏁 Game over. {reason}")
        else:
            waiting = sorted(game.to_move(state))
            lines.append("Next: " + ", ".join(names[s] for s in waiting) + " — " + game.status(state, None))
        png, pages = self._board(gid, version, drawn, state, game, known)
        buttons: list[list[Button]] = []
        if outcome is None and version == loaded.version and not result:
            waiting = sorted(game.to_move(state))
            if len(waiting) == 1 and loaded.seats.get(waiting[0]) != BOT:
                seat = waiting[0]
                every = move_entries(at, seat)
                public_moves = [e for e in every if not e.private and not e.variant]
                if public_moves:
                    groups: dict[str, list[str]] = {}
                    for e in public_moves:
                        groups.setdefault(game.action_group(e.text), []).append(e.text)
                    buttons = self._buttons(at, seat, public_moves, groups, every=every)
        return Part(text="\n".join(lines)[:1000], image=png, buttons=buttons, game=gid, pages=pages)

    def _board(
        self, gid: str, version: int, drawn: int, state: Any, game: AnyGame, names: dict[str, str]
    ) -> tuple[bytes | None, list[bytes]]:
        """The board and pages of a turn post of ``version``, drawn at ``drawn`` from ``state``;
        ``game`` and ``names`` as the post's record read them (not read again).

        Drawn from the state in hand: re-reading the snapshot could find it pruned by a commit
        in between, and a turn post must not go out without its board. A post whose snapshot
        is gone still gets its own version's board while that is cached (drawn by the move task
        right after the commit); only else the board as it is now."""
        if drawn != version:
            png = safe_png(images.board_png, self.store, gid, version)  # None: not cached
            if png is not None:
                return png, images.page_pngs(self.store, gid, version, game=game)
            log.warning("turn post %s v%s is drawn at v%s: its snapshot was pruned", gid, version, drawn)
        png = safe_png(images.board_png, self.store, gid, drawn, state, game=game, names=names)
        return png, images.page_pngs(self.store, gid, drawn, state, game=game)

    def prompt_part(self, message: dict[str, Any]) -> Part | None:
        """A private "your turn" note with the private moves (hands, secret picks), or None
        when the game moved on and the prompt is out of date."""
        gid, seat = message["game"], int(message["seat"])
        loaded = pipeline.load(self.store, gid)
        game, state = loaded.game, loaded.state
        if seat not in game.to_move(state) or loaded.meta.get("status") != "active":
            return None
        head = f"⏳ Your turn in {game.info.name} `{gid}`: {game.status(state, seat)}"
        hand = private_text(game, state, seat) if game.info.hidden_information else ""
        ctx = Context("", "", "", "", private=True)
        moves = self._moves_reply(loaded, seat, move_entries(loaded, seat), ctx)[0]
        return Part(
            text="\n".join(x for x in (head, hand, moves.text) if x),
            private=True,
            buttons=moves.buttons,
            game=gid,
        )

    def reminder_part(self, message: dict[str, Any]) -> Part | None:
        gid = message["game"]
        loaded = pipeline.load(self.store, gid)
        if loaded.version != int(message.get("version", -1)):
            return None
        left = message.get("hours_left", 0)
        return Part(
            text=f"⏰ Reminder: {loaded.game.info.name} `{gid}` is waiting for your move"
            + (f" ({left} h left)." if left else "."),
            private=True,
        )


