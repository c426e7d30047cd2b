// pb-worker.mjs: pb-run's worker protocol in one call, for Node.js.
//
//   import { serve } from './pb-worker.mjs';
//   const oldWay = () => { ... };
//   const newWay = async () => { ... };
//   process.exitCode = await serve({ a: oldWay, b: newWay });
//
//   pb-run --worker 'node bench.mjs' > raw.tsv
//
// pb-run starts one worker per run and writes one request per observation
// on its standard input, "ARM<TAB>RUN<TAB>PAIR" (ARM a letter, A for the
// baseline); the worker does one unit of that arm's work and answers one
// line, "ok" or "error TEXT"; pb-run times the round trip. End of input
// ends the run.
//
// serve({ a: f, b: g }) calls f() for each request of arm A and g() for
// arm B, with no arguments; when the call returns a promise (an async
// function) it is awaited. The answer is "ok" when the call returns or the
// promise resolves (the value is ignored); a throw or a rejection is
// answered on one line "error TYPE: MESSAGE" (TYPE the error's name), and
// the run goes on. More arms are more letters: serve({ a, b, c }) serves
// arm C too. A request for an arm that was not given is answered
// "error no arm C: ...".
//
// serve() resolves to 0 at the end of the input, and to 1 after one line on
// the standard error for a request that is not ARM<TAB>RUN<TAB>PAIR, input
// that ends inside a request, or an answer that cannot be written. Fields
// after PAIR, TAB-separated, are ignored (room for the protocol to grow).
//
// While it serves, descriptor 1 is the standard error, and so are
// process.stdout and console.log: whatever the arms print, or a child
// they start prints, goes where pb-run sends the worker's standard error
// (--output), and cannot be taken for an answer. The answers go to the
// real standard output, on a descriptor of its own that no child
// inherits, and it comes back as descriptor 1 when serve() resolves.
//
// One file, Node's standard library only; Node 16 or later (tested with 20).

import fs from 'node:fs';

const LINE_MAX = 4096; // a request or an answer, newline included
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const OK = Buffer.from('ok\n');

// The arms as an array indexed 0 (A) to 25 (Z), null where not given.
function armsOf(given) {
  if (given === null || typeof given !== 'object')
    throw new TypeError('pb-worker serve: give the arms as an object: serve({ a: baseline, b: candidate })');
  const arms = new Array(LETTERS.length).fill(null);
  for (const [name, fn] of Object.entries(given)) {
    if (name.length !== 1 || !LETTERS.includes(name))
      throw new TypeError(`pb-worker serve: arm '${name}': arms are the letters a to z (a: baseline, b: candidate, c: ...)`);
    if (typeof fn !== 'function')
      throw new TypeError(`pb-worker serve: arm ${name} is not a function`);
    arms[LETTERS.indexOf(name)] = fn;
  }
  if (!arms.some((f) => f))
    throw new TypeError('pb-worker serve: no arm given: serve({ a: baseline, b: candidate })');
  return arms;
}

// text on one line, control characters escaped, at most limit bytes.
function oneLine(text, limit) {
  const s = String(text).replace(/[\x00-\x1f\x7f]/g, (c) => (
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t'
      : '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')));
  const b = Buffer.from(s);
  if (b.length <= limit)
    return s;
  // cut at a byte; a character cut in two decodes as U+FFFD, dropped
  return b.subarray(0, limit - 3).toString().replace(/\uFFFD$/, '') + '...';
}

// Up to 60 bytes of a bad request, for a message.
function quote(line) {
  let s = '';
  for (const c of line.subarray(0, 60))
    s += c >= 0x20 && c < 0x7f && c !== 0x5c ? String.fromCharCode(c)
      : c === 9 ? '\\t' : c === 10 ? '\\n' : c === 13 ? '\\r' : c === 0x5c ? '\\\\'
        : '\\x' + c.toString(16).padStart(2, '0');
  return line.length > 60 ? s + '...' : s;
}

// 0 (A) to 25 (Z) for a request ARM<TAB>RUN<TAB>PAIR in buf[from, to),
// else -1. Byte by byte, without slices: this is on the timed path.
function armOf(buf, from, to) {
  const arm = buf[from] - 0x41;
  if (to - from < 5 || arm < 0 || arm > 25 || buf[from + 1] !== 9)
    return -1;
  let i = from + 2;
  for (let field = 0; field < 2; field++) {
    const start = i;
    while (i < to && buf[i] >= 0x30 && buf[i] <= 0x39)
      i++;
    if (i === start || (i < to && buf[i] !== 9) || (field === 0 && i === to))
      return -1;
    i++;
  }
  return arm;
}

function describe(e) {
  if (e instanceof Error || (e && typeof e === 'object' && 'message' in e)) {
    let type = e.name;
    if ((!type || type === 'Error') && e.constructor && e.constructor.name)
      type = e.constructor.name;
    return e.message ? `${type || 'Error'}: ${e.message}` : `${type || 'Error'}`;
  }
  try {
    return `thrown: ${String(e)}`;
  } catch {
    return `thrown: a value that has no text (${typeof e})`;
  }
}

const failed = (e) => `error ${oneLine(describe(e), LINE_MAX - 8)}\n`;

