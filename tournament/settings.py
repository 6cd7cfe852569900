"""Settings. The environment is read here and nowhere else.

With nothing set the site runs on its own: SQLite file database, local-memory
cache, Celery tasks run eagerly. ``DATABASE_URL`` selects PostgreSQL (with
persistent connections) and ``REDIS_URL`` selects the Redis cache and a real
Celery broker. ``DEBUG`` is off unless asked; ``SECRET_KEY`` is then required.
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """A boolean environment variable: 1/true/yes/on are true."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG")
# Required when DEBUG is off: the server refuses to start without it (tournament/checks.py,
# tournament/wsgi.py); commands that never sign anything, such as checkmatch, run without it.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or ("dev-only-insecure-key" if DEBUG else "")

#: Where the Django admin is served ("admin/" by default); another path keeps it out of
#: sight of scanners that try /admin/. Empty or "off": no admin at all.
ADMIN_PATH = os.environ.get("ADMIN_PATH", "admin/").strip().strip("/")
ADMIN_PATH = "" if ADMIN_PATH.lower() == "off" else (ADMIN_PATH + "/" if ADMIN_PATH else "")
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
CSRF_FAILURE_VIEW = "tournament.web.error_pages.csrf_failure"  # a styled page, not a bare 403
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# Trusted reverse proxies in front of the app (the compose nginx: 1). Client addresses
# (throttles, the audit) are read from the right of X-Forwarded-For past that many hops;
# 0 uses REMOTE_ADDR and ignores the header, which any client can write.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0") or 0)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not a CDN
    "tournament",
    "matches",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tournament.web.edge.NulQueryMiddleware",
    "tournament.web.edge.PrivateLinkNoStoreMiddleware",
    "tournament.web.body_limit.BodyLimitMiddleware",  # before CSRF reads an oversized upload
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.web.language.LanguageMiddleware",  # after auth: the account's preference
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.web.local_time.TournamentTimeZoneMiddleware",  # the tournament's clock
    "tournament.web.error_pages.AppErrorMiddleware",  # a refusal no view caught: 4xx, not 500
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: SQLite by default; DATABASE_URL for PostgreSQL with persistent connections
# (a sqlite:/// URL names another SQLite file and keeps the embedded default's options).
# DATABASE_POOL_MODE=transaction when DATABASE_URL points at PgBouncer in transaction
# pooling (deploy/DEPLOY.md): consecutive transactions of one connection may then run on
# different server sessions, so nothing may outlive a transaction on the server side.
#: SQLite waits for a lock up to 20 s and takes the write lock when a transaction starts
#: (IMMEDIATE), so that two writers queue instead of one failing half-way ("database is locked").
SQLITE_OPTIONS = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASE_POOL_MODE = os.environ.get("DATABASE_POOL_MODE", "session").strip().lower() or "session"
if DATABASE_POOL_MODE not in {"session", "transaction"}:
    raise ValueError("DATABASE_POOL_MODE must be 'session' (the default) or 'transaction'")
TRANSACTION_POOLING = DATABASE_POOL_MODE == "transaction"


def database_options(*, transaction_pooling: bool, prepared: str | None) -> dict[str, object]:
    """The psycopg OPTIONS for a pool mode and ``DATABASE_PREPARED_STATEMENTS`` (or None).

    Prepared statements live in a server session: on by default, off under transaction
    pooling unless asked for (PgBouncer 1.21+ with ``max_prepared_statements`` tracks
    them). ``prepare_threshold: None`` is psycopg's "never prepare"; binding stays on
    the client then, as PgBouncer needs without that setting.
    """
    if prepared is None:
        wanted = not transaction_pooling
    else:
        wanted = prepared.strip().lower() in {"1", "true", "yes", "on"}
    if wanted:
        # PostgreSQL binds the parameters, and psycopg prepares a statement once a
        # connection has run it five times: a game report's lock is planned once per
        # connection, not per request (bench/RESULTS.md).
        return {"server_side_binding": True, "prepare_threshold": 5}
    return {"prepare_threshold": None}


