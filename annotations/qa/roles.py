"""The three roles, as Django groups whose permissions are defined here, in code.

Rules rather than lists, so that a model added later (a releases app, evaluation runs) falls
into the right roles at the next ``migrate`` without anyone editing a group by hand:

- ``researcher``: every permission of the study apps (annotations, evaluation, qa, releases);
  user accounts and groups stay with superusers.
- ``qa_reviewer``: the review queue, flags and corrections. No export, no model endpoints
  (they name the variables that hold provider keys), no evaluation, no view of other
  reviewers' individual decisions (double review is blind).
- ``viewer``: read-only (every ``view_`` permission of the study apps except endpoints), plus
  the monitoring and agreement pages.

``sync_roles`` takes the app registry as a parameter so the data migration can run it with
historical models; the post-migrate signal runs it again with the live registry.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.management import create_permissions

STUDY_APPS = frozenset({"annotations", "evaluation", "qa", "releases"})
HIDDEN_FROM_NON_RESEARCHERS = frozenset({("annotations", "view_modelendpoint")})

REVIEWER_PERMISSIONS = frozenset(
    {
        ("qa", "view_conversationreview"),
        ("qa", "review_conversation"),
        ("qa", "view_flag"),
        ("qa", "flag_conversation"),
        ("qa", "view_correction"),
        ("qa", "correct_annotation"),
        ("qa", "view_monitoring"),
        ("qa", "view_personaldetailfinding"),
        ("qa", "review_personal_details"),
    }
)
VIEWER_EXTRA_PERMISSIONS = frozenset({("qa", "view_monitoring"), ("qa", "view_agreement")})

RoleRule = Callable[[str, str], bool]


def _researcher(app_label: str, codename: str) -> bool:
    return app_label in STUDY_APPS


def _reviewer(app_label: str, codename: str) -> bool:
    return (app_label, codename) in REVIEWER_PERMISSIONS


def _viewer(app_label: str, codename: str) -> bool:
    key = (app_label, codename)
    if key in VIEWER_EXTRA_PERMISSIONS:
        return True
    return (
        app_label in STUDY_APPS
        and codename.startswith("view_")
        and key not in HIDDEN_FROM_NON_RESEARCHERS
    )


# Every role manages its own webhook endpoints (webhooks/services.py keeps each user to their
# own, and to the events of the studies their role may see there).
OWN_WEBHOOK_PERMISSIONS = frozenset(
    {
        ("webhooks", "add_webhookendpoint"),
        ("webhooks", "change_webhookendpoint"),
        ("webhooks", "delete_webhookendpoint"),
        ("webhooks", "view_webhookendpoint"),
        ("webhooks", "view_webhookdelivery"),
        ("webhooks", "view_webhookattempt"),
    }
)


def _with_own_webhooks(rule: RoleRule) -> RoleRule:
    return lambda app_label, codename: (
        (app_label, codename) in OWN_WEBHOOK_PERMISSIONS or rule(app_label, codename)
    )


ROLE_RULES: dict[str, RoleRule] = {
    "researcher": _with_own_webhooks(_researcher),
    "qa_reviewer": _with_own_webhooks(_reviewer),
    "viewer": _with_own_webhooks(_viewer),
}


def sync_roles(apps, using: str = "default") -> None:
    """Create the role groups and set their permissions from the rules (idempotent)."""
    # Permissions are normally created after all migrations; make sure every app's exist now.
    for app_config in apps.get_app_configs():
        had_models = getattr(app_config, "models_module", None)
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0, using=using)
        app_config.models_module = had_models
    group_model = apps.get_model("auth", "Group")
    permissions = list(
        apps.get_model("auth", "Permission").objects.using(using).select_related("content_type")
    )
    for name, rule in ROLE_RULES.items():
        group, _ = group_model.objects.using(using).get_or_create(name=name)
        group.permissions.set(
            [p for p in permissions if rule(p.content_type.app_label, p.codename)]
        )
