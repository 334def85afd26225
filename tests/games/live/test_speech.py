"""A push's words read off one translation per run of audiences (``games.live.speech``): the
same words as Django's ``gettext``, ``pgettext`` and ``get_language`` in every language, inside
``speaking`` and outside it."""

from __future__ import annotations

import polib
import pytest
from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games.live import speech

LANGUAGES = ["en", "es", "id", "vi"]


def _catalogue() -> list[polib.POEntry]:
    path = settings.BASE_DIR / "locale" / "es" / "LC_MESSAGES" / "django.po"
    return [e for e in polib.pofile(str(path)) if e.msgstr and not e.msgid_plural]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_reads_as_djangos_inside_and_outside(language) -> None:
    entries = _catalogue()
    assert len(entries) > 100
    with speech.speaking(language):
        assert speech.get_language() == translation.get_language() == language
        for entry in entries:
            if entry.msgctxt:
                ours = speech.pgettext(entry.msgctxt, entry.msgid)
                assert ours == translation.pgettext(entry.msgctxt, entry.msgid)
            else:
                assert speech.gettext(entry.msgid) == translation.gettext(entry.msgid)
        assert speech.gettext("") == ""
        assert speech.pgettext("no such context", "Pass") == "Pass"
        assert translation.pgettext("no such context", "Pass") == "Pass"
    with translation.override(language):  # outside speaking: Django's own
        assert speech.get_language() == language
        assert speech.gettext("Pass") == translation.gettext("Pass")


def test_speaking_translates_and_ends_with_its_block() -> None:
    with translation.override("en"):
        with speech.speaking("es"):
            spoken = speech.gettext("Pass")
            assert spoken != "Pass"  # Spanish
            assert speech.get_language() == "es"
            safe = speech.gettext(mark_safe("Pass"))
            assert isinstance(safe, SafeString) and safe == spoken
        assert speech.get_language() == "en"
        assert speech.gettext("Pass") == "Pass"


def test_speaking_nothing_is_djangos_no_translation() -> None:
    with speech.speaking(None):
        assert speech.get_language() == translation.get_language()
        assert speech.gettext("Pass") == translation.gettext("Pass") == "Pass"


def test_a_word_kept_for_a_block_is_that_block_s_language_only() -> None:
    """A block keeps the words it translated (``_Spoken.words``): asked again they read as
    Django's, a block inside it in another language reads its own, and the outer block's are
    still its own after it."""
    entries = [e for e in _catalogue() if not e.msgctxt][:200]
    with speech.speaking("es"):
        for _pass in range(2):  # the second pass reads the kept words
            for entry in entries:
                assert speech.gettext(entry.msgid) == translation.gettext(entry.msgid)
        spanish = speech.gettext("Pass")
        with speech.speaking("vi"):
            vietnamese = speech.gettext("Pass")
            assert vietnamese == translation.gettext("Pass") != spanish
        assert speech.gettext("Pass") == spanish
        safe = speech.gettext(mark_safe("Pass"))  # after the plain word was kept
        assert isinstance(safe, SafeString) and safe == spanish


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_reads_as_djangos_and_again_from_the_block(language) -> None:
    path = settings.BASE_DIR / "locale" / "es" / "LC_MESSAGES" / "django.po"
    plurals = [e for e in polib.pofile(str(path)) if e.msgid_plural and not e.msgctxt]
    assert plurals
    with speech.speaking(language):
        for _pass in range(2):  # the second pass reads the block's kept answers
            for entry in plurals:
                for count in (0, 1, 2, 5, 27):
                    ours = speech.ngettext(entry.msgid, entry.msgid_plural, count)
                    assert ours == translation.ngettext(entry.msgid, entry.msgid_plural, count)
    with translation.override(language):
        entry = plurals[0]
        assert speech.ngettext(entry.msgid, entry.msgid_plural, 2) == translation.ngettext(
            entry.msgid, entry.msgid_plural, 2
        )
