"""A table's automatic name ("ana vs the computer", "ana's table") reads in each reader's own
language wherever it is shown; a name the host typed reads exactly as typed in every language
(``Table.auto_name``, ``Table.display_name``)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games.live import lobby, lobby_cache
from games.models import Match, Table
from games.play import quick, tables
from tests.games.play.test_table_setup import form_data

pytestmark = pytest.mark.django_db

COMPUTER = {
    "en": "ana vs the computer",
    "es": "ana contra la computadora",
    "id": "ana melawan komputer",
    "vi": "ana đấu với máy",
}
HOSTS = {"en": "ana's table", "es": "Mesa de ana", "id": "Meja ana", "vi": "Bàn của ana"}


def reader(language: str, user: User | None = None) -> Client:
    """A client reading in ``language``: signed in as ``user`` (whose account's language is
    then ``language``), else anonymous with the language cookie."""
    client = Client()
    if user is not None:
        User.objects.filter(pk=user.pk).update(language=language)
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def others(names: dict[str, str], language: str) -> list[str]:
    return [name for lang, name in names.items() if lang != language]


@pytest.fixture
def computer_match(make_user) -> Match:
    """A "Play the computer" match ana opened with her account in Spanish."""
    ana = make_user("ana", language="es")
    with translation.override("es"):
        return quick.play_the_computer(ana, "random", seed=1)


def test_a_computer_table_made_in_spanish_reads_in_each_readers_language(
    computer_match, make_user, settings
):
    settings.GAMES_LOBBY_CACHE_SECONDS = 60  # a Spanish render kept must not reach others
    table = computer_match.table
    assert table.auto_name == Table.AutoName.COMPUTER
    urls = [
        reverse("games:lobby"),
        table.get_absolute_url(),
        reverse("games:match_record", args=[computer_match.pk]),
    ]
    for language in ["es", "en", "id", "vi"]:
        for url in urls:
            html = page(reader(language), url)
            assert COMPUTER[language] in html, (language, url)
            for other in others(COMPUTER, language):
                assert other not in html, (language, url, other)


def test_the_player_reads_their_own_tables_in_their_language(computer_match):
    ana = computer_match.table.host
    for language in ["en", "vi"]:
        client = reader(language, ana)
        for url in [reverse("games:lobby"), reverse("games:player_matches", args=["ana"])]:
            html = page(client, url)
            assert COMPUTER[language] in html and COMPUTER["es"] not in html, (language, url)


def test_a_typed_name_reads_as_typed_in_every_language(make_user):
    ana = make_user("ana", language="es")
    table = tables.create_table(ana, name="Viernes: ana's table", players=4, options={})
    assert table.auto_name == Table.AutoName.NONE
    for language in ["en", "es", "id", "vi"]:
        with translation.override(language):
            assert table.display_name == "Viernes: ana's table"
        for url in [reverse("games:lobby"), table.get_absolute_url()]:
            assert "Viernes: ana&#x27;s table" in page(reader(language), url)


def test_the_forms_name_left_as_prefilled_is_automatic(make_user):
    ana = make_user("ana")
    client = reader("es", ana)
    form = page(client, reverse("games:create_table"))
    assert 'value="Mesa de ana"' in form
    response = client.post(
        reverse("games:create_table"),
        form_data(name="Mesa de ana"),
    )
    table = Table.objects.get(host=ana)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert table.auto_name == Table.AutoName.TABLE and table.name == "Mesa de ana"
    for language, name in HOSTS.items():
        html = page(reader(language), table.get_absolute_url())
        assert name.replace("'", "&#x27;") in html, language


def test_the_forms_name_edited_is_the_hosts_text(make_user):
    ana = make_user("ana")
    client = reader("es", ana)
    client.post(
        reverse("games:create_table"),
        form_data(name="Mesa de ana y bo"),
    )
    table = Table.objects.get(host=ana)
    assert table.auto_name == Table.AutoName.NONE and table.name == "Mesa de ana y bo"
    assert "Mesa de ana y bo" in page(reader("en"), table.get_absolute_url())


def test_a_copy_keeps_the_kind_and_names_its_own_host(computer_match, make_user):
    """A rematch or "play again" of an automatic name names the copy's host, in the reader's
    language; a typed name is copied as typed."""
    source = computer_match.table
    bo = make_user("bo")
    copy = tables.copy_table(source, bo, {0: (bo.pk, "")})
    assert copy.auto_name == Table.AutoName.COMPUTER
    with translation.override("en"):
        assert Table.objects.select_related("host").get(pk=copy.pk).display_name == (
            "bo vs the computer"
        )
    typed = tables.create_table(bo, name="Friday", players=2, options={})
    assert tables.copy_table(typed, bo, {}).display_name == "Friday"


def test_the_lobby_costs_the_same_statements_with_automatic_names(make_user, settings):
    """The lobby's rows name each table's host from the join they already make: automatic
    names add no statement per row, to the push or to the page."""
    settings.GAMES_MAX_HOSTED_TABLES = 0
    settings.GAMES_LOBBY_CACHE_SECONDS = 0
    ana = make_user("ana")
    client = reader("es", ana)

    def add(count: int) -> None:
        for n in range(count):
            with translation.override("es"):
                quick.play_the_computer(ana, "random", seed=n)
            # older than a double click: the next one opens another table (quick.SAME_CLICK)
            Table.objects.filter(host=ana).update(created_at=timezone.now() - quick.SAME_CLICK)
            tables.create_table(
                ana, name="ana's table", players=2, options={}, auto_name=Table.AutoName.TABLE
            )

    def statements() -> list[int]:
        counts = []
        for call in (
            lambda: lobby.public_frames(["en", "es"]),
            lambda: lobby.mine_frames({ana.pk: ["en", "vi"]}),
            lambda: client.get(reverse("games:lobby")),
        ):
            with CaptureQueriesContext(connection) as queries:
                call()
            counts.append(len(queries))
        return counts

    add(1)
    few = statements()
    add(9)
    assert statements() == few
    with translation.override("en"):
        html = lobby_cache.public_html()
    assert html.count("ana vs the computer") >= 10


def test_existing_rows_with_an_automatic_name_are_recognised(make_user):
    """The data migration marks old rows whose name is exactly an automatic name of their
    host's, in any of the four languages; anything else stays the host's text."""
    ana = make_user("ana")
    made = {
        name: Table.objects.create(name=name, host=ana, players=4)
        for name in [*COMPUTER.values(), *HOSTS.values(), "ana's table!", "bo's table"]
    }
    migration = importlib.import_module("games.migrations.0013_table_auto_name")
    migration.recognise_automatic_names(apps, None)
    kinds = {name: Table.objects.get(pk=t.pk).auto_name for name, t in made.items()}
    assert kinds == {
        **dict.fromkeys(COMPUTER.values(), Table.AutoName.COMPUTER),
        **dict.fromkeys(HOSTS.values(), Table.AutoName.TABLE),
        "ana's table!": "",
        "bo's table": "",
    }
