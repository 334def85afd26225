"""A seat's row pushed alone (``frames.delta``: a seat whose row changed), shared between the
audiences of one push: another seat's row is rendered once per push and language with a mark
for its place (``placed_seat``), and the viewer's own row is that text with what ``seat.jinja``
adds for ``s.is_me`` (``own_seat_row``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.utils.html import conditional_escape

from games.live import regions
from games.live.context import TableContext
from games.live.public_part import SharedParts, row_text
from games.live.speech import gettext, pgettext


class Renders(Protocol):
    """What these functions use of a push's ``frames.Renders`` (which imports this module)."""

    views: SharedParts
    #: The language of the audience being rendered for (``frames.Renders.speak``).
    language: str | None
    #: Other seats' rows with ``POS_MARK`` for their place, by public row (``placed_seat``).
    placed: dict[tuple[object, ...], tuple[object, object, str]]

    def render(
        self,
        template: str,
        key: object,
        inputs: dict[str, Any] | Callable[[], dict[str, Any]],
        name: str = "",
    ) -> str: ...


def seat_alone(
    row: dict[str, Any],
    context: TableContext,
    renders: Renders,
    is_me: bool | None = None,
    pos: object = None,
) -> str:
    """One seat's row alone (its key: the row and the seat region's inputs), ``is_me`` and
    ``pos`` put in its row when given."""
    seat = regions.SEAT
    key = row_text(row, renders.views, is_me, pos) + repr(seat.key(context))

    def inputs() -> dict[str, Any]:
        shown = row
        if is_me is not None or pos is not None:
            shown = {
                **row,
                "is_me": row["is_me"] if is_me is None else is_me,
                "pos": row["pos"] if pos is None else pos,
            }
        return seat.inputs(context, s=shown, seat_oob=True, oob=True)

    return renders.render(seat.template, ("seat", key), inputs, seat.name)


#: Stands for a seat's place (``pos``) in a row rendered for every viewer but its own seat.
POS_MARK = "{pos}"


def placed_seat(
    row: dict[str, Any], context: TableContext, renders: Renders, is_me: bool | None = None
) -> str:
    """Another seat's row: it reads the same from every viewer but for its place around the
    table (``pos``, the root's last class), so it is rendered once per push and language with
    ``POS_MARK`` there, and each viewer's place put in. The root tag comes first and holds
    only fixed words before it, so the first match is the class."""
    public = getattr(row, "public", None)
    if public is None:
        text = seat_alone(row, context, renders, is_me, POS_MARK)
    else:
        # A running match's row: the public row and its last step, which every view of the push
        # shares (kept beside the text, so that their ids are not reused meanwhile), the row's
        # ``is_me`` as shown, and what else the row's render reads (the seat region's inputs;
        # the table and match are the push's own) give the text without writing its key.
        last = row["last"]
        shown_me = row["is_me"] if is_me is None else is_me
        slot = (id(public), id(last), shown_me, renders.language, regions.SEAT.key(context))
        kept = renders.placed.get(slot)
        if kept is not None and kept[0] is public and kept[1] is last:
            text = kept[2]
        else:
            text = seat_alone(row, context, renders, is_me, POS_MARK)
            renders.placed[slot] = (public, last, text)
    return text.replace(f' pos-{POS_MARK}"', f' pos-{row["pos"]}"', 1)


#: What a seat's own row adds to the row every other viewer sees (seat.jinja, during a match):
#: ``me`` after its team class, the "you" badge closing its name, and on its turn the marker
#: worded for the viewer ("your turn": a msgctxt of its own).
_TEAM_CLASS = 'class="seat team-{team}'
_NAME_OPEN = '<div class="seat-name">'
_TURN_MARKER = '<span class="marker turn-marker">▶ {text}</span>'
_OWN_TURN = ("the viewer's own seat: your turn", "to play")


def own_seat_row(row: dict[str, Any], context: TableContext, renders: Renders) -> str:
    """The viewer's own row during a match: the row the other viewers get (``placed_seat``,
    most often rendered already in this push) with ``me`` added to its classes, the "you"
    badge to its name and its turn marker worded for the viewer — what seat.jinja does for
    ``s.is_me`` — so it costs no render of its own.
    Before a match (the seat controls differ) or should the row not read as expected, it is
    rendered."""
    if context.match is None or "viewer_seated" in row:
        return seat_alone(row, context, renders)
    text = placed_seat(row, context, renders, is_me=False)
    team = _TEAM_CLASS.format(team=row["team"])
    name_at = text.find(_NAME_OPEN)
    name_end = text.find("</div>", name_at)
    if not text.count(team) or name_at < 0 or name_end < 0:
        return seat_alone(row, context, renders)
    badge = f'<span class="badge you">{conditional_escape(gettext("you"))}</span>'
    text = text[:name_end] + badge + text[name_end:]
    if row.get("is_turn"):
        others = _TURN_MARKER.format(text=conditional_escape(gettext("to play")))
        if others not in text:
            return seat_alone(row, context, renders)
        own = _TURN_MARKER.format(text=conditional_escape(pgettext(*_OWN_TURN)))
        text = text.replace(others, own, 1)
    return text.replace(team, f"{team} me", 1)
