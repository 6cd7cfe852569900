# Two commands do all set-up on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
# Django 6 needs Python 3.12+; the machine's default python3 may be older.
PYTHON ?= $(shell for p in python3.13 python3.12 /root/.pyenv/versions/3.13*/bin/python3.13 /root/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.13 /usr/bin/python3.12; do $$p -c 'import sys; assert sys.version_info >= (3, 12)' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bgdirector
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
PYTEST := $(BIN)/pytest
# xdist workers of the parallel stages: one more than the cores. With one per core the
# stage used 1.2 of 2 cores (tests wait on locks, browsers and the live worker): 706 s;
# with three, 571 s (2026-11-29, bench/RESULTS.md).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))

# Without .pyc files (some machines set PYTHONDONTWRITEBYTECODE) every pytest process of
# `make test` compiled the project and rewrote every test module afresh: 10 s of collection
# each, against 2 s with them (2026-11-29; __pycache__/ is ignored by git).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: venv run serve worker beat bench-deps test test-quick test-embedded test-parallel test-serial lint bench stress cluster browser-deps deploy-deps analysis-deps i18n-deps messages translations clean

$(BIN)/.installed: requirements.txt requirements/base.txt
	@test -n "$(PYTHON)" || { echo "No Python 3.12+ found: install python3.12 or set PYTHON=..."; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

venv: $(BIN)/.installed

# gettext (Debian's) for the translations: msgfmt compiles and checks the catalogues,
# xgettext extracts the strings (`make translations`).
i18n-deps:
	@command -v msgfmt >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null) \
	  || echo "!!! gettext is not installed: the catalogues cannot be compiled or checked"; }

# The compiled catalogues (locale/*/LC_MESSAGES/django.mo) are committed, so a checkout
# serves every language as it is; `make test` and `make run` compile them afresh from the
# .po files (a test checks the two agree).
messages: venv i18n-deps
	$(BIN)/python manage.py compilemessages --ignore='.venv/*' -v 0

