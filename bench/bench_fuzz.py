"""Bad input at scale: 100,000 fuzzed commands and button presses across the five games.

Run from the repository root:

    .venv/bin/python bench/bench_fuzz.py [--examples 100000] [--seed 1]

Runs ``tests/faults/test_fuzz.py`` (the same test CI runs with a few thousand examples) with
half the examples for typed commands and half for button presses, against the embedded Valkey
server the test fixtures start (or ``REDIS_URL``), and prints the pass/fail line, the mix of
inputs and the time taken. Every answer must be a friendly message: some text, no crash, no
traceback, no internal names (see ``tests/faults/fuzzing.py``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100_000, help="commands + presses in all (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the tables' games (default 1)")
    args = parser.parse_args()
    env = dict(os.environ, AGORA_FUZZ_EXAMPLES=str(args.examples // 2), AGORA_FUZZ_SEED=str(args.seed))
    env["PYTHONPATH"] = str(ROOT)
    cmd = [sys.executable, "-m", "pytest", "tests/faults/test_fuzz.py", "-q", "-s", "-p", "no:cacheprovider"]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.monotonic() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("fuzz:") or " passed" in ln or " failed" in ln]
    print(f"{args.examples:,} fuzzed inputs (seed {args.seed}) in {took:.0f} s")
    print("\n".join(lines))
    if proc.returncode:
        print(proc.stdout[-6000:])
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
