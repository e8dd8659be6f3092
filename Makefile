# gpustep: one non-recursive Makefile.
#   make run        build and start the TUI on the default config and workload
#   make test       build and run every test layer (unit, golden, views, e2e)
#   make bench      headless speed figures (docs/PERFORMANCE.md)
#   make SANITIZE=address,undefined test
#   make SANITIZE=thread test-threads   the threaded simulation under ThreadSanitizer
#   make DEBUG=1 test   sim_check_invariants after every simulated cycle (abort on
#                       the first violation); also on in every SANITIZE build
.DELETE_ON_ERROR:
.SUFFIXES:
comma := ,

VERSION := 0.1.0
CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := ncursesw panelw readline libcjson liblzma sqlite3

BUILD := build
ifdef DEBUG
BUILD := build-dbg
DBG_FLAGS := -DGPUSTEP_CHECK_INVARIANTS
endif
ifdef SANITIZE
# ThreadSanitizer cannot share objects with the address sanitizer's build.
BUILD := build-san$(if $(filter thread,$(subst $(comma), ,$(SANITIZE))),-thread)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
DBG_FLAGS := -DGPUSTEP_CHECK_INVARIANTS
endif
# make fuzz builds the libFuzzer targets with clang into build-fuzz/ (FUZZ=1).
ifdef FUZZ
BUILD := build-fuzz
CC := clang
SAN_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
DBG_FLAGS := -DGPUSTEP_CHECK_INVARIANTS
endif

OPT ?= -O2
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wwrite-strings -Wvla
ifeq ($(CI),true)
WARN += -Werror
endif
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(OPT) -g $(WARN) -MMD -MP \
	$(SAN_FLAGS) $(DBG_FLAGS) -DGPUSTEP_VERSION='"$(VERSION)"'
LDFLAGS += $(SAN_FLAGS) -pthread

# The engine is compiled without any UI/JSON include path: it cannot use them.
# Includes name their folder: "mem/cache.h" (engine), "session/session.h"
# (front end); a header of the same folder is included by its bare name.
ENGINE_CFLAGS := $(BASE_CFLAGS) -Iengine
# Evaluated lazily so `make deps` can run before the packages exist.
UI_CFLAGS = $(BASE_CFLAGS) -Iengine -I. $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
UI_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm

# engine/ is one folder per subsystem (docs/ARCHITECTURE.md); the front end is
# tui/ (the interactive screen and its commands), views/ (panels) and the
# folders beside them: cli/ (program entry, subcommands), load/ (configs,
# kernels, traces), export/ (stats JSON, Perfetto, CSV), session/, sweep/,
# lesson/.
ENGINE_DIRS := sim kernel trace reuse rf dram policy coh mem core debug machine
FRONT_DIRS := tui cli load export session sweep lesson
ENGINE_SRC := $(foreach d,$(ENGINE_DIRS),$(wildcard engine/$(d)/*.c))
VIEWS_SRC := $(wildcard views/*.c)
TUI_SRC := $(filter-out cli/main.c,$(foreach d,$(FRONT_DIRS),$(wildcard $(d)/*.c)))
UNIT_SRC := $(wildcard tests/unit/*.c)
UITEST_SRC := $(wildcard tests/ui/*.c)
EMBED_FILES := $(sort $(wildcard configs/*.json) $(wildcard configs/sources/*.config) $(wildcard configs/dram/*.json) $(wildcard configs/dram/*.ini) $(wildcard configs/workloads/*.json) $(wildcard configs/lessons/*.json) $(wildcard configs/validation/*.json) $(wildcard configs/traces/*/*))

ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
VIEWS_OBJ := $(VIEWS_SRC:%.c=$(BUILD)/%.o)
TUI_OBJ := $(TUI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o $(BUILD)/gen/version.o
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
UITEST_OBJ := $(UITEST_SRC:%.c=$(BUILD)/%.o)

LIB := $(BUILD)/libgpustep.a
BIN := $(BUILD)/gpustep
UNIT_BIN := $(BUILD)/unit_tests
UITEST_BIN := $(BUILD)/ui_tests

# Parser fuzz targets (tests/fuzz/fuzz.h): fuzz_replay runs the corpus in
# make test; make fuzz runs libFuzzer on each (FUZZ_SECONDS each).
FUZZ_TARGETS ?= config override kernel traceg traceg_xz kernellist trc dram session cmdline gpgpusim lesson state ini sweep statsdiff
FUZZ_SUPPORT_OBJ := $(BUILD)/tests/fuzz/fuzz_util.o
FUZZ_ALL_OBJ := $(patsubst %,$(BUILD)/tests/fuzz/fuzz_%.o,config override kernel traceg traceg_xz kernellist trc dram session cmdline gpgpusim lesson state ini sweep statsdiff)
FUZZ_REPLAY := $(BUILD)/fuzz_replay
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?=

.PHONY: all deps run test install uninstall man deb deb-check layers layers-graph test-threads test-unit test-ui test-golden test-e2e test-fuzz fuzz bench experiments experiments-check clean golden-update format stress test-slurm

all: deps $(BIN) $(BUILD)/gen/gpustep.1

# Every compile waits for deps (order-only), so `make -j` never compiles
# before a missing package is installed.
deps:
	@sh tools/deps.sh

# The compiler and its flags, kept in $(BUILD)/flags: rewritten only when
# they change (CI=true adds -Werror, OPT=, DEBUG=...), and every object
# depends on it, so a build with other flags recompiles everything instead
# of linking objects that were compiled without them.
FLAGS_STAMP := $(BUILD)/flags
sq := '
shq = '$(subst $(sq),$(sq)\$(sq)$(sq),$(1))'
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call shq,$(CC) $(BASE_CFLAGS)) | cmp -s - $@ 2>/dev/null || \
		printf '%s\n' $(call shq,$(CC) $(BASE_CFLAGS)) > $@

