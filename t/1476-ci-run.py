#!/usr/bin/env python3
"""t/1476-ci-run.py KIND FILE [NAME=VALUE ...]: run a CI file of
examples/ci as its CI system would, here (t/1476-ci-files.t).

KIND is github (a GitHub Actions workflow) or gitlab (a .gitlab-ci.yml).
The file is parsed (python3-yaml) and checked against the keys this
emulation knows, so that a misspelt key or a malformed file fails. Each
job's steps run in order, in bash -eo pipefail, in the workspace
($GITHUB_WORKSPACE, $CI_PROJECT_DIR), with the CI's variables (the
caller sets the runner's: GITHUB_SHA, RUNNER_TEMP, CI_COMMIT_SHA, ...)
and the file's own; what a step writes to $GITHUB_PATH and $GITHUB_ENV
holds for the steps after it. NAME=VALUE overrides a variable the file sets, as a
repository or project variable does. Actions are emulated: checkout of
the project is the workspace that is there; checkout of pb (PB_REPO)
and GitLab's cache of pb's tree are a copy of PB_TREE with its built
files; upload-artifact and artifacts: the paths must exist. One line per
step and artifact on stdout; exit 1 when a step failed or an artifact
is missing, 2 when the file is not one this knows."""
import os
import re
import subprocess
import sys
import tempfile

import yaml


def die(msg):
    print("ci-run: " + msg, file=sys.stderr)
    sys.exit(2)


def only(d, allowed, where):
    if not isinstance(d, dict):
        die(where + ": not a mapping")
    extra = set(d) - set(allowed)
    if extra:
        die(where + ": unknown keys " + ", ".join(sorted(map(str, extra))))


def run_script(text, env, cwd):
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write(text)
    try:
        return subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", f.name],
                               env=env, cwd=cwd)
    finally:
        os.unlink(f.name)


def copy_tree(src, dst):
    """pb's tree with its built files, mtimes kept (make rebuilds nothing)"""
    os.makedirs(dst, exist_ok=True)
    names = [os.path.join(src, n) for n in os.listdir(src) if n != ".git"]
    if subprocess.call(["cp", "-Rp"] + names + [dst]) != 0:
        die("cannot copy " + src)


def artifact(ws, path, name):
    there = os.path.exists(os.path.join(ws, path))
    print("artifact %s %s: %s" % (name, path, "there" if there else "missing"))
    return there


class GitHub:
    EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")

    def __init__(self, doc, sets):
        only(doc, ["name", True, "on", "env", "jobs", "permissions"], "workflow")
        if True not in doc and "on" not in doc:
            die("workflow: no 'on'")
        self.env = {k: str(v) for k, v in (doc.get("env") or {}).items()}
        for k, v in sets.items():
            if k not in self.env:
                die("workflow: no env %s to set" % k)
            self.env[k] = v
        self.jobs = doc.get("jobs")
        if not isinstance(self.jobs, dict) or not self.jobs:
            die("workflow: no jobs")

    def expr(self, s):
        def one(m):
            e = m.group(1)
            if e.startswith("env.") and e[4:] in self.env:
                return self.env[e[4:]]
            known = {"github.sha": "GITHUB_SHA",
                     "github.event.pull_request.base.sha": "PB_CI_BASE_SHA",
                     "runner.temp": "RUNNER_TEMP", "github.workspace": "GITHUB_WORKSPACE"}
            if e not in known:
                die("unknown expression ${{ %s }}" % e)
            return os.environ[known[e]]
        return self.EXPR.sub(one, str(s))

    def run(self):
        ok = True
        for name, job in self.jobs.items():
            only(job, ["runs-on", "steps", "permissions", "timeout-minutes"], "job " + name)
            if "runs-on" not in job or not isinstance(job.get("steps"), list):
                die("job %s: runs-on and a list of steps" % name)
            ok = self.job(name, job) and ok
        return ok

    def job(self, name, job):
        ws = os.environ["GITHUB_WORKSPACE"]
        failed, missing = False, False
        for i, step in enumerate(job["steps"]):
            where = "job %s step %d" % (name, i + 1)
            only(step, ["name", "uses", "run", "with", "env", "if", "id"], where)
            if ("uses" in step) == ("run" in step):
                die(where + ": one of uses and run")
            cond = step.get("if")
            if cond not in (None, "always()"):
                die(where + ": if: %s is not emulated" % cond)
            if failed and cond != "always()":
                print("step %d: not run (a step before failed)" % (i + 1))
                continue
            if "uses" in step:
                r = self.uses(step, ws, where)
                missing = missing or r == "missing"
                failed = failed or r == "failed"
                continue
            env = dict(os.environ)
            env.update({k: self.expr(v) for k, v in self.env.items()})
            env.update({k: self.expr(v) for k, v in (step.get("env") or {}).items()})
            for line in open(os.environ["GITHUB_ENV"]).read().split("\n"):
                if "=" in line:
                    env[line.split("=", 1)[0]] = line.split("=", 1)[1]
            added = open(os.environ["GITHUB_PATH"]).read().split("\n")
            env["PATH"] = ":".join([p for p in reversed(added) if p] + [env["PATH"]])
            rc = run_script(self.expr(step["run"]), env, ws)
            print("step %d %s: exit %d" % (i + 1, step.get("name", "run"), rc))
            failed = failed or rc != 0
        return not failed and not missing

    def uses(self, step, ws, where):
        action, w = step["uses"], {k: self.expr(v) for k, v in (step.get("with") or {}).items()}
        if action == "actions/checkout@v4":
            only(w, ["fetch-depth", "repository", "path", "ref"], where + " with")
            if "repository" not in w:
                here = subprocess.run(["git", "-C", ws, "rev-parse", "HEAD"],
                                      capture_output=True, text=True).stdout.strip()
                print("checkout: the project at %s" % here)
                return "failed" if here != os.environ["GITHUB_SHA"] else "ok"
            if w["repository"] != self.env.get("PB_REPO") or "path" not in w:
                die(where + ": checkout of %s is not emulated" % w["repository"])
            copy_tree(os.environ["PB_TREE"], os.path.join(ws, w["path"]))
            print("checkout: pb in %s" % w["path"])
            return "ok"
        if action == "actions/upload-artifact@v4":
            only(w, ["name", "path", "if-no-files-found", "retention-days"], where + " with")
            return "ok" if artifact(ws, w["path"], w["name"]) else "missing"
        die(where + ": %s is not emulated" % action)


