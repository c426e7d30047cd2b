# pb: paired benchmarking filters. POSIX make; see config.mk.
.POSIX:
.SUFFIXES:
.SUFFIXES: .c .o

include config.mk

LIBOBJ = lib/err.o lib/opt.o lib/runopt.o lib/num_parse.o lib/num_format.o lib/stream.o lib/out.o \
	lib/stats.o lib/rng.o lib/strmap.o lib/group.o lib/clock.o lib/proc.o lib/sysinfo.o lib/machine.o lib/boot.o \
	lib/study.o lib/conninfo.o lib/progress.o lib/order.o lib/seq.o lib/check.o lib/runstat.o \
	lib/quantity.o lib/human.o lib/html.o lib/svg.o lib/files.o lib/strv.o lib/tools.o lib/recipe.o lib/studydir.o lib/gate.o lib/summary.o lib/export.o lib/conduct.o lib/report.o lib/interval.o lib/finding.o lib/raw.o lib/pending.o lib/pairs.o lib/until.o lib/runner.o lib/runhead.o lib/cgroup.o lib/duet.o lib/hosts.o lib/hostrep.o lib/varcomp.o
LIBHDR = lib/err.h lib/opt.h lib/runopt.h lib/num.h lib/stream.h lib/out.h lib/stats.h lib/rng.h \
	lib/strmap.h lib/group.h lib/pow10.h lib/num_bits.h lib/num_field.h lib/clock.h lib/proc.h lib/sysinfo.h lib/machine.h lib/boot.h lib/study.h \
	lib/conninfo.h lib/progress.h lib/order.h lib/seq.h lib/check.h lib/runstat.h lib/quantity.h \
	lib/human.h lib/html.h lib/svg.h lib/files.h lib/strv.h lib/tools.h lib/recipe.h lib/studydir.h lib/gate.h lib/summary.h lib/export.h lib/conduct.h lib/report.h lib/interval.h lib/finding.h lib/raw.h lib/pending.h lib/pairs.h lib/until.h lib/runner.h lib/runhead.h lib/keys.h lib/cgroup.h lib/duet.h lib/hosts.h lib/hostrep.h lib/varcomp.h
FILTERS = bin/pb-pair bin/pb-logratio bin/pb-tint bin/pb-boot bin/pb-cross bin/pb-plan bin/pb-check
TOOLS = bin/pb-run $(FILTERS) bin/pb-compare bin/pb-report
RUNSRC = bin/pb-run.c bin/pb-run-exec.c bin/pb-run-cpu.c
COMPARESRC = bin/pb-compare.c
PLANSRC = bin/pb-plan.c bin/pb-plan-levels.c
EXAMPLES = examples/workload/pb-workload examples/worker/worker
SCRIPTS = bin/pb-sense bin/pb-plot
PBSHARE = share/pb/pb.sh share/pb/common.gp share/pb/runs.gp share/pb/sense.gp share/pb/trend.gp share/pb/hosts.gp \
	share/pb/pairs.gp
# The worker helpers: the C header goes to INCDIR, the others to SHAREDIR.
WORKERH = share/pb/pb-worker.h
WORKERSHARE = share/pb/pb_worker.py share/pb/pb-worker.mjs share/pb/PbWorker.java
# The Go helper is a module, a directory of SHAREDIR (its test stays here).
WORKERGO = share/pb/pbworker/go.mod share/pb/pbworker/pbworker.go \
	share/pb/pbworker/dup_linux.go share/pb/pbworker/dup_unix.go
UNITS = t/unit/num t/unit/stats t/unit/stream t/unit/rng t/unit/boot t/unit/conninfo \
	t/unit/seq t/unit/recipe t/unit/price t/unit/cgroup t/unit/machine t/unit/varcomp
