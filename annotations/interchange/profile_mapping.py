"""Profile answers of imported records mapped onto the instrument's option ids (pure).

A reference file's questionnaire is free: ``responses`` is any object and ``traits`` any
strings. Where an answer matches an option of the study's profile questionnaire (by id or by
label, ignoring case, spaces, '-' and '_'), it is stored as that option id (a trait as
``<prefix>:<option id>``); everything else is kept exactly as written, as text.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from attunebench import records
from attunebench.instrument import Instrument
from attunebench.profile import Profile, ProfileQuestion

_SEPARATORS = re.compile(r"[\s_\-]+")


def _key(text: str) -> str:
    return _SEPARATORS.sub(" ", text.casefold()).strip()


def _option_id(question: ProfileQuestion, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    wanted = _key(value)
    match = next((o.id for o in question.options if wanted in (_key(o.id), _key(o.label))), None)
    return match if match is not None else value


def map_responses(questionnaire: Profile, responses: dict[str, Any]) -> dict[str, Any]:
    mapped = {}
    for key, value in responses.items():
        question = questionnaire.question(key)
        if question is None or question.kind == "number":
            mapped[key] = value
        elif isinstance(value, list):
            mapped[key] = [_option_id(question, v) for v in value]
        else:
            mapped[key] = _option_id(question, value)
    return mapped


def map_traits(questionnaire: Profile, traits: tuple[str, ...]) -> tuple[str, ...]:
    mapped = []
    for trait in traits:
        for question in questionnaire.trait_questions:
            prefix, _, rest = trait.partition(":")
            value = rest if rest and _key(prefix) == _key(question.trait_prefix) else trait
            option = _option_id(question, value)
            if option != value:
                trait = f"{question.trait_prefix}:{option}"
                break
        mapped.append(trait)
    return tuple(dict.fromkeys(mapped))


def map_profile_answers(
    record: records.Conversation, instrument: Instrument
) -> records.Conversation:
    """The record with its profile answers on the instrument's option ids where they match."""
    profile = record.participant_profile
    if profile is None or instrument.profile is None:
        return record
    mapped = replace(
        profile,
        responses=map_responses(instrument.profile, dict(profile.responses or {})),
        traits=map_traits(instrument.profile, tuple(profile.traits)),
    )
    return record if mapped == profile else replace(record, participant_profile=mapped)
