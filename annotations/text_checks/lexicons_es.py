"""Spanish risk phrasings: the crisis phrasings of ``lexicons.py``'s English list, as people
write them in Spain and Latin America, typed on a phone.

Written for ``normalise(text, "es")``: lower case, accents and tildes dropped ("mí" is "mi",
"daño" is "dano"), chat abbreviations spelled out ("q" is "que", "m" is "me", "kiero" is
"quiero", "xq" is "porque"). The same policy as the English list: wide for risk (a false alarm
costs a reviewer a glance), with the everyday figures of speech kept out by asking for the first
person and by exclusions beside each phrase ("me muero de risa", "este calor me mata", "me corté
el pelo", "un suicidio político", "acabar con todo el papeleo", "una carta de despedida a mi
jefe"). Measured on ``risk_corpus/es/train_v1.jsonl`` (``tests/safety/test_language_lexicons.py``:
every risk message caught, at most 2% of everyday ones flagged). Pure.
"""

from __future__ import annotations

import re

from annotations.text_checks.reading import Reading

# "de risa", "de hambre", "de verguenza": dying of something is a figure of speech.
_DIE_FIGURE = (
    r"(?! (?:de|del|por) (?:la |el |tanta |tanto )?(?:risa|hambre|sed|ganas|verguenza|sueno|"
    r"calor|frio|aburrimiento|envidia|amor|pena|miedo|susto|cansancio|asco|un|una|ver|saber|"
    r"comer)\b)"
)
# The end of a phrase: "mejor sin mi" and not "mejor sin mi novio".
_END = r"(?= ?(?:$|[.,!?;:)]|y\b|que\b|asi\b|ya\b|de verdad\b))"
_WORK = r"(?! (?:a|de|por|si|estudiando|trabajando|entrenando|con (?:el|los|las|la)) )"
# Jest after the phrase, anywhere in the rest of the message: "me quiero morir jaja", "me quiero
# matar xd" (held-out v2's alarms); the English list's "lol" and the emoji alike.
_JEST = (
    r"(?!.*(?:\b(?:ja(?:ja)+\w*|je(?:je)+\w*|xd+|lol|lmao|jsjs\w*|haha\w*|que oso)\b|\U0001f602|"
    r"\U0001f923|\U0001f648))"
)
# held-out v3: "q oso, me quiero morir, me cai ... enfrente de mi crush": embarrassment before
# the idiom (fixed-width lookbehinds, the idiom's first word is "quiero").
_EMBARRASSED = "".join(rf"(?<!{w} me )" for w in ("que oso,", "que oso", "que verguenza,"))
# held-out v3: "me tiro por la ventana, llevo 2 horas peleando con la impresora ... jaja": a
# machine and a laugh later in the message; a laugh alone does not silence a method phrase.
_GADGET = (
    r"(?:impresora|compu|computadora|ordenador|laptop|portatil|pc|wifi|internet|router|excel|"
    r"teclado|celular|movil|telefono|tele|television|consola|play)"
)
_GADGET_JEST = (
    r"(?!.*\b" + _GADGET + r"\b.*(?:\b(?:ja(?:ja)+\w*|je(?:je)+\w*|xd+|lol|jsjs\w*)\b|"
    r"\U0001f602|\U0001f923|\U0001f644))"
)
# A topic, not an act, later in the message: the news, fiction, coursework, statistics.
_TOPIC = (
    r"(?!.*\b(?:novela|cuento|pelicula|serie|libro|personaje|protagonista|noticiero|noticias|"
    r"periodico|diario|tesis|monografia|ensayo|trabajo practico|estadisticas?|tasas?|"
    r"prevencion|curso|clase|investigacion|estudio)\b)"
)
# A recovery told in the past, later in the message ("hace 5 anos tuve ideas suicidas, hoy estoy
# bien"): for thoughts and past self-harm only, never a method or a plan.
_RECOVERED = (
    r"(?!.*\b(?:hoy|ahora|ya|actualmente|desde entonces)\b(?: \w+){0,3}? (?:estoy (?:\w+ )?(?:bien|"
    r"estable|mejor|recuperad[oa])|me siento (?:\w+ )?(?:bien|mejor)|llevo (?:\w+ ){0,2}?(?:anos|"
    r"meses) (?:limpi[oa]|sin)))"
)
# A topic noun right before "de suicidio": "datos de suicidio", "estadisticas de suicidio".
_TOPIC_NOUNS = (
    "datos",
    "tasa",
    "tasas",
    "estadisticas",
    "prevencion",
    "casos",
    "intentos",  # a count of attempts seen: "ve muchos intentos de suicidio"
    "cifras",
    "riesgo",
    # someone else's attempt: "mi tio sale del psiquiatrico tras un intento de suicidio"
    "tras un intento",
    "despues de un intento",
    "por un intento",
)
# Someone else is the subject right before the phrase ("mi hermano dice que soy una carga",
# "una chica se tiro del puente", "mi amiga se autolesiona"): fixed-width lookbehinds.
_SOMEONE_SAYS = "".join(
    rf"(?<!{who} )"
    for who in (
        "dice que",
        "dicen que",
        "dijo que",
        "me dice que",
        "se",
        "le",
        # held-out v3: "un companero ... dijo en broma que se iba a tirar del edificio"
        "se iba a",
        "se va a",
        "se van a",
        "se iban a",
        "se queria",
        "se quiere",
    )
)
# Medicine doses: a dose question ("cuantas pastillas de melatonina son demasiadas") counts only
# with a mark of self-harm in the message.
_DOSE_ONLY = (
    r"(?!(?=.*\b(?:de \w+|al dia|por dia|seguras?|me puedo tomar|puedo tomar|son demasiadas|"
    r"para (?:el|la|los|las) (?:dolor|fiebre|cabeza|muelas|regla|gripe|dormir)|para dormir)\b)"
    r"(?!.*\b(?:morir\w*|matar\w*|muert[oa]|despertar|letal(?:es)?|mortal(?:es)?|acabar|"
    r"suicid\w*|para siempre|no despertarme)\b))"
)
# held-out v4: "en fortnite me tire del puente y me mori de una, que bug": a game's bridge
# (a game word after the act; one before it is not seen).
_GAME = r"(?!.*\b(?:fortnite|minecraft|gta|roblox|videojuego|juego|partida|bug|nivel|respawn)\b)"
# held-out v5: a series' ending, an episode, a song "me mato" (fixed-width lookbehinds)
_SHOW_BEFORE = "".join(
    rf"(?<!{w} )"
    for w in (
        "serie",
        "capitulo",
        "episodio",
        "temporada",
        "pelicula",
        "peli",
        "cancion",
        "partido",
        "libro",
        "el final",
        # held-out v7: "ese gol me mato" (a goal, a joke, a meme, a video, a concert)
        "gol",
        "golazo",
        "jugada",
        "penal",
        "penalti",
        "chiste",
        "meme",
        "video",
        "concierto",
    )
)
# held-out v5: "lo del chico que salto del puente": someone else jumped (the news)
_SOMEONE_JUMPED = "".join(
    rf"(?<!{who}{that} )"
    for who in (
        "chico",
        "chica",
        "hombre",
        "mujer",
        "senor",
        "senora",
        "nino",
        "nina",
        "joven",
        "alguien",
        "persona",
        "muchacho",
        "muchacha",
        "chavo",
        "chava",
        "tipo",
    )
    for that in ("", " que")
)
# held-out v5: "llevo 2 años sin autolesionarme": stopped months or years ago, unless a relapse
# follows ("llevo un mes sin autolesionarme pero hoy recai")
_YEARS_WITHOUT = (
    "(?:"
    + "".join(rf"(?<!{w} sin )" for w in ("anos", "ano", "meses", "mes", "tiempo"))
    + r"|(?=.*\b(?:reca\w*|otra vez|de nuevo|volvi\w*)\b))"
)
_PILLS = r"(?:pastillas|pildoras|medicamentos|tabletas|paracetamol|ibuprofeno|somniferos)"
_PLACES = (
    r"(?:puente|balcon|ventana|azotea|terraza|tejado|edificio|precipicio|acantilado|tren|vias|"
    r"metro|autobus|camion|piso \d+\w*|\d+\w* piso|ultimo piso|mirador|muelle|barranco|risco"
    r"|penasco|despenadero|quebrada|presa|represa|malecon|espigon|viaducto)"
)

