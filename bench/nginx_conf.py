"""The bench's copy of ``deploy/nginx.conf`` (``bench/load.py``, ``bench/page_flood.py``): the same
file with the bench's upstream ports, listen port, log paths and pid file. Pure text in, text
out (no imports beyond ``re``), so it is tested without starting anything."""

from __future__ import annotations

import re
from pathlib import Path


def nginx_conf(
    template: str,
    upstream_ports: list[int],
    port: int,
    root: Path,
    *,
    pools: dict[str, list[int]] | None = None,
    forwarded_proto: str | None = None,
    keep_limits: bool = False,
) -> str:
    """``deploy/nginx.conf`` with the benchmark's upstreams, listen port and paths.

    Every upstream gets ``upstream_ports`` (the bench's Daphnes serve pages and sockets alike),
    except those named in ``pools`` (upstream name -> ports), which get their own. With
    ``forwarded_proto`` (``"https"``) nginx tells Daphne the request came by that scheme, as a
    TLS terminator in front would: production settings then answer pages, not their redirect.
    The per-address page limit (``limit_req``) is dropped, as every bench client is 127.0.0.1,
    unless ``keep_limits``.
    Raises ValueError for a pool the template has no upstream for."""
    pools = pools or {}
    found = set(re.findall(r"upstream (club414\w*) \{", template))
    unknown = set(pools) - found
    if unknown:
        raise ValueError(f"no upstream {sorted(unknown)} in the template (it has {sorted(found)})")

    def servers(name: str) -> str:
        return "".join(f"        server 127.0.0.1:{p};\n" for p in pools.get(name, upstream_ports))

    text = re.sub(
        r"(upstream (club414\w*) \{\n)((?:[^}]*\n)*?)(\s*\})",
        lambda m: (
            m.group(1)
            + re.sub(
                r"^(\s*(?:least_conn|hash [^;]*);\n)",  # the pool's balancing, then its servers
                lambda b: b.group(1) + servers(m.group(2)),
                re.sub(r"^\s*server .*\n", "", m.group(3), flags=re.M),
                count=1,
                flags=re.M,
            )
            + m.group(4)
        ),
        template,
    )
    if forwarded_proto:
        text = re.sub(r"X-Forwarded-Proto \$scheme;", f"X-Forwarded-Proto {forwarded_proto};", text)
    text = re.sub(r"^(\s*)listen \[::\].*\n", "", text, flags=re.M)
    text = re.sub(r"^(\s*)listen [^;]*;", rf"\1listen 127.0.0.1:{port};", text, flags=re.M)
    text = re.sub(r"^(\s*)access_log [^;]*;", rf"\1access_log {root}/access.log;", text, flags=re.M)
    text = re.sub(
        r"^(\s*)error_log [^;]*;", rf"\1error_log {root}/error.log warn;", text, flags=re.M
    )
    text = re.sub(r"^\s*(user|pid|daemon) [^;]*;\n", "", text, flags=re.M)
    if not keep_limits:
        text = re.sub(r"^\s*limit_req zone=[^;]*;\n", "", text, flags=re.M)
    return f"daemon off;\npid {root}/nginx.pid;\n" + text
