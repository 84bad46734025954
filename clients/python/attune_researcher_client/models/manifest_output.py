from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.manifest_output_manifest import ManifestOutputManifest





T = TypeVar("T", bound="ManifestOutput")



@_attrs_define
class ManifestOutput:
    """ 
        Attributes:
            release (int):
            content_hash (str):
            manifest (ManifestOutputManifest):
     """

    release: int
    content_hash: str
    manifest: ManifestOutputManifest
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.manifest_output_manifest import ManifestOutputManifest # noqa: PLC0415
        release = self.release

        content_hash = self.content_hash

        manifest = self.manifest.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "release": release,
            "content_hash": content_hash,
            "manifest": manifest,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.manifest_output_manifest import ManifestOutputManifest # noqa: PLC0415
        d = dict(src_dict)
        release = d.pop("release")

        content_hash = d.pop("content_hash")

        manifest = ManifestOutputManifest.from_dict(d.pop("manifest"))




        manifest_output = cls(
            release=release,
            content_hash=content_hash,
            manifest=manifest,
        )


        manifest_output.additional_properties = d
        return manifest_output

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
