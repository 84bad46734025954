"""Study memberships: the object-level limit on a role.

A user's groups say what they may do; memberships say where. A user with no membership works
in every study (a lab-wide role); a user with memberships works only in those studies, and in
each only within the permissions of the membership's role (a membership never grants more
than the user's groups do).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotations.models import Study


class Role(models.TextChoices):
    RESEARCHER = "researcher", "Researcher"
    QA_REVIEWER = "qa_reviewer", "QA reviewer"
    VIEWER = "viewer", "Viewer"


class StudyMembership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_memberships"
    )
    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["study", "user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "study"], name="qa_membership_unique"),
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="qa_membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.role} in {self.study}"
