// sort.mjs: a pb-run worker in Node.js with share/pb/pb-worker.mjs,
// comparing two ways to sort numbers: Array.prototype.sort with a compare
// function (A) and a Float64Array's numeric sort (B).
//
//   pb-run --worker 'node examples/worker/sort.mjs' --runs 10 --pairs 200 --warmup 20 > raw.tsv
//   pb-pair --by-run raw.tsv | pb-logratio | pb-tint --finding
//
// Each arm is a function that does one unit of work, or an async function
// whose promise is awaited; a throw or a rejection fails the observation
// (pb-run status -2, the error in its message). One worker process per run:
// what is set up at the top is part of the run, not of an observation.
import fs from 'node:fs';

// The helper beside the source tree's share/pb, or the installed share/pb.
const helper = ['../../share/pb/pb-worker.mjs', '../../pb-worker.mjs']
  .map((p) => new URL(p, import.meta.url))
  .find((u) => fs.existsSync(u));
if (!helper) {
  console.error('sort.mjs: pb-worker.mjs not found in ../../share/pb or ../..');
  process.exit(1);
}
const { serve } = await import(helper.href);

const numbers = Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 1e6);

function check(sorted) {
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i - 1] > sorted[i])
      throw new Error(`not sorted at ${i}`);
}

const withCompare = () => check(numbers.slice().sort((x, y) => x - y));
const withTypedArray = () => check(Float64Array.from(numbers).sort());

process.exitCode = await serve({ a: withCompare, b: withTypedArray });
