"""Table chat without sockets: rooms, phrases in the reader's language, escaping, limits, mute,
report. Real PostgreSQL and Redis (the rate limit counts in the Redis cache)."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.utils import translation

from games.chat import mutes, rooms
from games.models import ChatLine, ChatMute, ChatReport
from games.play import tables

pytestmark = pytest.mark.django_db

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture
def table(make_user):
    ana = make_user("ana", language="es")
    bo = make_user("bo", language="vi")
    table = tables.create_table(ana, name="chat table", players=4, options={})
    tables.take_seat(table.pk, bo, 1)
    return table


def page(user, table_id: int) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/tables/{table_id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_seated_player_speaks_in_the_players_room_and_a_spectator_in_theirs(table, make_user):
    watcher = make_user("watcher")
    said = rooms.post(table.pk, table.host, phrase="gg")
    heard = rooms.post(table.pk, watcher, text="hi all")
    assert said.room == ChatLine.Room.PLAYERS and heard.room == ChatLine.Room.SPECTATORS
    assert [line.pk for line in rooms.latest(table.pk, "p")] == [said.pk]
    assert [line.pk for line in rooms.latest(table.pk, "w")] == [heard.pk]


def test_a_quick_phrase_is_shown_in_each_readers_language(table, make_user):
    rooms.post(table.pk, table.host, phrase="gg")
    rooms.post(table.pk, table.host, phrase="bomb")
    for language, game, bomb in (
        ("en", "Good game!", "Nice bomb!"),
        ("es", "¡Buena partida!", "¡Buena bomba!"),
        ("id", "Permainan bagus!", "Bom yang bagus!"),
        ("vi", "Ván hay!", "Bom đẹp!"),
    ):
        html = rooms.room_html(table.pk, 0, language)
        assert game in html and bomb in html, language


def test_free_text_is_escaped_wherever_it_is_shown(table, make_user):
    bo = table.seats.get(number=1).user
    rooms.post(table.pk, bo, text=XSS)
    stored = ChatLine.objects.get()
    assert stored.text == XSS  # stored as typed, escaped when shown
    for html in (rooms.room_html(table.pk, 0, "en"), page(table.host, table.pk)):
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html


def test_bad_lines_are_refused_and_change_nothing(table, make_user, settings):
    settings.GAMES_CHAT_MAX_CHARS = 20
    with translation.override("es"):
        for phrase, text in (("", ""), ("", "   "), ("no-such-phrase", ""), ("", "x" * 21)):
            with pytest.raises(rooms.ChatError):
                rooms.post(table.pk, table.host, phrase=phrase, text=text)
        with pytest.raises(rooms.ChatError, match="como mucho 20"):
            rooms.post(table.pk, table.host, text="x" * 21)
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(rooms.ChatError):
        rooms.post(table.pk, AnonymousUser(), phrase="thanks")
    assert rooms.post(table.pk, table.host, text="x" * 20).text == "x" * 20
    assert ChatLine.objects.count() == 1


def test_control_characters_are_dropped(table):
    assert rooms.post(table.pk, table.host, text="a\u0000b\u202ec\n").text == "abc"


def test_a_player_past_the_rate_is_refused(table, settings):
    settings.GAMES_CHAT_RATE = "3/m"
    for _ in range(3):
        rooms.post(table.pk, table.host, phrase="thanks")
    with translation.override("en"), pytest.raises(rooms.ChatError, match="too fast"):
        rooms.post(table.pk, table.host, phrase="thanks")
    assert ChatLine.objects.count() == 3
    bo = table.seats.get(number=1).user
    rooms.post(table.pk, bo, phrase="thanks")  # the limit is per player
    assert ChatLine.objects.count() == 4


def test_a_burst_across_the_edge_of_a_window_is_refused(table, settings, monkeypatch):
    """5 per 10 s means 5 in any 10 s: after 5 lines, each further line within the next 10 s
    is refused, wherever a fixed window's edge falls (one did let 10 through in 5.1 s), and
    the first place frees 10 s after the first line. The clock is set, not waited for."""
    settings.GAMES_CHAT_RATE = "5/10s"
    clock = [1_800_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    for _ in range(5):
        rooms.post(table.pk, table.host, phrase="thanks")
        clock[0] += 0.1
    refused = 0
    while clock[0] < 1_800_000_000.0 + 9.9:
        with translation.override("en"), pytest.raises(rooms.ChatError, match="too fast"):
            rooms.post(table.pk, table.host, phrase="thanks")
        refused += 1
        clock[0] += 0.5
    assert refused == 19 and ChatLine.objects.count() == 5
    clock[0] = 1_800_000_000.0 + 10.05  # the first line has left the last 10 s
    rooms.post(table.pk, table.host, phrase="thanks")
    with translation.override("en"), pytest.raises(rooms.ChatError, match="too fast"):
        rooms.post(table.pk, table.host, phrase="thanks")
    assert ChatLine.objects.count() == 6


def test_a_mute_is_remembered_and_hides_the_players_lines_from_the_page(table):
    bo = table.seats.get(number=1).user
    rooms.post(table.pk, bo, text="noisy line")
    rooms.post(table.pk, table.host, text="quiet line")
    client = Client()
    client.force_login(table.host)
    answer = client.post(f"/social/mute/{bo.pk}/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and '"chat-muted"' in answer["HX-Trigger"]
    assert ChatMute.objects.filter(user=table.host, muted=bo).count() == 1
    html = page(table.host, table.pk)
    assert "quiet line" in html and "noisy line" not in html
    assert f'data-muted="[{bo.pk}]"' in html
    assert "noisy line" in page(bo, table.pk)  # muting is the reader's own
    client.post(f"/social/unmute/{bo.pk}/")
    assert mutes.muted_ids(table.host) == []
    assert "noisy line" in page(table.host, table.pk)


def test_a_report_is_stored_for_the_staff_once(table, make_user):
    bo = table.seats.get(number=1).user
    line = rooms.post(table.pk, bo, text="rude words")
    client = Client()
    client.force_login(table.host)
    assert client.post(f"/social/report/{line.pk}/").status_code == 302
    assert client.post(f"/social/report/{line.pk}/").status_code == 302
    report = ChatReport.objects.get()
    assert (report.line_id, report.reporter_id) == (line.pk, table.host.pk)
    staff = make_user("staff", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(staff)
    listing = admin.get("/admin/games/chatreport/").content.decode()
    assert "rude words" in listing and "bo" in listing


def test_a_spectator_cannot_report_what_they_cannot_read(table, make_user):
    line = rooms.post(table.pk, table.host, text="players only")
    client = Client()
    client.force_login(make_user("watcher"))
    assert client.post(f"/social/report/{line.pk}/").status_code == 404
    assert not ChatReport.objects.exists()


def test_an_anonymous_spectator_reads_the_spectators_room_only(table, make_user):
    rooms.post(table.pk, table.host, text="players only")
    rooms.post(table.pk, make_user("watcher"), text="from the stands")
    html = Client().get(f"/tables/{table.pk}/").content.decode()
    assert "from the stands" in html and "players only" not in html
    assert "chat-readonly" in html and 'id="chat-form"' not in html
    assert 'id="invite-form"' not in html
