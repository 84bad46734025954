"""Write the planted personal-details corpus (tests/privacy/corpus/planted.jsonl). Run once;
the file is committed, so the benchmark and the tests read the same messages.

    .venv/bin/python benchmarks/personal_details_corpus.py

Messages as people type them on a phone (lower case, no full stops, abbreviations), each with
the details planted in it and their kinds: names, e-mail addresses, phone numbers in the
formats of eleven countries (national and international), URLs, handles, street addresses and
postcodes, dates of birth in several forms, and ID numbers; and as many messages with none, full
of the numbers ordinary talk has (times, hours, money, scores, ages, percentages). Phone numbers
are drawn at random in each format and kept only when phonenumbers calls them valid (a real
person's number is valid: an invalid one would be no personal detail).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import phonenumbers

OUT = Path(__file__).resolve().parent.parent / "tests" / "privacy" / "corpus" / "planted.jsonl"
rng = random.Random(38)

FIRST = [
    "priya",
    "Sam",
    "jess",
    "Tom",
    "aisha",
    "Liam",
    "mei",
    "Oluwaseun",
    "Chloe",
    "raj",
    "Zainab",
    "dan",
    "Sofia",
    "ben",
    "Niamh",
    "kwame",
    "Emma",
    "luca",
    "Hannah",
    "omar",
]
LAST = [
    "patel",
    "Smith",
    "okafor",
    "Nguyen",
    "murphy",
    "Garcia",
    "kowalski",
    "Brown",
    "ahmed",
    "Rossi",
]
DOMAINS = [
    "gmail.com",
    "hotmail.co.uk",
    "outlook.com",
    "yahoo.com",
    "icloud.com",
    "live.ie",
    "uni.edu.au",
    "protonmail.com",
    "btinternet.com",
    "web.de",
    "orange.fr",
    "student.ac.uk",
]
STREETS = [
    "Mill Road",
    "Baker Street",
    "kings avenue",
    "Oak Lane",
    "church st",
    "Victoria Road",
    "maple drive",
    "High Street",
    "park lane",
    "Elm Close",
    "station rd",
    "Queens Crescent",
    "Sunset Blvd",
    "west 42nd street",
    "willow way",
    "Castle Terrace",
]
TOWNS = ["Leeds", "Manchester", "Dublin", "Bristol", "Glasgow", "Sydney", "Boston", "Cardiff"]
UK_POSTCODES = [
    "LS6 2AB",
    "M1 1AE",
    "SW1A 1AA",
    "BS8 1TH",
    "G12 8QQ",
    "CF10 3AT",
    "EH1 1YZ",
    "B15 2TT",
]
MONTHS = [
    "january",
    "February",
    "march",
    "April",
    "may",
    "June",
    "july",
    "August",
    "sept",
    "October",
    "nov",
    "December",
]
SITES = [
    "https://www.gofundme.com/f/help-{n}",
    "www.{n}blog.net",
    "https://linktr.ee/{n}",
    "{n}.substack.com",
    "https://youtube.com/@{n}",
    "http://www.{n}photos.co.uk/about",
    "https://www.facebook.com/{n}",
    "instagram.com/{n}",
]

# (country, formats): each "d" is a random digit, the first digits fixed per format.
PHONE_FORMATS = {
    "GB": [
        "07{m}dd dddddd",
        "+44 7{m}dd dddddd",
        "07{m}ddddddddd"[:11],
        "+447{m}dddddddd",
        "020 7ddd dddd",
        "0161 ddd dddd",
    ],
    "US": ["(212) 7dd-dddd", "415-7dd-dddd", "312.8dd.dddd", "+1 617 8dd dddd"],
    "IE": ["087 ddd dddd", "+353 87 ddd dddd", "01 8dd dddd"],
    "AU": ["04dd ddd ddd", "+61 4dd ddd ddd", "(02) 9ddd dddd"],
    "IN": ["98ddd ddddd", "+91 98ddd ddddd"],
    "DE": ["+49 30 2dddddd", "0151 2ddddddd"],
    "FR": ["06 dd dd dd dd", "+33 6 dd dd dd dd"],
    "NZ": ["021 ddd dddd", "+64 21 ddd dddd"],
    "ZA": ["082 ddd dddd", "+27 82 ddd dddd"],
    "NG": ["0803 ddd dddd", "+234 803 ddd dddd"],
    "ES": ["+34 6dd ddd ddd", "6dd ddd ddd"],
}


def _fill(fmt: str) -> str:
    fmt = fmt.replace("{m}", rng.choice("45789"))
    return "".join(str(rng.randint(0, 9)) if ch == "d" else ch for ch in fmt)


def phone() -> str:
    while True:
        region = rng.choice(list(PHONE_FORMATS))
        number = _fill(rng.choice(PHONE_FORMATS[region]))
        try:
            parsed = phonenumbers.parse(number, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            return number


def name() -> str:
    return rng.choice(FIRST) + ("" if rng.random() < 0.5 else " " + rng.choice(LAST))


def email() -> str:
    first, last = rng.choice(FIRST).lower(), rng.choice(LAST).lower()
    local = rng.choice(
        [
            f"{first}.{last}",
            f"{first}{rng.randint(1, 99)}",
            f"{first}_{last[0]}",
            f"{last}.{first}{rng.randint(80, 99)}",
        ]
    )
    return f"{local}@{rng.choice(DOMAINS)}"


def url() -> str:
    return rng.choice(SITES).format(n=rng.choice(FIRST).lower() + str(rng.randint(1, 999)))


def handle() -> str:
    return (
        "@"
        + rng.choice(FIRST).lower()
        + rng.choice(["_", ".", ""])
        + rng.choice(LAST).lower()[:4]
        + str(rng.randint(1, 99))
    )


def address() -> str:
    number = f"{rng.randint(1, 350)}{rng.choice(['', '', 'b', 'A'])}"
    street = f"{number} {rng.choice(STREETS)}"
    return rng.choice(
        [street, f"flat {rng.randint(1, 9)}, {street}", f"{street}, {rng.choice(TOWNS)}"]
    )


def postcode() -> str:
    return rng.choice(UK_POSTCODES)


def date() -> str:
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.randint(1960, 2006)
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd"}.get(day, "th")
    return rng.choice(
        [
            f"{day:02d}/{month:02d}/{year}",
            f"{day}/{month}/{year % 100:02d}",
            f"{day}{suffix} {MONTHS[month - 1]} {year}",
            f"{MONTHS[month - 1]} {day}, {year}",
            f"{year}-{month:02d}-{day:02d}",
            f"{day}.{month}.{year}",
            f"{day} {MONTHS[month - 1]} {year}",
        ]
    )


def id_number() -> str:
    return rng.choice(
        [
            "GB82WEST12345698765432",
            "DE89370400440532013000",
            "IE29AIBK93115212345678",
            "FR1420041010050500013M02606",
            "4111 1111 1111 1111",
            "5500 0000 0000 0004",
        ]
    )


MAKERS = {
    "name": name,
    "email": email,
    "phone": phone,
    "url": url,
    "handle": handle,
    "address": address,
    "postcode": postcode,
    "date": date,
    "id_number": id_number,
}

TEMPLATES = [
    ("my sister {name} keeps texting me on {phone} and i cant deal", ["name", "phone"]),
    ("if u want to talk more my email is {email}", ["email"]),
    ("he moved in at {address} and now i see him every day", ["address"]),
    ("born {date} so turning 30 soon and feel like a failure", ["date"]),
    ("my therapist {name} said call {phone} if it gets bad", ["name", "phone"]),
    ("i wrote about it here {url} if u want to read", ["url"]),
    ("follow my art acc {handle} its the only thing keeping me going", ["handle"]),
    ("we used to live at {address} {postcode} before the divorce", ["address", "postcode"]),
    ("ok so my dob is {date} and my ex {name} forgot my bday AGAIN", ["date", "name"]),
    ("work emailed {email} about the disciplinary and i havent slept", ["email"]),
    ("my mum's number is {phone} shes the only one who gets it", ["phone"]),
    ("my bank said my iban {id_number} was used by someone else", ["id_number"]),
    ("saw my old friend {name} post on {url} and felt so jealous", ["name", "url"]),
    ("cant stop checking {handle} ever since the breakup", ["handle"]),
    ("landlord at {address} wont fix the damp and my kid is sick", ["address"]),
    ("text me {phone} or dm {handle} whatever is easier", ["phone", "handle"]),
    ("pls send the form to {email} before {date}", ["email", "date"]),
    ("my boss {name} rang me at home on {phone} at 11pm", ["name", "phone"]),
    ("started a fundraiser {url} for my dads funeral", ["url"]),
    ("new flat is {address} its so lonely there", ["address"]),
    ("my card {id_number} got declined at the pharmacy and i just cried", ["id_number"]),
    ("our daughter was born {date} and i still feel numb", ["date"]),
    ("my uni email {email} is full of rejections", ["email"]),
    ("postcode is {postcode} if anyone from the group wants to meet", ["postcode"]),
]

CLEAN = [
    "i slept like {n} hours and still feel exhausted",
    "work was {n} meetings back to back and my boss yelled at me",
    "its been {n} weeks since the breakup and i still cry every day",
    "i spent £{n} on takeaway this week bc i couldnt cook",
    "got {n}% on the exam and my dad said nothing",
    "shift is 9 to 5 but i always stay till {n}",
    "im {n} and i feel like everyone is ahead of me",
    "ran {n}k this morning and felt a bit better tbh",
    "my rent went up {n} percent and i dont know what to do",
    "only {n} people came to my birthday",
    "we've been together {n} years and it feels empty",
    "i have {n} assignments due and zero motivation",
    "the bus was {n} mins late again and i missed my appointment",
    "lost {n} followers after that post and i know its stupid to care",
    "i scored {n} out of 10 on the anxiety quiz lol",
    "its 3am and i cant stop thinking about what she said",
    "had {n} coffees today and my hands are shaking",
    "my grandad turns {n} next week and im scared hes getting frail",
    "room 2 at the clinic always makes me anxious",
    "i paid 24/7 attention to him and got nothing back",
    "top {n} worst days of my life honestly",
    "my phone has {n} unread messages and i cant open any",
    "i was on hold for {n} minutes just to be told to call back",
    "year {n} of trying to get pregnant and its breaking us",
    "about 1/3 of my salary goes on childcare",
    "class of 2019 reunion made me feel like a loser",
    "i keep waking up at 4:30 with my heart racing",
    "in the 90s things felt simpler",
    "we split the bill {n} ways and i still couldnt afford it",
    "i got a 2:1 and still feel like a failure",
    "walked {n} minutes down the road just to breathe",
    "rated the day 3/10 in my mood app",
    "my son is in year {n} at school and being bullied",
    "i called 999 once and they were lovely",
    "scored 7/10 on the quiz, {n} out of 100 in my head",
    "my flight at 06:45 got cancelled and i panicked",
    "room 101 at work is where they do the reviews",
    "i owe about 2,500 on my card and it keeps me up",
    "we moved {n} times before i turned 12",
    "the meds went from 50mg to 100mg and i feel foggy",
]


def _plant(template: str, kinds: list[str]) -> dict:
    details, text = [], template
    for kind in kinds:
        value = MAKERS[kind]()
        text = text.replace("{" + kind + "}", value, 1)
        details.append({"kind": kind, "text": value})
    return {"text": text, "details": details}


def main() -> None:
    rows = [_plant(*TEMPLATES[i % len(TEMPLATES)]) for i in range(336)]
    rows += [
        {"text": CLEAN[i % len(CLEAN)].format(n=rng.randint(2, 95)), "details": []}
        for i in range(336)
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    print(f"wrote {len(rows)} messages to {OUT}")


if __name__ == "__main__":
    main()
