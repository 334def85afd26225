"""Ending a session ends its sockets (games.sockets.session_guard): log-out, a password change, a
deactivation (also from the admin), a deleted session row — and the check each action makes.

Real consumers over the real ASGI app (session auth, Origin check), the real Redis channel
layer and PostgreSQL, as in test_consumers. After each way a session ends, the socket is closed
with 4401, no frame with the hand reaches it, and a play it sends is not applied.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.models import User
from config.asgi import application
from games.live import push
from games.models import Match
from games.play import services
from games.sockets import session_guard
from tests.games.live.test_lobby import MINE, PUBLIC
from tests.games.live.test_query_counts import StatementCounter, four_people
from tests.games.pages import header
from tests.games.sockets.test_consumers import (
    HANDS,
    cards_in,
    frame,
    is_spectator_count,
    nothing_but_counts,
    setup_match,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

NEW_PASSWORD = "another-long-passphrase-414"


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    await sync_to_async(connections.close_all)()


def signed_in(user: User) -> Client:
    """A browser of its own (a session of its own) signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def members(group: str) -> set[str]:
    """The channels of this process in ``group`` (the pub/sub layer keeps them in-process)."""
    layer = get_channel_layer()
    return set(layer.groups.get(layer._get_group_channel_name(group), ()))


async def table_socket(table_id: int, client: Client) -> WebsocketCommunicator:
    """A table socket of ``client``'s session, its connect snapshot read (and returned as
    ``ws.snapshot``) and its consumer's channel found (``ws.channel_name``: the one channel its
    connect added to the player's group)."""
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    group = session_guard.user_group(await in_sync(lambda: client.session[SESSION_KEY]))
    before = members(group)
    ws = WebsocketCommunicator(
        application,
        f"/ws/table/{table_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    connected, _ = await ws.connect()
    assert connected
    ws.snapshot = await frame(ws)
    (ws.channel_name,) = members(group) - before
    return ws


async def drained(ws: WebsocketCommunicator) -> None:
    """Whatever was sent to ``ws``'s consumer so far has been handled, and it sent nothing.

    The barrier: a ``websocket.disconnect`` on the consumer's own channel, published after
    everything the test sent before, so behind every message for it on the same ordered path
    (one Redis pub/sub connection, then the channel's queue, handled one at a time; frames sent
    on the socket before were taken earlier still, see ``nothing_after_the_end``). A closed
    consumer lets only that message through and stops on it; a frame it had made for an
    earlier message would be in its output before it stopped. No fixed wait."""
    await get_channel_layer().send(ws.channel_name, {"type": "websocket.disconnect", "code": 1000})
    await ws.wait(timeout=30)  # the consumer stopped (a failure in it is raised here)
    assert ws.output_queue.empty(), ws.output_queue.get_nowait()


async def close_code(ws: WebsocketCommunicator) -> int | None:
    """The code the server closed ``ws`` with; frames before the close are skipped."""
    while True:
        output = await ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return output.get("code")


async def in_sync(function: Callable, *args, **kwargs):
    return await sync_to_async(function)(*args, **kwargs)


def version_of(match: Match) -> int:
    return Match.objects.get(pk=match.pk).version


async def assert_ended(
    match: Match, ended: WebsocketCommunicator, witness: WebsocketCommunicator
) -> None:
    """``ended`` is closed with 4401; then as ``nothing_after_the_end``."""
    assert await close_code(ended) == session_guard.CLOSE_CODE
    await nothing_after_the_end(match, ended, witness)


async def nothing_after_the_end(
    match: Match, ended: WebsocketCommunicator, witness: WebsocketCommunicator
) -> None:
    """A legal play ``ended`` sends is not applied, and a full push of the table reaches
    ``witness`` (with its hand, at version 0: no play came before it) but nothing reaches the
    closed ``ended``.

    The play is put on the socket before the push is even made: the consumer takes its socket's
    frames in order and one message at a time, so it has handled the play before it gets to
    the push or to ``drained``'s barrier after it."""
    await ended.send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "after-the-end"})
    )  # bo's turn: legal
    await in_sync(push.publish_table, match.table_id)  # every audience: a snapshot, hands too
    seen = await frame(witness)  # (spectator counts skipped)
    assert cards_in(seen) >= set(HANDS[0])  # the push went out: ana's page got her hand
    assert header(seen)["v"] == 0  # and no delta of a play before it
    await drained(ended)  # the play handled, the push not sent on
    assert await in_sync(version_of, match) == 0


async def started(
    make_user,
) -> tuple[Match, dict, WebsocketCommunicator, WebsocketCommunicator, Client]:
    """bo (seat 1, to play) and ana (seat 0) at a started table, each with a table socket;
    bo's browser is returned with them."""
    match, users = await in_sync(setup_match, make_user)
    bo_browser = await in_sync(signed_in, users["bo"])
    ana = await table_socket(match.table_id, await in_sync(signed_in, users["ana"]))
    bo = await table_socket(match.table_id, bo_browser)
    assert cards_in(bo.snapshot) == set(HANDS[1])
    return match, users, ana, bo, bo_browser


# --- each way a session ends -----------------------------------------------------------------


async def test_logging_out_in_another_tab_closes_the_socket(make_user):
    """bo logs out in another tab of the same browser (same session)."""
    match, users, ana, bo, browser = await started(make_user)
    response = await in_sync(browser.post, reverse("logout"))
    assert response.status_code == 302
    await assert_ended(match, bo, ana)
    await ana.disconnect()


async def test_a_password_change_elsewhere_closes_the_socket(make_user, password):
    """bo changes his password on another computer (another session): that session goes on
    (Django's update_session_auth_hash), this one's socket is closed."""
    match, users, ana, bo, _browser = await started(make_user)
    elsewhere = await in_sync(signed_in, users["bo"])
    response = await in_sync(
        elsewhere.post,
        reverse("password_change"),
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    await assert_ended(match, bo, ana)
    assert (await in_sync(elsewhere.get, reverse("preferences"))).status_code == 200
    await ana.disconnect()


async def test_a_password_set_in_code_closes_the_socket(make_user):
    """``set_password`` and ``save`` (a shell, a reset, a staff tool)."""
    match, users, ana, bo, _browser = await started(make_user)

    def reset() -> None:
        user = User.objects.get(pk=users["bo"].pk)
        user.set_password(NEW_PASSWORD)
        user.save()

    await in_sync(reset)
    await assert_ended(match, bo, ana)
    await ana.disconnect()


async def test_deactivating_the_account_closes_the_socket(make_user):
    match, users, ana, bo, _browser = await started(make_user)

    def deactivate() -> None:
        user = User.objects.get(pk=users["bo"].pk)
        user.is_active = False
        user.save()

    await in_sync(deactivate)
    await assert_ended(match, bo, ana)
    await ana.disconnect()


async def test_deactivating_the_account_in_the_admin_closes_the_socket(make_user):
    """Staff unticks "active" on bo's change page and saves."""
    match, users, ana, bo, _browser = await started(make_user)
    staff = await in_sync(make_user, "staff", is_staff=True, is_superuser=True)
    admin = await in_sync(signed_in, staff)
    bo_user = users["bo"]
    joined = bo_user.date_joined
    response = await in_sync(
        admin.post,
        reverse("admin:accounts_user_change", args=[bo_user.pk]),
        {
            "username": "bo",
            "first_name": "",
            "last_name": "",
            "email": "",
            # "is_active" left out: unticked
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
            "last_login_0": "",
            "last_login_1": "",
            "language": "",
            "sound_on": "on",
            "title_alerts": "on",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert not await in_sync(lambda: User.objects.get(pk=bo_user.pk).is_active)
    await assert_ended(match, bo, ana)
    await ana.disconnect()


async def test_deleting_the_session_closes_the_socket(make_user):
    """The session row deleted (what an admin, a shell or ``clearsessions`` does)."""
    match, users, ana, bo, browser = await started(make_user)
    key = browser.cookies["sessionid"].value
    deleted, _ = await in_sync(lambda: Session.objects.filter(session_key=key).delete())
    assert deleted == 1
    await assert_ended(match, bo, ana)
    await ana.disconnect()


# --- the check each action makes (no message needed) ------------------------------------------


async def test_a_play_after_a_silent_deactivation_is_refused_and_closes(make_user):
    """``QuerySet.update`` sends no signal and so no message: the play itself checks the
    session, is not applied, and the socket is closed with 4401."""
    match, users, ana, bo, _browser = await started(make_user)
    await in_sync(lambda: User.objects.filter(pk=users["bo"].pk).update(is_active=False))
    assert await bo.receive_nothing(timeout=0.5)  # nobody told the socket
    await bo.send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "b1"})
    )
    assert await close_code(bo) == session_guard.CLOSE_CODE
    assert await in_sync(version_of, match) == 0
    await nothing_after_the_end(match, bo, ana)
    await ana.disconnect()


async def test_a_heartbeat_after_a_silent_password_change_closes(make_user, monkeypatch):
    """A heartbeat re-checks once its last check is ``HEARTBEAT_RECHECK_SECONDS`` old (here 0):
    the backstop when the message that a session ended was lost."""
    monkeypatch.setattr(session_guard, "HEARTBEAT_RECHECK_SECONDS", 0.0)
    match, users, ana, bo, _browser = await started(make_user)
    await in_sync(
        lambda: User.objects.filter(pk=users["bo"].pk).update(
            password="md5$changed$0123456789abcdef"
        )
    )
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))
    await assert_ended(match, bo, ana)
    await ana.disconnect()


async def test_a_recent_check_spares_the_heartbeat_a_query(make_user):
    """With the default recheck interval a heartbeat just after connecting runs no session
    query: a silent change is caught by the next action instead."""
    match, users, ana, bo, _browser = await started(make_user)
    await in_sync(lambda: User.objects.filter(pk=users["bo"].pk).update(is_active=False))
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))
    assert await nothing_but_counts(bo, timeout=1)  # still open: heartbeat trusted the check
    await bo.send_to(json.dumps({"resync": 1}))
    await assert_ended(match, bo, ana)
    await ana.disconnect()


# --- what does not end --------------------------------------------------------------------------


async def test_logging_out_one_browser_leaves_the_other_playing(make_user):
    """bo at the table in two browsers: logging out of one closes only its socket; the other
    still gets its hand and plays."""
    match, users, ana, bo, browser = await started(make_user)
    second = await table_socket(match.table_id, await in_sync(signed_in, users["bo"]))
    await in_sync(browser.post, reverse("logout"))
    assert await close_code(bo) == session_guard.CLOSE_CODE
    await in_sync(push.publish_table, match.table_id)
    assert cards_in(await frame(second)) == set(HANDS[1])
    await second.send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "b2"})
    )
    assert "5H" in cards_in(await frame(second))
    assert await in_sync(version_of, match) == 1
    for ws in (ana, second):
        await ws.disconnect()