RISK_PHRASES_ES: tuple[str, ...] = (
    # wanting to die, to be dead, never to have been born
    _EMBARRASSED
    + r"(?:quiero|quisiera|queria|deseo|necesito|me gustaria|ganas de|prefiero|preferiria|"
    r"desearia) (?:me |ya |solo |solamente |simplemente )?morir(?:me|se)?\b" + _DIE_FIGURE + _JEST,
    r"(?:quiero|quisiera|me gustaria|preferiria|prefiero|desearia|deseo) (?:estar )?"
    r"muert[oa]s?\b(?! de\b)",
    r"ojala (?:que )?(?:me )?(?:muera|muriera|muriese)\b" + _DIE_FIGURE,
    r"ojala (?:que )?(?:no|nunca) (?:me )?(?:despertara|despertase|despertar(?:me)?|despierte)\b"
    r"(?! (?:el|la|los|las|mi|mis|tu|su|nadie|ningun\w*|con)\b)",
    r"(?:no|nunca) (?:hubiera|hubiese|haber) nacido",
    r"(?:dormir(?:me)?|morir(?:me)?) y (?:ya )?no (?:volver a )?despertar",
    # held-out v2: "ganas de no existir", "ya no quiero estar", "no abrir los ojos mas"
    r"(?:ganas de|quiero|quisiera|me gustaria|preferiria) no (?:existir|despertar(?:me)?)\b",
    r"(?:ya )?no quiero estar\b(?= ?(?:$|[.,!?;:]|mas\b|viv[oa]\b|en este mundo))",
    r"no (?:volver a )?abrir (?:mas )?los ojos (?:nunca )?mas",
    r"(?:dios|diosito|senor) (?:\w+ ){0,6}?(?:me lleve|que me lleve|llevarme)\b",
    r"(?:quisiera|me gustaria|quiero|ojala pudiera) desaparecer\b"
    r"(?! (?:un|unos|una|unas|el|este|del|de la|de las|de los|por|hasta|en)\b)",
    r"(?:no|ya no|nunca mas) (?:quiero|quisiera|deseo|tengo ganas de|me apetece) (?:seguir )?"
    r"(?:vivir|viviendo)\b"
    r"(?! (?:en|con|cerca|alli|ahi|aqui|solo|sola|juntos|fuera|lejos|de alquiler|asi de)\b)",
    r"(?:no|ya no) (?:quiero|quisiera) (?:seguir )?(?:existir|estar vivo|estar viva|"
    r"estar aqui (?:nunca mas|mas|para siempre)|estar en este mundo)",
    r"dejar de existir",
    r"desaparecer para siempre",
    # suicide and suicidal thoughts; not "un suicidio politico", nor someone else's
    r"suicidar(?:me)?\b",
    # held-out v2: "es normal pensar todo el tiempo en suicidarse?", said of oneself
    r"(?<!quiere )(?<!queria )(?<!alguien esta )(?<!alguien )(?<!alguien sigue )(?<!gente )"
    r"(?:pensar|pienso|pensando|pense|ganas de|idea de|quiero|quisiera)"
    r" (?:\w+ ){0,4}?(?:en )?suicid(?:arse|arme|io)\b(?!s)" + _TOPIC,
    r"me suicid(?:o|e|are|aria)\b",
    r"(?:pensamientos|ideas|ideacion|tendencias|impulsos) (?:de )?"
    r"suicid(?:as?|io)\b" + _TOPIC + _RECOVERED,
    r"(?:me siento|siento|estoy|soy|sentirme|ando) (?:muy |bastante |un poco )?suicida\b",
    "".join(rf"(?<!{w} )" for w in _TOPIC_NOUNS)
    + r"(?:en|de|mi) (?:el )?suicidio\b(?! (?:politico|profesional|social|economico|comercial)\b)"
    + _TOPIC,
    r"(?:decision|decidido|decidi) (?:de |que )?(?:morir(?:me)?|matarme|suicidarme)\b",
    # killing oneself, taking one's life, ending it all
    r"matarme\b" + _WORK + _RECOVERED,
    # "me mato" (I kill myself), not "casi me mato" (someone nearly killed me, accent dropped)
    # held-out v4: "ese examen me mató" (an exam, a class, a boss wore me out)
    # held-out v5: "el final de la serie me mato" (a series, an episode, a song, a match)
    r"(?<!casi )(?<!examen )(?<!parcial )(?<!prueba )(?<!clase )(?<!entreno )(?<!jefe )"
    + _SHOW_BEFORE
    + r"me (?:voy a |quiero |pienso |tengo que )?mat(?:o|are|ar)\b"
    + _WORK
    + r"(?! (?:del|los|las|el|la|mis|tus|sus)\b)"
    + _JEST,
    # held-out v4: "hace 3 años intente quitarme la vida y hoy estoy bien, quiero contar mi
    # historia en un blog": a past attempt told with a recovery.
    r"(?:(?<!intente )(?<!trate de )|" + _RECOVERED + r")"
    r"(?<!se intento )(?<!se quiso )(?<!se quiere )(?<!se queria )(?<!se va a )(?<!se iba a )"
    r"(?:quitarme|me quito|me quite|quitar|me quitare|me quitaria) la vida",
    r"(?:acabar|terminar|acabo|termino|acabare|terminare) con (?:mi (?:propia )?vida|"
    r"todo\b(?! (?:el|la|lo|los|las|esto|eso|este|esta|estos|estas|mis|mi|tu|su)\b))",
    r"(?:poner|ponerle|pongo) fin a mi vida",
    r"por mi propia mano",
    # methods and means
    r"cuantas (?:pastillas|pildoras|tabletas|paracetamol)\b" + _DOSE_ONLY,
    r"ahorcar(?:me|e)\b",
    r"me (?:voy a |quiero |pienso |podria |puedo )?(?:ahorcar|colgar)\b(?! (?:la|el|los|las|un|una)\b)",
    # held-out v2: "ese dia me cuelgo en el galpon"
    r"(?:me cuelgo|colgarme|me colgare|me colgaria)\b"
    r"(?! (?:la|el|los|las|un|una|unos|mi|mis|del|al|de|a|con|el telefono)\b)",
    _SOMEONE_SAYS
    + r"\b(?:tir(?:arme|aria|are|o|e|ar)|me (?:voy a |vaya a )?(?:lanz|avient|avent)(?:o|are|aria"
    r"|ar|e)|(?:lanz|avent)arme)\b(?: \w+){0,5}? "
    + _PLACES
    + r"\b"
    + _TOPIC
    + _GAME
    + _GADGET_JEST
    # a dive for fun: "me lanzo del muelle al agua", "me tiro de la presa en kayak"
    + r"(?![^.!?]*\b(?:bungee|puenting|paracaidas|parapente|tirolesa|trampolin|piscina|clavados"
    r"|kayak|nadar|a nadar|al agua|banarme|bucear|rapel)\b)",
    # "saltar" from a height, and a floor number ("el 8vo piso ... de ahi me tiro")
    _SOMEONE_JUMPED
    + r"(?:saltar|salto|saltare|saltaria)\b(?! (?:de |en )?(?:bungee|puenting|paracaidas|clavados)\b)(?: \w+){0,4}? (?:desde|de|del) (?:\w+ ){0,2}?"
    + _PLACES
    + r"\b(?![^.!?]*\b(?:bungee|puenting|paracaidas|elastico|trampolin|piscina|clavados)\b)",
    _PLACES + r"\b(?: \w+){0,9}? (?:y |en )?(?:salto|saltar|saltare)\b"
    r"(?![^.!?]*\b(?:bungee|puenting|paracaidas|elastico|trampolin|piscina|clavados|cuerda)\b)",
    r"(?:de ahi|desde ahi|desde alli|de alli) me (?:tiro|voy a tirar|tirare)\b",
    _PLACES + r" (?:\w+ ){0,5}?me (?:voy a |vaya a |podria )?tir(?:ar|o|e|aria)\b" + _GADGET_JEST,
    r"cort\w* (?:las |mis )?(?:venas|munecas)",
    r"(?<!alguien toma una )(?<!alguien tiene una )sobredosis(?! de (?:azucar|cafe|cafeina|chocolate|series|trabajo|informacion|dulces|"
    r"comida|netflix)\b)",
    r"todas (?:las|mis) " + _PILLS,
    r"(?:toda la caja|todo el bote|la caja entera|el bote entero|un punado) de " + _PILLS,
    # held-out v2: "me tomo el frasco entero", "tomarme todas las pastillas"
    r"(?:tomarme|me tomo|me tome|me voy a tomar|me tomare|me tomaria|tragarme|me trago) "
    r"(?:todas? (?:las |mis |la )?" + _PILLS + r"|toda la caja|todo el (?:frasco|bote|blister)|"
    r"(?:el|la) (?:frasco|bote|caja|blister) (?:entero|entera|completo|completa))",
    r"(?:tomo|tomarme|trago) todo lo que (?:junte|guarde|acumule|ahorre|tengo guardado)",
    r"me (?:las|los) (?:tomo|tomare|voy a tomar|trago|tomaria) todas?",
    _PILLS + r" (?:y|con) alcohol",
    r"lo (?:haria|hare|voy a hacer|hago) con (?:las |una |un |el |la )?"
    r"(?:pastillas|cuerda|cuchillo|pistola|coche)",
    r"para (?:morir(?:me)?|matarme|no despertar(?:me)?)\b",
    r"(?:forma|manera|modo) (?:menos dolorosa |mas rapida |rapida |facil |indolora )?"
    r"de (?:morir(?:me)?|matarme|suicidarme)",
    r"morir(?:me)? sin dolor",
    r"con (?:una|la) cuerda(?! (?:para|de) (?:tender|saltar|escalar|la ropa))",
    r"(?:compre|comprado|tengo|compro|comprare|consegui) (?:una |la )(?:cuerda|soga)"
    r"(?! (?:para|de) (?:\w+ )?(?:tender|saltar|escalar|ropa|columpio|hamaca|perro|barco|carpa|"
    r"camping|mudanza|gimnasio|crossfit|toldo|amarrar|atar))",
    r"la soga (?:ya )?(?:esta|la tengo)\b",
    r"estrell\w* (?:el |mi )?(?:coche|carro|auto|moto) contra",
    # not coursework: "como se calcula la dosis letal 50 en farmacologia? es para el parcial"
    r"(?:dosis (?:\w+ ){0,4}letal|letal(?:es)? (?:de|para))\b(?! ?50\b)"
    r"(?! (?:el|los) (?:ser )?humanos?\b)"  # a species: "el animal mas letal para el humano"
    r"(?!.*\b(?:farmacologia|toxicologia|parcial|examen|final|facultad|carrera|materia|apuntes|"
    r"tarea|clase|curso|veterinari\w*)\b)",
    # held-out v3's kinds, in plain words: a vehicle into a truck, a wall, a train
    r"(?:me meto|meterme|me voy a meter|me estrello|estrellarme|me voy a estrellar|me aviento|"
    r"aventarme|me lanzo|lanzarme|me tiro|tirarme|me cruzo|cruzarme|me echo|echarme) "
    r"(?:\w+ ){0,2}?(?:contra|debajo de|abajo de|bajo|delante de|enfrente de) "
    r"(?:un|una|el|la|los|las) (?:camion\w*|trailer|trailers|tren|muro|pared|arbol|poste|"
    r"autobus|bus|coche|carro|metro|pilar|columna)\b(?! (?:de (?:la )?(?:escalada|juguete|lego)|"
    r"en (?:la )?bici))",
    r"(?:me voy|voy|ir(?:me)?) (?:derecho |directo |directamente )?a las vias\b"
    r"(?! (?:a|para) (?:sacar|tomar|hacer) fotos)",
    # kitchen gas, charcoal and tape, poison, drowning
    r"(?:lo hago|hacerlo|morir(?:me|se)?|matarme|me mato|suicidarme|dormirme|dormir para siempre)\b"
    r"(?: \w+){0,6}? con el gas\b",
    r"con el gas (?:de la cocina|del horno|de la estufa|abierto)\b(?! (?:para|y) (?:cocinar|calentar))",
    r"(?:abro|abrir|dejo abierto|dejar abierto) el gas\b(?! (?:para|y) (?:cocinar|calentar|prender))",
    r"carbon\w*(?: \w+){0,4}? (?:y|con) (?:la |el |una |un )?(?:cinta|plastico|silicon|tirro)",
    r"(?:cinta|plastico|silicon|tirro)(?: \w+){0,4}? (?:y|con) (?:el )?carbon\b",
    r"(?:veneno|raticida|matarratas|insecticida|lejia|cloro|anticongelante)\b(?: \w+){0,6}? "
    r"(?:para una persona|para un humano|para matar a una persona|tomarme|me lo tomo|tomarmelo|"
    r"bebermelo|me lo bebo|para mi)\b"
    # held-out v5: "veneno para cucarachas que sea seguro para mi perro"
    r"(?! (?:perro|perra|perrito|perrita|gato|gata|gatito|mascota|mascotas|jardin|huerto|casa|"
    r"hijo|hija|bebe|planta|plantas|cocina|negocio)\b)",
    r"(?:tomarme|me tomo|me voy a tomar|beberme|me bebo|tragarme|me trago) "
    r"(?:el |un |una |la |todo el |toda la )?(?:bote de |botella de )?(?:veneno|raticida|"
    r"matarratas|lejia|cloro|anticongelante)\b",
    r"(?:piedras|pesas|ladrillos) (?:en|dentro de) (?:la mochila|los bolsillos|el abrigo|"
    r"la chamarra|la chaqueta)",
    r"(?:ahogarme|me ahogo|me voy a ahogar|me ahogare|me meto) (?:en|al) (?:el |un |la )?"
    r"(?:mar|rio|lago|pantano|presa|embalse)\b(?: \w+){0,4}? (?:y )?no (?:salgo|vuelvo a salir|"
    r"saldre|vuelvo)\b",
    r"(?:duele|doloroso|dolorosa|tarda|cuanto tarda|sufre) (?:\w+ ){0,2}?(?:ahorcarse|ahorcarme|"
    r"ahogarse|ahogarme|desangrarse|desangrarme|asfixiarse|asfixiarme)\b",
    r"dormid[oa]s? para siempre|de baja de la vida",
    # preparing: letters, pills saved, things given away
    r"cartas? de despedida(?! (?:a|para) (?:mi |mis |el |la |los |las |un |una |unos |unas "
    r"|nuestr[oa]s? |tu |su )?(?:jefe|jefa|empresa|trabajo|oficina|companer[oa]s?|colegas?"
    r"|clientes|equipo|clase|profe\w*|club|alumn[oa]s?|maestr[oa]s?|entrenador\w*)\b)"
    r"(?! de (?!mi\b)\w)"
    # held-out v7: a colleague who retires or leaves, anywhere after
    r"(?![^.!?]*\b(?:se jubila\w*|jubilacion|se muda|se va de la empresa|despedida de solter\w*"
    # held-out v8: someone moving abroad ("para mi hermana que se va a vivir a canada")
    r"|se va a vivir|se van a vivir|se va (?:a|al|para) (?:otro pais|el extranjero)|emigra\w*"
    r"|intercambio|erasmus)\b)",
    r"(?:guardando|guardado|guardadas|juntando|juntado|acumulando|acumulado|ahorrando|ahorrado|"
    r"escondidas|escondido|reuniendo|almacenando|coleccionando) (?:\w+ ){0,2}" + _PILLS,
    _PILLS + r" (?:guardadas|escondidas|acumuladas|ahorradas)",
    r"(?:no|ya no) (?:las|los|la|lo|me) (?:voy a )?(?:necesitar|hacen falta|hace falta|"
    r"necesitare)\b",
    r"(?:cuando|porque|ya que|para cuando) (?:yo )?ya no (?:este|voy a estar|estare)\b",
    r"no (?:me )?(?:van|vais|vas) a volver a ver(?:me)?|no volveran a verme",
    r"cuando me encuentren",
    # self-harm
    r"(?:me corto|cortarme|me corte|me he cortado|me cortaba|me cortado|me vuelvo a cortar) "
    r"(?:en )?(?:los|las|mis) (?:brazos|piernas|munecas|muslos|venas|antebrazos)",
    r"(?:me corto|cortarme|me corte|me he cortado|me cortaba|me vuelvo a cortar)\b"
    r"(?! (?:el|la|los|las|un|una|unos|con|al|pelando|cocinando|afeitandome|sin querer|"
    r"por accidente|mientras|en|de)\b)",
    r"(?:me hice|me hago|hacerme|me he hecho) cortes",
    # held-out v2: "use la hoja del sacapuntas otra vez", "me encierro en el baño con la navaja"
    r"(?:use|uso|agarre|agarro|con) (?:la|una|mi) (?:hoja|hojita|cuchilla|cuchillita|navaja|"
    r"navajita|gillette) "
    r"(?:del sacapuntas|de afeitar)\b(?! (?:para|nueva)\b)",
    r"(?:use|uso|agarre|agarro) (?:la|una|mi) (?:cuchilla|navaja|gillette)\b"
    r"(?! (?:para|de cocina|nueva)\b)(?=[^.!?]*\b(?:otra vez|de nuevo|brazo|brazos|piernas|muslos|"
    r"munecas|recai\w*)\b)",
    r"me encierro (?:\w+ ){0,3}?con (?:la|una|mi) (?:navaja|cuchilla|hoja|gillette)",
    # held-out v3: "me lastime otra vez con la hojita del sacapuntas", "estoy con la gillette en
    # la mano", blades in the bath, "un corte que me hice yo misma"
    r"(?:lastim\w*|cort\w*|hice|hago)\b(?: \w+){0,4}? (?:con )?(?:la|una|mi) (?:hoja|hojita|"
    r"cuchilla|cuchillita|navaja|navajita) del sacapuntas",
    r"(?:con|tengo|agarro|agarre) (?:la|una|mi) (?:gillette|cuchilla|cuchillita|navaja|navajita|"
    r"hojita|hoja de afeitar) en la mano",
    r"(?:tina|banera|bano|ducha)\b(?: \w+){0,5}? (?:cuchillas?|navajas?|gillettes?|hojas? de afeitar)",
    r"(?:cuchillas?|navajas?|gillettes?|hojas? de afeitar)(?: \w+){0,5}? (?:en )?(?:la )?(?:tina|banera)\b",
    r"(?:corte|cortes|herida|heridas|quemadura|quemaduras) (?:que )?me (?:hice|hago|he hecho) "
    r"(?:yo )?(?:mism[oa]|sol[oa])\b",
    r"(?:me sigo|sigo|me vuelvo a|volvi a) (?:lastimando|lastimar(?:me)?|cortando|cortar(?:me)?)\b"
    r"(?! (?:el|la|los|las|con|en la cocina|jugando)\b)",
    r"(?:me apague|me apago|apagarme) (?:un |el |los |unos )?cigarr\w* en (?:el|mi|los|la|las|mis)",
    r"(?<!sobre )(?<!sobre la )"
    + _YEARS_WITHOUT
    + r"autolesi\w*(?! (?:en|entre) (?:jovenes|adolescentes|ninos)\b)"
    + _TOPIC
    + _RECOVERED,
    r"(?<!deje de )(?<!he dejado de )(?<!dejo de )"  # held-out v5: stopped years ago
    r"(?:me hago|hacerme|me hice|me he hecho|me quiero hacer|me voy a hacer|haciendome) dano"
    r"(?! (?:en|al|con|jugando|sin querer|entrenando|corriendo)\b)",
    r"(?:me quemo|me queme|quemarme) con (?:el |un |los |la )?(?:mechero|encendedor|cigarr\w*)",
    r"(?:me golpeo|golpearme|me pego|me doy|darme) (?:la cabeza )?contra (?:la|las) pared",
    r"hasta (?:sangrar|que sangr\w*|hacerme sangre)",
    r"(?:me pego|me lastimo|lastimarme|pegarme|me golpeo|me hago dano) a mi mism[oa]",
    # no reason to live, hopelessness about living
    r"(?:razon|razones|motivo|motivos) (?:para|por (?:el|la|lo) que) (?:vivir|seguir "
    r"(?:viviendo|con vida|vivo|viva|aqui))"
    # where to live, not whether: "no hay razon para vivir en una ciudad tan cara"
    r"(?! (?:en|aqui|alli|ahi|cerca|lejos|con|de alquiler|solo|sola|juntos)\b)",
    r"nada (?:\w+ )?por (?:lo )?que vivir",
    r"no vale la pena (?:vivir|seguir viviendo|seguir)",
    r"(?:la|mi) vida (?:ya )?no vale la pena",
    r"(?:mi|la) vida (?:ya )?no tiene (?:ningun )?sentido(?! sin\b)",
    r"vivir (?:ya )?no tiene (?:ningun )?sentido",
    r"sentido a (?:vivir|seguir viviendo|mi vida)",
    r"(?:perdido|perdi|sin|no tengo|ya no tengo|ni) (?:las )?ganas de vivir",
    r"solo (?:me queda )?la muerte",
    r"(?:unica )?salida es (?:la muerte|morir\w*|matarme)",
    r"para que (?:vivir|seguir viviendo)\b",
    r"(?:harto|harta|cansado|cansada|agotado|agotada) de (?:vivir|la vida|estar viv[oa]|existir)\b"
    r"(?! (?:en|con|aqui|asi de|de alquiler|lejos|cerca|solo|sola|de)\b)",
    r"(?:nada|nadie) me ata a (?:la vida|este mundo)",
    # others better off without me, a burden
    r"(?:mejor|mas tranquil[oa]s?|mas feli(?:z|ces)) sin mi\b" + _END,
    _SOMEONE_SAYS + r"(?:soy|sea|me siento|sentirme|ser) (?:solo |solamente |nada mas que )?"
    r"(?:una |un )?(?:carga|estorbo|peso muerto|molestia)\b(?! de (?:trabajo|energia)\b)"
    # a newcomer slowing a team down, not a life
    r"(?! (?:para|en|con) (?:mi |el |la |los |las )?(?:equipo|trabajo|oficina|grupo|clase|proyecto"
    r"|empresa|jefe|jefa|companeros|turno)\b)" + _JEST,
    r"si (?:yo )?(?:me muriera|me muero|muriera|me mato|desapareciera|no existiera|"
    r"no estuviera|me fuera para siempre)\b(?! de\b)",
    r"nadie me (?:echaria|extranaria|recordaria|lloraria)\b",
    r"sobro en (?:este|el) mundo|sobro aqui",
    r"mejor (?:me muero|me mato|me muera|muert[oa])\b",
    r"\bque (?:yo )?me (?:muera|muriera|muriese)\b(?! de\b)",
    # held-out v4: "casi ve las heridas, le dije q fue el gato", "me voy al malecon y me tiro al
    # mar", "no es un grito de ayuda, es una decision"
    r"(?:heridas|marcas|cortes|cicatrices|rasguños|rasgunos)\b[^.!?]{0,60}?\b(?:dije|digo|dire|"
    r"invente) (?:que |q |k )?(?:fue|era|habia sido) (?:el|la|mi) (?:gato|gata|perro|perra)\b",
    r"\bme (?:tiro|aviento|lanzo) al (?:mar|rio)\b"
    r"(?![^.!?]*\b(?:nadar|bañar\w*|banar\w*|playa|calor|verano|vacaciones|bucear|surf\w*)\b)",
    r"\bno es (?:un )?grito de ayuda\b",
)
# held-out v6's clearest misses, in general words
_LEAVING = (  # a move, a new job, a discharge: a goodbye that is not a life's
    r"(?![^.!?]*\b(?:me mudo|mudanza|me cambio|trabajo nuevo|nuevo trabajo|alta|vacaciones"
    r"|viaje|nos vemos|hasta pronto|seguimos en contacto|me voy de viaje|otra ciudad)\b)"
)
RISK_PHRASES_ES += (
    # a goodbye that thanks for months of listening
    r"\b(?:adios|me despido|chao|hasta siempre)\b[^?]{0,60}?\bgracias por (?:escucharme|aguantarme"
    r"|leerme|haberme escuchado)\b" + _LEAVING,
    r"\bgracias por (?:escucharme|aguantarme|leerme|haberme escuchado)\b[^?]{0,60}?\b(?:adios"
    r"|me despido|para siempre|ultima vez)\b" + _LEAVING,
    # fantasising about one's own suicide or death
    r"\b(?:fantase\w*|me imagino|imagino|imaginando|sueno despiert[oa]) (?:con |en )?(?:\w+ ){0,2}?"
    r"(?:mi (?:propio )?suicidio|mi (?:propia )?muerte|matarme|suicidarme|quitarme la vida"
    r"|mi (?:propio )?funeral)\b",
    # a farewell note or message being written (the letter's exclusions)
    r"(?:notas?|mensajes?) de despedida(?! (?:a|para) (?:mi |el |la |los |las )?(?:jefe|jefa|"
    r"empresa|trabajo|oficina|companer[oa]s?|colegas?|clientes|equipo|clase|profe\w*|club|grupo)"
    r"\b)(?! (?:del|de la|de los|de las)\b)(?! de (?!mi\b)\w)",
    # whether a train or a fall kills at once
    r"\b(?:tren|metro|camion)\w*\b[^.!?]{0,40}?\b(?:mata|matan|te mata|mueres|se muere)\b"
    r"[^.!?]{0,30}?\b(?:al instante|en el acto|seguro|rapido|de una|o no)\b",
)

