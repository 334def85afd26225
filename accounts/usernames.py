"""Usernames that look like another one: refused wherever a name is chosen or changed.

"аlice" (a Cyrillic а) and "bоb" (a Cyrillic о) were accepted and looked exactly like alice and
bob on every page. A name is now refused (``check``, called by ``User.clean``: the sign-up
form, the admin's add and change forms, any model form that sets a username) when, after NFKC
normalisation (as Django stores usernames):

- it mixes scripts (``mixed_script``): letters from more than one script, apart from the
  combinations Unicode's "highly restrictive" profile (UTS #39 §5.2) allows — Latin with Han,
  Hiragana and Katakana (Japanese), with Han and Bopomofo (Chinese), with Han and Hangul
  (Korean). Digits and ``_ . @ + -`` belong to no script and go with any;
- it looks like a name someone already has (``lookalike_key``): both reduce to the same
  UTS #39 skeleton — each character replaced by its prototype in Unicode's confusables table
  ("а" → "a", "0" → "O", "rn" ← "m") — case aside, as Django already refuses "Alice" when
  "alice" exists. So an all-Cyrillic "сосо" is refused when "coco" exists.

The tables are confusable-homoglyphs' (pinned in pyproject.toml): its confusables list (from
Unicode's confusables.txt) links each character with its prototype, both ways; the prototype
of a group is the one every other is linked to. Each user's key is stored (``User.username_key``,
indexed) so the check is one query; upgrading the package's tables means recomputing the keys
(``refresh_keys``, from a data migration). The key is UNIQUE in the database, so two
sign-ups at once of names that look alike make one account (the other is the form's error,
``race_refusal``). Names that collided before the rule keep working: the later one's key is
``<key>#<id>`` (``refresh_keys``), and an account is never locked out of saving its preferences
by the check.

A name may also not pass for a seat at the table (``reserved``): the AI seats' and the seats'
labels in the site's four languages ("AI", "IA", "Máy"; "Seat", "Asiento", "Kursi", "Ghế"),
with or without digits and separators around them ("AI 2", "Seat3"), compared through the same
key, so "Al" (a lower-case L) is "AI"; nor be without a single letter ("1234", "__").
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from functools import cache
from typing import TYPE_CHECKING

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    # django-stubs' name for settings.AUTH_USER_MODEL (accounts.models.User, which imports this
    # module: importing it here, even for a type, is an import circle).
    from django.contrib.auth.models import _User as User
    from django.db.models import QuerySet

#: Scripts that go with any other: digits, punctuation, combining marks.
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: Sets of scripts one name may mix (UTS #39 §5.2, "highly restrictive").
MIXABLE_SCRIPTS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
# Direction marks around right-to-left characters in the package's table are display only.
_MARKS = str.maketrans("", "", "\u200e\u200f")

MIXED_SCRIPT_MESSAGE = _(
    "This username mixes letters of different alphabets (for example Latin and Cyrillic), "
    "so it could pass for another name. Please use one alphabet."
)
LOOKALIKE_MESSAGE = _(
    "This username looks the same as an existing player's name. Please choose another."
)
RESERVED_MESSAGE = _(
    "This username could pass for an AI player or a seat at the table. Please choose another."
)
NO_LETTER_MESSAGE = _("A username needs at least one letter.")
#: The longest name a person may choose. Django's field holds 150; a name that long ran across
#: every page that listed it (the lobby's live matches, for every visitor). Names chosen
#: before the rule keep working.
MAX_LENGTH = 30
TOO_LONG_MESSAGE = _("A username may have at most %(limit)d characters.")

#: What the table calls a seat in English, Spanish, Indonesian and Vietnamese: an AI seat's
#: label ("AI 3", "IA 3", "Máy 3") and a seat's.
SEAT_WORDS = ("AI", "IA", "Máy", "Seat", "Asiento", "Kursi", "Ghế")
# What may surround a seat word in a name that still reads as that seat: digits, separators.
_SEAT_NOISE = re.compile(r"[\d\s_.@+\-]+")


def normalise(name: str) -> str:
    """NFKC, as Django normalises a username before it is stored (``ｂｏｂ`` → ``bob``)."""
    return unicodedata.normalize("NFKC", name)


def scripts(name: str) -> frozenset[str]:
    """The scripts of ``name``'s characters, without the neutral ones: ``{"LATIN"}``."""
    return frozenset(categories.unique_aliases(normalise(name))) - NEUTRAL_SCRIPTS


