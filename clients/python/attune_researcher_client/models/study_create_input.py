from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="StudyCreateInput")



@_attrs_define
class StudyCreateInput:
    """ 
        Attributes:
            slug (str):
            title (str):
            template (str | Unset):  Default: ''.
            copy_of (None | str | Unset):
     """

    slug: str
    title: str
    template: str | Unset = ''
    copy_of: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        template = self.template

        copy_of: None | str | Unset
        if isinstance(self.copy_of, Unset):
            copy_of = UNSET
        else:
            copy_of = self.copy_of


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "slug": slug,
            "title": title,
        })
        if template is not UNSET:
            field_dict["template"] = template
        if copy_of is not UNSET:
            field_dict["copy_of"] = copy_of

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        template = d.pop("template", UNSET)

        def _parse_copy_of(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        copy_of = _parse_copy_of(d.pop("copy_of", UNSET))


        study_create_input = cls(
            slug=slug,
            title=title,
            template=template,
            copy_of=copy_of,
        )


        study_create_input.additional_properties = d
        return study_create_input

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
