"""A fake Discord on 127.0.0.1: REST under ``/api/v10`` plus the gateway websocket.

Why a fake server rather than mocked objects: discord.py's real gateway loop, HTTP client,
rate-limit handling, command tree and view store are part of what is tested. The fake keeps
Discord's semantics where the adapter depends on them:

- gateway: HELLO, IDENTIFY -> READY (per shard), heartbeats -> ACK, then ``INTERACTION_CREATE``
  pushed by the test (:meth:`FakeDiscord.slash`, :meth:`FakeDiscord.press`,
  :meth:`FakeDiscord.autocomplete`); an interaction not acknowledged within 3 s is marked
  failed ("This interaction failed" in a real client);
- interaction responses: a deferred response's first follow-up fills the deferred message
  and keeps its visibility (ephemeral or not); once the original is edited or deleted,
  follow-ups are messages of their own with their own flags; an interaction can be
  acknowledged only once (a second callback is a 400, code 40060);
- channel messages honour ``nonce`` with ``enforce_nonce`` (the same nonce in the same
  channel returns the first message instead of posting again); 429s with ``retry_after``
  are injected with :attr:`FakeDiscord.rate_limit_every`;
- a user who refuses DMs makes posts to their DM channel fail with 403, code 50007.

Every request is recorded; every message is kept as it is now (edits applied).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = "1100000000000000001"
TOKEN = "fake.discord.token"
GUILD = "1400000000000000001"
CHANNEL = "1500000000000000001"
OTHER_CHANNEL = "1500000000000000002"
BOT_USER = {"id": APP_ID, "username": "agora", "discriminator": "0", "avatar": None, "bot": True, "global_name": None}
EPHEMERAL = 64


@dataclass(frozen=True)
class FakeUser:
    id: str
    name: str

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.name.lower(), "global_name": self.name, "discriminator": "0",
                "avatar": None}


@dataclass
class Msg:
    """A message the bot made, as it is now."""

    id: str
    channel: str
    content: str = ""
    files: dict[str, bytes] = field(default_factory=dict)
    components: list[dict[str, Any]] = field(default_factory=list)
    ephemeral: bool = False
    viewer: str | None = None  # who sees an ephemeral message
    interaction: str | None = None
    nonce: str | None = None
    loading: bool = False
    deleted: bool = False
    at: float = 0.0
    edits: int = 0

    def custom_ids(self) -> list[str]:
        out = []
        for row in self.components:
            for c in row.get("components", []):
                if c.get("custom_id"):
                    out.append(c["custom_id"])
        return out

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 3]

    def labels(self) -> list[str]:
        out = [b.get("label", "") for b in self.buttons()]
        for s in self.selects():
            out += [o["label"] for o in s.get("options", [])] + [s.get("placeholder", "")]
        return out

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id, "channel_id": self.channel, "author": BOT_USER, "content": self.content,
            "attachments": [{"id": str(i + 1), "filename": n, "size": len(b), "url": f"https://cdn.fake/{n}",
                             "proxy_url": f"https://cdn.fake/{n}"} for i, (n, b) in enumerate(self.files.items())],
            "embeds": [], "mentions": [], "mention_roles": [], "pinned": False, "tts": False,
            "mention_everyone": False, "type": 0, "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None, "components": self.components,
            "flags": EPHEMERAL if self.ephemeral else 0, "application_id": APP_ID,
        }


@dataclass
class Interaction:
    """One interaction the test pushed and what the bot did with it."""

    id: str
    token: str
    user: FakeUser
    channel: str
    kind: int
    pushed: float
    acked: float | None = None
    response_type: int | None = None
    original: Msg | None = None
    completed: bool = False  # the deferred original was edited or deleted
    choices: list[dict[str, Any]] | None = None
    followups: list[Msg] = field(default_factory=list)
    extra_callbacks: int = 0
    base_edits: int = 0  # edits of the pressed message before the press
    payload: dict[str, Any] = field(default_factory=dict)  # what the gateway sent

    @property
    def ack_seconds(self) -> float | None:
        return None if self.acked is None else self.acked - self.pushed

    def replies(self) -> list[Msg]:
        """What the user got: the original (unless deleted) and the follow-ups, in order."""
        out = [self.original] if self.original is not None and not self.original.deleted else []
        return out + [m for m in self.followups if m is not self.original and not m.deleted]

    def text(self) -> str:
        return "\n".join(m.content for m in self.replies())


# A member's permissions in the channel: view, send, read history, use application commands;
# an admin has every permission.
MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 16) | (1 << 31))
ALL_PERMISSIONS = "2147483647"


class FakeDiscord:
    """The fake server. ``start`` binds a free port on 127.0.0.1."""

    def __init__(self) -> None:
        self.ids = itertools.count(1_600_000_000_000_000_001)
        self.requests: list[tuple[str, str, float, int]] = []
        self.messages: list[Msg] = []
        self.by_id: dict[str, Msg] = {}
        self.interactions: dict[str, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # scope ("global" or guild) -> commands
        self.admins: set[str] = set()  # user ids whose member permissions include managing the server
        self.sockets: list[web.WebSocketResponse] = []
        self.identified: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.seq = 0
        self.dm_channels: dict[str, str] = {}  # user -> DM channel
        self.dm_users: dict[str, str] = {}  # DM channel -> user
        self.refuses_dms: set[str] = set()
        self.threads: dict[str, str] = {}  # thread -> parent channel
        self.rate_limit_every = 0
        self.rate_limit_retry = 0.2
        self.rate_limited = 0
        self._posts = 0
        self.nonces: dict[tuple[str, str], Msg] = {}
        self.pressed: dict[str, Msg] = {}  # interaction -> the message whose component was used
        self.fail_posts_once: set[str] = set()  # nonces whose first post succeeds but "times out"
        self.runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------ server
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------ gateway
    async def _gateway(self, req: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(req)

        async def send(op: int, d: Any = None, t: str | None = None) -> None:
            s = None
            if op == 0:
                self.seq += 1
                s = self.seq
            await ws.send_str(json.dumps({"op": op, "d": d, "t": t, "s": s}))

        await send(10, {"heartbeat_interval": 41250})
        try:
            async for m in ws:
                if m.type != WSMsgType.TEXT:
                    continue
                p = json.loads(m.data)
                if p["op"] == 1:
                    self.heartbeats += 1
                    await send(11)
                elif p["op"] in (2, 6):
                    ident = p["d"]
                    self.identified.append(ident)
                    shard = ident.get("shard") or [0, 1]
                    await send(0, {"v": 10, "user": BOT_USER, "guilds": [], "session_id": f"s{len(self.identified)}",
                                   "resume_gateway_url": self.gateway_url, "shard": shard,
                                   "application": {"id": APP_ID, "flags": 0}}, "READY")
                    ws_shard = int(shard[0])
                    setattr(ws, "agora_shard", ws_shard)  # noqa: B010 - tag the socket with its shard
                    self.sockets.append(ws)
        finally:
            if ws in self.sockets:
                self.sockets.remove(ws)
        return ws

    async def _dispatch(self, t: str, d: dict[str, Any]) -> None:
        live = [ws for ws in self.sockets if not ws.closed]
        if not live:
            raise AssertionError("no bot is connected to the fake gateway")
        self.seq += 1
        await live[0].send_str(json.dumps({"op": 0, "d": d, "t": t, "s": self.seq}))

    async def wait_connected(self, timeout: float = 20.0, count: int = 1) -> None:
        await self.wait(lambda: len([w for w in self.sockets if not w.closed]) >= count, timeout, "the bot to connect")

    # ------------------------------------------------------- interactions
    def _base(self, user: FakeUser, channel: str, kind: int) -> tuple[Interaction, dict[str, Any]]:
        iid = str(next(self.ids))
        token = f"tok{iid}"
        inter = Interaction(iid, token, user, channel, kind, time.perf_counter())
        self.interactions[iid] = inter
        self.by_token[token] = inter
        d: dict[str, Any] = {
            "id": iid, "application_id": APP_ID, "type": kind, "token": token, "version": 1,
            "locale": "en-US", "app_permissions": "0", "entitlements": [], "attachment_size_limit": 10485760,
            "authorizing_integration_owners": {}, "channel_id": channel,
        }
        if channel in self.dm_users:
            d["channel"] = {"id": channel, "type": 1, "recipients": [user.json()]}
            d["user"] = user.json()
            d["context"] = 1
        else:
            parent = self.threads.get(channel)
            ctype = 11 if parent else 0
            d["guild_id"] = GUILD
            d["channel"] = {"id": channel, "type": ctype, "guild_id": GUILD, "name": f"chan-{channel[-3:]}",
                            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": parent}
            if parent:
                d["channel"]["thread_metadata"] = {"archived": False, "auto_archive_duration": 10080,
                                                   "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                                   "locked": False}
                d["channel"].update({"owner_id": APP_ID, "message_count": 0, "member_count": 1})
            d["member"] = {"user": user.json(), "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                           "deaf": False, "mute": False, "flags": 0,
                           "permissions": ALL_PERMISSIONS if user.id in self.admins else MEMBER_PERMISSIONS}
            d["context"] = 0
        return inter, d

    async def slash(self, user: FakeUser, sub: str, channel: str = CHANNEL, **options: Any) -> Interaction:
        """Push ``/agora <sub> option:value ...``; returns the interaction record."""
        inter, d = self._base(user, channel, 2)
        opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()
                if v is not None]
        d["data"] = {"id": "1700000000000000001", "name": "agora", "type": 1,
                     "options": [{"name": sub, "type": 1, "options": opts}]}
        inter.payload = d
        await self._dispatch("INTERACTION_CREATE", d)
        return inter

    async def autocomplete(self, user: FakeUser, sub: str, focused: str, channel: str = CHANNEL,
                           timeout: float = 10.0, **options: Any) -> list[dict[str, Any]]:
        """Push an autocomplete request while typing ``focused``; returns the offered choices."""
        inter, d = self._base(user, channel, 4)
        opts = [{"name": k, "type": 3, "value": v, **({"focused": True} if k == focused else {})}
                for k, v in options.items()]
        d["data"] = {"id": "1700000000000000001", "name": "agora", "type": 1,
                     "options": [{"name": sub, "type": 1, "options": opts}]}
        await self._dispatch("INTERACTION_CREATE", d)
        await self.wait(lambda: inter.choices is not None, timeout, "autocomplete choices")
        return list(inter.choices or [])

    async def press(self, user: FakeUser, message: Msg, custom_id: str, values: list[str] | None = None) -> Interaction:
        """Press a button (or choose ``values`` in a select menu) on ``message``."""
        inter, d = self._base(user, message.channel, 3)
        self.pressed[inter.id] = self.by_id.get(message.id, message)
        inter.base_edits = self.pressed[inter.id].edits
        d["message"] = message.payload()
        d["data"] = {"custom_id": custom_id, "component_type": 3 if values is not None else 2,
                     **({"values": values} if values is not None else {})}
        inter.payload = d
        await self._dispatch("INTERACTION_CREATE", d)
        return inter

    async def redeliver(self, inter: Interaction) -> None:
        """Send the same interaction again (a gateway replay after a reconnect)."""
        await self._dispatch("INTERACTION_CREATE", inter.payload)

    async def done(self, inter: Interaction, timeout: float = 30.0, *, replies: int = 1,
                   followup: bool = True) -> Interaction:
        """Wait until the interaction was acknowledged and has ``replies`` finished replies (a
        press: a follow-up, or with ``followup=False`` an edit of the pressed message)."""
        def ready() -> bool:
            if inter.acked is None:
                return False
            finished = [m for m in inter.replies() if not m.loading]
            if inter.response_type == 6 and followup:
                return bool(inter.followups)
            if inter.response_type == 6:  # a deferred update: done when a follow-up or an edit came
                return bool(inter.followups) or (
                    inter.original is not None and inter.original.edits > inter.base_edits)
            return len(finished) >= replies
        await self.wait(ready, timeout, f"a reply to interaction {inter.id}")
        return inter

    # -------------------------------------------------------------- REST
    async def _body(self, req: web.Request) -> tuple[Any, dict[str, bytes]]:
        if req.content_type.startswith("multipart/"):
            payload: Any = None
            files: dict[str, bytes] = {}
            async for part in await req.multipart():
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(data)
                else:
                    files[part.filename or "file"] = bytes(data)  # type: ignore[union-attr]
            return payload, files
        if req.can_read_body:
            raw = await req.read()
            return (json.loads(raw) if raw else None), {}
        return None, {}

    async def _rest(self, req: web.Request) -> web.Response:
        payload, files = await self._body(req)
        path = req.path.removeprefix("/api/v10")
        resp = await self._route(req.method, path, payload or {}, files)
        self.requests.append((req.method, path, time.perf_counter(), resp.status))
        return resp

    async def _route(self, method: str, path: str, body: dict[str, Any], files: dict[str, bytes]) -> web.Response:
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return js(BOT_USER)
        if path == "/oauth2/applications/@me":
            return js({"id": APP_ID, "name": "agora", "icon": None, "description": "", "bot_public": True,
                       "bot_require_code_grant": False, "owner": {**BOT_USER, "bot": False}, "verify_key": "00",
                       "flags": 0})
        if path == "/gateway/bot":
            return js({"url": self.gateway_url, "shards": 2,
                       "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                               "max_concurrency": 1}})
        if parts[0] == "applications" and parts[-1] == "commands":
            scope = parts[3] if len(parts) > 3 and parts[2] == "guilds" else "global"
            if method == "PUT":
                self.commands[scope] = [{**c, "id": str(next(self.ids)), "application_id": APP_ID, "version": "1",
                                         **({"guild_id": scope} if scope != "global" else {})} for c in body]
            return js(self.commands.get(scope, []))
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(parts[1], parts[2], body, files)
        if parts[0] == "webhooks":
            return self._webhook(method, parts, body, files)
        if path == "/users/@me/channels":
            user = str(body["recipient_id"])
            ch = self.dm_channels.setdefault(user, str(next(self.ids)))
            self.dm_users[ch] = user
            return js({"id": ch, "type": 1, "recipients": [{"id": user, "username": "u" + user[-4:],
                                                            "discriminator": "0", "avatar": None}],
                       "last_message_id": None})
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "threads" and method == "POST":
            tid = str(next(self.ids))
            self.threads[tid] = parts[1]
            return js({"id": tid, "type": 11, "guild_id": GUILD, "parent_id": parts[1], "name": body.get("name"),
                       "owner_id": APP_ID, "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                                                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                                                "locked": False}})
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and method == "POST":
            return self._post(parts[1], body, files)
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages":
            msg = self.by_id.get(parts[3])
            if msg is None:
                return js({"message": "Unknown Message", "code": 10008}, 404)
            if method == "PATCH":
                self._edit(msg, body, files)
                return js(msg.payload())
            if method == "DELETE":
                msg.deleted = True
                return web.Response(status=204)
        return js({"message": f"not faked: {method} {path}", "code": 0}, 404)

    def _new(self, channel: str, body: dict[str, Any], files: dict[str, bytes], **kw: Any) -> Msg:
        msg = Msg(str(next(self.ids)), channel, body.get("content") or "", dict(files),
                  list(body.get("components") or []), at=time.perf_counter(), **kw)
        self.messages.append(msg)
        self.by_id[msg.id] = msg
        return msg

    def _edit(self, msg: Msg, body: dict[str, Any], files: dict[str, bytes]) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "components" in body:
            msg.components = list(body["components"] or [])
        if files:
            msg.files = dict(files)
        elif "attachments" in body and not body["attachments"]:
            msg.files = {}
        msg.loading = False
        msg.edits += 1
        msg.at = time.perf_counter()

    def _post(self, channel: str, body: dict[str, Any], files: dict[str, bytes]) -> web.Response:
        self._posts += 1
        if self.rate_limit_every and self._posts % self.rate_limit_every == 0:
            self.rate_limited += 1
            return js({"message": "You are being rate limited.", "retry_after": self.rate_limit_retry,
                       "global": False}, 429,
                      {"Via": "1.1 google", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                       "X-RateLimit-Reset-After": str(self.rate_limit_retry), "X-RateLimit-Bucket": "fakebucket",
                       "Retry-After": "1"})
        if len(files) > 10:
            return js({"message": "Invalid Form Body", "code": 50035}, 400)  # at most 10 attachments
        user = self.dm_users.get(channel)
        if user is not None and user in self.refuses_dms:
            return js({"message": "Cannot send messages to this user", "code": 50007}, 403)
        nonce = body.get("nonce")
        if nonce and body.get("enforce_nonce") and (channel, str(nonce)) in self.nonces:
            return js(self.nonces[(channel, str(nonce))].payload())
        msg = self._new(channel, body, files, nonce=str(nonce) if nonce else None)
        if nonce:
            self.nonces[(channel, str(nonce))] = msg
        if nonce and str(nonce) in self.fail_posts_once:
            self.fail_posts_once.discard(str(nonce))
            return js({"message": "upstream timed out", "code": 0}, 503)  # it went through anyway
        return js(msg.payload())

    def _callback(self, iid: str, token: str, body: dict[str, Any], files: dict[str, bytes]) -> web.Response:
        inter = self.by_token.get(token)
        if inter is None or inter.id != iid:
            return js({"message": "Unknown interaction", "code": 10062}, 404)
        if inter.acked is not None:
            inter.extra_callbacks += 1
            return js({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
        inter.acked = time.perf_counter()
        kind = int(body["type"])
        inter.response_type = kind
        data = body.get("data") or {}
        eph = bool(int(data.get("flags") or 0) & EPHEMERAL)
        if kind == 8:
            inter.choices = list(data.get("choices") or [])
            return js({"interaction": {"id": iid, "type": inter.kind}, "resource": {"type": 8}})
        if kind in (4, 5):
            inter.original = self._new(inter.channel, data, files, ephemeral=eph, viewer=inter.user.id if eph else None,
                                       interaction=iid, loading=kind == 5)
            if kind == 4:
                inter.completed = True
            return js({"interaction": {"id": iid, "type": inter.kind, "response_message_id": inter.original.id,
                                       "response_message_loading": kind == 5, "response_message_ephemeral": eph},
                       "resource": {"type": kind, "message": inter.original.payload()}})
        if kind in (6, 7):
            # The component's message is the one the press came from (kept by ``press``).
            inter.original = self.pressed.get(iid)
            inter.completed = True
            if kind == 7 and inter.original is not None:
                self._edit(inter.original, data, files)
            return js({"interaction": {"id": iid, "type": inter.kind}, "resource": {"type": kind}})
        return js({"message": f"callback type {kind} not faked", "code": 0}, 400)

    def _webhook(self, method: str, parts: list[str], body: dict[str, Any], files: dict[str, bytes]) -> web.Response:
        inter = self.by_token.get(parts[2])
        if inter is None:
            return js({"message": "Unknown Webhook", "code": 10015}, 404)
        if len(parts) == 3 and method == "POST":
            eph = bool(int(body.get("flags") or 0) & EPHEMERAL)
            orig = inter.original
            if orig is not None and orig.loading and not inter.completed:
                self._edit(orig, body, files)  # the first follow-up fills the deferred message
                inter.completed = True
                inter.followups.append(orig)
                return js(orig.payload())
            msg = self._new(inter.channel, body, files, ephemeral=eph, viewer=inter.user.id if eph else None,
                            interaction=inter.id)
            inter.followups.append(msg)
            return js(msg.payload())
        target = parts[4] if len(parts) > 4 else ""
        msg = inter.original if target == "@original" else self.by_id.get(target)
        if msg is None:
            return js({"message": "Unknown Message", "code": 10008}, 404)
        if method == "PATCH":
            self._edit(msg, body, files)
            if target == "@original":
                inter.completed = True
            return js(msg.payload())
        if method == "DELETE":
            msg.deleted = True
            msg.loading = False
            if target == "@original":
                inter.completed = True
            return web.Response(status=204)
        if method == "GET":
            return js(msg.payload())
        return js({"message": "not faked", "code": 0}, 404)

    # ------------------------------------------------------------ helpers
    async def wait(self, cond: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
        end = time.monotonic() + timeout
        while True:
            value = cond()
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.02)

    def channel(self, channel: str = CHANNEL, *, since: float = 0.0, public: bool = True) -> list[Msg]:
        """Messages in a channel everyone sees (no ephemeral ones, no deleted ones)."""
        return [m for m in self.messages if m.channel == channel and not m.deleted and m.at >= since
                and not (public and m.ephemeral) and not m.loading]

    def boards(self, channel: str = CHANNEL, *, since: float = 0.0) -> list[Msg]:
        return [m for m in self.channel(channel, since=since) if m.files and m.interaction is None]

    def dms(self, user: FakeUser) -> list[Msg]:
        ch = self.dm_channels.get(user.id)
        return [m for m in self.messages if ch and m.channel == ch and not m.deleted]

    def unanswered(self) -> list[Interaction]:
        """Interactions never acknowledged, or acknowledged after Discord's 3 s window."""
        return [i for i in self.interactions.values() if i.kind != 4 and (i.acked is None or i.acked - i.pushed > 3.0)]

    def posts(self) -> list[tuple[str, str, float, int]]:
        return [r for r in self.requests if r[0] == "POST" and r[1].startswith("/channels/")]


def js(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with exactly ``application/json`` (discord.py parses nothing else)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})
