"""``agora play``: a local game in the terminal through the real Redis + Celery pipeline.

Why the same path as production: a newcomer's first game exercises exactly what a Telegram
table does (commit, outbox, automatic players, board images), so what works here works there.
The terminal is one more platform (``console``): replies are printed, board images are
written as PNG files into a folder named once at start.

The lobby (``new``, ``join``, ``begin``) is run here on the player's behalf and described in
the terminal's own words; every other line goes to the shared command layer unchanged.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import TextIO

from bots.console.table import PLATFORM, ConsoleTable
from bots.console.terminal import Terminal, history_file
from workers.client import Client, Context, Part, game_players, local_services

LOCAL_HELP = """\
Type a move as `moves` lists it (the word `move` in front is optional), or one of:
  moves [all]    your legal moves (`all`: every payment variant too)
  board          the current board, written as an image file
  status         whose turn it is, what is awaited, the scores
  hand           your private information
  log [n]        the last n things that happened
  undo           take back your last move (only before anyone else moved)
  resign         give up this game
  mygames        your saved local games and how to resume them
  help <game>    the rules summary and notation of a game
  quit           leave; the game is saved (Ctrl-D does the same)"""

# Commands the terminal passes to the shared layer as they are (everything else is a move).
_PASS = {"moves", "board", "status", "hand", "log", "undo", "resign", "help", "h", "?"}
_HINT_LIMIT = 6


class Quit(Exception):
    """The player asked to leave (``quit``, Ctrl-D)."""


def play(
    game: str | None,
    *,
    seed: int | None,
    options: dict[str, str],
    human: str,
    players: int | None,
    images: Path | None,
    data_dir: Path,
    stdin: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    hours: float = 0,
    resume: str | None = None,
) -> int:
    """Run a local game (new, or ``resume``: a saved one); returns the process exit code.

    Exit codes: 0 the game ended or the player left it saved; 2 bad arguments; 130 Ctrl-C.
    """
    term = Terminal(stdin, out, history_file(data_dir))
    if resume is None:
        name = game or "duellum"
        lo, hi = game_players(name)
        n = players or lo
        if not lo <= n <= hi:
            seats = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
            out.write(f"{name} is for {seats}; --players {n} is not possible.\n")
            return 2
        humans = {"none": [], "1": ["you"], "2": ["you"], "both": ["you", "friend"]}.get(human)
        if humans is None:
            out.write("--human takes 1, 2, both or none.\n")
            return 2
        humans = humans[:n]
    out.write(f"Starting the local store and a worker (saved in {data_dir}) …\n")
    out.flush()
    table: ConsoleTable | None = None
    reader: threading.Thread | None = None
    try:
        # Decision: a console game runs without a render worker; its move worker draws each
        # board in line. Why: the one person at the terminal sees every turn, and automatic
        # players moving at machine speed outran a separate (lower-priority) render worker, so
        # the console's posts fell behind the game; drawn in line, the game waits for its board.
        with local_services(data_dir, render_workers=0) as services:
            client = Client(services.redis_url)
            # Decision: the console prints every turn post, never merging late ones into the
            # next (chat adapters do, see workers.outbox.MERGE_AFTER): a terminal has no flood
            # control, and the person at it reads each automatic player's turn as it comes.
            client.merge_after = None
            try:
                if resume is None:
                    table = _new_table(client, term, name, n, humans, human, seed, options, hours, images, data_dir)
                else:
                    table = _resumed_table(client, term, resume, images, data_dir)
                if table is None:
                    return 2
                reader = threading.Thread(target=table.deliver_forever, name="console-outbox", daemon=True)
                reader.start()
                if resume is None:
                    _begin(table, n, human, seed)
                return _run(table)
            finally:
                if table is not None:
                    table.stop.set()
                if reader is not None:
                    reader.join(5)
                term.close()
                client.close()
    except KeyboardInterrupt:
        gid = table.gid if table is not None else ""
        out.write(
            "\nStopped."
            + (f" The game is saved: continue it with `scripts/play --resume {gid}`." if gid else "")
            + "\n"
        )
        out.flush()
        return 130


def _new_table(
    client: Client,
    term: Terminal,
    game: str,
    n: int,
    humans: list[str],
    human: str,
    seed: int | None,
    options: dict[str, str],
    hours: float,
    images: Path | None,
    data_dir: Path,
) -> ConsoleTable | None:
    chat = f"local-{time.time_ns()}"
    table = ConsoleTable(client, chat, humans, Path("."), term)
    creator = humans[0] if humans else "host"
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    reply = client.command(table.ctx(creator), f"new {game} {opts} hours={hours:g}".replace("  ", " "))
    if not reply[0].ok:
        table.show(reply)
        return None
    gid = reply[0].text.split("`")[1]
    table.gid = gid
    for friend in humans[1:]:
        _quiet(table, client.command(table.ctx(friend), "join"))
    if not humans:
        _quiet(table, client.command(table.ctx(creator), "leave"))
    table.images = _image_folder(images, data_dir, gid)
    return table


def _resumed_table(
    client: Client, term: Terminal, which: str, images: Path | None, data_dir: Path
) -> ConsoleTable | None:
    gid = which.lower()
    if gid == "latest":
        saved = [g for g in _local_games(client) if g[1]["status"] == "active" and g[1]["resumable"]]
        if not saved:
            term.print("There is no saved local game to continue. `scripts/play` starts a new one.")
            return None
        gid = saved[0][0]
    info = client.game_summary(gid)
    if info is None or not info["home"].startswith(f"{PLATFORM}:"):
        term.print(f"There is no local game `{gid}`. `mygames` inside a game, or `scripts/play --resume`, finds them.")
        return None
    if info["status"] != "active":
        term.print(f"`{gid}` is {'over' if info['status'] == 'over' else 'not running'}; it cannot be continued.")
        return None
    if not info["resumable"]:
        term.print(f"`{gid}` was saved by another version of Agora and cannot be continued here.")
        return None
    humans = sorted({u.split(":", 1)[1] for u in info["users"].values() if u.startswith(f"{PLATFORM}:")})
    humans = [h for h in ("you", "friend") if h in humans] + [h for h in humans if h not in ("you", "friend")]
    table = ConsoleTable(client, info["home"].split(":", 1)[1], humans, _image_folder(images, data_dir, gid), term)
    table.gid = gid
    table.shown_v = info["posted"]
    term.print(f"Continuing {info['title']} `{gid}` after {info['version']} moves.")
    term.print(f"Board images are written to {table.images.resolve()}.")
    table.show(client.command(table.ctx(humans[0] if humans else "you"), f"board {gid}"))
    return table


def _image_folder(images: Path | None, data_dir: Path, gid: str) -> Path:
    folder = images if images is not None else data_dir / "images" / gid
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _begin(table: ConsoleTable, n: int, human: str, seed: int | None) -> None:
    client = table.client
    bots = n - len(table.humans)
    order = " order=bots-first" if human == "2" else ""
    seed_opt = f" seed={seed}" if seed is not None else ""
    creator = table.humans[0] if table.humans else "host"
    info = client.game_summary(table.gid) or {}
    reply = client.command(table.ctx(creator), f"begin bots={bots}{order}{seed_opt}")
    if not reply[0].ok:
        table.show(reply)
        return
    info = client.game_summary(table.gid) or info
    names = info.get("seat_names", [])
    users = info.get("users", {})
    mine = [names[s] for s, u in sorted(users.items()) if s < len(names) and u.startswith(f"{PLATFORM}:")]
    others = [n for s, n in enumerate(names) if s not in users]
    rivals = "the automatic player" + ("s" if len(others) > 1 else "") + (f" ({', '.join(others)})" if others else "")
    if human in ("1", "2") and mine:
        who = f"You play {_side(mine[0])} against {rivals}"
    elif human == "both" and len(mine) > 1:
        who = f"Two players at this keyboard: You play {_side(mine[0])}, Friend {_side(mine[1])} (hot seat)"
    else:
        who = f"You watch {rivals}" if others else "You watch"
    table.term.print(f"{info.get('title', 'The game')} `{table.gid}` begins. {who}.")
    table.term.print(f"Board images are written to {table.images.resolve()}.")
    if table.humans:
        table.term.print("Type `help` for the commands, `moves` for your moves, `quit` to leave (the game is saved).")


def _run(table: ConsoleTable) -> int:
    """Watch or play until the game ends or the player leaves; the exit code."""
    if not table.humans:
        while not table.over.wait(0.5):
            if table.client.game_status(table.gid) == "over" and table.shown_v >= _posted(table):
                table.over.set()
        _finish(table)
        return 0
    try:
        _input_loop(table)
    except Quit:
        table.term.print(f"The game is saved. Continue it with `scripts/play --resume {table.gid}`.")
        return 0
    _finish(table)
    return 0


def _posted(table: ConsoleTable) -> int:
    return int((table.client.game_summary(table.gid) or {}).get("posted", 0))


def _finish(table: ConsoleTable) -> None:
    """Say who won, from the status text, once the final board has been printed."""
    _wait_for_news(table)
    status = table.client.command(table.ctx(table.humans[0] if table.humans else "host"), f"status {table.gid}")
    over = [ln for ln in status[0].text.splitlines() if ln.startswith("Game over")]
    table.term.print("—" * 60)
    table.term.print(over[0] if over else "The game is over.")


def _input_loop(table: ConsoleTable) -> None:
    client = table.client
    hinted = -1
    while True:
        if client.game_status(table.gid) == "over":
            return
        _wait_for_news(table)
        if table.over.is_set():
            return
        awaited = _awaited(table)
        version = int((client.game_summary(table.gid) or {}).get("version", 0))
        if awaited and version != hinted:
            hinted = version
            _hint(table, *awaited)
        line = table.term.read(_prompt(table, awaited))
        if line is None:
            raise Quit
        line = line.strip().replace("\u00a0", " ")
        if not line:
            continue
        word = line.split()[0].lstrip("/").lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word == "help" and len(line.split()) == 1:
            table.term.print(LOCAL_HELP)
            continue
        if word in ("mygames", "my", "games"):
            table.term.print(_mygames_text(table))
            continue
        text = line.lstrip("/") if word in _PASS else (line if word == "move" else f"move {line}")
        who = _actor(table, text)
        if text.startswith("move "):
            _wait_for_turn(table)
            table.hold()
            reply = []
            try:
                reply = _as_whoever_can(table, text)
                table.show(reply, who=who)
            finally:
                table.echo(reply if reply and reply[0].ok else [])
        else:
            reply = _as_whoever_can(table, text)
            table.show(reply, who=who)
        if text.startswith("resign") and reply and reply[0].ok:
            _wait_for_news(table)
            return


def _awaited(table: ConsoleTable) -> tuple[str, list[str]] | None:
    """The human the game awaits now and their moves, or None (automatic players, over)."""
    for user in table.humans:
        moves = table.client.awaited_moves(table.gid, PLATFORM, user)
        if moves:
            return user, moves
    return None


_QUIET_MOVES = frozenset({"end", "done", "pass", "cancel", "undo"})
"""First words of moves that end or skip something, never picked as the hint's example."""


