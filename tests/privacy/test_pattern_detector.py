"""The pattern detector finds each kind it claims, offline, and leaves ordinary talk alone."""

import pytest

from annotations.qa.personal_details.patterns import detect, versions


@pytest.mark.parametrize(
    ("text", "kind", "detail"),
    [
        ("write to sam.lee@outlook.co.uk pls", "email", "sam.lee@outlook.co.uk"),
        ("my number is +44 7911 123456", "phone", "+44 7911 123456"),
        ("call (415) 555-0132 tonight", "phone", "(415) 555-0132"),
        ("text 0412 345 678", "phone", "0412 345 678"),
        ("ring +49 30 1234567", "phone", "+49 30 1234567"),
        ("look at www.myblog.net/about", "url", "www.myblog.net/about"),
        ("follow me @sam_lee99", "handle", "@sam_lee99"),
        ("i live at 221B Baker Street now", "address", "221B Baker Street"),
        ("postcode SW1A 1AA", "postcode", "SW1A 1AA"),
        ("born 12/03/1990", "date", "12/03/1990"),
        ("my bday is March 3rd, 1994", "date", "March 3rd, 1994"),
        ("IBAN GB82WEST12345698765432", "id_number", "GB82WEST12345698765432"),
    ],
)
def test_finds(text, kind, detail):
    found = [(d.kind.value, text[d.start : d.end]) for d in detect(text)]
    assert (kind, detail) in found


def test_ordinary_talk_has_no_finding():
    text = "work was awful today, 3 meetings and my boss yelled. i slept 5 hours. tired :("
    assert detect(text) == []


def test_versions_name_the_detector_and_its_libraries():
    assert set(versions()) == {"detector", "presidio-analyzer", "phonenumbers"}
