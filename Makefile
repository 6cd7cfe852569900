# Two commands do all set-up on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
# Django 6 needs Python 3.12+; the machine's default python3 may be older.
PYTHON ?= $(shell for p in python3.13 python3.12 /root/.pyenv/versions/3.13*/bin/python3.13 /root/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.13 /usr/bin/python3.12; do $$p -c 'import sys; assert sys.version_info >= (3, 12)' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bgdirector
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
PYTEST := $(BIN)/pytest

.PHONY: venv run serve worker beat test test-sqlite test-services lint bench stress browser-deps deploy-deps analysis-deps clean

$(BIN)/.installed: requirements.txt requirements/base.txt
	@test -n "$(PYTHON)" || { echo "No Python 3.12+ found: install python3.12 or set PYTHON=..."; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

venv: $(BIN)/.installed

# Headless Chromium for the browser tests (Debian packages; root installs them, others skip those tests).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	  || echo "!!! chromium is not installed: the browser tests will be skipped"; }

# nginx for tests/security/test_deploy.py: `nginx -t` on deploy/nginx.conf and a run in
# front of the app, on free ports of its own. nginx-light on Debian 12, else nginx.
deploy-deps:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light \
	    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; } >/dev/null) \
	  || echo "!!! nginx is not installed: the nginx tests will be skipped"; }

# GNU Backgammon for the match analyses and their tests (Debian installs it as /usr/games/gnubg,
# which is not on root's PATH: the app finds it there).
analysis-deps:
	@command -v gnubg >/dev/null 2>&1 || test -x /usr/games/gnubg || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnubg >/dev/null) \
	  || echo "!!! gnubg is not installed: the tests marked gnubg (tests/analysis/) will be SKIPPED"; }

run: venv
	DEBUG=1 $(BIN)/python manage.py migrate --no-input
	DEBUG=1 $(BIN)/python manage.py seed_demo
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# Both queues: the bracket's work and GNU Backgammon's analyses (one gnubg per worker process).
worker: venv
	$(BIN)/celery -A tournament worker --loglevel=INFO -Q "$${CELERY_QUEUE:-bgdirector},$${CELERY_QUEUE:-bgdirector}.analysis"

beat: venv
	$(BIN)/celery -A tournament beat --loglevel=INFO

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict matches/rules tournament/formats tournament/league/ratings.py tournament/league/series.py matches/analysis/engine.py matches/analysis/figures.py
	$(BIN)/mypy matches tournament
	$(BIN)/lint-imports

# The SQLite default first (tasks eager, local-memory cache), then everything against
# PostgreSQL + Redis + a live Celery worker; the last line is that run's pytest summary.
test: venv browser-deps deploy-deps analysis-deps lint test-sqlite test-services

test-sqlite: venv
	@echo "=== Django suite on the embedded default: SQLite, local-memory cache, eager Celery ==="
	env -u DATABASE_URL -u REDIS_URL $(PYTEST) -q -m "not services and not stress and not browser" \
	  --ignore=tests/rules --ignore=tests/formats --ignore=matches/rules tests

test-services: venv
	@if $(BIN)/python tests/services_up.py "$(TEST_DATABASE_URL)" "$(TEST_REDIS_URL)"; then \
	  echo "=== Whole suite on PostgreSQL + Redis + a live Celery worker ==="; \
	  DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PYTEST) -q -m "not stress"; \
	elif [ "$$CI" = "true" ]; then \
	  echo "!!! CI=true and PostgreSQL/Redis are down: failing."; exit 1; \
	else \
	  echo; echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
	  echo "!!! PostgreSQL or Redis unreachable: the services tests are SKIPPED. !!!"; \
	  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; echo; \
	  env -u DATABASE_URL -u REDIS_URL $(PYTEST) -q -m "not stress"; \
	fi

bench: venv
	$(BIN)/python bench/run_all.py

stress: venv
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PYTEST) -q -m stress

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest-worker-*.log
