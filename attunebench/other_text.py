"""The participant's own words for an option that asks for them ("Something else"), pure.

Every choice question of a study can have such an option: the profile questionnaire's
(``"other": true`` on a profile option), the post-chat questions' (the same flag on an
instrument option) and the topic list's (``"other": true`` on a study topic). The API takes
the texts as ``other_text``: a question id -> the text; the answer itself stays an option id,
and the text is stored beside it under ``<key>_other`` (``diagnoses_other``,
``q1_lookingFor_other``, ``category_other``), so it reaches the exported file and the release.
"""

from __future__ import annotations

from collections.abc import Mapping

from attunebench.errors import AttuneBenchError

MAX_OTHER_CHARS = 200
# Where the texts go in a record: the topic's in its metadata, the post-chat questions' (by the
# instrument's question id) in its conversation-wide answers, each the format's key + "_other".
TOPIC_OTHER_KEY = "category_other"
WIDE_OTHER_KEYS = {
    "q1_looking_for": "q1_lookingFor_other",
    "q2_emotion_clarity": "q2_emotionClarity_other",
    "q3_model_fit": "q3_modelFit_other",
}


class OtherTextError(AttuneBenchError):
    def __init__(self, field_path: str, message: str) -> None:
        super().__init__(f"{field_path}: {message}")
        self.field = field_path
        self.message = message


def clean_other_texts(wants_text: Mapping[str, bool], texts: Mapping[str, str]) -> dict[str, str]:
    """The texts to store, by question id: one for each question whose chosen option asks
    for it (1 to MAX_OTHER_CHARS characters once trimmed), none for any other.

    ``wants_text`` lists every question that may be named (question id -> does an option
    chosen there ask for text). Raises OtherTextError naming ``other_text.<question id>``.
    """
    for qid in texts:
        if qid not in wants_text:
            raise OtherTextError(f"other_text.{qid}", "is not a question of this questionnaire")
    cleaned: dict[str, str] = {}
    for qid, wanted in wants_text.items():
        text = (texts.get(qid) or "").strip()
        if wanted and not 1 <= len(text) <= MAX_OTHER_CHARS:
            raise OtherTextError(
                f"other_text.{qid}", f"please describe it (1 to {MAX_OTHER_CHARS} characters)"
            )
        if text and not wanted:
            raise OtherTextError(f"other_text.{qid}", "text belongs to an option that asks for it")
        if wanted:
            cleaned[qid] = text
    return cleaned
