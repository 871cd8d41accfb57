"""The fault scenarios of tests/faults at size: 50 and 200 concurrent games by default.

Run from the repository root:

    .venv/bin/python bench/bench_faults.py [--games 50 200] [--kinds none worker redis consumer render duplicates]
        [--appendfsync always everysec] [--seconds 40] [--every 3] [--game duellum] [--threads 32]

Each scenario starts its own Valkey (AOF with the given ``appendfsync``), two supervised
workers and beat as ``agora worker --concurrency 2 --beat`` does, and the Telegram delivery loop
with a recording sender; simulated players move through ``workers.client.Client`` as fast as
the pipeline answers while one kind of fault is injected every few seconds (``redis`` runs once
per ``--appendfsync`` value; the others assume ``always``). It then drains the outbox and
checks every game (tests/faults/check.py) and prints one line per scenario: accepted moves,
lost, applied twice, replay mismatches, outbox entries, unsent, duplicates (and how many are
explained by a killed consumer), moves/s and answer p50/p99. Exit code 1 when a check failed
(``redis`` with ``everysec`` is reported, not judged: it may lose the last second).
Every process is stopped by its PID.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("AGORA_RATE_USER", "off")
os.environ.setdefault("AGORA_RATE_CHAT", "off")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--kinds", nargs="+", default=["none", "worker", "redis", "consumer", "duplicates"])
    parser.add_argument("--appendfsync", nargs="+", default=["always", "everysec"])
    parser.add_argument("--seconds", type=float, default=40.0, help="load time per scenario (default 40)")
    parser.add_argument("--every", type=float, default=3.0, help="mean seconds between faults (default 3)")
    parser.add_argument("--game", default="duellum")
    parser.add_argument("--threads", type=int, default=32, help="player threads (default 32)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game in the duplicates scenario")
    args = parser.parse_args()

    from tests.faults.scenarios import run, run_duplicates

    failed = False
    for n in args.games:
        for kind in args.kinds:
            for fsync in args.appendfsync if kind == "redis" else ["always"]:
                tmp = Path(tempfile.mkdtemp(prefix=f"agora-faults-{kind}-"))
                t0 = time.monotonic()
                if kind == "duplicates":
                    report = run_duplicates(tmp, games=n, game=args.game, moves=args.moves)
                else:
                    report = run(kind, tmp, games=n, game=args.game, duration=args.seconds, every=args.every,
                                 appendfsync=fsync, threads=args.threads)  # fmt: skip
                judged = not (kind == "redis" and fsync != "always")
                verdict = "ok" if report.ok() else ("FAILED" if judged else "reported")
                failed = failed or (judged and not report.ok())
                print(f"[{n} games, {kind}, appendfsync {fsync}, {time.monotonic() - t0:.0f} s] {verdict}: "
                      f"{report.summary()}", flush=True)  # fmt: skip
                for name in ("lost", "twice", "mismatched", "replay_diff", "unsent", "unexplained_duplicates",
                             "turns_without_image"):  # fmt: skip
                    values = getattr(report, name)
                    if values:
                        print(f"    {name}: {values[:8]}{' ...' if len(values) > 8 else ''}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
