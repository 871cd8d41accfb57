"""Small records a running game keeps dozens of - a move's stored answer, a log entry, one
version's events - deflated against a preset dictionary of the game's own phrases.

Why: each record is a few hundred bytes of JSON that repeats the same keys and the same
sentences ("Romans move to AURUM, paying 1 coin."). Deflated alone it shrinks by a third;
deflated against a dictionary drawn from seeded games of the same game it shrinks by
two thirds to four fifths (a Duellum answer ~200 -> ~60 bytes, a version's events ~190 -> ~50,
a log entry ~86 -> ~38), which is what keeps a running game's keys inside issue 12's budget of
32 KB with room to spare. Measured: ``bench/bench_storage.py``; the dictionaries: ``scripts/build_dictionaries.py``.

The stored form is a standard zlib stream: one whose header names a preset dictionary
(FDICT, with the dictionary's Adler-32 as its id) is read with the dictionary of that id;
a plain zlib stream or plain JSON (what older versions wrote) is read as before.

Decision: a dictionary file, once shipped, is never changed. A better one for the same game is
a new file with the next number (``duellum.2.zdict``); the newest is used for writing and
every one stays for reading what was written with it (answers, log entries and events live
days, not forever, but a store may outlive an upgrade).
"""

from __future__ import annotations

import functools
import zlib
from pathlib import Path
from typing import Final

DICTIONARIES: Final[Path] = Path(__file__).with_name("dictionaries")
LEVEL: Final[int] = 6
_FDICT: Final[int] = 0x20  # the FDICT bit of a zlib stream's second header byte


class UnknownDictionary(ValueError):
    """A record written with a dictionary this installation does not have."""


@functools.cache
def _files() -> dict[str, list[tuple[int, Path]]]:
    """Dictionary files by game id: ``<game>.<n>.zdict``, in number order."""
    found: dict[str, list[tuple[int, Path]]] = {}
    for path in DICTIONARIES.glob("*.zdict"):
        game, _, number = path.stem.rpartition(".")
        if game and number.isdigit():
            found.setdefault(game, []).append((int(number), path))
    return {game: sorted(files) for game, files in found.items()}


@functools.cache
def dictionary(game: str) -> bytes:
    """The dictionary records of ``game`` are written with (its newest file); empty when the
    game has none (a test's toy game, a plug-in): its records are deflated plainly."""
    files = _files().get(game)
    return files[-1][1].read_bytes() if files else b""


@functools.cache
def _by_id() -> dict[int, bytes]:
    """Every shipped dictionary by its Adler-32 (the id a zlib header names)."""
    return {
        zlib.adler32(data): data for files in _files().values() for _, path in files for data in [path.read_bytes()]
    }


def pack(data: bytes, game: str) -> bytes:
    """``data`` deflated against ``game``'s dictionary (plainly when it has none)."""
    zdict = dictionary(game)
    if not zdict:
        return zlib.compress(data, LEVEL)
    packer = zlib.compressobj(LEVEL, zdict=zdict)
    return packer.compress(data) + packer.flush()


def unpack(raw: bytes) -> bytes:
    """What :func:`pack` was given; plain JSON (older records) is returned as it is.

    Raises:
        UnknownDictionary: written with a dictionary file this installation lacks.
    """
    if raw[:1] in (b"{", b"["):
        return raw
    if len(raw) >= 6 and raw[1] & _FDICT:
        ident = int.from_bytes(raw[2:6], "big")
        zdict = _by_id().get(ident)
        if zdict is None:
            raise UnknownDictionary(
                f"a stored record names compression dictionary {ident:08x}, which is not among "
                f"{DICTIONARIES} (a dictionary file was removed or changed)"
            )
        reader = zlib.decompressobj(zdict=zdict)
        return reader.decompress(raw) + reader.flush()
    return zlib.decompress(raw)


# ----------------------------------------------------------------------------- event entries
def pack_events(version: int, entry: bytes, game: str) -> bytes:
    """One version's events entry as the events list keeps it: ``<version>:`` and then the
    packed JSON, so a reader picks the versions it wants without inflating the others."""
    return b"%d:" % version + pack(entry, game)


def events_version(item: bytes) -> int | None:
    """The version of a stored events entry without inflating it (None: not recognised)."""
    if item[:1].isdigit():
        head, sep, _ = item.partition(b":")
        return int(head) if sep and head.isdigit() else None
    if item.startswith(b'{"v":'):  # older entries: plain JSON, the version first
        end = item.find(b",", 5)
        digits = item[5:end] if end > 0 else b""
        return int(digits) if digits.isdigit() else None
    return None


def unpack_events(item: bytes) -> bytes:
    """The JSON of a stored events entry (packed, or plain as older versions wrote it)."""
    if item[:1].isdigit():
        return unpack(item.partition(b":")[2])
    return item