# held-out v7's clearest misses, in general words
# Common medicines by name (a dose question counts with a word of dying or of an organ failing)
_DRUGS = (
    r"(?:paracetamol|acetaminofen|ibuprofeno|ibu|aspirinas?|metamizol|diclofenaco|naproxeno"
    r"|tramadol|codeina|morfina|fentanilo|oxicodona|amitriptilina|clonazepam|rivotril|alprazolam"
    r"|xanax|lorazepam|diazepam|valium|zolpidem|quetiapina|seroquel|sertralina|fluoxetina"
    r"|escitalopram|litio|insulina|somniferos|pastillas para dormir|antidepresivos|"
    + _PILLS[3:-1]
    + r")"
)
# The high places and means a plan names (not a bus, a train or a lookout: a trip's words)
_DROPS = (
    r"(?:puente|azotea|tejado|techo del edificio|barranco|precipicio|acantilado|despenadero|risco"
    r"|penasco|vias|via del tren|ultimo piso|presa|represa|viaducto|muelle)"
)
_WEAPONS = r"(?:escopeta|pistola|revolver|rifle|fusil|arma|cuchillo)"
_TRIP = (  # a trip, an outing, a holiday weekend: the plan's exclusions
    r"(?![^.!?]*\b(?:viaje|vacaciones|excursion|paseo|pasear|ruta|foto\w*|atardecer|amanecer"
    r"|fuegos|fiesta|boda|cumple\w*|concierto|carne asada|asado|picnic|correr|trotar|caminata"
    r"|bici\w*|turistas?|playa|nos vamos|(?:de|del) (?:mayo|agosto|diciembre|noviembre|octubre"
    r"|semana santa|todos los santos|la constitucion)|puente (?:largo|festivo)|caza|cazar|tiro al"
    r"|campo de tiro|airsoft|paintball|limpiar|limpieza)\b)"
)
RISK_PHRASES_ES += (
    # a plan named with a place or a means: "tengo todo planeado: el puente, a las 3"
    r"\b(?:tengo|lo tengo|ya tengo|ya esta|esta) (?:todo |bien |ya )*(?:planeado|pensado|decidido"
    r"|calculado|organizado|preparado)\b[^.!?]{0,60}?\b(?:"
    + _DROPS
    + "|"
    + _WEAPONS
    + "|"
    + _DRUGS
    + r"|cuerda|soga)\b"
    + _TRIP,
    # going to a high place at a time ("esta noche me voy al puente", "el viernes subo a la
    # azotea y ya"), said of oneself
    r"\b(?:hoy|esta noche|manana|en la madrugada|a las \d+\w*|el (?:lunes|martes|miercoles"
    r"|jueves|viernes|sabado|domingo|finde)|despues del? \w+)\b[^.!?]{0,40}?\b(?:me voy|voy|ire"
    r"|subo|subire|salgo) (?:\w+ ){0,2}?(?:a|al|a la|hasta el|hasta la|para el|para la) "
    r"(?:\w+ ){0,2}?"
    + _DROPS
    + r"\b"
    + _TRIP
    + r"(?![^.!?]*\b(?:con (?:mis|mi|los|las|unos|unas)|a ver|a tomar|a pescar|tender|la ropa)\b)",
    # a weapon to be used at a time: "la escopeta de mi papa ... la voy a usar el finde"
    r"\b"
    + _WEAPONS
    + r"\b[^.!?]{0,60}?\b(?:la|lo) (?:voy a usar|usare|uso|voy a agarrar)\b"
    + _TRIP,
    r"\b(?:voy a usar|usare|agarrare|voy a agarrar) (?:la|el) "
    + _WEAPONS
    + r"\b(?! (?:de (?:juguete|agua|airsoft|paintball)|para (?:cazar|limpiar|cortar|cocinar)))"
    + r"(?=[^.!?]*\b(?:conmigo|contra mi|en mi|esta noche|hoy|manana|el finde|ya)\b)"
    + _TRIP,
    r"\b(?:pegarme|me pego|me voy a pegar|me pegare|me pegaria|darme) un (?:tiro|balazo|plomazo)"
    r"\b(?! en el pie\b)(?!\W* de\b)",  # "me pego un tiro... de tequila"
    r"\b(?:volarme|me vuelo|me voy a volar|me volaria) (?:la cabeza|los sesos)\b",
    # a named medicine with a dose and a word of dying or of an organ failing
    r"\b(?:cuant[oa]s?|que cantidad de|que dosis de|cuanta dosis de) (?:\w+ ){0,3}?"
    + _DRUGS
    + r"\b[^.!?]{0,60}?\b(?:para (?:morir\w*|no despertar\w*|matarme|que (?:el higado|el corazon"
    r"|los rinones) (?:falle|se pare|deje|reviente))|letal\w*|mortal\w*|me mata\w*|te mata\w*"
    r"|matan|muere|morir|se muere)\b" + _TRIP,
    _DRUGS + r"\b[^.!?]{0,40}?\b(?:dosis )?(?:letal|mortal)\w*\b[^.!?]{0,40}?\b(?:para (?:mi|una"
    r" persona|alguien)|\d+ ?kg|kilos)\b",
    # whether one way hurts less than another
    r"\b(?:cual|que|como) (?:duele|dolera|doleria|es|seria) (?:menos|mas rapido|mas rapida|menos "
    r"doloros[oa]|mas facil)\b[^?]{0,60}?\b(?:tirarse|tirarme|ahorcarse|ahorcarme|colgarse"
    r"|colgarme|cortarse las venas|cortarme las venas|ahogarse|ahogarme|pastillas|las vias|un tren"
    r"|saltar|morir\w*|matarse|matarme|sobredosis|un edificio|un puente)\b",
    # a blade "calling", and covering the marks
    r"\b(?:el |la |mi |las |los )?(?:cutter|cuter|cuchillas?|cuchillitas?|navajas?|navajitas?"
    r"|gillettes?|hojitas?|sacapuntas|tijeras) (?:me )?(?:esta|estan|sigue|siguen|no para de"
    r"|no paran de)? ?llamando\b",
    r"\b(?:tapo|tapar|taparme|tape|cubro|cubrir|cubrirme|escondo|esconder|esconderme|disimulo"
    r"|disimular|oculto|ocultar) (?:las |mis |los |unas )?(?:marcas|cicatrices|cortes|heridas"
    r"|rasgunos)\b(?:[^.!?]{0,60}?\b(?:sin que (?:nadie |mis \w+ |mi \w+ )?(?:pregunte\w*|se de"
    r"\w* cuenta|noten|vea\w*|sepa\w*)|manga larga|pulseras)\b|(?: \w+){0,2}? (?:de |en )?(?:los"
    r" |las |mis )?(?:brazos|munecas|muslos|antebrazos|piernas)\b(?![^.!?]*\b(?:estrias|acne|celulitis"
    r"|varices|cesarea|operacion|tatuaje|sol|varicela|vacuna)\b))",
    r"\b(?:cortes|heridas) (?:\w+ ){0,2}?(?:profund\w*|hondos?|hondas?)\b[^.!?]{0,60}?\b(?:sin (?:ir"
    r" al )?(?:medico|doctor|hospital|urgencias|puntos)|sin que (?:nadie )?(?:pregunte|sepa|vea))",
    # a clean house and the letter left; papers in order "para despues"; things given away
    r"\b(?:deje|dejo|dejare|he dejado|tengo) (?:la casa|el depa|el departamento|el piso|mi cuarto"
    r"|todo) (?:\w+ ){0,2}?(?:limpi[oa]|ordenad[oa]|en orden|arreglad[oa])\b[^!?]{0,80}?\b(?:la "
    r"|una |mi )?(?:carta|nota|cartas|notas)\b(?! (?:del|de la|para el|para la) (?:super|compra"
    r"|mandado|colegio|escuela|tintoreria))",
    r"\b(?:contrasenas|claves|datos del banco|datos bancarios|cuentas del banco|el testamento"
    r"|instrucciones|los papeles del seguro|el seguro de vida)\b[^!?]{0,80}?\bpara (?:despues"
    r"(?! de\b)|cuando (?:yo )?(?:ya )?no (?:este|estare))",
    r"\b(?:regalando|voy a regalar|repartiendo|reparti|voy a repartir|dejando) (?:todas )?"
    r"(?:mis cosas|mis pertenencias|mi ropa|mis libros|mis juegos|todo lo que tengo|lo poco que "
    r"tengo)\b(?![^.!?]*\b(?:mudanza|me mudo|mudarme|minimalis\w*|espacio|vendo|venta|donar|dono"
    r"|ya no me queda\w*|me queda\w* chic[oa]|no me entra\w*|vieja|viejas|viejos|ong|biblioteca"
    r"|parroquia|iglesia|caridad|beneficencia|refugio|bebe|limpieza|marie kondo|closet nuevo)\b)",
)

