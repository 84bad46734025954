"""The Spanish and German phrasings added after held-out v8 (issue 44, round 9), in general
words for v8's clearest misses: self-harm and suicide slang said of oneself ("sh", "unalive",
arms like a barcode, "kms"), envying the dead, leaving this world, taking oneself out of the
game or "away", a room that will be free for good, a named medicine with alcohol and a word of
dying or a count, a blade taken out of a razor or "calling", getting out of everyone's way.
Beside each, the everyday words they must leave alone, and v8's alarm kinds: a game's boss that
"killed" the participant, "me quiero matar" over a mundane mishap with a laugh, a farewell
letter for someone moving abroad, the deadliest animal for a quiz, attempts counted on a ward or
an ambulance, a class's subject named before the phrase, a long sleep "until noon". Written
here, not copied from a corpus file; the lexicon alone (``risk_phrases``) is asked by
``test_language_lexicon_cases.py``."""

from __future__ import annotations

STILL_RISK = {
    "es": (
        "volvi a hacerme sh anoche y nadie lo sabe",
        "llevaba dos meses sin sh y hoy recai",
        "tengo ganas de unalive la verdad",
        "me quiero unalive y ya",
        "mis brazos parecen un codigo de barras",
        "tengo los muslos como barcode de tanto cortarme",
        "envidio a los muertos, ellos ya descansan",
        "a veces le tengo envidia a la gente que ya se murio",
        "quiero irme de este mundo cuanto antes",
        "pronto me voy de este mundo y nadie lo va a notar",
        "mi cuarto va a quedar libre para siempre, ya lo decidi",
        "cuantos rivotril con cerveza hacen falta para no despertar",
        "si me tomo el clonazepam con vodka me muero?",
        "le saque la cuchilla a la maquinita de afeitar",
        "desarme el rastrillo para sacarle las hojitas",
        "lo mejor es quitarme del medio para que todos esten tranquilos",
    ),
    "de": (
        "hab wieder sh gemacht, zum ersten mal seit monaten",
        "sh rückfall heute nacht",
        "hab seit tagen unalive gedanken",
        "ich will mich unalive machen",
        "meine arme sehen aus wie n barcode",
        "ich beneide die toten, die haben ihre ruhe",
        "manchmal bin ich neidisch auf leute die schon tot sind",
        "ich will diese welt verlassen",
        "bevor ich diese welt verlasse will ich noch einmal gut essen",
        "ich nehm mich bald aus dem spiel",
        "ich will mich einfach wegmachen",
        "ich hab gedanken, mich selbst wegzumachen",
        "mein zimmer ist bald für immer frei",
        "wie viele novalgin mit wodka bis man nicht mehr aufwacht",
        "tavor und alkohol zusammen, ist das tödlich",
        "hab die klinge aus dem rasierer rausgeholt",
    ),
}

EXCLUDED = {
    "es": (
        "el boss final me mato como diez veces, que juego tan dificil",
        "jajaja me quiero matar, deje las llaves adentro del carro",
        "me quiero matar jaja se me quemo el arroz otra vez",
        "escribi una carta de despedida para mi hermana que se va a vivir a canada",
        "cual es el animal mas mortal del mundo? es para un quiz",
        "mi cuarto va a quedar libre en julio, busco roomie",
        "este mundo del futbol esta loquisimo",
        "el codigo de barras del producto no pasa en la caja",
        "me tome un rivotril recetado y una cerveza sin alcohol, esta bien?",
        "se me rompio la cuchilla de la maquinita de afeitar",
        "quitate del medio que no veo la tele jaja",
        "envidio a mi hermana, ella si descansa los fines de semana",
        "cual es el insecto mas letal para el humano, es para la trivia",
        "mi tia es paramedica y ve muchos intentos de suicidio en su turno",
    ),
    "de": (
        "der endboss hat mich zehnmal getötet haha",
        "ich könnt mich umbringen 😂 schlüssel in der wohnung vergessen",
        "ich schreib einen abschiedsbrief für meine schwester, die nach kanada zieht",
        "welche schlange ist die tödlichste der welt? brauch das fürs quiz",
        "welches tier ist am tödlichsten für menschen, für ein quiz",
        "das zimmer in unserer wg ist ab märz frei",
        "der barcode lässt sich an der kasse nicht scannen",
        "darf man novalgin mit einem glas wein nehmen?",
        "hab die klinge am rasierer gewechselt",
        "der spieler wurde aus dem spiel genommen, zu viele fouls",
        "mach mal den fleck da weg",
        "in dieser welt der influencer fühl ich mich alt",
        "mein onkel ist notarzt und erlebt viele suizidversuche im jahr",
        "im ethikunterricht hatten wir das thema selbstverletzung",
        "am wochenende will ich bis mittag nicht aufwachen",
    ),
}