if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=600, conn_health_checks=True)
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"] = {
            **SQLITE_OPTIONS,
            **DATABASES["default"].get("OPTIONS", {}),
        }
    else:
        DATABASES["default"]["OPTIONS"] = {
            **DATABASES["default"].get("OPTIONS", {}),
            **database_options(
                transaction_pooling=TRANSACTION_POOLING,
                prepared=os.environ.get("DATABASE_PREPARED_STATEMENTS"),
            ),
        }
        if TRANSACTION_POOLING:
            # Named cursors (.iterator()) are WITH HOLD cursors that outlive their
            # transaction: Django requires this under transaction pooling. Persistent
            # client connections stay (PgBouncer multiplexes them), health-checked.
            DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
        DATABASES["default"]["TEST"] = {
            # One test database per run, so that runs side by side do not collide.
            "NAME": os.environ.get("TEST_DATABASE_NAME", f"test_bgdirector_{os.getpid()}")
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache and Celery: Redis when REDIS_URL is set, otherwise in-process and eager.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "bgd")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",  # Django's, reusing its clients
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL or env_bool("CELERY_EAGER")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "bgdirector")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# GNU Backgammon's analysis of uploaded match files (matches/analysis/): a queue of its
# own, named after CELERY_QUEUE so that two stacks sharing one Redis never take each
# other's work; each gnubg pass is killed past ANALYSIS_TIMEOUT seconds (two passes a task).
GNUBG_PATH = os.environ.get("GNUBG_PATH", "")  # default: gnubg on PATH, else /usr/games/gnubg
ANALYSIS_TIMEOUT = int(os.environ.get("ANALYSIS_TIMEOUT", "900"))
ANALYSIS_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.analysis"
#: The analysis task's own limits: both passes, then a margin to store the figures.
ANALYSIS_TASK_TIME_LIMIT = 2 * ANALYSIS_TIMEOUT + 120
CELERY_TASK_ROUTES = {"tournament.tasks.analyse_match": {"queue": ANALYSIS_QUEUE}}
ANALYSIS_AUTO = env_bool("ANALYSIS_AUTO", True)  # analyse stored match files by themselves
# Without a broker (Celery eager) an analysis runs in a background thread of the web
# process after the commit, never inside the upload's request (tournament/tasks/analysis_thread.py).
ANALYSIS_IN_THREAD = env_bool("ANALYSIS_IN_THREAD", True)
# A fair share of the analysis queue: at most this many analyses of one tournament are
# on the queue or running; its others wait in the database and are released, oldest
# first, as its slots free (matches/services/analysis.py, analysis_release).
ANALYSIS_SLOTS_PER_TOURNAMENT = int(os.environ.get("ANALYSIS_SLOTS_PER_TOURNAMENT", "2"))
# A director's re-runs: per match and per director, in any hour (a re-run asked while
# one is queued or running is merged into it and costs nothing).
ANALYSIS_RERUNS_PER_MATCH_HOUR = int(os.environ.get("ANALYSIS_RERUNS_PER_MATCH_HOUR", "3"))
ANALYSIS_RERUNS_PER_DIRECTOR_HOUR = int(os.environ.get("ANALYSIS_RERUNS_PER_DIRECTOR_HOUR", "20"))
# Late acks: a message not acknowledged within the visibility timeout is delivered again.
# It must outlast the longest analysis (Redis' default of 300 s does not); the task is
# idempotent besides (a claimed analysis is not run twice).
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": max(300, ANALYSIS_TASK_TIME_LIMIT + 600),
    "socket_connect_timeout": 1,
}
# Before every broker key (queues, acks, control broadcasts): sites, or test runs, sharing a
# Redis database never see each other's tasks and workers.
if os.environ.get("CELERY_KEY_PREFIX"):
    CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = os.environ["CELERY_KEY_PREFIX"]
CELERY_TIMEZONE = "UTC"
# Two beats started by mistake send each periodic job once: a Redis lock per run
# (tournament/beat.py), under CACHE_KEY_PREFIX.
CELERY_BEAT_SCHEDULER = "tournament.beat.SingleRunScheduler"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Publishes again the outbox rows left behind (tournament/outbox.py): a dead node's
    # follow-up work runs within FIRST_LEASE + this period, about 7 s.
    "drain-outbox": {"task": "tournament.outbox.drain", "schedule": 2.0},
    "sweep-completed-matches": {
        "task": "tournament.tasks.sweep_completed_matches",
        "schedule": 60.0,
    },
    # Ratings, reminders and deadline rules (tournament/tasks/ratings.py, deadlines.py).
    "sweep-unrated-matches": {
        "task": "tournament.tasks.sweep_unrated_matches",
        "schedule": 300.0,
    },
    "send-deadline-reminders": {
        "task": "tournament.tasks.send_deadline_reminders",
        "schedule": 300.0,
    },
    "apply-deadlines": {"task": "tournament.tasks.apply_deadlines", "schedule": 60.0},
    # Analyses whose task was lost (broker down, worker gone) are queued again.
    "sweep-analyses": {"task": "tournament.tasks.sweep_analyses", "schedule": 300.0},
    # Reports' idempotency keys older than REPORT_KEY_HOURS (matches/services/idempotency.py).
    "sweep-report-keys": {"task": "tournament.tasks.sweep_report_keys", "schedule": 3600.0},
}
#: Hours a report's Idempotency-Key is kept (72 at the least: a weekend).
REPORT_KEY_HOURS = int(os.environ.get("REPORT_KEY_HOURS", "96"))

