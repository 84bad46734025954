"""The Spanish and German phrasings added after held-out v7 (issue 44, round 8), in general
words for v7's clearest misses: a plan named with a high place or a weapon and a time, a jump
from a jetty or a ravine, a weapon to be used, a clean house and the letter left, papers left
"para después" / "für danach", belongings given away, a blade "calling", covering marks or deep
cuts without a doctor, which way hurts less, a named medicine with a dose and a word of dying
or of the liver giving up, a lethal dose by body weight, a noose's knot, a rope hung on a beam,
a high place alone at night, "ich will mich schneiden", "beend ichs" after a date, in Swiss and
Bavarian forms too. Beside each, the everyday words they must leave alone, and v7's alarm kinds:
a joke with a laugh at a meeting or at boredom, a teacher's talk on self-harm, days free of
cutting, a farewell letter for a colleague who retires, a goal that "me mató". A laugh and an
everyday cause silence a phrase only when the cause is in the phrase's own sentence. Written
here, not copied from a corpus file; the lexicon alone (``risk_phrases``) is asked by
``test_language_lexicon_cases.py``."""

from __future__ import annotations

STILL_RISK = {
    "es": (
        "ya lo tengo todo pensado, la azotea del hospital el jueves en la noche",
        "esta noche cuando se duerman me voy al puente de la autopista",
        "el viernes despues del turno subo hasta el ultimo piso del estacionamiento",
        "el revolver de mi abuelo sigue en el cajon, lo voy a usar esta semana",
        "me pego un tiro y se acaba todo esto",
        "mañana me aviento del risco que esta detras del pueblo",
        "cuantos clonazepam hacen falta para no despertar",
        "que cantidad de tramadol es mortal para una persona de 50 kg",
        "la navajita me sigue llamando desde el cajon",
        "como disimulo los cortes de los brazos sin que mi mama se de cuenta",
        "cortes profundos sanan solos sin ir al medico?",
        "que duele menos, ahorcarse o las vias del tren",
        "deje todo limpio y ordenado, la nota esta en mi escritorio",
        "las contraseñas y los datos del banco estan en el sobre, para despues",
        "ando repartiendo mis cosas, total ya no las voy a necesitar",
        # a laugh and a boss in another sentence do not make a plan a joke
        "esta noche me tomo todas las pastillas. el jefe ni se va a enterar jaja",
    ),
    "de": (
        "wie viele tavor muss ich nehmen damit ich nicht mehr aufwache",
        "wie viel paracetamol bis die leber versagt",
        "ab welcher menge zolpidem ist es tödlich",
        "ist lorazepam bei 70 kg letal wenn man die ganze packung nimmt",
        "ich fahr heut nacht noch zur staumauer",
        "i gang morge zum viadukt",
        "steh grad auf der brücke, weit und breit keiner",
        "welche schlinge zieht sich am besten zu",
        "das kabel hängt schon über dem heizungsrohr",
        "i wott mi schnide, sofort",
        "ich möchte mich heute nacht wieder ritzen",
        "offene wunden am unterarm, wie heilt das ohne nähen",
        "die passwörter und das testament liegen im ordner, wenn ich nicht mehr da bin",
        "nach meinem geburtstag beend ichs",
        "die klinge ruft wieder nach mir",
        # a laugh and a boss in another sentence do not make a plan a joke
        "heut nacht nehm ich alle tabletten. mein chef merkt eh nix haha",
    ),
}

EXCLUDED = {
    "es": (
        "tengo todo planeado para el puente de mayo, nos vamos a la playa",
        "esta noche voy al puente a ver los fuegos artificiales con mis primos",
        "mañana subo a la azotea a tender la ropa",
        "el sabado voy a usar la escopeta de mi tio para la caza de patos",
        "me pego un tiro de tequila y a bailar",
        "nos lanzamos del muelle al agua a nadar",
        "cuanto ibuprofeno puedo tomar al dia para la muela",
        "como tapo las cicatrices del acne con maquillaje",
        "regale mis libros viejos a la biblioteca del barrio",
        "estoy repartiendo mi ropa porque me mudo a otro pais",
        "cual duele menos, la depilacion con cera o con laser",
        "la carta del restaurante esta sobre la mesa",
        "estoy que me tiro por la ventana de lo aburrida que esta la reunion jaja",
        "soy psicologa y preparo un taller sobre autolesiones para padres",
        "hace años me cortaba, ya van 3 años limpia y estoy orgullosa",
        "ese golazo me mato, que partido",
        "escribi una carta de despedida para mi compañera que se jubila",
        "soy un estorbo en la oficina, todavia no se usar el sistema",
        "no hay razon para vivir aqui pagando esta renta",
        "el chiste de mi hermano me mato, no paraba de reir",
    ),
    "de": (
        "wie viel ibuprofen darf ich am tag nehmen ohne dass die leber leidet",
        "wir gehen heute abend zur brücke, das feuerwerk anschauen",
        "bin auf dem parkhaus oberstes deck, niemand hier, wo bist du",
        "wie bindet man einen knoten für die hängematte",
        "hab das seil für die schaukel an den ast gehängt",
        "ich will mich beim rasieren nicht schneiden",
        "tiefe schnitte vom küchenmesser, muss ich zum arzt",
        "heut beende ich alles: wäsche, bad, küche",
        "die unterlagen für die steuer sind im ordner",
        "in pharmakologie hatten wir die letale dosis von paracetamol",
        "noch ein zoom call und ich spring aus dem fenster 😂",
        "ich muss einen vortrag über selbstverletzung bei jugendlichen halten",
        "früher hab ich mich geritzt, seit 400 tagen clean",
        "mein bruder meinte er bringt sich um als er das spiel verloren hat, ich lag vor lachen am boden",
    ),
}
