"""Interactions become command-layer calls; every interaction is acknowledged first.

The 3-second rule: Discord shows "This interaction failed" unless an interaction is
acknowledged within 3 s. Every handler defers before it touches Redis or a worker — a slash
command with a "thinking" response (ephemeral where the answer is private), a component
press with a deferred update — and then edits the original or sends follow-ups, for which
Discord allows 15 minutes. A worker that is slow or down therefore never costs the
acknowledgement.

Visibility: a deferred response fixes whether its first message is ephemeral. Commands whose
answer is private or personal (``move``, ``moves``, ``hand``, …) defer ephemerally; the table
commands (``new``, ``join``, ``board``, …) defer publicly, and when their answer turns out to
be a refusal the public "thinking" message is deleted and the refusal sent ephemerally.

Exactly once: the interaction id is the move's idempotency key, and a second delivery of the
same interaction cannot be acknowledged again (Discord answers 40060), so it changes nothing.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import Any

import discord

from bots.discord import format as fmt
from bots.discord.sender import PLATFORM, Sender
from workers.client import Client, Context, Part

log = logging.getLogger(__name__)

PRIVATE_COMMANDS = frozenset(
    {"move", "moves", "hand", "mygames", "myturns", "settings", "help", "games", "link", "mute", "away", "back"}
)
STALE_CODES = frozenset({"button/stale", "button/game_over", "button/expired"})
SORRY = "Something went wrong on our side; nothing was changed. Please try again."
SEEN_NS = "dc-interaction"
SEEN_TTL = 86400
KNOWN_COMPONENT = re.compile(r"^ag:[bs]:")


def make_context(interaction: discord.Interaction[Any]) -> Context:
    """The command layer's view of who did what, where: a DM is the private chat."""
    user = interaction.user
    private = interaction.guild_id is None
    perms = interaction.permissions
    return Context(
        PLATFORM,
        str(interaction.channel_id or ""),
        str(user.id),
        getattr(user, "global_name", None) or user.display_name or user.name,
        private=private,
        idem=f"dc:{interaction.id}",
        # Who may manage the channel administers its tables (timer, substitutes) like a creator.
        admin=not private and bool(perms.administrator or perms.manage_guild or perms.manage_channels),
    )