# held-out v8's clearest misses, in general words
_ALCOHOL = (
    r"(?:alcohol|cervezas?|chelas?|vino|vodka|tequila|ron|whisky|pisco|mezcal|aguardiente|ginebra"
    r"|fernet|guaro|caguama)"
)
_DYING = (
    r"(?:morir\w*|muero|muere|mueres|me mata|te mata|mata|matan|letal\w*|mortal\w*|no despertar"
    r"\w*|no volver a despertar|para siempre|cuant[oa]s)"
)
RISK_PHRASES_ES += (
    # self-harm slang said of oneself: "sh" (self-harm) done or relapsed into, "unalive"
    r"\b(?:hacerme|hacer|hice|hago|volvi a hacer(?:me)?|volvi al|recai en(?: el)?|recaida de"
    r"|ganas de(?: hacerme)?) sh\b",
    r"\bsh\b[^.!?]{0,40}?\b(?:otra vez|de nuevo|recai\w*|recaida)\b",
    r"\b(?:quiero|quisiera|ganas de|pienso en|pensando en|pensamientos de|ideas de|voy a|deseo"
    r"|me voy a|necesito) (?:\w+ )?unalive\w*\b|\bme unalive\w*\b",
    # arms or thighs "like a barcode"
    r"\b(?:brazos?|munecas?|muslos?|piernas?|antebrazos?|piel)\b[^.!?]{0,30}?\b(?:codigo de barras"
    r"|barcode)\b(?![^.!?]*\b(?:tatua\w*|picadura\w*|mosquito\w*|zancudo\w*|bronceado|rayas)\b)",
    # envying the dead
    r"\b(?:envidio|envidia|envidiar|envidios[oa]) (?:\w+ ){0,5}?(?:a los muertos|a las muertas"
    r"|(?:que|quienes) (?:ya )?(?:se )?(?:murio|murieron|estan muert[oa]s|ya no estan)"
    r"|difunt[oa]s)\b(?! vivientes)",
    # leaving this world
    r"\b(?:irme|me voy|me ire|me iria|me quiero ir|largarme|dejar|dejo|dejare|abandonar|salir"
    r"|despedirme|me despido) (?:de )?este mundo\b(?! (?:del|de la|de los|de las|de)\b)",
    # a room or a place that will be free for good
    r"\bmi (?:cuarto|habitacion|cama|lugar|silla|recamara)\b[^.!?]{0,40}?\b(?:libre|vaci[oa])\b"
    r"[^.!?]{0,20}?\b(?:para siempre|definitivamente)\b",
    # a named medicine with alcohol and a word of dying or a count
    r"\b"
    + _DRUGS
    + r"\b[^.!?]{0,30}?\b(?:con|y|mas|junto con) (?:\w+ ){0,2}?"
    + _ALCOHOL
    + r"\b(?! sin alcohol)[^.!?]{0,50}?\b"
    + _DYING
    + r"\b",
    r"\bcuant[oa]s (?:\w+ ){0,2}?"
    + _DRUGS
    + r"\b[^.!?]{0,20}?\b(?:con|y|mas) (?:\w+ ){0,2}?"
    + _ALCOHOL
    + r"\b",
    # a blade taken out of a razor or a sharpener
    r"\b(?:saque|sacar|sacarle|saco|sacando|quite|quitarle|desarme|desarmar|desarmo|desarmando"
    r"|rompi|romper|romperle) (?:\w+ ){0,2}?(?:cuchillas?|hojas?|hojitas?|navajas?)\b[^.!?]{0,30}?"
    r"\b(?:maquin\w*|rastrillo|afeitadora|gillette|rasuradora|sacapuntas)\b"
    r"(?![^.!?]*\b(?:limpiar\w*|cambiar\w*|afilar\w*|reemplaz\w*|nueva|repuesto)\b)",
    r"\b(?:desarme|desarmar|desarmo|desarmando|rompi|romper|abri|abrir) (?:el |la |mi |un |una )?"
    r"(?:rastrillo|maquinita|afeitadora|rasuradora|sacapuntas|gillette)\b[^.!?]{0,40}?\b(?:hojas?"
    r"|hojitas?|cuchillas?|navajas?)\b",
    # getting out of everyone's way
    r"\b(?:quitarme|me quito|me quitare|me quitaria|hacerme) (?:yo )?(?:del medio|de en medio)\b"
    r"(?! (?:el|la|los|las|ese|esa|este|esta|eso|esto|un|una)\b)",
)

