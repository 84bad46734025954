from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_output_status_enum import RunOutputStatusEnum
from typing import cast
import datetime






T = TypeVar("T", bound="RunOutput")



@_attrs_define
class RunOutput:
    """ 
        Attributes:
            id (int):
            release (int):
            status (RunOutputStatusEnum): * `queued` - Queued
                * `running` - Running
                * `scoring` - Scoring (building the report)
                * `cancelled` - Cancelled
                * `completed` - Completed
                * `failed` - Failed
            units_total (int):
            units_done (int):
            units_failed (int):
            calls_made (int):
            estimated_calls (int):
            cost_usd (float):
            error (str):
            created_at (datetime.datetime):
            started_at (datetime.datetime | None):
            finished_at (datetime.datetime | None):
     """

    id: int
    release: int
    status: RunOutputStatusEnum
    units_total: int
    units_done: int
    units_failed: int
    calls_made: int
    estimated_calls: int
    cost_usd: float
    error: str
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        release = self.release

        status = self.status.value

        units_total = self.units_total

        units_done = self.units_done

        units_failed = self.units_failed

        calls_made = self.calls_made

        estimated_calls = self.estimated_calls

        cost_usd = self.cost_usd

        error = self.error

        created_at = self.created_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "release": release,
            "status": status,
            "units_total": units_total,
            "units_done": units_done,
            "units_failed": units_failed,
            "calls_made": calls_made,
            "estimated_calls": estimated_calls,
            "cost_usd": cost_usd,
            "error": error,
            "created_at": created_at,
            "started_at": started_at,
            "finished_at": finished_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        release = d.pop("release")

        status = RunOutputStatusEnum(d.pop("status"))




        units_total = d.pop("units_total")

        units_done = d.pop("units_done")

        units_failed = d.pop("units_failed")

        calls_made = d.pop("calls_made")

        estimated_calls = d.pop("estimated_calls")

        cost_usd = d.pop("cost_usd")

        error = d.pop("error")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




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


        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)



                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))


        run_output = cls(
            id=id,
            release=release,
            status=status,
            units_total=units_total,
            units_done=units_done,
            units_failed=units_failed,
            calls_made=calls_made,
            estimated_calls=estimated_calls,
            cost_usd=cost_usd,
            error=error,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
        )


        run_output.additional_properties = d
        return run_output

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
