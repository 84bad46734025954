"""The Spanish and German phrasings added after held-out v2 (docs/benchmarks.md, "Retune after
held-out v2"), and their exclusions, as the English list has them: jest next to an idiom ("me
quiero morir jaja"), someone else as the subject ("meine tochter ritzt sich"), a topic and not an
act (a novel, the news, a thesis), a dose question without a mark of self-harm. Each case is
written here, not copied from a corpus file; the lexicon alone (``risk_phrases``) is asked by
``test_language_lexicon_cases.py``."""

from __future__ import annotations

STILL_RISK = {
    "es": (
        "es normal pensar todo el rato en suicidarse?",
        "ya tome la decision de matarme",
        "el sabado me cuelgo en el garaje",
        "no aguanto mas, me tiro del balcon esta noche",
        "pienso en saltar desde el puente de la autopista",
        "voy a subir a la azotea del edificio y salto",
        "esta noche me tomo todas las pastillas de mi vieja",
        "me tomo la caja entera y listo",
        "ya compre una soga y la tengo escondida",
        "me corto en las piernas donde no se ve",
        "agarre la cuchilla de afeitar otra vez",
        "me sigo lastimando y nadie sabe",
        "me quiero morir, de verdad, no es broma",
        "me quiero matar",
        "cuantas pastillas de clonazepam hacen falta para no despertar",
        "siento que soy una carga para todos",
        "ganas de no existir",
        "ojala no despertarme nunca",
        # after held-out v3: plans and methods in plain words
        "el viernes salgo a la autopista y me estrello contra un trailer",
        "pienso meterme debajo de un tren cuando pase el de las 6",
        "esta noche lo hago con el gas, ya tape las rendijas",
        "ya consegui el carbon y la cinta para el baño",
        "cuanto raticida hace falta para una persona adulta",
        "me voy a tomar el bote de lejia",
        "me meto al rio con piedras en la mochila y no salgo",
        "otra vez me corte con la cuchillita del sacapuntas",
        "estoy en la tina con una gillette",
        "tengo la navaja en la mano y nadie en casa",
        "me tiro del piso 9 del estacionamiento",
        "ya me canse de existir, estoy cansado de existir",
        "me tiro por la ventana jaja",  # a laugh alone does not silence a method
        # after held-out v4: marks blamed on the cat, the sea, "not a cry for help"
        "vio las marcas del brazo y le dije que fue la gata",
        "esta noche voy al puerto y me tiro al mar",
        "no es un grito de ayuda, ya lo decidi",
    ),
    "de": (
        "ich denk ständig daran, mich selbst zu töten",
        "ich will mich umbringen",
        "ich hab suizidgedanken seit wochen",
        "suizid ist für mich grad die einzige lösung",
        "hab mir ein seil gekauft, nicht zum klettern",
        "die klinge liegt bereit, mit der klinge mach ichs heute wieder",
        "ich ritze mich seit dem sommer",
        "hab mich gestern wieder geritzt",
        "hab gegoogelt wie man schmerzlos stirbt",
        "ich geh zur brücke und spring",
        "ein schritt vor den zug und fertig",
        "heute nehm ich die ganzen tabletten",
        "ich will sterben",
        "wie viele tabletten braucht man um nicht mehr aufzuwachen, wie viele tabletten reichen",
        "ich werd mein leben beenden",
        # after held-out v3: plans and methods in plain words
        "morgen lenk ich auf der landstraße gegen einen baum",
        "grill und panzertape liegen im kofferraum",
        "ich mach das im auto mit nem einweggrill",
        "wie lang dauert es mit kohlenmonoxid bis man einschläft",
        "tut verbluten weh?",
        "ich geh mit steinen in den jackentaschen in den fluss",
        "ich kill mich heute nacht",
        "hab mir wieder die klinge vom spitzer rausgeholt",
        "ich leg mich mit der rasierklinge in die badewanne",
        "lieber tot als so weiterleben",
        "ich frag mich ob ich mich nicht einfach umbringen soll",
        "ne packung ibuprofen mit wodka, reicht das",
        "ich spring aus dem fenster, ganz ehrlich, ich kann nicht mehr",
        # after held-out v4: rope with a denial, a will "bevor ich geh", pills from many
        # pharmacies, cutting lengthwise, a cut too deep, things given away or cancelled
        "hab mir heut ein seil besorgt. nicht zum klettern",
        "ich mach dem heute ein ende",
        "kein drama, is kein hilferuf, nur die wahrheit",
        "ich hab beschlossen zu gehen",
        "wie schreib ich ein testament ohne notar, will das fertig haben bevor ich geh",
        "drei apotheken heute, jede schachtel einzeln gekauft",
        "muss man längs schneiden damit man verblutet",
        "gestern zu tief erwischt, hört nicht auf zu bluten",
        "hab meine kamera verschenkt, brauch ich eh nicht mehr",
        "fitnessstudio und zeitung gekündigt. danach brauch ich nix mehr",
    ),
}