class GitLab:
    def __init__(self, doc, sets):
        if not isinstance(doc, dict) or not doc:
            die("no jobs")
        self.jobs = doc
        self.sets = sets

    def run(self):
        ok = True
        for name, job in self.jobs.items():
            only(job, ["image", "rules", "variables", "cache", "script", "artifacts", "stage"],
                 "job " + name)
            script = job.get("script")
            if not isinstance(script, list) or not all(isinstance(s, str) for s in script):
                die("job %s: script is a list of lines" % name)
            ok = self.job(name, job, script) and ok
        return ok

    def job(self, name, job, script):
        ws = os.environ["CI_PROJECT_DIR"]
        vs = {k: str(v) for k, v in (job.get("variables") or {}).items()}
        for k, v in self.sets.items():
            if k not in vs:
                die("job %s: no variable %s to set" % (name, k))
            vs[k] = v
        cache = job.get("cache")
        if cache is not None:
            only(cache, ["key", "paths"], "job %s cache" % name)
            if cache.get("paths") != [".pb/"]:
                die("job %s: a cache of %s is not emulated" % (name, cache.get("paths")))
            copy_tree(os.environ["PB_TREE"], os.path.join(ws, ".pb"))
            print("cache: pb in .pb/")
        env = dict(os.environ)
        env.update(vs)
        rc = run_script("\n".join(script) + "\n", env, ws)
        print("script %s: exit %d" % (name, rc))
        arts = job.get("artifacts") or {}
        only(arts, ["when", "paths", "reports", "expire_in"], "job %s artifacts" % name)
        if rc != 0 and arts.get("when") != "always":
            return False
        there = all([artifact(ws, p, "paths") for p in arts.get("paths", [])])
        reports = arts.get("reports") or {}
        only(reports, ["junit"], "job %s reports" % name)
        if "junit" in reports:
            there = artifact(ws, reports["junit"], "junit") and there
        return rc == 0 and there


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("github", "gitlab"):
        die("usage: ci-run.py github|gitlab FILE [NAME=VALUE ...]")
    sets = dict(a.split("=", 1) for a in sys.argv[3:])
    try:
        with open(sys.argv[2]) as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        die("%s: %s" % (sys.argv[2], str(e).replace("\n", " ")))
    ci = (GitHub if sys.argv[1] == "github" else GitLab)(doc, sets)
    sys.exit(0 if ci.run() else 1)


main()
