"""The four catalogues are complete, the compiled ones match them, and pages rendered in
Spanish, Indonesian and Vietnamese show no interface string in English.

Two checks on each translated page:
- no msgid of two words or more from the English catalogue appears in its text (placeholders
  split a msgid into fragments; a fragment that the translation itself contains is allowed);
- no text of two words or more from the same page rendered in English appears in it (this also
  catches Django's own strings, which our catalogue does not hold), except user data.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Seat
from games.play import services, tables
from tests.built_once import world_fixtures
from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdif]|%[sd]|\{\{[^}]*\}\}")
WORD = re.compile(r"[^\W\d_]{2,}")  # a word has two letters or more ("Q Q" is cards)
# Names kept as they are in every language: the site's, and each language's own name in the
# language switcher.
ALWAYS_ALLOWED = {"414 Club", "English", "Español", "Bahasa Indonesia", "Tiếng Việt"}


@functools.cache  # read, never changed, by a dozen tests: parsed once per process
def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def translations(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


# --- the catalogues ----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_complete_with_no_fuzzy_entry(language: str) -> None:
    po = catalogue(language)
    assert not po.metadata_is_fuzzy, f"{language}: the header is marked fuzzy"
    assert po.metadata.get("Language") == language
    fuzzy = [e.msgid for e in po if "fuzzy" in e.flags and not e.obsolete]
    untranslated = [
        e.msgid
        for e in po
        if not e.obsolete and (not all(t.strip() for t in translations(e)) or not translations(e))
    ]
    assert not fuzzy, f"{language}: fuzzy entries {fuzzy[:10]}"
    assert not untranslated, f"{language}: untranslated entries {untranslated[:10]}"
    if "nplurals" in po.metadata.get("Plural-Forms", ""):
        n = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
        short = [e.msgid for e in po if e.msgid_plural and len(e.msgstr_plural) != n]
        assert not short, f"{language}: plural entries without {n} forms: {short[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogues_hold_the_same_strings_with_the_same_placeholders(language: str) -> None:
    english = {(e.msgctxt, e.msgid) for e in catalogue("en") if not e.obsolete}
    po = catalogue(language)
    assert {(e.msgctxt, e.msgid) for e in po if not e.obsolete} == english
    wrong = []
    for entry in po:
        wanted = sorted(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        wanted_set = set(wanted)
        for text in translations(entry):
            found = PLACEHOLDER.findall(text)
            # A plural form may leave the count out ("one card"), nothing else.
            if set(found) - wanted_set or (not entry.msgid_plural and sorted(found) != wanted):
                wrong.append((entry.msgid, text))
    assert not wrong, f"{language}: placeholders differ: {wrong[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_review_marks_are_translated(language: str) -> None:
    """The marks of a round review (one word each, so the page check above, which looks at
    two words or more, misses them) read in the language: Indonesian showed "blunder"."""
    from django.utils import translation

    from games.records.review_page import FORCED_LABEL, MARK_LABELS

    with translation.override(language):
        shown = {key: str(label) for key, label in MARK_LABELS.items()}
        shown["forced"] = str(FORCED_LABEL)
    assert not {key for key, text in shown.items() if text == key}, (language, shown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_the_po_file(language: str) -> None:
    """The committed .mo is compiled from the current .po (`make messages` rebuilds both)."""
    po = catalogue(language)
    mo_path = ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run `make messages`"
    mo = {(e.msgctxt, e.msgid): translations(e) for e in polib.mofile(str(mo_path))}
    stale = [
        e.msgid
        for e in po
        if not e.obsolete and e.msgid and mo.get((e.msgctxt, e.msgid)) != translations(e)
    ]
    assert not stale, f"{language}: django.mo is older than django.po for {stale[:5]}"


# --- pages in every language -------------------------------------------------------------------


class _Text(HTMLParser):
    """The text a person meets on a page: text nodes outside scripts and styles, and the
    attributes that are shown or spoken (title, aria-label, placeholder, alt, button values)."""

    SPOKEN = ("title", "aria-label", "placeholder", "alt", "data-offline", "data-copied")

    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in self.SPOKEN or (name == "value" and tag == "button")):
                self.chunks.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.chunks.append(data)


def page_chunks(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [
        unicodedata.normalize("NFC", " ".join(chunk.split()))
        for chunk in parser.chunks
        if chunk.strip()
    ]


def words(text: str) -> int:
    return len(WORD.findall(text))


@functools.cache  # read, never changed, by each language's page test
def english_fragments() -> dict[str, set[str]]:
    """Each English msgid's fragments of two words or more, with the languages whose
    translation contains the fragment itself (so it may appear there)."""
    fragments: dict[str, set[str]] = {}
    others = {language: catalogue(language) for language in TRANSLATED}
    index = {
        language: {(e.msgctxt, e.msgid): " ".join(translations(e)) for e in po}
        for language, po in others.items()
    }
    for entry in catalogue("en"):
        for source in filter(None, (entry.msgid, entry.msgid_plural)):
            for piece in PLACEHOLDER.split(source):
                piece = " ".join(piece.split()).strip(" .,:;!?·—–-()“”\"'")
                if words(piece) < 2:
                    continue
                allowed = fragments.setdefault(piece, set())
                for language in TRANSLATED:
                    if piece in index[language].get((entry.msgctxt, entry.msgid), ""):
                        allowed.add(language)
    return fragments


def _build_world() -> dict:
    """A host seated at a started 4-seat table (3 AI seats), a spectator, an open table."""
    host = User.objects.create_user("ana", password=PASSWORD)
    User.objects.create_user("budi", password=PASSWORD)
    table = tables.create_table(host, name="414 ★", players=4, options={})
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    tables.start(table.pk, host, seed=7)
    open_table = tables.create_table(host, name="★ 2", players=4, options={})
    # A finished match (ana resigns): its result explained, the rematch offered, play again.
    finished = tables.create_table(host, name="★ 3", players=4, options={})
    tables.fill_with_ai(finished.pk, host, Seat.Policy.HEURISTIC)
    match = tables.start(finished.pk, host, seed=8)
    services.submit(match.pk, host, {"action": "resign", "version": match.version})
    return {"table": table, "open_table": open_table, "finished": finished, "english": {}}


# The world's ``english``: each key page's text as rendered in English in this world, kept for
# the module's three languages (the same rows give the same English page; rendered for each
# language, it was a third of their pages).
_world, world = world_fixtures(_build_world)


def key_pages(world) -> list[tuple[str, str | None]]:
    """(url, who is logged in) for every page the issue names."""
    table = reverse("games:table", args=[world["table"].pk])
    return [
        (reverse("games:lobby"), "ana"),
        (reverse("games:lobby"), None),
        (table, "ana"),  # a seat
        (table, "budi"),  # a spectator
        (reverse("games:table", args=[world["open_table"].pk]), "ana"),
        (reverse("signup"), None),
        (reverse("login"), None),
        (reverse("rules"), None),
        (reverse("profile", args=["ana"]), "ana"),
        (reverse("preferences"), "ana"),
        (reverse("games:create_table"), "ana"),
        (reverse("leagues:list"), "ana"),
        (reverse("password_reset"), None),
        (reverse("games:match_record", args=[world["table"].match.pk]), "ana"),
        (reverse("games:player_matches", args=["ana"]), "ana"),
        (reverse("games:table", args=[world["finished"].pk]), "ana"),
        (reverse("games:match_replay", args=[world["finished"].match.pk]), "ana"),
        (reverse("leaderboard:index"), "ana"),
    ]


def render(url: str, username: str | None, language: str) -> str:
    client = Client(headers={"accept-language": language})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if username:
        client.force_login(User.objects.get(username=username))
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    assert f'<html lang="{language}">' in html, (url, language)
    return html


def same_in(language: str) -> re.Pattern:
    """Texts the catalogue translates as they are in English ("AI %(number)s" in Indonesian):
    a page may show them; as a pattern with the placeholders filled by anything."""
    parts = [
        ".+?".join(re.escape(piece) for piece in PLACEHOLDER.split(entry.msgid))
        for entry in catalogue(language)
        if entry.msgstr == entry.msgid and PLACEHOLDER.search(entry.msgid)
    ]
    return re.compile("|".join(parts) or "(?!)")


@pytest.mark.slow
@pytest.mark.parametrize("language", TRANSLATED)
def test_key_pages_show_no_english_interface_string(
    world, language: str, uncaptured_templates: None
) -> None:
    fragments = english_fragments()
    legitimate = same_in(language)
    user_data = {"ana", "budi", "414 ★", "★ 2", "★ 3"}
    problems = []
    for url, username in key_pages(world):
        english = world["english"].get((url, username))
        if english is None:
            english = world["english"][url, username] = set(
                page_chunks(render(url, username, "en"))
            )
        chunks = page_chunks(render(url, username, language))
        text = " \n ".join(chunks)
        for fragment, allowed in fragments.items():
            if language in allowed or fragment in ALWAYS_ALLOWED:
                continue
            # The pattern matches only where the fragment is: look for that first. (Its
            # thousands of patterns, more than the re module's cache holds, were compiled
            # again for every page.)
            if fragment in text and re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", text):
                problems.append((url, username, "msgid", fragment))
        for chunk in chunks:
            if (
                chunk in english
                and words(legitimate.sub("", chunk)) >= 2
                and chunk not in user_data
                and not any(allowed in chunk for allowed in ALWAYS_ALLOWED)
            ):
                problems.append((url, username, "same as English", chunk))
    assert not problems, f"{language}: English left on the page: {problems[:40]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_page_is_written_in_each_language(client, language: str) -> None:
    html = render(reverse("rules"), None, language)
    titles = {
        "en": "How to play 414",
        "es": "Cómo se juega al 414",
        "id": "Cara bermain 414",
        "vi": "Cách chơi 414",
    }
    assert titles[language] in html
    for section in (
        "setup",
        "power",
        "combinations",
        "bombs",
        "turns",
        "hooks",
        "levels",
        "tribute",
        "options",
    ):
        assert f'id="{section}"' in html
    # The seed texts' words for the game's own terms.
    terms = {
        "es": ["enganchar", "desenganchar", "bomba", "tributo", "nivel"],
        "id": ["mengait", "melepas kait", "bom", "penghormatan", "level"],
        "vi": ["móc", "gỡ móc", "bom", "cống nạp", "cấp"],
        "en": ["hook", "unhook", "bomb", "tribute", "level"],
    }
    lowered = html.lower()
    assert all(term in lowered for term in terms[language])


def test_nav_links_to_the_rules(client, db) -> None:
    assert f'href="{reverse("rules")}"' in client.get("/").content.decode()


def test_the_jinja_partials_strings_are_in_the_catalogues() -> None:
    """`make messages` extracts the Jinja partials' strings too (Babel's Jinja extractor, in
    games/management/commands/makemessages.py): none is missing from the catalogues."""
    from games.management.commands.makemessages import jinja_messages

    found = jinja_messages(ROOT)
    assert len(found) > 30
    english = {(e.msgctxt, e.msgid, e.msgid_plural or None) for e in catalogue("en")}
    missing = []
    for message in found:
        if not message.id:  # the catalogue's header
            continue
        singular, plural = message.id if isinstance(message.id, tuple) else (message.id, None)
        if (message.context, singular, plural) not in english:
            missing.append(message.id)
    assert not missing, f"run `make messages`: {missing[:5]}"


# The own seat's turn marker speaks to the viewer ("te toca"), another seat's of that seat ("le
# toca"): the same English "to play" serves both, a context tells them apart in the catalogues.
OWN_TURN = {
    "en": ("to play", "to play"),
    "es": ("te toca", "le toca"),
    "id": ("giliran Anda", "giliran"),
    "vi": ("đến lượt bạn", "đến lượt"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_own_seat_reads_its_turn_as_yours(language: str) -> None:
    from django.template import engines
    from django.utils import translation

    seat = engines["jinja2"].get_template("games/partials/seat.jinja")
    markers = []
    for is_me in (True, False):
        s = {"number": 0, "team": 0, "pos": 0, "name": "x", "cards": 3, "is_me": is_me,
             "is_turn": True}  # fmt: skip
        with translation.override(language):
            html = seat.render({"s": s, "match": True})
        found = re.search(r'class="marker turn-marker">▶ ([^<]*)<', html)
        assert found, html
        markers.append(found.group(1))
    assert tuple(markers) == OWN_TURN[language]
