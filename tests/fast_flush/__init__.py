"""A test-run-only app whose ``flush`` command empties PostgreSQL tables with ``DELETE`` instead
of one ``TRUNCATE`` of every table (``tests/settings.py`` installs it first, so its command is the
one Django's ``TransactionTestCase`` calls after every transactional test)."""
