"""What a signed-in staff member can open: the admin's "View site" goes here (the site's root
is the participant app, which has nothing for staff and answered them with a 404), and the
admin's home links to the same places."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from annotations.models import Study
from annotations.qa.access import has_study_perm, limit_to_studies
from annotations.qa.selectors import VIEW_PERMISSION

MONITORING_PERMISSION = "qa.view_monitoring"


@dataclass(frozen=True)
class StaffLink:
    label: str
    url: str
    note: str = ""


def staff_links(user) -> list[StaffLink]:
    """The pages this user may open, in the order a researcher's day goes."""
    links = [
        StaffLink(
            "Administration",
            reverse("admin:index"),
            "studies, model endpoints, releases, evaluations, audit log",
        )
    ]
    if has_study_perm(user, VIEW_PERMISSION):
        links.append(
            StaffLink(
                "Quality assurance: review queue",
                reverse("qa:queue"),
                "open critical flags (a participant at risk) come first",
            )
        )
    if has_study_perm(user, MONITORING_PERMISSION):
        studies = limit_to_studies(
            Study.objects.order_by("title"), user, MONITORING_PERMISSION, lookup="pk"
        )
        links += [
            StaffLink(f"Monitoring: {study.title}", reverse("qa:monitoring", args=[study.slug]))
            for study in studies
        ]
    return links
