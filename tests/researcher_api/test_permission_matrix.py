"""The researcher API's permission matrix: every endpoint, for each persona limited to the own
study in their role (researcher, QA reviewer, viewer) and an outsider, with a read token and a
write token of the own study, on a row of the own study and one of another study.

What each role may do comes from annotations/qa/roles.py (restated here, so a change there is
a decision this test makes visible):
- researcher: everything;
- QA reviewer: the monitor and the QA progress only;
- viewer: every read but message content (``qa.export_data``) and the archive
  (``releases.download_release``);
- outsider (no staff role): nothing.

Expected: the endpoint's status when allowed; 403 when the row is visible to the user but the
permission (or a write token) is missing; 404 when the row is not visible (another study's, or
a release or run the role cannot view); a list answers 200 with only the own study's rows, or
403 to a role without its view permission.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.researcher_api.conftest import Side, api, mint

ALL = "*"
ROLE_PERMS: dict[str, set[str]] = {
    "researcher": {ALL},
    "reviewer": {"qa.view_conversationreview", "qa.view_monitoring"},
    "viewer": {
        "annotations.view_study",
        "annotations.view_participant",
        "annotations.view_conversation",
        "qa.view_monitoring",
        "qa.view_conversationreview",
        "releases.view_release",
        "evaluation.view_evaluationrun",
        "evaluation.view_report",
    },
    "outsider": set(),
}
# What makes a row visible, by the kind of row an endpoint addresses.
VISIBLE_WITH = {
    "release": "releases.view_release",
    "run": "evaluation.view_evaluationrun",
}


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    kind: str  # list, study, release, run
    perm: str
    path: Callable[[Side], str]
    ok: int = 200
    write: bool = False
    body: Callable[[Side], dict[str, Any]] | None = None


E = Endpoint
ENDPOINTS = [
    E("studies_list", "get", "list", "annotations.view_study", lambda s: "studies/"),
    E(
        "studies_read",
        "get",
        "study",
        "annotations.view_study",
        lambda s: f"studies/{s.study.slug}/",
    ),
    E(
        "studies_create",
        "post",
        "study",
        "annotations.add_study",
        lambda s: "studies/",
        ok=201,
        write=True,
        body=lambda s: {
            "slug": f"copy-of-{s.study.slug}",
            "title": "Copy",
            "copy_of": s.study.slug,
        },
    ),
    E(
        "studies_pause",
        "post",
        "study",
        "annotations.change_study",
        lambda s: f"studies/{s.study.slug}/pause/",
        write=True,
    ),
    E(
        "studies_resume",
        "post",
        "study",
        "annotations.change_study",
        lambda s: f"studies/{s.study.slug}/resume/",
        write=True,
    ),
    E(
        "studies_monitor",
        "get",
        "study",
        "qa.view_monitoring",
        lambda s: f"studies/{s.study.slug}/monitor/",
    ),
    E(
        "studies_participants",
        "get",
        "study",
        "annotations.view_participant",
        lambda s: f"studies/{s.study.slug}/participants/",
    ),
    E(
        "studies_conversations",
        "get",
        "study",
        "annotations.view_conversation",
        lambda s: f"studies/{s.study.slug}/conversations/",
    ),
    E(
        "studies_conversation_messages",
        "get",
        "study",
        "qa.export_data",
        lambda s: f"studies/{s.study.slug}/conversations/{s.conversation_id}/messages/",
    ),
    E(
        "studies_qa",
        "get",
        "study",
        "qa.view_conversationreview",
        lambda s: f"studies/{s.study.slug}/qa/",
    ),
    E("releases_list", "get", "list", "releases.view_release", lambda s: "releases/"),
    E(
        "releases_build",
        "post",
        "study",
        "releases.build_release",
        lambda s: "releases/",
        ok=202,
        write=True,
        body=lambda s: {"name": s.release.name, "version": "2.0.0", "studies": [s.study.slug]},
    ),
    E(
        "releases_read",
        "get",
        "release",
        "releases.view_release",
        lambda s: f"releases/{s.release.pk}/",
    ),
    E(
        "releases_manifest",
        "get",
        "release",
        "releases.view_release",
        lambda s: f"releases/{s.release.pk}/manifest/",
    ),
    E(
        "releases_download",
        "get",
        "release",
        "releases.download_release",
        lambda s: f"releases/{s.release.pk}/download/",
    ),
    E(
        "releases_leaderboard",
        "get",
        "release",
        "evaluation.view_report",
        lambda s: f"releases/{s.release.pk}/leaderboard/",
    ),
    E("evaluations_list", "get", "list", "evaluation.view_evaluationrun", lambda s: "evaluations/"),
    E(
        "evaluations_estimate",
        "post",
        "release",
        "evaluation.start_evaluation",
        lambda s: "evaluations/estimate/",
        write=True,
        body=lambda s: {"release": s.release.pk, "models": ["demo-listener"]},
    ),
    E(
        "evaluations_start",
        "post",
        "release",
        "evaluation.start_evaluation",
        lambda s: "evaluations/",
        ok=202,
        write=True,
        body=lambda s: {"release": s.release.pk, "models": ["demo-listener"]},
    ),
    E(
        "evaluations_read",
        "get",
        "run",
        "evaluation.view_evaluationrun",
        lambda s: f"evaluations/{s.run.pk}/",
    ),
    # The fixture's run has completed: an allowed cancel is refused by the state (409).
    E(
        "evaluations_cancel",
        "post",
        "run",
        "evaluation.start_evaluation",
        lambda s: f"evaluations/{s.run.pk}/cancel/",
        ok=409,
        write=True,
    ),
    E(
        "evaluations_report",
        "get",
        "run",
        "evaluation.view_report",
        lambda s: f"evaluations/{s.run.pk}/report/",
    ),
]


def _has(persona: str, perm: str) -> bool:
    perms = ROLE_PERMS[persona]
    return ALL in perms or perm in perms


def expected(endpoint: Endpoint, persona: str, scope: str, target: str) -> int:
    if endpoint.kind == "list":
        return 200 if _has(persona, endpoint.perm) else 403
    if target == "other" or persona == "outsider":
        return 404
    gate = VISIBLE_WITH.get(endpoint.kind)
    if gate is not None and not _has(persona, gate):
        return 404
    if not _has(persona, endpoint.perm) or (endpoint.write and scope == "read"):
        return 403
    return endpoint.ok


def _rows(endpoint: Endpoint, body: Any) -> set[str]:
    """What a list names: study slugs, or the studies of releases and runs' releases."""
    if endpoint.name == "studies_list":
        return {row["slug"] for row in body}
    if endpoint.name == "releases_list":
        return {slug for row in body for slug in row["studies"]}
    return {str(row["release"]) for row in body}


