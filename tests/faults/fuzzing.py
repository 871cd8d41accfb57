"""Bad input for the five real games: a table of each, and inputs built from their own moves.

Why built from legal moves: random text almost never gets past the first word, so it tests only
the command dispatcher. Mutating what ``moves`` lists (a token dropped, doubled, swapped, a
number made huge or non-ASCII, a word from another move) reaches the engines' notation parsers,
the button payloads and the pipeline's validation, where crashes hide. Exact legal moves are
mixed in so the tables advance and later phases of every game are reached too.

Shared by ``tests/faults/test_fuzz.py`` (a few thousand examples in CI) and
``bench/bench_fuzz.py`` (the full 100,000).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from workers import lobby, pipeline
from workers.client import game_players
from workers.commands import Commands
from workers.pipeline import MoveResult
from workers.replies import Part
from workers.store import Store

GAMES = ("duellum", "seven-wonders", "clash", "mare-nostrum", "capitals")

# What a player must never see: a traceback, an exception's name, Python's reprs, internal
# identifiers. ``None`` alone is Python's; "None of ..." is English.
FORBIDDEN = re.compile(
    r"Traceback|File \"|\b\w+(Error|Exception)\b|object at 0x|<[a-z_.]+ |\bNone\b(?! of)|\b(True|False)\b"
    r"|__\w+__|\bself\.|\bkwargs\b|\bdict\[|\blist\[|\bNoneType\b|\bstr\b\(|\bint\("
)

COMMAND_WORDS = [
    "moves", "moves all", "status", "hand", "log", "log 3", "log ²", "log -1", "log 99999999999999999999",
    "help", "undo", "mygames", "myturns", "mute turn", "settings", "games", "join", "leave", "begin",
    "timer", "away 3d", "back", "pause", "resume", "link",
]  # fmt: skip
NUMBERS = ["0", "-1", "1", "2", "99", "999999999999999999999", "1e309", "nan", "²", "٣", "½", "+3", "0x10", "1.5"]
JUNK = [
    "",
    " ",
    ",",
    ";",
    ":",
    "-",
    "—",
    "@",
    "#",
    "'",
    '"',
    "\\",
    "\x00",
    "\u200b",
    "🏛",
    "ǅ",
    "ß",
    "İ",
    "\t",
    "...",
    "()",
]


def check_reply(reply: Any, where: str, typed: str = "") -> None:
    """A friendly answer: a list of parts, some text, no crash code and no internals (words
    the player typed may be quoted back: ``move True`` is answered "`move True` is not a legal
    move", so they are left out of that check)."""
    assert isinstance(reply, list) and reply, f"{where}: empty reply {reply!r}"
    assert all(isinstance(p, Part) for p in reply), f"{where}: {reply!r}"
    assert any(isinstance(p.text, str) and p.text.strip() for p in reply), f"{where}: no text in {reply!r}"
    for p in reply:
        assert p.code != "internal", f"{where}: crashed ({p.text!r})"
        shown = p.text or ""
        for word in set(typed.split()):
            if FORBIDDEN.search(word):  # only a typed word that itself looks internal, whole
                shown = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", shown)
        bad = FORBIDDEN.search(shown)
        assert bad is None, f"{where}: internal text {bad.group(0)!r} in {p.text!r}"


def sync_commands(store: Store) -> Commands:
    """Moves applied synchronously by the pipeline (the client sends them through Celery)."""
    counter = iter(range(10**12))

    def submit(gid: str, user: str, text: str, idem: str, typed: str = "") -> MoveResult:
        return pipeline.submit(store, gid, text=text, idem=idem or f"fz:{next(counter)}", user=user, typed=typed)

    return Commands(store, submit)


@dataclass
class Table:
    """One running game of the fuzz world and the users seated at it."""

    game: str
    gid: str
    users: list[str]
    chat: str
    tokens: list[str] = field(default_factory=list)  # button tokens seen at this table


class World:
    """A table of each of the five games; a finished table is replaced by a new one."""

    def __init__(self, store: Store, seed: int = 1) -> None:
        self.store = store
        self.cmds = sync_commands(store)
        self.tables: dict[str, Table] = {}
        self.made = 0
        self.seed = seed
        for game in GAMES:
            self.new_table(game)

    def new_table(self, game: str) -> Table:
        self.made += 1
        lo, _ = game_players(game)
        chat = f"fz-{game}-{self.made}"
        users = [f"console:{game[:3]}{self.made}p{i}" for i in range(lo)]
        gid = lobby.create(self.store, game, platform="console", chat=chat, user=users[0], name="Ann", turn_hours=48)
        for i, u in enumerate(users[1:], 1):
            lobby.join(self.store, gid, u, f"Player {i + 1}")
        res = lobby.begin(self.store, gid, users[0], seed=self.seed + self.made)
        assert res.ok, res
        table = Table(game, gid, users, chat)
        self.tables[game] = table
        self.fast_forward(table, random.Random(self.seed * 1000 + self.made).randrange(0, 150))
        return table

    def fast_forward(self, table: Table, moves: int) -> None:
        """Play up to ``moves`` automatic moves, so later phases of a game are fuzzed too."""
        for n in range(moves):
            loaded = pipeline.load(self.store, table.gid)
            movers = sorted(loaded.game.to_move(loaded.state))
            if loaded.meta.get("status") != "active" or not movers:
                return
            seat = movers[n % len(movers)]
            action = loaded.game.auto_action(loaded.state, seat, self.seed + n)
            text = loaded.game.notation(loaded.state, seat, action)
            res = pipeline.submit(self.store, table.gid, text=text, idem=f"ff:{table.gid}:{n}", user=table.users[seat])
            assert res.ok, (table.game, text, res)

    def table(self, game: str) -> tuple[Table, pipeline.Loaded]:
        """The game's table and its loaded state (a finished game is replaced first)."""
        table = self.tables[game]
        while True:
            loaded = pipeline.load(self.store, table.gid)
            if loaded.meta.get("status") == "active" and loaded.game.to_move(loaded.state):
                return table, loaded
            table = self.new_table(game)  # fast-forwarding may have finished it: again


def legal_texts(loaded: pipeline.Loaded, seat: int, limit: int = 300) -> list[str]:
    game, state = loaded.game, loaded.state
    if seat not in game.to_move(state):
        return []
    return [game.notation(state, seat, a) for a in game.legal_actions(state, seat)[:limit]]


def mutate(text: str, vocab: list[str], rnd: random.Random) -> str:
    """One to three random edits of a move's text (see the module docstring)."""
    words = text.split()
    for _ in range(rnd.randint(1, 3)):
        op = rnd.randrange(12)
        i = rnd.randrange(len(words)) if words else 0
        if op == 0 and words:
            del words[i]
        elif op == 1 and words:
            words.insert(i, words[i])
        elif op == 2 and len(words) > 1:
            j = rnd.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        elif op == 3 and words and vocab:
            words[i] = rnd.choice(vocab)
        elif op == 4 and words:
            words[i] = words[i].upper() if rnd.random() < 0.5 else words[i].title()
        elif op == 5:
            words.insert(i, rnd.choice(NUMBERS))
        elif op == 6 and words:
            words[i] = re.sub(r"\d+", rnd.choice(NUMBERS), words[i]) if re.search(r"\d", words[i]) else words[i][:-1]
        elif op == 7 and words:
            words[i] = words[i] + rnd.choice(JUNK)
        elif op == 8 and words:
            cut = rnd.randrange(len(words[i]) + 1)
            words[i] = words[i][:cut] + rnd.choice(JUNK) + words[i][cut:]
        elif op == 9:
            words = ["".join(words)] if rnd.random() < 0.5 else words + [rnd.choice(vocab or JUNK)] * rnd.randint(1, 40)
        elif op == 10:
            words = [w for w in words if rnd.random() < 0.5] or [rnd.choice(vocab or JUNK)]
        elif op == 11 and vocab:
            words = [rnd.choice(vocab) for _ in range(rnd.randint(1, 6))]
    return " ".join(words)


def vocabulary(loaded: pipeline.Loaded, texts: list[str]) -> list[str]:
    words = {w for t in texts for w in t.split()} | {str(v) for v in loaded.game.verbs}
    return sorted(words)
