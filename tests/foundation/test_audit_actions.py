"""Audit actions are declared in one place (annotations/audit_actions.py): ``record_audit``
refuses any other, every action the code names is a member, and each action built at run time
(``f"qa.review.{stage}"``) is declared for every value it can take."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib import admin
from django.db import transaction

from annotations.audit_actions import DECLARED, AuditAction, UndeclaredAuditAction
from annotations.models import AuditEntry, PanasPhase, ReviewDecision, SignalKind
from annotations.prolific.controls import _STATUS as PROLIFIC_TRANSITIONS
from annotations.qa.admin import AuditedConfigurationAdmin
from annotations.qa.models import ReviewStage
from annotations.qa.services.flagging import _VERBS as FLAG_VERBS
from annotations.services.audit import record_audit
from annotations.services.setup import SetupObject
from tests.factories import make_participant

ROOT = Path(__file__).resolve().parents[2]
APPS = ("annotations", "attune_collect", "evaluation", "researcher_api", "webhooks")


@pytest.mark.django_db
def test_an_undeclared_action_is_refused_and_its_transaction_rolled_back():
    participant = make_participant()
    refused = pytest.raises(UndeclaredAuditAction, match="annotations.participant.teleport")
    with refused, transaction.atomic():
        participant.withdrawn = True
        participant.save(update_fields=["withdrawn"])
        record_audit("annotations.participant.teleport", target=participant)
    participant.refresh_from_db()
    assert not participant.withdrawn
    assert not AuditEntry.objects.filter(target_type="annotations.participant").exists()


@pytest.mark.django_db
def test_a_declared_action_is_stored_as_its_value_by_member_or_by_string():
    participant = make_participant()
    record_audit(AuditAction.PARTICIPANT_PROFILE, target=participant)
    record_audit("annotations.participant.consent", target=participant)
    about = AuditEntry.objects.filter(
        target_id=str(participant.pk), target_type="annotations.participant"
    )
    stored = sorted(about.values_list("action", flat=True))
    assert stored == ["annotations.participant.consent", "annotations.participant.profile"]
    assert all(type(action) is str for action in stored)


def test_the_undeclared_error_is_a_value_error_naming_where_to_declare():
    # A ValueError, so a caller's ``except ValueError`` (bad input) still sees it as one.
    assert issubclass(UndeclaredAuditAction, ValueError)
    with pytest.raises(UndeclaredAuditAction, match="annotations/audit_actions.py"):
        record_audit("nothing.here")


def _named_actions() -> list[tuple[str, int, str]]:
    """Every action the source names: the first argument of ``record_audit`` and any
    ``action=``/``audit_action=`` keyword, as (file, line, literal or dotted name)."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                values = [kw.value for kw in node.keywords if kw.arg in ("action", "audit_action")]
                if name == "record_audit" and node.args:
                    values.append(node.args[0])
                for value in values:
                    for leaf in _leaves(value):
                        found.append((str(path.relative_to(ROOT)), node.lineno, leaf))
    return found


def _leaves(node: ast.expr) -> list[str]:
    if isinstance(node, ast.IfExp):
        return _leaves(node.body) + _leaves(node.orelse)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Attribute) and ast.unparse(node.value) == "AuditAction":
        return [f"AuditAction.{node.attr}"]
    return []  # a variable or an f-string: its expansions are checked below


def test_every_action_named_in_the_source_is_declared():
    named = _named_actions()
    assert len(named) > 40  # the scan sees the services' calls
    undeclared = [
        (where, line, action)
        for where, line, action in named
        if not (
            action in DECLARED
            or (action.startswith("AuditAction.") and hasattr(AuditAction, action[12:]))
            or "." not in action  # argparse's action="store_true" and the like
        )
    ]
    assert undeclared == []


def _setup_models() -> list[str]:
    return [model._meta.model_name for model in SetupObject.__args__]


def _qa_configuration_models() -> list[str]:
    return [
        model._meta.model_name
        for model, model_admin in admin.site._registry.items()
        if isinstance(model_admin, AuditedConfigurationAdmin)
    ]


@pytest.mark.parametrize(
    "expansions",
    [
        pytest.param([f"annotations.panas.{phase}" for phase in PanasPhase], id="panas"),
        pytest.param(
            [f"annotations.safety.{k}" for k in SignalKind if k != SignalKind.MODERATION],
            id="safety",
        ),
        pytest.param(
            [
                f"annotations.{model}.{verb}"
                for model in _setup_models()
                for verb in ("create", "update", "delete")
            ],
            id="setup",
        ),
        pytest.param([f"qa.review.{stage}" for stage in ReviewStage], id="review-stage"),
        pytest.param([f"qa.flag.{verb}" for verb in FLAG_VERBS.values()], id="flag-status"),
        pytest.param(
            [f"qa.personal_detail.{verb}" for verb in ("accept", "edit", "dismiss")],
            id="personal-detail-decision",
        ),
        pytest.param(
            [
                f"qa.{model}.{verb}"
                for model in _qa_configuration_models()
                for verb in ("create", "change", "delete")
            ],
            id="qa-configuration",
        ),
        pytest.param(
            [
                f"prolific.submission.{decision.lower()}{suffix}"
                for decision in (ReviewDecision.APPROVE, ReviewDecision.REJECT)
                for suffix in ("", ".intended")
            ],
            id="prolific-decision",
        ),
        pytest.param(
            [f"prolific.study.{action.lower()}" for action in PROLIFIC_TRANSITIONS],
            id="prolific-transition",
        ),
    ],
)
def test_every_expansion_of_a_built_action_is_declared(expansions):
    assert expansions
    assert [action for action in expansions if action not in DECLARED] == []


def test_each_action_is_namespaced_by_its_app_and_declared_once():
    values = [member.value for member in AuditAction]
    assert len(values) == len(set(values))
    prefixes = {value.split(".")[0] for value in values}
    assert prefixes <= {
        "annotations",
        "qa",
        "prolific",
        "releases",
        "evaluation",
        "researcher_api",
        "webhooks",
        "system",
    }