// The answer line to one request (a string, or the Buffer OK), or a
// promise of one when the arm returned a promise (an async function).
function answer(arm, arms) {
  const fn = arms[arm];
  if (!fn) {
    const letter = String.fromCharCode(0x41 + arm);
    const last = arms.reduce((m, f, i) => (f ? i : m), 0);
    if (arm > last)
      return last ? `error no arm ${letter}: this worker serves arms A to ${String.fromCharCode(0x41 + last)}\n`
        : `error no arm ${letter}: this worker serves arm A only\n`;
    return `error no arm ${letter}: this worker has no function for it\n`;
  }
  let r;
  try {
    r = fn();
  } catch (e) {
    return failed(e);
  }
  if (r && typeof r.then === 'function')
    return Promise.resolve(r).then(() => OK, failed);
  return OK;
}

function fail(what) {
  process.stderr.write(`pb-worker: ${what}\n`);
  return 1;
}

// The requests, chunk by chunk: next() is a Buffer, or null at the end of
// the input, or a promise of one of these. A blocking fs.readSync on
// descriptor 0 is the lean way, one system call per request; when the
// descriptor is non-blocking (something touched process.stdin, which makes
// it so) that read fails with EAGAIN, and the chunks come from
// process.stdin's async iterator instead, some 10 us slower a request.
function reader() {
  const buf = Buffer.allocUnsafe(LINE_MAX);
  let it = null;
  return () => {
    while (!it) {
      try {
        const n = fs.readSync(0, buf, 0, buf.length, null);
        return n ? buf.subarray(0, n) : null;   // valid until the next read
      } catch (e) {
        if (e.code === 'EINTR')
          continue;
        if (e.code !== 'EAGAIN')
          throw e;
        it = process.stdin[Symbol.asyncIterator]();
      }
    }
    return it.next().then(({ value, done }) => (done ? null : value));
  };
}

// The loop: read requests, answer each; the status to resolve to.
async function loop(arms, write) {
  const next = reader();
  let rest = null, nreq = 0;   // rest: the start of a request, read so far
  for (;;) {
    let chunk;
    try {
      chunk = next();
      if (chunk && !Buffer.isBuffer(chunk))
        chunk = await chunk;
    } catch (e) {
      return fail(`cannot read the standard input: ${e.message}`);
    }
    if (!chunk)
      break;
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let pos = 0, nl;
    while ((nl = buf.indexOf(10, pos)) >= 0) {
      const arm = armOf(buf, pos, nl);
      nreq++;
      if (arm < 0)
        return fail(`request ${nreq} is not ARM<TAB>RUN<TAB>PAIR: '${quote(buf.subarray(pos, nl))}'`);
      pos = nl + 1;
      const a = answer(arm, arms);
      try {
        write(await a);   // also a turn for the microtasks the arm queued
      } catch (e) {
        return fail(`cannot write the answer to request ${nreq}: ${e.message}`);
      }
    }
    if (buf.length - pos >= LINE_MAX)
      return fail(`request ${nreq + 1} is longer than ${LINE_MAX - 1} bytes`);
    rest = pos < buf.length ? Buffer.from(buf.subarray(pos)) : null;
  }
  if (rest)
    return fail(`the input ended inside request ${nreq + 1}: '${quote(rest)}'`);
  return 0;
}

// Descriptors as the C and Python helpers make them with dup and dup2,
// which Node lacks: open(2) of /dev/fd/N opens what N is (the pipe to
// pb-run, a terminal; a file is appended to), close-on-exec as every
// descriptor Node opens, on the lowest free descriptor: 1 just after
// it is closed.
const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND;

// Descriptor 1 onto path: true when it is so.
function ontoOne(path) {
  fs.closeSync(1);
  let fd;
  try {
    fd = fs.openSync(path, APPEND);
  } catch {
    return false;
  }
  if (fd === 1)
    return true;
  fs.closeSync(fd);
  return false;
}

// The answers' pipe as a descriptor of its own, and descriptor 1 the
// standard error: what the arms print, and what a child they start with
// stdio 'inherit' prints, is never taken for an answer, and no child
// inherits the pipe. When that cannot be done (descriptor 2 closed, or a
// socket), the answers go to 1 as they are.
function claimStdout() {
  let out;
  try {
    out = fs.openSync('/dev/fd/1', APPEND);
  } catch {
    return 1;
  }
  if (ontoOne('/dev/fd/2'))
    return out;
  ontoOne(`/dev/fd/${out}`);
  fs.closeSync(out);
  return 1;
}

function releaseStdout(out) {
  if (out === 1)
    return;
  ontoOne(`/dev/fd/${out}`);
  fs.closeSync(out);
}

// Serve arm A with arms.a(), arm B with arms.b(), ... until the end of the
// input; resolves to 0 then, to 1 after a message on a protocol error.
export async function serve(given) {
  const arms = armsOf(given);
  const stdout = process.stdout, realWrite = stdout.write;
  const ownWrite = Object.prototype.hasOwnProperty.call(stdout, 'write');
  const out = claimStdout();
  // Answers: one write(2) each on out. A descriptor 1 left as it was is
  // non-blocking once Node touched process.stdout: a full pipe (EAGAIN)
  // hands the rest to the stream, which waits.
  const write = (s) => {
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    let off = 0;
    while (off < b.length) {
      try {
        off += fs.writeSync(out, b, off, b.length - off);
      } catch (e) {
        if (e.code === 'EINTR')
          continue;
        if (e.code !== 'EAGAIN' || out !== 1)
          throw e;
        realWrite.call(stdout, b.subarray(off));
        return;
      }
    }
  };
  stdout.write = (...args) => process.stderr.write(...args);
  try {
    return await loop(arms, write);
  } finally {
    if (ownWrite)
      stdout.write = realWrite;
    else
      delete stdout.write;
    releaseStdout(out);
  }
}
