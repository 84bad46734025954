"""The "how to read this" note under each table of the report (report.html and the admin).

Plain words, one note per table key; they say what a row means, what the interval is, and what
would count as a finding, so a reader who is not a statistician can use every table.
"""

from __future__ import annotations

HOW_TO_READ: dict[str, str] = {
    "leaderboard": (
        "Each cell is a model's mean over the conversations, with a 95% interval from "
        "resampling conversations: intervals built this way contain the true mean about 19 "
        "times in 20. The rank interval says which places the model could hold; two "
        "models whose rank intervals overlap are not reliably ordered. Baselines answer without "
        "a model (chance, majority, no change): a model at or below a baseline has learnt nothing "
        "that axis measures."
    ),
    "pairs": (
        "For every two models, a paired test over the conversations both were scored on; "
        "'N of M pairs distinguished' counts the pairs whose difference survives the Holm "
        "correction for testing all M pairs of the axis (or, where the report says so, all "
        "pairs of all axes at once). An axis that tells few pairs apart "
        "cannot rank these models, however different their means look. The intervals of the "
        "differences are not adjusted; the paragraph below says what is corrected and what "
        "is not."
    ),
    "ranks": (
        "Kendall's tau compares how two axes order the models: +1 the same order, 0 unrelated, "
        "−1 reversed. The permutation p-value is the chance of a tau this far from 0 if the two "
        "rankings were independent; with few models only a large tau can be told from chance. "
        "A large p-value means the rankings cannot be told from independent ones with this many "
        "models, not that they are independent: with about ten models, even two axes that "
        "largely measure the same ability often give p above 0.05."
    ),
    "subgroups": (
        "Each row compares the conversations of one participant group with the reference group "
        "(for a trait: the participants who chose none of the traits; those who skipped the "
        "question are left out of the comparison; for a topic, an original model or a language: "
        "the conversations of every other one), per conversation "
        "averaged over the models. A negative difference means the models did worse for that "
        "group; an interval that contains 0 means the data cannot tell. The interval and the "
        "p-value come from resampling participants with all their conversations, since one "
        "person's conversations are not independent evidence about their group; the p-value "
        "is adjusted (Holm) for all the group comparisons of the axis, the interval is not. "
        "Small groups (few participants) are marked: their intervals are wide and their "
        "estimates unstable."
    ),
    "modes": (
        "The difference between two modes of the same model on the same conversations, e.g. "
        "omniscient (the model also sees the participant's profile and pre-chat mood) minus "
        "default. A positive difference with an interval above 0 means the extra context "
        "helped; around 0, the model did not use it."
    ),
    "judges": (
        "How often two judges give the same yes/no answer about the same model draft, and "
        "Cohen's kappa, which discounts the agreement expected by chance from how often each "
        "says yes (0 = chance, 1 = perfect; above 0.6 is usually called substantial)."
    ),
    "participants": (
        "Each judge against the participant: the participant said, in the first person, what "
        "the reply they got did (original reply) and what they wanted (their own edited reply); "
        "the judge answered the same questions about the same replies. Kappa (with its 95% "
        "interval from resampling conversations) discounts chance agreement; accuracy is the "
        "raw share of equal answers. 'Judge yes / participant no' is the share of the "
        "participant's no answers the judge called yes (the judge sees behaviour the person did "
        "not), and the reverse. Judge-judge rows beside them show how far the judges agree with "
        "each other: judges that agree with each other far more than with the participants "
        "share a view the participants do not."
    ),
    "parse": (
        "The share of calls whose answer could not be read even after repairs and re-asks. "
        "Such answers score as missing (as in the reference), so a model with many failures "
        "loses points for format, not for emotional intelligence: read its scores with that "
        "in mind. The draft_judge_turns column counts turns, not calls: a turn keeps its judged "
        "quality score only when every judge answered, so the turns where a judge failed are "
        "left out of that axis rather than scored by the other judges alone."
    ),
    "reproducibility": (
        "Everything needed to obtain these numbers again: the frozen release and its content "
        "hash, the prompt and engine versions, the scoring options, the seeds and the judges, "
        "and for each model and judge its configuration: the model string, the sampling "
        "parameters, the system prompt it was sent and an id that changes when any of these "
        "does. The endpoint settings (concurrency, rate limits, timeouts) are listed apart: "
        "they decide how fast the calls were made, not what the models answered. "
        "Running the command on the same release gives the same report; answers come from the "
        "call cache where it still holds them, and from the models again otherwise."
    ),
}


def note(key: str) -> str:
    return HOW_TO_READ[key]