TESTGEN = t/gen/synth share/dev/sim-skew share/dev/sim-tighter share/dev/sim-hosts
MAN1 = share/man/man1/pb-run.1 share/man/man1/pb-pair.1 share/man/man1/pb-logratio.1 \
	share/man/man1/pb-tint.1 share/man/man1/pb-boot.1 share/man/man1/pb-cross.1 \
	share/man/man1/pb-sense.1 share/man/man1/pb-plan.1 share/man/man1/pb-plot.1 \
	share/man/man1/pb-check.1 share/man/man1/pb-compare.1 share/man/man1/pb-report.1
MAN7 = share/man/man7/pb.7 share/man/man7/pb-worker.7 share/man/man7/pb-pg.7
NEED = sh share/dev/need

all: $(TOOLS) $(UNITS) $(TESTGEN) $(EXAMPLES) bin/pb-workload

.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBOBJ): $(LIBHDR) config.mk

lib/libpb.a: $(LIBOBJ)
	rm -f $@
	$(AR) $(ARFLAGS) $@ $(LIBOBJ)

# pb-run links libpq when PG=1, or PG=auto and pg_config finds it. The
# decision lives in bin/pb-run.pg, rewritten only when it changes: a
# libpq-dev installed after a first build (make demo, then make check on
# a new machine), or make PG=0, rebuilds pb-run. The link command is
# printed as make prints the others, with the decision's flags in it.
bin/pb-run.pg: FORCE
	@sh share/dev/pg-probe "$(PG)" $@
FORCE:
bin/pb-run: $(RUNSRC) bin/pb-run.h bin/pb-run-pg.c bin/pb-run-pq.c bin/pb-run-pq.h \
		bin/pb-run-nopg.c lib/libpb.a $(LIBHDR) \
		config.mk bin/pb-run.pg
	@set -e; { read -r src; read -r pgc || :; read -r pgl || :; } <bin/pb-run.pg; \
	echo '$(CC) $(CPPFLAGS)' "$$pgc" '$(CFLAGS) $(LDFLAGS) -o $@ $(RUNSRC)' "$$src" \
		'lib/libpb.a' "$$pgl" '$(LDLIBS)'; \
	$(CC) $(CPPFLAGS) $$pgc $(CFLAGS) $(LDFLAGS) -o $@ $(RUNSRC) $$src lib/libpb.a $$pgl $(LDLIBS)
bin/pb-compare: $(COMPARESRC) lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(COMPARESRC) lib/libpb.a $(LDLIBS)
# Every other program: its one source, linked with libpb.
.c:
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< lib/libpb.a $(LDLIBS)
$(FILTERS) bin/pb-report: lib/libpb.a $(LIBHDR)
bin/pb-plan: $(PLANSRC) bin/pb-plan.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(PLANSRC) lib/libpb.a $(LDLIBS)
# pb-boot shares its resamples among threads (--jobs): POSIX threads.
bin/pb-boot: bin/pb-boot.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PTHREAD) $(LDFLAGS) -o $@ bin/pb-boot.c lib/libpb.a $(LDLIBS)
$(UNITS): lib/libpb.a t/unit/tap.h
t/unit/num: t/unit/grisu.h t/unit/numcmp.h t/unit/parsecmp.h
$(TESTGEN): lib/libpb.a lib/rng.h lib/seq.h lib/stats.h

examples/workload/pb-workload: examples/workload/pb-workload.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ examples/workload/pb-workload.c
# The demo's and the manuals' workload, on PATH with bin/ (not installed:
# it is an example, and its source is installed with the others).
bin/pb-workload: examples/workload/pb-workload
	rm -f $@
	ln -s ../examples/workload/pb-workload $@
examples/worker/worker: examples/worker/worker.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ examples/worker/worker.c

