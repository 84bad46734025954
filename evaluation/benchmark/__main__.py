"""``python -m evaluation.benchmark run|score ...``: see cli.py."""

from evaluation.benchmark.cli import main

raise SystemExit(main())
