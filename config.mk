# pb build configuration; override on the command line (make CC=clang).
VERSION = 0.1.0

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
SHAREDIR = $(PREFIX)/share/pb
INCDIR = $(PREFIX)/include
DESTDIR =

CC = cc
CFLAGS = -O2 -g -Wall -Wextra -Werror -pedantic
CPPFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -DPB_VERSION=\"$(VERSION)\" -Ilib
LDFLAGS =
LDLIBS = -lm
# POSIX threads, for pb-boot alone (musl has them in libc; the flag is harmless there).
PTHREAD = -pthread
AR = ar
ARFLAGS = rcs

# PostgreSQL support in pb-run: auto (when pg_config finds libpq), 1 (must),
# or 0 (without; --pg then says so).
PG = auto
