"""Configuration: validated at start with messages that name the variable; secrets from files;
`agora config check` prints the effective settings with secrets masked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots import cli
from workers import settings

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def test_defaults_are_valid() -> None:
    cfg = settings.load({})
    assert cfg.agora_log_level == "WARNING" and cfg.agora_log_format == "text"
    assert cfg.secret("redis_url") == "" and cfg.agora_sweep_seconds == 5.0


def test_every_wrong_variable_is_named_with_what_is_accepted() -> None:
    with pytest.raises(settings.SettingsError) as err:
        settings.load(
            {
                "AGORA_SWEEP_SECONDS": "5s",
                "DISCORD_SHARDS": "0",
                "AGORA_LOG_LEVEL": "loud",
                "AGORA_METRICS_PORT": "99999",
                "TELEGRAM_WEBHOOK_LISTEN": "nowhere",
            }
        )
    text = str(err.value)
    for var in ("AGORA_SWEEP_SECONDS", "DISCORD_SHARDS", "AGORA_LOG_LEVEL", "AGORA_METRICS_PORT"):
        assert var in text
    assert "TELEGRAM_WEBHOOK_LISTEN='nowhere': must be host:port" in text
    assert "Traceback" not in text


def test_case_of_levels_and_formats_is_forgiven() -> None:
    cfg = settings.load({"AGORA_LOG_LEVEL": "info", "AGORA_LOG_FORMAT": "JSON"})
    assert (cfg.agora_log_level, cfg.agora_log_format) == ("INFO", "json")


def test_secrets_from_files_and_a_secrets_folder(tmp_path: Path) -> None:
    (tmp_path / "token").write_text(TOKEN + "\n")
    cfg = settings.load({"TELEGRAM_TOKEN_FILE": str(tmp_path / "token")})
    assert cfg.secret("telegram_token") == TOKEN
    folder = tmp_path / "secrets"
    folder.mkdir()
    (folder / "DISCORD_TOKEN").write_text("abc.def.ghi-secret")
    cfg = settings.load({"AGORA_SECRETS_DIR": str(folder)})
    assert cfg.secret("discord_token") == "abc.def.ghi-secret"
    # a variable set directly wins over its file
    assert settings.load({"TELEGRAM_TOKEN": "direct-value", "TELEGRAM_TOKEN_FILE": str(tmp_path / "token")}).secret(
        "telegram_token"
    ) == "direct-value"
    with pytest.raises(settings.SettingsError, match="TELEGRAM_TOKEN_FILE: cannot read"):
        settings.load({"TELEGRAM_TOKEN_FILE": str(tmp_path / "missing")})


def test_public_view_hides_secrets_and_redis_passwords() -> None:
    cfg = settings.load({"TELEGRAM_TOKEN": TOKEN, "REDIS_URL": "redis://agora:hunter22@127.0.0.1:6379/0"})
    shown = cfg.public()
    assert shown["TELEGRAM_TOKEN"] == "set (hidden)"
    assert shown["REDIS_URL"] == "redis://agora:***@127.0.0.1:6379/0"
    assert TOKEN not in repr(cfg) and "hunter22" not in repr(cfg)


def test_require_names_the_missing_variable() -> None:
    with pytest.raises(settings.SettingsError, match="TELEGRAM_TOKEN is not set: to run the Telegram bot"):
        settings.require(settings.load({}), "TELEGRAM_TOKEN", why="to run the Telegram bot")


def test_config_check_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("REDIS_URL", "redis://:pw-secret-1@127.0.0.1:6379/0")
    assert cli.main(["config", "check"]) == 0
    out = capsys.readouterr().out
    assert "Configuration is valid" in out and "TELEGRAM_TOKEN" in out and "set (hidden)" in out
    assert TOKEN not in out and "pw-secret-1" not in out
    monkeypatch.setenv("AGORA_SWEEP_SECONDS", "-1")
    assert cli.main(["config", "check"]) == 2
    err = capsys.readouterr().err
    assert "AGORA_SWEEP_SECONDS='-1'" in err and "Traceback" not in err
