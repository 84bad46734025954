from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.study_output_status_enum import StudyOutputStatusEnum
from typing import cast
import datetime






T = TypeVar("T", bound="StudyOutput")



@_attrs_define
class StudyOutput:
    """ 
        Attributes:
            slug (str):
            title (str):
            status (StudyOutputStatusEnum): * `draft` - Draft
                * `recruiting` - Recruiting
                * `paused` - Paused
                * `closed` - Closed
            target_participants (int):
            participants (int):
            conversations (int):
            created_at (datetime.datetime):
     """

    slug: str
    title: str
    status: StudyOutputStatusEnum
    target_participants: int
    participants: int
    conversations: int
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        status = self.status.value

        target_participants = self.target_participants

        participants = self.participants

        conversations = self.conversations

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "slug": slug,
            "title": title,
            "status": status,
            "target_participants": target_participants,
            "participants": participants,
            "conversations": conversations,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        status = StudyOutputStatusEnum(d.pop("status"))




        target_participants = d.pop("target_participants")

        participants = d.pop("participants")

        conversations = d.pop("conversations")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        study_output = cls(
            slug=slug,
            title=title,
            status=status,
            target_participants=target_participants,
            participants=participants,
            conversations=conversations,
            created_at=created_at,
        )


        study_output.additional_properties = d
        return study_output

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
