"""Command rate limits per user and per chat, counted in Redis across bot processes."""

from __future__ import annotations

from typing import Any

import pytest

from workers import settings
from workers.client import Client, Context


@pytest.fixture
def limited(redis_url: str, store: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("AGORA_RATE_USER", "3/10 seconds")
    monkeypatch.setenv("AGORA_RATE_CHAT", "5/minute")
    clients = [Client(redis_url), Client(redis_url)]  # two bot processes
    yield clients
    for c in clients:
        c.close()


def _ctx(user: str, chat: str = "-100", platform: str = "telegram") -> Context:
    return Context(platform, chat, user, f"User {user}")


def test_a_user_is_slowed_down_and_told_when_to_retry(limited: list[Client]) -> None:
    a, b = limited
    for client in (a, b, a):  # the count is shared by both processes
        assert client.command(_ctx("1"), "help")[0].ok
    refused = b.command(_ctx("1"), "help")
    assert len(refused) == 1 and not refused[0].ok and refused[0].code == "rate/limited"
    text = refused[0].text
    assert text.startswith("🐢 Slow down a little") and "try again in" in text and "second" in text
    assert a.command(_ctx("1"), "help") == []  # answered once per window, not once per message
    assert a.command(_ctx("2"), "help")[0].ok  # someone else in the chat is not affected
    assert a.command(_ctx("1", chat="-200"), "status") == []  # the user's limit follows them


def test_a_chat_is_limited_as_a_whole(limited: list[Client]) -> None:
    a, _ = limited
    results = [a.command(_ctx(str(u)), "games") for u in range(10, 15)]
    assert all(r[0].ok for r in results)
    refused = a.command(_ctx("99"), "games")
    assert not refused[0].ok and "This chat is sending commands faster" in refused[0].text
    assert a.command(_ctx("99", chat="-300"), "games")[0].ok  # another chat is fine


def test_the_local_console_is_never_limited(limited: list[Client]) -> None:
    a, _ = limited
    for _ in range(8):
        assert a.command(_ctx("me", chat="local", platform="console"), "help")[0].ok


def test_bad_limit_settings_are_named() -> None:
    with pytest.raises(settings.SettingsError, match="AGORA_RATE_USER='lots': must be limits like"):
        settings.load({"AGORA_RATE_USER": "lots"})
    assert settings.load({"AGORA_RATE_CHAT": "off"}).agora_rate_chat == "off"
