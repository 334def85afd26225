"""How many tables one person may host at once (``GAMES_MAX_HOSTED_TABLES``,
``games.play.tables.check_hosting``): creating a table, "play again", asking for a rematch."""

from __future__ import annotations

import html
import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Rematch, Table
from games.play import rematches, tables
from tests.games.play.test_rematches import finished  # noqa: F401 - a fixture
from tests.games.play.test_table_setup import form_data

pytestmark = pytest.mark.django_db


def open_table(host) -> Table:
    return tables.create_table(host, name="t", players=2, options={})


def refusal(count: int, language: str = "en") -> str:
    with translation.override(language):
        return tables.hosting_refusal(count)


def test_a_host_at_the_cap_cannot_open_another_until_one_ends(make_user, settings):
    """Three tables at most (here): the fourth is refused and not made; once one is over
    (finished or abandoned) another may open; other people are not affected."""
    settings.GAMES_MAX_HOSTED_TABLES = 3
    ana = make_user("ana")
    first, second, _third = (open_table(ana) for _ in range(3))
    with pytest.raises(tables.TableError) as refused:
        open_table(ana)
    assert str(refused.value) == refusal(3)
    assert Table.objects.filter(host=ana).count() == 3
    open_table(make_user("bo"))
    Table.objects.filter(pk=first.pk).update(status=Table.Status.FINISHED)
    open_table(ana)
    Table.objects.filter(pk=second.pk).update(status=Table.Status.PLAYING)  # still counts
    with pytest.raises(tables.TableError):
        open_table(ana)


def test_no_cap_when_it_is_zero(make_user, settings):
    settings.GAMES_MAX_HOSTED_TABLES = 0
    ana = make_user("ana")
    for _ in range(8):
        open_table(ana)


def test_the_default_cap_is_five(settings):
    from config import settings as configured

    assert configured.GAMES_MAX_HOSTED_TABLES == 5


@pytest.mark.parametrize("language", ["en", "es", "id", "vi"])
def test_the_create_table_form_says_so_in_the_page_language(client, make_user, settings, language):
    settings.GAMES_MAX_HOSTED_TABLES = 2
    ana = make_user("ana")
    open_table(ana)
    open_table(ana)
    client.force_login(ana)
    response = client.post(
        reverse("games:create_table"), form_data(), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200 and "<form" in response.content.decode()
    assert refusal(2, language) in html.unescape(response.content.decode())
    if language != "en":
        assert refusal(2, language) != refusal(2, "en")  # translated
    assert Table.objects.filter(host=ana).count() == 2


def test_play_again_at_the_cap_says_so_on_the_lobby(finished, client, settings):  # noqa: F811
    table, _ana, bo = finished
    settings.GAMES_MAX_HOSTED_TABLES = 2
    open_table(bo)
    open_table(bo)
    client.force_login(bo)
    response = client.post("/tables/again/", follow=True)
    assert refusal(2) in html.unescape(response.content.decode())
    assert Table.objects.filter(host=bo).count() == 2


def test_asking_for_a_rematch_at_the_cap_is_refused(finished, settings):  # noqa: F811
    """The one who asks would host the new table: refused, and no rematch is asked."""
    table, ana, _bo = finished
    settings.GAMES_MAX_HOSTED_TABLES = 1
    open_table(ana)
    with pytest.raises(rematches.RematchError) as refused:
        rematches.do_ask(table.pk, ana)
    assert str(refused.value) == refusal(1)
    assert not Rematch.objects.filter(table=table).exists()


@pytest.mark.django_db(transaction=True)
def test_tables_opened_at_once_stop_at_the_cap(make_user, settings, password):
    """Ten create-table forms of one player sent at the same moment (threads through the
    real view, each with its own connection): exactly the cap's 3 tables; the others get the
    form with the refusal, never a 500."""
    settings.GAMES_MAX_HOSTED_TABLES = 3
    ana = make_user("ana")
    barrier = threading.Barrier(10)
    statuses: list[int | Exception] = []

    def create() -> None:
        client = Client()
        client.force_login(ana)
        try:
            barrier.wait(timeout=30)
            statuses.append(client.post(reverse("games:create_table"), form_data()).status_code)
        except Exception as e:  # noqa: BLE001 - asserted below
            statuses.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [200] * 7 + [302] * 3
    assert Table.objects.filter(host=ana).count() == 3


@pytest.mark.parametrize(
    ("language", "button"),
    [("en", "Resign"), ("es", "Rendirse"), ("id", "Menyerah"), ("vi", "Đầu hàng")],
)
def test_the_refusal_names_resigning_a_match_being_played(language, button):
    """A tester at the cap with five games against the computer under way was told to finish
    one or close one still waiting: a match being played cannot be closed, only resigned. The
    refusal names the table page's Resign button, in the player's language."""
    assert f"({button}, " in refusal(5, language)
