from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.release_output_state_enum import ReleaseOutputStateEnum
from typing import cast
import datetime






T = TypeVar("T", bound="ReleaseOutput")



@_attrs_define
class ReleaseOutput:
    """ 
        Attributes:
            id (int):
            name (str):
            version (str):
            state (ReleaseOutputStateEnum): * `draft` - Draft (queued)
                * `building` - Building
                * `frozen` - Frozen
                * `failed` - Failed
            studies (list[str]):
            progress_done (int):
            progress_total (int):
            error (str):
            content_hash (str):
            archive_sha256 (str):
            archive_bytes (int):
            created_at (datetime.datetime):
            frozen_at (datetime.datetime | None):
     """

    id: int
    name: str
    version: str
    state: ReleaseOutputStateEnum
    studies: list[str]
    progress_done: int
    progress_total: int
    error: str
    content_hash: str
    archive_sha256: str
    archive_bytes: int
    created_at: datetime.datetime
    frozen_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        version = self.version

        state = self.state.value

        studies = self.studies



        progress_done = self.progress_done

        progress_total = self.progress_total

        error = self.error

        content_hash = self.content_hash

        archive_sha256 = self.archive_sha256

        archive_bytes = self.archive_bytes

        created_at = self.created_at.isoformat()

        frozen_at: None | str
        if isinstance(self.frozen_at, datetime.datetime):
            frozen_at = self.frozen_at.isoformat()
        else:
            frozen_at = self.frozen_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "version": version,
            "state": state,
            "studies": studies,
            "progress_done": progress_done,
            "progress_total": progress_total,
            "error": error,
            "content_hash": content_hash,
            "archive_sha256": archive_sha256,
            "archive_bytes": archive_bytes,
            "created_at": created_at,
            "frozen_at": frozen_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        version = d.pop("version")

        state = ReleaseOutputStateEnum(d.pop("state"))




        studies = cast(list[str], d.pop("studies"))


        progress_done = d.pop("progress_done")

        progress_total = d.pop("progress_total")

        error = d.pop("error")

        content_hash = d.pop("content_hash")

        archive_sha256 = d.pop("archive_sha256")

        archive_bytes = d.pop("archive_bytes")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_frozen_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frozen_at_type_0 = datetime.datetime.fromisoformat(data)



                return frozen_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        frozen_at = _parse_frozen_at(d.pop("frozen_at"))


        release_output = cls(
            id=id,
            name=name,
            version=version,
            state=state,
            studies=studies,
            progress_done=progress_done,
            progress_total=progress_total,
            error=error,
            content_hash=content_hash,
            archive_sha256=archive_sha256,
            archive_bytes=archive_bytes,
            created_at=created_at,
            frozen_at=frozen_at,
        )


        release_output.additional_properties = d
        return release_output

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
