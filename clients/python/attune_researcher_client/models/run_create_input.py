from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

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
            subsample (str | Unset):  Default: ''.
            seed (int | Unset):
     """

    release: int
    models: list[str]
    judges: list[str] | Unset = UNSET
    modes: list[ModesEnum] | Unset = UNSET
    subsample: str | Unset = ''
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


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("release", (None, str(self.release).encode(), "text/plain")))



        for models_item_element in self.models:
            files.append(("models", (None, str(models_item_element).encode(), "text/plain")))




        if not isinstance(self.judges, Unset):
            for judges_item_element in self.judges:
                files.append(("judges", (None, str(judges_item_element).encode(), "text/plain")))




        if not isinstance(self.modes, Unset):
            for modes_item_element in self.modes:
                files.append(("modes",  (None, str(modes_item_element.value).encode(), "text/plain")))




        if not isinstance(self.subsample, Unset):
            files.append(("subsample", (None, str(self.subsample).encode(), "text/plain")))



        if not isinstance(self.seed, Unset):
            files.append(("seed", (None, str(self.seed).encode(), "text/plain")))




        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


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


        subsample = d.pop("subsample", UNSET)

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
