"""A table's pushes that are not frames of the match, on its table-wide group
(``notify.table_group``), each rendered once per language watching: the spectator count
(``publish_spectator_count``) and the seats shown away (``publish_away``, ``games.live.away``).
A page keeps them apart from its frames (``games.sockets.consumers``). Imports the live side's
rendering (``regions``, ``presenters``, ``public_part``) and the models; never ``games.play``.
"""

from __future__ import annotations

from django.utils import translation

from games.live import audiences, away, notify, regions, spectating, visibility
from games.live.presenters import spectators_context
from games.live.public_part import seat_row
from games.models import Match, Seat, Table

# --- the spectator count ------------------------------------------------------------------------


def publish_spectator_count(table_id: int) -> None:
    """Render the spectator count once per language watching (for seats and for spectators,
    who are also told their delay) and send it to every page of the table."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    match = Match.objects.filter(table=table).first()
    count = spectating.count(table_id)
    behind = visibility.delay_for(table, match, None)
    languages = sorted({a.language for a in audiences.live(table_id)})
    html = {}
    for language in languages:
        with translation.override(language):
            html[language] = {
                role: regions.render(
                    regions.SPECTATORS.template,
                    {
                        **spectators_context(table, count, 0 if role == "seat" else behind),
                        "oob": True,
                    },
                )
                for role in ("seat", "watch")
            }
    notify.send_many(
        [(notify.table_group(table_id), {"type": "spectators.count", "count": count, "html": html})]
    )


# --- a seat's page went away or came back (games.live.away) -------------------------------------


def publish_away(table_id: int, change: away.Change) -> bool:
    """Push a change of the seats shown away (``away.check``'s) to every page of the table: one
    message on the table-wide group, not a frame, holding each seat's name line (where the sign
    is: ``seat_name.jinja``) as every viewer sees it and as its own seat does, rendered once per
    language watching — when it changes what a seat shows. Every seat's line, not only the
    changed ones: a page keeps the newest message (``seq``) and may drop an older one. Returns
    whether it sent."""
    if change is None:
        return False
    seq, before, now = change
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return False
    seats = list(table.seats.select_related("user"))
    shown = away.displayed(seats, now)
    if away.displayed(seats, before) == shown:
        return False
    html: dict[str, dict[str, list[str]]] = {}
    for language in sorted({a.language for a in audiences.live(table_id)}):
        with translation.override(language):
            html[language] = {
                str(s.number): [_name_line(s, shown, False), _name_line(s, shown, True)]
                for s in seats
            }
    if html:
        message = {"type": "table.away", "seq": seq, "html": html}
        notify.send_many([(notify.table_group(table_id), message)])
    return bool(html)


def _name_line(seat: Seat, shown: tuple[int, ...], own: bool) -> str:
    """``seat``'s name line pushed alone, as every viewer sees it or (``own``) as its own."""
    row = seat_row(seat, None, seat.number if own else None)
    inputs = {"s": row, "away": shown, "name_oob": True}
    return regions.render_jinja(NAME_LINE_TEMPLATE, inputs)


#: A seat's name line (``seat.jinja`` includes it), which holds its away sign.
NAME_LINE_TEMPLATE = "games/partials/seat_name.jinja"
