#!/bin/sh
# A pb-run worker for the tests: appends each request line to the file $1,
# answers ok, and appends "eof PID" when its stdin ends.
log=$1
while IFS= read -r req; do
	printf '%s\n' "$req" >>"$log"
	echo ok
done
echo "eof $$" >>"$log"
