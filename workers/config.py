"""Settings read from the environment, in one place.

Why one module: every process (bot, worker, beat, console) must agree on the Redis URL, the
data folder and the timing knobs; reading them here keeps names and defaults consistent and
documented (README "Configuration").
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    """Process settings. ``redis_url`` empty means: start the embedded server."""

    redis_url: str
    data_dir: Path
    image_ttl: int
    move_timeout: float
    sweep_seconds: float
    default_turn_hours: float
    reminder_share: float
    log_level: str


def load() -> Settings:
    """Read the environment (see README, Configuration)."""
    return Settings(
        redis_url=os.environ.get("REDIS_URL", "").strip(),
        data_dir=Path(os.environ.get("AGORA_DATA_DIR", "agora-data")),
        image_ttl=int(os.environ.get("AGORA_IMAGE_TTL", "86400")),
        move_timeout=float(os.environ.get("AGORA_MOVE_TIMEOUT", "20")),
        sweep_seconds=float(os.environ.get("AGORA_SWEEP_SECONDS", "5")),
        default_turn_hours=float(os.environ.get("AGORA_TURN_HOURS", "48")),
        reminder_share=float(os.environ.get("AGORA_REMINDER_SHARE", "0.5")),
        log_level=os.environ.get("AGORA_LOG_LEVEL", "INFO"),
    )
