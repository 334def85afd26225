"""The site's Content Security Policy (``SECURE_CSP``, Django's ContentSecurityPolicyMiddleware).

Scripts, styles and sockets from this site only: no inline script, inline style or style
attribute anywhere (templates/, static/; htmx's own indicator style is off in base.html).
In connect-src, 'self' also allows ws:/wss: to this very host and port (CSP Level 3: every
current browser).
"""

from __future__ import annotations

from django.utils.csp import CSP

POLICY: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],  # the favicon is a static file (static/favicon.svg, .ico)
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],  # the table and lobby sockets: ws:/wss: to this host
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
