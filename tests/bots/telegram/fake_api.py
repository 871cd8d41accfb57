"""A fake Telegram Bot API on 127.0.0.1 for end-to-end tests of the adapter.

Why a fake server rather than a mocked ``Bot``: the real python-telegram-bot polling loop,
request layer and (form or multipart) wire format are part of what is tested. The fake
keeps Telegram's semantics where the adapter depends on them:

- ``getUpdates`` long-polls and honours ``offset`` as a confirmation: confirmed updates are
  forgotten, unconfirmed ones are returned again (that is how Telegram redelivers after a
  crash); :meth:`FakeBotApi.redeliver` re-sends an update regardless.
- a bot may not write first to a user who never opened the private chat (403), a keyboard
  edit that changes nothing is a 400, and a flood-control answer is a 429 with
  ``retry_after`` (injected with :meth:`FakeBotApi.fail`).

Every call is recorded with its parameters; every sent message is kept with its current
text/caption, keyboard and photo bytes.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

TOKEN = "123456:TEST-TOKEN"
BOT_ID = 999_000


@dataclass(frozen=True)
class FakeUser:
    id: int
    first_name: str

    @property
    def username(self) -> str:
        return self.first_name.lower()

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "is_bot": False, "first_name": self.first_name, "username": self.username}


@dataclass
class Call:
    """One request the bot made."""

    method: str
    params: dict[str, Any]
    at: float
    status: int = 200


@dataclass
class Msg:
    """A message the bot sent, as it is now (edits applied)."""

    chat: int
    message_id: int
    method: str
    text: str | None = None
    caption: str | None = None
    photo: bytes | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to: int | None = None
    at: float = 0.0
    deleted: bool = False
    edits: int = 0
    album: str | None = None  # the media group id of a photo sent in an album

    @property
    def body(self) -> str:
        return visible(self.text if self.text is not None else (self.caption or ""))

    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [b for row in rows for b in row]

    def labels(self) -> list[str]:
        return [b["text"] for b in self.buttons()]

    def button(self, label: str) -> dict[str, Any]:
        for b in self.buttons():
            if b["text"] == label:
                return b
        raise KeyError(f"no button {label!r} in {self.labels()}")

    def json(self, chat: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": self.message_id,
            "date": int(time.time()),
            "chat": chat,
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Agora", "username": "agora_test_bot"},
        }
        if self.text is not None:
            out["text"] = self.text
        if self.photo is not None:
            out["photo"] = [
                {"file_id": f"p{self.message_id}", "file_unique_id": f"u{self.message_id}", "width": 800, "height": 600}
            ]
            if self.caption is not None:
                out["caption"] = self.caption
        if self.reply_markup:
            out["reply_markup"] = self.reply_markup
        return out


@dataclass
class _Failure:
    status: int
    retry_after: int | None
    description: str


@dataclass
class FakeBotApi:
    """The server. ``await start()``; point PTB at :attr:`base_url`; ``await stop()``."""

    username: str = "agora_test_bot"
    group_id: int = -100_777
    calls: list[Call] = field(default_factory=list)
    messages: list[Msg] = field(default_factory=list)
    answers: dict[str, str | None] = field(default_factory=dict)
    reactions: list[tuple[int, int, Any]] = field(default_factory=list)
    started: set[int] = field(default_factory=set)  # users who opened the private chat
    pushed_at: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._pending: list[dict[str, Any]] = []
        self._forced: list[dict[str, Any]] = []
        self._all: dict[int, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self._mids: dict[int, itertools.count[int]] = {}
        self._queries = itertools.count(1)
        self._chats: dict[int, dict[str, Any]] = {
            self.group_id: {"id": self.group_id, "type": "supergroup", "title": "Agora test table"}
        }
        self._failures: dict[str, list[_Failure]] = {}
        self._new = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.webhook: dict[str, Any] | None = None
        self.commands: list[dict[str, Any]] = []
        self.queries: set[str] = set()
        self.admins: set[int] = set()  # users getChatMember reports as the group's owner

    # -------------------------------------------------------------- server
    async def start(self) -> FakeBotApi:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # ---------------------------------------------------------- updates in
    def add_group(self, chat_id: int, title: str = "Another group") -> int:
        self._chats[chat_id] = {"id": chat_id, "type": "supergroup", "title": title}
        return chat_id

    def chat_of(self, user: FakeUser, private: bool, group: int | None = None) -> dict[str, Any]:
        if private:
            chat = {"id": user.id, "type": "private", "first_name": user.first_name, "username": user.username}
            self._chats[user.id] = chat
            return chat
        return self._chats[group or self.group_id]

    def push_message(self, user: FakeUser, text: str, *, private: bool = False, group: int | None = None) -> int:
        """A user types ``text`` in the group (another ``group``, or their private chat)."""
        if private:
            self.started.add(user.id)
        chat = self.chat_of(user, private, group)
        message: dict[str, Any] = {
            "message_id": next(self._mid(chat["id"])),
            "date": int(time.time()),
            "chat": chat,
            "from": user.json(),
            "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        return self.push({"message": message})

    def push_callback(self, user: FakeUser, msg: Msg, data: str) -> int:
        """A user presses a button whose callback data is ``data`` on message ``msg``."""
        qid = f"q{next(self._queries)}"
        self.queries.add(qid)
        chat = self._chats[msg.chat]
        query = {
            "id": qid,
            "from": user.json(),
            "chat_instance": str(msg.chat),
            "data": data,
            "message": msg.json(chat),
        }
        return self.push({"callback_query": query})

    def press(self, user: FakeUser, msg: Msg, label: str) -> int:
        return self.push_callback(user, msg, msg.button(label)["callback_data"])

    def push(self, body: dict[str, Any]) -> int:
        uid = next(self._ids)
        update = {"update_id": uid, **body}
        self._all[uid] = update
        self._pending.append(update)
        self.pushed_at[uid] = time.perf_counter()
        self._new.set()
        return uid

    def redeliver(self, update_id: int) -> None:
        """Send an already delivered update once more, as Telegram does after a lost confirm."""
        self._forced.append(self._all[update_id])
        self._new.set()

    def message_id(self, update_id: int) -> int:
        """The id of the user's message carried by ``update_id``."""
        return int(self._all[update_id]["message"]["message_id"])

    def reactions_to(self, update_id: int) -> list[Any]:
        msg = self._all[update_id]["message"]
        return [r for r in self.reactions if r[:2] == (msg["chat"]["id"], msg["message_id"])]

    def unconfirmed(self) -> list[int]:
        return [u["update_id"] for u in self._pending]

    # ------------------------------------------------------------ failures
    def fail(self, method: str, *, retry_after: int | None = None, status: int = 502, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` fail: 429 with ``retry_after``, else ``status``."""
        for _ in range(times):
            if retry_after is not None:
                f = _Failure(429, retry_after, f"Too Many Requests: retry after {retry_after}")
            else:
                f = _Failure(status, None, "Bad Gateway" if status == 502 else "Internal Server Error")
            self._failures.setdefault(method, []).append(f)

    # ---------------------------------------------------------- inspection
    def sent(self, chat: int | None = None, *, since: float = 0.0) -> list[Msg]:
        return [m for m in self.messages if (chat is None or m.chat == chat) and m.at >= since and not m.deleted]

    def group(self, *, since: float = 0.0) -> list[Msg]:
        return self.sent(self.group_id, since=since)

    def photos(self, chat: int | None = None) -> list[Msg]:
        return [m for m in self.sent(chat) if m.photo is not None]

    def method_calls(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def unanswered(self) -> set[str]:
        return self.queries - set(self.answers)

    async def wait(self, predicate: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
        """Poll ``predicate`` until truthy (bounded); returns its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            await asyncio.sleep(0.01)
        raise AssertionError(f"fake Telegram: condition not met within {timeout} s {what}")

    # ----------------------------------------------------------- handlers
    def _mid(self, chat: int) -> itertools.count[int]:
        return self._mids.setdefault(chat, itertools.count(1))

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        form = await request.post()
        params: dict[str, Any] = {}
        for key, value in form.items():
            params[key] = value.file.read() if isinstance(value, web.FileField) else value
        call = Call(method, params, time.perf_counter())
        self.calls.append(call)
        failures = self._failures.get(method)
        if failures:
            f = failures.pop(0)
            call.status = f.status
            body: dict[str, Any] = {"ok": False, "error_code": f.status, "description": f.description}
            if f.retry_after is not None:
                body["parameters"] = {"retry_after": f.retry_after}
            return web.json_response(body, status=f.status)
        fn = getattr(self, f"_m_{method}", None)
        if fn is None:
            return self._error(404, f"Not Found: method {method} is not faked")
        result = await fn(params, call)
        if isinstance(result, web.Response):
            call.status = result.status
            return result
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    def _error(status: int, description: str) -> web.Response:
        return web.json_response({"ok": False, "error_code": status, "description": description}, status=status)

    async def _m_getMe(self, p: dict[str, Any], call: Call) -> Any:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Agora",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _m_getChatMember(self, p: dict[str, Any], call: Call) -> Any:
        uid = int(p["user_id"])
        user = {"id": uid, "is_bot": False, "first_name": f"user{uid}"}
        if uid in self.admins:
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    async def _m_deleteWebhook(self, p: dict[str, Any], call: Call) -> Any:
        self.webhook = None
        return True

    async def _m_setWebhook(self, p: dict[str, Any], call: Call) -> Any:
        self.webhook = p
        return True

    async def _m_setMyCommands(self, p: dict[str, Any], call: Call) -> Any:
        self.commands = json.loads(p["commands"])
        return True

    async def _m_getUpdates(self, p: dict[str, Any], call: Call) -> Any:
        offset = int(p.get("offset") or 0)
        timeout = float(p.get("timeout") or 0)
        limit = int(p.get("limit") or 100)
        if offset:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]  # confirmed
        deadline = time.monotonic() + timeout
        while True:
            batch = self._forced[:limit] + [u for u in self._pending if u["update_id"] >= offset]
            if batch:
                self._forced = self._forced[limit:]
                return batch[:limit]
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self._new.clear()
            try:
                await asyncio.wait_for(self._new.wait(), left)
            except TimeoutError:
                return []

    def _target(self, p: dict[str, Any]) -> tuple[int, web.Response | None]:
        chat = int(p["chat_id"])
        if chat not in self._chats:
            return chat, self._error(400, "Bad Request: chat not found")
        if self._chats[chat]["type"] == "private" and chat not in self.started:
            return chat, self._error(403, "Forbidden: bot can't initiate conversation with a user")
        return chat, None

    def _record(self, chat: int, method: str, p: dict[str, Any], **kw: Any) -> Msg:
        reply = p.get("reply_parameters")
        msg = Msg(
            chat,
            next(self._mid(chat)),
            method,
            reply_markup=_markup(p),
            at=time.perf_counter(),
            reply_to=json.loads(reply)["message_id"] if reply else None,
            **kw,
        )
        self.messages.append(msg)
        return msg

    async def _m_sendMessage(self, p: dict[str, Any], call: Call) -> Any:
        chat, err = self._target(p)
        if err:
            return err
        if not str(p.get("text", "")).strip():
            return self._error(400, "Bad Request: message text is empty")
        if len(p["text"]) > 4096 * 2:
            return self._error(400, "Bad Request: message is too long")
        return self._record(chat, "sendMessage", p, text=p["text"]).json(self._chats[chat])

    async def _m_sendPhoto(self, p: dict[str, Any], call: Call) -> Any:
        chat, err = self._target(p)
        if err:
            return err
        photo = p.get("photo")
        if not isinstance(photo, bytes) or not photo:
            return self._error(400, "Bad Request: there is no photo in the request")
        caption = p.get("caption")
        if caption is not None and len(visible(caption)) > 1024:
            return self._error(400, "Bad Request: message caption is too long")
        return self._record(chat, "sendPhoto", p, photo=photo, caption=caption).json(self._chats[chat])

    async def _m_sendMediaGroup(self, p: dict[str, Any], call: Call) -> Any:
        """An album: 2 to 10 photos, each uploaded as a file part named by ``attach://``."""
        chat, err = self._target(p)
        if err:
            return err
        media = json.loads(p.get("media") or "[]")
        if not 2 <= len(media) <= 10:
            return self._error(400, "Bad Request: wrong number of media in the album")
        photos: list[bytes] = []
        for item in media:
            ref = str(item.get("media", ""))
            data = p.get(ref.removeprefix("attach://")) if ref.startswith("attach://") else None
            if item.get("type") != "photo" or not isinstance(data, bytes) or not data:
                return self._error(400, "Bad Request: there is no photo in the request")
            photos.append(data)
        group = f"album{len(self.messages)}"
        return [
            self._record(chat, "sendMediaGroup", p, photo=photo, album=group).json(self._chats[chat])
            for photo in photos
        ]

    def albums(self, chat: int | None = None) -> list[list[Msg]]:
        """The albums sent, each as its photos in order."""
        groups: dict[str, list[Msg]] = {}
        for m in self.sent(chat):
            if m.album is not None:
                groups.setdefault(m.album, []).append(m)
        return list(groups.values())

    def _find(self, p: dict[str, Any]) -> Msg | None:
        chat, mid = int(p["chat_id"]), int(p["message_id"])
        for m in self.messages:
            if m.chat == chat and m.message_id == mid and not m.deleted:
                return m
        return None

    async def _m_editMessageReplyMarkup(self, p: dict[str, Any], call: Call) -> Any:
        msg = self._find(p)
        if msg is None:
            return self._error(400, "Bad Request: message to edit not found")
        markup = _markup(p)
        if (markup or None) == (msg.reply_markup or None) or (not markup and not msg.buttons()):
            return self._error(400, "Bad Request: message is not modified")
        msg.reply_markup = markup
        msg.edits += 1
        return msg.json(self._chats[msg.chat])

    async def _m_editMessageText(self, p: dict[str, Any], call: Call) -> Any:
        msg = self._find(p)
        if msg is None or msg.text is None:
            return self._error(400, "Bad Request: message to edit not found")
        msg.text, msg.reply_markup = p["text"], _markup(p)
        msg.edits += 1
        return msg.json(self._chats[msg.chat])

    async def _m_editMessageCaption(self, p: dict[str, Any], call: Call) -> Any:
        msg = self._find(p)
        if msg is None or msg.photo is None:
            return self._error(400, "Bad Request: message to edit not found")
        msg.caption, msg.reply_markup = p.get("caption"), _markup(p)
        msg.edits += 1
        return msg.json(self._chats[msg.chat])

    async def _m_deleteMessage(self, p: dict[str, Any], call: Call) -> Any:
        msg = self._find(p)
        if msg is None:
            return self._error(400, "Bad Request: message to delete not found")
        msg.deleted = True
        return True

    async def _m_answerCallbackQuery(self, p: dict[str, Any], call: Call) -> Any:
        qid = p["callback_query_id"]
        if qid in self.answers:
            return self._error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        self.answers[qid] = p.get("text")
        return True

    async def _m_setMessageReaction(self, p: dict[str, Any], call: Call) -> Any:
        self.reactions.append((int(p["chat_id"]), int(p["message_id"]), json.loads(p.get("reaction") or "[]")))
        return True


def _markup(p: dict[str, Any]) -> dict[str, Any] | None:
    raw = p.get("reply_markup")
    if not raw:
        return None
    data = json.loads(raw) if isinstance(raw, str) else raw
    return data if data.get("inline_keyboard") else None


def visible(html_text: str) -> str:
    """Text as the user sees it (tags removed, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))
