"""Fixtures borrowed for the package tests: the evaluation tests' (scratch folders, a frozen
demo release, the demo models: the package's report is checked against the admin's) and the
engine tests' (a release folder, the local OpenAI-compatible server answering in JSON)."""

from tests.engine.conftest import (  # noqa: F401  (pytest fixtures)
    _engine_server,
    conversations,
    executor,
    fake_gateway,
    json_server,
    release_dir,
)
from tests.evaluation.conftest import (  # noqa: F401  (pytest fixtures)
    demo_models,
    demo_release,
    evaluation_dirs,
    redis_prefix,
)
