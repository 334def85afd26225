"""Following, presence (online, at which table — only tables the viewer may watch), invitations
and "your turn" notices, with email where the player allows it."""

from __future__ import annotations

import contextlib
import re
from html import unescape

import pytest
from django.core import mail
from django.test import Client

from accounts import friends, notices, presence, tasks, turns
from accounts.models import Follow
from games.live import audiences
from games.live.audiences import Audience
from games.models import Table
from games.play import stewarding, tables
from leagues.models import Notice

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_and_unfollow_from_the_profile(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    client = client_for(ana)
    profile = client.get("/accounts/bo/").content.decode()
    assert 'id="follow-button"' in profile
    assert client.post("/social/follow/bo/").status_code == 302
    assert Follow.objects.filter(follower=ana, followed=bo).exists()
    assert 'id="unfollow-button"' in client.get("/accounts/bo/").content.decode()
    assert 'id="follow-button"' not in client.get("/accounts/ana/").content.decode()
    client.post("/social/follow/ana/")  # oneself: nothing
    assert Follow.objects.count() == 1
    client.post("/social/unfollow/bo/")
    assert not Follow.objects.exists()


def test_friends_page_names_only_the_tables_the_viewer_may_watch(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    public = tables.create_table(bo, name="Open table", players=4, options={})
    hidden = tables.create_table(
        bo, name="Secret table", players=4, options={}, visibility=Table.Visibility.PRIVATE
    )
    friends.follow(ana, bo)
    presence.at_table(bo.pk, public.pk)
    presence.at_table(bo.pk, hidden.pk)
    [friend] = friends.followed_with_presence(ana)
    assert friend.online and [t.pk for t in friend.tables] == [public.pk]
    html = client_for(ana).get("/social/friends/").content.decode()
    assert "Open table" in html and "Secret table" not in html and "online" in html
    presence.left_table(bo.pk, public.pk)
    presence.left_table(bo.pk, hidden.pk)
    [friend] = friends.followed_with_presence(ana)
    assert not friend.online and friend.tables == []


def test_invite_by_username_leaves_a_notice_and_mails_only_who_allows_it(make_user):
    ana = make_user("ana")
    bo = make_user("bo", email="bo@example.com", email_notices=True, language="es")
    cy = make_user("cy", email="cy@example.com")
    table = tables.create_table(
        ana, name="Private", players=4, options={}, visibility=Table.Visibility.PRIVATE
    )
    client = client_for(ana)
    answer = client.post(f"/social/tables/{table.pk}/invite/", {"username": "BO"})
    assert answer.status_code == 302
    notice = Notice.objects.get(user=bo)
    assert (notice.kind, notice.table_id, notice.about_id) == ("table_invite", table.pk, ana.pk)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bo@example.com"]
    assert "ana" in mail.outbox[0].subject and f"/tables/join/{table.invite_code}/" in (
        mail.outbox[0].body
    )
    assert "te invita" in mail.outbox[0].body  # in bo's language
    client.post(f"/social/tables/{table.pk}/invite/", {"username": "cy"})
    assert Notice.objects.filter(user=cy, kind="table_invite").count() == 1
    assert len(mail.outbox) == 1  # cy did not ask for emails
    # bo's notices page shows it, with the invite link that opens the private table
    notices = client_for(bo).get("/leagues/notices/").content.decode()
    assert "ana" in notices and f"/tables/join/{table.invite_code}/" in notices
    assert client_for(bo).get(f"/tables/join/{table.invite_code}/", follow=True).status_code == 200


def test_only_the_host_or_a_seated_player_invites_and_names_must_exist(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    table = tables.create_table(ana, name="t", players=4, options={})
    answer = client_for(cy).post(
        f"/social/tables/{table.pk}/invite/", {"username": "bo"}, HTTP_HX_REQUEST="true"
    )
    assert "Only the host" in answer.content.decode()
    answer = client_for(ana).post(
        f"/social/tables/{table.pk}/invite/", {"username": "nobody"}, HTTP_HX_REQUEST="true"
    )
    assert "no player named" in answer.content.decode()
    assert not Notice.objects.exists()
    tables.take_seat(table.pk, bo, 1)
    client_for(bo).post(f"/social/tables/{table.pk}/invite/", {"username": "cy"})
    assert Notice.objects.filter(user=cy, kind="table_invite", about=bo).exists()
    page = client_for(bo).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="invite-form"' in page
    assert 'id="invite-form"' not in client_for(cy).get(f"/tables/{table.pk}/").content.decode()


def test_your_turn_is_noticed_only_for_a_player_away_from_the_table(make_table, start_with_hands):
    table = make_table(["ana", "bo", None, None])
    match = start_with_hands(
        table, [("3S", "9H"), ("9D", "5H"), ("JS", "JH"), ("4C", "4D")], leader=0
    )
    bo = table.seats.get(number=1).user
    bo.email, bo.email_notices = "bo@example.com", True
    bo.save()
    # bo's page is open: nothing
    audiences.register(table.pk, Audience(1, "en"))
    assert not tasks.turn_notice(match.pk, 1, match.version)
    # bo away: one notice (and one email), not one per turn while it is unseen
    from games.live import redis_store

    redis_store.client().delete(redis_store.key("audiences", table.pk))
    assert tasks.turn_notice(match.pk, 1, match.version)
    assert not tasks.turn_notice(match.pk, 1, match.version)
    assert Notice.objects.filter(user=bo, kind="your_turn", table=table).count() == 1
    assert len(mail.outbox) == 1 and "turn" in mail.outbox[0].subject
    # a version already past: nothing
    assert not tasks.turn_notice(match.pk, 1, match.version + 5)
    # the header's badge counts it
    assert '<span class="badge">1</span>' in client_for(bo).get("/").content.decode()


def test_the_turn_arrives_only_when_it_changes_hands(make_table, start_with_hands):
    from games.play.services import load_state

    table = make_table(["ana", "bo", None, None])
    match = start_with_hands(
        table, [("3S", "9H"), ("9D", "5H"), ("JS", "JH"), ("4C", "4D")], leader=0
    )
    state = load_state(match)
    assert state.phase == "play" and state.turn == 0
    assert turns.arrived(state, state) is None
    moved = state._replace(turn=1)
    assert turns.arrived(state, state._replace(phase="window", turn=None)) is None
    assert turns.arrived(state, moved) == 1


@contextlib.contextmanager
def eager_tasks():
    """Celery runs a queued task in this thread (the real task code, no worker needed)."""
    from config.celery import app

    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


@pytest.mark.django_db(transaction=True)  # the eager task gives its connection back
def test_the_writer_queues_a_turn_notice_only_for_an_absent_person(make_table, start_with_hands):
    from games.play.services import load_state

    table = make_table(["ana", "bo", None, None])
    match = start_with_hands(
        table, [("3S", "9H"), ("9D", "5H"), ("JS", "JH"), ("4C", "4D")], leader=0
    )
    seats = list(table.seats.all())
    before = load_state(match)
    after = before._replace(turn=1, version=match.version)
    bo = seats[1].user
    with eager_tasks():
        turns.notify_if_away(match.pk, seats, before, after, [Audience(1, "es")])  # bo looks
        assert not Notice.objects.exists()
        turns.notify_if_away(match.pk, seats, before, after._replace(turn=2), [])  # an AI
        assert not Notice.objects.exists()
        turns.notify_if_away(match.pk, seats, before, after, [Audience(0, "en")])  # bo away
    assert list(Notice.objects.values_list("user", "kind")) == [(bo.pk, "your_turn")]


def test_opening_the_table_is_the_end_of_its_turn_notice(make_table):
    """The table says whose turn it is from then on: the notice goes (a seen one left in the
    list would still say "It is your turn" after the turn or the match is over)."""
    table = make_table(["ana", "bo", None, None])
    bo = table.seats.get(number=1).user
    notices.your_turn(table, bo)
    assert '<span class="badge">1</span>' in client_for(bo).get("/").content.decode()
    client_for(bo).get(f"/tables/{table.pk}/")
    assert not Notice.objects.filter(user=bo).exists()
    assert '<span class="badge">' not in client_for(bo).get("/").content.decode()


def test_the_friends_page_invites_to_a_hosted_table(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    # Hosted without a seat (as an organiser opens one): still the host's table to invite to.
    hosted = stewarding.open_table(ana, name="Hosted", options={}, seats=[(None, "")] * 4)
    friends.follow(ana, bo)
    client = client_for(ana)
    assert (
        f'<option value="{hosted.pk}">Hosted</option>'
        in client.get("/social/friends/").content.decode()
    )
    client.post("/social/invite/", {"table": str(hosted.pk), "username": "bo"})
    assert Notice.objects.filter(user=bo, kind="table_invite", table=hosted).exists()
    answer = client.post("/social/invite/", {"table": "x", "username": "bo"})
    assert answer.status_code == 302 and Notice.objects.count() == 1


def test_a_notice_just_sent_says_now_not_zero_minutes(make_user):
    """The notices page dates each notice naturally ("now", "2 minutes ago", translated):
    QA saw "0 minutes" next to an invitation just sent."""
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="Fresh", players=4, options={})
    client_for(ana).post(f"/social/tables/{table.pk}/invite/", {"username": "bo"})
    page = client_for(bo).get("/leagues/notices/").content.decode()
    # "now" within a second, then "N seconds ago" (a busy machine takes more than a second
    # between the invitation and the page): never "0 minutes".
    assert "0 minutes" not in page
    assert re.search(r"\bnow\b|\b\d+\xa0seconds? ago", page), page


def test_an_invite_refusal_shows_beside_the_invite_form_with_or_without_htmx(make_user):
    """ "There is no player named …" goes into the invite form's error, beside its field (as the
    site's forms show errors), not the felt's flash: swapped in for htmx, and shown by the
    table page a plain form goes back to, once. A later invitation sent clears it."""
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="t", players=4, options={})
    client = client_for(ana)
    url = f"/social/tables/{table.pk}/invite/"
    refused = client.post(url, {"username": "nobody"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="invite-error"' in refused and 'hx-swap-oob="innerHTML"' in refused
    assert "There is no player named “nobody”." in unescape(refused)
    assert 'id="flash"' not in refused
    sent = client.post(url, {"username": "bo"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Invitation sent to bo." in sent
    assert re.search(r'<div id="invite-error"[^>]*hx-swap-oob="innerHTML"></div>', sent)
    plain = client.post(url, {"username": "nobody"})
    assert plain.status_code == 302 and plain["Location"] == f"/tables/{table.pk}/"
    page = unescape(client.get(f"/tables/{table.pk}/").content.decode())
    error = re.search(r'<div id="invite-error"[^>]*>([^<]*)</div>', page)
    assert error and error.group(1) == "There is no player named “nobody”."
    assert 'aria-invalid="true"' in page
    assert '<ul class="messages">' not in page  # not at the top of the page either
    again = client.get(f"/tables/{table.pk}/").content.decode()
    assert re.search(r'<div id="invite-error"[^>]*></div>', again), "shown once"
    assert Notice.objects.filter(user=bo, kind="table_invite").count() == 1
