"""The Dockerfile builds the participant app and puts it where Django reads it.

No engine is needed (base images cannot be pulled everywhere the suite runs): the Dockerfile is
parsed into stages, the paths it copies are resolved the way the builder resolves them, and
they are compared with the paths Django itself uses (``settings.BASE_DIR``, the manifest of
``annotations/participant_web/bundle.py``). The settings that ``collectstatic`` runs under are
loaded in a fresh process, from the Dockerfile's own environment, and compared with those of
the running containers (docker-compose.yml). ``.dockerignore`` is checked with Docker's
matching rules against the files of this checkout.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest
from django.conf import settings

from annotations.participant_web import bundle
from tests.foundation.test_compose_file import run_config

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"


# --- a small Dockerfile reader -----------------------------------------------------------------
@dataclass
class Instruction:
    keyword: str  # upper case: FROM, RUN, COPY, ...
    args: str
    workdir: PurePosixPath  # the WORKDIR in effect
    index: int  # position in its stage


@dataclass
class Stage:
    image: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # ENV as of the end of the stage

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]


def logical_lines(text: str) -> list[str]:
    """Instructions with their continuation lines joined; comments and blank lines dropped."""
    lines, pending = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # Docker drops comment lines, also inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return lines


def parse_env(args: str) -> dict[str, str]:
    tokens = shlex.split(args)
    if len(tokens) >= 2 and "=" not in tokens[0]:  # the legacy form: ENV NAME value
        return {tokens[0]: " ".join(tokens[1:])}
    return dict(token.split("=", 1) for token in tokens)


def parse_dockerfile(path: Path) -> list[Stage]:
    stages: list[Stage] = []
    workdir = PurePosixPath("/")
    for line in logical_lines(path.read_text(encoding="utf-8")):
        keyword, _, args = line.partition(" ")
        keyword, args = keyword.upper(), args.strip()
        if keyword == "FROM":
            words = args.split()
            words = [w for w in words if not w.startswith("--platform")]
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            stages.append(Stage(image=words[0], name=name))
            workdir = PurePosixPath("/")
            continue
        assert stages, f"{keyword} before the first FROM"
        stage = stages[-1]
        if keyword == "WORKDIR":
            workdir = workdir / args  # an absolute path replaces, a relative one extends
        elif keyword == "ENV":
            stage.env.update(parse_env(args))
        stage.instructions.append(Instruction(keyword, args, workdir, len(stage.instructions)))
    return stages


@dataclass
class Copy:
    sources: list[str]
    dest: PurePosixPath  # resolved against the WORKDIR
    from_stage: str | None
    index: int
    dest_is_dir: bool  # a trailing slash, ".", or several sources

    def lands_at(self, source: str) -> PurePosixPath:
        """Where a file source ends up: into the destination when it is a directory."""
        return self.dest / PurePosixPath(source).name if self.dest_is_dir else self.dest


def parse_copy(instruction: Instruction) -> Copy:
    words = (
        json.loads(instruction.args)
        if instruction.args.startswith("[")
        else shlex.split(instruction.args)
    )
    flags = {}
    while words and words[0].startswith("--"):
        flag, _, value = words.pop(0)[2:].partition("=")
        flags[flag] = value
    *sources, dest = words
    return Copy(
        sources=sources,
        dest=instruction.workdir / dest,
        from_stage=flags.get("from"),
        index=instruction.index,
        dest_is_dir=dest.endswith("/") or dest in (".", "./") or len(sources) > 1,
    )


def shell_commands(instruction: Instruction) -> list[list[str]]:
    """A RUN's commands (split at && ; ||), each as the words the shell would see."""
    lexer = shlex.shlex(instruction.args, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands, current = [], []
    for token in lexer:
        if token in ("&&", ";", "||"):
            commands.append(current)
            current = []
        else:
            current.append(token)
    return [c for c in [*commands, current] if c]


def split_assignments(command: list[str]) -> tuple[dict[str, str], list[str]]:
    """NAME=value words in front of a command are its environment."""
    env = {}
    while command and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", command[0]):
        name, _, value = command[0].partition("=")
        env[name] = value
        command = command[1:]
    return env, command


def find_run(stage: Stage, *words: str) -> tuple[Instruction, dict[str, str], list[str]]:
    for instruction in stage.all("RUN"):
        for command in shell_commands(instruction):
            env, argv = split_assignments(command)
            if argv[: len(words)] == list(words):
                return instruction, env, argv
    pytest.fail(f"no RUN {' '.join(words)} in the stage FROM {stage.image}")


@pytest.fixture(scope="module")
def stages() -> list[Stage]:
    return parse_dockerfile(ROOT / "Dockerfile")


@pytest.fixture(scope="module")
def node_stage(stages) -> Stage:
    nodes = [s for s in stages if s.image.split(":")[0] in ("node", "docker.io/library/node")]
    assert len(nodes) == 1, "one Node stage builds frontend/"
    assert nodes[0].name, "the Node stage is named, for COPY --from"
    return nodes[0]


@pytest.fixture(scope="module")
def app_stage(stages) -> Stage:
    final = stages[-1]
    assert final.image.startswith("python:3.12"), "the image that runs is the Python one"
    return final


def image_base_dir(app_stage: Stage) -> PurePosixPath:
    """BASE_DIR inside the image: where ``COPY . .`` puts manage.py."""
    for instruction in app_stage.all("COPY"):
        copy = parse_copy(instruction)
        if copy.from_stage is None and copy.sources in (["."], ["./"]):
            return copy.dest
    pytest.fail("the Python stage does not copy the project (COPY . <dir>)")


def frontend_root(node_stage: Stage) -> tuple[PurePosixPath, int]:
    """Where frontend/ lives in the Node stage: the directory the lock is copied into."""
    for instruction in node_stage.all("COPY"):
        copy = parse_copy(instruction)
        if "frontend/package-lock.json" in copy.sources:
            assert "frontend/package.json" in copy.sources, "npm ci needs package.json too"
            assert copy.lands_at("frontend/package-lock.json").name == "package-lock.json"
            return copy.lands_at("frontend/package-lock.json").parent, copy.index
    pytest.fail("the Node stage does not copy frontend/package-lock.json")


# --- the Node stage ------------------------------------------------------------------------------
def test_the_node_image_is_pinned_to_a_release_line_the_frontend_supports(node_stage):
    name, _, tag = node_stage.image.partition(":")
    assert tag and tag != "latest", f"{node_stage.image}: pin the Node image by tag"
    line = re.match(r"(\d+)", tag)
    assert line, f"{node_stage.image}: the tag names no Node release line"
    engines = json.loads((FRONTEND / "package.json").read_text())["engines"]["node"]
    required = int(re.search(r"(\d+)", engines).group(1))
    assert int(line.group(1)) >= required, f"{node_stage.image} is older than engines {engines}"


def test_the_node_stage_installs_from_the_lock_then_builds(node_stage):
    root, lock_copied = frontend_root(node_stage)
    ci, _, ci_argv = find_run(node_stage, "npm", "ci")
    assert ci.workdir == root, "npm ci runs next to the copied lock"
    assert ci.index > lock_copied
    sources_copied = [
        parse_copy(i)
        for i in node_stage.all("COPY")
        if {s.rstrip("/") for s in parse_copy(i).sources} & {"frontend", "frontend/."}
    ]
    assert sources_copied, "the Node stage copies the frontend sources"
    assert sources_copied[0].dest == root, "the sources land beside package.json and the lock"
    assert ci.index < sources_copied[0].index, "npm ci is cached across source-only changes"
    build, _, _ = find_run(node_stage, "npm", "run", "build")
    assert build.workdir == root
    assert build.index > sources_copied[0].index
    scripts = json.loads((FRONTEND / "package.json").read_text())["scripts"]
    assert "vite build" in scripts["build"]


# --- the Python stage ----------------------------------------------------------------------------
def test_the_build_is_copied_to_where_django_reads_the_manifest(stages, node_stage, app_stage):
    base = image_base_dir(app_stage)
    # Where the Node stage's vite build writes, and where Django looks for it in the image.
    built_at = frontend_root(node_stage)[0] / bundle.DIST_DIR.relative_to(FRONTEND)
    expected = base / bundle.DIST_DIR.relative_to(settings.BASE_DIR)
    copies = [parse_copy(i) for i in app_stage.all("COPY")]
    dist = [c for c in copies if c.from_stage in (node_stage.name, str(stages.index(node_stage)))]
    assert len(dist) == 1, "the Python stage copies the build out of the Node stage"
    assert [PurePosixPath(s) for s in dist[0].sources] == [built_at]
    assert dist[0].dest == expected
    # The manifest the participant pages are rendered from exists at BASE_DIR/... in the image.
    manifest = dist[0].dest / bundle.MANIFEST_PATH.relative_to(bundle.DIST_DIR)
    assert manifest == base / bundle.MANIFEST_PATH.relative_to(settings.BASE_DIR)

    collect, _, _ = find_run(app_stage, "python", "manage.py", "collectstatic")
    assert collect.workdir == base, "collectstatic runs in BASE_DIR (manage.py)"
    project = next(c for c in copies if c.from_stage is None and c.sources in (["."], ["./"]))
    # The build must be in place when settings are loaded: STATICFILES_DIRS lists it if it exists.
    assert project.index < dist[0].index < collect.index


def settings_probe(env: dict[str, str], tmp_path: Path) -> dict:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'debug': s.DEBUG, 'storage': s.STORAGES['staticfiles']['BACKEND']}))"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "ATTUNE_", "DATABASE_", "REDIS_", "CELERY_"))
    }
    env = {**clean, **env, "DJANGO_SETTINGS_MODULE": "attune_collect.settings"}
    env["ATTUNE_DATA_DIR"] = str(tmp_path / "data")  # the image's /data is not writable here
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_collectstatic_uses_the_storage_the_containers_serve_with(app_stage, tmp_path):
    collect, inline, _ = find_run(app_stage, "python", "manage.py", "collectstatic")
    env_before = {}
    for instruction in app_stage.instructions[: collect.index]:
        if instruction.keyword == "ENV":
            env_before.update(parse_env(instruction.args))
    at_build = settings_probe({**env_before, **inline}, tmp_path)

    # The web service of docker-compose.yml, its secret files replaced by local ones.
    web = json.loads(run_config("--format", "json").stdout)["services"]["web"]
    runtime = {**app_stage.env, **web["environment"]}
    for name in [n for n in runtime if n.endswith("_FILE")]:
        secret = tmp_path / name.lower()
        secret.write_text("a-test-secret\n")
        runtime[name] = str(secret)
    at_runtime = settings_probe(runtime, tmp_path)

    assert at_runtime["debug"] is False
    assert at_build == at_runtime, "static files collected for one storage, read with another"
    assert at_build["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_collectstatic_placeholders_do_not_stay_in_the_image(app_stage):
    _, inline, _ = find_run(app_stage, "python", "manage.py", "collectstatic")
    kept = set(app_stage.env) & {"DJANGO_SECRET_KEY", "ATTUNE_PSEUDONYM_SALT"}
    assert not kept, "secrets in ENV are baked into the image"
    assert "DJANGO_SECRET_KEY" in inline  # so collectstatic loads the production settings


def test_compose_builds_this_dockerfile():
    result = run_config("--format", "json")
    assert result.returncode == 0, result.stderr
    for name, service in json.loads(result.stdout)["services"].items():
        if "build" in service:
            assert Path(service["build"]["context"]) == ROOT, name
            assert service["build"].get("dockerfile", "Dockerfile") == "Dockerfile", name
            assert "target" not in service["build"], f"{name} must run the final (Python) stage"


# --- .dockerignore -------------------------------------------------------------------------------
def _pattern_regex(pattern: str) -> re.Pattern:
    """Docker's rules: Go filepath.Match per path element, plus ``**`` for any depth."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out)


def dockerignore_rules() -> list[tuple[bool, re.Pattern]]:
    rules = []
    for raw in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = os.path.normpath(line.lstrip("!").strip()).lstrip("/")
        rules.append((keep, _pattern_regex(pattern)))
    return rules


def excluded(path: str, rules) -> bool:
    """Excluded when the path or one of its directories matches; the last matching rule wins."""
    parts = PurePosixPath(path).parts
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for keep, regex in rules:
        if any(regex.fullmatch(c) for c in candidates):
            verdict = not keep
    return verdict


@pytest.mark.parametrize(
    "path",
    [
        ".venv/bin/python",
        ".git/HEAD",
        "data/attune.sqlite3",
        "data/celery-broker/queue/x.msg",
        "frontend/node_modules/vite/package.json",
        "frontend/dist/.vite/manifest.json",
        "frontend/dist/participant-app/main.js",
        "staticfiles/staticfiles.json",
        "secrets/django_secret_key",
        "test-artifacts/playwright/trace.zip",
        "test-results/.last-run.json",
        "annotations/__pycache__/models.cpython-312.pyc",
    ],
)
def test_dockerignore_keeps_local_builds_data_and_secrets_out(path):
    assert excluded(path, dockerignore_rules()), path


def test_dockerignore_keeps_everything_the_build_copies(stages):
    rules = dockerignore_rules()
    # Every source a COPY names from the context exists here and is sent to the builder.
    for stage in stages:
        for instruction in stage.all("COPY"):
            copy = parse_copy(instruction)
            if copy.from_stage is None and copy.sources not in (["."], ["./"]):
                for source in copy.sources:
                    assert (ROOT / source).exists(), source
                    assert not excluded(source.rstrip("/"), rules), source
    # The frontend sources and the Python project, file by file.
    skip = {".venv", ".git", "node_modules", "dist", "data", "staticfiles", "__pycache__"}
    needed = [
        *FRONTEND.glob("*.json"),
        *FRONTEND.glob("*.ts"),
        *(p for p in (FRONTEND / "src").rglob("*") if p.is_file()),
        ROOT / "manage.py",
        ROOT / "requirements.txt",
        *(
            p
            for top in ("attune_collect", "annotations", "evaluation")
            for p in (ROOT / top).rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts) and p.suffix != ".pyc"
        ),
    ]
    assert len(needed) > 50
    kept_out = [
        str(p.relative_to(ROOT)) for p in needed if excluded(str(p.relative_to(ROOT)), rules)
    ]
    assert not kept_out, kept_out
