"""A participant who skipped the optional diagnosis question is not in the reference group:
"none" means the participant chose "None of these". Skipping it (no option of the question
chosen) leaves the trait unknown, so that conversation is left out of that comparison."""

from attunebench.instrument import default_instrument
from attunebench.records import Conversation, ParticipantProfile
from attunebench.stats import conversation_attributes, trait_groups_from_profile

PEOPLE = {
    "chose_none": ("diagnosis:none",),
    "skipped_question": (),
    "other_traits_only": ("student",),
    "withheld": ("diagnosis:prefer_not_to_say",),
    "anxiety": ("diagnosis:anxiety",),
}


def test_skipping_the_trait_question_is_unknown_not_none():
    conversations = [
        Conversation(cid, participant_profile=ParticipantProfile(participant_id=cid, traits=traits))
        for cid, traits in PEOPLE.items()
    ]
    groups = trait_groups_from_profile(default_instrument().profile, conversations)
    table = conversation_attributes(conversations, groups).set_index("conversation_id")
    column = table["trait:any diagnosis"]
    assert column["chose_none"] == "none"
    assert column["withheld"] == "Prefer not to say"
    assert column["anxiety"] == "any diagnosis"
    assert column.isna()["skipped_question"] and column.isna()["other_traits_only"]