@pytest.mark.parametrize("scope", ["read", "write"])
@pytest.mark.parametrize("persona", ["researcher", "reviewer", "viewer", "outsider"])
def test_every_endpoint(personas, sides, persona, scope):
    client = api(mint(personas[persona], [sides["own"].study], scope))
    # Another user's token on the other study must not widen this one's view (and gives the
    # lists rows to leave out).
    mismatches = []
    for target in ("own", "other"):
        side = sides[target]
        for endpoint in ENDPOINTS:
            call = getattr(client, endpoint.method)
            kwargs = (
                {}
                if endpoint.body is None
                else {"data": endpoint.body(side), "content_type": "application/json"}
            )
            response = call(f"/api/v1/{endpoint.path(side)}", **kwargs)
            want = expected(endpoint, persona, scope, target)
            if response.status_code != want:
                mismatches.append(
                    (target, endpoint.name, response.status_code, want, response.content[:200])
                )
                continue
            if want >= 400:
                assert set(response.json()) == {"error"}, endpoint.name  # the one error shape
            if endpoint.kind == "list" and want == 200 and target == "own":
                names = _rows(endpoint, response.json())
                own = sides["own"]
                mine = (
                    own.study.slug if endpoint.name != "evaluations_list" else str(own.release.pk)
                )
                theirs = (
                    sides["other"].study.slug
                    if endpoint.name != "evaluations_list"
                    else str(sides["other"].release.pk)
                )
                assert mine in names and theirs not in names, (endpoint.name, names)
    assert mismatches == []
