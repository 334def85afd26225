"""The Jinja partials write what Django's tags write (``games.live.jinja``): escaping, the two
kinds of translation, names read from a context, and the strict regions check.

Each case renders the same text through both engines and compares the bytes; the partials
themselves are compared with fresh renders in four languages by test_frames.py.
"""

from __future__ import annotations

import pytest
from django.template import engines
from django.test import override_settings
from django.test.utils import override_script_prefix
from django.utils import translation

from games.live import regions

NAME = "o'b&\"<x>"


def django(source: str, **values) -> str:
    return engines["django"].from_string("{% load i18n teams %}" + source).render(values)


def jinja(source: str, **values) -> str:
    return engines["jinja2"].from_string(source).render(values)


#: (Django's source, Jinja's source); None: the same source in both.
CASES = [
    ("{{ name }}", None),
    ('<b title="{{ name }}">{{ n }}{{ none }}{{ flag }}</b>', None),
    ('{% translate "Pass" %}', '{{ _("Pass") }}'),
    ("{% translate 'Claim window' %}", "{{ _('Claim window') }}"),
    (
        "{% blocktranslate with name=name %}Top play: {{ name }}{% endblocktranslate %}",
        "{% trans name=name %}Top play: {{ name }}{% endtrans %}",
    ),
    (
        "{% blocktranslate with names=names|join:', ' %}"
        "Waiting on: {{ names }}{% endblocktranslate %}",
        "{% trans names=names|join(', ') %}Waiting on: {{ names }}{% endtrans %}",
    ),
    (
        "{% blocktranslate count n=n %}{{ n }} card{% plural %}{{ n }} cards"
        "{% endblocktranslate %}",
        "{% trans n=n %}{{ n }} card{% pluralize %}{{ n }} cards{% endtrans %}",
    ),
    (
        "{% blocktranslate count n=one %}{{ n }} card{% plural %}{{ n }} cards"
        "{% endblocktranslate %}",
        "{% trans n=one %}{{ n }} card{% pluralize %}{{ n }} cards{% endtrans %}",
    ),
    ("{{ 0|team_name }} {{ 1|team_name }}", None),
    (
        "{% spaceless %} <p> <b>x</b>\n </p> {% endspaceless %}",
        "{% filter spaceless %} <p> <b>x</b>\n </p> {% endfilter %}",
    ),
    ("{{ missing }}{{ missing.deeper.still }}{% if missing.x %}no{% endif %}", None),
    ("{{ row.items }} {{ row.name }}", None),
    # A call inside a loop is handed the loop's names (jinja._Context.call drops them).
    (
        "{% for n in names %}{% translate 'Pass' %}{% blocktranslate %}Top play: {{ n }}"
        "{% endblocktranslate %}{% endfor %}",
        "{% for n in names %}{{ _('Pass') }}{% trans %}Top play: {{ n }}{% endtrans %}{% endfor %}",
    ),
]


@pytest.mark.parametrize("language", ["en", "es", "vi"])
@pytest.mark.parametrize(("django_source", "jinja_source"), CASES)
def test_jinja_writes_what_django_writes(language, django_source, jinja_source):
    values = {
        "name": NAME,
        "names": [NAME, "ana"],
        "n": 3,
        "one": 1,
        "none": None,
        "flag": False,
        "row": {"items": 2, "name": NAME},  # a key is read before a dict's method
    }
    with translation.override(language):
        assert jinja(jinja_source or django_source, **values) == django(django_source, **values)


def test_a_team_name_is_in_the_language_of_the_render_not_of_the_compile():
    """``0|team_name`` on a constant must not be worked out when the template is compiled."""
    template = engines["jinja2"].from_string("{{ 0|team_name }}")
    with translation.override("en"):
        assert template.render({}) == "Team 1"
    with translation.override("es"):
        assert template.render({}) == "Equipo 1"


def test_a_link_is_reverse_s_for_the_script_prefix_and_urlconf_of_the_render():
    """``url()`` keeps its links (``jinja._urls``), each for the script prefix and URL resolver
    that made it: another prefix or URLconf gets its own link, never a kept one."""
    template = engines["jinja2"].from_string("{{ url('games:take_seat', 7) }}")
    assert template.render({}) == "/tables/7/take/"
    assert template.render({}) == "/tables/7/take/"  # kept
    with override_script_prefix("/club/"):
        assert template.render({}) == "/club/tables/7/take/"
    with override_settings(ROOT_URLCONF="tests.games.live.other_urls"):
        assert template.render({}) == "/elsewhere/7/"
    assert template.render({}) == "/tables/7/take/"


def test_a_region_reading_an_undeclared_field_fails_loudly():
    """Under GAMES_STRICT_REGIONS (on in the tests) a Jinja region, like a Django one, refuses a
    table-context field it was not given; other missing names stay empty."""
    assert regions.render_jinja("games/partials/claim_bar.jinja", {"window": None}, "") != ""
    with pytest.raises(regions.UndeclaredInput, match="the claim_bar region reads 'my_window'"):
        regions.render("games/partials/claim_bar.jinja", {"window": {"mode": "hook"}}, "claim_bar")
    html = regions.render(
        "games/partials/claim_bar.jinja",
        {name: None for name in regions.CLAIM_BAR.names()},
        "claim_bar",
    )
    assert 'id="claim-bar"' in html and " hidden" in html
    with override_settings(GAMES_STRICT_REGIONS=False):
        html = regions.render("games/partials/claim_bar.jinja", {"window": {"mode": "hook"}})
    assert 'class="region claim-bar open watching"' in html


def test_a_seat_inside_the_seats_region_is_as_strict_as_the_region():
    """seats.html includes seat.jinja through ``{% jinja %}``: within a region's render it
    refuses what that region does not declare."""
    inputs = {name: None for name in regions.SEATS.names()}
    inputs["seats"] = [{"number": 0, "team": 0, "pos": 0, "name": "ana", "cards": 3}]
    inputs["match"] = True
    assert 'id="seat-0"' in regions.render(regions.SEATS.template, inputs, "seats")
    inputs.pop("window_open")
    with pytest.raises(regions.UndeclaredInput, match="the seats region reads 'window_open'"):
        regions.render(regions.SEATS.template, inputs, "seats")
