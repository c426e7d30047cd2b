"""pb_worker: pb-run's worker protocol in one call, for Python.

    import pb_worker

    def old_way(): ...
    def new_way(): ...

    if __name__ == "__main__":
        raise SystemExit(pb_worker.serve(a=old_way, b=new_way))

    pb-run --worker 'python3 bench.py' > raw.tsv

pb-run starts one worker per run and writes one request per observation
on its standard input, "ARM<TAB>RUN<TAB>PAIR" (ARM a letter, A for the
baseline); the worker does one unit of that arm's work and answers one
line, "ok" or "error TEXT"; pb-run times the round trip. End of input
ends the run.

serve(a=f, b=g) calls f() for each request of arm A and g() for arm B,
with no arguments, and answers "ok" when the call returns (its value is
ignored). An exception (any Exception) is answered on one line
"error TYPE: MESSAGE" ("error TYPE" when it has no message, or its
__str__ fails), and the run goes on. More arms are more letters:
serve(a=f, b=g, c=h) serves arm C too. A request for an arm that was not
given is answered "error no arm C: ...".

serve() returns 0 at the end of the input, and 1 after one line on the
standard error for a request that is not ARM<TAB>RUN<TAB>PAIR, input that
ends inside a request, or an answer that cannot be written. Fields after
PAIR, TAB-separated, are ignored (room for the protocol to grow).

While it serves, the standard output (descriptor 1, and sys.stdout) is
the standard error: whatever the arms print goes where pb-run sends the
worker's standard error (--output), and cannot be taken for an answer.
The answers go to the original standard output, which comes back on
return.

Requests are read with os.read and answers written with os.write on the
raw descriptors: no buffering, nothing to flush. One file, the standard
library only; Python 3.6 or later (tested with 3.11).
"""

import os
import sys

__all__ = ["serve"]

LINE_MAX = 4096  # a request or an answer, newline included
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _arms(given):
    """The arms as a list indexed 0 (A) to 25 (Z), None where not given."""
    arms = [None] * len(_LETTERS)
    for name, fn in given.items():
        if len(name) != 1 or name not in _LETTERS:
            raise TypeError("pb_worker.serve: arm %r: arms are the letters a to z "
                            "(a=baseline, b=candidate, c=...)" % name)
        if not callable(fn):
            raise TypeError("pb_worker.serve: arm %s: %r is not callable" % (name, fn))
        arms[_LETTERS.index(name)] = fn
    if not any(arms):
        raise TypeError("pb_worker.serve: no arm given (serve(a=baseline, b=candidate))")
    return arms


def _one_line(text, limit):
    """text on one line, control characters escaped, at most limit bytes."""
    out = []
    for ch in text:
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    b = "".join(out).encode("utf-8", "backslashreplace")
    if len(b) > limit:
        b = b[:limit - 3].decode("utf-8", "ignore").encode("utf-8") + b"..."
    return b


def _quote(line):
    """Up to 60 bytes of a bad request, for a message."""
    text = line[:60].decode("ascii", "backslashreplace")
    return _one_line(text, 250).decode("ascii", "backslashreplace") + \
        ("..." if len(line) > 60 else "")


def _arm_of(line):
    """0 (A) to 25 (Z) for a request ARM<TAB>RUN<TAB>PAIR, else -1."""
    f = line.split(b"\t")
    if len(f) < 3 or len(f[0]) != 1 or not (65 <= f[0][0] <= 90) or \
            not f[1].isdigit() or not f[2].isdigit():
        return -1
    return f[0][0] - 65


def _answer(arm, arms):
    fn = arms[arm]
    letter = chr(65 + arm)
    if fn is None:
        last = max(i for i, f in enumerate(arms) if f is not None)
        if arm > last:
            return ("error no arm %s: this worker serves arms A to %s\n"
                    % (letter, chr(65 + last)) if last else
                    "error no arm %s: this worker serves arm A only\n" % letter).encode()
        return ("error no arm %s: this worker has no function for it\n" % letter).encode()
    try:
        fn()
    except Exception as e:  # an arm's failure is an answer; BaseException ends the worker
        return b"error " + _one_line(_describe(e), LINE_MAX - 8) + b"\n"
    return b"ok\n"


def _describe(e):
    """TYPE: MESSAGE of an arm's exception, or TYPE alone when the message
    is empty or cannot be made: a __str__ that raises must not end the
    worker."""
    name = type(e).__name__
    try:
        msg = str(e)
        return "".join((name, ": ", msg)) if msg else name
    except Exception:
        return name


def _fail(what):
    os.write(2, ("pb-worker: %s\n" % what).encode("utf-8", "backslashreplace"))
    return 1


def _write_all(fd, data):
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _loop(out, arms):
    buf = b""
    nreq = 0
    while True:
        nl = buf.find(b"\n")
        if nl >= 0:
            line, buf = buf[:nl], buf[nl + 1:]
            nreq += 1
            arm = _arm_of(line)
            if arm < 0:
                return _fail("request %d is not ARM<TAB>RUN<TAB>PAIR: '%s'" % (nreq, _quote(line)))
            try:
                _write_all(out, _answer(arm, arms))
            except OSError as e:
                return _fail("cannot write the answer to request %d: %s" % (nreq, e.strerror))
            continue
        if len(buf) >= LINE_MAX:
            return _fail("request %d is longer than %d bytes" % (nreq + 1, LINE_MAX - 1))
        try:
            chunk = os.read(0, LINE_MAX)
        except InterruptedError:
            continue
        except OSError as e:
            return _fail("cannot read the standard input: %s" % e.strerror)
        if not chunk:
            if buf:
                return _fail("the input ended inside request %d: '%s'" % (nreq + 1, _quote(buf)))
            return 0
        buf += chunk


def serve(a=None, b=None, **more_arms):
    """Serve arm A with a(), arm B with b(), arm C with c=... until the end of
    the input; 0 then, 1 after a message on a protocol error."""
    given = dict(more_arms)
    if a is not None:
        given["a"] = a
    if b is not None:
        given["b"] = b
    arms = _arms(given)
    out = _claim_stdout()
    try:
        return _loop(out, arms)
    finally:
        _release_stdout(out)


def _claim_stdout():
    """A copy of fd 1 for the answers; fd 1 becomes the standard error.
    When that cannot be done, the answers go to fd 1."""
    if sys.stdout is not None:
        sys.stdout.flush()
    try:
        out = os.dup(1)
    except OSError:
        return 1
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(out)
        return 1
    return out


def _release_stdout(out):
    if out == 1:
        return
    if sys.stdout is not None:
        sys.stdout.flush()  # what the arms printed, to the standard error
    os.dup2(out, 1)
    os.close(out)
