"""The request text and answer schema of every call type of section 3, for one turn.

Each builder returns a ``Request``: the user message (rendered from the prompt set) and the
schema its answer must fit. Where the messages around it come from (the conversation thread,
or a standalone exchange) is the runner's business. ``language`` is the conversation's (a BCP 47
tag, ``language.conversation_language``): every request of a prompt set that has the piece
says it (``PromptSet.language_note``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from attunebench import schemas
from attunebench.instrument import ChoiceQuestion, Instrument
from attunebench.language import DEFAULT_LANGUAGE
from attunebench.pairwise import Presentation, reply_text
from attunebench.prompts import PromptSet
from attunebench.records import Conversation, Panas, Turn
from attunebench.schemas import Schema
from attunebench.vocabulary import PANAS_ITEMS


@dataclass(frozen=True)
class Request:
    text: str
    schema: Schema


def applicable_question_ids(turn: Turn) -> tuple[str, ...]:
    """Section 3: a question is asked when the participant left both answers blank or said
    yes/no to at least one; one answered only "na" is not applicable. (The scorer's
    ``is_applicable`` states the same rule; it is restated here so that running a model never
    imports the scorer's pandas and scipy. A test keeps the two in step.)"""
    asked = []
    for judgement in turn.annotations.binary_judgements:
        answers = {_answer(judgement.observed), _answer(judgement.preferred)}
        if answers & {"yes", "no"} or answers == {None}:
            asked.append(judgement.question_id)
    return tuple(dict.fromkeys(asked))


def draft(
    prompts: PromptSet,
    turn: Turn,
    *,
    context: str,
    verbose: bool,
    language: str = DEFAULT_LANGUAGE,
) -> Request:
    return _request(
        prompts,
        "draft",
        schemas.draft_schema(verbose=verbose),
        verbose=verbose,
        language=language,
        context=context,
        turn_number=turn.turn_number,
        message=turn.user_message,
    )


def review(
    prompts: PromptSet,
    turn: Turn,
    instrument: Instrument,
    *,
    participant: bool,
    verbose: bool,
    language: str = DEFAULT_LANGUAGE,
) -> Request:
    """Section 3's two reviews of a turn, which differ only in whose wording they use.

    ``participant=False``, the OM review (in the thread): emotion tags, and per question "did
    the OM do it" and "would the HP say yes", in the model-facing wording.
    ``participant=True``, the HP review (outside the thread): the same questions in the
    participant's wording."""
    question_ids = applicable_question_ids(turn)
    if participant:
        piece, schema = "hp_review", schemas.hp_review_schema(question_ids, verbose=verbose)
    else:
        piece, schema = "om_review", schemas.om_review_schema(question_ids, verbose=verbose)
    return _request(
        prompts,
        piece,
        schema,
        verbose=verbose,
        language=language,
        turn_number=turn.turn_number,
        message=turn.user_message,
        reply=turn.llm_response,
        questions=_questions(instrument, question_ids, participant=participant),
    )


def pairwise(
    prompts: PromptSet,
    turn: Turn,
    instrument: Instrument,
    presentation: Presentation,
    *,
    verbose: bool,
    language: str = DEFAULT_LANGUAGE,
) -> Request:
    schema = schemas.pairwise_schema(len(presentation.comparisons), verbose=verbose)
    by_number = sorted(presentation.numbering.items(), key=lambda item: item[1])
    responses = "\n\n".join(
        f"Response {number}:\n{reply_text(turn, label)}" for label, number in by_number
    )
    wordings = {q.id: q.model_wording for q in instrument.pairwise_questions}
    comparisons = "\n".join(
        f"{shown.index}. {_pairwise_wording(wordings, shown.question_id)} "
        f"A = Response {presentation.numbering[shown.shown_a]}, "
        f"B = Response {presentation.numbering[shown.shown_b]}"
        for shown in presentation.comparisons
    )
    return _request(
        prompts,
        "pairwise",
        schema,
        verbose=verbose,
        language=language,
        message=turn.user_message,
        responses=responses,
        comparisons=comparisons,
    )


def draft_judge(
    prompts: PromptSet,
    turn: Turn,
    instrument: Instrument,
    draft_text: str,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> Request:
    return _judge(
        prompts,
        "draft_judge",
        turn,
        instrument,
        schemas.draft_judge_schema,
        language=language,
        draft=draft_text,
        reference=turn.annotations.human_edited or "(not available)",
    )


def reply_judge(
    prompts: PromptSet,
    turn: Turn,
    instrument: Instrument,
    reply_text: str,
    *,
    edited: bool,
    language: str = DEFAULT_LANGUAGE,
) -> Request:
    """A judge answers the turn's behaviour questions about a given reply, in the third-person
    wording: the original reply (what the participant answered "did it" about) or the
    participant's edited reply (their idea of the right reply). No EM answer is shown, so the
    request is the same in every unit and the call cache answers it once per judge."""
    kind = "the participant's own edited version of the reply" if edited else "the reply"
    return _judge(
        prompts,
        "reply_judge",
        turn,
        instrument,
        schemas.reply_judge_schema,
        language=language,
        kind=kind,
        reply=reply_text,
    )


def post_conversation(
    prompts: PromptSet,
    conversation: Conversation,
    instrument: Instrument,
    *,
    strategy: str,
    verbose: bool,
    language: str = DEFAULT_LANGUAGE,
) -> Request:
    """``absolute``: shown pre totals, predict items; ``delta``: shown pre totals, predict
    changes; ``blind_delta``: no pre scores, predict changes (section 3)."""
    delta = strategy != "absolute"
    schema = schemas.post_conversation_schema(instrument, delta=delta, verbose=verbose)
    pre = conversation.pre_panas if strategy != "blind_delta" else None
    return _request(
        prompts,
        "post_conversation",
        schema,
        verbose=verbose,
        language=language,
        panas_context=""
        if pre is None
        else prompts.render(
            "panas_pre_totals", positive=pre.total_positive, negative=pre.total_negative
        ),
        panas_task=prompts.render("panas_delta" if delta else "panas_absolute"),
        q1_prompt=instrument.q1_looking_for.prompt,
        q1_options=_options(instrument.q1_looking_for),
        q2_prompt=instrument.q2_emotion_clarity.prompt,
        q2_options=_options(instrument.q2_emotion_clarity),
        q3_prompt=instrument.q3_model_fit.prompt,
        q3_options=_options(instrument.q3_model_fit),
        followup_prompt=instrument.q3_follow_up.prompt,
        followup_when=" or ".join(instrument.q3_follow_up.shown_when),
        branches="\n".join(f"  {b.id}: {b.model_wording}" for b in instrument.four_branches),
    )


def omniscient_context(prompts: PromptSet, conversation: Conversation) -> str:
    """The profile and pre-PANAS block shown at turn 1 in the omniscient modes."""
    return prompts.render(
        "omniscient_context",
        profile=_profile_text(conversation),
        pre_panas=_panas_text(conversation.pre_panas),
    )


def pre_panas_shown(conversation: Conversation, *, strategy: str, omniscient: bool) -> object:
    """What the EM was shown of the pre-PANAS, for ``post_conversation.pre_panas_shown``:
    the totals (and items, in the omniscient modes) or False."""
    pre = conversation.pre_panas
    if pre is None or (strategy == "blind_delta" and not omniscient):
        return False
    shown: dict[str, object] = {
        "totalPositiveAffect": pre.total_positive,
        "totalNegativeAffect": pre.total_negative,
    }
    if omniscient:
        shown["items"] = {name: pre.items[name] for name in PANAS_ITEMS if name in pre.items}
    return shown


# --- helpers ----------------------------------------------------------------------------------


def _answer(value: str | None) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


def _request(
    prompts: PromptSet,
    piece: str,
    schema: Schema,
    *,
    verbose: bool = False,
    language: str = DEFAULT_LANGUAGE,
    **values: object,
) -> Request:
    """Render a request: the piece's own values, the conversation's language, the verbose
    note, the answer template."""
    text = prompts.render(
        piece,
        language_note=prompts.language_note(language),
        verbose_note=prompts.render("verbose") if verbose else "",
        template=schema.template_text(),
        **values,
    )
    return Request(text, schema)


def _judge(
    prompts: PromptSet,
    piece: str,
    turn: Turn,
    instrument: Instrument,
    schema_for: Callable[[tuple[str, ...]], Schema],
    *,
    language: str,
    **values: object,
) -> Request:
    """A judge's request: the user message and the behaviour questions applicable at the turn,
    in the third-person wording, beside the piece's own values."""
    question_ids = applicable_question_ids(turn)
    return _request(
        prompts,
        piece,
        schema_for(question_ids),
        verbose=False,  # judges give no reasoning
        language=language,
        message=turn.user_message,
        questions=_questions(instrument, question_ids, participant=False),
        **values,
    )


def _questions(instrument: Instrument, question_ids: tuple[str, ...], *, participant: bool) -> str:
    if not question_ids:
        return "(There are no behaviour questions at this turn: leave those objects empty.)"
    lines = []
    for qid in question_ids:
        question = instrument.behaviour_question(qid)
        if question is None:  # an id our instrument does not know (reference data)
            wording = f"behaviour {qid}"
        else:
            wording = question.participant_wording if participant else question.model_wording
        lines.append(f"{qid}: {wording}")
    return "\n".join(lines)


def _pairwise_wording(wordings: dict[str, str], question_id: str) -> str:
    if question_id.startswith("custom:"):
        return question_id.removeprefix("custom:").strip()
    return wordings.get(question_id, question_id)


def _options(question: ChoiceQuestion) -> str:
    return "; ".join(f'{option.id} ("{option.label}")' for option in question.options)


def _profile_text(conversation: Conversation) -> str:
    profile = conversation.participant_profile
    if profile is None:
        return "- (no profile)"
    lines = []
    if profile.age is not None:
        lines.append(f"- Age: {profile.age}")
    if profile.traits:
        lines.append(f"- Self-reported traits: {', '.join(profile.traits)}")
    if profile.goals:
        lines.append(f"- Goals: {', '.join(profile.goals)}")
    if profile.responses:
        answers = json.dumps(profile.responses, ensure_ascii=False, sort_keys=True)
        lines.append(f"- Questionnaire answers: {answers}")
    return "\n".join(lines) or "- (empty profile)"


def _panas_text(panas: Panas | None) -> str:
    if panas is None:
        return "not available"
    items = ", ".join(f"{name} {panas.items[name]}" for name in PANAS_ITEMS if name in panas.items)
    return (
        f"positive affect {panas.total_positive}, negative affect {panas.total_negative}; "
        f"items: {items}"
    )
