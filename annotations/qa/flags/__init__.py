"""Automatic flags: one module per check, registered in ``base``; importing this loads them all."""

from annotations.qa.flags import (  # noqa: F401 - imported to register the detectors
    attention_check,
    comprehension_retry,
    duplicate_participant,
    fast_annotation,
    identity_leak,
    risk_signal,
    short_messages,
    straight_lining,
    unedited_replies,
)
from annotations.qa.flags.base import MANUAL, FlagType, flag_label, flag_types

__all__ = ["MANUAL", "FlagType", "flag_label", "flag_types"]
