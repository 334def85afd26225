"""The lobby's live push: coalesced refreshes, public lists rendered once per language and
shared, "my tables" only for the players concerned, and a query count that does not grow.

The socket tests run the real ASGI application (session cookie, Origin check) over the real
Redis channel layer and PostgreSQL, as tests/games/sockets/test_consumers.py does.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from games.live import lobby, notify
from games.models import Match, Seat, Table
from games.play import tables
from games.sockets import lobby_hub

PUBLIC = '<div id="lobby-public"'
MINE = '<div id="lobby-mine"'
# --- helpers -----------------------------------------------------------------------------------


def cookie_for(user=None, language: str | None = None) -> bytes:
    cookies = []
    if user is not None:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    if language:
        cookies.append(f"django_language={language}")
    return "; ".join(cookies).encode()


async def lobby_socket(user=None, language: str | None = None) -> WebsocketCommunicator:
    """A connected lobby socket whose connect snapshot (public lists, then the player's own
    tables when signed in) has been read."""
    headers = [(b"origin", b"http://localhost")]
    cookie = await sync_to_async(cookie_for)(user, language)
    if cookie:
        headers.append((b"cookie", cookie))
    ws = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    ws.snapshot = [await ws.receive_from(timeout=10)]
    assert ws.snapshot[0].startswith(PUBLIC)
    if user is not None:
        ws.snapshot.append(await ws.receive_from(timeout=10))
        assert ws.snapshot[1].startswith(MINE)
    return ws


async def settled(*sockets: WebsocketCommunicator) -> list[list[str]]:
    """Every frame each socket got once the process's hub has heard every change published
    so far and offered the refresh each one joined (``LobbyHub.settled``): a barrier, not a
    quiet window. The hub's offers are sends into the sockets' queues, done by then."""
    await lobby_hub.LobbyHub.current().settled()
    got = []
    for ws in sockets:
        frames = []
        while not ws.output_queue.empty():
            frames.append(await ws.receive_from())
        got.append(frames)
    return got


async def close(*sockets: WebsocketCommunicator) -> None:
    for ws in sockets:
        await ws.disconnect()


@pytest.fixture(autouse=True)
def _no_hosting_cap(settings) -> None:
    """These tests have one person host many tables to count statements and refreshes; the cap
    on hosting (GAMES_MAX_HOSTED_TABLES) has its own tests (tests/games/play/test_hosting.py)."""
    settings.GAMES_MAX_HOSTED_TABLES = 0


def open_table(host, name: str, **fields) -> Table:
    return tables.create_table(host, name=name, players=2, options={}, **fields)


def live_table(host, name: str) -> Table:
    table = open_table(host, name)
    tables.fill_with_ai(table.pk, host)
    tables.start(table.pk, host, seed=1)
    return table


def finished_table(host, name: str) -> Table:
    table = live_table(host, name)
    Match.objects.filter(table=table).update(winner_team=0, finished_at=timezone.now())
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    return table


@pytest.fixture
def rendered(monkeypatch) -> list[list[str]]:
    """The languages of each call of ``lobby.public_frames`` (one call per refresh or connect
    render; the lobby's thread appends)."""
    calls: list[list[str]] = []
    lock = threading.Lock()
    original = lobby.public_frames

    def spy(languages):
        languages = list(languages)
        with lock:
            calls.append(sorted(languages))
        return original(languages)

    monkeypatch.setattr(lobby, "public_frames", spy)
    return calls


# --- the sockets -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
class TestPush:
    @pytest.fixture(autouse=True)
    async def _close_db_connections(self):
        """Close the connections the test's threads opened, so teardown can drop the test
        database."""
        yield
        await sync_to_async(connections.close_all)()

    async def test_sockets_of_one_language_get_the_same_public_frame(self, make_user, rendered):
        """A change reaches an anonymous and a signed-in socket as byte-identical public lists,
        rendered once for both."""
        ana, bo = await sync_to_async(lambda: (make_user("ana"), make_user("bo")))()
        anonymous, signed_in = await lobby_socket(), await lobby_socket(bo)
        rendered.clear()
        table = await sync_to_async(open_table)(ana, "Shared one")
        first, second = await settled(anonymous, signed_in)
        assert first == second
        assert len(first) == 1 and first[0].startswith(PUBLIC)
        assert f'id="lobby-table-{table.pk}"' in first[0]
        assert rendered == [["en"]]
        await close(anonymous, signed_in)

    async def test_a_refresh_that_changes_nothing_sends_nothing(self, make_user, rendered):
        """A refresh whose lists render the same is not sent (its timing alone would tell a
        delayed table's live round end); the next real change still arrives."""
        ana = await sync_to_async(make_user)("ana")
        anonymous, signed_in = await lobby_socket(), await lobby_socket(ana)
        rendered.clear()
        await sync_to_async(notify.lobby_changed)([ana.pk])
        assert await settled(anonymous, signed_in) == [[], []]
        assert rendered == [["en"]]  # it was rendered, and found unchanged
        table = await sync_to_async(open_table)(ana, "Changed")
        (frames,) = await settled(signed_in)
        assert any(f'id="lobby-table-{table.pk}"' in frame for frame in frames)
        await close(anonymous, signed_in)

    async def test_a_burst_of_changes_makes_one_refresh(self, make_user, rendered):
        """Twenty tables opened at once (twenty ``lobby.changed`` back to back) make one frame
        at once and then at most one per window while they arrive (one or two on a quiet
        machine; a busy one spreads the twenty notifications over more windows), the last one
        listing all of them."""
        ana = await sync_to_async(make_user)("ana")
        ws = await lobby_socket()
        rendered.clear()
        loop = asyncio.get_running_loop()

        def burst() -> list[int]:
            with transaction.atomic():  # every notification goes out at the commit, together
                return [open_table(ana, f"Burst {n}").pk for n in range(20)]

        started = loop.time()
        ids = await sync_to_async(burst)()
        (frames,) = await settled(ws)
        # The windows from the burst's start to its last frame: the first frame, and one per
        # window after it at most.
        windows = (loop.time() - started) / lobby_hub.WINDOW_SECONDS
        assert 1 <= len(frames) <= min(windows + 2, 10)
        assert all(f'id="lobby-table-{pk}"' in frames[-1] for pk in ids)
        # A render that found no change is not sent.
        assert len(frames) <= len(rendered) <= min(windows + 2, 10)
        await close(ws)

    async def test_refreshes_are_spaced_by_the_window(self, make_user):
        """Changes spread over a second make at most one frame per window (plus the first)."""
        ana = await sync_to_async(make_user)("ana")
        ws = await lobby_socket()
        loop = asyncio.get_running_loop()
        started = loop.time()
        for n in range(10):
            await sync_to_async(open_table)(ana, f"Spread {n}")
            await asyncio.sleep(0.1)
        elapsed = loop.time() - started
        (frames,) = await settled(ws)
        assert len(frames) <= elapsed / lobby_hub.WINDOW_SECONDS + 1
        await close(ws)

    async def test_a_private_table_shows_in_its_hosts_tables_only(self, make_user):
        """The host's socket gets "my tables" with the private table; another player's and an
        anonymous socket never see it, in a push or in a snapshot, and get no "my tables"."""
        ana, bo = await sync_to_async(lambda: (make_user("ana"), make_user("bo")))()
        host, other, anonymous = (
            await lobby_socket(ana),
            await lobby_socket(bo),
            await lobby_socket(),
        )

        def open_private() -> Table:
            with transaction.atomic():
                table = open_table(ana, "Secret den", visibility=Table.Visibility.PRIVATE)
                # What tables.py's callers send once they pass the players (a no-argument
                # lobby_changed refreshes the public lists only).
                transaction.on_commit(lambda: notify.lobby_changed(lobby.people_at(table)))
            return table

        table = await sync_to_async(open_private)()
        marker = f'data-table="{table.pk}"'  # its row, in whichever list
        host_frames, *others = await settled(host, other, anonymous)
        mine = [f for f in host_frames if f.startswith(MINE)]
        assert len(mine) == 1 and marker in mine[0] and "Secret den" in mine[0]
        for frames in others:
            # (the public lists did not change)
            assert all(f.startswith(PUBLIC) for f in frames)
            assert not any(marker in f or "Secret den" in f for f in frames)
        later_other, later_anonymous = await lobby_socket(bo), await lobby_socket()
        for ws in (later_other, later_anonymous):
            assert not any(marker in f for f in ws.snapshot)
        later_host = await lobby_socket(ana)
        assert marker in later_host.snapshot[1] and marker not in later_host.snapshot[0]
        await close(host, other, anonymous, later_other, later_anonymous, later_host)

    async def test_a_change_refreshes_the_tables_of_the_players_named_only(self, make_user):
        """bo sits at ana's table: both their "my tables" refresh; cy's socket gets the public
        lists alone."""
        ana, bo, cy = await sync_to_async(
            lambda: (make_user("ana"), make_user("bo"), make_user("cy"))
        )()
        table = await sync_to_async(open_table)(ana, "Pair table")
        sockets = {
            name: await lobby_socket(user) for name, user in (("ana", ana), ("bo", bo), ("cy", cy))
        }

        def sit() -> None:
            tables.take_seat(table.pk, bo, 1)
            notify.lobby_changed([ana.pk, bo.pk, None])  # None: an AI seat, skipped

        await sync_to_async(sit)()
        got = dict(zip(sockets, await settled(*sockets.values()), strict=True))
        for name in ("ana", "bo"):
            mine = [f for f in got[name] if f.startswith(MINE)]
            assert len(mine) == 1 and "Pair table" in mine[0] and "2/2 seats" in mine[0]
        assert all(f.startswith(PUBLIC) for f in got["cy"])
        await close(*sockets.values())

    async def test_each_language_gets_its_own_lists_rendered_once(self, make_user, rendered):
        """Spanish sockets (a cookie, a saved language) share one Spanish frame, the English one
        gets English; one render covers both languages."""
        ana, luz = await sync_to_async(
            lambda: (make_user("ana"), make_user("luz", language="es"))
        )()
        english, cookie_es, saved_es = (
            await lobby_socket(),
            await lobby_socket(language="es"),
            await lobby_socket(luz),
        )
        assert "Mesas abiertas" in cookie_es.snapshot[0] and "Open tables" in english.snapshot[0]
        rendered.clear()
        await sync_to_async(open_table)(ana, "Mesa de Ana")
        en, es_cookie, es_saved = await settled(english, cookie_es, saved_es)
        assert es_cookie == es_saved and es_cookie != en
        assert "Mesas abiertas" in es_cookie[0] and "Open tables" not in es_cookie[0]
        assert "Open tables" in en[0] and "Mesa de Ana" in en[0]
        assert rendered == [["en", "es"]]
        await close(english, cookie_es, saved_es)

    async def test_the_hub_leaves_the_group_with_its_last_socket(self, make_user):
        """No lobby socket left in the process: nobody listens, nothing is rendered."""
        ws = await lobby_socket()
        hub = lobby_hub.LobbyHub.current()
        assert hub._channel is not None
        await close(ws)
        assert hub._channel is None and not hub._tasks
        again = await lobby_socket()  # and a new socket subscribes again
        assert hub._channel is not None
        ana = await sync_to_async(make_user)("ana")
        table = await sync_to_async(open_table)(ana, "After the gap")
        assert f'id="lobby-table-{table.pk}"' in (await settled(again))[0][-1]
        await close(again)


# --- query counts ------------------------------------------------------------------------------


def statements(function, *args) -> int:
    with CaptureQueriesContext(connection) as queries:
        function(*args)
    return len(queries)


@pytest.mark.django_db
def test_a_refresh_of_the_public_lists_takes_four_statements_however_many_tables(
    make_user, django_assert_max_num_queries
):
    """Open, live and finished tables read once (4 statements) for every language: the count
    is the same for 3 tables and for 30."""
    ana, bo = make_user("ana"), make_user("bo")

    def add(first: int, last: int) -> None:
        for n in range(first, last):
            open_table(ana, f"open {n}")
            live_table(bo, f"live {n}")
            finished_table(ana, f"done {n}")

    add(0, 1)
    few = statements(lobby.public_frames, ["en", "es"])
    add(1, 10)
    with django_assert_max_num_queries(4):
        frames = lobby.public_frames(["en", "es"])
    assert statements(lobby.public_frames, ["en", "es"]) == few
    assert frames["en"].count('class="table-row"') == 30 and "Mesas abiertas" in frames["es"]


@pytest.mark.django_db
def test_my_tables_take_two_statements_however_many_tables(
    make_user, django_assert_max_num_queries
):
    """A player's own tables (hosted, or seated at someone else's) cost 2 statements per player,
    the same for 3 tables and for 30."""
    ana, bo = make_user("ana"), make_user("bo")

    def add(count: int) -> None:
        for n in range(count):
            if n % 3 == 0:
                table = open_table(bo, f"bo's {n}")
                tables.take_seat(table.pk, ana, 1)
            elif n % 3 == 1:
                live_table(ana, f"live {n}")
            else:
                open_table(ana, f"open {n}", visibility=Table.Visibility.PRIVATE)

    add(3)
    few = statements(lobby.mine_frames, {ana.pk: ["en"]})
    add(27)
    with django_assert_max_num_queries(2):
        frames = lobby.mine_frames({ana.pk: ["en", "vi"]})
    assert statements(lobby.mine_frames, {ana.pk: ["en"]}) == few
    assert frames[ana.pk, "en"].count('class="table-row"') == lobby.LIST_LENGTH
    assert Seat.objects.filter(user=ana).count() == 30


@pytest.mark.django_db
def test_the_page_and_the_push_render_the_same_parts(make_user, client):
    """The lobby page's lists are the two pushed parts, side by side inside ``#lobby-lists``."""
    ana = make_user("ana")
    open_table(ana, "Mine and public")
    client.force_login(ana)
    page = client.get(reverse("games:lobby")).content.decode()
    public = lobby.public_frames(["en"])["en"].replace(' hx-swap-oob="true"', "")
    mine = lobby.mine_frames({ana.pk: ["en"]})[ana.pk, "en"].replace(' hx-swap-oob="true"', "")
    assert public in page and mine in page
    assert (
        page.index('id="lobby-lists"')
        < page.index('id="lobby-mine"')
        < page.index('id="lobby-public"')
    )


@pytest.mark.django_db
def test_a_person_played_by_a_stand_in_counts_as_a_person_not_an_ai(make_user) -> None:
    """The lobby's "N AI players" counts AI seats, not a person whose seat the AI plays while
    they are away (QA: "4 AI players" at a table with a person standing in)."""
    host = make_user("host")
    table = live_table(host, "stand-in table")  # 2 seats: the host and one AI
    Seat.objects.filter(table=table, user=host).update(stand_in="away", ai_policy="expert")
    (row,) = [r for r in lobby.my_tables(host) if r["table"].pk == table.pk]
    assert (row["humans"], row["ai"]) == (1, 1)