def mixed_script(name: str) -> bool:
    """Whether ``name`` mixes scripts beyond what ``MIXABLE_SCRIPTS`` allows."""
    found = scripts(name)
    return len(found) > 1 and not any(found <= allowed for allowed in MIXABLE_SCRIPTS)


@cache
def _prototypes() -> dict[str, str]:
    """Each single character of the confusables table → its group's prototype (one or more
    characters). The table is a star per group: the prototype is linked with every member.
    A pair's prototype cannot be told from its member; either serves, as long as both map
    to the same one."""
    links: dict[str, set[str]] = defaultdict(set)
    for char, homoglyphs in confusables.confusables_data.items():
        for glyph in homoglyphs:
            a, b = char.translate(_MARKS), glyph["c"].translate(_MARKS)
            if a and b and a != b:
                links[a].add(b)
                links[b].add(a)
    prototype: dict[str, str] = {}
    for node in links:
        if node in prototype:
            continue
        group = {node} | links[node]
        for member in list(group):
            group |= links[member]
        centres = [m for m in group if len(m) > 1] or [
            m for m in group if len(links[m]) == len(group) - 1
        ]
        centre = min(centres, key=lambda m: (len(links[m]) != len(group) - 1, m))
        for member in group:
            prototype[member] = centre
    return {char: proto for char, proto in prototype.items() if len(char) == 1}


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again (until
    nothing changes): two strings that look alike have the same skeleton."""
    table = _prototypes()
    current = unicodedata.normalize("NFD", text)
    for _round in range(4):
        mapped = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in current))
        if mapped == current:
            break
        current = mapped
    return current


#: The separators a name may hold that pass for one another at a glance ("qa_bob", "qa.bob",
#: "qa-bob"): one in the key.
_SEPARATORS = str.maketrans({".": "_", "-": "_"})


def lookalike_key(name: str) -> str:
    """What two names share when they look alike, case aside: the skeleton of the casefolded
    skeleton of the NFKC name, with "i" read as "l" and its separators "_", "." and "-" as one.
    ``lookalike_key("аlice") == lookalike_key("Alice") == lookalike_key("ALICE") == "allce"``,
    ``lookalike_key("qa.bob") == lookalike_key("qa_bob")``.

    Why "i" joins "l": the skeleton reads a capital I as "l" (they are one glyph in sans-serif
    fonts), so "ALICE" reduced to "allce" while "alice" kept its "i", and the two, one name
    in another case, had different keys: the database let both exist. Joining the classes
    makes every spelling of one name one key; the price is that names differing only in an
    "i" for an "l" ("Kali", "Kall") are look-alikes too. The separators join for the same
    reason a tester gave: beside "qa_bob", a "qa.bob" or "qa-bob" in the chat or at the table
    passes for the same player."""
    return skeleton(skeleton(normalise(name)).casefold()).replace("i", "l").translate(_SEPARATORS)


@cache
def _seat_keys() -> frozenset[str]:
    """The keys of ``SEAT_WORDS`` as written in any case ("AI", "Ai", "ai")."""
    return frozenset(
        lookalike_key(form)
        for word in SEAT_WORDS
        for form in (word, word.lower(), word.upper(), word.capitalize())
    )


def has_letter(name: str) -> bool:
    """Whether ``name`` (NFKC) holds a letter of any script."""
    return any(unicodedata.category(char).startswith("L") for char in normalise(name))


def reserved(name: str) -> bool:
    """Whether ``name`` could pass for a seat at the table: a seat word of ``SEAT_WORDS`` (or a
    look-alike of one) with or without digits and separators: "AI 2", "Seat3", "Al", "ia_1".
    Either the whole name without its digits, or its key with the digits a key keeps (those
    that look like no letter), is a seat word's key."""
    keys = _seat_keys()
    stripped = _SEAT_NOISE.sub("", normalise(name))
    return bool(stripped) and (
        lookalike_key(stripped) in keys
        or _SEAT_NOISE.sub("", lookalike_key(normalise(name))) in keys
    )


