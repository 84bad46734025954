"""A whole participant session in a real browser: the study link, consent, profile, pre-PANAS,
topic, a chat whose replies stream in (with a reload in the middle of a turn and a failed
reply that is retried), the annotation of every reply, post-PANAS, the post-chat questions and
the completion code. Afterwards the database and the exported AttuneBench file must hold every
answer the participant gave.

The chat model is the local OpenAI-compatible test server (real HTTP streaming through litellm,
scripted to fail once); the improved reply comes from the offline demo provider, written by a
real Celery worker while the participant annotates.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_endpoints
from annotations.interchange.to_records import conversation_to_record
from annotations.models import (
    AuditEntry,
    Conversation,
    ConversationState,
    Participant,
    Study,
    StudyStatus,
    TurnStatus,
)
from annotations.services.study_instrument import instrument_of
from attunebench.reader import read_conversation_file
from attunebench.writer import write_conversation_file
from tests.e2e import participant as act
from tests.e2e.servers import KEY_ENV
from tests.e2e.steps import PHONE, Steps
from tests.factories import make_study, make_test_server_endpoint, unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SUPPORT = "If you are in danger, call 112 now. Samaritans: 116 123, any time, free."
CONSENT = "You will chat with an AI assistant for about 20 minutes. You can stop at any time."
PROLIFIC_RETURN = "https://app.prolific.com/submissions/complete?cc=E2E-DONE"
FIRST_MESSAGE = "Some days I feel like I want to end it all, work is too much."
SECOND_MESSAGE = "My manager keeps shouting at me in front of everyone."
EDITED_REPLY = "That sounds so heavy. I am glad you told me. What happened today?"
ANSWER_CYCLE = [
    ("yes", "no"),
    ("no", "yes"),
    ("na", "na"),
    ("yes", "yes"),
    ("no", "no"),
    ("yes", "na"),
]


def upstream_study(openai_server) -> Study:
    chat_model = make_test_server_endpoint(
        openai_server.base_url, KEY_ENV, alias=unique("e2e-upstream"), timeout_s=10.0
    )
    improver = next(e for e in ensure_demo_endpoints() if e.model_name == "improver")
    study = make_study(
        slug=unique("e2e-study"),
        title="Feelings at work",
        status=StudyStatus.RECRUITING,
        recruitment="link",  # its PROLIFIC_PID is made up, not Prolific's form
        consent_text=CONSENT,
        consent_version="e2e-1",
        topics=[
            {"category": "work", "subtopics": ["burnout", "a difficult manager"]},
            {"category": "family", "subtopics": []},
        ],
        min_turns=2,
        max_turns=3,
        completion_code="E2E-DONE",
        screenout_code="E2E-OUT",
        support_resources=SUPPORT,
        target_participants=10,
    )
    study.model_pool.set([chat_model])
    study.improver_endpoint = improver
    study.save()
    return study


@pytest.fixture
def phone_page(browser, platform) -> Page:
    # bypass_csp lets axe-core be injected as a script tag; test_page_under_csp.py loads the
    # app under the real policy.
    context = browser.new_context(viewport=PHONE, bypass_csp=True, locale="en-GB")
    # Prolific is never reached: the redirect at the end lands on a stub.
    context.route(
        "https://app.prolific.com/**",
        lambda route: route.fulfill(body="<title>Prolific</title>", content_type="text/html"),
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_a_participant_goes_from_the_study_link_to_the_completion_code(
    phone_page: Page, platform: str, openai_server, screenshots, tmp_path
):
    page, steps = phone_page, Steps(screenshots)
    openai_server.behaviour.reset()
    openai_server.behaviour.token_delay_s = 0.04
    study = upstream_study(openai_server)
    instrument = instrument_of(study)
    pre = {item: (i % 7) + 1 for i, item in enumerate(instrument.panas_ids)}
    post = {item: ((i + 3) % 7) + 1 for i, item in enumerate(instrument.panas_ids)}
    pid = unique("PIDE2E").replace("-", "")

    # -- the study link, consent, profile ---------------------------------------------------
    page.goto(
        f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=STUDY-E2E&SESSION_ID=SESSION-E2E"
    )
    expect(page.get_by_role("heading", name="Welcome")).to_be_visible()
    expect(page.get_by_text(pid)).to_be_visible()
    steps.capture(page, "landing")
    page.get_by_role("button", name="Start").click()

    expect(page.get_by_role("heading", name="Information and consent")).to_be_visible()
    expect(page.get_by_text(CONSENT)).to_be_visible()
    steps.capture(page, "consent")
    page.get_by_role("button", name="I agree to take part").click()

    expect(page.get_by_role("heading", name="About you")).to_be_visible()
    page.get_by_label("Your age in years").fill("34")
    page.get_by_role("radio", name="Non-binary").check()
    page.get_by_role("checkbox", name="An anxiety disorder").check()
    page.get_by_role("group", name=re.compile("Have you ever been diagnosed")).get_by_role(
        "checkbox", name="Something else"
    ).check()
    page.get_by_label("Please describe (in your own words)").fill("OCD")
    steps.capture(page, "profile")
    page.get_by_role("button", name="Continue").click()

    # -- pre-PANAS and topic ------------------------------------------------------------------
    expect(page.get_by_role("heading", name="How you feel before the chat")).to_be_visible()
    page.get_by_role("button", name="Continue").click()  # nothing answered yet: refused
    expect(page.get_by_role("alert")).to_contain_text("Please answer these first")
    act.answer_panas(page, pre)
    steps.capture(page, "pre-panas")
    page.get_by_role("button", name="Continue").click()

    expect(page.get_by_role("heading", name="Choose a topic")).to_be_visible()
    page.get_by_role("radio", name="Work").check()
    page.get_by_role("radio", name="A difficult manager").check()
    steps.capture(page, "topic")
    page.get_by_role("button", name="Start the chat").click()

    # -- turn 1: a reload while typing, a risky message, a reload in the middle of annotating --
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    expect(page.get_by_role("progressbar", name="0 of 2 replies answered")).to_be_visible()
    with act.draft_saved(page, FIRST_MESSAGE):  # the server's copy too, not only the browser's
        page.get_by_label("Your message").fill(FIRST_MESSAGE)
    page.reload()
    expect(page.get_by_label("Your message")).to_have_value(FIRST_MESSAGE)
    steps.capture(page, "chat-typed-message-survives-reload")
    page.get_by_role("button", name="Send").click()
    # Tokens arriving (the first model call of a fresh server process also imports litellm).
    expect(page.locator(".message-assistant.streaming")).to_be_visible(timeout=20_000)
    expect(page.get_by_role("alert", name="Support is available")).to_contain_text("116 123")
    expect(page.get_by_role("heading", name="About this reply")).to_be_visible(timeout=20_000)
    expect(page.get_by_role("button", name="Send")).to_be_disabled()
    steps.capture(page, "reply-with-support-resources")

    act.tag_feeling(page, "Nervous", 5)
    act.tag_feeling(page, "Upset", 3)
    questions_1 = act.behaviour_questions(page)
    answers_1 = [ANSWER_CYCLE[i % len(ANSWER_CYCLE)] for i in range(len(questions_1))]
    half = len(questions_1) // 2
    for question, (observed, preferred) in zip(questions_1[:half], answers_1[:half], strict=True):
        act.answer_behaviour(page, question, observed, preferred)
    with act.draft_saved(page, EDITED_REPLY):
        page.get_by_label(re.compile("Edit the reply")).fill(EDITED_REPLY)
    page.reload()  # mid-annotation: everything given so far must come back
    expect(page.get_by_role("checkbox", name=re.compile(r"^Nervous\b"))).to_be_checked()
    expect(
        act.option(page.get_by_role("group", name="How strongly do you feel nervous?"), "5")
    ).to_be_checked()
    expect(page.get_by_label(re.compile("Edit the reply"))).to_have_value(EDITED_REPLY)
    first = page.get_by_role("group", name=questions_1[0], exact=True)
    expect(
        first.get_by_role("radiogroup", name="Did it?").get_by_role("radio", name="Yes")
    ).to_be_checked()
    for question, (observed, preferred) in zip(questions_1[half:], answers_1[half:], strict=True):
        act.answer_behaviour(page, question, observed, preferred)
    shown_1 = act.wait_for_comparison(page)
    pairwise_1 = act.comparison_questions(page)
    winners_1 = ["B"] + ["A"] * (len(pairwise_1) - 1)
    for question, winner in zip(pairwise_1, winners_1, strict=True):
        act.choose(page, question, winner)
    steps.capture(page, "annotation-complete")
    page.get_by_role("button", name="Save my answers").click()
    expect(page.get_by_role("heading", name="About this reply")).to_be_hidden()
    expect(page.get_by_role("progressbar", name="1 of 2 replies answered")).to_be_visible()

    # -- turn 2: the model fails once; the participant retries --------------------------------
    openai_server.behaviour.server_error()
    page.get_by_label("Your message").fill(SECOND_MESSAGE)
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("alert").filter(has_text="could not be written")).to_be_visible(
        timeout=20_000
    )
    expect(page.get_by_text(SECOND_MESSAGE)).to_be_visible()  # the message itself is kept
    steps.capture(page, "reply-failed")
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("heading", name="About this reply")).to_be_visible(timeout=20_000)
    page.get_by_role("checkbox", name="No clear change").check()
    questions_2 = act.behaviour_questions(page)
    for question in questions_2:
        act.answer_behaviour(page, question, "na", "no")
    shown_2 = act.wait_for_comparison(page)
    pairwise_2 = act.comparison_questions(page)
    for question in pairwise_2:
        act.choose(page, question, None)
    page.get_by_role("button", name="Save my answers").click()
    expect(page.get_by_role("progressbar", name=re.compile(r"^2 replies answered"))).to_be_visible()
    steps.capture(page, "chat-minimum-reached")

    # -- finish, post-PANAS, the post-chat questions -------------------------------------------
    page.get_by_role("button", name="Finish the chat").click()
    page.get_by_role("button", name="Yes, finish the chat").click()
    expect(page.get_by_role("heading", name="How you feel after the chat")).to_be_visible()
    act.answer_panas(page, post)
    steps.capture(page, "post-panas")
    page.get_by_role("button", name="Continue").click()

    expect(page.get_by_role("heading", name="About the whole conversation")).to_be_visible()
    q1, q2, q3 = instrument.q1_looking_for, instrument.q2_emotion_clarity, instrument.q3_model_fit
    something_else = next(o for o in q1.options if o.other)
    looking_for = [q1.options[0], q1.options[5], something_else]
    for chosen in looking_for:
        page.get_by_role("group", name=q1.prompt).get_by_role("checkbox", name=chosen.label).check()
    page.get_by_role("group", name=q1.prompt).get_by_label(
        "Please describe (in your own words)"
    ).fill("To feel less alone")
    page.get_by_role("group", name=q2.prompt).get_by_role("radio", name=q2.options[2].label).check()
    fit = next(o for o in q3.options if o.id in instrument.q3_follow_up.shown_when)
    page.get_by_role("group", name=q3.prompt).get_by_role(
        "radio", name=fit.label, exact=True
    ).check()
    page.get_by_label(instrument.q3_follow_up.prompt).fill("It gave advice too fast.")
    ratings = dict(zip(instrument.branch_ids, (5, 4, 6, 3), strict=True))
    for branch in instrument.four_branches:
        act.answer_scale(page, branch.participant_wording, ratings[branch.id])
    steps.capture(page, "post-survey")
    page.get_by_role("button", name="Submit my answers").click()

    # -- the completion code and the way back to Prolific --------------------------------------
    expect(page.get_by_role("heading", name="Thank you!")).to_be_visible()
    expect(page.get_by_text("E2E-DONE", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Return to Prolific")).to_have_attribute(
        "href", PROLIFIC_RETURN
    )
    steps.capture(page, "complete")
    page.wait_for_url(PROLIFIC_RETURN, timeout=15_000)  # the automatic redirect
    steps.check()

    # -- what the database holds --------------------------------------------------------------
    person = Participant.objects.get(study=study, prolific_pid=pid)
    assert (person.prolific_study_id, person.prolific_session_id) == ("STUDY-E2E", "SESSION-E2E")
    assert person.consent_version == "e2e-1" and person.consented_at is not None
    # The profile is stored as the instrument's option ids; diagnoses are the trait groups.
    assert (person.age, person.traits, person.goals) == (
        34,
        ["diagnosis:anxiety", "diagnosis:other"],
        [],
    )
    assert (person.responses["gender"], person.responses["diagnoses_other"]) == (
        "non_binary",
        "OCD",
    )
    conversation = Conversation.objects.get(participant=person)
    assert conversation.state == ConversationState.COMPLETED
    assert (conversation.topic_category, conversation.topic_subtopic) == (
        "work",
        "a difficult manager",
    )
    turns = list(conversation.turns.order_by("number"))
    assert [(t.number, t.user_message, t.status) for t in turns] == [
        (1, FIRST_MESSAGE, TurnStatus.DONE),
        (2, SECOND_MESSAGE, TurnStatus.DONE),
    ]
    assert AuditEntry.objects.filter(
        action="annotations.turn.fail", target_id=str(turns[1].pk)
    ).exists()
    assert AuditEntry.objects.filter(
        action="annotations.turn.retry", target_id=str(turns[1].pk)
    ).exists()
    assert turns[0].signals.filter(kind="risk").exists()
    for turn, shown in ((turns[0], shown_1), (turns[1], shown_2)):
        plan = turn.annotation.pairwise_plan[0]
        texts = {"original": turn.model_reply, "alternate": turn.annotation.llm_improved_reply}
        assert shown == (texts[plan["response_a"]], texts[plan["response_b"]])

    # -- the exported AttuneBench file holds every answer given --------------------------------
    path = write_conversation_file(conversation_to_record(conversation), tmp_path)
    record = read_conversation_file(path)
    assert record.pre_panas.items == pre and record.post_panas.items == post
    wide = record.conversation_wide
    assert list(wide.looking_for) == [o.id for o in looking_for]
    assert wide.other == {"q1_lookingFor_other": "To feel less alone"}  # "Something else"
    assert (wide.emotion_clarity, wide.model_fit) == (q2.options[2].id, fit.id)
    assert list(wide.what_felt_off) == ["It gave advice too fast."]
    assert {b: getattr(wide.four_branch, b) for b in ratings} == ratings
    assert record.participant_profile.age == 34
    assert record.participant_profile.traits == ("diagnosis:anxiety", "diagnosis:other")
    assert record.participant_profile.responses["diagnoses_other"] == "OCD"
    assert record.participant_profile.responses["gender"] == "non_binary"
    one, two = record.turns
    assert [(t.emotion, t.intensity) for t in one.mood_tags] == [("Nervous", 5), ("Upset", 3)]
    assert two.mood_tags == ()  # "no clear change"
    wording = {q.participant_wording: q.id for q in instrument.behaviour_questions}
    assert [
        (j.question_id, j.observed, j.preferred) for j in one.annotations.binary_judgements
    ] == [
        (wording[q], observed, preferred)
        for q, (observed, preferred) in zip(questions_1, answers_1, strict=True)
    ]
    assert [
        (j.question_id, j.observed, j.preferred) for j in two.annotations.binary_judgements
    ] == [(wording[q], "na", "no") for q in questions_2]
    assert one.annotations.human_edited == EDITED_REPLY
    assert two.annotations.human_edited == two.llm_response  # left as it was
    assert one.annotations.llm_improved and two.annotations.llm_improved
    assert [c.winner for c in one.annotations.pairwise_comparisons] == winners_1
    assert [c.winner for c in two.annotations.pairwise_comparisons] == [None] * len(pairwise_2)
    assert len(pairwise_1) == len(one.annotations.selected_pairwise_questions) >= 1
