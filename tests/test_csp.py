"""The Content Security Policy (Django's ContentSecurityPolicyMiddleware, SECURE_CSP): on every
response, and nothing in templates/ or static/ that it would block. The browser side is
tests/e2e/test_csp.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[1]

#: What a page under ``script-src 'self'; style-src 'self'`` may not hold: a <script> without
#: src, a <style> element, an on* handler, a style attribute, a javascript: URL.
INLINE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "style element": re.compile(r"<style[\s>]", re.I),
    "event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
}
#: What a script under that policy may not do (no 'unsafe-eval', no inline styles).
SCRIPT = {
    "eval": re.compile(r"\beval\s*\(|new\s+Function\s*\("),
    "string timer": re.compile(r"set(?:Timeout|Interval)\s*\(\s*[\"'`]"),
    "style attribute": re.compile(r"setAttribute\(\s*[\"']style|\.cssText\s*="),
    "handler attribute": re.compile(r"setAttribute\(\s*[\"']on"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/", "/leagues/", "/nowhere/"])
def test_every_response_carries_the_policy(path: str) -> None:
    """Pages, and error pages too, send the policy: this site's scripts, styles and sockets
    only, nothing inline, no framing."""
    response = Client().get(path)
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe" not in policy


def test_htmx_adds_no_inline_style_and_evaluates_nothing() -> None:
    """htmx would insert its indicator <style> at load, and settle swapped elements' style
    attributes with setAttribute, both of which the policy blocks: base.html turns these (and
    htmx's eval) off."""
    base = (ROOT / "templates" / "base.html").read_text()
    found = re.search(r"""<meta name="htmx-config" content='([^']*)'>""", base)
    assert found, "no htmx-config"
    config = json.loads(found.group(1))
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False
    assert "style" not in config["attributesToSettle"]
    assert "class" in config["attributesToSettle"]  # class transitions still settle


def test_no_template_holds_anything_inline() -> None:
    """Every template (pages, partials, pushed frames, e-mails excepted) is free of inline
    scripts, styles, handlers and javascript: URLs."""
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        if path.name.endswith("_email.html"):
            continue  # mail, not a page
        text = path.read_text()
        found += [
            f"{path.relative_to(ROOT)}: {what}"
            for what, pattern in INLINE.items()
            if pattern.search(text)
        ]
    assert not found


def test_no_script_needs_eval_or_inline_styles() -> None:
    """The site's scripts neither evaluate strings nor write style attributes (setting
    ``element.style.width`` is allowed: the policy governs markup, not the CSSOM)."""
    found = []
    for path in sorted((ROOT / "static").rglob("*.js")):
        text = path.read_text()
        found += [
            f"{path.relative_to(ROOT)}: {what}"
            for what, pattern in SCRIPT.items()
            if pattern.search(text)
        ]
    assert not found
