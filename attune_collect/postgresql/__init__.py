"""Django's PostgreSQL backend with writes that ride the COMMIT (``attune_collect/commit_tail.py``).

``DATABASES["default"]["ENGINE"] = "attune_collect.postgresql"``; everything else is Django's.
"""
