from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.modes_enum import ModesEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunCreateInput")



@_attrs_define
class RunCreateInput:
    """ 
        Attributes:
            release (int):
            models (list[str]):
            judges (list[str] | Unset):
            modes (list[ModesEnum] | Unset):
            subsample (str | Unset):
            seed (int | Unset):
     """

    release: int
    models: list[str]
    judges: list[str] | Unset = UNSET
    modes: list[ModesEnum] | Unset = UNSET
    subsample: str | Unset = UNSET
    seed: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        release = self.release

        models = self.models



        judges: list[str] | Unset = UNSET
        if not isinstance(self.judges, Unset):
            judges = self.judges



        modes: list[str] | Unset = UNSET
        if not isinstance(self.modes, Unset):
            modes = []
            for modes_item_data in self.modes:
                modes_item = modes_item_data.value
                modes.append(modes_item)



        subsample: str | Unset
        if isinstance(self.subsample, Unset):
            subsample = UNSET
        else:
            subsample = self.subsample

        seed = self.seed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "release": release,
            "models": models,
        })
        if judges is not UNSET:
            field_dict["judges"] = judges
        if modes is not UNSET:
            field_dict["modes"] = modes
        if subsample is not UNSET:
            field_dict["subsample"] = subsample
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        release = d.pop("release")

        models = cast(list[str], d.pop("models"))


        judges = cast(list[str], d.pop("judges", UNSET))


        _modes = d.pop("modes", UNSET)
        modes: list[ModesEnum] | Unset = UNSET
        if _modes is not UNSET:
            modes = []
            for modes_item_data in _modes:
                modes_item = ModesEnum(modes_item_data)



                modes.append(modes_item)


        def _parse_subsample(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        subsample = _parse_subsample(d.pop("subsample", UNSET))


        seed = d.pop("seed", UNSET)

        run_create_input = cls(
            release=release,
            models=models,
            judges=judges,
            modes=modes,
            subsample=subsample,
            seed=seed,
        )


        run_create_input.additional_properties = d
        return run_create_input

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
