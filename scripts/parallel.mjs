// `node scripts/parallel.mjs "cmd a" "cmd b" ...`: runs the commands at the same time and fails if
// any fails. asc and tsc each use one core, and the build's steps do not read each other's
// output, so on two cores the build takes about as long as its longest steps, not their sum. Each
// command's output is printed whole when it ends, never interleaved with another's, then one line
// on stderr saying it is done, how long it took and how many of the commands are done (a quiet
// build says only that).
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
if (commands.length === 0) throw new Error('usage: node scripts/parallel.mjs "command" ["command" ...]');

const start = performance.now();
let finished = 0;

function run(command) {
  return new Promise((done) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push([process.stdout, chunk]));
    child.stderr.on("data", (chunk) => output.push([process.stderr, chunk]));
    child.on("error", (err) => output.push([process.stderr, `${command}: ${err.message}\n`]));
    child.on("close", (code, signal) => {
      for (const [stream, chunk] of output) stream.write(chunk);
      finished++;
      const seconds = ((performance.now() - start) / 1000).toFixed(1);
      if (code !== 0) process.stderr.write(`\`${command}\` failed (${signal ?? `exit code ${code}`})\n`);
      else process.stderr.write(`[build] done: ${command} (${seconds} s; ${finished} of ${commands.length} run together)\n`);
      done(code === 0);
    });
  });
}

const ok = await Promise.all(commands.map(run));
process.exitCode = ok.every(Boolean) ? 0 : 1;
