"""Error reporting: the Sentry SDK, switched on only when ``SENTRY_DSN`` is set.

Nothing leaves the server unless an operator configures a DSN. When one is set, events are
sent without personal data (``send_default_pii`` off, no request bodies, no local variables
of the frames) and every event goes through ``scrub`` first, which removes anything that
looks like a hand, cards or a deal seed (DESIGN.md rule 2: no log line, and so no error
report, ever holds a hidden hand).
"""

from __future__ import annotations

import re
from typing import Any

import sentry_sdk
from sentry_sdk.types import Event, Hint

#: Keys whose values are never sent, whatever they hold: a key is dropped when one of its
#: words (lowercased, split at anything not a letter or digit) is one of these, so ``hands``,
#: ``cards_left`` and ``deal-seed`` go, ``handled`` and ``statement`` stay.
SENSITIVE_WORDS = frozenset(
    {"hand", "hands", "card", "cards", "seed", "seeds", "deck", "decks", "state", "states"}
)
FILTERED = "[Filtered]"

# A card in the notation of RULES.md §0 ("9H", "10S", "TS", "QD", "BJ", "RJ") standing alone,
# not inside a longer word or number. Upper case only: the site never prints a card otherwise,
# and lower case would hit ordinary words ("as", "js").
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9TJQKA])[SHDC]|BJ|RJ)(?![A-Za-z0-9])")
# "seed": 123, seed=123, 'seed': '123' — the number goes, the word stays.
SEED_VALUE = re.compile(r"""(seed["']?\s*[:=]\s*["']?)\d+""", re.IGNORECASE)


def _sensitive(key: object) -> bool:
    return not SENSITIVE_WORDS.isdisjoint(re.split(r"[^a-z0-9]+", str(key).lower()))


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return SEED_VALUE.sub(r"\1" + FILTERED, CARD_TOKEN.sub(FILTERED, value))
    if isinstance(value, dict):
        return {k: FILTERED if _sensitive(k) else _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(item) for item in value]
    return value


def scrub(event: Event, hint: Hint | None = None) -> Event:
    """Sentry's ``before_send``: the event with every trace of cards and seeds removed.

    ``event`` is Sentry's event dict (message, exception values, breadcrumbs, extra, tags,
    request...), walked to any depth: the value of a key naming a hand, cards, a deck, a seed
    or a state becomes ``"[Filtered]"``; in every string, each card code (``"9H"``, ``"BJ"``)
    and the number after a ``seed`` becomes ``"[Filtered]"``. Returns the cleaned copy (never
    None: an event is still worth having without its cards). Raises nothing.
    """
    cleaned: Event = _clean(event)  # the same shape, strings filtered
    return cleaned


def init(dsn: str, environment: str = "", release: str = "") -> bool:
    """Start the Sentry SDK for ``dsn`` (an empty DSN starts nothing). Returns whether it did.

    Called once, from settings, in every process that reads them (Daphne, the worker, beat,
    manage.py); Sentry's Django, Celery and logging integrations switch on by themselves.
    """
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        release=release or None,
        send_default_pii=False,
        include_local_variables=False,  # a frame's locals may hold a State with every hand
        max_request_body_size="never",  # a POSTed play names cards
        before_send=scrub,
        before_send_transaction=scrub,
        traces_sample_rate=0.0,
    )
    return True
