"""Logs: text or JSON, the game context on every line, and no secret ever written."""

from __future__ import annotations

import io
import json
import logging

from workers import logs, settings

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def _capture(env: dict[str, str]) -> tuple[io.StringIO, logging.Handler]:
    stream = io.StringIO()
    handler = logs.setup(settings.load(env), stream=stream)
    return stream, handler


def test_json_lines_carry_game_seat_and_platform() -> None:
    stream, handler = _capture({"AGORA_LOG_FORMAT": "json", "AGORA_LOG_LEVEL": "INFO"})
    try:
        with logs.log_context(game="g7", seat=1, platform="telegram"):
            logging.getLogger("agora.test").info("move applied: %s", "rondel templum")
        logging.getLogger("agora.test").warning("outside any game")
    finally:
        logging.getLogger().removeHandler(handler)
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "move applied: rondel templum"
    assert (first["game"], first["seat"], first["platform"]) == ("g7", "1", "telegram")
    assert first["level"] == "INFO" and first["logger"] == "agora.test" and "time" in first
    assert second["game"] == "" and second["level"] == "WARNING"


def test_text_lines_name_the_game() -> None:
    stream, handler = _capture({"AGORA_LOG_LEVEL": "INFO"})
    try:
        with logs.log_context(game="g3", seat=0):
            logging.getLogger("agora.test").info("hello")
    finally:
        logging.getLogger().removeHandler(handler)
    assert "agora.test [game=g3 seat=0]: hello" in stream.getvalue()


def test_tokens_and_passwords_are_scrubbed_everywhere() -> None:
    env = {"TELEGRAM_TOKEN": TOKEN, "REDIS_URL": "redis://:hunter22-pw@127.0.0.1:1/0", "AGORA_LOG_LEVEL": "DEBUG"}
    stream, handler = _capture(env)
    log = logging.getLogger("httpx")
    try:
        log.info('HTTP Request: POST https://api.telegram.org/bot%s/getUpdates "HTTP/1.1 200 OK"', TOKEN)
        log.info("connecting to %s", "redis://:hunter22-pw@127.0.0.1:1/0")
        log.info("another token of the same shape 987654321:%s", "B" * 35)
        try:
            raise ConnectionError(f"could not reach redis://:hunter22-pw@127.0.0.1:1/0 with {TOKEN}")
        except ConnectionError:
            log.exception("failed")
    finally:
        logging.getLogger().removeHandler(handler)
    out = stream.getvalue()
    assert TOKEN not in out and "hunter22-pw" not in out and "B" * 35 not in out
    assert "bot***/getUpdates" in out and "redis://:***@127.0.0.1:1/0" in out
    assert "ConnectionError" in out  # the traceback itself is kept, only scrubbed


def test_celery_task_lines_keep_neither_arguments_nor_results() -> None:
    stream, handler = _capture({"AGORA_LOG_FORMAT": "json", "AGORA_LOG_LEVEL": "INFO"})
    context = {"id": "t1", "name": "agora.move", "runtime": 0.03, "return_value": "{'hand': 'Clay Pool'}",
               "args": "['g1', 'telegram:1', 'pick Clay Pool', 'k']", "kwargs": "{}"}
    try:
        logging.getLogger("celery.app.trace").info(
            "Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s", context, extra={"data": context}
        )
        logging.getLogger("celery.worker.strategy").info("Task %(name)s[%(id)s] received", context,
                                                         extra={"data": context})
    finally:
        logging.getLogger().removeHandler(handler)
    out = stream.getvalue()
    assert "Clay Pool" not in out
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["message"] == "Task agora.move[t1] succeeded in 0.03s" and "data" not in first
    assert second["message"] == "Task agora.move[t1] received"
