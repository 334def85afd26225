"""The benches' copy of deploy/nginx.conf (bench/nginx_conf.py): each pool gets the Daphne ports
it is given, the rest stays as deployed. Text only: nothing is started or timed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_DIR / "bench"))

from nginx_conf import nginx_conf  # noqa: E402

TEMPLATE = (REPO_DIR / "deploy" / "nginx.conf").read_text()


def servers(text: str, upstream: str) -> list[str]:
    """The ``server`` lines of ``upstream``'s block."""
    block = re.search(rf"upstream {upstream} \{{(.*?)\}}", text, re.S)
    assert block, upstream
    return re.findall(r"server (\S+);", block.group(1))


def test_every_upstream_gets_the_same_ports_without_pools(tmp_path: Path) -> None:
    text = nginx_conf(TEMPLATE, [9001, 9002], 9100, tmp_path)
    assert servers(text, "club414") == ["127.0.0.1:9001", "127.0.0.1:9002"]
    assert servers(text, "club414_pages") == ["127.0.0.1:9001", "127.0.0.1:9002"]
    assert "listen 127.0.0.1:9100;" in text
    assert "8001" not in text and "8011" not in text


def test_the_sockets_pool_keeps_its_balancing_by_table(tmp_path: Path) -> None:
    """The sockets' pool balances by ``$ws_affinity`` (a table's seats together), its servers
    after it, as deployed."""
    text = nginx_conf(TEMPLATE, [9001, 9002], 9100, tmp_path)
    block = re.search(r"upstream club414 \{(.*?)\}", text, re.S).group(1)
    assert block.split() == [
        "hash", "$ws_affinity;", "server", "127.0.0.1:9001;", "server", "127.0.0.1:9002;",
        "keepalive", "32;",
    ]  # fmt: skip


def test_a_pool_gets_its_own_ports(tmp_path: Path) -> None:
    text = nginx_conf(TEMPLATE, [9001, 9002], 9100, tmp_path, pools={"club414_pages": [9011]})
    assert servers(text, "club414") == ["127.0.0.1:9001", "127.0.0.1:9002"]
    assert servers(text, "club414_pages") == ["127.0.0.1:9011"]
    # Everything else of the block stays as deployed.
    pages = re.search(r"upstream club414_pages \{(.*?)\}", text, re.S).group(1)
    assert "least_conn;" in pages and "keepalive 32;" in pages


def test_forwarded_proto_replaces_the_scheme_everywhere(tmp_path: Path) -> None:
    plain = nginx_conf(TEMPLATE, [9001], 9100, tmp_path)
    https = nginx_conf(TEMPLATE, [9001], 9100, tmp_path, forwarded_proto="https")
    assert "X-Forwarded-Proto $scheme;" in plain
    assert "X-Forwarded-Proto $scheme;" not in https
    assert https.count("X-Forwarded-Proto https;") == plain.count("X-Forwarded-Proto $scheme;")


def test_an_unknown_pool_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="club414_static"):
        nginx_conf(TEMPLATE, [9001], 9100, tmp_path, pools={"club414_static": [9011]})


def test_the_page_limit_is_dropped_unless_kept(tmp_path: Path) -> None:
    assert "limit_req zone=pages" in TEMPLATE
    assert "limit_req zone=pages" not in nginx_conf(TEMPLATE, [9001], 9100, tmp_path)
    kept = nginx_conf(TEMPLATE, [9001], 9100, tmp_path, keep_limits=True)
    assert "limit_req zone=pages burst=60 nodelay;" in kept
