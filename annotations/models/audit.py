"""A generic audit log: every service function that changes state writes one entry."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEntry(models.Model):
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    actor_label = models.CharField(
        max_length=120,
        help_text="Who acted, also after the user is gone: user:<name>, participant:<pseudonym>, system, command:<name>.",
    )
    action = models.CharField(
        max_length=80, help_text="Namespaced, e.g. annotations.import.conversation"
    )
    target_type = models.CharField(
        max_length=80, blank=True, help_text="app_label.model of the target"
    )
    target_id = models.CharField(max_length=64, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["target_type", "target_id"]),
            models.Index(fields=["action"]),
        ]

    def __str__(self) -> str:
        return f"{self.actor_label} {self.action} {self.target_type}:{self.target_id}"
