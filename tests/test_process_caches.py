"""No cache of a long-lived process grows without bound (issue 19, memory).

A Daphne process lives for days and serves thousands of tables: whatever it keeps at module
level must stop growing. Every cache decorator and every module-level empty container in the
site's packages is listed here with what bounds it; a new one fails
``test_every_process_cache_is_listed_with_its_bound`` until it is added (with its bound), and
the bounds that are ours are checked by filling them.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games.engine import combos
from games.engine.ai import rollout
from games.live import cards, frames, kept

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "config", "accounts", "leagues")

#: (module path, name) -> what bounds it.
KNOWN = {
    ("games/engine/moves.py", "_combo"): "finite: (category, size, key) of the game's combos",
    ("games/engine/moves.py", "_kind_bomb"): "finite: bomb sizes x powers",
    ("games/engine/moves.py", "_joker_bomb"): "finite: joker counts x bomb orders",
    ("games/engine/moves.py", "_four_one_four"): "finite: the bomb orders",
    ("games/engine/power.py", "power_table"): "finite: 13 levels x two_high",
    ("games/engine/views.py", "_deck_counts"): "finite: deck counts",
    ("games/engine/combos.py", "<lru_cache>"): "lru_cache(maxsize=65536)",
    ("games/engine/ai/rollout.py", "<lru_cache>"): "lru_cache(maxsize=4096)",
    ("games/engine/cards.py", "FACE"): "filled once at import: the 54 card codes",
    ("games/engine/cards.py", "SUIT_INDEX"): "filled once at import: the 54 card codes",
    ("games/play/clock.py", "_script"): "finite: the module's Lua scripts",
    ("games/play/services.py", "_recent_seats"): "cleared past 4,096 entries",
    ("games/play/writes.py", "_LOCK"): "finite: the lock statement with and without the client id",
    ("games/live/redis_store.py", "_client"): "finite: one per REDIS_URL",
    ("games/live/spectating.py", "_leave_script"): "finite: one per Redis client",
    ("games/live/away.py", "_check_script"): "finite: one per Redis client",
    ("games/play/unattended.py", "_since_script"): "finite: one per Redis client",
    ("games/live/cards.py", "<lru_cache>"): "lru_cache(maxsize=512)",
    ("games/live/frames.py", "_recent"): "LRU of RECENT_SUMMARIES entries",
    ("games/live/push.py", "_spectator_snapshots"): "cleared past 512 entries",
    ("games/live/presenters.py", "_CARDS_OF_FACE"): "filled once at import: the 54 card codes",
    ("games/live/kept.py", "_kept"): "cleared past MAX_KEPT (2,048) texts",
    ("games/live/regions.py", "_jinja_templates"): "finite: the site's Jinja partials by name",
    ("games/live/jinja.py", "_urls"): "cleared past MAX_URLS (1,024) links",
    ("games/live/jinja.py", "_escaped_texts"): "cleared past MAX_ESCAPED (4,096) short texts",
    ("games/sockets/socket_limits.py", "_admit_script"): "finite: one per Redis client",
    ("games/sockets/renewals.py", "_count_refreshes"): "each entry leaves after 0.5 s",
    ("games/sockets/renewals.py", "_count_publishing"): "each entry leaves when its send ends",
    ("games/sockets/renewals.py", "_away_checks"): "each entry leaves after its page's grace",
    ("games/sockets/session_check.py", "_verdicts"): "cleared past MAX_VERDICTS (4,096) entries",
    ("games/sockets/session_check.py", "_statements"): "finite: user x session model x database",
    ("games/organisers.py", "_ORGANISERS"): "filled at start-up: the installed organisers",
    ("accounts/usernames.py", "_prototypes"): "no argument: one value",
    ("accounts/usernames.py", "_seat_keys"): "no argument: one value",
}


def _is_cache_decorator(node: ast.expr) -> str | None:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    if name == "cache":
        return "cache"
    if name == "lru_cache":
        return "lru_cache"
    return None


def _empty_container(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Dict | ast.Set | ast.List):
        return not getattr(value, "keys", getattr(value, "elts", None))
    if isinstance(value, ast.Call) and not value.args:
        name = getattr(value.func, "id", getattr(value.func, "attr", ""))
        return name in ("dict", "set", "list", "OrderedDict", "defaultdict", "deque")
    return False


def process_caches() -> set[tuple[str, str]]:
    """Every function with a cache decorator and every module-level name bound to an empty
    container, in the site's packages (migrations aside)."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            module = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    for decorator in node.decorator_list:
                        kind = _is_cache_decorator(decorator)
                        if kind == "cache" or (
                            kind == "lru_cache" and isinstance(decorator, ast.Call)
                            and any(k.arg == "maxsize" and getattr(k.value, "value", 0) is None
                                    for k in decorator.keywords)
                        ):  # fmt: skip
                            found.add((module, node.name))
                        elif kind == "lru_cache":
                            found.add((module, "<lru_cache>"))
            for node in tree.body:
                if isinstance(node, ast.Assign | ast.AnnAssign) and _empty_container(node.value):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    found.update((module, t.id) for t in targets if isinstance(t, ast.Name))
    return found


