"""Spanish and German read whose crisis a phrase is from the whole sentence and message, with
the reader English has (``annotations/text_checks/reading.py``; issue 44, round 7): held-out v6's
lexicon alarms were someone else's crisis, a past told as over, a topic or a laugh far from the
phrase, out of reach of a fixed-width lookbehind. One behaviour a class; each with the
participant's own words beside it, which still raise a phrase. Written here in other words than
v6's lines, so they test the reading, not the messages; the lexicon alone (``risk_phrases``)."""

from __future__ import annotations

import pytest

from annotations.text_checks.lexicons import risk_phrases


def _silent(language: str, text: str) -> None:
    assert risk_phrases(text, language) == [], text


def _fires(language: str, text: str) -> None:
    assert risk_phrases(text, language), text


class TestSomeoneElseIsTheSubjectAnywhereBeforeThePhrase:
    THEIRS = [
        ("es", "mi prima se autolesiona desde el verano, como la ayudo"),
        ("es", "mi hermano tiene ideas suicidas y no se que hacer"),
        ("es", "en el curso nos preguntaron que hacer si alguien habla de suicidio"),
        ("es", "el ultimo capitulo de la serie de anoche me mato"),
        ("de", "meine kollegin hatte vor jahren suizidgedanken und redet offen darüber"),
        ("de", "ich arbeite auf station, gestern wurde eine patientin nach überdosis eingeliefert"),
        ("de", "woran merk ich ob mein sohn suizidgefährdet ist"),
    ]
    OWN = [
        # the participant comes back in later in the clause, or between
        ("es", "mi amiga se autolesiona y yo tambien lo hago"),
        ("es", "mi hermano tiene ideas suicidas y yo tambien"),
        ("es", "mi mama encontro mis cartas de despedida"),
        ("es", "si mi novio me deja me mato"),
        ("es", "al final me mato, ya no aguanto"),
        ("de", "meine freundin hat suizidgedanken und ich auch"),
        ("de", "meine mutter hat meinen abschiedsbrief gefunden"),
    ]

    @pytest.mark.parametrize(("language", "text"), THEIRS)
    def test_their_crisis_raises_no_phrase(self, language, text):
        _silent(language, text)

    @pytest.mark.parametrize(("language", "text"), OWN)
    def test_the_participants_own_still_raises_one(self, language, text):
        _fires(language, text)


class TestAnEnglishPhraseQuotedFromSomeoneElse:
    def test_the_brothers_kms_is_his(self):
        _silent("de", "mein bruder sagt immer kms")
        _silent("es", "mi hermano dice siempre kms cuando pierde en el fifa")

    def test_the_participants_kms_still_fires(self):
        _fires("de", "mein bruder sagt immer kms und ich mein es ernst")
        _fires("es", "mi hermano dice kms pero yo lo digo en serio")
        _fires("es", "la neta kms")
        _fires("de", "kms")


class TestATopicAnywhereInTheMessage:
    def test_coursework_and_fiction_raise_no_phrase(self):
        _silent("es", "para la clase de enfermeria: como se trata una sobredosis de paracetamol")
        _silent("de", "für die pflegeausbildung: woran erkennt man eine überdosis")
        _silent(
            "de",
            "wir schreiben in der schule eine geschichte, wo eine figur überlegt von der brücke "
            "zu springen",
        )

    def test_the_participants_own_beside_a_topic_still_fires(self):
        _fires("es", "no puedo ir a clase, pienso en el suicidio todo el tiempo")
        _fires("de", "ich hab seit der schule suizidgedanken")


class TestAPastToldAsOver:
    def test_a_past_with_years_well_since_raises_no_phrase(self):
        _silent("es", "hace 6 años me autolesionaba, hoy estoy super bien y ayudo a otros")
        _silent("de", "als jugendliche hab ich mich geritzt, ist jetzt aber zehn jahre her")
        _silent(
            "de",
            "mein exfreund hat mir damals geschrieben ich soll mich umbringen, hab ich hinter mir",
        )

    def test_a_past_that_is_back_still_fires(self):
        _fires("es", "hace años me autolesionaba y anoche volvi a hacerlo")
        _fires("de", "früher hab ich mich geritzt und gestern wieder")


class TestALaughAtAGameABossOrAMachine:
    def test_a_laugh_and_an_everyday_cause_anywhere_raise_no_phrase(self):
        _silent("es", "el jefe me grito toda la mañana, me tiro por la ventana jajaja")
        _silent("es", "perdi 30 veces contra el mismo boss, me quiero cortar las venas jaja")
        _silent("de", "der chef ruft schon wieder an, ich spring aus dem fenster haha")

    def test_a_laugh_alone_or_said_in_earnest_still_fires(self):
        _fires("es", "me tiro por la ventana jaja")
        _fires("es", "el jefe me grito, me tiro por la ventana jaja, no es broma")
        _fires("de", "ich spring aus dem fenster, kein witz, mein chef macht mich fertig haha")
