"""The development mailer: Django's console backend, with message bodies as 8-bit text."""

from __future__ import annotations

import email.policy

from django.core.mail import EmailMessage
from django.core.mail.backends import console

#: Lines up to RFC 5322's limit and 8-bit bodies: a text body is then written as it is, never
#: as quoted-printable, which breaks a long link into pieces ending in ``=``.
POLICY = email.policy.default.clone(max_line_length=998, cte_type="8bit")


class ConsoleBackend(console.EmailBackend):
    """Prints each message as it would be sent, with its text readable: the password-reset
    link is one whole line to copy from the console (``make run``)."""

    def write_message(self, message: EmailMessage) -> None:
        text = message.message(policy=POLICY).as_bytes().decode("utf-8", "replace")
        self.stream.write(f"{text}\n{'-' * 79}\n")
