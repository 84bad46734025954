from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.estimate_output_estimate import EstimateOutputEstimate





T = TypeVar("T", bound="EstimateOutput")



@_attrs_define
class EstimateOutput:
    """ 
        Attributes:
            units (int):
            calls (int):
            cost_usd (float | None):
            estimate (EstimateOutputEstimate):
     """

    units: int
    calls: int
    cost_usd: float | None
    estimate: EstimateOutputEstimate
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.estimate_output_estimate import EstimateOutputEstimate # noqa: PLC0415
        units = self.units

        calls = self.calls

        cost_usd: float | None
        cost_usd = self.cost_usd

        estimate = self.estimate.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "units": units,
            "calls": calls,
            "cost_usd": cost_usd,
            "estimate": estimate,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.estimate_output_estimate import EstimateOutputEstimate # noqa: PLC0415
        d = dict(src_dict)
        units = d.pop("units")

        calls = d.pop("calls")

        def _parse_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd"))


        estimate = EstimateOutputEstimate.from_dict(d.pop("estimate"))




        estimate_output = cls(
            units=units,
            calls=calls,
            cost_usd=cost_usd,
            estimate=estimate,
        )


        estimate_output.additional_properties = d
        return estimate_output

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
