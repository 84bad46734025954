"""Word lists for the text checks. Pure, so the chat backend uses the same ones live.

``matches(pattern, text)`` is the one entry point: it normalises the text first
(``normalise.py``: NFKC, curly apostrophes to straight, zero-width characters removed, case
folded, whitespace collapsed, "dont"/"im"/"cant" spelled out), so the patterns below are
written for lower-case text with straight apostrophes and single spaces.

Deliberately narrow for identities: a list that fires on every "meta" or "google it" would
train reviewers to ignore the flag. Deliberately wide for risk: a false alarm costs a reviewer
a glance, a miss leaves a person in crisis without a look. Everyday figures of speech ("this
deadline is killing me", "I nearly died laughing", "my phone died") are kept out by asking for
the first person and by the exclusions beside each phrase. ``tests/safety/corpus.py`` is the
labelled corpus the risk pattern is measured on (every risk message caught, at most 2% of the
everyday ones flagged; figures in docs/benchmarks.md).
"""

from __future__ import annotations

import re

from annotations.text_checks.lexicons_de import READING_DE, RISK_PHRASES_DE
from annotations.text_checks.lexicons_es import READING_ES, RISK_PHRASES_ES
from annotations.text_checks.normalise import normalise, primary_language
from annotations.text_checks.reading import Reading, someone_elses

# A reply that names a vendor or model family breaks the anonymisation of the study.
IDENTITY_PATTERN = re.compile(
    r"\b(?:open\s?ai|chat\s?gpt|gpt-?[345](?:\.\d)?o?|anthropic|claude|gemini|bard|"
    r"google\s+deepmind|trained\s+by\s+google|meta\s+ai|llama\s?\d*|mistral|mixtral|"
    r"deepseek|qwen|copilot|large\s+language\s+model\s+(?:made|developed|trained)\s+by)\b",
    re.IGNORECASE,
)

# Pieces shared by several phrases below (normalised text: "don't", "i'm", single spaces).
_NEG = r"(?:don't|do not|doesn't|didn't|no longer|never|not) (?:even |really |ever )?"
_END = r"(?= ?(?:$|[.,!?;:)]|any ?more|again|ever|living|like this))"  # the phrase ends there
_MYSELF = r"(?:myself|my self|me self)"
_DIE_FIGURE = (  # "die of embarrassment", "dying inside", and "die my hair" (dye)
    r"(?! (?:of|from|with|laughing|for (?:a|some)|inside|a little|"
    r"(?:my|your|her|his|the) (?:hair|clothes|shirt|jeans|fabric))\b)"
)
# Dying of embarrassment said another way: "ugh i want to die, my crush saw me trip 💀"
_EMBARRASSED = (
    r"(?![^.!?\n]{0,80}(?:💀|😂|🤣|😭😭|\bembarrass\w*|\bcringe\w*|\bmortif\w*|\bawkward\b"
    r"|\bso red\b|\bhow do i act normal\b))"
)
_ACCIDENT = (
    r"(?! (?:shaving|cooking|chopping|slicing|skiing|running|lifting|playing|training|while|"
    r"on (?:a|the|some)|at (?:the|work|football)|by accident|accidentally|a (?:slice|piece|bit)|"
    r"off from|off (?:social|the)))"
)
_OVERWORK = (
    r"(?! (?:laughing|with laughter|at (?:the|work)|over |trying to|working|studying|training|"
    r"with (?:all|this|overtime|work)|for (?:this|that|the|a|my|nothing)\b|to (?:finish|get|meet)"
    r"|(?:in|on) (?:the )?(?:game|fortnite|minecraft|roblox|gta|warzone|mario kart)\b"
    # a game's level or boss, whatever the game: "killing myself on the same level"
    r"|(?:on|at|in) (?:the|this|that|every|each) (?:same |last |final |first )?(?:level|boss"
    r"|stage|map|track|checkpoint|jump|round|match|run|section)s?\b))"
)
_SUICIDE = r"su(?:i?c|is)i?d(?:e|al|le|ally|es)?\b"  # and its common typos
_PILLS = r"(?:pills|meds|medication|tablets|paracetamol|sleeping pills)"


def _not_after(*words: str) -> str:
    """The phrase does not count right after any of ``words`` (one lookbehind each: Python's
    ``re`` needs each of fixed width)."""
    return "".join(rf"(?<!\b{re.escape(word)} )" for word in words)


