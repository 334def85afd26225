"""The development mailer prints a password-reset link whole (QA: it came out quoted-printable,
the link cut into pieces ending in '=')."""

from __future__ import annotations

import io

from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as DjangoConsole

from config.mail import ConsoleBackend

LINK = "http://localhost:8000/accounts/reset/MTI/" + "c8a1-" * 12 + "d41d8cd98f00b204e980/"


def printed(backend_class) -> str:
    stream = io.StringIO()
    body = f"Đặt lại mật khẩu của bạn tại 414 Club:\n\n{LINK}\n"
    backend_class(stream=stream).send_messages([EmailMessage("Đặt lại", body, to=["a@b.c"])])
    return stream.getvalue()


def test_the_console_shows_a_long_link_whole_and_the_text_readable() -> None:
    out = printed(ConsoleBackend)
    assert LINK in out.splitlines()
    assert "Đặt lại mật khẩu" in out
    assert "quoted-printable" not in out and "base64" not in out


def test_djangos_own_console_would_break_it() -> None:
    """The reason for config.mail: the stock backend cuts the same link."""
    assert LINK not in printed(DjangoConsole).splitlines()