AUTH_USER_MODEL = "tournament.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Languages (issue 30; docs/how-it-works.md): one appears here only when its catalogue
# in locale/ is at least 90 % translated (tools/i18n_report.py). Which one a request
# gets: tournament.web.language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("da", "Dansk"),
    ("de", "Deutsch"),
    ("ja", "日本語"),
    ("tr", "Türkçe"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates, times and numbers in each language's own way (the pages name the formats).
FORMAT_MODULE_PATH = ["tournament.locale_formats"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True  # serve static files without collectstatic (make run, tests)
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", str(BASE_DIR / "media")))
MEDIA_URL = "media/"
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# Result reporting: the largest match file accepted; bench-only endpoints (make bench).
MATCH_FILE_MAX_BYTES = int(os.environ.get("MATCH_FILE_MAX_BYTES", "1048576"))
BENCH_ENDPOINTS = env_bool("BENCH_ENDPOINTS")
# Report endpoints (/r/<key>/..., /api/matches/<id>/games/ ...): requests per link (key,
# account or address) and rejected reports per link and hour whose content is stored.
REPORT_LINK_RATE = os.environ.get("REPORT_LINK_RATE", "120/min")
REPORT_REJECTED_KEPT_PER_HOUR = int(os.environ.get("REPORT_REJECTED_KEPT_PER_HOUR", "60"))
# Public sign-up (the form and POST /api/events/<id>/signup/): sign-ups per client address.
SIGNUP_RATE = os.environ.get("SIGNUP_RATE", "10/h")
# Sign-up mails (the link to confirm, "already signed up") one address gets in a day.
SIGNUP_MAILS_PER_ADDRESS_DAY = int(os.environ.get("SIGNUP_MAILS_PER_ADDRESS_DAY", "3"))
# "Email this player" from the console: seconds between two mails of one link, and the
# most one link gets in a day.
LINK_EMAIL_COOLDOWN = int(os.environ.get("LINK_EMAIL_COOLDOWN", "600"))
LINK_EMAILS_PER_DAY = int(os.environ.get("LINK_EMAILS_PER_DAY", "5"))
# Seconds a proxy in front (deploy/nginx.conf's edge cache) may keep a public page or
# live fragment served to an anonymous visitor (X-Accel-Expires); 0: never.
EDGE_CACHE_SECONDS = int(os.environ.get("EDGE_CACHE_SECONDS", "2"))

# Email: the console by default; SMTP when EMAIL_HOST is set. Sent by tasks, never in a request.
if os.environ.get("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "director@localhost")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "tournament.api.json_parser.DepthLimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "tournament.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"login": "10/min"},
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Backgammon Tournament Director API",
    "DESCRIPTION": "Events, brackets, matches and game-by-game results.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the drf-spectacular-sidecar package (static files, pinned), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournament.api.schema.document_unparsable_bodies",
    ],
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournament.models.Event.Status",
        "EventKindEnum": "tournament.models.Event.Kind",
        "EntryStatusEnum": "tournament.models.Entry.Status",
        "RoundStatusEnum": "tournament.models.Round.Status",
        "MatchStatusEnum": "matches.models.Match.Status",
        "SubmissionStatusEnum": "matches.models.Submission.Status",
        "SubmissionKindEnum": "matches.models.Submission.Kind",
        "GameResultEnum": "matches.models.Game.Result",
        "GameEndedByEnum": "matches.models.Game.EndedBy",
        "ReportResultEnum": ["single", "gammon", "backgammon"],
        "ReportEndedByEnum": ["play", "drop", "resign"],
        "AnalysisStatusEnum": ["none", "queued", "running", "done", "failed", "unavailable"],
        "LanguageEnum": [code for code, _name in LANGUAGES],
    },
}

# Content-Security-Policy on every response (Django's own middleware): scripts and
# styles from this site only (htmx and Swagger UI are vendored); style attributes are
# allowed (bar widths in the brackets), inline scripts are not.
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Served over HTTPS (deploy/nginx.conf): cookies only over TLS unless SECURE_COOKIES=0
    # (a plain-HTTP trial only), HSTS; nginx redirects plain HTTP, and with
    # SECURE_SSL_REDIRECT=1 (the compose settings) Django does too.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    LANGUAGE_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container's own health probe is plain HTTP
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
    # Preloading is the operator's decision for their whole domain: not asked for here.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"private_links": {"()": "tournament.web.access_log.MaskPrivateLinks"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["private_links"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
