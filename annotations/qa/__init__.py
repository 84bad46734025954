"""Annotation QA: review queue, automatic flags, corrections as a layer, agreement, monitoring.

A sub-app of ``annotations`` (label ``qa``) with its own models and migrations, so QA never
changes the participant's data model: it adds rows beside it (reviews, flags, corrections).
"""