$(BUILD)/engine/%.o: engine/%.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(ENGINE_CFLAGS) -c $< -o $@

$(BUILD)/views/%.o: views/%.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(UI_CFLAGS) -c $< -o $@

define front_rule
$$(BUILD)/$(1)/%.o: $(1)/%.c $$(FLAGS_STAMP) | deps
	@mkdir -p $$(@D)
	$$(CC) $$(UI_CFLAGS) -c $$< -o $$@
endef
$(foreach d,$(FRONT_DIRS),$(eval $(call front_rule,$(d))))

$(BUILD)/tests/unit/%.o: tests/unit/%.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(ENGINE_CFLAGS) -Itests -c $< -o $@

$(BUILD)/tests/ui/%.o: tests/ui/%.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(UI_CFLAGS) -Itests -c $< -o $@

$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(UI_CFLAGS) $(if $(FUZZ),-DGPUSTEP_LIBFUZZER) -Itests/fuzz -c $< -o $@

$(BUILD)/tests/test_main.o: tests/test_main.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(ENGINE_CFLAGS) -Itests -c $< -o $@

# Presets and built-in kernels are compiled into the binary, so gpustep works
# from any directory.
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -o $@ $<

$(BUILD)/gen/embedded.c: $(BUILD)/tools/embed $(EMBED_FILES)
	@mkdir -p $(@D)
	$(BUILD)/tools/embed $(EMBED_FILES) > $@

$(BUILD)/gen/embedded.o: $(BUILD)/gen/embedded.c $(FLAGS_STAMP) | deps
	$(CC) $(UI_CFLAGS) -c $< -o $@

# `gpustep --version` names the commit: version.c is rewritten only when the
# commit (or the tree's dirtiness) changed, so this relinks only then.
$(BUILD)/gen/version.c: FORCE
	@mkdir -p $(@D)
	@sh tools/version_c.sh $@

$(BUILD)/gen/version.o: $(BUILD)/gen/version.c $(FLAGS_STAMP) | deps
	$(CC) $(UI_CFLAGS) -c $< -o $@

FORCE:

$(LIB): $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/cli/main.o $(TUI_OBJ) $(VIEWS_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(UI_LIBS)

$(UNIT_BIN): $(BUILD)/tests/test_main.o $(UNIT_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

$(UITEST_BIN): $(BUILD)/tests/test_main.o $(UITEST_OBJ) $(TUI_OBJ) $(VIEWS_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(UI_LIBS)

$(FUZZ_REPLAY): $(BUILD)/tests/fuzz/replay_main.o $(FUZZ_ALL_OBJ) $(FUZZ_SUPPORT_OBJ) $(TUI_OBJ) $(VIEWS_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(UI_LIBS)

# One libFuzzer binary per target (FUZZ=1 only).
$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_SUPPORT_OBJ) $(TUI_OBJ) $(VIEWS_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(UI_LIBS)

run: deps $(BIN)
	$(BIN)

# Every layer runs even if an earlier one fails; tests/summary.sh prints the
# closing "N passed, N failed" line and sets the exit status.
# Each test has its own time limit (TIMEOUT <name>; docs/TESTING.md); each
# layer also has one, in case a runner itself hangs (it then does not report).
LAYER_LIMIT := timeout -k 10 1800
test: deps $(BIN) $(UNIT_BIN) $(UITEST_BIN) $(FUZZ_REPLAY)
	@rm -f $(BUILD)/results.txt
	@-$(LAYER_LIMIT) $(UNIT_BIN) --results $(BUILD)/results.txt
	@-$(LAYER_LIMIT) $(UITEST_BIN) --results $(BUILD)/results.txt
	@-$(LAYER_LIMIT) $(FUZZ_REPLAY) --results $(BUILD)/results.txt $(patsubst %,tests/fuzz/%,$(FUZZ_TARGETS))
	@-$(LAYER_LIMIT) sh tests/golden/run.sh $(BIN) $(BUILD)/results.txt
	@-$(LAYER_LIMIT) sh tests/e2e/run.sh $(BIN) $(BUILD)/results.txt
	@-sh tools/layers.sh --objs $(BUILD) --results $(BUILD)/results.txt
	@-$(LAYER_LIMIT) env GPUSTEP=$(BIN) sh tools/experiments.sh --check --results $(BUILD)/results.txt
	@sh tests/summary.sh $(BUILD)/results.txt

# The folders only point down (tools/layers.conf; includes and calls, from the
# objects); tools/layers.allow lists the known debt.
layers: deps $(BIN)
	sh tools/layers.sh --objs $(BUILD)

# The layer picture of docs/ARCHITECTURE.md (needs Graphviz's dot).
layers-graph: deps $(BIN)
	@command -v dot >/dev/null || { echo "layers-graph needs Graphviz: apt-get install -y graphviz"; exit 2; }
	sh tools/layers.sh --objs $(BUILD) --dot docs/layers.dot
	dot -Tpng -Gdpi=80 docs/layers.dot -o docs/layers.png

# The threaded simulation's tests (tests/ui/test_threads.c); with
# SANITIZE=thread a ThreadSanitizer build, which must report nothing
# (docs/PERFORMANCE.md "Threads").
test-threads: deps $(UITEST_BIN)
	GPUSTEP_TEST_TIMEOUT=1800 $(UITEST_BIN) threads_

test-unit: deps $(UNIT_BIN)
	$(UNIT_BIN)

test-ui: deps $(UITEST_BIN)
	$(UITEST_BIN)

test-golden: deps $(BIN)
	sh tests/golden/run.sh $(BIN)

test-e2e: deps $(BIN)
	sh tests/e2e/run.sh $(BIN)

test-fuzz: deps $(FUZZ_REPLAY)
	$(FUZZ_REPLAY) $(patsubst %,tests/fuzz/%,$(FUZZ_TARGETS))

# libFuzzer (clang): each target for FUZZ_SECONDS, one after the other. New
# corpus entries go to build-fuzz/corpus/<target>/, crashes to
# build-fuzz/crashes/<target>/; tests/fuzz/<target>/ is the seed corpus
# (copy a crash there once it is fixed). FUZZ_TARGETS=traceg picks one;
# FUZZ_FLAGS adds libFuzzer options (e.g. -fork=1 -ignore_crashes=1).
fuzz: deps
	@command -v clang >/dev/null || { echo "make fuzz needs clang (libFuzzer)"; exit 2; }
	$(MAKE) FUZZ=1 $(patsubst %,build-fuzz/fuzz/%,$(FUZZ_TARGETS))
	@bad=; for t in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes/$$t; \
		echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
		build-fuzz/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2048 \
			$$( [ -f tests/fuzz/$$t.dict ] && echo -dict=tests/fuzz/$$t.dict ) \
			-artifact_prefix=build-fuzz/crashes/$$t/ $(FUZZ_FLAGS) build-fuzz/corpus/$$t tests/fuzz/$$t || bad="$$bad $$t"; \
	done; \
	[ -z "$$bad" ] || { echo "fuzz: findings in:$$bad (build-fuzz/crashes/)"; exit 1; }

# Regenerate golden expectations deliberately (review the diff before committing).
golden-update: deps $(BIN)
	GOLDEN_UPDATE=1 sh tests/golden/run.sh $(BIN)

# Longer random coherence runs (docs/COHERENCE.md): 10^7 accesses per protocol (about 40 s each).
STRESS_SEED ?= 1
stress: deps $(BIN)
	@for p in si nmoesi moesi; do $(BIN) stress-coherence --protocol $$p --accesses 10000000 --seed $(STRESS_SEED) || exit 1; done

# A real single-node Slurm (slurm-wlm + munge on localhost, private config and
# state) running a 4-task sweep array; as root, not part of `make test`
# (docs/TESTING.md).
test-slurm: deps $(BIN)
	sh tests/slurm/run.sh $(BIN)

bench: deps $(BIN)
	sh tools/bench.sh $(BIN)

# The tables of docs/EXPERIMENTS.md (tools/experiments.sh): each sits between
# <!-- table: tools/NAME.sh ARGS --> and <!-- end table --> and is what that
# script prints. `make experiments` regenerates them all in place (long: run it
# on an idle machine; EXPERIMENTS=STRING picks the tables whose command
# contains STRING); `make experiments-check` re-runs the tables marked `check`
# (the fast ones) and fails with a diff when one no longer matches; `make test`
# runs it as its `experiments` layer (docs/TESTING.md, "EXPERIMENTS tables").
EXPERIMENTS ?=
experiments: deps $(BIN)
	GPUSTEP=$(BIN) sh tools/experiments.sh $(EXPERIMENTS)

experiments-check: deps $(BIN)
	GPUSTEP=$(BIN) sh tools/experiments.sh --check

# Installing (docs/PACKAGING.md). make install [PREFIX=/usr/local] [DESTDIR=D]:
# the binary, the man page gpustep(1), bash completion, the docs and the
# examples (tools/install.sh lists where each goes; BINDIR, MANDIR,
# BASHCOMPDIR and DOCDIR override single folders). make uninstall with the
# same variables removes them. The man page is written from the binary's own
# --help, --list-* and prompt help (tools/gen_man.sh), so it cannot drift.
PREFIX ?= /usr/local
DESTDIR ?=
MAN_PAGE := $(BUILD)/gen/gpustep.1
DEB_DIR := $(BUILD)/deb
INSTALL_ENV = PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' $(if $(BINDIR),BINDIR='$(BINDIR)') \
	$(if $(MANDIR),MANDIR='$(MANDIR)') $(if $(BASHCOMPDIR),BASHCOMPDIR='$(BASHCOMPDIR)') $(if $(DOCDIR),DOCDIR='$(DOCDIR)')

$(MAN_PAGE): $(BIN) tools/gen_man.sh
	@mkdir -p $(@D)
	sh tools/gen_man.sh $(BIN) > $@

man: deps $(MAN_PAGE)

install: deps $(BIN) $(MAN_PAGE)
	$(INSTALL_ENV) sh tools/install.sh install $(BIN) $(MAN_PAGE)

uninstall:
	$(INSTALL_ENV) sh tools/install.sh uninstall $(BIN) $(MAN_PAGE)

# make deb: $(DEB_DIR)/gpustep_VERSION_ARCH.deb (tools/mkdeb.sh; needs dpkg-dev).
# make deb-check (as root, on a machine without gpustep installed): install it
# with dpkg, run it, remove it, check nothing is left, run lintian.
deb: deps $(BIN) $(MAN_PAGE)
	sh tools/mkdeb.sh $(BIN) $(MAN_PAGE) $(DEB_DIR) $(VERSION)

deb-check: deb
	sh tools/deb_check.sh $(DEB_DIR)/gpustep_$(VERSION)_$$(dpkg --print-architecture).deb

format:
	clang-format -i engine/*/*.[ch] views/*.[ch] $(foreach d,$(FRONT_DIRS),$(d)/*.[ch]) tests/*.[ch] tests/*/*.c

clean:
	rm -rf build build-san build-dbg build-fuzz

-include $(ENGINE_OBJ:.o=.d) $(VIEWS_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(UITEST_OBJ:.o=.d)
-include $(FUZZ_ALL_OBJ:.o=.d) $(FUZZ_SUPPORT_OBJ:.o=.d) $(BUILD)/tests/fuzz/replay_main.d
-include $(BUILD)/cli/main.d $(BUILD)/tests/test_main.d
