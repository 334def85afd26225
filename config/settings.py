"""Django settings for 414 Club.

Every knob comes from the environment and is read once, here (DESIGN.md rule 6). Defaults
are safe: DEBUG is off, so a server started without configuration is locked down rather
than open. With nothing set the data lives in an embedded SQLite file and Redis is the
private server that `scripts/run_dev.py` starts (see config/embedded_redis.py).

Production needs DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL and REDIS_URL.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import celery_routes, csp, embedded_redis, errors, log_config
from config.env import env_bool, env_list, env_rate

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime state of the embedded default (Redis socket and log); git-ignored.
VAR_DIR = BASE_DIR / "var"


DEBUG = env_bool("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
            "(development: `make run` turns DJANGO_DEBUG on)."
        )
    # Development only: a fixed key keeps sessions across restarts of `make run`.
    SECRET_KEY = "django-insecure-414-club-development-only"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or (
    ["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
# Only needed when a form is posted from another origin than the site's own: the site's own, on
# any port, passes as long as the proxy forwards the Host the browser sent (deploy/nginx.conf:
# $http_host, port included). Each is a whole origin, scheme and port included
# ("https://club414.example:8443"); Daphne runs no system checks, so a bare host name (which
# Django would never match) is refused here.
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(
            f"DJANGO_CSRF_TRUSTED_ORIGINS: {_origin!r} needs its scheme, e.g. https://{_origin}"
        )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # naturaltime: "now", "3 minutes ago", translated
    "channels",
    "django_htmx",
    "ninja",  # the bot API's schema and docs page (its Swagger UI is served from static)
    "accounts",
    "games",
    "leagues",
]

MIDDLEWARE = [
    "config.request_log.request_log_middleware",  # first: times and logs every request
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",  # SECURE_CSP below
    "config.methods.methods_middleware",  # 405 with Allow for TRACE and any other method
    "config.health.health_middleware",  # /healthz, before sessions and users
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.page_limits.page_limits_middleware",  # SITE_PAGE_RATE per address, in its language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",  # a player's saved language wins
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The table's hot partials (``*.jinja`` beside the Django templates): compiled Python,
        # the same bytes out (games/live/jinja.py; issue 19, docs/PERFORMANCE.md).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.live.jinja.environment"},
    },
]

# --- Database -------------------------------------------------------------------------
_SQLITE_OPTIONS = {
    # WAL lets readers run beside the one writer; IMMEDIATE takes the write lock when a
    # transaction starts, so two writers queue instead of failing with "database is locked"
    # halfway through (the SQLite stand-in for select_for_update, DESIGN.md rule 1).
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}
_database_url = os.environ.get("DATABASE_URL", "")
if _database_url:
    # Connections come from psycopg's pool (below): a closed connection goes back to it, so
    # an action no longer opens a new PostgreSQL connection (5 per action without it).
    _default_db = dj_database_url.parse(_database_url, conn_max_age=0)
else:
    # a str, as dj_database_url gives it (its DBConfig is this dict's type)
    _default_db = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(BASE_DIR / "db.sqlite3")}
if _default_db["ENGINE"] == "django.db.backends.sqlite3":
    _default_db["OPTIONS"] = {**_SQLITE_OPTIONS, **_default_db.get("OPTIONS", {})}


def _prepare_threshold(value: str) -> int | None:
    """psycopg's ``prepare_threshold``: None (never prepare) for 0 or less."""
    threshold = int(value)
    return threshold if threshold > 0 else None


