from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.qa_rule_enum import QaRuleEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ReleaseCreateInput")



@_attrs_define
class ReleaseCreateInput:
    """ 
        Attributes:
            name (str):
            version (str):
            studies (list[str]):
            qa_rule (QaRuleEnum | Unset): * `approved` - QA-approved conversations only
                * `non_excluded` - Every conversation not excluded
            completed_only (bool | Unset):  Default: True.
            subsample_sizes (list[int] | Unset):
            description (str | Unset):  Default: ''.
     """

    name: str
    version: str
    studies: list[str]
    qa_rule: QaRuleEnum | Unset = UNSET
    completed_only: bool | Unset = True
    subsample_sizes: list[int] | Unset = UNSET
    description: str | Unset = ''
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        studies = self.studies



        qa_rule: str | Unset = UNSET
        if not isinstance(self.qa_rule, Unset):
            qa_rule = self.qa_rule.value


        completed_only = self.completed_only

        subsample_sizes: list[int] | Unset = UNSET
        if not isinstance(self.subsample_sizes, Unset):
            subsample_sizes = self.subsample_sizes



        description = self.description


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "version": version,
            "studies": studies,
        })
        if qa_rule is not UNSET:
            field_dict["qa_rule"] = qa_rule
        if completed_only is not UNSET:
            field_dict["completed_only"] = completed_only
        if subsample_sizes is not UNSET:
            field_dict["subsample_sizes"] = subsample_sizes
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        studies = cast(list[str], d.pop("studies"))


        _qa_rule = d.pop("qa_rule", UNSET)
        qa_rule: QaRuleEnum | Unset
        if isinstance(_qa_rule,  Unset):
            qa_rule = UNSET
        else:
            qa_rule = QaRuleEnum(_qa_rule)




        completed_only = d.pop("completed_only", UNSET)

        subsample_sizes = cast(list[int], d.pop("subsample_sizes", UNSET))


        description = d.pop("description", UNSET)

        release_create_input = cls(
            name=name,
            version=version,
            studies=studies,
            qa_rule=qa_rule,
            completed_only=completed_only,
            subsample_sizes=subsample_sizes,
            description=description,
        )


        release_create_input.additional_properties = d
        return release_create_input

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
