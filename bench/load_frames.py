"""Read a table frame as a scripted seat does: its version header and what this seat may do.

Pure functions, no I/O (``bench/load_client.py`` uses them). Two protocols are understood:

* new: ``<!--frame {"v": 42, "b": 41, "r": 3, "full": false}-->`` then out-of-band regions;
  a delta holds only the regions that changed (``status`` always).
* old: no header, every frame holds every region; the version is the ``data-version`` of
  ``<section id="status">`` and the frame is a full snapshot.

Frames with neither (a flash message, a spectator count) carry no version.

    python bench/load_frames.py      # checks the parser on a frame of each kind
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field

HEADER = re.compile(r"<!--frame\s+(\{.*?\})\s*-->")
OOB_TAG = re.compile(r"<[a-zA-Z][\w-]*\b[^>]*\bhx-swap-oob\b[^>]*>")
ID_ATTR = re.compile(r'\bid="([^"]+)"')
STATUS_TAG = re.compile(r'<[a-zA-Z][\w-]*\b[^>]*\bid="status"[^>]*>')
HINTS = re.compile(r'\bdata-hints="([^"]*)"')
ATTR = r'\b{}="([^"]*)"'
HIDDEN_CARD = re.compile(r'<input\b[^>]*\bname="cards"[^>]*\bvalue="([^"]+)"[^>]*>')
CLAIM_MODE = re.compile(r'<button\b[^>]*\bvalue="(hook|unhook)"')
RETURN_CARD = re.compile(r'<button\b[^>]*\bname="card"[^>]*\bvalue="([^"]+)"')
FLASH_TEXT = re.compile(r'class="flash-message">\s*(.*?)\s*<button', re.S)


@dataclass
class Frame:
    """What one received frame says."""

    kind: str  # full | delta | flash | spectators | other
    version: int | None = None
    base: int | None = None
    revision: int | None = None
    regions: dict[str, str] = field(default_factory=dict)  # id -> its text (to the next region)
    flash: str = ""
    header: bool = False  # new protocol: the frame starts with its version header


@dataclass
class SeatChoices:
    """A seat's options, as the last applied frames showed them (updated region by region)."""

    phase: str = ""  # play | window | tribute | round_over | match_over | ""
    my_turn: bool = False
    hints: list = field(default_factory=list)
    can_pass: bool = False
    claim_open: bool = False  # the claim bar holds my claim-form
    claim: tuple[str, list] | None = None  # (hook|unhook, cards) if I can claim
    returns: list = field(default_factory=list)


def split_regions(text: str) -> dict[str, str]:
    """Each out-of-band element's id mapped to the text from its tag to the next such tag."""
    tags = list(OOB_TAG.finditer(text))
    regions = {}
    for i, tag in enumerate(tags):
        found = ID_ATTR.search(tag.group(0))
        if found:
            end = tags[i + 1].start() if i + 1 < len(tags) else len(text)
            regions[found.group(1)] = text[tag.start() : end]
    return regions


def parse(text: str) -> Frame:
    """Classify a frame and read its version fields (both protocols)."""
    head = HEADER.search(text, 0, 400)
    regions = split_regions(text)
    if head:
        try:
            fields = json.loads(head.group(1))
        except ValueError:
            fields = {}
        full = bool(fields.get("full", "b" not in fields))
        return Frame(
            "full" if full else "delta",
            _int(fields.get("v")),
            _int(fields.get("b")),
            _int(fields.get("r")),
            regions,
            _flash(text, regions),
            header=True,
        )
    status = regions.get("status")
    if status is not None:
        version = _int(_attr(STATUS_TAG.search(status).group(0), "data-version"))
        if version is not None:
            return Frame("full", version, None, None, regions, _flash(text, regions))
    if "flash" in regions or 'id="flash"' in text[:300]:
        return Frame("flash", regions=regions, flash=_flash(text, regions) or "?")
    if "spectators" in regions:
        return Frame("spectators", regions=regions)
    return Frame("other", regions=regions)