# Someone else is the subject: a worried relative's "my sister self-harms", "she's been self
# harming", "he's suicidal", "she feels suicidal" (held-out v4's near-misses). Third-person
# subjects only, each with its verb ("my teenager is", "she feels"): a bare "is" or "feels" would
# also silence the participant's own "the only thing that helps is self harm", "my mind is
# suicidal again"; never "i", "i've been", "i was" or "my".
_OTHERS = (
    *("she", "he", "they", "sister", "brother", "friend", "son", "daughter", "mum", "mom"),
    *("dad", "teenager", "kid", "child", "partner", "girlfriend", "boyfriend", "wife"),
    *("husband", "cousin", "nephew", "niece", "student", "patient", "colleague"),
)
_MEDIA = (
    *("essay", "essays", "project", "dissertation", "thesis", "paper", "report", "assignment"),
    *("documentary", "book", "novel", "film", "movie", "show", "series", "song", "poem", "play"),
    *("podcast", "article", "episode", "presentation", "debate", "talk", "study", "studies"),
)
_SOMEONE_ELSE = _not_after(
    *_OTHERS,
    *("shes", "hes", "she's", "he's", "they're", "she's been", "he's been", "shes been"),
    *("hes been", "they've been"),
    *(f"{who} {verb}" for who in _OTHERS for verb in ("is", "feels", "seems", "has been", "was")),
)
# A topic, not an act: "suicide prevention week", "self-harm awareness", "suicide rates", the
# hotline's number, a debate on the law, a crime plot ("suicide or murder").
_TOPIC = (
    r"(?! (?:prevention|awareness|severity|rates?|statistics|stats|training|hotlines?|helplines?"
    r"|lifelines?|crisis (?:line|lines|number|centre|center|team)|lines?|numbers?|charity"
    r"|charities|bereavement|survivors?|loss|risk factors|risk assessments?|screening|research"
    r"|laws?|legislation|debates?|contagion|clusters?|bombers?|bombings?|or (?:murder|homicide"
    r"|an accident|accident|natural causes)|(?:and|vs|versus|or) euthanasia"
    # someone else called so: "supporting a suicidal partner", "suicidal patients"
    r"|(?:" + "|".join(w for w in _OTHERS if w not in ("she", "he", "they")) + r"|person|people"
    r"|teens|clients|callers)s?)\b)"
)
# The topic named before it: coursework and media about it, a law, a plot ("staged to look like
# suicide", "risk factors for suicide", "assisted suicide", "the main character attempts suicide").
_TOPIC_BEFORE = _not_after(
    *("assisted", "physician-assisted", "doctor-assisted", "risk factors for", "risk of"),
    *("look like", "looks like", "looked like", "like a", "investigating a", "whether it was"),
    *("if it was", "was it", "rates of", "attempts", "learned about", "learnt about"),
    *("learning about", "lecture on", "lesson on", "lesson about", "class on", "module on"),
    *(f"{what} {about}" for about in ("about", "on") for what in _MEDIA),
)

# Years free of it, told in passing ("clean from self harm for 6 years now"), unless the sentence
# goes on to a relapse or an urge.
_RECOVERED = (
    r"(?!(?:(?<=clean from )|(?<=free from )|(?<=recovered from )|(?<=recovery from ))"
    r"(?=self-? ?harm\w* (?:for|since) (?:\d+|a|two|three|four|five|six|seven|eight|nine|ten"
    r"|many|a few|several|over) ?(?:\w+ )?(?:years|yrs|year|months)\b"
    r"(?![^.!?]{0,80}\b(?:relaps\w*|until|till|til|but|again|urges?|slipped|last night|tonight"
    r"|today|this week)\b)))"
)

_AWAY = (  # a trip, a move or an event in the rest of the sentence, unless negated
    r"(?![^.!?]{0,60}?(?<!not )(?<!not on )(?<!not a )(?<!not going on )(?<!no )"
    r"\b(?:holidays?|trip|travel\w*|flight|flying|conference|wedding|camping|festival|abroad"
    r"|honeymoon|vacation|backpacking|visiting|moving out|in this (?:flat|house|job)|off to"
    r"|going to (?!(?:do|end|die|kill|jump|take|try|be|make|finish|go|hurt|overdose|swallow)\b)"
    r"\w))"
)

