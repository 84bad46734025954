"""The Spanish and German phrasings added after held-out v6 (issue 44, round 7), in general
words for v6's clearest misses: a goodbye that thanks for months of listening, a jump from a
lookout, fantasising about one's own suicide, a farewell note being written, whether a train
kills at once; pill counts with a word of dying, heights asked plainly, "tot sein klingt ...",
a lighter held to the skin, fresh cuts covered or hidden from mum, a cut again in dialect,
dialect burden and intent, a bridge or a dam and then the end, last messages scheduled, a
plane crash wished for. Beside each, the everyday words they must leave alone. Written here,
not copied from a corpus file; the lexicon alone (``risk_phrases``) is asked by
``test_language_lexicon_cases.py``."""

from __future__ import annotations

STILL_RISK = {
    "es": (
        "me despido ya, gracias por aguantarme todo este tiempo",
        "gracias por leerme cada noche, esta es la ultima vez",
        "el domingo subo al mirador y salto, ya lo tengo pensado",
        "fantaseo todo el tiempo con quitarme la vida",
        "me imagino mi propia muerte y me tranquiliza",
        "ya escribi mis mensajes de despedida, estan en borradores",
        "el metro te mata al instante si te tiras?",
    ),
    "de": (
        "stirbt man an 60 paracetamol oder nicht",
        "wie hoch muss ein parkhaus sein damit man sicher tot ist",
        "ab wie vielen metern überlebt man einen sturz nicht",
        "tot sein wär echt friedlicher als alles hier",
        "ich halt mir das feuerzeug an den arm bis es brennt",
        "die neuen schnitte muss ich mit concealer abdecken",
        "mein vater hätte fast die wunden an meinem arm gesehen",
        "i hob mi gestern wieder gschnittn",
        "i bi für alli nur e belastig",
        "mei zeit is um",
        "heut nacht noch auf die brücke, dann ist ruhe",
        "ich fahr zur staumauer, da sieht mich keiner",
        "meine letzten mails sind zeitversetzt eingestellt",
        "wenn das flugzeug abstürzt, wär ich ehrlich erleichtert",
    ),
}

EXCLUDED = {
    "es": (
        "adios a todos, gracias por escucharme, me mudo a otra ciudad",
        "gracias por escucharme estos meses, ya me dieron el alta",
        "vamos al mirador a ver el atardecer",
        "nos imaginamos el viaje a japon con todo detalle",
        "la nota de despedida del equipo quedo muy bonita",
        "el tren de las 7 siempre llega tarde",
        "me tire por la ventana jaja, perdi contra el boss 10 veces",
    ),
    "de": (
        "wie viele ibuprofen 400 darf ich am tag nehmen",
        "ab welcher höhe braucht man beim klettern ein seil",
        "urlaub klingt gerade entspannter als alles andere",
        "hab mich am feuerzeug verbrannt beim grill anzünden",
        "welches make up deckt pickel gut ab",
        "der staudamm ist nachts schön beleuchtet",
        "die geburtstagsnachricht für oma ist vorgeschrieben, geht um mitternacht raus",
        "wir fliegen morgen, hoffentlich stürzt der flieger nicht ab",
    ),
}
