"""Duellum side panels: header, event row, last turn and bank (the nation panels are in
:mod:`renderer.duellum_nations`).

Why every panel is measured before it is drawn: nothing on a board may be cut ("… and 5 more
lines" once hid the conquest of a player's own city), so each panel says how tall it must be
for its texts and the board grows to fit. Type sizes are chosen for a phone: the board is
1600 px wide and is often seen 400 px wide, so what matters in a turn (whose turn, scores,
what changed, a nation's resources) is drawn at 34-46 px (about 9-12 px on the phone).
Everything here is public information: the nation panels show the size of a hand, never its
cards (those are drawn only by the private hand image).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from engine.core.text import count, join_words
from renderer import icons
from renderer.base import (
    BORDER_COLOUR,
    INK,
    KIND_FILL,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PAPER,
    RGB,
    WHITE,
    Font,
    cached_art,
    draw_lines,
    draw_text,
    font,
    line_height_of,
    text_width,
    wrap,
)
from renderer.duellum_model import (
    PERSONALITIES,
    WIN_PERSONALITIES,
    Owner,
    owner_of,
)
from renderer.placement import Box
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_opt_int, as_str, str_list

OWNED: RGB = (30, 110, 60)
PAD = 18


def frame(draw: ImageDraw.ImageDraw, box: Box, title: str | None = None, size: int = 30) -> None:
    """A panel frame with an optional caption in its top-left corner."""
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_EDGE, width=3)
    if title:
        draw_text(draw, (box[0] + PAD, box[1] + 12), title, font(size, "bold"), INK)


def player_label(view: Mapping[str, Any], owner: Owner) -> str:
    """``Romans (alice)`` when the platform told the view who plays the seat, else ``Romans``."""
    names = as_list(view.get("player_names"))
    who = as_str(names[owner.seat]) if owner.seat < len(names) else ""
    return f"{owner.name} ({who})" if who else owner.name


# ----------------------------------------------------------------------------- header

TITLE_SIZE = 46
TITLE_MIN = 34
STATUS_SIZE = 32


def _movers(view: Mapping[str, Any], owner_list: Sequence[Owner]) -> list[Owner]:
    if as_bool(view.get("over")):
        winner = owner_of(owner_list, view.get("winner"))
        return [winner] if winner else []
    movers = [o for s in as_list(view.get("to_move")) if (o := owner_of(owner_list, s)) is not None]
    if not movers and (active := owner_of(owner_list, view.get("active"))) is not None:
        movers = [active]
    return movers


def headline(view: Mapping[str, Any], owner_list: Sequence[Owner]) -> str:
    """The big first line: who is to move, or who won (with the player's name when known)."""
    movers = _movers(view, owner_list)
    if as_bool(view.get("over")):
        if not movers:
            return "Game over"
        return f"Game over: {player_label(view, movers[0])} win"
    if not movers:
        return "Antike Duellum"
    return f"{join_words(player_label(view, o) for o in movers)} to move"


def status_line(view: Mapping[str, Any]) -> str:
    """The second line: game, map side, turn (once) and the awaited action in words."""
    side = as_str(view.get("map_side"))
    game = f"Antike Duellum {side}".strip()
    turn = as_int(view.get("turn"))
    awaiting = as_str(view.get("awaiting"))
    head = f"{game} · turn {turn}" if turn else game
    return f"{head} · {awaiting}" if awaiting else head


def _score_width(owner_list: Sequence[Owner]) -> float:
    big = font(TITLE_SIZE, "bold")
    return sum(60 + text_width("9", big) + 24 for _ in owner_list) + text_width(f"of {WIN_PERSONALITIES} VP", font(26))


def _headline_layout(view: Mapping[str, Any], owner_list: Sequence[Owner], width: float) -> tuple[list[str], Any]:
    movers = _movers(view, owner_list)
    room = width - 2 * PAD - 44 * len(movers) - _score_width(owner_list) - 30
    text = headline(view, owner_list)
    for size in range(TITLE_SIZE, TITLE_MIN - 1, -2):  # one line if it fits at a large size
        fnt = font(size, "bold")
        if text_width(text, fnt) <= room:
            return [text], fnt
    return wrap(text, fnt, room), fnt


def header_height(view: Mapping[str, Any], owner_list: Sequence[Owner], width: float) -> float:
    """Height of the header: the headline and the wrapped status sentence."""
    lines, fnt = _headline_layout(view, owner_list, width)
    status = wrap(status_line(view), font(STATUS_SIZE), width - 2 * PAD)
    return 14 + line_height_of(fnt) * len(lines) + 6 + line_height_of(font(STATUS_SIZE)) * len(status) + 14


def draw_header(draw: ImageDraw.ImageDraw, box: Box, view: Mapping[str, Any], owner_list: Sequence[Owner]) -> None:
    """Mover stones and headline, the score of each nation on the right, the status below."""
    x0, y0, x1, _ = box
    lines, fnt = _headline_layout(view, owner_list, x1 - x0)
    lh = line_height_of(fnt)
    x, y = x0 + PAD, y0 + 14
    for o in _movers(view, owner_list):
        icons.stone(draw, x + 20, y + lh / 2, 21, o.fill, o.ink, o.letter)
        x += 44
    for k, line in enumerate(lines):
        draw_text(draw, (x + 4, y + lh * k + lh / 2), line, fnt, INK, anchor="lm")
    # Scores, right-aligned on the first line: stone + personalities, then "of 9 VP".
    big = font(TITLE_SIZE, "bold")
    small = font(26)
    tail = f"of {WIN_PERSONALITIES} VP"
    sx = x1 - PAD - text_width(tail, small)
    draw_text(draw, (sx, y + lh / 2 + 4), tail, small, MUTED, anchor="lm")
    players = [as_map(p) for p in as_list(view.get("players"))]
    for o in reversed(owner_list):
        vp = str(as_int(players[o.seat].get("vp"))) if o.seat < len(players) else "0"
        sx -= text_width(vp, big) + 20
        draw_text(draw, (sx, y + lh / 2), vp, big, INK, anchor="lm")
        sx -= 40
        icons.stone(draw, sx + 18, y + lh / 2, 19, o.fill, o.ink, o.letter)
        sx -= 6
    y += lh * len(lines) + 6
    sfont = font(STATUS_SIZE)
    draw_lines(draw, (x0 + PAD, y), wrap(status_line(view), sfont, x1 - x0 - 2 * PAD), sfont, INK)


def draw_legend(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Static key in two rows: border styles, then region kinds, temple and wall (colour is
    never the only cue)."""
    fnt = font(22)
    x, y = box[0] + PAD, box[1] + (box[3] - box[1]) / 4
    for colour, label in (("RED", "legions cross"), ("BLUE", "galleys cross"), ("REDBLUE", "both cross")):
        rgb = BORDER_COLOUR[colour]
        if colour == "BLUE":
            for dx in (0, 22):
                draw.line((x + dx, y, x + dx + 14, y), fill=rgb, width=5)
        elif colour == "REDBLUE":
            draw.line((x, y, x + 36, y), fill=rgb, width=10)
        else:
            draw.line((x, y, x + 36, y), fill=rgb, width=5)
        draw_text(draw, (x + 44, y), label, fnt, INK, anchor="lm")
        x += 44 + text_width(label, fnt) + 30
    x, y = box[0] + PAD, box[1] + 3 * (box[3] - box[1]) / 4
    for kind, label in (("LAND", "land"), ("MIXED", "coast"), ("SEA", "sea")):
        draw.ellipse((x, y - 12, x + 24, y + 12), fill=KIND_FILL[kind], outline=INK, width=2)
        draw_text(draw, (x + 32, y), label, fnt, INK, anchor="lm")
        x += 32 + text_width(label, fnt) + 24
    draw.ellipse((x, y - 12, x + 24, y + 12), fill=KIND_FILL["MIXED"], outline=INK, width=4)
    draw_text(draw, (x + 32, y), "city site", fnt, INK, anchor="lm")
    x += 32 + text_width("city site", fnt) + 30
    icons.temple(draw, x + 16, y, 30)
    draw_text(draw, (x + 38, y), "temple", fnt, INK, anchor="lm")
    x += 38 + text_width("temple", fnt) + 24
    icons.wall(draw, x + 18, y, 34)
    draw_text(draw, (x + 42, y), "wall", fnt, INK, anchor="lm")


# ----------------------------------------------------------------------------- event row

CARD_TITLE = 32
CARD_BODY = 32


def _row_cards(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(name, text) of the face-up cards; two copies of a card are one entry "Name ×2"."""
    cards = as_map(view.get("cards"))
    row = str_list(view.get("event_row"))
    out = []
    for card_id in dict.fromkeys(row):
        card = as_map(cards.get(card_id))
        name = as_str(card.get("name"), card_id.replace("_", " ").title())
        copies = row.count(card_id)
        out.append((f"{name} ×{copies}" if copies > 1 else name, as_str(card.get("text"))))
    return out


def _card_lines(name: str, text: str, width: float) -> list[str]:
    """The card's text wrapped to ``width``, its first line starting after the bold name."""
    tfont, bfont = font(CARD_TITLE, "bold"), font(CARD_BODY)
    indent = text_width(name + ":", tfont) + text_width(" ", bfont)
    if indent > width / 2:  # a very long name gets a line of its own
        return ["", *wrap(text, bfont, width)]
    words = text.split()
    first = ""
    while words and text_width(f"{first} {words[0]}".strip(), bfont) <= width - indent:
        first = f"{first} {words.pop(0)}".strip()
    return [first, *wrap(" ".join(words), bfont, width)] if words else [first]


def card_height(name: str, text: str, width: float) -> float:
    """Height of an event card (one per row: bold name, then the whole text)."""
    return 20 + line_height_of(font(CARD_BODY)) * len(_card_lines(name, text, width - 28))


def events_height(view: Mapping[str, Any], width: float) -> float:
    """Height of the face-up row: one card per line, each as tall as its text."""
    inner = width - 2 * PAD
    cards = _row_cards(view)
    return 62 + sum(card_height(n, t, inner) + 10 for n, t in cards) + (0 if cards else 50) + 8


def draw_events(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: Mapping[str, Any]) -> None:
    """The face-up cards with names and whole texts, plus deck and discard sizes.

    Why one card per line: at phone width three cards side by side leave ~25 characters per
    line; full-width rows keep the text at the size of the rest of the board. Each card comes
    from :func:`renderer.base.cached_art`: the row changes far less often than the board."""
    x0, y0, x1, _ = box
    caption = "Event cards (face up)"
    cached_art(image, box, ("duellum-frame", caption), partial(frame, title=caption), background=PAPER)
    info = f"deck {as_int(view.get('deck_size'))} · discard {as_int(view.get('discard_size'))}"
    draw_text(draw, (x1 - PAD, y0 + 14), info, font(28), INK, anchor="ra")
    y = y0 + 62
    cards = _row_cards(view)
    if not cards:
        draw_text(draw, (x0 + PAD, y + 20), "No face-up cards.", font(28), MUTED, anchor="lm")
    for name, text in cards:
        h = card_height(name, text, x1 - x0 - 2 * PAD)
        card = partial(draw_card, name=name, text=text)
        cached_art(image, (x0 + PAD, y, x1 - PAD, y + h), ("duellum-card", name, text), card, background=PANEL)
        y += h + 10


def draw_card(draw: ImageDraw.ImageDraw, box: Box, name: str, text: str) -> None:
    """An event card: its bold name, then the whole effect text, in a white card."""
    x0, y0, x1, _ = box
    lines = _card_lines(name, text, x1 - x0 - 28)
    tfont, bfont = font(CARD_TITLE, "bold"), font(CARD_BODY)
    lh = line_height_of(bfont)
    draw.rounded_rectangle(box, radius=10, fill=WHITE, outline=INK, width=2)
    draw.rectangle((x0 + 3, y0 + 10, x0 + 9, box[3] - 10), fill=(214, 168, 58))
    top = y0 + 10 + lh / 2
    draw_text(draw, (x0 + 16, top), name + ":", tfont, INK, anchor="lm")
    indent = text_width(name + ":", tfont) + text_width(" ", bfont)
    if lines and lines[0]:
        draw_text(draw, (x0 + 16 + indent, top), lines[0], bfont, INK, anchor="lm")
    for k, line in enumerate(lines[1:], start=1):
        draw_text(draw, (x0 + 16, top + k * lh), line, bfont, INK, anchor="lm")


# ----------------------------------------------------------------------------- last turn

LOG_TITLE = 34
LOG_BODY = 32

# Sentences that only close a step ("Romans finish moving.", "Romans end their turn.") say
# nothing the board does not show.
# Decision: they are left out of the board's summary (they stay in the chat's turn text).
_CLOSING = re.compile(r"^\S+ (finish moving|finish their conquests|end their turn)\.$|^\S+ finish [A-Z]+\.$")


_DECLARE = re.compile(r"^\S+ declare the conquest of (.+?) \(defence \d+\)\.$")


def _settled(sentence: str, later: Sequence[str]) -> bool:
    """True for a conquest declaration whose outcome a later sentence reports.

    Decision: the board then shows only the outcome ("conquer Roma …, losing 3 legions" or
    "Roma is safe (defence 3 against 2) …"): the losses equal the defence, so nothing is lost,
    and a turn of five conquests keeps five lines instead of ten.
    """
    m = _DECLARE.match(sentence.strip())
    if m is None:
        return False
    city = m.group(1)
    return any(f"conquer {city} " in s or s.startswith(f"{city} is safe") for s in later)


def ordered_summary(summary: Sequence[str]) -> list[str]:
    """The last turn's sentences in the order they happened (oldest first, as the chat's turn
    text tells them), without closing notes and settled declarations.

    Why not most important first (as the box once was): read top-down, "Romans produce 2 gold
    and 1 coin." above "Romans move to AURUM." told the turn backwards, and the box is never
    cut (the board grows), so nothing important can fall off its end.
    """
    return list(_ordered(tuple(summary)))


@functools.lru_cache(maxsize=256)
def _ordered(summary: tuple[str, ...]) -> tuple[str, ...]:
    """Cached :func:`ordered_summary`: a board measures and draws the summary several times
    (its font, its lines, its height), each a few regular-expression matches a sentence."""
    return tuple(
        s for i, s in enumerate(summary) if not _CLOSING.match(s.strip()) and not _settled(s, summary[i + 1 :])
    )


def is_setup(view: Mapping[str, Any]) -> bool:
    """True on the very first board: no stone has been placed and no move recorded yet."""
    last = as_map(view.get("last_turn"))
    if last.get("rondel") or str_list(last.get("regions")):
        return False
    return all(as_map(p).get("rondel") is None for p in as_list(view.get("players")))


def log_title(view: Mapping[str, Any], owner_list: Sequence[Owner]) -> tuple[str, Owner | None]:
    """The caption of the summary box and the stone shown with it."""
    if is_setup(view):
        return "Start of the game", None
    seat = as_opt_int(as_map(view.get("last_turn")).get("seat"))
    mover = owner_of(owner_list, seat)
    # While a nation is still in its turn the engine's record is that turn so far.
    ongoing = not as_bool(view.get("over")) and seat is not None and seat == as_opt_int(view.get("active"))
    word = "This turn" if ongoing else "Last turn"
    return (f"{word}: {mover.name}" if mover else word), mover


LOG_LONG = 12  # more sentences than this are set a little smaller (28 px)


def _log_font(view: Mapping[str, Any]) -> Font:
    sentences = ordered_summary(str_list(as_map(view.get("last_turn")).get("summary")))
    return font(LOG_BODY if len(sentences) <= LOG_LONG else LOG_BODY - 4)


def _log_lines(view: Mapping[str, Any], width: float) -> list[str]:
    body = _log_font(view)
    lines: list[str] = []
    for sentence in ordered_summary(str_list(as_map(view.get("last_turn")).get("summary"))):
        wrapped = wrap(sentence, body, width - 2 * PAD - 30)
        lines += ["• " + wrapped[0], *("  " + w for w in wrapped[1:])] if wrapped else []
    return lines or ["Nothing yet."]


def log_height(view: Mapping[str, Any], width: float) -> float:
    """Height of the summary box with every sentence."""
    return 66 + line_height_of(_log_font(view)) * len(_log_lines(view, width)) + 14


def draw_log(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, view: Mapping[str, Any], owner_list: Sequence[Owner]
) -> None:
    """The last turn's public sentences, oldest first, every one of them (the frame
    with its caption from :func:`renderer.base.cached_art`)."""
    x0, y0, x1, _ = box
    title, mover = log_title(view, owner_list)
    art = partial(_log_frame, title=title, mover=mover)
    cached_art(image, box, ("duellum-log-frame", title, mover), art, background=PAPER)
    draw_lines(draw, (x0 + PAD, y0 + 62), _log_lines(view, x1 - x0), _log_font(view), INK)


def _log_frame(draw: ImageDraw.ImageDraw, box: Box, title: str, mover: Owner | None) -> None:
    """The summary's frame and caption (with the mover's stone)."""
    x0, y0, _, _ = box
    frame(draw, box)
    x = x0 + PAD
    if mover is not None:
        icons.stone(draw, x + 18, y0 + 32, 18, mover.fill, mover.ink, mover.letter)
        x += 44
    draw_text(draw, (x, y0 + 32), title, font(LOG_TITLE, "bold"), INK, anchor="lm")


# ----------------------------------------------------------------------------- bank

BANK_SIZE = 24


def bank_text(bank: Mapping[str, Any]) -> str:
    """What is left in the bank (public): coins, temples, walls, city tokens, personalities."""
    if not bank:
        return ""
    tokens = as_map(bank.get("city_tokens"))
    pers = as_map(bank.get("personalities"))
    cities = ", ".join(f"{as_int(tokens.get(k))} {k}" for k in ("marble", "iron", "gold"))
    people = ", ".join(count(as_int(pers.get(k)), k.title()) for k in PERSONALITIES)
    return (
        f"Bank: {count(as_int(bank.get('coins')), 'coin')} · {count(as_int(bank.get('temples')), 'temple')} · "
        f"{count(as_int(bank.get('walls')), 'wall')} · city tokens: {cities} · personalities left: {people}"
    )


def bank_lines(bank: Mapping[str, Any], width: float) -> list[str]:
    """The bank sentence wrapped to ``width``."""
    text = bank_text(bank)
    return wrap(text, font(BANK_SIZE), width - 2 * PAD) if text else []


def draw_bank(draw: ImageDraw.ImageDraw, box: Box, lines: Sequence[str]) -> None:
    """The bank lines (small: the bank matters less than a nation's own holdings)."""
    draw_lines(draw, (box[0] + PAD, box[1]), lines, font(BANK_SIZE), MUTED)


def seat_flags(view: Mapping[str, Any], seat: int) -> tuple[bool, bool]:
    """(awaited now, has won) for ``seat``, from public fields only."""
    over = as_bool(view.get("over"))
    to_move = not over and seat in {as_opt_int(s) for s in as_list(view.get("to_move"))}
    winner = over and as_opt_int(view.get("winner")) == seat
    return to_move, winner