# Crisis phrases in a participant's message, one alternative each: a human must look.
_RISK_PHRASES = (
    # wanting to die, to be dead, never to have been born
    r"(?:want|wanted|wanting|wish|ready|need|deserve|plan|planning|trying) (?:to|2) d(?:ie|ye)\b"
    + _DIE_FIGURE
    + _EMBARRASSED,
    r"wish i could (?:just )?die\b" + _DIE_FIGURE,
    r"(?:want|wanted) to be dead",
    r"wish (?:that )?i (?:was|were|wasn't|weren't) (?:dead|alive|gone|here)",
    r"wish i'?d? (?:never|not) (?:been born|woken up)",
    r"(?:wish i could|want to) (?:stop existing|not exist|disappear forever)",
    # not wanting to live, exist, be here, wake up, go on
    _NEG + r"(?:want|wanna) to (?:"
    r"live(?! (?:in|with|at|near|there|abroad|together|alone|on|off|by|next|somewhere)\b)"
    r"|be alive|exist|stay alive|be here (?:any ?more|now)|be around"
    r"|wake up(?: tomorrow)?" + _END + r"|go on" + _END + r")",
    r"hope i (?:don't|never|do not) wake up",
    r"sleep and never wake up",
    r"(?:can't|can not|cannot) (?:go on|keep going|carry on)" + _END,
    # suicide and suicidal thoughts; not "career suicide", "suicide squad" or the drill
    # nor someone else's ("died by suicide", "her suicide", "he's suicidal") nor the topic
    r"(?<!career )(?<!social )(?<!political )(?<!commercial )(?<!electoral )"
    + _SOMEONE_ELSE
    + _not_after("died by", "death by", "her", "his", "their")
    + _TOPIC_BEFORE
    + _SUICIDE
    + r"(?! (?:squad|mission|doors?|run|sprints?|drills?|burpees|bomb\w*|attack\w*)\b)"
    + _TOPIC
    + r"(?<!suicides)",
    # killing oneself, taking one's life
    r"(?:kill|killing|killed|kil|off|offing|unalive|unaliving|hang|hanging|shoot|shooting"
    r"|drown|drowning) " + _MYSELF + _OVERWORK,
    r"kms",
    r"(?:take|taking|took|end|ending|ended) my (?:own )?life(?! back\b)",  # "taking my life back"
    # ending it all
    r"end(?:ing)? it (?:all|now|tonight|today|forever)\b",
    # no reason to live
    r"no (?:reason|point) (?:in )?(?:to )?(?:live|living|going on|being alive|staying alive)"
    r"(?! in (?:this |that |the |a )?(?:city|town|village|country|countryside|area|flat|house"
    r"|street|neighbourhood|suburbs|london)\b)",  # where to live, not whether
    r"nothing (?:left )?to live for",
    r"(?:isn't|is not|not|never) worth living",
    r"(?:no|lost the|lost my|losing the|losing my) will to live",
    # better off dead, others better off without me, a burden
    _not_after("he'd be", "she'd be", "he would be", "she would be", "they'd be")
    + r"better off dead",
    r"better (?:off )?without me",
    r"better off if i (?:was|were|wasn't|weren't|died|am|disappeared)",
    r"better off if i'm (?:gone|dead|not)",
    r"if i (?:was|were) (?:dead|gone)\b",
    r"if i died",
    r"(?:miss|care|notice) (?:me )?if i (?:died|was gone|were gone|disappeared)",
    r"(?:i'm|i am|feel like|i feel|being) (?:such |just |a )?(?:a )?burden (?:to|on|for) "
    r"(?:everyone|everybody|my|them|you|people|others)"
    # a newcomer slowing a team down, not a life
    r"(?! (?:team|squad|colleagues|coworkers|co-workers|teammates|group project|manager|boss"
    r"|department|project|lab|study group|band|club)\b)",
    # self-harm acts
    _SOMEONE_ELSE + _TOPIC_BEFORE + _RECOVERED + r"self-? ?harm\w*" + _TOPIC,
    r"(?:hurt|hurting|harm|harming|harmed|cut|cutting|burn|burning|burned|burnt|hit|hitting"
    r"|starve|starving|punch|punching) " + _MYSELF + _ACCIDENT,
    r"(?:cut|cutting|slit|slitting|slash|slashing) my (?:wrists?|arms?|legs?|thighs?)",
    # plans and means: pills saved, an overdose, a method
    r"(?:saving|saved|stockpiling|stockpiled|hoarding|collecting) (?:up )?(?:my |all my |some )?"
    + _PILLS,
    r"(?:pills|meds|tablets) (?:saved|stockpiled|hidden)",
    r"how many (?:pills|tablets|paracetamol)",
    r"(?:take|taking|took|swallow|swallowing|swallowed) "
    r"(?:all|a handful of|a bunch of|a lot of|too many) (?:of )?(?:my )?(?:pills|meds|tablets)",
    r"(?:an|to|take|taking|took) (?:an )?(?:overdose|od)\b",
    r"overdos(?:ed|ing)"
    r"(?! on (?:\w+ )?(?:chocolate|caffeine|coffee|sugar|sweets|netflix|tv|food|work|carbs)\b)",
    r"lethal dose",
    r"painless way to die",
    r"ways? to (?:kill myself|die|end it)",
    r"(?:bought|got|tied|made) a (?:rope|noose)",
    r"noose",
    r"(?:i|i'm|i'll|i'd|to|about|of|might|could) (?:just )?"
    r"(?:jump|jumping|step|stepping|throw myself|throwing myself) "
    r"(?:off|from|in front of|under) (?:a|the|my)\b",
    r"(?:driving|drive|crash|crashing) (?:my car )?(?:into|off) (?:a|the) "
    r"(?:wall|tree|bridge|cliff|truck|lorry)",
    r"(?:have|made|got) a plan to"
    # everyday plans: asking the manager, going freelance, paying off a card
    r"(?! (?:ask|talk|speak|tell|go freelance|get (?:a|more|fit|out of debt|promoted)|save"
    r"|pay (?:off|back)|quit (?:smoking|vaping|drinking|my job)|leave my job|study|revise|fix"
    r"|apply|learn|lose weight|catch up|finish (?:my|the)|move (?:house|abroad|out|to)"
    r"|start (?:a|my) (?:business|diet|course|new job)|train for|run a)\b)",
    r"(?:have|got) the means",
    # not when the same sentence says where they are going ("i won't be here next week, off to
    # portugal"; "not on holiday" still counts)
    r"won't be (?:around|here) (?:much )?(?:longer|for long|next)" + _AWAY,
    # not a leaving card for a colleague or a class
    r"goodbye (?:letters?|notes?)(?! (?:for|to) (?:my |our |the |a )?(?:colleague|co-?worker"
    r"|workmate|manager|boss|team|class|teacher|students|pupils|staff|coach)s?\b)",
)
RISK_PATTERN = re.compile(r"\b(?:" + "|".join(_RISK_PHRASES) + r")")

