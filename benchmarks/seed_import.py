"""Seconds to seed and to import N AttuneBench conversations (default 1,000).

    .venv/bin/python benchmarks/seed_import.py [--conversations N] [--database-url URL]

Runs in a fresh data folder (SQLite by default, or the database URL given, which must point at
a scratch database: it is flushed, migrated and written to). Prints one line per step and a
summary.
"""

from __future__ import annotations

import time

from _setup import add_database_option, argument_parser, scratch_django


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--conversations", type=int, default=1000)
    add_database_option(parser)
    args = parser.parse_args()

    workdir = scratch_django("attune-bench-", args.database_url)
    from django.db import connection

    from annotations.demo import seed_demo
    from annotations.interchange.exporter import export_study
    from annotations.interchange.importer import import_folder
    from annotations.models import Study

    n = args.conversations
    print(f"database: {connection.vendor}, conversations: {n}")

    started = time.perf_counter()
    report = seed_demo(n, seed=1)
    seed_seconds = time.perf_counter() - started
    print(
        f"seed_demo: {report.created} conversations in {seed_seconds:.2f} s ({n / seed_seconds:.0f}/s)"
    )

    folder = workdir / "export"
    started = time.perf_counter()
    exported = export_study(Study.objects.get(slug="demo"), folder)
    export_seconds = time.perf_counter() - started
    print(f"export_attunebench: {exported.written} files in {export_seconds:.2f} s")

    started = time.perf_counter()
    imported = import_folder(folder, "bench-import")
    import_seconds = time.perf_counter() - started
    print(
        f"import_attunebench: {len(imported.imported)} conversations in {import_seconds:.2f} s ({n / import_seconds:.0f}/s)"
    )
    print(
        f"SUMMARY seed={seed_seconds:.2f}s export={export_seconds:.2f}s import={import_seconds:.2f}s n={n} db={connection.vendor}"
    )


if __name__ == "__main__":
    main()
