"""The English risk phrases read whose crisis it is (issue 45: held-out v4's lexicon false
alarms were about someone else, a topic or a trip): a worried relative's "my sister self-harms",
"died by suicide", a suicide prevention talk, "i won't be here next week, off to portugal", a
game, "taking my life back" raise no phrase, while the participant's own words, next to them,
still do."""

from __future__ import annotations

import pytest

from annotations.text_checks.lexicons import RISK_PATTERN, matches

NOT_THE_PARTICIPANTS_CRISIS = [
    "my brother self harms and i dont know how to help him",
    "how do i support my girlfriend, she's been self harming again",
    "my teenager is self harming and the waiting list is months",
    "my friend said she feels suicidal, what else can i do",
    "how do i ask my dad if hes suicidal",
    "a boy at my sons school died by suicide",
    "writing an essay about sylvia plath and her suicide",
    "we had a suicide prevention talk at work",
    "doing a project on suicide rates among farmers",
    "writing my dissertation on self-harm awareness in schools",
    "my grandad keeps saying he'd be better off dead since the stroke",
    "i wont be here next week, going to portugal with the girls",
    "wont be here next weekend, my cousins wedding",
    "i wont be here much longer, my contract ends and then im off travelling",
    "need help with a goodbye note for my manager, she's leaving",
    "theres no point living in london if you never go out",
    "i overdosed on christmas chocolate lol",
    "taking my life back after the divorce, starting with a solo trip",
    "killed myself in fortnite by jumping off the bus too early lol",
]

THE_PARTICIPANTS_OWN = [
    "my mum found out i self harm",
    "she doesnt know ive been self harming",
    "my self harm is getting worse",
    "my therapist thinks im suicidal",
    "he says im suicidal and hes right",
    "i want to die by suicide",
    "i think about my own suicide every day",
    "i was on suicide watch last year and i feel like that again",
    "i'd be better off dead",
    "i wont be here next week",
    "i wont be here next week. not on holiday",
    "i wont be here next week, not going on holiday, just not here",
    "i wont be around much longer, going to do it soon",
    "wrote goodbye letters to my family",
    "no reason to live in this world",
    "i overdosed on my mums sleeping pills",
    "thinking about taking my life",
    "i want to kill myself in my room tonight",
    "the only thing that helps is self harm",
    "my mind is suicidal again tonight",
    "everything has been self harm and sleep this week",
]


@pytest.mark.parametrize("text", NOT_THE_PARTICIPANTS_CRISIS)
def test_someone_elses_crisis_a_topic_a_trip_or_a_game_raises_no_phrase(text):
    assert matches(RISK_PATTERN, text) == []


@pytest.mark.parametrize("text", THE_PARTICIPANTS_OWN)
def test_the_participants_own_words_still_raise_a_phrase(text):
    assert matches(RISK_PATTERN, text)
