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
// The module wasm2js writes (its --emscripten form) declares `instantiate(imports)`, returning an
// instance with its own memory: this script adds `createCore()`, which gives a world a memory of
// its own over one shared instance and wraps each export to convert its arguments as a wasm call
// would (ToInt32 for i32, Math.fround for f32), the types read from the module.
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
  wrappers.push(`    ${info.name}: (${names.join(", ")}) => { if (bound !== buffer) bind(buffer); return core.${info.name}(${args.join(", ")}); },`);
}
module.dispose();
rmSync(lowered);

// One instance serves every world: its functions are closures over the memory's typed arrays,
// and V8 optimizes each closure anew, so a world with an instance of its own ran its first frames
// unoptimized (6-10 ms a frame instead of 1.2 at 10,000 boxes, for about eight frames). The
// instance's functions point at the calling world's memory before each call (\`__bind\`, added to
// the translation below); the core keeps nothing between calls outside memory.
let text = readFileSync(output, "utf8");
const growAt = text.indexOf(" function __wasm_memory_grow(");
const exportsAt = text.indexOf(' "memory": Object.create(');
if (growAt < 0 || exportsAt < 0) throw new Error("build:js: wasm2js's output has no __wasm_memory_grow or memory export to extend");
const views = ["HEAP8", "HEAP16", "HEAP32", "HEAPU8", "HEAPU16", "HEAPU32", "HEAPF32", "HEAPF64"];
const types = ["Int8Array", "Int16Array", "Int32Array", "Uint8Array", "Uint16Array", "Uint32Array", "Float32Array", "Float64Array"];
const bindFn = ` function __bind(next) {\n${views.map((v, k) => `  ${v} = new ${types[k]}(next);`).join("\n")}\n  buffer = next;\n  bufferView = HEAPU8;\n }\n\n`;
text = text.slice(0, exportsAt) + ' "__bind": __bind,\n ' + text.slice(exportsAt);
text = text.slice(0, growAt) + bindFn + text.slice(growAt);

writeFileSync(output, `${text}
let core = null, initial = null, bound = null;
function bind(buffer) {
  core.__bind(buffer);
  bound = buffer;
}

/**
 * The core for one world: a memory of its own (the instance's first memory, copied) and every
 * export converting its i32 and f32 arguments as a wasm call does, after pointing the shared
 * instance at this memory. The memory detaches the old buffer when it grows (grow(0) included), as
 * a WebAssembly.Memory does: the facade tells a stale view by its length reading 0.
 */
export function createCore() {
  if (!core) {
    core = instantiate({});
    initial = core.memory.buffer.slice(0);
  }
  let buffer = initial.slice(0);
  const memory = {
    get buffer() { return buffer; },
    grow(pages) {
      const old = buffer, was = old.byteLength >>> 16;
      if (pages > 0) {
        if (was + pages > 65536) return -1;
        buffer = new ArrayBuffer(old.byteLength + pages * 65536);
        new Uint8Array(buffer).set(new Uint8Array(old));
        structuredClone(old, { transfer: [old] });
      } else {
        // grow(0) replaces the buffer too, as V8 does for a WebAssembly.Memory: the facade detaches
        // stale views so. A transfer moves the bytes without copying them.
        buffer = structuredClone(old, { transfer: [old] });
      }
      if (bound === old) bind(buffer);
      return was;
    },
  };
  return {
    memory,
${wrappers.join("\n")}
  };
}
`);