def _hint(table: ConsoleTable, user: str, moves: list[str]) -> None:
    """One line after each turn: what is awaited, with the moves when the list is short."""
    who = "Your turn" if len(table.humans) == 1 else f"{user.capitalize()}'s turn"
    if len(moves) <= _HINT_LIMIT:
        table.term.print(f"{who}: " + ", ".join(f"`{m}`" for m in moves) + ".")
    else:
        # An example that does something: "e.g. `end`" on every turn taught nothing.
        example = next((m for m in moves if m.split(" ", 1)[0] not in _QUIET_MOVES), moves[0])
        table.term.print(f"{who}: {len(moves)} moves; `moves` lists them, e.g. `{example}`.")


def _prompt(table: ConsoleTable, awaited: tuple[str, list[str]] | None) -> str:
    info = table.client.game_summary(table.gid) or {}
    if awaited:
        state = "your turn" if len(table.humans) == 1 else f"{awaited[0]}'s turn"
    elif info.get("status") == "over":
        state = "game over"
    else:
        state = "waiting"
    return f"{info.get('game', '')} {table.gid} · {state} > "


def _wait_for_news(table: ConsoleTable, timeout: float = 60.0) -> None:
    """Until the automatic players have moved and their turns are printed (or the game ended):
    the player reads the opponent's whole turn before being asked for the next move."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not table.over.is_set():
        info = table.client.game_summary(table.gid) or {}
        if info.get("status") != "active":
            if info.get("status") == "over" and table.shown_v >= int(info.get("posted", 0)):
                return
        elif table.shown_v >= int(info.get("posted", 0)) and _awaited(table) is not None:
            return
        time.sleep(0.05)


def _wait_for_turn(table: ConsoleTable, timeout: float = 60.0) -> None:
    """Piped or fast typing: hold a move until the automatic players have finished theirs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not table.over.is_set():
        if table.client.game_status(table.gid) != "active" or _awaited(table) is not None:
            return
        time.sleep(0.05)