# Extract the strings afresh into locale/*/LC_MESSAGES/django.po (then translate the new
# ones: docs/glossary.md) and print how much of each catalogue is translated.
translations: venv i18n-deps
	DEBUG=1 $(BIN)/python manage.py makemessages --no-obsolete --no-location $(foreach l,da de ja tr,-l $(l)) \
	  --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' --ignore='staticfiles/*' --ignore='deploy/*'
	DEBUG=1 $(BIN)/python manage.py makemessages -d djangojs --no-obsolete --no-location $(foreach l,da de ja tr,-l $(l)) \
	  --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' --ignore='staticfiles/*' --ignore='static/js/htmx.min.js'
	$(BIN)/python tools/i18n_report.py

# Headless Chromium for the browser tests (Debian packages; root installs them, others skip those tests),
# and the fonts that show Danish, Turkish and Japanese on the pages, slips, prints and room board.
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	  || echo "!!! chromium is not installed: the browser tests will be skipped"; }
	@{ test -d /usr/share/fonts/opentype/noto && test -d /usr/share/fonts/truetype/dejavu; } || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk fonts-dejavu-core >/dev/null) \
	  || echo "!!! fonts-noto-cjk is not installed: Japanese shows as boxes in the browser tests' screenshots"; }

# nginx for tests/security/test_deploy.py: `nginx -t` on deploy/nginx.conf and a run in
# front of the app, on free ports of its own. nginx-light on Debian 12, else nginx.
# PgBouncer (Debian's package) for `make cluster` and the cluster test of `make stress`.
deploy-deps:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light \
	    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; } >/dev/null) \
	  || echo "!!! nginx is not installed: the nginx tests will be skipped"; }
	@command -v pgbouncer >/dev/null 2>&1 || test -x /usr/sbin/pgbouncer || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null \
	    && { systemctl disable --now pgbouncer >/dev/null 2>&1 || service pgbouncer stop >/dev/null 2>&1 || true; }) \
	  || echo "!!! pgbouncer is not installed: make cluster and the cluster stress test cannot run"; }

# GNU Backgammon for the match analyses and their tests (Debian installs it as /usr/games/gnubg,
# which is not on root's PATH: the app finds it there).
analysis-deps:
	@command -v gnubg >/dev/null 2>&1 || test -x /usr/games/gnubg || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnubg >/dev/null) \
	  || echo "!!! gnubg is not installed: the tests marked gnubg (tests/analysis/) will be SKIPPED"; }

run: venv messages
	DEBUG=1 $(BIN)/python manage.py migrate --no-input
	DEBUG=1 $(BIN)/python manage.py seed_demo
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# Both queues: the bracket's work and GNU Backgammon's analyses (one gnubg per worker process).
worker: venv
	$(BIN)/celery -A tournament worker --loglevel=INFO -Q "$${CELERY_QUEUE:-bgdirector},$${CELERY_QUEUE:-bgdirector}.analysis"

beat: venv
	$(BIN)/celery -A tournament beat --loglevel=INFO

lint: venv i18n-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict matches/rules tournament/formats tournament/formulas matches/analysis/engine.py matches/analysis/figures.py
	$(BIN)/mypy core matches tournament
	$(BIN)/python tools/lint_strict_budget.py
	$(BIN)/lint-imports --no-cache
	$(BIN)/python tools/lint_private_imports.py
	$(BIN)/python tools/lint_conflict_markers.py
	$(BIN)/python tools/lint_type_ignores.py
	$(BIN)/python tools/lint_i18n.py

# Each test once, in stages, each timed (summary at the end; tests/stages.sh):
#   lint           } at the same time (each is mostly one process: one after the other
#   test-embedded  } they left a core idle for 37 s); test-embedded runs the tests marked
#                  `embedded` (about the SQLite default: eager tasks, local-memory cache,
#                  make run's seed_demo), on SQLite
#   test-parallel  everything else but `serial` and `stress`, on PostgreSQL + Redis,
#                  spread over $(TEST_WORKERS) xdist workers; each has its own test database,
#                  cache key prefix, Celery queue and live worker (tests/conftest.py)
#   test-serial    tests marked `serial` (they restart services or race on timing), alone
# Set-up targets (browser-deps, deploy-deps...) are prerequisites: add new ones there.
test: venv browser-deps deploy-deps analysis-deps messages
	@MAKE="$(MAKE)" tests/stages.sh lint+test-embedded test-parallel test-serial

# The whole suite on the SQLite default, no services needed (services tests skipped).
test-quick: venv
	env -u DATABASE_URL -u REDIS_URL $(PYTEST) -q -n $(TEST_WORKERS) --dist loadgroup -m "not stress"

test-embedded: venv
	@echo "=== Tests of the embedded default: SQLite, local-memory cache, eager Celery ==="
	env -u DATABASE_URL -u REDIS_URL $(PYTEST) -q -m "embedded and not stress"

test-parallel: venv
	@echo "=== PostgreSQL + Redis + a live Celery worker, $(TEST_WORKERS) xdist workers ==="
	@$(call on_services,$(PYTEST) -q -n $(TEST_WORKERS) --dist loadgroup --durations=25 -m "not stress and not embedded and not serial")

# (pytest's exit status 5: no test is marked serial, which is fine.)
test-serial: venv
	@echo "=== Tests that run alone: PostgreSQL + Redis + a live Celery worker ==="
	@$(call on_services,$(PYTEST) -q -p no:xdist -m "serial and not stress and not embedded" || test $$? -eq 5)

# Run $(1) with PostgreSQL + Redis. When they do not answer: fail under CI=true, else run
# it on the SQLite default with the services tests skipped, and say so loudly.
define on_services
if $(BIN)/python tests/services_up.py "$(TEST_DATABASE_URL)" "$(TEST_REDIS_URL)"; then \
  DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(1); \
elif [ "$$CI" = "true" ]; then \
  echo "!!! CI=true and PostgreSQL/Redis are down: failing."; exit 1; \
else \
  echo; echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
  echo "!!! PostgreSQL or Redis unreachable: the services tests are SKIPPED. !!!"; \
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; echo; \
  env -u DATABASE_URL -u REDIS_URL $(1); \
fi
endef

# wrk (Debian) drives the spectators' polls in bench/bench_edge.py; nginx and PgBouncer come
# from deploy-deps.
bench-deps: deploy-deps
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null) \
	  || echo "!!! wrk is not installed: bench/bench_edge.py will be skipped"; }

bench: venv bench-deps
	$(BIN)/python bench/run_all.py

# The cluster test (tests/stress/test_cluster.py) restarts the machine's PostgreSQL once,
# as test_pg_restart.py does; CLUSTER_RESTART_POSTGRESQL=0 leaves it alone.
stress: venv deploy-deps
	CLUSTER_RESTART_POSTGRESQL=$${CLUSTER_RESTART_POSTGRESQL:-1} \
	  DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PYTEST) -q -m stress

# The multi-node topology on loopback for a person to look at (bench/cluster.py): nginx,
# two gunicorn nodes, PgBouncer in transaction mode, two workers, beat, a private Redis,
# a database of its own on the local PostgreSQL. Ctrl-C stops it and drops the database.
cluster: venv deploy-deps
	$(BIN)/python bench/cluster.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest-worker-*.log .pytest_cache
