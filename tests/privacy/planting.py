"""Plant personal details in a demo conversation, and search a release folder for them."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pyarrow.parquet as pq

from annotations.models import Conversation, Turn, TurnAnnotation

NAME = "Priya"
EMAIL = "priya.k88@gmail.com"
PHONE = "+44 7911 123456"
ADDRESS = "42 Oak Lane"
HANDLE = "@priya_k88"
DATE = "3rd March 1994"
# Each planted detail the detectors find, and the name only a reviewer marks.
DETECTED = (EMAIL, PHONE, ADDRESS, HANDLE, DATE)
PLANTED = (*DETECTED, NAME)


def plant(conversation: Conversation) -> None:
    """Turn 1 and turn 2 name the same e-mail (one placeholder), the model quotes the phone
    back, and the participant's edited reply of turn 1 repeats the e-mail and the name."""
    turns = list(Turn.objects.filter(conversation=conversation).order_by("number"))
    Turn.objects.filter(pk=turns[0].pk).update(
        user_message=f"I'm {NAME}, mail me at {EMAIL} or ring {PHONE}. I live at {ADDRESS}.",
        model_reply=f"Thanks {NAME}. I won't call {PHONE}, but I'm here to listen.",
    )
    Turn.objects.filter(pk=turns[1].pk).update(
        user_message=f"my insta is {HANDLE}, born {DATE}, same email {EMAIL}"
    )
    TurnAnnotation.objects.filter(turn=turns[0]).update(
        human_edited_reply=f"Thanks {NAME}, write to {EMAIL} whenever you need."
    )


def texts_of_release(folder: Path) -> dict[str, str]:
    """Every file of a release as text, parquet tables and the archive's members included."""
    found: dict[str, str] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        found.update(_texts(str(path.relative_to(folder)), path.read_bytes()))
    return found


def _texts(name: str, data: bytes) -> dict[str, str]:
    if name.endswith(".parquet"):
        return {name: str(pq.read_table(io.BytesIO(data)).to_pylist())}
    if name.endswith(".tar.gz"):
        out: dict[str, str] = {}
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                handle = archive.extractfile(member)
                if handle is not None:
                    out.update(_texts(f"{name}/{member.name}", handle.read()))
        return out
    return {name: data.decode("utf-8", errors="replace")}