def _actor(table: ConsoleTable, text: str) -> str:
    awaited = _awaited(table)
    return awaited[0] if awaited else (table.humans[0] if table.humans else "")


def _as_whoever_can(table: ConsoleTable, text: str) -> list[Part]:
    """Hot seat: act as the first human for whom the command is not "not your turn"."""
    reply: list[Part] = []
    for user in table.humans:
        reply = table.client.command(table.ctx(user), text)
        if reply and reply[0].code != "action/not_your_turn":
            return reply
    return reply


def _local_games(client: Client) -> list[tuple[str, dict[str, object]]]:
    out = []
    seen = set()
    for user in ("you", "friend", "host"):
        for gid in client.user_game_ids(PLATFORM, user):
            info = client.game_summary(gid)
            if gid not in seen and info is not None and info["home"].startswith(f"{PLATFORM}:"):
                seen.add(gid)
                out.append((gid, info))
    out.sort(key=lambda g: int(g[0][1:], 36), reverse=True)
    return out


def _mygames_text(table: ConsoleTable) -> str:
    lines = []
    for gid, info in _local_games(table.client):
        if info["status"] == "over":
            continue
        title, moves = info["title"], info["version"]
        if gid == table.gid:
            lines.append(f"• `{gid}` {title}: this game, {moves} moves so far")
        elif not info["resumable"]:
            lines.append(f"• `{gid}` {title}: saved by another version of Agora; it cannot be continued")
        elif info["status"] == "active":
            lines.append(f"• `{gid}` {title}: saved after {moves} moves; `scripts/play --resume {gid}` continues it")
    if not lines:
        return "You have no unfinished local games."
    return "Your unfinished local games:\n" + "\n".join(lines)


def _quiet(table: ConsoleTable, reply: list[Part]) -> None:
    """Lobby steps the terminal runs for the player: shown only when one fails."""
    if reply and not reply[0].ok:
        table.show(reply)


__all__ = ["LOCAL_HELP", "PLATFORM", "Context", "play"]


def _side(name: str) -> str:
    """How a seat reads after "You play": "the Romans" for a people, "Rome" or "Red" as is.

    Decision: a seat name ending in "s" is a people (Antike Duellum's nations) and takes
    "the"; cities, civilizations and colours (the other games' seats) do not."""
    return f"the {name}" if name.endswith("s") else name
