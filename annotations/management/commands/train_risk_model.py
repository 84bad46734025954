"""python manage.py train_risk_model [--language es] [--corpus DIR] [--out FILE]: train the risk
model of a language.

Reads every ``train_*.jsonl`` of the language's corpus folder (English's ``risk_corpus/``, another
language's ``risk_corpus/<language>/``; never a ``heldout_*`` file), trains with a fixed seed and
writes the artefact the check reads at start: ``annotations/text_checks/risk_model.json`` for
English, ``risk_model.<language>.json`` beside it for another
(``annotations/text_checks/risk_training.py`` says how the thresholds are chosen). Run it after
changing a corpus: a test fails while an artefact's corpus hash disagrees with its files.
Nothing is downloaded: the embedding comes from the installed ``wordllama`` package.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotations.text_checks.normalise import primary_language
from annotations.text_checks.risk import artefact_path, packaged_artefact
from annotations.text_checks.risk_corpus import (
    CorpusError,
    corpus_languages,
    language_folder,
    training_files,
)
from annotations.text_checks.risk_training import train, write_artefact


class Command(BaseCommand):
    help = "Train the learned risk check of a language from its corpus and write its artefact."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--language", default="en", help="The language to train (en, es, de: en)"
        )
        parser.add_argument(
            "--corpus", type=Path, help="The corpus folder (the language's, by default)"
        )
        parser.add_argument(
            "--out", type=Path, help="The artefact to write (the one the language's check reads)"
        )

    def handle(
        self, *args, language: str, corpus: Path | None, out: Path | None, **options
    ) -> None:
        language = primary_language(language)
        if corpus is None and language not in corpus_languages():
            raise CommandError(
                f"no risk corpus for {language!r}: the languages with one are "
                f"{', '.join(corpus_languages())} (or name a folder with --corpus)"
            )
        corpus = corpus or language_folder(language)
        out = out or artefact_path(language) or packaged_artefact(language)
        if not corpus.is_dir():
            raise CommandError(f"{corpus} is not a folder")
        if not out.parent.is_dir():
            raise CommandError(f"{out.parent} is not a folder")
        files = training_files(corpus)
        if not files:
            raise CommandError(f"no train_*.jsonl file in {corpus}")
        try:
            artefact = train(files, language=language)
        except CorpusError as error:
            raise CommandError(str(error)) from None
        write_artefact(artefact, out)
        counts, thresholds = artefact["counts"], artefact["thresholds"]
        self.stdout.write(
            f"trained on {', '.join(f.name for f in files)}: {counts['risk']} risk, "
            f"{counts['everyday']} everyday messages; thresholds flag {thresholds['flag']}, "
            f"check-in {thresholds['check_in']}; wrote {out}"
        )
        for name in ("flag", "check_in"):
            figures = artefact["cross_validation"][name]
            self.stdout.write(
                f"  out of fold at {name}: recall {figures['combined_recall']:.1%} "
                f"(model alone {figures['model_recall']:.1%}), everyday flagged "
                f"{figures['everyday_flagged']:.1%}"
            )
