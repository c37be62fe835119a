// Everything in one cell (a cellSize far larger than the world): selfPairs, crossPairs and
// firstHits on 10k to 40k points in one cell against a plain double loop over the same stores,
// in the language each core runs: an AssemblyScript loop (bench/assembly/brute.ts, compiled here
// by asc, scalar) for the two wasm cores, a JavaScript loop over the world's own views for the js
// backend. Both loops write the same pairs (up to the pair capacity, the total counted) with the
// core's exact test. Before anything is timed, the grid's pairs must equal the loop's (as sets;
// firstHits' pairs and flags in order) and be identical, order included, on every core.
// Writes bench/results/crowded.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createWorld, type World } from "../bindings/node.js";
import { machine, simdWasm, wasm } from "./harness.js";
import { Progress } from "./progress.js";

const SIZES = (process.env.BENCH_CROWDED_SIZES ?? "10000,20000,40000").split(",").map(Number);
/** Timed calls per case and side (grid, loop), alternating; the median is reported. */
const REPEATS = Number(process.env.BENCH_CROWDED_REPEATS ?? 3);
const CELL = 2 ** 30; // far larger than any scene: one cell
const SPREAD = 4000;
const A = 1, B = 2;

type Call = "selfPairs" | "crossPairs" | "firstHits";
interface Scene {
  name: string;
  call: Call;
  /** Slot k's point and groups. */
  place(k: number, rand: () => number): [number, number, number];
}

const scatter = (rand: () => number): [number, number] => [Math.floor(rand() * SPREAD), Math.floor(rand() * SPREAD)];
const SCENES: Scene[] = [
  // The scene: random integer points, a few equal.
  { name: "points scattered", call: "selfPairs", place: (k, r) => [...scatter(r), A] },
  // Every left edge the same: sorting by left edge cuts no walk short, every pair is tested.
  { name: "points in one column", call: "selfPairs", place: (k) => [0, k, A] },
  // Every pair overlaps: n (n - 1) / 2 pairs, counted past the pair capacity.
  { name: "points on one spot", call: "selfPairs", place: () => [7, 7, A] },
  { name: "points scattered, half against half", call: "crossPairs", place: (k, r) => [...scatter(r), k % 2 ? B : A] },
  { name: "points on one spot, half against half", call: "crossPairs", place: (k) => [7, 7, k % 2 ? B : A] },
  { name: "points scattered, half against half", call: "firstHits", place: (k, r) => [...scatter(r), k % 2 ? B : A] },
  { name: "points on one spot, half against half", call: "firstHits", place: (k) => [7, 7, k % 2 ? B : A] },
];

const CORES = [
  ["wasm SIMD", { backend: "wasm" as const, wasm: simdWasm }],
  ["wasm scalar", { backend: "wasm" as const, wasm }],
  ["js", { backend: "js" as const }],
] as const;

/** The AssemblyScript double loops, compiled into build/bench/ (asc from this checkout, no asconfig.json). */
async function bruteModule(): Promise<WebAssembly.Instance> {
  const out = new URL("./brute.wasm", import.meta.url);
  const src = new URL("../../bench/assembly/brute.ts", import.meta.url);
  const asc = createRequire(import.meta.url).resolve("assemblyscript/bin/asc.js");
  execFileSync(process.execPath, [asc, src.pathname, "--config", "none", "-o", out.pathname, "-O3", "--runtime", "stub", "--noAssert"], { stdio: ["ignore", "ignore", "inherit"] });
  return (await WebAssembly.instantiate(readFileSync(out))).instance;
}

interface Loop {
  /** Copies the world's stores in (untimed). */
  load(world: World): void;
  /** The double loop (timed); returns the total, pairs in pairs(). */
  run(call: Call): number;
  pairs(): Int32Array;
  flags(): Uint8Array;
}

