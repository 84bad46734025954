"""What the benchmark scripts share: the project on sys.path, Django on a scratch database.

Every script runs as ``python benchmarks/<name>.py``, so this folder is on sys.path and the
scripts import this module as ``_setup``; importing it puts the project root there as well.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def argument_parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser whose --help is the script's docstring, line breaks kept."""
    return argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def add_database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database-url",
        help="Scratch PostgreSQL database, flushed and migrated (default: SQLite in a temp folder)",
    )


def setup_django(data_dir: Path, database_url: str | None, *, without_redis: bool = False) -> None:
    """Django with its data in ``data_dir`` and the database given (else SQLite in there).

    A DATABASE_URL of the environment is dropped so that a benchmark never writes to a real
    database by accident; ``without_redis`` drops REDIS_URL too (local cache and broker).
    """
    os.environ["ATTUNE_DATA_DIR"] = str(data_dir)
    os.environ.pop("DATABASE_URL", None)
    if without_redis:
        os.environ.pop("REDIS_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "attune_collect.settings")
    import django

    django.setup()


def scratch_django(prefix: str, database_url: str | None, *, without_redis: bool = False) -> Path:
    """A fresh temp folder, Django set up with its data in ``<folder>/data`` and the database
    migrated; returns the folder (the rest of it is the script's).

    A scratch PostgreSQL database is flushed first; a new SQLite one starts empty.
    """
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    setup_django(workdir / "data", database_url, without_redis=without_redis)
    from django.core.management import call_command

    if database_url:
        call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)
    return workdir


def start_celery_worker(
    directory: Path,
    env: Mapping[str, str],
    *,
    name: str = "bench",
    pool: str = "solo",
    concurrency: int = 1,
) -> subprocess.Popen:
    """A Celery worker of the platform checked out in ``directory``, as production runs it, on
    the database and broker ``env`` names."""
    from attune_collect.worker_process import worker_command

    # cwd: the worker imports the platform of ``directory`` (a variant's own checkout).
    return subprocess.Popen(
        worker_command(name, pool=pool, concurrency=concurrency),
        cwd=directory,
        env=dict(env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
