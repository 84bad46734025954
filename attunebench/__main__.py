"""``python -m attunebench run|score ...``: see cli.py."""

from attunebench.cli import main

raise SystemExit(main())
