"""Fixtures of the researcher API tests: two studies (the personas' own, the demo study, and
another), each with a conversation, a frozen release and an evaluation run with a report;
personas limited to the own study; tokens for them."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from annotations.demo import ensure_demo_endpoints, seed_demo
from annotations.models import Study
from annotations.qa.models import StudyMembership
from annotations.releases.models import Release
from annotations.releases.services import build_release, create_release
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services.creation import create_run
from evaluation.services.planning import RunRequest
from researcher_api.models import ApiToken
from researcher_api.tokens import TOKEN_PREFIX, digest_of, issue_token
from tests.factories import make_conversation, make_study

ROLE_OF = {"researcher": "researcher", "reviewer": "qa_reviewer", "viewer": "viewer"}


@pytest.fixture(autouse=True)
def scratch_dirs(settings, tmp_path):
    settings.ATTUNE = replace(
        settings.ATTUNE,
        evaluations_dir=tmp_path / "evaluations",
        releases_dir=tmp_path / "releases",
    )


def mint(user, studies, scope: str = "read", expires_in: timedelta = timedelta(days=1)) -> str:
    """A token of ``user``: issued by the service for staff; for a non-staff user (who cannot
    be issued one) written by hand, to show that it still grants nothing."""
    expires_at = timezone.now() + expires_in
    if user.is_staff:
        return issue_token(
            user=user, name="test", studies=studies, scope=scope, expires_at=expires_at
        ).value
    value = f"{TOKEN_PREFIX}{secrets.token_hex(4)}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(
        user=user,
        name="by hand",
        prefix=value[4:12],
        digest=digest_of(value),
        scope=scope,
        expires_at=expires_at,
    )
    token.studies.set(studies)
    return value


def api(value: str | None) -> Client:
    headers = {} if value is None else {"Authorization": f"Bearer {value}"}
    return Client(headers=headers)


@dataclass
class Side:
    study: Study
    conversation_id: int
    release: Release
    run: EvaluationRun


def _release(study: Study, name: str) -> Release:
    release = create_release(
        name=name, version="1.0.0", studies=[study], subsample_sizes=[], actor_label="test"
    )
    return build_release(release.pk)


def _run(release: Release, tmp: Path) -> EvaluationRun:
    listener = next(e for e in ensure_demo_endpoints() if e.model_name == "listener")
    run = create_run(RunRequest(release=release, models=(listener,)), actor_label="test")
    folder = tmp / f"report-{run.pk}"
    folder.mkdir()
    (folder / "report.json").write_text(json.dumps({"leaderboard": [], "run": run.pk}))
    EvaluationRun.objects.filter(pk=run.pk).update(
        status=RunStatus.COMPLETED, report_folder=str(folder)
    )
    run.refresh_from_db()
    return run


@pytest.fixture
def sides(db, sent_tasks, tmp_path) -> dict[str, Side]:
    """``own``: the demo study (the personas' own); ``other``: a study none of them is in."""
    own = seed_demo(3, seed=5, actor_label="test").study
    other = make_study(slug="other-study", title="Other")
    make_conversation(other)
    result = {}
    for key, study, name in (("own", own, "own-bench"), ("other", other, "other-bench")):
        release = _release(study, name)
        result[key] = Side(
            study=study,
            conversation_id=study.conversations.values_list("pk", flat=True)[0],
            release=release,
            run=_run(release, tmp_path),
        )
    return result


@pytest.fixture
def personas(researcher, reviewer, viewer, outsider, sides):
    """The shared personas, each limited to the own study in their role."""
    for user in (researcher, reviewer, viewer):
        StudyMembership.objects.create(
            user=user, study=sides["own"].study, role=ROLE_OF[user.username]
        )
    return {"researcher": researcher, "reviewer": reviewer, "viewer": viewer, "outsider": outsider}