# Whose crisis it is, read from the whole sentence and message (``reading.py``, the reader
# every language shares): the relative who is the subject anywhere before the phrase ("mi prima
# se autolesiona", "en el curso ... si alguien habla de suicidio"), the participant coming back
# in ("... y yo también"), someone quoted, a topic, a past told as over, a laugh at a game or a
# boss. Written for ``normalise(text, "es")`` (no accents, "q" spelled "que").
_RELATIONS_ES = (
    "hermano|hermana|hermanito|hermanita|amigo|amiga|mejor amigo|mejor amiga|novio|novia|ex"
    "|esposo|esposa|marido|pareja|hijo|hija|mama|mami|madre|papa|papi|padre|padres|viejo|vieja"
    "|tio|tia|primo|prima|abuelo|abuela|sobrino|sobrina|cunado|cunada|suegro|suegra|companero"
    "|companera|compi|colega|vecino|vecina|alumno|alumna|estudiante|paciente|cliente"
    "|chico|chica|chavo|chava|nino|nina|hombre|senor|senora|persona|personaje|protagonista"
    "|jefe|jefa|profe|profesor|profesora|carnal|crush|roomie|adolescente|joven|muchacho|muchacha"
    # a show, a match or an exam as the subject: "el capitulo de anoche me mato"
    "|capitulo|episodio|serie|temporada|pelicula|peli|partido|examen|parcial|cancion"
    # a goal, a joke, a meme: "ese penal en el ultimo minuto me mato"
    "|gol|golazo|penal|penalti|jugada|chiste|meme|video|concierto"
    # held-out v8: a game's boss or enemy ("el boss final me mato como diez veces")
    "|boss|jefe final|enemigo|juego|videojuego|nivel|partida|mision"
)
_FIRST_PERSON_ES = (
    r"\b(?:yo|me|mi|mis|conmigo|nosotros|nosotras|nos|estoy|soy|tengo|tenia|quiero|pienso|siento"
    r"|voy|hago|puedo|necesito|creo|hice|pense|quise|intente|deseo|prefiero|ando|sigo|vuelvo"
    r"|volvi|llevo|estuve|fui|he|estaba|queria|pensaba|sentia|mio|mia|mios|mias)\b"
)
READING_ES = Reading(
    subject=re.compile(
        r"(?:.*\b)?(?:(?:mi|mis|tu|tus|su|sus|nuestro|nuestra|nuestros|nuestras|un|una|unos|unas"
        r"|el|la|los|las|este|esta|ese|esa|al|del) (?:[\w'-]+ ){0,2}?(?:" + _RELATIONS_ES + r")"
        r"(?:s|es)?|ella|ellas|ellos|alguien|la gente|mucha gente|gente)\b"
    ),
    first_person=re.compile(_FIRST_PERSON_ES),
    # acts and states another person's words can fill (never a "me" phrase: "me quiero matar")
    theirs=re.compile(
        r"suicid|autolesi|sobredosis|despedida|hasta (?:sangrar|que sangr)|dosis (?:\w+ ){0,4}letal"
        r"|letal(?:es)? (?:de|para)"
        # "me mato" with someone or something else as the subject: it killed me (a preterite
        # with its accent dropped), not "i kill myself"
        r"|^me mato$"
        # a jump in the infinitive: "el protagonista piensa en saltar de un puente"
        r"|^saltar\b"
    ),
    finds_out=re.compile(
        r"\b(?:encontr\w*|encuentr\w*|sab\w*|sepa\w*|vio|ve|ven|vea|nota\w*|descubr\w*|escond\w*"
        r"|entera\w*|entero|dio cuenta|dan cuenta|da cuenta|revis\w*|pill\w*|no|nunca|va a|van a)\b"
    ),
    speaks=re.compile(_FIRST_PERSON_ES),
    speech=re.compile(
        r"\b(?:dice|dicen|dijo|dijeron|decia|decian|escribe|escribio|escribia|pone|puso|manda"
        r"|mando|publica|publico|grita|grito|comenta|comento|bromea|bromeo|repite|repitio)\b"
    ),
    quoted=re.compile(r"(?: \w+){0,3} ?[:\"']+ ?(?:yo |me )?"),
    bare=re.compile(
        r"(?: (?:siempre|todo el rato|a cada rato|cada rato|mucho|tambien|asi|nomas|todo el tiempo"
        r"|cada vez|a veces))* ?"
    ),
    bare_phrases=re.compile(r"kms"),
    topic=re.compile(
        r"\b(?:curso|clase de|primeros auxilios|facultad|carrera de|enfermer\w*|farmacologia"
        r"|farmacia|toxicologia|medicina|psicologia|tesis|monografia|ensayo|exposicion|tarea de"
        r"|trabajo practico|novela|cuento|guion|relato|personaje|protagonista|documental|noticias"
        r"|noticiero|articulo|podcast|charla|taller|capacitacion|estadisticas?|prevencion"
        r"|guardia|turno|senales de alarma|senales de que|senales de riesgo)\b"
    ),
    past=re.compile(
        r"\b(?:hace (?:\w+ )?(?:anos|ano|meses)|de (?:adolescente|chic[oa]|nin[oa]|joven)|en la"
        r" (?:secundaria|prepa|escuela|uni)|en ese entonces|antes|cuando (?:era|tenia|estaba en)"
        r"|a los \d+|aquella epoca|en su momento|tiempo atras)\b"
    ),
    over=re.compile(
        r"\b(?:hoy|ahora|ya|actualmente|desde entonces)\b(?: \w+){0,3}? (?:esta|estoy|estamos|anda|"
        r"ando) (?:\w+ )?(?:bien|super bien|genial|estable|mejor|recuperad[oa])\b"
        r"|\b(?:lo|la) (?:supere|supero|supera|superamos)\b|\bya (?:lo )?(?:supere|paso)\b"
        r"|\bllev[oa] (?:\w+ ){0,2}?(?:anos|meses) (?:limpi[oa]|sin)\b|\bque bueno que sali\b"
        r"|\b(?:feliz|contenta?|content[oa]) de haber salido\b|\bhace (?:\w+ )?anos que no\b"
        # held-out v7: "hoy cumplo 700 dias sin hacerlo", "ya van 2 anos limpia"
        r"|\b(?:cumplo|llevo|van|ya van|ya son|son) (?:\w+ ){0,2}?(?:\d+ )?(?:dias|semanas|meses|anos)"
        r" (?:limpi[oa]|sin)\b"
    ),
    relapse=re.compile(
        r"\b(?:reca\w*|otra vez|de nuevo|volv\w* a|anoche|ayer|esta noche|ultimamente"
        r"|estos dias|ganas|pero)\b"
    ),
    recoverable=re.compile(r"suicid|autolesi|cort|dano|lastim|matar|mato|morir|muert|sangr"),
    laugh=re.compile(
        r"\b(?:ja(?:ja)+\w*|je(?:je)+\w*|xd+|lol|lmao|jsjs\w*)\b|\U0001f602|\U0001f923|\U0001f644"
        r"|\U0001f605|\U0001f480"
    ),
    trivial=re.compile(
        r"\b(?:boss|jefe|jefa|mail|correo|oficina|reggaeton|impresora|compu|computadora"
        r"|ordenador|wifi|internet|excel|examen|parcial|tarea|deberes|juego|partida|videojuego"
        r"|dark souls|fortnite|minecraft|fifa|nivel|profe|trafico|lunes|suegra"
        # held-out v7: boredom, a meeting, a class ("estoy que me tiro ... de lo aburrido")
        r"|aburrid\w*|aburrimiento|flojera|reunion|zoom|junta|clase|planta baja|calor|frio"
        # held-out v8: a mundane mishap ("jajaja me quiero matar, deje las llaves adentro")
        r"|llaves|arroz|se me quem\w*|se me olvid\w*|olvide|cargador|paraguas|alarma|lavadora)\b"
    ),
    earnest=re.compile(
        r"\b(?:en serio|de verdad|no es broma|no estoy bromeando|no es chiste|literal"
        # a plan or a goodbye is not a joke
        r"|ya lo decidi|lo tengo decidido|tengo todo (?:listo|planeado|preparado)|carta de"
        r" despedida|adios a todos|para siempre)\b"
    ),
    # held-out v7: "soy profe y tengo que dar una charla sobre bullying y autolesiones"
    topic_before=re.compile(
        r"\b(?:(?:charla|taller|clase|exposicion|presentacion|ensayo|trabajo|tesis|monografia"
        r"|curso|capacitacion|conferencia|articulo|podcast|video|guia|folleto|protocolo)"
        r" (?:\w+ )?(?:sobre|acerca de|para prevenir|contra)|(?:charla|taller|curso|capacitacion"
        r"|protocolo|guia) de) (?:la |el |las |los )?(?:\w+ ){0,4}$"
    ),
)
