from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.flag_count_output import FlagCountOutput
  from ..models.qa_summary_output_reviews import QaSummaryOutputReviews





T = TypeVar("T", bound="QaSummaryOutput")



@_attrs_define
class QaSummaryOutput:
    """ 
        Attributes:
            flags (list[FlagCountOutput]):
            reviews (QaSummaryOutputReviews):
            reviews_total (int):
            reviews_decided (int):
            reviews_open (int):
     """

    flags: list[FlagCountOutput]
    reviews: QaSummaryOutputReviews
    reviews_total: int
    reviews_decided: int
    reviews_open: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.flag_count_output import FlagCountOutput # noqa: PLC0415
        from ..models.qa_summary_output_reviews import QaSummaryOutputReviews # noqa: PLC0415
        flags = []
        for flags_item_data in self.flags:
            flags_item = flags_item_data.to_dict()
            flags.append(flags_item)



        reviews = self.reviews.to_dict()

        reviews_total = self.reviews_total

        reviews_decided = self.reviews_decided

        reviews_open = self.reviews_open


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "flags": flags,
            "reviews": reviews,
            "reviews_total": reviews_total,
            "reviews_decided": reviews_decided,
            "reviews_open": reviews_open,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.flag_count_output import FlagCountOutput # noqa: PLC0415
        from ..models.qa_summary_output_reviews import QaSummaryOutputReviews # noqa: PLC0415
        d = dict(src_dict)
        flags = []
        _flags = d.pop("flags")
        for flags_item_data in (_flags):
            flags_item = FlagCountOutput.from_dict(flags_item_data)



            flags.append(flags_item)


        reviews = QaSummaryOutputReviews.from_dict(d.pop("reviews"))




        reviews_total = d.pop("reviews_total")

        reviews_decided = d.pop("reviews_decided")

        reviews_open = d.pop("reviews_open")

        qa_summary_output = cls(
            flags=flags,
            reviews=reviews,
            reviews_total=reviews_total,
            reviews_decided=reviews_decided,
            reviews_open=reviews_open,
        )


        qa_summary_output.additional_properties = d
        return qa_summary_output

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