/** The AssemblyScript double loop, over copies of a world's stores in its own memory. */
function wasmLoop(brute: WebAssembly.Instance, cap: number): Loop {
  const ex = brute.exports as unknown as Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };
  let n = 0, at: Record<string, number> = {};
  return {
    load(world) {
      n = world.count;
      const base = 65536, sizes = { x: 4 * n, y: 4 * n, a: 4 * n, b: 4 * n, groups: 4 * n, kinds: n, flags: n, list: 8 * n, pairs: 8 * cap };
      let p = base;
      at = {};
      for (const [name, bytes] of Object.entries(sizes)) { at[name] = p; p += (bytes + 15) & ~15; }
      const need = Math.ceil(p / 65536) - ex.memory.buffer.byteLength / 65536;
      if (need > 0) ex.memory.grow(need);
      const buf = ex.memory.buffer;
      new Float32Array(buf, at.x, n).set(world.x.subarray(0, n));
      new Float32Array(buf, at.y, n).set(world.y.subarray(0, n));
      new Float32Array(buf, at.a, n).set(world.a.subarray(0, n));
      new Float32Array(buf, at.b, n).set(world.b.subarray(0, n));
      new Uint32Array(buf, at.groups, n).set(world.groups.subarray(0, n));
      new Uint8Array(buf, at.kinds, n).set(world.kinds.subarray(0, n));
    },
    run(call) {
      const s = [n, at.x, at.y, at.a, at.b, at.groups, at.kinds] as const;
      if (call === "selfPairs") return ex.selfPairs(...s, A, at.list, at.pairs, cap);
      if (call === "crossPairs") return ex.crossPairs(...s, A, B, at.list, at.pairs, cap);
      return ex.firstHits(...s, A, B, 1, at.flags, at.list, at.pairs, cap);
    },
    pairs: () => new Int32Array(ex.memory.buffer, at.pairs, 2 * cap),
    flags: () => new Uint8Array(ex.memory.buffer, at.flags, n),
  };
}

/** The JavaScript double loop, over the world's own views (the js backend's stores). */
function jsLoop(cap: number): Loop {
  let world: World;
  const out = new Int32Array(2 * cap);
  let flags = new Uint8Array(0), listA = new Int32Array(0), listB = listA;
  return {
    load(w) { world = w; flags = new Uint8Array(w.count); listA = new Int32Array(w.count); listB = new Int32Array(w.count); },
    run(call) {
      const s: Stores = { x: world.x, y: world.y, a: world.a, b: world.b, kinds: world.kinds, n: world.count };
      const na = gather(world.groups, world.kinds, s.n, A, listA);
      if (call === "selfPairs") return jsSelf(s, listA, na, out, cap);
      const nb = gather(world.groups, world.kinds, s.n, B, listB);
      return jsCross(s, listA, na, listB, nb, out, cap, call === "firstHits" ? flags : null);
    },
    pairs: () => out,
    flags: () => flags,
  };
}

interface Stores { x: Float32Array; y: Float32Array; a: Float32Array; b: Float32Array; kinds: Uint8Array; n: number }

/** The live slots in `mask`, into list; returns how many. */
function gather(groups: Uint32Array, kinds: Uint8Array, n: number, mask: number, list: Int32Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) if ((groups[i] & mask) !== 0 && kinds[i] !== 0) list[m++] = i;
  return m;
}

/** selfPairs' double loop: two points inline, other kinds through overlapJs. */
function jsSelf(s: Stores, list: Int32Array, m: number, out: Int32Array, cap: number): number {
  const { x, y, a, b, kinds } = s;
  let found = 0;
  for (let p = 0; p < m; p++) {
    const i = list[p], ki = kinds[i], xi = x[i], yi = y[i], ai = a[i], bi = b[i];
    for (let q = p + 1; q < m; q++) {
      const j = list[q], kj = kinds[j];
      if (ki === 1 && kj === 1 ? !(x[j] === xi && y[j] === yi) : !overlapJs(ki, xi, yi, ai, bi, kj, x[j], y[j], a[j], b[j])) continue;
      if (found < cap) { out[2 * found] = i; out[2 * found + 1] = j; }
      found++;
    }
  }
  return found;
}

