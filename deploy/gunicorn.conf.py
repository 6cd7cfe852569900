"""gunicorn: sync workers (measured faster than gthread for the database endpoints here)."""

import multiprocessing
import os

# Loopback unless told otherwise: with NUM_PROXIES=1 the app believes the last
# X-Forwarded-For entry, so only the proxy (nginx) may reach gunicorn; a client talking
# to it directly would choose the address the login throttles see. Compose sets
# 0.0.0.0:8000 inside its private network, where only nginx is published.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Python is the bottleneck: one sync worker per core plus one keeps the cores busy.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
worker_class = "sync"
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
accesslog = "-"
# Private report links (/r/<key>/) are credentials: the access log masks the key.
logger_class = "tournament.web.access_log.MaskedKeyLogger"
forwarded_allow_ips = "*"
