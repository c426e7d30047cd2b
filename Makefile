# pb: paired benchmarking filters. POSIX make; see config.mk.
.POSIX:
.SUFFIXES:
.SUFFIXES: .c .o

include config.mk

LIBOBJ = lib/err.o lib/opt.o lib/num_parse.o lib/num_format.o lib/stream.o \
	lib/stats.o lib/rng.o lib/group.o lib/clock.o lib/proc.o lib/sysinfo.o lib/boot.o
LIBHDR = lib/err.h lib/opt.h lib/num.h lib/stream.h lib/stats.h lib/rng.h \
	lib/group.h lib/pow10.h lib/clock.h lib/proc.h lib/sysinfo.h lib/boot.h
TOOLS = bin/pb-run bin/pb-pair bin/pb-logratio bin/pb-tint bin/pb-boot bin/pb-cross bin/pb-plan
RUNSRC = bin/pb-run.c bin/pb-run-exec.c
EXAMPLES = examples/workload/pb-workload examples/worker/worker
SCRIPTS = bin/pb-sense bin/pb-plot
GNUPLOT = share/pb/common.gp share/pb/runs.gp share/pb/sense.gp share/pb/trend.gp \
	share/pb/pairs.gp
UNITS = t/unit/num t/unit/stats t/unit/stream t/unit/rng t/unit/boot
MAN1 = share/man/man1/pb-run.1 share/man/man1/pb-pair.1 share/man/man1/pb-logratio.1 \
	share/man/man1/pb-tint.1 share/man/man1/pb-boot.1 share/man/man1/pb-cross.1 \
	share/man/man1/pb-sense.1 share/man/man1/pb-plan.1 share/man/man1/pb-plot.1
MAN7 = share/man/man7/pb.7
NEED = sh share/dev/need

all: $(TOOLS) $(UNITS) $(EXAMPLES)

.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBOBJ): $(LIBHDR) config.mk

lib/libpb.a: $(LIBOBJ)
	rm -f $@
	$(AR) $(ARFLAGS) $@ $(LIBOBJ)

# pb-run links libpq when PG=1, or PG=auto and pg_config finds it.
bin/pb-run: $(RUNSRC) bin/pb-run.h bin/pb-run-pg.c bin/pb-run-nopg.c lib/libpb.a $(LIBHDR) config.mk
	@set -e; pg="$(PG)"; src=bin/pb-run-nopg.c; pgc=; pgl=; \
	if [ "$$pg" != 0 ]; then \
	  inc=$$(pg_config --includedir 2>/dev/null || true); \
	  if [ -n "$$inc" ] && [ -f "$$inc/libpq-fe.h" ]; then \
	    src=bin/pb-run-pg.c; pgc="-I$$inc"; pgl="-L$$(pg_config --libdir) -lpq"; \
	  elif [ "$$pg" = 1 ]; then \
	    echo "pb: missing package: libpq-dev (or build without PostgreSQL: make PG=0)" >&2; exit 1; \
	  fi; \
	fi; \
	echo "$(CC) ... -o $@ $(RUNSRC) $$src $$pgl"; \
	$(CC) $(CPPFLAGS) $$pgc $(CFLAGS) $(LDFLAGS) -o $@ $(RUNSRC) $$src lib/libpb.a $$pgl $(LDLIBS)
bin/pb-pair: bin/pb-pair.c lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ bin/pb-pair.c lib/libpb.a $(LDLIBS)
bin/pb-logratio: bin/pb-logratio.c lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ bin/pb-logratio.c lib/libpb.a $(LDLIBS)
bin/pb-tint: bin/pb-tint.c lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ bin/pb-tint.c lib/libpb.a $(LDLIBS)
bin/pb-boot: bin/pb-boot.c lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ bin/pb-boot.c lib/libpb.a $(LDLIBS)
bin/pb-plan: bin/pb-plan.c lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ bin/pb-plan.c lib/libpb.a $(LDLIBS)
bin/pb-cross: bin/pb-cross.c lib/libpb.a $(LIBHDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ bin/pb-cross.c lib/libpb.a $(LDLIBS)

examples/workload/pb-workload: examples/workload/pb-workload.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ examples/workload/pb-workload.c
examples/worker/worker: examples/worker/worker.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ examples/worker/worker.c

t/unit/num: t/unit/num.c t/unit/tap.h lib/libpb.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ t/unit/num.c lib/libpb.a $(LDLIBS)
t/unit/stats: t/unit/stats.c t/unit/tap.h lib/libpb.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ t/unit/stats.c lib/libpb.a $(LDLIBS)
t/unit/stream: t/unit/stream.c t/unit/tap.h lib/libpb.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ t/unit/stream.c lib/libpb.a $(LDLIBS)
t/unit/boot: t/unit/boot.c t/unit/tap.h lib/libpb.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ t/unit/boot.c lib/libpb.a $(LDLIBS)
t/unit/rng: t/unit/rng.c t/unit/tap.h lib/libpb.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ t/unit/rng.c lib/libpb.a $(LDLIBS)

# The tools the test suite needs; installed with apt-get when run as root,
# otherwise named in one line.
deps-check:
	@$(NEED) cc:gcc prove:perl gnuplot:gnuplot-nox pg_config:libpq-dev \
		'/usr/lib/postgresql/*/bin/initdb:postgresql' runuser:util-linux
deps-demo:
	@$(NEED) cc:gcc gnuplot:gnuplot-nox

check: deps-check all
	PATH="$$(pwd)/bin:$$PATH" prove -j2 t/

demo: deps-demo all
	@sh examples/demo.sh

# Sanitizers: rebuild everything with ASan+UBSan, run the suite, clean up.
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all -Wall -Wextra -Werror
asan: deps-check
	$(MAKE) clean
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(MAKE) CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" check
	$(MAKE) clean

# Static musl build of every tool (without PostgreSQL), then the suite.
musl: deps-check
	@$(NEED) musl-gcc:musl-tools
	$(MAKE) clean
	$(MAKE) CC=musl-gcc LDFLAGS=-static PG=0 check
	$(MAKE) clean

bench: all
	@sh examples/bench/run.sh

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(SHAREDIR)
	cp -f $(TOOLS) $(SCRIPTS) $(DESTDIR)$(BINDIR)/
	cp -f $(GNUPLOT) $(DESTDIR)$(SHAREDIR)/
	cp -f $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp -f $(MAN7) $(DESTDIR)$(MANDIR)/man7/

uninstall:
	for f in $(TOOLS) $(SCRIPTS); do rm -f $(DESTDIR)$(BINDIR)/$${f#bin/}; done
	for f in $(MAN1) $(MAN7); do rm -f $(DESTDIR)$(MANDIR)/$${f#share/man/}; done
	for f in $(GNUPLOT); do rm -f $(DESTDIR)$(SHAREDIR)/$${f#share/pb/}; done
	-rmdir $(DESTDIR)$(SHAREDIR) 2>/dev/null

clean:
	rm -f $(LIBOBJ) lib/libpb.a $(TOOLS) $(UNITS) $(EXAMPLES)
	rm -rf t/tmp

.PHONY: all check demo asan musl bench install uninstall clean deps-check deps-demo
