"""One detail reads as one placeholder across a conversation's texts; the rest is untouched."""

from annotations.qa.personal_details.kinds import DetailKind
from annotations.qa.personal_details.redaction import Span, redact_texts


def test_the_same_detail_keeps_its_number_across_turns_and_the_edited_reply():
    texts = {
        "turns[turnNumber=1].userMessage": "I'm Priya, call 07911 123456",
        "turns[turnNumber=1].annotations.alternateResponses.humanEdited": "Hi priya!",
        "turns[turnNumber=2].userMessage": "Sam and Priya; 07911-123-456",
    }
    spans = [
        Span("turns[turnNumber=1].userMessage", 4, 9, DetailKind.NAME),
        Span("turns[turnNumber=1].userMessage", 16, 28, DetailKind.PHONE),
        Span(
            "turns[turnNumber=1].annotations.alternateResponses.humanEdited", 3, 8, DetailKind.NAME
        ),
        Span("turns[turnNumber=2].userMessage", 0, 3, DetailKind.NAME),
        Span("turns[turnNumber=2].userMessage", 8, 13, DetailKind.NAME),
        Span("turns[turnNumber=2].userMessage", 15, 28, DetailKind.PHONE),
    ]
    assert redact_texts(texts, spans) == {
        "turns[turnNumber=1].userMessage": "I'm [NAME_1], call [PHONE_1]",
        "turns[turnNumber=1].annotations.alternateResponses.humanEdited": "Hi [NAME_1]!",
        "turns[turnNumber=2].userMessage": "[NAME_2] and [NAME_1]; [PHONE_1]",
    }


def test_overlapping_spans_leave_no_fragment_and_out_of_range_spans_are_ignored():
    texts = {"a": "mail jo@x.org now"}
    spans = [
        Span("a", 5, 10, DetailKind.EMAIL),
        Span("a", 8, 13, DetailKind.URL),
        Span("a", 3, 99, DetailKind.NAME),
    ]
    assert redact_texts(texts, spans) == {"a": "mail [EMAIL_1] now"}
