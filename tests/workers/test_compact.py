"""Stored answers, log entries and events entries packed against each game's dictionary
(``workers/compact.py``): smaller, read back exactly, and what older versions wrote still reads.

Why these tests: the dictionaries are what keeps a running game inside issue 12's storage
budget with room to spare (tests/workers/test_storage.py holds it to 26 KB), and a stored
answer that can no longer be read would turn a client's retry into an error.
"""

from __future__ import annotations

import importlib.util
import json
import zlib
from pathlib import Path
from types import ModuleType

import pytest

from engine import list_games
from tests.workers.util import A, make_game
from workers import compact, pipeline
from workers.store import Store, k_events, k_idem, k_log, k_meta

ROOT = Path(__file__).resolve().parents[2]
# The games this project ships (tests register toy games of their own besides).
SHIPPED = [g.id for g in list_games() if type(g).__module__.startswith("engine.")]


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_dictionaries", ROOT / "scripts" / "build_dictionaries.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", SHIPPED)
def test_every_game_packs_its_records_to_under_half_of_plain_deflate(game: str) -> None:
    """On moves of a seed the dictionary was not built from: each record reads back exactly,
    and the game's answers, log entries and events take under half the bytes plain deflate
    gives them (Duellum measured ~0.35)."""
    records = _builder().samples(game, seeds=(99,), moves=200)
    assert len(records) > 20
    packed = plain = 0
    for triple in records:
        for record in triple:
            stored = compact.pack(record, game)
            assert stored[1] & 0x20, "packed against the game's dictionary"
            assert compact.unpack(stored) == record
            packed += len(stored)
            plain += len(zlib.compress(record, compact.LEVEL))
    assert packed < 0.5 * plain, (game, packed, plain)


def test_the_shipped_dictionaries_are_one_per_game_with_distinct_ids() -> None:
    files = sorted(compact.DICTIONARIES.glob("*.zdict"))
    assert {p.name.split(".")[0] for p in files} == set(SHIPPED) and len(SHIPPED) == 5
    ids = [zlib.adler32(p.read_bytes()) for p in files]
    assert len(set(ids)) == len(ids)
    assert all(0 < p.stat().st_size <= 32 * 1024 for p in files)  # deflate's window


def test_older_forms_and_games_without_a_dictionary_read_back() -> None:
    record = json.dumps({"ok": True, "message": "Done: move to Aurum — 2 coins."}).encode()
    assert compact.unpack(record) == record  # plain JSON: the oldest answers and events
    assert compact.unpack(zlib.compress(record, 6)) == record  # plain zlib: answers before
    plain = compact.pack(record, "a-game-without-a-dictionary")
    assert not plain[1] & 0x20 and compact.unpack(plain) == record
    entry = compact.pack_events(7, record, "duellum")
    assert compact.events_version(entry) == 7 and compact.unpack_events(entry) == record
    assert compact.events_version(b'{"v":12,"s":0,"events":[]}') == 12
    assert compact.unpack_events(b'{"v":12}') == b'{"v":12}'


def test_a_record_of_a_missing_dictionary_says_so() -> None:
    packer = zlib.compressobj(6, zdict=b"a dictionary no installation ships" * 8)
    stored = packer.compress(b'{"ok":true}') + packer.flush()
    with pytest.raises(compact.UnknownDictionary, match="compression dictionary"):
        compact.unpack(stored)


def test_the_newest_dictionary_writes_and_every_one_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = b'"text":"Romans move to AURUM"' * 20, b'"text":"Carthaginians build a temple"' * 20
    (tmp_path / "toy.1.zdict").write_bytes(first)
    (tmp_path / "toy.2.zdict").write_bytes(second)
    (tmp_path / "notes.txt").write_bytes(b"not a dictionary")
    monkeypatch.setattr(compact, "DICTIONARIES", tmp_path)
    for cached in (compact._files, compact.dictionary, compact._by_id):
        cached.cache_clear()
    try:
        assert compact.dictionary("toy") == second
        older = zlib.compressobj(6, zdict=first)
        written_before = older.compress(b"Romans move") + older.flush()
        assert compact.unpack(written_before) == b"Romans move"
        assert int.from_bytes(compact.pack(b"x", "toy")[2:6], "big") == zlib.adler32(second)
    finally:
        for cached in (compact._files, compact.dictionary, compact._by_id):
            cached.cache_clear()


def test_answers_and_events_stored_by_an_older_version_still_answer_a_retry(store: Store) -> None:
    """A store written before the dictionaries: its stored answer (plain zlib) answers a retry
    of its key, and its log and events entries (plain JSON) read beside the packed ones, also
    once the live log is compacted and the game archived."""
    gid = make_game(store)
    store.r.rpush(k_log(gid), json.dumps({"s": 1, "t": "add 2", "u": 1, "k": "older", "src": "player", "at": 1}))
    old = {"version": 99, "ok": True, "code": "ok", "message": "Done: add 1.", "seat": 0, "notation": "add 1"}
    store.r.hset(k_idem(gid), "old-key", zlib.compress(json.dumps(old).encode(), 6))
    store.r.rpush(k_events(gid), json.dumps({"v": 1, "s": 0, "events": [{"text": "an older entry"}]}))
    res = pipeline.submit(store, gid, text="add 1", idem="old-key", user=A)
    assert res.ok and res.duplicate and res.version == 99
    res = pipeline.submit(store, gid, text="add 1", idem="new-key", user=A)
    assert res.ok and not res.duplicate
    entries = store.events(gid, last=10)
    assert entries[-2]["events"][0]["text"] == "an older entry" and entries[-1]["v"] == res.version
    assert store.r.lrange(k_events(gid), -1, -1)[0].startswith(b"%d:" % res.version)
    log = store.log(gid)
    assert [e["k"] for e in log[-2:]] == ["older", "new-key"] and log[-1]["t"] == "add 1"
    assert not store.r.lrange(k_log(gid), -1, -1)[0].startswith(b"{")  # packed
    assert store.compact_log(gid, chunk=1)
    assert store.log(gid) == log
    store.r.hset(k_meta(gid), "status", "over")
    assert store.archive(gid)
    assert store.log(gid) == log
