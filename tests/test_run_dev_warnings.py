"""`make run`'s workers say nothing about running as root (scripts/run_dev.py, ``worker_env``):
a new user took Celery's "superuser privileges" warning, printed by each of the three workers
at start-up, for an error. Only that warning goes: every other one still shows.

Each check runs a Python process with the environment run_dev gives its workers and has
Celery's own code warn there, as a worker started as root does."""

from __future__ import annotations

import os
import subprocess
import sys

from scripts import run_dev

#: What a worker started as root runs (celery.platforms.check_privileges, once it has found
#: uid 0): called directly, so the check holds whoever runs the tests.
WARNS_AS_ROOT = (
    "from celery.platforms import _warn_or_raise_security_error as warn; "
    "warn(egid=0, euid=0, gid=0, uid=0, pickle_or_serialize=False)"
)
#: Another of Celery's security warnings (a group missing from the group database): kept.
WARNS_OTHERWISE = (
    "import warnings; from celery.exceptions import SecurityWarning; "
    "from celery.platforms import ASSUMING_ROOT; warnings.warn(SecurityWarning(ASSUMING_ROOT))"
)


def stderr_of(code: str, env: dict[str, str]) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stderr


def plain_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}


def test_a_worker_as_root_says_nothing_of_its_privileges() -> None:
    assert "superuser privileges" in stderr_of(WARNS_AS_ROOT, plain_env())  # what a user saw
    assert stderr_of(WARNS_AS_ROOT, run_dev.worker_env(plain_env())) == ""


def test_every_other_warning_still_shows() -> None:
    env = run_dev.worker_env(plain_env())
    assert "An entry for the specified gid or egid was not found" in stderr_of(WARNS_OTHERWISE, env)
    assert "UserWarning: the developer's own" in stderr_of(
        'import warnings; warnings.warn("the developer\'s own")', env
    )


def test_the_developers_own_filters_are_kept() -> None:
    """A PYTHONWARNINGS already set (here: every DeprecationWarning an error) still applies;
    the root warning's filter comes after it."""
    env = run_dev.worker_env({**plain_env(), "PYTHONWARNINGS": "error::DeprecationWarning"})
    assert env["PYTHONWARNINGS"].startswith("error::DeprecationWarning,ignore:")
    assert stderr_of(WARNS_AS_ROOT, env) == ""
    failed = subprocess.run(
        [sys.executable, "-c", "import warnings; warnings.warn('old', DeprecationWarning)"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert failed.returncode == 1 and "DeprecationWarning: old" in failed.stderr