/** crossPairs' double loop, or with `flags` firstHits' (exclusive: an enemy absorbs one bullet). */
function jsCross(s: Stores, la: Int32Array, na: number, lb: Int32Array, nb: number, out: Int32Array, cap: number, flags: Uint8Array | null): number {
  const { x, y, a, b, kinds } = s;
  let found = 0;
  flags?.fill(0);
  for (let p = 0; p < na; p++) {
    const i = la[p], ki = kinds[i], xi = x[i], yi = y[i], ai = a[i], bi = b[i];
    for (let q = 0; q < nb; q++) {
      const j = lb[q], kj = kinds[j];
      if (i === j || (flags && (flags[j] & 2) !== 0)) continue;
      if (ki === 1 && kj === 1 ? !(x[j] === xi && y[j] === yi) : !overlapJs(ki, xi, yi, ai, bi, kj, x[j], y[j], a[j], b[j])) continue;
      if (found < cap) { out[2 * found] = i; out[2 * found + 1] = j; }
      found++;
      if (flags) { flags[j] |= 2; flags[i] |= 1; break; }
    }
  }
  return found;
}

/** The core's exact test (assembly/shapes.ts): 1 point, 2 circle, 3 rect; f64 on the stored f32s. */
function overlapJs(ki: number, xi: number, yi: number, ai: number, bi: number, kj: number, xj: number, yj: number, aj: number, bj: number): boolean {
  if (ki > kj) return overlapJs(kj, xj, yj, aj, bj, ki, xi, yi, ai, bi);
  if (ki === 1) {
    if (kj === 1) return xi === xj && yi === yj;
    if (kj === 2) return (xi - xj) ** 2 + (yi - yj) ** 2 < aj * aj;
    return xi > xj && xi < xj + aj && yi > yj && yi < yj + bj;
  }
  if (ki === 2) {
    if (kj === 2) return (xi - xj) ** 2 + (yi - yj) ** 2 < (ai + aj) ** 2;
    const l = xj, t = yj, r = xj + aj, bt = yj + bj;
    if (xi + ai < l || xi - ai > r || yi + ai < t || yi - ai > bt) return false;
    const dx = xi < l ? xi - l : xi > r ? xi - r : 0, dy = yi < t ? yi - t : yi > bt ? yi - bt : 0;
    return dx === 0 || dy === 0 || dx * dx + dy * dy < ai * ai;
  }
  return !(xi + ai < xj || xi > xj + aj || yi + bi < yj || yi > yj + bj);
}

/** The grid's call; returns the total (the pairs written plus those the capacity dropped). */
function call(world: World, c: Call): number {
  const n = c === "selfPairs" ? world.selfPairs(A) : c === "crossPairs" ? world.crossPairs(A, B) : world.firstHits(A, B);
  return n + world.droppedPairs;
}

/** The first min(total, cap) pairs as sorted keys. */
function pairKeys(pairs: Int32Array, total: number, cap: number): Float64Array {
  const m = Math.min(total, cap), keys = new Float64Array(m);
  for (let k = 0; k < m; k++) keys[k] = pairs[2 * k] * 4194304 + pairs[2 * k + 1];
  return keys.sort();
}

const same = (p: ArrayLike<number>, q: ArrayLike<number>) => p.length === q.length && Array.prototype.every.call(p, (v: number, k: number) => v === q[k]);

function median(v: number[]): number {
  const s = [...v].sort((p, q) => p - q);
  return s[s.length >> 1];
}