# Whose crisis it is, read from the sentence around the phrase (variable width, so not in the
# pattern's fixed-width lookbehinds): in a sentence whose subject is someone else ("my son",
# "she", "a boy at school"), a phrase another person's act can fill (``_THEIRS``: self-harm,
# suicide, an overdose, goodbye notes) is theirs when no "i", "me" or "my" stands between the
# subject and the phrase, the subject does not find, know or hide it (``_FINDS_OUT``), and the
# participant says no "i" later in the clause: "my friend used to self harm back in school" is
# theirs; "my kids will find the goodbye notes", "my cousin overdosed and i think about it too"
# stay the participant's. A phrase in the first person ("kill myself", "better off without me",
# "kms") stays the participant's unless someone else is quoted saying it: "my son keeps saying
# kms when he loses", "my daughter texted 'i want to die'" (a quote mark after the verb, except
# for "kms"). These are English's words for the reader every language shares (``reading.py``,
# ``READING_EN``); Spanish and German give theirs in ``lexicons_es.py`` and ``lexicons_de.py``.
_RELATIONS = (
    "son|daughter|kid|child|children|teen|teenager|boy|girl|friend|bestie|bff|bf|gf|boyfriend"
    "|girlfriend|partner|husband|wife|ex|mum|mom|mother|dad|father|parent|brother|sister|sibling"
    "|cousin|nephew|niece|aunt|auntie|uncle|gran|granny|grandma|grandad|grandpa|grandmother"
    "|grandfather|stepson|stepdaughter|stepdad|stepmum|stepmom|student|pupil|patient|client"
    "|colleague|coworker|co-worker|flatmate|roommate|housemate|neighbour|neighbor|mate|classmate"
    "|character|victim|grader|graders|year|teammate|player|guy|lad|woman|man|person|boss|manager"
    "|teacher|coach|relative|family member"
)
_SOMEONE_ELSE_SUBJECT = re.compile(
    r"\W*(?:(?:and|so|but|also|ok|okay|omg|ugh|um|hi|hey|help|honestly|lol|idk|anyway|update)\b\W*)*"
    r"(?:(?:my|our|his|her|their|a|the|this|one of my|one of our|some) (?:[\w'-]+ ){0,2}?"
    rf"(?:{_RELATIONS})s?|he|she|they|he's|she's|they're|someone|somebody|people|kids|everyone)\b"
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|myself|mine|we|us|our)\b|\bkms\b")
# The phrases another person's act or state can fill ("my friend used to self harm", "my cousin
# overdosed", "she wrote goodbye notes"); never an object or a thought the participant may own
# ("my parents dont know about the noose", "no reason to live", "better off dead").
_THEIRS = re.compile(r"self-? ?harm|su(?:i?c|is)i?d|overdos|goodbye (?:letter|note)")
# The other person finds, knows or hides the participant's: "my kids will find the goodbye
# notes", "my mum doesn't know about the overdose".
_FINDS_OUT = re.compile(
    r"\b(?:find|finds|found|know|knows|knew|see|sees|saw|seen|notice|notices|noticed|get|gets"
    r"|understand|understands|hid|hide|hides|took|take|takes|think|thinks|thought|check|checks"
    r"|checked|search|searched|caught|catch|don't|doesn't|didn't|won't"
    r"|never|worry|worries|worried|will|would|could|might|should)\b"
)
_I = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|myself)\b")
_SPEECH = re.compile(
    r"\b(?:say|says|said|saying|text|texts|texted|texting|post|posts|posted|posting|type|types"
    r"|typed|typing|write|writes|wrote|writing|joke|jokes|joked|joking|yell|yells|yelled|shout"
    r"|shouts|shouted|scream|screams|screamed|go|goes|went)\b"
)
# The sentence readings alone: English's topics, recoveries and jests sit beside its phrases.
READING_EN = Reading(
    subject=_SOMEONE_ELSE_SUBJECT,
    first_person=_FIRST_PERSON,
    theirs=_THEIRS,
    finds_out=_FINDS_OUT,
    speaks=_I,
    speech=_SPEECH,
    # "texted her friend 'i want to die'": up to three words to whom, then the quote
    quoted=re.compile(r"(?: \w+){0,3} ?[:\"']+ ?(?:i |i'm )?"),
    bare=re.compile(r" ?"),
    bare_phrases=re.compile(r"kms"),
)


