"""Each table region renders from the context fields it declares (``games.live.regions``), and
those are its delta key: a template cannot read an input a delta would not notice changing.

Two checks: every field name a region's templates (and the partials they include) use is
declared — read from the template text, so every branch counts, taken or not — and, at run time
(``GAMES_STRICT_REGIONS``, on in the tests), reading an undeclared field fails loudly.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template import Template
from django.test import override_settings
from django.utils import translation

from games.engine.options import Options
from games.live import regions
from games.live.cards import hand_groups
from games.live.context import FIELDS

TEMPLATES = Path(settings.BASE_DIR) / "templates"
TAG = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.S)
QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
NAME = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)")
INCLUDE = re.compile(r"\{%\s*include\s+\"([^\"]+)\"")
COMMENT = re.compile(r"\{#.*?#\}", re.S)


def source(name: str) -> str:
    path, _, partial = name.partition("#")
    text = (TEMPLATES / path).read_text()
    if partial:
        found = re.search(
            r"\{%\s*partialdef " + re.escape(partial) + r"\s*%\}(.*?)\{%\s*endpartialdef",
            text,
            re.S,
        )
        assert found, name
        text = found.group(1)
    return COMMENT.sub("", text)


def fields_read(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """The table-context fields a template (and what it includes) names, at the start of a
    variable: ``rematch.state`` names ``rematch``; words in quotes are not names."""
    text = source(name)
    names = set()
    for output, tag in TAG.findall(text):
        names |= set(NAME.findall(QUOTED.sub("", output or tag)))
    for included in INCLUDE.findall(text):
        if included not in seen:
            names |= fields_read(included, seen | {name})
    return names & set(FIELDS)


@pytest.mark.parametrize("region", list(regions.BY_NAME.values()), ids=lambda r: r.name)
def test_a_region_declares_every_field_its_templates_name(region):
    assert fields_read(region.template) <= set(region.names()), region.name


def test_reading_an_undeclared_field_fails_loudly():
    declared = regions._Declared({"trick": [], "oob": True}, "trick")
    assert Template("{{ trick|length }}{{ team_players }}").render(declared) == "0"
    for text in ("{{ hand }}", "{% if hand %}x{% endif %}", "{% for c in hand %}{% endfor %}"):
        with pytest.raises(regions.UndeclaredInput, match="the trick region reads 'hand'"):
            Template(text).render(regions._Declared({"trick": []}, "trick"))


@pytest.mark.parametrize(
    ("template", "region_id"),
    [("games/partials/spectators.html", "spectators"), ("games/partials/tracker.jinja", "tracker")],
)
def test_without_strictness_an_undeclared_field_is_empty(template, region_id):
    with override_settings(GAMES_STRICT_REGIONS=False):
        html = regions.render(template, {"hand": ["9H"]})
    assert f'id="{region_id}"' in html and "9H" not in html and " hidden" in html


@pytest.mark.parametrize("strict", [True, False])
def test_a_pushed_form_renders_without_a_token_and_without_a_warning(strict, recwarn):
    """A region rendered for a push has no request: its forms carry no token input (htmx sends
    the page's in a header) and Django's DEBUG warning about a missing token stays silent."""
    inputs = {
        "table": SimpleNamespace(pk=7),
        "rematch": {"state": "offer", "can_ask": True, "seconds": 20},
        "rematch_countdown": None,
        "oob": True,
    }
    with override_settings(DEBUG=True, GAMES_STRICT_REGIONS=strict):
        html = regions.render("games/partials/rematch.html", inputs, "rematch")
    assert 'id="rematch-button"' in html and "csrfmiddlewaretoken" not in html
    assert not [w for w in recwarn if "csrf_token" in str(w.message)]
    # A page's render has the request's token: its forms post without JavaScript too.
    with override_settings(GAMES_STRICT_REGIONS=strict):
        page = regions.render("games/partials/rematch.html", {**inputs, "csrf_token": "t0k"})
    assert '<input type="hidden" name="csrfmiddlewaretoken" value="t0k">' in page


def test_a_declaration_names_only_fields_of_the_context():
    with pytest.raises(ValueError, match="no field named"):
        regions.Region("x", "games/partials/trick.jinja", reads=("trick", "cards"))


def test_a_hands_groups_write_the_text_of_a_plain_list():
    """The hand key is compared as its ``repr``: the groups kept by ``hand_groups`` write once
    what the plain list would (``cards.HandGroups``)."""
    groups = hand_groups(("9H", "9H", "3C", "RJ", "10S"), 9, Options(players=4))
    assert repr(groups) == list.__repr__(groups) == repr(list(groups))
    assert repr((1, groups)) == repr((1, list(groups)))


def test_a_jinja_partial_is_kept_only_while_its_environment_does_not_reload(monkeypatch) -> None:
    """``regions._jinja_template`` keeps a compiled partial beside the environment that loaded
    it, and only when that environment does not reload changed templates (production)."""
    env = regions._jinja()
    name = "games/partials/trick.jinja"
    monkeypatch.setattr(regions, "_jinja_templates", {})
    # environments of their own (no Jinja cache: each get_template loads anew)
    steady = env.overlay(auto_reload=False, cache_size=0)
    monkeypatch.setattr(regions, "_jinja", lambda: steady)
    first = regions._jinja_template(name)
    assert first.environment is steady
    assert regions._jinja_template(name) is first
    other = env.overlay(auto_reload=False, cache_size=0)  # a settings change: another one
    monkeypatch.setattr(regions, "_jinja", lambda: other)
    assert regions._jinja_template(name).environment is other
    reloading = env.overlay(auto_reload=True, cache_size=0)
    monkeypatch.setattr(regions, "_jinja", lambda: reloading)
    regions._jinja_templates.clear()
    assert regions._jinja_template(name) is not regions._jinja_template(name)
    assert regions._jinja_templates == {}


@pytest.mark.parametrize(
    ("hints", "can_pass", "told"),
    [
        ("[]", True, True),  # following, and nothing in the hand beats the table
        ('[["9H"]]', True, False),  # a play beats it: Hint shows it
        ("[]", False, False),  # not this seat's turn: no buttons to explain
    ],
)
def test_the_seat_is_told_why_play_and_hint_are_greyed(hints, can_pass, told):
    """Play and Hint greyed with nothing to say why read as broken (a new player's walk): when
    the seat follows and nothing it holds beats the table, a note says so, and the Hint button
    points to it for a screen reader."""
    inputs = {"hand_size": 5, "play_phase": True, "hints": hints, "can_pass": can_pass}
    with translation.override("es"):
        html = regions.render("games/partials/hand_actions.jinja", inputs, "hand_actions")
    note = "Nada de tu mano gana a las cartas de la mesa: pasa."
    assert (note in html) is told
    assert ('aria-describedby="nothing-beats"' in html) is told
    assert ('id="nothing-beats"' in html) is told
