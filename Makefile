# 414 Club. `make run` starts the site on the embedded default; `make test` runs every test.
# Both create .venv with Python 3.12 and install what they need, so a fresh clone is enough.

# pyenv's 3.12.1 when pyenv is there (.python-version), else any python3.12 on PATH.
PYTHON312 ?= $(shell p="$$(pyenv root 2>/dev/null)/versions/3.12.1/bin/python"; \
	if [ -x "$$p" ]; then echo "$$p"; else command -v python3.12; fi)
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test test-fast screenshots lint clean messages manage

# uv installs the project into the venv: the test extras in ~7 s where pip took ~40 s, from
# the same PyPI versions (docs/PERFORMANCE.md, "The venv"); the venv keeps its own pip too.
UV := $(VENV)/bin/uv
$(PY):
	@test -n "$(PYTHON312)" || { echo "Python 3.12 not found: install it (pyenv install 3.12.1)"; exit 1; }
	$(PYTHON312) -m venv $(VENV)

# A target of its own, so a venv made before uv was used gets it too.
$(UV): | $(PY)
	$(PY) -m pip install --quiet uv

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed-run: pyproject.toml | $(UV)
	$(UV) pip install --quiet --python $(PY) -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(UV)
	$(UV) pip install --quiet --python $(PY) -e '.[test]'
	@touch $@ $(VENV)/.installed-run

# `make run PORT=8123` serves on another port.
PORT ?= 8000
run: $(VENV)/.installed-run
	DJANGO_DEBUG=1 $(PY) scripts/run_dev.py --port $(PORT)

# `make manage CMD="createsuperuser"`: a management command in development mode, on what
# `make run` uses (the SQLite file, the private Redis in var/), e.g. while the site runs.
manage: $(VENV)/.installed-run
	DJANGO_DEBUG=1 $(PY) manage.py $(CMD)

# The tests need PostgreSQL and Redis (not SQLite, not the private Redis) and chromium.
# DJANGO_DEBUG=1 only relaxes HTTPS-only settings for the test servers; tests/test_settings.py
# checks the production settings separately.
test: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
test: export REDIS_URL ?= redis://127.0.0.1:6379/0
test: export DJANGO_DEBUG ?= 1
# A namespace per run, so parallel runs on one Redis never take each other's Celery tasks.
test: export REDIS_NAMESPACE ?= test$(shell echo $$$$)-
# pytest-xdist: TEST_WORKERS processes, each with its own test database (test_<name>_gwN) and
# Redis namespace (tests/conftest_worker.py); the browser tests go in two groups to two of them
# (--dist loadgroup, tests/conftest.py), each starting its live stack once. TEST_WORKERS=0: one
# process.
TEST_WORKERS ?= 4
# Every process of a run (the xdist workers, and the Daphne and Celery workers the live tests
# start) imports the whole project: with PYTHONDONTWRITEBYTECODE set (as some shells and CI
# images do) each one compiles every module and rewrites every test module's asserts afresh,
# some 7 s of CPU a process. The test targets write bytecode (gitignored __pycache__/), compiled
# once before the workers start.
test test-fast: export PYTHONDONTWRITEBYTECODE =
COMPILE := $(PY) -m compileall -q -j 0 accounts config games leagues scripts
# The xdist workers start together and each imports every test module and the libraries they
# use: in a fresh clone nothing of that is compiled yet (uv writes no bytecode; pytest rewrites
# each test module's asserts into its own cached bytecode), so each worker would compile it all,
# ~9 s of CPU a worker, four times over on two cores. One collection first writes it for all
# (~12 s cold, ~3 s warm; docs/PERFORMANCE.md, "A fresh clone's cold start").
WARM := $(PY) -m pytest -p no:cacheprovider --collect-only -q
test: $(VENV)/.installed-test
	$(PY) scripts/check_test_env.py
	$(COMPILE)
	@echo "$(WARM)"; $(WARM) > $(VENV)/collect.log || { cat $(VENV)/collect.log; exit 1; }
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The tests that start no process (no Daphne, Celery worker, Redis or browser) and take seconds,
# not tens of seconds: `-m "not live and not slow"` (`slow`: the fuzzers, the 1,000-round and
# duplicate simulations, matches driven to their end, the every-URL walk; `make test` runs them).
# TEST_FAST_WORKERS: the fast tests are bound by CPU (~80 s of it on a quiet box, plus
# PostgreSQL's), so on 2 cores more workers only add their start-up (~4 s of CPU each); three
# leave room for the few waits left. `--dist worksteal`: a worker that runs out takes tests
# queued for another, so the three end together (~2 s sooner than `--dist load`'s tail).
# `--ignore=tests/e2e`: every test there drives the browser (`live`); not even collected, its
# modules and Playwright are not imported by each worker. Measured runs and how they came down:
# docs/PERFORMANCE.md, "The fast tests' time" (a quiet box, 2026-12-06: 52-54 s at -n 3).
TEST_FAST_WORKERS ?= 3
test-fast: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
test-fast: export REDIS_URL ?= redis://127.0.0.1:6379/0
test-fast: export DJANGO_DEBUG ?= 1
test-fast: export REDIS_NAMESPACE ?= test$(shell echo $$$$)-
# The engine's property tests generate a quarter of their games here (at least one per table
# size: tests/games/engine/properties/driver.py); `make test` generates them all.
test-fast: export ENGINE_PROPERTY_SCALE ?= 0.25
test-fast: $(VENV)/.installed-test
	$(PY) scripts/check_test_env.py --no-browser
	$(COMPILE)
	$(PY) -m pytest -n $(TEST_FAST_WORKERS) --dist worksteal -m "not live and not slow" \
		--ignore=tests/e2e $(PYTEST_ARGS)

# The browser tests alone, saving screenshots of what they check into var/screenshots/ (a folder
# per subject: one-screen/, review/; the rest at its top). `make test` takes none (each is a
# render and a PNG: tests/e2e/helpers.py, SCREENSHOTS).
screenshots: export E2E_SCREENSHOTS = var/screenshots
screenshots:
	$(MAKE) test PYTEST_ARGS='-m browser $(PYTEST_ARGS)'

# Translations: gather the strings into locale/*/django.po, then compile the .mo files that are
# committed beside them (so `make run` and `make test` need no gettext). Needs GNU gettext
# (apt-get install gettext); tests/test_i18n.py fails on any untranslated or fuzzy entry. The
# project's own makemessages (games/management/commands/makemessages.py) adds the Jinja partials'
# strings with Babel, a test dependency.
LANGS := en es id vi
messages: $(VENV)/.installed-test
	DJANGO_DEBUG=1 $(PY) manage.py makemessages $(foreach l,$(LANGS),-l $(l)) --no-obsolete \
		--ignore=.venv --ignore=bench --ignore=tests --ignore=staticfiles --ignore=var
	DJANGO_DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv

# ruff check and ruff format --check over the whole tree (pyproject.toml's [tool.ruff]), the
# import contracts (pyproject.toml's [tool.importlinter]: no circles, the rooms of games/ import
# downwards, the engine imports no Django, games imports no leagues) and mypy ([tool.mypy]).
# .ci/run runs it first. mypy's Django plugin imports config.settings, which need DJANGO_DEBUG
# (or a DJANGO_SECRET_KEY) outside production.
lint: export DJANGO_DEBUG = 1
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache
