"""Who may sync, review and pay: the ``operate_prolific`` permission in the study's scope
(researchers of the study). Viewers and QA reviewers have no such permission."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from annotations.models import Study
from annotations.qa.access import has_study_perm

OPERATE = "annotations.operate_prolific"


def may_operate(user, study: Study | int) -> bool:
    study_id = study if isinstance(study, int) else study.pk
    return bool(user.is_authenticated) and has_study_perm(user, OPERATE, study_id)


def require_operator(user, study: Study | int) -> None:
    if not may_operate(user, study):
        raise PermissionDenied("You may not run this study on Prolific.")