# Each language's own risk phrasings, by primary language subtag (``lexicons_es.py``,
# ``lexicons_de.py``), each written for that language's normalisation (``normalise.py``).
RISK_PATTERNS: dict[str, re.Pattern[str]] = {
    "en": RISK_PATTERN,
    "es": re.compile(r"\b(?:" + "|".join(RISK_PHRASES_ES) + r")"),
    "de": re.compile(r"\b(?:" + "|".join(RISK_PHRASES_DE) + r")"),
}
# Each language's words for whose crisis a phrase is (``reading.py``: one reader for all).
READINGS: dict[str, Reading] = {"en": READING_EN, "es": READING_ES, "de": READING_DE}


def has_risk_lexicon(language: str) -> bool:
    """Whether ``language`` ("es", "es-MX") has risk phrasings of its own; without them only
    the English phrases (typed in any language) and a study's moderation model read it."""
    return primary_language(language) in RISK_PATTERNS


def risk_phrases(text: str, language: str = "en") -> list[str]:
    """The risk phrases in ``text``: its language's own lexicon first, then the English one,
    which reads every language: people code-switch, and English crisis phrases ("kms",
    "suicidal") travel in chat. A language without a lexicon gets the English one alone.
    An English phrase in a Spanish or German message is read by both languages' readings:
    "mein bruder sagt immer kms" is the brother's."""
    primary = primary_language(language)
    found = matches(RISK_PATTERNS[primary], text, primary) if primary in RISK_PATTERNS else []
    if primary != "en":
        readings = (READING_EN, READINGS[primary]) if primary in READINGS else (READING_EN,)
        english = _matches(RISK_PATTERN, text, "en", readings)
        found += [p for p in english if p not in found]
    return found


def matches(pattern: re.Pattern[str], text: str, language: str = "en") -> list[str]:
    """The distinct matched phrases of the text normalised for ``language``, in order of
    first appearance; a risk pattern's phrases only where the reading of its language finds
    them the participant's own."""
    risk_language = next((lang for lang, p in RISK_PATTERNS.items() if p is pattern), None)
    readings = (READINGS[risk_language],) if risk_language else ()
    return _matches(pattern, text, language, readings)


def _matches(
    pattern: re.Pattern[str], text: str, language: str, readings: tuple[Reading, ...]
) -> list[str]:
    seen: dict[str, None] = {}
    normalised = normalise(text, language)
    for match in pattern.finditer(normalised):
        start, end, phrase = match.start(), match.end(), match.group(0)
        if any(someone_elses(r, normalised, start, end, phrase) for r in readings):
            continue
        seen.setdefault(phrase, None)
    return list(seen)
