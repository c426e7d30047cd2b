#!/bin/sh
exec "$(dirname "$0")/unit/varcomp"