def check_length(name: str) -> None:
    """Raise ValidationError (code ``too_long``, "at most 30 characters") when ``name``,
    NFKC-normalised, is longer than ``MAX_LENGTH`` characters. The sign-up form's validator
    too, in place of Django's 150 (a 300-character name read "at most 150", the help 30)."""
    if len(normalise(name)) > MAX_LENGTH:
        raise ValidationError(TOO_LONG_MESSAGE, code="too_long", params={"limit": MAX_LENGTH})


def check(name: str, others: QuerySet[User]) -> None:
    """Raise ValidationError (code ``too_long``, ``mixed_script``, ``no_letter``, ``reserved``
    or ``lookalike``) when ``name`` may not be chosen: it is longer than ``MAX_LENGTH``
    characters, it mixes scripts, has no letter, could pass
    for a seat at the table, or ``others`` (a User queryset: everyone else) holds a name that
    looks the same. The very same name is not a look-alike: it is taken, which the username's
    uniqueness says ("already exists"), whichever check a race reaches first."""
    check_length(name)
    if mixed_script(name):
        raise ValidationError(MIXED_SCRIPT_MESSAGE, code="mixed_script")
    if not has_letter(name):
        raise ValidationError(NO_LETTER_MESSAGE, code="no_letter")
    if reserved(name):
        raise ValidationError(RESERVED_MESSAGE, code="reserved")
    if others.filter(username_key=lookalike_key(name)).exclude(username=name).exists():
        raise ValidationError(LOOKALIKE_MESSAGE, code="lookalike")


def refresh_keys(user_model: type[User]) -> int:
    """Recompute every user's ``username_key`` (after the confusables tables changed, or in
    the migrations that add the field and make it unique) so that no two are equal: oldest
    account first, a later one whose key is taken gets ``<key>#<id>`` (no name holds "#", so
    no name's key is ever one of those). Returns how many changed.

    The key is unique in the database, and PostgreSQL checks each row as it is written: the
    changed rows first take ``#<id>`` (free: see above), then their new keys, so no step meets
    a key another row is about to give up."""
    wanted: dict[int, str] = {}
    stored: dict[int, str] = {}
    holders: set[str] = set()
    for pk, username, key in (
        user_model.objects.order_by("pk").values_list("pk", "username", "username_key").iterator()
    ):
        fresh = lookalike_key(username)
        fresh = fresh if fresh not in holders else f"{fresh}#{pk}"
        holders.add(fresh)
        stored[pk], wanted[pk] = key, fresh
    changed = [pk for pk in wanted if stored[pk] != wanted[pk]]
    for keys in ({pk: f"#{pk}" for pk in changed}, {pk: wanted[pk] for pk in changed}):
        users = [user_model(pk=pk, username_key=key) for pk, key in keys.items()]
        user_model.objects.bulk_update(users, ["username_key"], batch_size=500)
    return len(changed)


def race_refusal(name: str, others: QuerySet[User]) -> ValidationError:
    """What a sign-up or rename says when the database refused ``name`` (its key's
    uniqueness) because another account with a look-alike was saved a moment before, after the
    form's checks had passed: "already exists" when it is the same name case aside (Django's
    sentence for a taken name), else the look-alike refusal. ``others``: a User queryset."""
    if others.filter(username__iexact=name).exists():
        taken = others.model._meta.get_field("username").error_messages["unique"]
        return ValidationError(taken, code="unique")  # Django's, in Django's catalogues
    return ValidationError(LOOKALIKE_MESSAGE, code="lookalike")
