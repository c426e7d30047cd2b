#!/bin/sh
# examples/ci run as written (issue 34): t/1476-ci-run.py parses each CI
# file (python3-yaml) and runs its job's steps in order with the CI's
# variables set, in a workspace that is a small project of its own (a
# base commit and a head commit that changes only its README), pb's
# checkout being a copy of this tree. Each job must end well and leave
# what it names: the study directory, its HTML page, the JUnit file
# (xmllint), the Markdown summary. BENCH_BUDGET is set to 5s, as a
# project variable would, so that the two jobs take seconds, not minutes;
# the rest is the files' own. A file with a step that fails must fail.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
RUN=$top/t/1476-ci-run.py
for need in git python3 xmllint; do
	command -v $need >/dev/null 2>&1 || { plan 1; skip "no $need"; exit 0; }
done
python3 -c 'import yaml' 2>/dev/null || { plan 1; skip "no python3-yaml"; exit 0; }

# project DIR: the user's project, a git repository with base and head
project() {
	mkdir -p "$1/testdata" && cd "$1" || exit 1
	git init -q . && git config user.name pb-test && git config user.email pb-test@example.org &&
		git config commit.gpgsign false || exit 1
	cat >app.c <<'C'
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	unsigned long sum = 0;
	int c, pass;
	FILE *f;

	if (argc != 3 || strcmp(argv[1], "--input") != 0 || !(f = fopen(argv[2], "r")))
		return 2;
	for (pass = 0; pass < 20; pass++, rewind(f))
		while ((c = getc(f)) != EOF)
			sum += (unsigned)c;
	return sum == 0;
}
C
	printf 'app: app.c\n\tcc -O2 -o app app.c\n' >Makefile
	awk 'BEGIN { for (i = 0; i < 20000; i++) print i, i * i }' >testdata/big
	printf 'app\n' >.gitignore
	echo 'a project' >README
	git add . && git commit -q -m base && git rev-parse HEAD >"$T/base.$2" &&
		echo 'a project, now with a README line' >>README && git commit -q -a -m head &&
		cd "$T" || exit 1
}

# checks KIND DIR SUMMARY: what a job left in DIR
checks() {
	has_rows "$2/bench/raw.tsv" "$1: the study directory, bench/, holds the raw stream"
	if grep -q '</html>' "$2/bench/report.html" 2>/dev/null; then ok "$1: pb-report's page, bench/report.html"
	else not_ok "$1: pb-report's page, bench/report.html"; fi
	if xmllint --noout "$2/bench-junit.xml" 2>"$T/xmllint.err" &&
	   [ "$(grep -c '<testcase ' "$2/bench-junit.xml")" = 1 ] &&
	   ! grep -q '<failure' "$2/bench-junit.xml"; then
		ok "$1: bench-junit.xml is well-formed XML, one test case, not failed (the gate passed)"
	else not_ok "$1: bench-junit.xml is well-formed XML, one test case, not failed (the gate passed)"
		diag "$(cat "$T/xmllint.err")" "$(head -c 600 "$2/bench-junit.xml" 2>&1)"; fi
	if [ -s "$3" ]; then ok "$1: the Markdown summary, not empty"
	else not_ok "$1: the Markdown summary, not empty"; fi
	like "$(cat "$3" 2>/dev/null)" '^\| Command .*\| A/X time ratio \|' "$1: the summary holds pb-compare's table"
}

# --- GitHub Actions
project "$T/gh" gh
mkdir "$T/gh-runner" && : >"$T/gh-summary.md" && : >"$T/gh-path" && : >"$T/gh-env"
gh_env() {
	env GITHUB_WORKSPACE="$T/gh" GITHUB_SHA="$(git -C "$T/gh" rev-parse HEAD)" \
		PB_CI_BASE_SHA="$(cat "$T/base.gh")" GITHUB_STEP_SUMMARY="$T/gh-summary.md" \
		GITHUB_PATH="$T/gh-path" GITHUB_ENV="$T/gh-env" RUNNER_TEMP="$T/gh-runner" \
		CI=true GITHUB_ACTIONS=true PB_TREE="$top" "$@"
}
run gh_env python3 "$RUN" github "$top/examples/ci/github-actions.yml" BENCH_BUDGET=5s
cp "$T/out" "$T/gh.out"
if [ "$rc" = 0 ] && [ "$(grep -c '^step [0-9]* .*: exit 0$' "$T/gh.out")" = 3 ]; then
	ok "github: the workflow's steps ran in order and ended well"
else not_ok "github: the workflow's steps ran in order and ended well"
	diag "exit $rc" "$(cat "$T/gh.out")" "$(tail -n 15 "$T/err")"; fi
checks github "$T/gh" "$T/gh-summary.md"

# --- GitLab CI
project "$T/gl" gl
mkdir "$T/gl-tmp"
run env CI_PROJECT_DIR="$T/gl" CI_COMMIT_SHA="$(git -C "$T/gl" rev-parse HEAD)" \
	CI_MERGE_REQUEST_DIFF_BASE_SHA="$(cat "$T/base.gl")" CI_PIPELINE_SOURCE=merge_request_event \
	CI=true GITLAB_CI=true TMPDIR="$T/gl-tmp" PB_TREE="$top" \
	python3 "$RUN" gitlab "$top/examples/ci/gitlab-ci.yml" BENCH_BUDGET=5s
cp "$T/out" "$T/gl.out"
if [ "$rc" = 0 ] && grep -q '^script bench: exit 0$' "$T/gl.out" &&
   [ "$(grep -c '^artifact .*: there$' "$T/gl.out")" = 4 ]; then
	ok "gitlab: the job's script ran and its artifacts are there"
else not_ok "gitlab: the job's script ran and its artifacts are there"
	diag "exit $rc" "$(cat "$T/gl.out")" "$(tail -n 15 "$T/err")"; fi
checks gitlab "$T/gl" "$T/gl/bench.md"

# --- a broken step fails, and what follows it does not run; a malformed
# file is refused
rm -rf "$T/gh/bench" "$T/gh/bench-junit.xml" "$T/gh-runner" && : >"$T/gh-path" &&
	mkdir "$T/gh-runner" && git -C "$T/gh" worktree prune
run gh_env python3 "$RUN" github "$top/examples/ci/github-actions.yml" BENCH_BUILD=false
if [ "$rc" = 1 ] && grep -q '^step 4 builds: exit 1$' "$T/out" &&
   grep -q '^step 5: not run' "$T/out" && grep -q '^artifact bench bench: missing' "$T/out"; then
	ok "github: a build that fails fails the job; the gate does not run"
else not_ok "github: a build that fails fails the job; the gate does not run"
	diag "exit $rc" "$(cat "$T/out")"; fi
sed 's/^    runs-on:/   runs-on:/' "$top/examples/ci/github-actions.yml" >"$T/bad.yml"
fails 2 '^ci-run: ' "github: a file whose indentation is wrong is refused" \
	python3 "$RUN" github "$T/bad.yml"
sed 's/^  script:/  scripts:/' "$top/examples/ci/gitlab-ci.yml" >"$T/bad.yml"
fails 2 "unknown keys scripts" "gitlab: a misspelt key is refused" \
	python3 "$RUN" gitlab "$T/bad.yml"
done_testing
