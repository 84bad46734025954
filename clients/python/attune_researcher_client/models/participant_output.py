from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="ParticipantOutput")



@_attrs_define
class ParticipantOutput:
    """ 
        Attributes:
            id (int):
            pseudonym (str):
            consented_at (datetime.datetime | None):
            withdrawn (bool):
            screened_out_at (datetime.datetime | None):
            created_at (datetime.datetime):
     """

    id: int
    pseudonym: str
    consented_at: datetime.datetime | None
    withdrawn: bool
    screened_out_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pseudonym = self.pseudonym

        consented_at: None | str
        if isinstance(self.consented_at, datetime.datetime):
            consented_at = self.consented_at.isoformat()
        else:
            consented_at = self.consented_at

        withdrawn = self.withdrawn

        screened_out_at: None | str
        if isinstance(self.screened_out_at, datetime.datetime):
            screened_out_at = self.screened_out_at.isoformat()
        else:
            screened_out_at = self.screened_out_at

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "pseudonym": pseudonym,
            "consented_at": consented_at,
            "withdrawn": withdrawn,
            "screened_out_at": screened_out_at,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        pseudonym = d.pop("pseudonym")

        def _parse_consented_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                consented_at_type_0 = datetime.datetime.fromisoformat(data)



                return consented_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        consented_at = _parse_consented_at(d.pop("consented_at"))


        withdrawn = d.pop("withdrawn")

        def _parse_screened_out_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                screened_out_at_type_0 = datetime.datetime.fromisoformat(data)



                return screened_out_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        screened_out_at = _parse_screened_out_at(d.pop("screened_out_at"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        participant_output = cls(
            id=id,
            pseudonym=pseudonym,
            consented_at=consented_at,
            withdrawn=withdrawn,
            screened_out_at=screened_out_at,
            created_at=created_at,
        )


        participant_output.additional_properties = d
        return participant_output

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
