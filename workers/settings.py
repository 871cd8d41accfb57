"""One settings object for every process, read from environment variables and secret files.

Why one object (a pydantic model fed from the environment by :func:`load`, which also reads
the secret files): the variables used to be read wherever they were needed, so a typo in a
number (``AGORA_SWEEP_SECONDS=5s``) surfaced as a traceback deep in a worker, and nothing could
print the configuration a process actually runs with. ``load()`` validates everything at start
and fails with one message per wrong variable, naming it; ``agora config check`` prints the
effective configuration with secrets masked.

Secrets (bot tokens, the webhook secret, a Redis URL with a password) can come from files:
``<VAR>_FILE`` names a file holding the value (the Docker and Kubernetes convention), or a
file named after the variable in ``AGORA_SECRETS_DIR`` (e.g. ``/run/secrets/TELEGRAM_TOKEN``).
A variable set directly wins over both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator

SECRET_FIELDS = (
    "telegram_token",
    "telegram_webhook_secret",
    "discord_token",
    "redis_url",
    "redis_password",
    "agora_broker_url",
)


class SettingsError(ValueError):
    """The configuration is not usable; the message names every wrong variable."""


class Settings(BaseModel):
    """Every variable Agora reads; the field name is the variable's name in lower case."""

    model_config = ConfigDict(extra="ignore", validate_default=True, frozen=True)

    redis_url: SecretStr = Field(
        SecretStr(""), description="Redis/Valkey URL of the store and broker; empty starts the embedded server"
    )
    redis_password: SecretStr = Field(
        SecretStr(""), description="password added to REDIS_URL when the URL has none (deploy files use a secret)"
    )
    redis_cluster: bool = Field(False, description="`1`: REDIS_URL is a seed node of a Redis Cluster")
    agora_broker_url: SecretStr = Field(
        SecretStr(""), description="Celery's broker when it is not the store's Redis (required with a cluster)"
    )
    telegram_token: SecretStr = Field(SecretStr(""), description="Telegram bot token from @BotFather")
    telegram_api_base: str = Field("", description="another Bot API server (tests, a local Bot API server)")
    telegram_webhook_url: str = Field("", description="public HTTPS URL for webhook mode; empty polls")
    telegram_webhook_listen: str = Field("127.0.0.1:8443", description="host:port the webhook server listens on")
    telegram_webhook_secret: SecretStr = Field(SecretStr(""), description="secret token Telegram sends with updates")
    telegram_consumer: str = Field("", description="outbox consumer name of this bot process (stable, unique)")
    telegram_overall_rate: str = Field(
        "30/1", description="messages the bot sends at most, as count/seconds (Telegram's limit: 30/1)"
    )
    telegram_group_rate: str = Field(
        "20/60", description="messages to one group at most, as count/seconds (Telegram's limit: 20/60)"
    )
    discord_token: SecretStr = Field(SecretStr(""), description="Discord bot token")
    discord_api_base: str = Field("", description="another Discord REST base (tests)")
    discord_gateway_url: str = Field("", description="another Discord gateway URL (tests)")
    discord_shards: str = Field("1", description="shard count, or `auto`")
    discord_consumer: str = Field("", description="outbox consumer name of this Discord bot process")
    agora_data_dir: Path = Field(Path("agora-data"), description="embedded server data, logs, images")
    agora_log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = Field(
        "WARNING", description="log level of every process"
    )
    agora_log_format: Literal["text", "json"] = Field("text", description="`json` writes one JSON object per line")
    agora_metrics_port: int = Field(
        0, ge=0, le=65535, description="Prometheus /metrics, /healthz, /readyz port; 0 is off"
    )
    agora_metrics_host: str = Field("127.0.0.1", description="address the metrics endpoint binds")
    agora_sweep_seconds: float = Field(5.0, gt=0, le=3600, description="how often beat sweeps deadlines")
    agora_visibility_timeout: int = Field(
        300, ge=1, description="seconds before the broker redelivers an unacknowledged task"
    )
    agora_render_workers: int = Field(
        1,
        ge=0,
        le=64,
        description="render worker processes (Celery queue `render`) `agora serve`/`agora worker` start; "
        "on a move worker: >0 queues a posted turn's board for them, 0 draws it in the move worker (tiny setups)",
    )
    agora_plugins: str = Field("", description="extra game modules to import (comma-separated)")
    agora_rate_user: str = Field(
        "20/10 seconds;120/minute", description="command limits per user (`;`-separated, or `off`)"
    )
    agora_rate_chat: str = Field("300/minute", description="command limits per chat (`;`-separated, or `off`)")

    @field_validator("agora_rate_user", "agora_rate_chat")
    @classmethod
    def _rates(cls, value: str) -> str:
        from workers.ratelimit import parse

        try:
            parse(value)
        except ValueError:
            raise ValueError("must be limits like `20/10 seconds;120/minute`, or `off`") from None
        return value

    @field_validator("redis_cluster", mode="before")
    @classmethod
    def _switch(cls, value: Any) -> Any:
        return False if isinstance(value, str) and not value.strip() else value

    @field_validator("agora_log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("agora_log_format", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("discord_shards")
    @classmethod
    def _shards(cls, value: str) -> str:
        v = value.strip().lower()
        if v != "auto" and not (v.isascii() and v.isdigit() and int(v) >= 1):
            raise ValueError("must be `auto` or a whole number of shards, at least 1")
        return v

    @field_validator("telegram_overall_rate", "telegram_group_rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        count, _, seconds = value.strip().partition("/")
        try:
            ok = float(count) > 0 and float(seconds) > 0
        except ValueError:
            ok = False
        if not ok:
            raise ValueError("must be count/seconds, e.g. 20/60")
        return value.strip()

    def rate(self, name: str) -> tuple[float, float]:
        """(count, seconds) of a ``count/seconds`` setting."""
        count, _, seconds = str(getattr(self, name)).partition("/")
        return float(count), float(seconds)

    @field_validator("telegram_webhook_listen")
    @classmethod
    def _listen(cls, value: str) -> str:
        host, _, port = value.rpartition(":")
        if not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
            raise ValueError("must be host:port, e.g. 127.0.0.1:8443")
        return value

    @field_validator("telegram_webhook_url", "telegram_api_base", "discord_api_base", "discord_gateway_url")
    @classmethod
    def _url(cls, value: str) -> str:
        v = value.strip()
        if v and urlsplit(v).scheme not in ("http", "https", "ws", "wss"):
            raise ValueError("must be a URL starting with http://, https://, ws:// or wss://")
        return v

    @model_validator(mode="after")
    def _broker_for_a_cluster(self) -> Settings:
        from workers import redisconn

        env = {"REDIS_CLUSTER": "1" if self.redis_cluster else ""}
        if redisconn.is_cluster(self.secret("redis_url"), env) and not self.secret("agora_broker_url"):
            raise ValueError(
                "REDIS_URL names a Redis Cluster, which Celery cannot use as its broker: set AGORA_BROKER_URL "
                "to a plain Redis or Sentinel URL for the task queue"
            )
        return self

    # ------------------------------------------------------------ helpers
    def secret(self, name: str) -> str:
        """The plain value of a secret field (only where it is used, never for printing)."""
        value = getattr(self, name)
        return value.get_secret_value().strip() if isinstance(value, SecretStr) else str(value)

    def store_url(self) -> str:
        """``REDIS_URL`` with ``REDIS_PASSWORD`` put in when the URL carries no password of its
        own; empty means "start the embedded server"."""
        url = self.secret("redis_url")
        password = self.secret("redis_password")
        if not url or not password:
            return url
        parts = urlsplit(url)
        if parts.password is not None:
            return url
        netloc = f"{quote(parts.username or '', safe='')}:{quote(password, safe='')}@{parts.netloc.rpartition('@')[2]}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))

    def public(self) -> dict[str, str]:
        """Every setting as the variable name and a printable value: secrets masked, and the
        password of a Redis URL hidden."""
        out: dict[str, str] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if name == "redis_url":
                shown = mask_url(self.secret(name)) or "(embedded server)"
            elif name == "agora_broker_url":
                shown = mask_url(self.secret(name)) or "(the store's Redis)"
            elif isinstance(value, SecretStr):
                shown = "set (hidden)" if value.get_secret_value() else "(not set)"
            else:
                shown = str(value) if str(value) != "" else "(not set)"
            out[name.upper()] = shown
        return out

    def describe(self) -> list[tuple[str, str]]:
        """(variable, what it means) for help texts."""
        return [(name.upper(), f.description or "") for name, f in type(self).model_fields.items()]


def mask_url(url: str) -> str:
    """``redis://:pw@host:6379/0`` → ``redis://:***@host:6379/0`` (no password in logs)."""
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _from_files(env: Mapping[str, str]) -> dict[str, str]:
    """Values of variables given as files: ``<VAR>_FILE`` or ``$AGORA_SECRETS_DIR/<VAR>``."""
    values: dict[str, str] = {}
    secrets_dir = env.get("AGORA_SECRETS_DIR", "").strip()
    for name in Settings.model_fields:
        var = name.upper()
        if env.get(var, "").strip():
            continue
        path_text = env.get(f"{var}_FILE", "").strip()
        if not path_text and secrets_dir and (Path(secrets_dir) / var).is_file():
            path_text = str(Path(secrets_dir) / var)
        if not path_text:
            continue
        path = Path(path_text)
        try:
            values[name] = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise SettingsError(f"{var}_FILE: cannot read {path_text} ({exc.strerror or exc}).") from exc
    return values


def load(env: Mapping[str, str] | None = None) -> Settings:
    """Validated settings from ``env`` (default: the process environment) and secret files.

    Raises:
        SettingsError: with one line per wrong variable, naming it and what is accepted.
    """
    source = dict(os.environ if env is None else env)
    given = {k.lower(): v for k, v in source.items() if k.lower() in Settings.model_fields}
    given.update(_from_files(source))
    try:
        return Settings.model_validate(given)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            msg = str(err["msg"]).removeprefix("Value error, ")
            if not err["loc"]:  # a rule over several variables: its message names them
                lines.append(msg)
                continue
            var = str(err["loc"][0]).upper()
            lines.append(f"{var}={source.get(var, given.get(var.lower(), ''))!r}: {msg}")
        raise SettingsError("Invalid configuration:\n  " + "\n  ".join(lines)) from None


def require(settings: Settings, *variables: str, why: str) -> None:
    """Fail with a clear message when a variable a command needs is not set."""
    missing = [v for v in variables if not settings.secret(v.lower())]
    if missing:
        names = " and ".join(missing)
        raise SettingsError(f"{names} {'is' if len(missing) == 1 else 'are'} not set: {why}.")
