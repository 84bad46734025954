"""The English risk phrases after held-out v5 (issue 45): its near-miss alarms were someone else
saying a phrase ("my son keeps saying kms"), a topic in other words than before (the hotline's
number, assisted suicide, a plot staged to look like suicide, risk factors for an essay), a
newcomer who is a burden on the team, an everyday plan, years free of self-harm, dying of
embarrassment and a game's level. Written in other words than v5's, so they test the rule, not
the messages; each side has the participant's own words beside it, which still raise a phrase."""

from __future__ import annotations

import pytest

from annotations.text_checks.lexicons import RISK_PATTERN, matches, risk_phrases

NOT_THE_PARTICIPANTS_CRISIS = [
    # someone else says it, or is the subject of the whole sentence
    "my little brother says kms every time he loses a match",
    "my students keep typing kms in the class chat, should i report it",
    "my daughter texted her friend 'i want to die' after the exam, should i be worried",
    "my cousin overdosed last year and the family still dont talk about it",
    "my flatmate left goodbye notes on the fridge and then went to her mums, shes safe now",
    "a boy in my sons year tried to kill himself and the school sent a letter",
    # a topic: hotlines, laws, research, media, coursework
    "is the suicide helpline free to call from a mobile",
    "where do i find the suicide crisis line for students",
    "debate club topic is whether assisted suicide should be legal",
    "physician-assisted suicide laws in oregon vs switzerland",
    "the podcast about suicide in farming communities was really well done",
    "lecture on self harm in adolescents tomorrow, need to do the reading",
    "the film opens with what looks like a suicide but it turns out to be a murder",
    "was it suicide or murder in the last episode, i missed the ending",
    "what are the warning signs and risk factors for suicide in older men, for my nursing module",
    "volunteering with suicide bereavement support from next month",
    "how do i talk to a suicidal friend on the phone, what do i say first",
    # the participant, but not a crisis
    "been free from self harm for 4 years now, thinking of a tattoo to mark it",
    "i'm a burden on my team until i learn the codebase, any tips",
    "we've got a plan to move abroad next year",
    "i have a plan to pay off my credit card by june",
    "i want to die, i just called my teacher mum by accident 😂",
    "i keep killing myself on the final boss, any tips",
]

THE_PARTICIPANTS_OWN = [
    "i say kms a lot but lately i mean it",
    "kms",
    "my brother doesnt know i want to die",
    "my mum found my goodbye notes",
    "my family would be better off without me",
    "my husband says i'm a burden to everyone and he's right",
    "i was clean from self harm for 3 years but i relapsed last night",
    "free from self harm for 2 months and the urges are back tonight",
    "the suicide thoughts are back",
    "i've got a plan to end it on friday",
    "i have a plan to do it when everyone is out",
    "i'm a burden on my family and they'd be better without me",
    "i want to die, nothing is getting better",
    "i think about suicide all the time",
    "i keep thinking about killing myself on the way home",
    # someone else is the subject, but the phrase is the participant's
    "my kids will find the goodbye notes tomorrow",
    "my parents dont know about the noose",
    "my boyfriend found the lethal dose list",
    "she left and now everything is pointless, no reason to live",
    "he doesnt get that suicide is the only way out",
    "my sister hid the noose but i made another",
    "everyone says kms is a joke but i mean it",
    "my friends think im joking when i say kms",
    "my best friend overdosed last year and i think about doing the same",
]


@pytest.mark.parametrize("text", NOT_THE_PARTICIPANTS_CRISIS)
def test_someone_elses_words_a_topic_or_an_everyday_plan_raise_no_phrase(text):
    assert matches(RISK_PATTERN, text) == []


@pytest.mark.parametrize("text", THE_PARTICIPANTS_OWN)
def test_the_participants_own_words_still_raise_a_phrase(text):
    assert matches(RISK_PATTERN, text)


def test_spanish_and_german_messages_still_get_the_english_phrases():
    assert risk_phrases("la neta kms", "es") == ["kms"]
    assert risk_phrases("ehrlich jetzt, kms", "de") == ["kms"]
    # someone else quoted saying it is read by the message's language too (issue 44, round 7:
    # ``test_lexicon_reading_es_de.py``)
    assert risk_phrases("mein bruder sagt immer kms", "de") == []