# Threads per Daphne process for the sockets' database work and renders (games.sockets.consumers).
GAMES_SOCKET_THREADS = int(os.environ.get("GAMES_SOCKET_THREADS", "8"))
if _default_db["ENGINE"] == "django.db.backends.postgresql":
    # Every socket thread, the request thread and a spare may hold one at once.
    _default_db["OPTIONS"] = {
        "pool": {
            "min_size": int(os.environ.get("DATABASE_POOL_MIN", "1")),
            "max_size": int(os.environ.get("DATABASE_POOL_MAX", str(GAMES_SOCKET_THREADS + 4))),
            "timeout": 10,
        },
        # Parameters sent apart from the statement, and a statement run often on a connection
        # prepared once there (psycopg's own threshold): PostgreSQL parses and plans the
        # writer's and the session check's fixed statements once per connection, not per move,
        # and nothing quotes a match's state into the SQL text (docs/PERFORMANCE.md, issue 19).
        # A pooler in front must pass prepared statements through (PgBouncer ≥ 1.21,
        # max_prepared_statements); DATABASE_PREPARE_THRESHOLD=0 turns preparing off.
        "server_side_binding": True,
        "prepare_threshold": _prepare_threshold(os.environ.get("DATABASE_PREPARE_THRESHOLD", "5")),
        **_default_db.get("OPTIONS", {}),
    }
DATABASES = {"default": _default_db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Channels layer and Celery broker -------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL") or embedded_redis.url_for_socket(
    embedded_redis.default_socket_path(VAR_DIR)
)
# Separates runs that share one Redis (e.g. two test runs at once): channel groups and the
# Celery queue are prefixed with it. Empty in production.
REDIS_NAMESPACE = os.environ.get("REDIS_NAMESPACE", "")
CHANNEL_LAYERS = {
    "default": {
        # Pub/sub delivered 4-5x the default layer's throughput here (DESIGN.md, measured);
        # config.channel_layer decodes a group message once per process, not once per socket.
        "BACKEND": "config.channel_layer.SharedDecodeLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_NAMESPACE}asgi"},
    },
}
CELERY_BROKER_URL = embedded_redis.kombu_url(REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = f"{REDIS_NAMESPACE}celery"
# AI seats decide on a queue of their own (games.tasks.ai_act: an expert searches for up to
# 0.5 s), which the site runs in a worker of its own (`-Q <namespace>ai`) beside the main one
# (`-X <namespace>ai`: timers, claim-window closes, auto-passes, the sweep). Two pools, so a
# burst of searches never holds a deadline back (docs/AI.md). A worker started without -Q/-X
# takes both queues: one worker alone still plays every seat, with no such guarantee.
GAMES_AI_QUEUE = f"{REDIS_NAMESPACE}ai"
# The expert's reviews of people's rounds (issue 20: games.tasks.review_round, seconds of CPU
# each) on a third queue and a third worker (`-Q <namespace>review`); the main worker takes
# neither (`-X <namespace>ai,<namespace>review`), so a review never waits ahead of a deadline or
# an AI seat's decision. Reviews wait while the other queues are busy; nothing waits for them.
GAMES_REVIEW_QUEUE = f"{REDIS_NAMESPACE}review"
# Sampled deals per reviewed decision; 0: the engine's default (games.engine.review, docs/AI.md).
# Tests set fewer, to be quick.
GAMES_REVIEW_SAMPLES = int(os.environ.get("GAMES_REVIEW_SAMPLES", "0"))
# The review worker takes the CPU only when nothing else wants it (Linux SCHED_IDLE,
# config/celery.py): "0" leaves it at the normal policy (a box so busy that reviews starve).
GAMES_REVIEW_IDLE_CPU = os.environ.get("GAMES_REVIEW_IDLE_CPU", "1") != "0"
# Which queue takes which task, and the beat's sweeps: config/celery_routes.py.
CELERY_TASK_QUEUES = celery_routes.queues(
    (CELERY_TASK_DEFAULT_QUEUE, GAMES_AI_QUEUE, GAMES_REVIEW_QUEUE)
)
CELERY_TASK_ROUTES = celery_routes.routes(ai=GAMES_AI_QUEUE, review=GAMES_REVIEW_QUEUE)
CELERY_BEAT_SCHEDULE = celery_routes.beat_schedule(
    sweep_seconds=float(os.environ.get("GAMES_SWEEP_SECONDS", "5")),
    review_sweep_seconds=float(os.environ.get("GAMES_REVIEW_SWEEP_SECONDS", "60")),
    catch_up_seconds=float(os.environ.get("STATS_CATCH_UP_SECONDS", "60")),
)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker without its broker can do nothing else: it retries for as long as Redis is away
# (Celery gives up after 100 tries, ~50 minutes, by default). config/broker.py keeps it alive
# across a Redis restart.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery 6's default (and no task here acknowledges late): silences its warning on every loss.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Timers must really wait (DESIGN.md rule 3): never run tasks inline.
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_IGNORE_RESULT = True  # tasks are wake-ups; nobody reads a result
# Celery's Django fixup closes the database pool around every task of a prefork worker unless
# connections are reused: reuse them (config/celery.py gives each task's back to the pool).
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))
CELERY_TIMEZONE = "UTC"