# The tools the test suite needs; installed with apt-get when run as root,
# each set in one line naming it and apt-get's log. Otherwise the core set
# is required (one line names what is missing) and each other set is a
# group of tests that skip without it: one line names the group and the
# package, and PB_REQUIRE_PG / PB_REQUIRE_BROWSER make theirs required.
deps-check:
	@$(NEED) cc:gcc /usr/include/stdio.h:libc6-dev prove:perl /usr/bin/time:time \
		gnuplot:gnuplot-nox jq:jq pgrep:procps
	@$(NEED) -g 'the PostgreSQL tests (t/07*, t/0912, t/0931, t/1240, t/1410)' -r PB_REQUIRE_PG \
		pg_config:libpq-dev '/usr/lib/postgresql/*/bin/initdb:postgresql' /sbin/runuser:util-linux
	@$(NEED) -g 'the JVM example, examples/preview-cost-jvm (t/1233)' -r PB_REQUIRE_PG \
		javac:default-jdk-headless /usr/share/java/postgresql.jar:libpostgresql-jdbc-java \
		'/usr/lib/postgresql/*/bin/initdb:postgresql' /sbin/runuser:util-linux
	@$(NEED) -g 'the decimal-comma locale checks (t/0100)' \
		/usr/share/i18n/charmaps/ANSI_X3.4-1968.gz:locales
	@$(NEED) -g 'the tests of examples/parallel (t/1200)' parallel:parallel
	@$(NEED) -g 'the JUnit schema check of pb-compare --export-junit (t/1458)' xmllint:libxml2-utils
	@$(NEED) -g 'the run of the CI examples, examples/ci (t/1476)' git:git python3:python3 \
		/usr/lib/python3/dist-packages/yaml/__init__.py:python3-yaml xmllint:libxml2-utils
	@$(NEED) -g 'the live Slurm and ssh runs of examples/parallel (t/1202, t/1203)' -r PB_REQUIRE_CLUSTER \
		slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge \
		/usr/sbin/sshd:openssh-server ssh:openssh-client rsync:rsync parallel:parallel unshare:util-linux
	@$(NEED) -g 'the worker helpers in Python, Node, C++, Java and Go (t/1230, t/1232)' \
		python3:python3 node:nodejs strace:strace g++:g++ go:golang-go javac:default-jdk-headless
	@$(NEED) -g "the importers' runs of the benchmark tools (t/1210, t/1211)" \
		g++:g++ /usr/include/benchmark/benchmark.h:libbenchmark-dev go:golang-go \
		/usr/lib/python3/dist-packages/pytest_benchmark/__init__.py:python3-pytest-benchmark \
		hyperfine:hyperfine
	@$(NEED) -g 'the browser test of the report page (t/1251)' -r PB_REQUIRE_BROWSER \
		chromium:chromium python3:python3 /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fonts-dejavu-core
deps-demo:
	@$(NEED) cc:gcc /usr/include/stdio.h:libc6-dev gnuplot:gnuplot-nox

check: deps-check all
	PATH="$$(pwd)/bin:$$PATH" prove -j2 t/

demo: deps-demo all
	@sh examples/demo.sh

