"""python manage.py train_risk_model [--corpus DIR] [--out FILE]: train the risk model.

Reads every ``train_*.jsonl`` of the corpus folder (never a ``heldout_*`` file), trains with a
fixed seed and writes the artefact ``annotations/text_checks/risk_model.json`` reads at start
(``annotations/text_checks/risk_training.py`` says how the thresholds are chosen). Run it after
changing the corpus: a test fails while the artefact's corpus hash disagrees with the files.
Nothing is downloaded: the embedding comes from the installed ``wordllama`` package.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotations.text_checks.risk import ARTEFACT
from annotations.text_checks.risk_corpus import CORPUS_DIR, CorpusError, training_files
from annotations.text_checks.risk_training import train, write_artefact


class Command(BaseCommand):
    help = "Train the learned risk check from the corpus and write its artefact."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--corpus", type=Path, default=CORPUS_DIR, help="The corpus folder")
        parser.add_argument("--out", type=Path, default=ARTEFACT, help="The artefact to write")

    def handle(self, *args, corpus: Path, out: Path, **options) -> None:
        if not corpus.is_dir():
            raise CommandError(f"{corpus} is not a folder")
        if not out.parent.is_dir():
            raise CommandError(f"{out.parent} is not a folder")
        files = training_files(corpus)
        if not files:
            raise CommandError(f"no train_*.jsonl file in {corpus}")
        try:
            artefact = train(files)
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
