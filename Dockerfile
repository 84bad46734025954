# Production image for the web (uvicorn) and worker (celery) services of docker-compose.yml.
FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    LITELLM_OFFLINE_MODE=true LITELLM_LOCAL_MODEL_COST_MAP=True LITELLM_MODE=PRODUCTION HF_HUB_OFFLINE=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DJANGO_DEBUG=true python manage.py collectstatic --noinput -v 0
RUN useradd --create-home attune && mkdir -p /data && chown attune /data
USER attune
EXPOSE 8000
CMD ["uvicorn", "attune_collect.asgi:application", "--host", "0.0.0.0", "--port", "8000"]
