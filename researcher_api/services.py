"""The researcher API's writes: each authorises the token (``access.py``), then calls the
service the admin calls, which validates, writes and audits. Nothing here writes a row itself.

Who may do what (the role permission, in the study, through a write token):
- create a study: ``annotations.add_study`` (limited users: in some study of theirs); the new
  study joins the token, and a limited user becomes its researcher (else they could not see it);
- pause or resume: ``annotations.change_study`` in the study;
- build a release: ``releases.build_release`` in every study of it;
- start, estimate or cancel an evaluation: ``evaluation.start_evaluation`` in every study of
  the release (an estimate writes nothing but spends the same planning work, hence a write).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet

from annotations.models import ModelEndpoint, Study, StudyStatus
from annotations.qa.access import study_scope
from annotations.qa.endpoint_scope import viewable_endpoints
from annotations.qa.models import Role, StudyMembership
from annotations.qa.services.configuration import save_configuration
from annotations.qa.services.scoped_setup import save_setup_as
from annotations.releases.models import QaRule, Release
from annotations.releases.services import create_release, enqueue_build
from annotations.services.instruments import ensure_default_instrument
from attune_collect.errors import ServiceError
from evaluation.models import DEFAULT_SEED, EvaluationRun
from evaluation.services.control import cancel_run
from evaluation.services.creation import create_run
from evaluation.services.planning import RunPlan, RunRequest, plan_run
from researcher_api import access
from researcher_api.models import ApiToken
from researcher_api.tokens import add_study_to_token

ACTOR_LABEL = "api"
TEMPLATE_SLUGS = {"demo": "demo"}  # annotations.demo.DEMO_STUDY_SLUG
TEMPLATES = tuple(TEMPLATE_SLUGS)
# What a copy takes from its source: the setup, never its slug, title, status or data.
COPIED_FIELDS = (
    "instrument",
    "consent_text",
    "consent_version",
    "topics",
    "improver_endpoint",
    "moderation_endpoint",
    "min_turns",
    "max_turns",
    "behaviour_questions_per_turn",
    "pairwise_questions_per_turn",
    "completion_code",
    "screenout_code",
    "target_participants",
    "conversations_per_participant",
    "support_resources",
    "safety_contacts",
    "publish_system_prompts",
    "returning_link_policy",
    "recruitment",
    "withdrawal_policy",
)


class ApiError(ServiceError):
    default_code = "invalid"


def _label(token: ApiToken) -> str:
    return f"user:{token.user.get_username()} via token {token.prefix}"


# --- studies ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewStudy:
    slug: str
    title: str
    template: str = ""
    copy_of: Study | None = None


def _from_template(name: str, new: NewStudy, token: ApiToken) -> tuple[Study, list[ModelEndpoint]]:
    """A template is a lab-wide study to start from (``demo``: the one ``seed_demo`` makes);
    the token needs no grant in it. The endpoints it links are kept only where the user may
    view them (linking one opens its page to the new study's members)."""
    if name not in TEMPLATES:
        raise ApiError(
            f"Unknown template {name!r}; one of {', '.join(TEMPLATES)}.", field="template"
        )
    source = Study.objects.filter(slug=TEMPLATE_SLUGS[name]).first()
    if source is None:
        raise ApiError(
            f"The {name} template is not installed here (manage.py seed_demo).",
            code="not_found",
            field="template",
        )
    study, pool = _copy(source, new)
    visible = set(
        viewable_endpoints(ModelEndpoint.objects.all(), token.user).values_list("pk", flat=True)
    )
    for field in ("improver_endpoint", "moderation_endpoint"):
        if getattr(study, f"{field}_id") not in visible:
            setattr(study, field, None)
    return study, [e for e in pool if e.pk in visible]


def _copy(source: Study, new: NewStudy) -> tuple[Study, list[ModelEndpoint]]:
    study = Study(slug=new.slug, title=new.title, status=StudyStatus.DRAFT)
    for name in COPIED_FIELDS:
        setattr(study, name, getattr(source, name))
    return study, list(source.model_pool.all())


@transaction.atomic
def create_study(token: ApiToken, new: NewStudy) -> Study:
    access.require(token, "annotations.add_study", None, write=True)
    if bool(new.template) == (new.copy_of is not None):
        raise ApiError("Give either a template or a study to copy.", field="template")
    if new.copy_of is not None:
        access.require(token, "annotations.view_study", new.copy_of.pk)
        study, pool = _copy(new.copy_of, new)
    else:
        study, pool = _from_template(new.template, new, token)
    if study.instrument_id is None:
        study.instrument = ensure_default_instrument()
    user = token.user
    # The admin's write path: authorises the user (the endpoints it links must be theirs),
    # validates, writes and audits.
    save_setup_as(study, actor=user, many_to_many={"model_pool": pool})
    if study_scope(user).limited:
        save_configuration(
            StudyMembership(user=user, study=study, role=Role.RESEARCHER), actor=user
        )
    add_study_to_token(token, study, actor=user)
    access.forget_studies(token)
    return study


@transaction.atomic
def set_paused(token: ApiToken, study: Study, *, paused: bool) -> Study:
    """Pause a recruiting study, or resume a paused one (as the admin's status field does)."""
    access.require(token, "annotations.change_study", study.pk, write=True)
    study = Study.objects.select_for_update().get(pk=study.pk)
    wanted, needed = (
        (StudyStatus.PAUSED, StudyStatus.RECRUITING)
        if paused
        else (StudyStatus.RECRUITING, StudyStatus.PAUSED)
    )
    if study.status != needed:
        raise ApiError(
            f"The study is {study.get_status_display().lower()}; only a {needed} study can be "
            f"{'paused' if paused else 'resumed'}.",
            code="wrong_status",
        )
    study.status = wanted
    return save_setup_as(study, actor=token.user)


# --- releases ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewRelease:
    name: str
    version: str
    studies: Sequence[Study]
    qa_rule: str | None = None
    completed_only: bool = True
    subsample_sizes: list[int] | None = None
    description: str = ""


@transaction.atomic
def build_release(token: ApiToken, new: NewRelease) -> Release:
    access.require_all(token, "releases.build_release", [s.pk for s in new.studies], write=True)
    release = create_release(
        name=new.name,
        version=new.version,
        studies=list(new.studies),
        completed_only=new.completed_only,
        subsample_sizes=new.subsample_sizes,
        description=new.description,
        actor=token.user,
        actor_label=_label(token),
        qa_rule=new.qa_rule or QaRule.NON_EXCLUDED,
    )
    enqueue_build(release, actor=token.user, actor_label=_label(token))
    return release


def release_study_ids(release: Release) -> list[int]:
    return list(release.studies.values_list("pk", flat=True))


# --- evaluation runs --------------------------------------------------------------------------


@dataclass(frozen=True)
class NewRun:
    release: Release
    models: Sequence[str]  # endpoint aliases
    judges: Sequence[str] = ()
    modes: Sequence[str] = ("default",)
    subsample: str = ""
    seed: int | None = None


def _endpoints(token: ApiToken, aliases: Sequence[str], field: str) -> tuple[ModelEndpoint, ...]:
    visible: QuerySet[ModelEndpoint] = viewable_endpoints(
        ModelEndpoint.objects.filter(alias__in=list(aliases)), token.user
    )
    found = {e.alias: e for e in visible}
    missing = [a for a in aliases if a not in found]
    if missing:
        raise ApiError(f"No model endpoint of yours is called {', '.join(missing)}.", field=field)
    return tuple(found[a] for a in aliases)


def plan(token: ApiToken, new: NewRun) -> RunPlan:
    access.require_all(
        token, "evaluation.start_evaluation", release_study_ids(new.release), write=True
    )
    request = RunRequest(
        release=new.release,
        models=_endpoints(token, new.models, "models"),
        judges=_endpoints(token, new.judges, "judges"),
        modes=tuple(new.modes),
        subsample=new.subsample,
        seed=DEFAULT_SEED if new.seed is None else new.seed,
    )
    return plan_run(request)


def start_evaluation(token: ApiToken, new: NewRun) -> EvaluationRun:
    planned = plan(token, new)
    return create_run(planned.request, actor=token.user, actor_label=_label(token), plan=planned)


def cancel_evaluation(token: ApiToken, run: EvaluationRun) -> EvaluationRun:
    access.require_all(
        token, "evaluation.start_evaluation", release_study_ids(run.release), write=True
    )
    return cancel_run(run, actor=token.user, actor_label=_label(token))
