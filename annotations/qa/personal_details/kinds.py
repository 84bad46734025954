"""The kinds of personal detail a finding names, and the placeholder word of each. Pure."""

from __future__ import annotations

from enum import StrEnum


class DetailKind(StrEnum):
    EMAIL = "email"
    PHONE = "phone"
    URL = "url"
    HANDLE = "handle"
    ADDRESS = "address"
    POSTCODE = "postcode"
    DATE = "date"
    ID_NUMBER = "id_number"
    NAME = "name"
    PLACE = "place"
    OTHER = "other"  # what the model mode names beside names and places


# What a redacted span reads as: "[EMAIL_1]", "[NAME_2]" (numbered within a conversation).
PLACEHOLDER_WORD: dict[DetailKind, str] = {
    DetailKind.EMAIL: "EMAIL",
    DetailKind.PHONE: "PHONE",
    DetailKind.URL: "URL",
    DetailKind.HANDLE: "HANDLE",
    DetailKind.ADDRESS: "ADDRESS",
    DetailKind.POSTCODE: "POSTCODE",
    DetailKind.DATE: "DATE",
    DetailKind.ID_NUMBER: "ID",
    DetailKind.NAME: "NAME",
    DetailKind.PLACE: "PLACE",
    DetailKind.OTHER: "DETAIL",
}