# --- Cache: Redis --------------------------------------------------------------------
# The same Redis as above (the private one on the embedded default). Keys carry the namespace
# and the database name, like every other key of the site; clear() deletes only those.
CACHES = {
    "default": {
        "BACKEND": "config.cache.SiteRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_NAMESPACE}club414:{_default_db['NAME']}:cache",
        "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
    },
}

# --- Auth ------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "games:lobby"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Log-in and sign-up throttling (accounts/throttle.py) ------------------------------
# django-axes locks a username out from one address after ACCOUNTS_LOGIN_FAILURE_LIMIT failed
# log-ins, for ACCOUNTS_LOGIN_COOLOFF_MINUTES (each failure meanwhile starts it again); the
# log-in forms show it as a form error. ACCOUNTS_LOGIN_ADDRESS_RATE failed log-ins per address,
# whatever the usernames (password spraying), and ACCOUNTS_SIGNUP_RATE new accounts per
# address are counted in the cache before the work (config.rate_limits). Refusals are answered
# 429 with Retry-After. The address is the sockets' (behind a proxy in GAMES_TRUSTED_PROXIES,
# its X-Real-IP).
INSTALLED_APPS += ["axes"]  # django_ratelimit needs no app: its only check misreads config.cache
MIDDLEWARE += [
    # A form page refused by a limit (its error shown) is answered 429 with Retry-After.
    "accounts.throttle.refusal_middleware",
    # Last: it turns a lockout that no form showed into axes' own 429 (the log-in forms show
    # theirs).
    "axes.middleware.AxesMiddleware",
]
AUTHENTICATION_BACKENDS = [
    "accounts.throttle.LoginThrottleBackend",  # first: refuses a locked-out username+address
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("ACCOUNTS_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("ACCOUNTS_LOGIN_COOLOFF_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
ACCOUNTS_LOGIN_ADDRESS_RATE = env_rate("ACCOUNTS_LOGIN_ADDRESS_RATE", "30/h")
ACCOUNTS_SIGNUP_RATE = env_rate("ACCOUNTS_SIGNUP_RATE", "10/h")
# HTTP requests per client address (config.page_limits; static files, /healthz and the bot API
# apart): a crowd on one heavy page must not take live play's CPU. "off" turns it off.
SITE_PAGE_RATE = (
    ""
    if os.environ.get("SITE_PAGE_RATE", "").strip().lower() == "off"
    else env_rate("SITE_PAGE_RATE", "300/m")
)
RATELIMIT_USE_CACHE = "default"

# --- Bot API (games/api/, accounts/tokens.py, docs/BOT_API.md) ---------------------------------
# Requests per personal access token (django-ratelimit, counted in the cache): every endpoint,
# the stream's opening included. CORS stays off: no Access-Control-* header is ever sent, so
# browsers on other sites cannot call the API with someone's token.
BOTAPI_RATE = os.environ.get("BOTAPI_RATE", "600/m")
# Requests without a valid token per client address (no token, an unknown or revoked one; the
# schema, the docs and the guide; an unknown address under /api/v1/): past it, 429 with
# Retry-After (games.api.ratelimit, config.rate_limits). A valid token counts only on its own.
BOTAPI_ANONYMOUS_RATE = env_rate("BOTAPI_ANONYMOUS_RATE", "60/m")
# A request body over this many bytes is refused 413 before it is parsed (games.api.body_limit):
# an action is well under 1 KB.
BOTAPI_MAX_BODY_BYTES = int(os.environ.get("BOTAPI_MAX_BODY_BYTES", "4096"))

# --- Email (password reset) ------------------------------------------------------------
# Django 6.1's MAILERS (the EMAIL_* settings are deprecated). Development prints to the console,
# bodies as plain 8-bit text (config.mail) so a reset link can be copied whole.
MAILERS: dict[str, dict[str, object]]
if DEBUG:
    MAILERS = {"default": {"BACKEND": "config.mail.ConsoleBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": int(os.environ.get("EMAIL_PORT", "25")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS"),
            },
        },
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "414 Club <noreply@localhost>")
# Where players ask the club's staff for things only staff do (a new league): shown on the page
# that says so. Empty: the page names staff members instead.
CLUB_CONTACT_EMAIL = os.environ.get("CLUB_CONTACT_EMAIL", "")

# Table chat (games.chat.rooms) and friends (accounts.friends): the longest free-text line, lines
# per player ("count/period": 5 in any 10 s, a sliding window, config.rate_limits), invitations
# per player, and the site's address for the links in notice emails.
GAMES_CHAT_MAX_CHARS = int(os.environ.get("GAMES_CHAT_MAX_CHARS", "200"))
GAMES_CHAT_RATE = os.environ.get("GAMES_CHAT_RATE", "5/10s")
ACCOUNTS_INVITE_RATE = os.environ.get("ACCOUNTS_INVITE_RATE", "30/h")
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")

# --- Languages -------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("id", _("Indonesian")),
    ("vi", _("Vietnamese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"

# --- Static files ----------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic`; development serves from the apps.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Decided here, not by whitenoise reading settings.DEBUG later: test runners flip DEBUG off.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# How long (seconds) a browser keeps an unhashed static file before asking for it again: 0 in
# development, where an edited file must show on the next page. Production's files are hashed
# and whitenoise marks those immutable whatever this says. The browser tests' server sets it,
# as nothing is edited during a run: a page no longer asks again for ~17 files a navigation.
WHITENOISE_MAX_AGE = int(os.environ.get("STATIC_MAX_AGE_SECONDS", "0" if DEBUG else "60"))

# --- Production security (HTTPS only) --------------------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # The TLS-terminating proxy in front of Daphne says the request was HTTPS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Games -----------------------------------------------------------------------------
# How long the round-over summary stays up before the next round is dealt (seconds).
GAMES_NEXT_ROUND_SECONDS = float(os.environ.get("GAMES_NEXT_ROUND_SECONDS", "6"))
# An AI seat's pause before it acts (seconds, ±30%); it never depends on the AI's cards.
GAMES_AI_DELAY_SECONDS = float(os.environ.get("GAMES_AI_DELAY_SECONDS", "1.0"))
# How long the players asked to a rematch have to accept or leave (games.play.rematches).
GAMES_REMATCH_SECONDS = float(os.environ.get("GAMES_REMATCH_SECONDS", "60"))
# A seat whose player's page closed shows "disconnected" after this many seconds (games.live.away):
# a reload, closed and open again within it, never shows it.
GAMES_AWAY_GRACE_SECONDS = float(os.environ.get("GAMES_AWAY_GRACE_SECONDS", "5"))
# A person's seat is handed to an AI stand-in once the clock has made this many of their
# decisions in a row (games.play.standins); 0: never (the clock goes on deciding for them).
GAMES_STAND_IN_AFTER_TIMEOUTS = int(os.environ.get("GAMES_STAND_IN_AFTER_TIMEOUTS", "2"))
# At a casual table (not rated, scheduled by no organiser) where only stand-ins play and no
# seated person's page has been open for this many seconds, the next AI turn stops the match
# (games.play.unattended): AI players do not play on for nobody. 0 or less: they play to the end.
GAMES_UNATTENDED_STOP_SECONDS = float(os.environ.get("GAMES_UNATTENDED_STOP_SECONDS", "300"))
# A table region's template that reads a context field its region does not declare
# (games.live.regions) raises instead of showing nothing: in development and in the tests
# (DJANGO_DEBUG, read here: test runners turn DEBUG off later).
GAMES_STRICT_REGIONS = env_bool("GAMES_STRICT_REGIONS", DEBUG)

# Tables one person may host at once that are waiting for players or being played (creating a
# table, "play again", asking for a rematch; games.play.tables.check_hosting); 0: no cap.
GAMES_MAX_HOSTED_TABLES = int(os.environ.get("GAMES_MAX_HOSTED_TABLES", "5"))

# Seconds the lobby's public lists stay rendered in the cache, per language
# (games.live.lobby_cache): a flood of lobby pages renders them once per language per period
# instead of once per request. Every lobby change drops them at once; 0 turns the cache off.
GAMES_LOBBY_CACHE_SECONDS = float(os.environ.get("GAMES_LOBBY_CACHE_SECONDS", "2"))

# --- Socket caps (games.sockets.socket_limits); 0 turns a cap off ---------------------------------
# Open sockets (table and lobby) per client address (IPv6: per /64), per session, per signed-in
# user; spectator sockets per table (seated players are never refused for that one).
GAMES_MAX_SOCKETS_PER_IP = int(os.environ.get("GAMES_MAX_SOCKETS_PER_IP", "60"))
GAMES_MAX_SOCKETS_PER_SESSION = int(os.environ.get("GAMES_MAX_SOCKETS_PER_SESSION", "12"))
GAMES_MAX_SOCKETS_PER_USER = int(os.environ.get("GAMES_MAX_SOCKETS_PER_USER", "24"))
GAMES_MAX_SPECTATORS_PER_TABLE = int(os.environ.get("GAMES_MAX_SPECTATORS_PER_TABLE", "300"))
# Peers believed about the client's address (X-Real-IP, else the last X-Forwarded-For entry):
# nginx on this host. Comma-separated; any other peer is taken as the client itself.
GAMES_TRUSTED_PROXIES = env_list("GAMES_TRUSTED_PROXIES", "127.0.0.1,::1")

# --- Logging: one JSON line per request and per game action, on stderr -----------------
# config.request_log logs each request, games.play.services and games.sockets.consumers each action
# (match, version, seat, action kind, outcome code, ms); no line ever holds a card, a hand,
# a seed or a state (DESIGN.md rule 2).
LOG_LEVEL = log_config.level(os.environ.get("DJANGO_LOG_LEVEL", ""))
LOGGING = log_config.logging(LOG_LEVEL)
# The worker keeps these handlers (Celery would replace the root logger's with its own).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- Error reporting: Sentry, only when SENTRY_DSN is set --------------------------------
# No personal data, no request bodies, no frame locals; config.errors.scrub removes cards and
# seeds from every event.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
SENTRY_ENABLED = errors.init(
    SENTRY_DSN,
    environment=os.environ.get("SENTRY_ENVIRONMENT", ""),
    release=os.environ.get("SENTRY_RELEASE", ""),
)

# --- Health: /healthz for the proxy (config/health.py) ----------------------------------
# A worker heartbeat older than this (seconds) fails the check; the clock writes one every 2 s.
HEALTH_WORKER_SECONDS = float(os.environ.get("HEALTH_WORKER_SECONDS", "15"))
# nginx probes it over plain HTTP: not redirected to HTTPS (patterns match the path without
# its leading slash).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- Content Security Policy (Django's ContentSecurityPolicyMiddleware): config/csp.py -------
SECURE_CSP = csp.POLICY
