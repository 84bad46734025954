"""Settings profiles, checked in fresh processes: embedded default, PostgreSQL/Redis, production."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'broker': s.CELERY_BROKER_URL, "
    "'cache': s.CACHES['default']['BACKEND'], 'debug': s.DEBUG, 'eager': s.CELERY_TASK_ALWAYS_EAGER}))"
)


def run(code_or_args, env_overrides: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "attune_collect.settings",
            "ATTUNE_DATA_DIR": str(tmp_path / "data"),
        }
    )
    env.update(env_overrides)
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else code_or_args
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def probe(env_overrides, tmp_path) -> dict:
    result = run(PROBE, env_overrides, tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_no_configuration_means_sqlite_and_the_embedded_broker(tmp_path):
    found = probe({}, tmp_path)
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["broker"] == "filesystem://"
    assert found["eager"] is False  # tasks run in a worker process, never in the request
    assert (tmp_path / "data" / "celery-broker" / "queue").is_dir()


def test_database_and_redis_urls_switch_to_postgres_and_redis(tmp_path):
    found = probe(
        {"DATABASE_URL": "postgres://u@db:5432/attune", "REDIS_URL": "redis://cache:6379/0"},
        tmp_path,
    )
    assert found["engine"] == "django.db.backends.postgresql"  # Django's own, with the pool
    assert found["broker"] == "redis://cache:6379/0"
    assert found["cache"] == "attune_collect.cache.SharedRedisCache"


PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_ALLOWED_HOSTS": "attune.example.org",
    "ATTUNE_PSEUDONYM_SALT": "a-long-random-salt-for-pseudonyms",
}


def test_production_profile_passes_check_deploy_without_warnings(tmp_path):
    secret_file = tmp_path / "secret_key"
    secret_file.write_text(
        "x" * 30 + "-a-long-and-random-production-secret-key-9f8e7d6c5b4a\n", encoding="utf-8"
    )
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        {**PRODUCTION, "DJANGO_SECRET_KEY_FILE": str(secret_file)},
        tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_without_a_secret_refuses_to_start(tmp_path):
    result = run(["manage.py", "check"], PRODUCTION, tmp_path)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY (or DJANGO_SECRET_KEY_FILE) is required" in result.stderr


def test_a_typo_in_a_setting_stops_with_a_clear_message(tmp_path):
    result = run(["manage.py", "check"], {"DJANGO_DEBUG": "flase"}, tmp_path)
    assert result.returncode != 0
    assert "DJANGO_DEBUG='flase' is not a boolean" in result.stderr


BINDING = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DATABASES['default']['OPTIONS']['server_side_binding'])"
)


def test_postgres_binds_parameters_on_the_server_unless_turned_off(tmp_path):
    # On by default: the chat's repeated statements are prepared (docs/benchmarks.md, issue 16);
    # off for a pooler in transaction mode, which cannot keep prepared statements.
    postgres = {"DATABASE_URL": "postgres://u@db:5432/attune"}
    on = run(BINDING, postgres, tmp_path)
    off = run(BINDING, {**postgres, "ATTUNE_DB_SERVER_SIDE_BINDING": "false"}, tmp_path)
    assert (on.returncode, off.returncode) == (0, 0), on.stderr + off.stderr
    assert on.stdout.split()[-1] == "True"
    assert off.stdout.split()[-1] == "False"