def update_choices(choices: SeatChoices, frame: Frame, seat: int) -> None:
    """Fold the regions present in ``frame`` into ``choices`` (absent regions are unchanged)."""
    regions = frame.regions or {}
    status = regions.get("status")
    if status is not None:
        tag = STATUS_TAG.search(status).group(0)
        phase = _attr(tag, "data-phase")
        turn = _attr(tag, "data-turn")
        if phase is not None:  # new protocol
            choices.phase = phase
            choices.my_turn = phase == "play" and turn == str(seat)
        else:  # old protocol: class my-turn, and the phase guessed from the other regions
            choices.my_turn = "my-turn" in (_attr(tag, "class") or "").split()
            choices.phase = "play" if choices.my_turn else ""
    actions = regions.get("hand-actions") or regions.get("hand")
    if actions is not None:
        found = HINTS.search(actions)
        choices.hints = json.loads(html.unescape(found.group(1))) if found else []
        choices.can_pass = 'id="pass-button"' in actions
    bar = regions.get("claim-bar")
    if bar is not None:
        choices.claim_open = 'id="claim-form"' in bar
        mode = CLAIM_MODE.search(bar) if choices.claim_open else None
        choices.claim = (mode.group(1), HIDDEN_CARD.findall(bar)) if mode else None
    tribute = regions.get("tribute")
    if tribute is not None:
        choices.returns = list(dict.fromkeys(RETURN_CARD.findall(tribute)))


def _flash(text: str, regions: dict[str, str]) -> str:
    """The text of a flash message in the frame, or ""."""
    if "flash" not in regions and 'id="flash"' not in text:
        return ""
    found = FLASH_TEXT.search(regions.get("flash", text))
    return html.unescape(found.group(1)) if found else ""


def _attr(tag: str, name: str) -> str | None:
    found = re.search(ATTR.format(re.escape(name)), tag)
    return html.unescape(found.group(1)) if found else None


def _int(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def _selfcheck() -> None:
    """``python bench/load_frames.py``: the parser on one frame of each protocol."""
    new = (
        '<!--frame {"v":42,"b":41,"r":3,"full":false}-->'
        '<section id="status" data-version="42" data-phase="play" data-turn="2" '
        'hx-swap-oob="true"></section>'
        '<div id="hand-actions" hx-swap-oob="true" data-hints="[[&quot;3S&quot;],'
        '[&quot;9H&quot;,&quot;9C&quot;]]"><button id="pass-button"></button></div>'
        '<section id="claim-bar" hx-swap-oob="true"><form id="claim-form">'
        '<input type="hidden" name="cards" value="9H"><input type="hidden" name="cards" '
        'value="9C"><button name="action" value="hook"></button></form></section>'
    )
    frame = parse(new)
    assert (frame.kind, frame.version, frame.base, frame.revision) == ("delta", 42, 41, 3)
    choices = SeatChoices()
    update_choices(choices, frame, 2)
    assert choices.my_turn and choices.phase == "play" and choices.can_pass
    assert choices.hints == [["3S"], ["9H", "9C"]]
    assert choices.claim_open and choices.claim == ("hook", ["9H", "9C"])
    old = (
        '<section id="status" class="region status my-turn" data-version="7" '
        'hx-swap-oob="true"></section><section id="tribute" hx-swap-oob="true">'
        '<button type="submit" name="card" value="5H" class="card-button"></button>'
        "</section>"
    )
    frame = parse(old)
    assert (frame.kind, frame.version, frame.header) == ("full", 7, False)
    choices = SeatChoices()
    update_choices(choices, frame, 0)
    assert choices.my_turn and choices.returns == ["5H"]
    flash = (
        '<div id="flash" class="flash" hx-swap-oob="innerHTML"><p class="flash-message">'
        'It is not your turn. <button type="button">×</button></p></div>'
    )
    assert parse(flash).kind == "flash" and parse(flash).flash == "It is not your turn."
    print("load_frames: ok")


if __name__ == "__main__":
    _selfcheck()
