from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.leaderboard_output_boards_item import LeaderboardOutputBoardsItem





T = TypeVar("T", bound="LeaderboardOutput")



@_attrs_define
class LeaderboardOutput:
    """ 
        Attributes:
            release (int):
            boards (list[LeaderboardOutputBoardsItem]):
     """

    release: int
    boards: list[LeaderboardOutputBoardsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.leaderboard_output_boards_item import LeaderboardOutputBoardsItem # noqa: PLC0415
        release = self.release

        boards = []
        for boards_item_data in self.boards:
            boards_item = boards_item_data.to_dict()
            boards.append(boards_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "release": release,
            "boards": boards,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_output_boards_item import LeaderboardOutputBoardsItem # noqa: PLC0415
        d = dict(src_dict)
        release = d.pop("release")

        boards = []
        _boards = d.pop("boards")
        for boards_item_data in (_boards):
            boards_item = LeaderboardOutputBoardsItem.from_dict(boards_item_data)



            boards.append(boards_item)


        leaderboard_output = cls(
            release=release,
            boards=boards,
        )


        leaderboard_output.additional_properties = d
        return leaderboard_output

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