async def test_a_spectators_socket_is_not_checked(make_user):
    """An anonymous spectator has no session to end: its messages run no session query."""
    match, _users = await in_sync(setup_match, make_user)
    ws = WebsocketCommunicator(
        application, f"/ws/table/{match.table_id}/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await ws.connect())[0]
    await frame(ws)
    while not is_spectator_count(await ws.receive_from(timeout=10)):
        pass  # the count refreshed after this join (a render) is out of the way
    with StatementCounter() as counter:
        await ws.send_to(json.dumps({"heartbeat": 1, "version": 0}))
        assert await nothing_but_counts(ws, timeout=0.5)
    assert counter.count == 0
    await ws.disconnect()


# --- the lobby ---------------------------------------------------------------------------------


async def lobby_socket(client: Client) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    ws = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    assert (await ws.connect())[0]
    assert (await ws.receive_from(timeout=10)).startswith(PUBLIC)
    assert (await ws.receive_from(timeout=10)).startswith(MINE)
    return ws


@pytest.mark.parametrize("ending", ["log out", "deactivate"])
async def test_ending_a_session_closes_its_lobby_socket(make_user, ending):
    """The lobby's sockets have no channel of their own: the hub hears for them. Log-out
    closes that session's socket only; deactivation every socket of the player."""
    bo = await in_sync(make_user, "bo")
    browser, other_browser = await in_sync(signed_in, bo), await in_sync(signed_in, bo)
    ws, other = await lobby_socket(browser), await lobby_socket(other_browser)
    if ending == "log out":
        await in_sync(browser.post, reverse("logout"))
    else:
        user = await in_sync(User.objects.get, pk=bo.pk)
        user.is_active = False
        await in_sync(user.save)
    assert await close_code(ws) == session_guard.CLOSE_CODE
    if ending == "log out":
        assert await other.receive_nothing(timeout=1)  # still open, nothing to say
        await other.disconnect()
    else:
        assert await close_code(other) == session_guard.CLOSE_CODE


# --- cost --------------------------------------------------------------------------------------


async def socket_past_a_stale_play(table_id: int, person, client_id: str) -> WebsocketCommunicator:
    """``person``'s seat socket after one stale play, refused (so the socket knows its match)
    and answered with a snapshot: the next play is a plain one."""
    ws = await table_socket(table_id, await in_sync(signed_in, person))
    await ws.send_to(
        json.dumps({"action": "play", "cards": ["9D"], "version": 5, "client_id": client_id})
    )
    assert 'id="flash"' in await frame(ws)
    await frame(ws)  # the snapshot that answers a stale action
    return ws


async def test_an_action_on_a_socket_costs_one_statement_more_than_the_writer(make_user):
    """The same play in two like matches: through ``services.submit`` directly, and sent on a
    seat's socket (whose match id is already known). The socket's costs exactly one statement
    more — the session check — counted in every thread, push included."""
    direct, direct_people = await in_sync(four_people, make_user, "d")
    socketed, people = await in_sync(four_people, make_user, "s")
    # The same history as the socket's below: a snapshot, a stale play, a snapshot.
    await in_sync(push.snapshot, direct.table_id, 1, direct_people[1], "en")
    stale = await in_sync(
        services.submit,
        direct.pk,
        direct_people[1],
        {"action": "play", "cards": ["9D"], "version": 5, "client_id": "d0"},
    )
    assert stale.code == "stale"
    await in_sync(push.snapshot, direct.table_id, 1, direct_people[1], "en")
    with StatementCounter() as writer_only:
        await in_sync(
            services.submit,
            direct.pk,
            direct_people[1],
            {"action": "play", "cards": ["9D"], "version": 0, "client_id": "d1"},
        )
    ws = await socket_past_a_stale_play(socketed.table_id, people[1], "s0")
    with StatementCounter() as on_socket:
        await ws.send_to(
            json.dumps({"action": "play", "cards": ["9D"], "version": 0, "client_id": "s1"})
        )
        assert "9D" in cards_in(await frame(ws))
    assert await in_sync(version_of, socketed) == 1
    assert on_socket.count == writer_only.count + 1
    await ws.disconnect()


async def test_an_action_checks_its_session_in_its_own_pool_job(make_user, monkeypatch):
    """A play on a seat's socket is one job in the socket pool: the session check and the
    submission (push included) share it, not a thread hop each; the check still ran (a
    statement beside the writer's, test above; a silent deactivation refuses the play)."""
    from games.sockets import pool

    socketed, people = await in_sync(four_people, make_user, "j")
    ws = await socket_past_a_stale_play(socketed.table_id, people[1], "j0")
    jobs = []
    original_submit = pool.WRITER_POOL.submit

    def submit(*args, **kwargs):
        jobs.append(args)
        return original_submit(*args, **kwargs)

    monkeypatch.setattr(pool.WRITER_POOL, "submit", submit)
    await ws.send_to(
        json.dumps({"action": "play", "cards": ["9D"], "version": 0, "client_id": "j1"})
    )
    assert "9D" in cards_in(await frame(ws))
    assert len(jobs) == 1
    assert await in_sync(version_of, socketed) == 1
    await ws.disconnect()
