from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.monitor_table_output import MonitorTableOutput





T = TypeVar("T", bound="MonitorOutput")



@_attrs_define
class MonitorOutput:
    """ 
        Attributes:
            study (str):
            tables (list[MonitorTableOutput]):
     """

    study: str
    tables: list[MonitorTableOutput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.monitor_table_output import MonitorTableOutput # noqa: PLC0415
        study = self.study

        tables = []
        for tables_item_data in self.tables:
            tables_item = tables_item_data.to_dict()
            tables.append(tables_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "study": study,
            "tables": tables,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.monitor_table_output import MonitorTableOutput # noqa: PLC0415
        d = dict(src_dict)
        study = d.pop("study")

        tables = []
        _tables = d.pop("tables")
        for tables_item_data in (_tables):
            tables_item = MonitorTableOutput.from_dict(tables_item_data)



            tables.append(tables_item)


        monitor_output = cls(
            study=study,
            tables=tables,
        )


        monitor_output.additional_properties = d
        return monitor_output

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
