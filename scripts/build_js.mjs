// npm run build:js: the js backend is the scalar core itself, translated to JavaScript.
//
// dist/hitcore.wasm (asc's release build of assembly/) goes through binaryen: wasm-opt lowers the
// post-MVP instructions wasm2js cannot express (saturating float-to-int, bulk memory, sign
// extension) into MVP sequences with the same results, and wasm2js turns the module into an
// asm.js-style function over typed arrays, with f32 arithmetic rounded by Math.fround. So the js
// backend computes what the scalar core computes, bit for bit, from the one source in assembly/.
// binaryen keeps the core's inlining, so the JavaScript has the wasm's few, large functions; the
// same source compiled function by function with tsc ran 3.5-4x slower in V8 (its inlining
// budget, 920 bytecode bytes per optimized function, runs out in the grid's passes).
//
// The module wasm2js writes (its --emscripten form) declares `instantiate(imports)`, returning a
// fresh instance with its own memory: this script adds `createCore()`, which makes one and wraps
// each export to convert its arguments as a wasm call would (ToInt32 for i32, Math.fround for f32),
// the types read from the module.
//
// `--quick` (npm start) skips binaryen's optimizer in both steps, as the dev cores skip asc's: the
// translation then takes about a third of the time and runs slower, for the demo only. f64 arguments pass as they are: the facade hands the core only
// numbers, and a fresh double passed to a call V8 does not inline is boxed (an allocation a frame).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import binaryen from "binaryen";

const require = createRequire(import.meta.url);
const bin = (name) => require.resolve(`binaryen/bin/${name}`);
const dist = new URL("../dist/", import.meta.url);
const input = new URL("hitcore.wasm", dist), lowered = new URL("hitcore-js.tmp.wasm", dist), output = new URL("hitcore.js", dist);

const optimize = process.argv.includes("--quick") ? [] : ["-O3"];
const run = (tool, args) => execFileSync(process.execPath, [bin(tool), ...args], { stdio: ["ignore", "ignore", "inherit"] });
run("wasm-opt", [input.pathname, "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals",
  "--llvm-nontrapping-fptoint-lowering", "--llvm-memory-copy-fill-lowering", "--signext-lowering", ...optimize, "-o", lowered.pathname]);
run("wasm2js", [lowered.pathname, ...optimize, "--emscripten", "-o", output.pathname]);

// The exported functions' parameter types, for the argument conversions.
const module = binaryen.readBinary(readFileSync(lowered));
const conversions = { [binaryen.i32]: (a) => `${a} | 0`, [binaryen.f32]: (a) => `Math.fround(${a})`, [binaryen.f64]: (a) => a };
const wrappers = [];
for (let e = 0; e < module.getNumExports(); e++) {
  const info = binaryen.getExportInfo(module.getExportByIndex(e));
  if (info.kind !== binaryen.ExternalFunction) continue;
  const params = binaryen.expandType(binaryen.getFunctionInfo(module.getFunction(info.value)).params);
  const names = params.map((_, k) => `a${k}`);
  const args = params.map((type, k) => {
    const convert = conversions[type];
    if (!convert) throw new Error(`build:js: ${info.name} takes a parameter of type ${type}, which createCore does not convert`);
    return convert(names[k]);
  });
  wrappers.push(`    ${info.name}: (${names.join(", ")}) => core.${info.name}(${args.join(", ")}),`);
}
module.dispose();
rmSync(lowered);

writeFileSync(output, `${readFileSync(output, "utf8")}
/**
 * A fresh instance of the core (its own memory and state), each export converting its i32 and f32
 * arguments as a wasm call does. Its memory detaches the old buffer when it grows, as a
 * WebAssembly.Memory does (wasm2js copies into a new buffer and leaves the old one whole): the
 * facade tells a stale view by its length reading 0.
 */
export function createCore() {
  const core = instantiate({});
  const memory = {
    get buffer() { return core.memory.buffer; },
    grow(pages) {
      const old = core.memory.buffer, was = core.memory.grow(pages);
      if (core.memory.buffer !== old) structuredClone(old, { transfer: [old] });
      return was;
    },
  };
  return {
    memory,
${wrappers.join("\n")}
  };
}
`);
