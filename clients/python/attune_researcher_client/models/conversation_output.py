from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.conversation_output_state_enum import ConversationOutputStateEnum
from ..models.qa_status_enum import QaStatusEnum
from typing import cast
import datetime






T = TypeVar("T", bound="ConversationOutput")



@_attrs_define
class ConversationOutput:
    """ 
        Attributes:
            id (int):
            participant (str):
            state (ConversationOutputStateEnum): * `consented` - Consented
                * `profiled` - Profiled
                * `chatting` - Chatting
                * `post_survey` - Post-chat survey
                * `completed` - Completed
                * `abandoned` - Abandoned
                * `excluded` - Excluded
            turns (int):
            qa_status (None | QaStatusEnum):
            started_at (datetime.datetime | None):
            completed_at (datetime.datetime | None):
     """

    id: int
    participant: str
    state: ConversationOutputStateEnum
    turns: int
    qa_status: None | QaStatusEnum
    started_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        participant = self.participant

        state = self.state.value

        turns = self.turns

        qa_status: None | str
        if isinstance(self.qa_status, QaStatusEnum):
            qa_status = self.qa_status.value
        else:
            qa_status = self.qa_status

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "participant": participant,
            "state": state,
            "turns": turns,
            "qa_status": qa_status,
            "started_at": started_at,
            "completed_at": completed_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        participant = d.pop("participant")

        state = ConversationOutputStateEnum(d.pop("state"))




        turns = d.pop("turns")

        def _parse_qa_status(data: object) -> None | QaStatusEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                qa_status_type_0 = QaStatusEnum(data)



                return qa_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QaStatusEnum, data)

        qa_status = _parse_qa_status(d.pop("qa_status"))


        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)



                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))


        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)



                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        conversation_output = cls(
            id=id,
            participant=participant,
            state=state,
            turns=turns,
            qa_status=qa_status,
            started_at=started_at,
            completed_at=completed_at,
        )


        conversation_output.additional_properties = d
        return conversation_output

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
