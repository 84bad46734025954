"""Services send tasks by name (the apps' dispatch modules); a name no worker registers would
be sent into the void. Every name the dispatch modules declare is a task the workers register
(through the same imports a worker makes at start), and every task of ours has a name there."""

from types import ModuleType

import pytest

from annotations import dispatch as annotations_dispatch
from attune_collect import dispatch as platform_dispatch
from attune_collect.celery import app
from evaluation import dispatch as evaluation_dispatch
from webhooks import dispatch as webhooks_dispatch

DISPATCH_MODULES = (annotations_dispatch, evaluation_dispatch, platform_dispatch, webhooks_dispatch)


def declared_names(module: ModuleType) -> set[str]:
    return {
        value
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, str) and "." in value
    }


@pytest.fixture(scope="module")
def registered() -> set[str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CELERY_SKIP_CHECKS", "1")  # Django's system checks: not the point here
        app.loader.import_default_modules()  # what a worker imports before it consumes
    return {name for name in app.tasks if not name.startswith("celery.")}


def test_the_dispatch_modules_declare_names():
    assert declared_names(annotations_dispatch) == {
        "annotations.improve_reply",
        "qa.compute_flags",
        "qa.risk_alert",
        "safety.moderate_message",
        "safety.read_message_risk",
        "releases.build",
        "prolific.sync",
        "prolific.sync_all",
        "prolific.settle",
        "qa.scan_personal_details",
        "qa.scan_study_personal_details",
    }
    assert declared_names(evaluation_dispatch) == {
        "evaluation.start_run",
        "evaluation.run_unit",
        "evaluation.finalize_run",
    }
    assert declared_names(platform_dispatch) == {"attune.heartbeat"}
    assert declared_names(webhooks_dispatch) == {"webhooks.deliver"}


def test_every_declared_name_is_a_registered_task(registered):
    declared = set().union(*(declared_names(m) for m in DISPATCH_MODULES))
    assert declared - registered == set()


def test_every_registered_task_is_declared(registered):
    declared = set().union(*(declared_names(m) for m in DISPATCH_MODULES))
    assert registered - declared == set()
