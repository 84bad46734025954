"""Django settings for Attune, read from the environment (see ``attune_collect/env.py``).

With no configuration at all the platform runs as an embedded development setup: SQLite in
``data/`` and Celery on a filesystem broker in ``data/celery-broker`` (a real worker process,
no Redis). Production is configured with these variables:

=============================  =================================================================
``DJANGO_DEBUG``               ``true`` (default) or ``false``: the production profile.
``DJANGO_SECRET_KEY``          required when DEBUG is false (or ``DJANGO_SECRET_KEY_FILE``).
``DJANGO_ALLOWED_HOSTS``       comma-separated host names (required when DEBUG is false).
``DJANGO_CSRF_TRUSTED_ORIGINS`` comma-separated origins, e.g. ``https://attune.example.org``.
``DJANGO_SECURE_SSL_REDIRECT`` ``true`` (default in production) unless a proxy redirects.
``DJANGO_HSTS_SECONDS``        production only: HSTS max-age in seconds (one year; 0 turns it off).
``DATABASE_URL``               ``postgres://user:pass@host:5432/name``; default SQLite.
``REDIS_URL``                  ``redis://host:6379/0``: Celery broker, results and the cache.
``CELERY_BROKER_URL``          overrides the broker only (e.g. ``amqp://``).
``ATTUNE_DATA_DIR``            where SQLite, the embedded broker and releases live (``data/``).
``ATTUNE_RELEASES_DIR``        where release folders and archives are written (``<data>/releases``).
``ATTUNE_EVALUATIONS_DIR``     evaluation report folders and the call cache (``<data>/evaluations``).
``ATTUNE_RELEASE_CHUNK_SIZE``  conversations per chunk of a release build (500).
``ATTUNE_PSEUDONYM_SALT``      secret salt for participant pseudonyms in releases (or ``_FILE``).
``ATTUNE_LOG_LEVEL``           ``INFO`` by default.
``ATTUNE_DB_POOL_SIZE``        PostgreSQL connections per process at most (20).
``ATTUNE_DB_SERVER_SIDE_BINDING`` PostgreSQL: parameters bound by the server, repeated statements
                               prepared (``true``); ``false`` behind PgBouncer in transaction mode.
``ATTUNE_IMPROVED_REPLY_TIMEOUT_S`` seconds an A/B comparison waits for the improved reply (90).
``ATTUNE_CHAT_TURN_LEASE_S``   seconds a streaming turn's lease lasts unless renewed (30).
``ATTUNE_MAX_STREAMS_PER_ADDRESS`` chat streams open at once from one client address (20).
``ATTUNE_UNCLAIMED_REQUEUE_S`` seconds before queued work nobody claimed is sent again (120).
``ATTUNE_RELEASE_BUILD_LEASE_S`` seconds a release build's claim lasts unless renewed (300).
``ATTUNE_BROKER_VISIBILITY_TIMEOUT_S`` Redis broker: redelivery of unacknowledged messages (6 h).
``ATTUNE_SSE_KEEPALIVE_S``     seconds of model silence before a chat stream sends an SSE comment (15).
``ATTUNE_EVALUATION_UNIT_LEASE_S`` seconds an evaluation unit's claim holds without a heartbeat (120).
``ATTUNE_EVALUATION_UNIT_MAX_FAILURES`` failed attempts before an evaluation unit counts as failed (3).
``ATTUNE_EVALUATION_REDIS_PREFIX`` Redis key prefix of the call cache and rate limits
                               (``attune:evaluation:``).
``ATTUNE_EVALUATION_QUEUE``    Celery queue of evaluation tasks (the default queue), e.g. for
                               workers of their own.
``ATTUNE_GC_THRESHOLD``        web process only: garbage collector thresholds, ``50000,20,20``
                               by default (``attune_collect/web_process.py``).
``ATTUNE_GIL_SWITCH_INTERVAL_MS`` web process only: Python's thread switch interval in whole
                               milliseconds, 1 by default (``attune_collect/web_process.py``).
``ATTUNE_RISK_ARTEFACT``       the learned risk check's English artefact (the packaged
                               ``annotations/text_checks/risk_model.json``); read by the pure
                               ``annotations/text_checks/risk.py`` itself, not through settings.
``ATTUNE_RISK_ARTEFACT_<LANG>`` another language's (``_ES``, ``_DE``: the packaged
                               ``risk_model.es.json``, ``risk_model.de.json``; a new one adds
                               a language).
``ATTUNE_DRAFT_MAX_COUNT``     drafts a participant may keep at once (20).
``ATTUNE_DRAFT_MAX_TOTAL_KIB`` KiB of JSON a participant's drafts may hold in all (256).
``ATTUNE_WEBHOOK_TIMEOUT_S``  seconds a webhook delivery waits for the receiver's answer (10).
``ATTUNE_WEBHOOK_MAX_ATTEMPTS`` attempts of a webhook delivery before it counts as failed (6).
``ATTUNE_WEBHOOK_BACKOFF_S``  seconds before a webhook's second attempt, doubled for each next (30).
``ATTUNE_PERSONAL_DETAILS_ENDPOINT`` the alias of the model endpoint that also looks for names
                               and places in a scan for personal details (off when empty, the default).
``ATTUNE_SITE_URL``            the platform's address for links in emails
                               (``http://localhost:8000``).
``ATTUNE_API_KEY_ENV_PATTERN`` the regex a model endpoint's key variable must match whole
                               (``[A-Z][A-Z0-9_]*_(API_KEY|TOKEN)``); the platform's own variables
                               (``DJANGO_*``, ``ATTUNE_*``, ``CELERY_*``, ``AWS_*``, ``DATABASE_URL``,
                               ``REDIS_URL``) are refused whatever it says.
``ATTUNE_API_KEY_ENV_ALLOWED`` comma-separated key variable names allowed besides the pattern,
                               even one of the platform's own (none).
``ATTUNE_TRUSTED_PROXIES``     comma-separated addresses or CIDR networks of the reverse proxies
                               in front of the web processes (none: no ``X-Forwarded-For`` is
                               trusted). A request from one of them counts as the rightmost
                               forwarded address that is not a trusted proxy
                               (``attune_collect/client_address.py``): set it when a proxy is put
                               in front, or every participant shares the proxy's start limit.
``ATTUNE_STUDY_STARTS_PER_MINUTE`` calls to one study's start link admitted per minute from all
                               addresses together (120); each address has its own limit besides.
``DJANGO_EMAIL_BACKEND``       Django's email backend: the console backend when DEBUG is true (the
                               demo prints the risk alerts), SMTP in production.
``EMAIL_HOST`` / ``EMAIL_PORT`` / ``EMAIL_HOST_USER`` / ``EMAIL_HOST_PASSWORD`` (or ``_FILE``) /
``EMAIL_USE_TLS``              the SMTP server (smtp backend); ``EMAIL_FILE_PATH`` (filebased).
``DEFAULT_FROM_EMAIL``         the sender of the alerts (``attune@localhost``).
=============================  =================================================================

The ``ATTUNE_*`` settings of the platform itself are read once into one typed record,
``settings.ATTUNE`` (``attune_collect/config.py``, where their defaults live); services read it
with ``attune_config()``.

Model provider keys are never settings: a model endpoint names the environment variable that
holds its key, and only the LLM gateway reads it at call time, if the name is allowed
(``ATTUNE_API_KEY_ENV_PATTERN``, ``ATTUNE_API_KEY_ENV_ALLOWED``).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from attune_collect.config import AttuneConfig, install_key_env_policy, read_environment
from attune_collect.env import (
    EnvironmentConfigError,
    env_bool,
    env_int,
    env_list,
    env_secret,
    env_str,
    env_url,
)
from attune_collect.llm._litellm import apply_offline_environment

# litellm must never reach the internet (price list, tokenizers) and must not read a .env file:
# every process that loads these settings (web, worker, manage.py) gets its offline variables
# here, before anything can import it. The list is the gateway's (attune_collect/llm/_litellm.py).
apply_offline_environment()

BASE_DIR = Path(__file__).resolve().parent.parent

try:
    DEBUG = env_bool("DJANGO_DEBUG", True)
    DATA_DIR = Path(env_str("ATTUNE_DATA_DIR", str(BASE_DIR / "data"))).resolve()
    _secret = env_secret("DJANGO_SECRET_KEY")
    _database_url = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
    REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
    _broker_override = env_str("CELERY_BROKER_URL")
    _pseudonym_salt = env_secret("ATTUNE_PSEUDONYM_SALT")
    _allowed_hosts = env_list("DJANGO_ALLOWED_HOSTS")
    CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
    _ssl_redirect = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
    _hsts_seconds = env_int("DJANGO_HSTS_SECONDS", 31_536_000, minimum=0)
    LOG_LEVEL = env_str("ATTUNE_LOG_LEVEL", "INFO").upper()
    # The platform's own settings, typed and read once (attune_collect/config.py): services
    # read them with attune_config(), never with defaults of their own.
    ATTUNE: AttuneConfig = read_environment(DATA_DIR)
except EnvironmentConfigError as exc:
    raise ImproperlyConfigured(str(exc)) from None
# The gateway reads the key policy from settings.ATTUNE at every call (a test's override too).
install_key_env_policy()

DATA_DIR.mkdir(parents=True, exist_ok=True)

if _secret is None and not DEBUG:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY (or DJANGO_SECRET_KEY_FILE) is required when DJANGO_DEBUG=false"
    )
# The development key is public on purpose: it only ever signs local demo sessions.
SECRET_KEY = _secret or "django-insecure-attune-development-key-never-use-in-production"

if not DEBUG and not _allowed_hosts:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS is required when DJANGO_DEBUG=false")
ALLOWED_HOSTS = _allowed_hosts or ["localhost", "127.0.0.1", "[::1]", "testserver"]

if _pseudonym_salt is None and not DEBUG:
    raise ImproperlyConfigured(
        "ATTUNE_PSEUDONYM_SALT (or ATTUNE_PSEUDONYM_SALT_FILE) is required when DJANGO_DEBUG=false"
    )
# Stable across releases: changing it re-identifies nobody but breaks links between releases.
PSEUDONYM_SALT = _pseudonym_salt or "attune-development-salt"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "annotations",
    "annotations.releases",
    "evaluation",
    "annotations.qa",
    "annotations.prolific",  # no models of its own: its admin page and tasks (docs/prolific.md)
    "researcher_api",
    "webhooks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "attune_collect.static_files.AsyncCapableWhiteNoiseMiddleware",  # WhiteNoise, async-capable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "attune_collect.urls"
WSGI_APPLICATION = "attune_collect.wsgi.application"
ASGI_APPLICATION = "attune_collect.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "attune_collect" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

# --- database ---------------------------------------------------------------------------------
_SQLITE_OPTIONS = {
    # Measured to hold 200 concurrent writers: immediate transactions avoid lock upgrades.
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if _database_url and not _database_url.startswith("sqlite"):
    # A connection pool per process (psycopg_pool), not persistent connections: under uvicorn
    # every synchronous request runs in a thread of its own, so a connection kept by a thread
    # (CONN_MAX_AGE) was never reused and each request opened a new PostgreSQL connection (a
    # server process forked per request). Closing a connection now hands it back to the pool.
    # (The chat load benchmark's PostgreSQL tail did not measurably change with it.)
    _postgres = dj_database_url.parse(_database_url, conn_max_age=0)
    _postgres["ENGINE"] = "django.db.backends.postgresql"
    _postgres.setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("ATTUNE_DB_POOL_SIZE", 20, minimum=1),
        "timeout": 30,  # seconds a request waits for a free connection before it fails
    }
    # Parameters sent apart from the query and bound by the server, so psycopg prepares a
    # statement a connection has run 5 times (its default) and PostgreSQL parses and plans it
    # once: the chat's statements repeat on every message. Measured with chat_load.py (issue 16,
    # docs/benchmarks.md): about a tenth less platform CPU per message at 200 streams. A pooler that shares
    # server connections between clients per transaction cannot keep prepared statements.
    _postgres["OPTIONS"]["server_side_binding"] = env_bool("ATTUNE_DB_SERVER_SIDE_BINDING", True)
    DATABASES = {"default": _postgres}
else:
    _sqlite = dj_database_url.parse(_database_url) if _database_url else {}
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _sqlite.get("NAME") or str(DATA_DIR / "attune.sqlite3"),
            "OPTIONS": _SQLITE_OPTIONS,
            # A file, not memory, so a worker process started by a test sees the same data.
            "TEST": {"NAME": str(DATA_DIR / "test-attune.sqlite3")},
        }
    }
DATABASE_IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache ------------------------------------------------------------------------------------
if REDIS_URL:
    CACHES = {
        # Django's RedisCache with one connection pool per process (attune_collect/cache.py).
        "default": {"BACKEND": "attune_collect.cache.SharedRedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery -----------------------------------------------------------------------------------
CELERY_BROKER_DIR = DATA_DIR / "celery-broker"
if _broker_override:
    CELERY_BROKER_URL = _broker_override
elif REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    # The embedded broker: messages are files, so a worker process needs no server at all.
    CELERY_BROKER_URL = "filesystem://"
    for _sub in ("queue", "processed", "control"):
        (CELERY_BROKER_DIR / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "queue"),
        "data_folder_out": str(CELERY_BROKER_DIR / "queue"),
        "processed_folder": str(CELERY_BROKER_DIR / "processed"),
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
# Progress and results live in our own tables; the Redis result backend is only a convenience.
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_IGNORE_RESULT = not REDIS_URL
# Killed workers (docs/architecture.md, "Killed workers"): a message is acknowledged only when
# its task ends, a worker takes one message per free process and reserves none ahead on Redis
# (a reserved message of a killed worker would wait for Redis's visibility timeout), and the
# timeout is longer than any task, so a live worker's task is never delivered twice. Recovery
# from a killed worker is the sweep's job (attune_collect/sweep.py), within minutes.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_DISABLE_PREFETCH = CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
if CELERY_WORKER_DISABLE_PREFETCH:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("ATTUNE_BROKER_VISIBILITY_TIMEOUT_S", 6 * 3600, minimum=60)
    }
CELERY_TASK_ALWAYS_EAGER = False  # a task never runs inside the web request
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- auth, i18n, static -----------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns on every request when it is missing
STATICFILES_DIRS = [d for d in [BASE_DIR / "frontend" / "dist"] if d.exists()]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = DATA_DIR / "media"

# --- REST API ---------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAdminUser"],
}
SPECTACULAR_SETTINGS = {
    # 3.1, not 3.2: code generators refuse 3.2 (openapi-python-client: "Only OpenAPI versions
    # 3.1.* are supported"; tests/participant/test_generated_client.py). Before 3.2 an event
    # stream's `schema` describes one event (3.2 would call it `itemSchema`), which is how
    # Schemathesis reads the chat stream; its data lines carry a contentSchema.
    "OAS_VERSION": "3.1.0",
    "TITLE": "Attune API",
    "DESCRIPTION": "Participant study and research API of the Attune platform.",
    "VERSION": "0.1.0",
    # Stable names for the enums the participant app's generated types use
    # (frontend/src/api/schema.d.ts): without them a name follows the serializer field.
    "ENUM_NAME_OVERRIDES": {
        "StepEnum": "annotations.services.progress.Step",
        "TurnStatusEnum": "annotations.models.TurnStatus",
        "ImprovedStatusEnum": "annotations.models.ImprovedStatus",
        "FailureReasonEnum": "annotations.participant_api.stream_events.FAILURE_REASONS",
        "AttentionOptionEnum": "annotations.models.study.ATTENTION_OPTIONS",
    },
    # The researcher API (/api/v1/) has a document of its own (researcher_api/schema.py).
    "PREPROCESSING_HOOKS": ["researcher_api.schema.without_researcher_api"],
    # The schema states that request strings take no NUL character (refused with 400).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "annotations.participant_api.json_limits.no_nul_in_request_strings",
    ],
}

# --- security ---------------------------------------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CSP = {
    "default-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "style-src": ["'self'", "'unsafe-inline'"],  # the Django admin uses inline styles
    "script-src": ["'self'"],
    "frame-ancestors": ["'none'"],
}
if not DEBUG:
    SECURE_SSL_REDIRECT = _ssl_redirect
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = _hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"LiteLLM": {"level": "WARNING"}, "httpx": {"level": "WARNING"}},
}

# --- email -------------------------------------------------------------------------------------
# Email: the risk alerts to a study's safety contacts (annotations/qa/services/risk_alerts.py).
# Django 6.1's MAILERS (EMAIL_BACKEND and EMAIL_HOST are deprecated); the options each backend
# takes differ, so only the chosen backend's are passed.
# The console backend prints the alerts in development (the demo); production defaults to SMTP,
# since a console "sent" alert would reach nobody (and `check --deploy` refuses it).
_email_backend = env_str(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_email_options: dict[str, object] = {}
if _email_backend.endswith("smtp.EmailBackend"):
    _email_options = {
        "host": env_str("EMAIL_HOST", "localhost"),
        "port": env_int("EMAIL_PORT", 25, minimum=1),
        "username": env_str("EMAIL_HOST_USER", ""),
        "password": env_secret("EMAIL_HOST_PASSWORD") or "",
        "use_tls": env_bool("EMAIL_USE_TLS", False),
        "timeout": 20,
    }
elif _email_backend.endswith("filebased.EmailBackend"):
    _email_options = {"file_path": env_str("EMAIL_FILE_PATH", str(DATA_DIR / "emails"))}
MAILERS = {"default": {"BACKEND": _email_backend, "OPTIONS": _email_options}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "attune@localhost")