class Handlers:
    """Slash commands and component presses, bound to one client and one sender."""

    def __init__(self, client: Client, sender: Sender) -> None:
        self.client = client
        self.sender = sender

    async def _defer(self, interaction: discord.Interaction[Any], *, ephemeral: bool, update: bool = False) -> bool:
        """Acknowledge now; False when it was acknowledged before (a redelivered interaction)."""
        try:
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.InteractionResponded:
            return False
        except discord.HTTPException as exc:
            if exc.code in (40060, 10062):  # already acknowledged / unknown (expired) interaction
                log.info("interaction %s was answered before; ignoring the redelivery", interaction.id)
                return False
            raise
        fresh = await self.sender.io(
            self.client.kv_set, SEEN_NS, str(interaction.id), "1", ttl=SEEN_TTL, only_new=True
        )
        return bool(fresh)

    # -------------------------------------------------------- slash commands
    async def command(self, interaction: discord.Interaction[Any], word: str, text: str) -> None:
        """Run ``/agora <word> ...`` (``text`` is the command line for the command layer)."""
        private_cmd = word in PRIVATE_COMMANDS
        if not await self._defer(interaction, ephemeral=private_cmd):
            return
        try:
            ctx = make_context(interaction)
            note = ""
            if word == "new":
                ctx, text, note = await self._maybe_thread(interaction, ctx, text)
            reply = await self.client.command_async(ctx, text, self.sender.io)
            if note and reply and all(p.ok for p in reply):
                reply[0].text = f"{reply[0].text}\n{note}"
            await self.show(interaction, reply, ephemeral=private_cmd or ctx.private)
        except Exception:
            log.exception("/agora %s failed", word)
            await self._sorry(interaction)

    async def _maybe_thread(
        self, interaction: discord.Interaction[Any], ctx: Context, text: str
    ) -> tuple[Context, str, str]:
        """``new … thread=yes``: open a public thread in this channel and make it the table,
        so a busy channel stays readable; the option itself is not the game's."""
        words = text.split()
        wanted = [w for w in words if w.lower().startswith("thread=")]
        if not wanted or ctx.private:
            return ctx, text, ""
        rest = " ".join(w for w in words if w not in wanted)
        if wanted[-1].partition("=")[2].lower() not in ("yes", "true", "on", "1"):
            return ctx, rest, ""
        game = words[1] if len(words) > 1 else "game"
        try:
            thread = await self.sender.bot.http.start_thread_without_message(
                int(ctx.chat), name=f"agora {game}"[:100], auto_archive_duration=10080, type=11
            )
        except discord.HTTPException as exc:
            # Decision: without the right to open threads the table plays in the channel
            # itself rather than not at all; the reply says so.
            log.info("could not open a thread in %s (%s); playing in the channel", ctx.chat, exc)
            return ctx, rest, "I may not open threads here, so the table plays in this channel."
        tid = str(thread["id"])
        return dataclasses.replace(ctx, chat=tid), rest, f"The table plays in the thread <#{tid}>."

    async def show(self, interaction: discord.Interaction[Any], reply: list[Part], *, ephemeral: bool) -> None:
        """Show a reply after a deferred slash command.

        Ephemeral defer: everything is ephemeral (the board of a move comes through the outbox).
        Public defer: a refusal replaces the public "thinking" message with an ephemeral one;
        public parts fill the original; private parts follow ephemerally.
        """
        refused = [p for p in reply if not p.ok]
        if ephemeral:
            await self._emit(interaction, reply or [Part(text="Done.")], original=True, ephemeral=True)
            return
        if refused:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.debug("could not delete the deferred response of %s", interaction.id)
            await self._emit(interaction, refused, original=False, ephemeral=True)
            return
        public = [p for p in reply if not p.private] or [Part(text="Done.")]
        private = [p for p in reply if p.private]
        await self._emit(interaction, public, original=True, ephemeral=False)
        if private:
            await self._emit(interaction, private, original=False, ephemeral=True)

    async def _emit(
        self, interaction: discord.Interaction[Any], parts: list[Part], *, original: bool, ephemeral: bool
    ) -> None:
        """Each part as its message(s): the first may fill the deferred original."""
        first = original
        for part in parts:
            chunks = fmt.split_text(fmt.slash_hints(part.text)) or ([""] if part.image or part.buttons else [])
            view = await self.sender.view_for(part)
            for i, chunk in enumerate(chunks):
                last = i == len(chunks) - 1
                # The board and its pages (ten files at most: The Capitals has six at most).
                files = self.sender.files_for(part)[:1] if i == 0 else []
                batch = files[0] if files else []
                if first:
                    await interaction.edit_original_response(
                        content=chunk or None,
                        attachments=batch,
                        view=view if last and view is not None else None,
                    )
                    first = False
                    continue
                kwargs: dict[str, Any] = {"ephemeral": ephemeral, "wait": True}
                if batch:
                    kwargs["files"] = batch
                if last and view is not None:
                    kwargs["view"] = view
                await interaction.followup.send(chunk or "\u200b", **kwargs)

    async def _sorry(self, interaction: discord.Interaction[Any]) -> None:
        """Apologise privately: a public "thinking" message is removed first, since the first
        follow-up of a deferred response would otherwise take its (public) visibility."""
        try:
            if interaction.type == discord.InteractionType.application_command:
                try:
                    await interaction.delete_original_response()
                except discord.HTTPException:
                    log.debug("no deferred response to remove for %s", interaction.id)
            await interaction.followup.send(SORRY, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report a failure for interaction %s", interaction.id)

    # ----------------------------------------------------------- components
    async def on_component(self, interaction: discord.Interaction[Any], gid: str, seat: int, token: str) -> None:
        """A pressed button or a chosen select option: re-validated like typed text."""
        if not await self._defer(interaction, ephemeral=True, update=True):
            return
        try:
            await self._press(interaction, gid, seat, token)
        except Exception:
            log.exception("component press failed")
            await self._sorry(interaction)

    async def _press(self, interaction: discord.Interaction[Any], gid: str, seat: int, token: str) -> None:
        ctx = make_context(interaction)
        expired = [Part(ok=False, code="button/expired")]
        reply = await self.client.press_async(ctx, token, self.sender.io) if token else expired
        first = reply[0] if reply else Part()
        if not first.ok:
            if first.code == "auth/not_your_button":
                label = await self.sender.io(self.client.seat_label, gid, seat)
                text = f"This is {label}'s button. `/agora moves` shows yours when it is your turn."
            elif first.code in STALE_CODES:
                text = (
                    "The game has moved on; this button no longer does anything. "
                    "`/agora moves` shows the current moves."
                )
                await self._clear(interaction)
            else:
                text = first.text or SORRY
            await interaction.followup.send(fmt.slash_hints(text), ephemeral=True)
            return
        if first.code == "moves/page":
            view = await self.sender.view_for(first)
            if first.private and not ctx.private and not _ephemeral(interaction):
                await self._emit(interaction, [first], original=False, ephemeral=True)
            else:
                await interaction.edit_original_response(content=fmt.slash_hints(first.text), view=view)
            return
        await self._clear(interaction)
        done = [p for p in reply if p.ok and not p.private]
        note = (done[0].text.splitlines() or ["Done."])[0] if done else "Done."
        # Private events of the move also reach the player's DMs through the outbox; they are
        # shown here too, as the DM may be refused and this is where the player is looking.
        private = [p for p in reply if p.private]
        await interaction.followup.send("✓ " + fmt.slash_hints(note), ephemeral=True)
        if private:
            await self._emit(interaction, private, original=False, ephemeral=True)

    async def _clear(self, interaction: discord.Interaction[Any]) -> None:
        """Take the components off the message that was pressed."""
        try:
            await interaction.edit_original_response(view=None)
        except discord.HTTPException as exc:
            log.debug("could not remove components after a press: %s", exc)

    # --------------------------------------------------------- autocomplete
    async def move_choices(self, interaction: discord.Interaction[Any], typed: str) -> list[tuple[str, str]]:
        """(name, value) pairs for ``/agora move``: my legal moves, best matches first. A
        failure offers a note instead of nothing, so the picker never just spins."""
        ctx = make_context(interaction)
        try:
            return await self.sender.io(move_choices, self.client, ctx, typed)
        except Exception:
            log.exception("move autocomplete failed")
            return [("Moves are not available right now; type your move.", typed[:100] or "moves")]

    async def on_unknown_component(self, interaction: discord.Interaction[Any]) -> None:
        """A component that is not one of ours (a message from an older version of the bot):
        answer it anyway, so Discord never shows "This interaction failed"."""
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if interaction.type != discord.InteractionType.component or KNOWN_COMPONENT.match(custom_id):
            return
        try:
            await interaction.response.send_message(
                "This button no longer works. `/agora moves` shows your current moves.", ephemeral=True
            )
        except discord.HTTPException as exc:
            log.info("could not answer unknown component %r: %s", custom_id, exc)


def _ephemeral(interaction: discord.Interaction[Any]) -> bool:
    msg = interaction.message
    return bool(msg is not None and msg.flags.ephemeral)


def rank(typed: str, moves: list[str], limit: int = 25) -> list[str]:
    """Moves matching ``typed``, best first: prefix of the whole notation, then prefix of a
    word, then substring, then every typed word found somewhere; engine order breaks ties."""
    q = " ".join(typed.lower().split())
    if not q:
        return moves[:limit]
    words = q.split()
    scored = []
    for i, m in enumerate(moves):
        low = m.lower()
        if low.startswith(q):
            score = 0
        elif any(w.startswith(q) for w in low.split()):
            score = 1
        elif q in low:
            score = 2
        elif all(w in low for w in words):
            score = 3
        else:
            continue
        scored.append((score, i, m))
    return [m for _, _, m in sorted(scored)][:limit]


def move_choices(client: Client, ctx: Context, typed: str) -> list[tuple[str, str]]:
    """Blocking: the autocomplete choices for a move typed so far (runs in the pool)."""
    gid = client.chat_game(PLATFORM, ctx.chat)
    if not gid or ctx.private:
        mine = [g for g in client.user_game_ids(PLATFORM, ctx.user) if client.game_status(g) == "active"]
        waiting = [g for g in mine if client.awaits(g, PLATFORM, ctx.user)]
        gid = (waiting or mine or [gid or ""])[0]
    status = client.game_status(gid) if gid else ""
    if status == "over":
        return [("This game is over; there is nothing left to move.", "game over")]
    if status != "active":
        return [("There is no running game here; start one with /agora new.", "no game")]
    moves = client.awaited_moves(gid, PLATFORM, ctx.user, variants=True)
    if not moves:
        return [("It is not your turn; /agora status shows who is awaited.", "not my turn")]
    return [(m[:100], m[:100]) for m in rank(typed, moves)]
