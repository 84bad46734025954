"""An instrument's texts in another language: a translation of one base version.

The texts are a flat map from a text's path (``panas_items.Proud.label``,
``behaviour_questions.B1.participant_wording``; services/instrument_translations.py lists
them) to its translation. Paths name item ids, so a translation cannot add, drop or rename an
item: the annotation data of every language stays comparable. ``base_hash`` is the base
instrument's content hash when the translation was written: once the base changes, the
translation is stale until someone checks it again.
"""

from __future__ import annotations

from django.db import models

from annotations.models.instrument import Instrument


class InstrumentTranslation(models.Model):
    instrument = models.ForeignKey(
        Instrument, on_delete=models.CASCADE, related_name="translations"
    )
    language = models.CharField(max_length=16)
    texts = models.JSONField(default=dict, help_text="{text path: translated text}")
    base_hash = models.CharField(
        max_length=64, help_text="The base instrument's content hash this translation is of."
    )
    content_hash = models.CharField(
        max_length=64,
        editable=False,
        help_text="sha256 of the translated instrument (what participants in this language saw).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["instrument", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["instrument", "language"], name="instrument_translation_unique_language"
            )
        ]

    def __str__(self) -> str:
        return f"{self.instrument} [{self.language}]"