/** Runs the crowded-cell cases; writes bench/results/crowded.md and returns its section. */
export async function benchCrowded(): Promise<string[]> {
  const brute = await bruteModule();
  const rows: string[] = [];
  const only = process.env.BENCH_CROWDED_ONLY; // a part of "call scene" (e.g. "crossPairs points on one spot")
  const cases = SIZES.flatMap((n) => SCENES.filter((s) => !only || `${s.call} ${s.name}`.includes(only)).map((scene) => ({ n, scene })));
  // A case's work grows as N squared (the double loops).
  const progress = new Progress("crowded", cases.length * CORES.length, cases.reduce((sum, c) => sum + c.n * c.n * CORES.length, 0));
  for (const { n, scene } of cases) {
    const cap = 2 * n; // the default pair capacity; growPairs off, so a call stops there and counts the rest
    let rand = 1;
    const seeded = () => ((rand = (Math.imul(rand, 1664525) + 1013904223) >>> 0) / 4294967296);
    const placed = Array.from({ length: n }, (_, k) => scene.place(k, seeded));
    let first: { total: number; pairs: Int32Array; flags: Uint8Array } | undefined;
    for (const [coreName, options] of CORES) {
      progress.step(`${scene.call} ${scene.name}, N=${n}, ${coreName}`, n * n);
      const world = await createWorld({ ...options, capacity: n, cellSize: CELL, pairCapacity: cap, growPairs: false });
      for (const [x, y, g] of placed) world.addPoint(x, y, g);
      const loop = options.backend === "js" ? jsLoop(cap) : wasmLoop(brute, cap);
      loop.load(world);
      // Agreement first: the grid against the loop, and every core against the first.
      const total = call(world, scene.call), looped = loop.run(scene.call);
      const stats = world.stats();
      if (stats.cols !== 1 || stats.rows !== 1) throw new Error(`${scene.name} N=${n} ${coreName}: ${stats.cols} x ${stats.rows} cells, not one`);
      if (total !== looped) throw new Error(`${scene.call} ${scene.name} N=${n} ${coreName}: the grid found ${total} pairs, the double loop ${looped}`);
      const mine = { total, pairs: world.pairs.slice(0, 2 * Math.min(total, cap)), flags: world.flags.slice(0, n) };
      if (scene.call === "firstHits") {
        if (!same(mine.pairs, loop.pairs().subarray(0, mine.pairs.length)) || !same(mine.flags, loop.flags())) throw new Error(`firstHits ${scene.name} N=${n} ${coreName}: hits differ from the double loop's`);
      } else if (total <= cap && !same(pairKeys(mine.pairs, total, cap), pairKeys(loop.pairs(), looped, cap))) {
        throw new Error(`${scene.call} ${scene.name} N=${n} ${coreName}: pairs differ from the double loop's`);
      }
      if (first && !(first.total === total && same(first.pairs, mine.pairs) && same(first.flags, mine.flags))) throw new Error(`${scene.call} ${scene.name} N=${n}: ${coreName} differs from ${CORES[0][0]} (pairs, order or flags)`);
      first ??= mine;
      const grid: number[] = [], plain: number[] = [];
      for (let r = 0; r < REPEATS; r++) {
        let t = performance.now();
        call(world, scene.call);
        grid.push(performance.now() - t);
        t = performance.now();
        loop.run(scene.call);
        plain.push(performance.now() - t);
      }
      const g = median(grid), p = median(plain);
      const row = `| ${scene.call} | ${scene.name} | ${n.toLocaleString("en-US")} | ${coreName} | ${total.toLocaleString("en-US")} | ${g.toFixed(1)} | ${p.toFixed(1)} | ${(g / p).toFixed(3)} |`;
      rows.push(row);
      console.log(row);
    }
  }
  progress.done();
  const section = [
    "## Everything in one cell",
    "",
    `N points in one cell (cellSize ${CELL.toExponential(2)}, the points within ${SPREAD} units): the grid's call against a plain double loop over the same stores with the same exact test and pair output, in the language the core runs (AssemblyScript, scalar, for the wasm cores; JavaScript over the world's views for the js backend). Pair capacity 2N, growPairs off: a call writes the first 2N pairs and counts the rest, as the loop does. Median ms of ${REPEATS} calls each, grid and loop alternating. Before timing, each core's pairs equal the loop's (firstHits: pairs and flags in order) and every core's pairs, order included, equal the SIMD core's.`,
    "",
    "| call | scene | N | core | pairs | grid ms | double loop ms | grid / loop |",
    "|---|---|---:|---|---:|---:|---:|---:|",
    ...rows,
    "",
  ];
  const results = new URL("../../bench/results/", import.meta.url);
  mkdirSync(results, { recursive: true });
  const sizes = process.env.BENCH_CROWDED_SIZES ? `BENCH_CROWDED_SIZES=${process.env.BENCH_CROWDED_SIZES} ` : "";
  writeFileSync(new URL("crowded.md", results), [
    "# hitcore benchmark: everything in one cell", "", `Machine: ${machine()}`, "",
    `Command: \`${sizes}BENCH_ONLY=crowded npm run bench\``, "", ...section,
  ].join("\n"));
  return section;
}
