"""Where each study stands in its rotation of per-turn questions."""

from __future__ import annotations

from django.db import models

from annotations.models.study import Study


class QuestionRotation(models.Model):
    """A study-wide cursor into a fixed cyclic order of questions.

    Each annotation step takes the next k questions, so every question is shown once in every
    ceil(n / k) steps of the study. It lives apart from ``Study`` so that saving a study in the
    admin can never write back a stale cursor.
    """

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="rotations")
    kind = models.CharField(max_length=20, help_text="behaviour or pairwise")
    cursor = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["study", "kind"], name="rotation_unique_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} rotation of {self.study_id} at {self.cursor}"
