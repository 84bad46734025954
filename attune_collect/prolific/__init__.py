"""Prolific's researcher API: a small client (no Django) and a local test server (``testing/``).

The Django side (``annotations/prolific/``) reads the token and calls this client; nothing here
knows about studies or participants in the database.
"""