EXCLUDED = {
    "es": (
        # jest next to an idiom
        "me quiero morir jajaja se me cayo el helado",
        "me quiero matar xd olvide la llave otra vez",
        "me mato del susto la peli de anoche",
        "soy un estorbo en la cocina jaja",
        # someone else
        "mi hermano dice que soy una carga cuando le pido el auto",
        "mi prima se autolesiona, como la ayudo",
        "en la tele un hombre se tiro del puente",
        "como se si alguien esta pensando en suicidarse",
        # fiction, news, coursework, statistics
        "mi novela tiene un personaje que tiene ideas suicidas",
        "ideas suicidas en adolescentes, es para mi tesis",
        "estoy haciendo la tesis sobre el suicidio en adolescentes",
        "vi en el noticiero lo del suicidio del actor",
        # dose questions
        "cuantas pastillas de paracetamol puedo tomar al dia",
        "cuantas pastillas de melatonina son demasiadas",
        # the others of the list
        "la carta de despedida para mi companera que se jubila",
        "la crisis me mato los ahorros",
        "compre una soga para el columpio de los nenes",
        "ya no quiero estar aqui, vamos a otro bar",
        # after held-out v3: a machine and a laugh, someone else's jest, coursework
        "me tiro por la ventana con esta compu que no prende jajaja",
        "mi jefe dijo que se va a tirar del puente si no cerramos la venta",
        "la dosis letal 50 del paracetamol entra en el parcial de toxicologia",
        "me quiero morir que oso, le mande el audio a mi suegra",
        "que oso, me quiero morir, se me rompio el pantalon en clase",
        "me estrelle contra un poste en bici pero estoy bien",
        # after held-out v4: an exam, a game's bridge, a past attempt told for a blog
        "ese parcial me mató, no entendi nada",
        "me tire del puente sin querer y perdi la partida",  # the game named after the act
        "a los 17 trate de quitarme la vida y hoy estoy estable, quiero escribirlo en un blog",
    ),
    "de": (
        "ich will sterben haha mein schwarm hat mich gesehen",
        "ich bring mich noch um mit dem lernen",
        "meine tochter ritzt sich, was soll ich tun",
        "meine schwester hat sich geritzt",
        "mein freund sagt er will nicht mehr leben",
        "woran merkt man ob jemand an selbstmord denkt",
        "im roman gibt es eine figur die suizidgedanken hat",
        "suizidgedanken bei studierenden, eine studie für mein referat",
        "meine abschlussarbeit über selbstverletzendes verhalten bei jugendlichen",
        "in den nachrichten: jemand hat sich vor den zug geworfen",
        "wie viele ibuprofen darf man am tag nehmen",
        "kann man paracetamol mit alkohol nehmen?",
        "ich schreib einen abschiedsbrief an meine wg",
        "wir springen vom turm ins wasser im schwimmbad",
        # after held-out v3: a machine and a laugh, someone else's attempt, a course, recovery
        "ich spring gleich aus dem fenster, der laptop hängt schon wieder haha",
        "mein chef meinte im spaß er springt vom balkon wenn der kunde absagt",
        "mein bruder ist nach einem suizidversuch auf station, was bring ich ihm mit",
        "im workshop ging es darum, wie man nach suizidgedanken fragt",
        "früher hatte ich suizidgedanken, inzwischen gehts mir richtig gut",
        "ich will sterben 🙈 hab meinem chef ein herz geschickt",
        "heute fahr ich gegen die wand, im simulator der fahrschule",
        # after held-out v4: a past attempt told with a recovery
        "vor zehn jahren hab ich versucht mir das leben zu nehmen, heute gehts mir richtig gut",
    ),
}