# Other builds, each in a copy of the sources under build/NAME (made
# afresh each time, left for a look after a failure, removed by make
# clean): the tree's own build is left as it was. POSIX make has no
# VPATH, so a copy it is. copy-to TO=DIR removes DIR first only when it
# is a copy it made (its stamp .pb-copy) and does not hold the tree.
COPY = Makefile config.mk README bin lib share t examples
copy-to: FORCE
	@t=$$(cd "$(TO)" 2>/dev/null && pwd -P) || t=; \
	if [ -z "$(TO)" ] || { [ -n "$$t" ] && { [ ! -f "$$t/.pb-copy" ] || \
		case "$$(pwd -P)/" in "$${t%/}"/*) :;; *) false;; esac; }; }; then \
	echo "pb: make copy-to TO=DIR: DIR must be new, or a copy made by copy-to" >&2; exit 2; fi
	rm -rf "$(TO)"
	mkdir -p "$(TO)"
	cp -R $(COPY) "$(TO)"/
	cd "$(TO)" && $(MAKE) clean >/dev/null && : >.pb-copy

# Sanitizers: everything built with ASan+UBSan in build/asan, and the suite.
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all -Wall -Wextra -Werror
asan: deps-check
	$(MAKE) copy-to TO=build/asan
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(MAKE) CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" check

# Static musl build of every tool (without PostgreSQL) in build/musl, and
# the suite.
musl: deps-check
	@$(NEED) musl-gcc:musl-tools
	$(MAKE) copy-to TO=build/musl
	cd build/musl && $(MAKE) CC=musl-gcc LDFLAGS=-static PG=0 check

# Fuzzing (t/fuzz/README): the stream reader, the number parser and
# printer, and the /proc parsers (lib/machine) under libFuzzer with
# ASan+UBSan, FUZZ_SECONDS each from the seed corpus; any crash, leak,
# hang or UB fails, its input in t/fuzz/out/.
# libFuzzer's runtime is a package of its own: when a probe does not link,
# need is asked for it by name (through a command that never exists).
FUZZ_SECONDS = 60
FUZZ_OPTS =
FUZZ_CC = clang
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wall -Wextra -Werror \
	-DSTREAM_READ_CHUNK=11 -DSTREAM_LINE_MAX=200u
FUZZ_LIB = lib/err.c lib/num_parse.c lib/num_format.c lib/strmap.c lib/stream.c lib/out.c lib/study.c lib/machine.c lib/clock.c
FUZZ_OUT = t/fuzz/out
fuzz:
	@$(NEED) $(FUZZ_CC):clang
	@mkdir -p $(FUZZ_OUT)
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return d && n && 0; }\n' \
		>$(FUZZ_OUT)/probe.c; \
	$(FUZZ_CC) -fsanitize=fuzzer -o $(FUZZ_OUT)/probe $(FUZZ_OUT)/probe.c 2>/dev/null || \
	$(NEED) libfuzzer-runtime:libclang-rt-dev
	for t in stream num machine; do \
	  $(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -o $(FUZZ_OUT)/$$t t/fuzz/$$t.c $(FUZZ_LIB) \
	    $(LDLIBS) || exit 1; \
	done
	@for t in stream num machine; do \
	  mkdir -p $(FUZZ_OUT)/corpus-$$t; \
	  echo "fuzz $$t: $(FUZZ_SECONDS) s, log in $(FUZZ_OUT)/$$t.log"; \
	  $(FUZZ_OUT)/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
	    -dict=t/fuzz/$$t.dict -artifact_prefix=$(FUZZ_OUT)/$$t- $(FUZZ_OPTS) \
	    $(FUZZ_OUT)/corpus-$$t t/fuzz/seed/$$t 2>$(FUZZ_OUT)/$$t.log || { \
	    grep -E '^(==|SUMMARY)|#[0-9]+ .* in .*(lib|t/fuzz)/[a-z_]+\.c:' $(FUZZ_OUT)/$$t.log | head -8; \
	    echo "pb: fuzz $$t: crash, input in $(FUZZ_OUT)/$$t-*" >&2; exit 1; }; \
	  grep -E '^#[0-9]+[[:space:]]+DONE|^Done' $(FUZZ_OUT)/$$t.log; \
	done

# The suite with every C tool run under valgrind's memcheck (the normal
# build, not ASan): no errors, no definite or indirect leaks. t/valgrind/README.
valgrind: deps-check all
	@$(NEED) valgrind:valgrind
	@sh t/valgrind/run "$(TOOLS)" "$(SCRIPTS)" "$(UNITS)"

bench: all
	@sh examples/bench/run.sh

# Installed with explicit modes, whatever the umask of the caller or of
# the checkout: programs 0755; pages, completions, sh and gnuplot scripts
# and the examples 0644 (the examples' own scripts 0755); the directories
# made 0755 (umask 022; those that exist are left alone).
COMPLETIONS = $(PREFIX)/share/bash-completion/completions
install: all
	umask 022; mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(COMPLETIONS) \
		$(DESTDIR)$(INCDIR) $(DESTDIR)$(SHAREDIR)/pbworker
	for f in $(TOOLS) $(SCRIPTS); do t=$(DESTDIR)$(BINDIR)/$${f#bin/}; \
		cp -f $$f $$t && chmod 0755 $$t || exit 1; done
	for f in $(PBSHARE) $(WORKERSHARE) $(WORKERGO); do t=$(DESTDIR)$(SHAREDIR)/$${f#share/pb/}; \
		cp -f $$f $$t && chmod 0644 $$t || exit 1; done
	for f in $(WORKERH); do t=$(DESTDIR)$(INCDIR)/$${f#share/pb/}; \
		cp -f $$f $$t && chmod 0644 $$t || exit 1; done
	for f in $(MAN1) $(MAN7); do t=$(DESTDIR)$(MANDIR)/$${f#share/man/}; \
		cp -f $$f $$t && chmod 0644 $$t || exit 1; done
	for f in $(TOOLS) $(SCRIPTS); do t=$(DESTDIR)$(COMPLETIONS)/$${f#bin/}; \
		cp -f share/completion/pb.bash $$t && chmod 0644 $$t || exit 1; done
	# the examples' sources, not what building or running them made
	umask 022; find examples -type f ! -path '*/out/*' ! -name '*.o' ! -path '*/classes/*' \
		! -path examples/workload/pb-workload ! -path examples/worker/worker | \
	while read -r f; do t="$(DESTDIR)$(SHAREDIR)/$$f"; m=0644; [ ! -x "$$f" ] || m=0755; \
		mkdir -p "$${t%/*}" && cp -f "$$f" "$$t" && chmod $$m "$$t" || exit 1; done
	# a Go example's go.mod: the helper where it is installed, not in the sources
	for f in examples/worker/*/go.mod; do [ ! -f "$$f" ] || \
		sed 's|=> \.\./\.\./\.\./share/pb/pbworker$$|=> ../../../pbworker|' "$$f" \
			>"$(DESTDIR)$(SHAREDIR)/$$f" || exit 1; done

uninstall:
	for f in $(TOOLS) $(SCRIPTS); do rm -f $(DESTDIR)$(BINDIR)/$${f#bin/}; done
	for f in $(MAN1) $(MAN7); do rm -f $(DESTDIR)$(MANDIR)/$${f#share/man/}; done
	for f in $(PBSHARE); do rm -f $(DESTDIR)$(SHAREDIR)/$${f#share/pb/}; done
	for f in $(WORKERSHARE) $(WORKERGO); do rm -f $(DESTDIR)$(SHAREDIR)/$${f#share/pb/}; done
	-rmdir $(DESTDIR)$(SHAREDIR)/pbworker 2>/dev/null
	# what python3 wrote beside the installed helper when a program imported it
	rm -f $(DESTDIR)$(SHAREDIR)/__pycache__/pb_worker.*.pyc
	-rmdir $(DESTDIR)$(SHAREDIR)/__pycache__ 2>/dev/null
	rm -f $(DESTDIR)$(INCDIR)/pb-worker.h
	rm -rf $(DESTDIR)$(SHAREDIR)/examples
	-rmdir $(DESTDIR)$(SHAREDIR) 2>/dev/null
	for f in $(TOOLS) $(SCRIPTS); do rm -f $(DESTDIR)$(COMPLETIONS)/$${f#bin/}; done

clean:
	rm -f $(LIBOBJ) lib/libpb.a $(TOOLS) bin/pb-run.pg bin/pb-workload $(UNITS) $(TESTGEN) $(EXAMPLES)
	rm -rf t/tmp build

.PHONY: FORCE all check demo copy-to asan musl fuzz valgrind bench install uninstall clean deps-check deps-demo
