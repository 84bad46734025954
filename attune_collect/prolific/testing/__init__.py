"""A local Prolific API server for tests and the demo (``prolific_server.py``)."""