def test_every_process_cache_is_listed_with_its_bound() -> None:
    assert process_caches() == set(KNOWN)


def test_the_bounded_lru_caches_have_their_size() -> None:
    for function, size in (
        (cards.card_face, 512),
        (cards._hand_groups, 512),
        (combos.classify_faces, 65536),
        (rollout._whole, 4096),
    ):
        assert function.cache_info().maxsize == size


def test_the_recent_summaries_stay_within_their_bound(monkeypatch) -> None:
    """Past ``RECENT_SUMMARIES`` the oldest summary goes: a process serving many tables keeps
    the latest, never all."""
    monkeypatch.setattr(frames, "_recent", type(frames._recent)())
    monkeypatch.setattr(frames, "RECENT_SUMMARIES", 50)
    summary = frames.Summary._make(range(len(frames.Summary._fields)))
    for n in range(200):
        frames._remember((n,), summary)
    assert len(frames._recent) == 50
    assert (199,) in frames._recent and (0,) not in frames._recent


def test_the_shared_texts_stay_within_their_bound(monkeypatch) -> None:
    """``{% shared %}`` keeps at most ``MAX_KEPT`` texts: a countdown's values change with every
    move, so the kept texts are cleared when full rather than grown."""
    from django.template import engines

    monkeypatch.setattr(kept, "MAX_KEPT", 20)
    kept.forget()
    page = engines["django"].from_string(
        '{% load shared %}{% shared "games/partials/countdown.jinja" countdown=n %}'
    )
    for n in range(100):
        page.render({"n": {"remaining": n, "deadline_ms": n, "total": 30, "kind": "turn"}})
        assert len(kept._kept) <= 20
    kept.forget()


def test_the_session_verdicts_stay_within_their_bound(monkeypatch) -> None:
    """``session_check`` keeps at most ``MAX_VERDICTS`` verdicts: cleared when full (each
    session's data and each password hash is a new key)."""
    from django.contrib.sessions.backends.db import SessionStore

    from games.sockets import session_check

    monkeypatch.setattr(session_check, "MAX_VERDICTS", 20)
    monkeypatch.setattr(session_check, "_verdicts", {})
    for n in range(100):
        assert session_check._verdict(SessionStore, f"data-{n}", 1, "hash") is False
        assert len(session_check._verdicts) <= 20
    assert len(session_check._verdicts) > 0


def test_the_kept_links_stay_within_their_bound(monkeypatch) -> None:
    """The Jinja partials' ``url()`` keeps at most ``MAX_URLS`` links: cleared when full."""
    from django.urls import reverse

    from games.live import jinja

    monkeypatch.setattr(jinja, "MAX_URLS", 20)
    monkeypatch.setattr(jinja, "_urls", {})
    for n in range(100):
        assert jinja._url("games:take_seat", n) == reverse("games:take_seat", args=[n])
        assert len(jinja._urls) <= 20
    assert len(jinja._urls) > 0


def test_the_escaped_texts_stay_within_their_bound(monkeypatch) -> None:
    """``jinja._finalize`` keeps the escaped text of short plain strings only, and at most
    ``MAX_ESCAPED`` of them; what it writes is the escaped text either way."""
    from games.live import jinja

    monkeypatch.setattr(jinja, "MAX_ESCAPED", 20)
    monkeypatch.setattr(jinja, "_escaped_texts", {})
    for n in range(100):
        assert jinja._finalize(f"<b>{n}</b> & 'x'") == f"&lt;b&gt;{n}&lt;/b&gt; &amp; &#x27;x&#x27;"
        assert len(jinja._escaped_texts) <= 20
    assert len(jinja._escaped_texts) > 0
    long = "<" * (jinja.MAX_ESCAPED_LENGTH + 1)
    assert jinja._finalize(long) == "&lt;" * len(long)
    assert long not in jinja._escaped_texts
