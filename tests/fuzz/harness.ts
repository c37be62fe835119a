// The fuzz harness: every public method of every part of a world (bodies and queries, casts,
// moveBodies, overlapLevel, controllerContacts, the rect level, the platforms, the tile map,
// loadLevel, snapshot and restore) called with hostile arguments interleaved with valid ones, on
// one backend. fast-check draws the programs (which method, which arguments) from a seed; the
// harness runs them and counts:
//   - traps: a WebAssembly.RuntimeError out of any call;
//   - foreign: any other exception that is not a HitcoreError;
//   - changed: a call refused with a HitcoreError after which world.snapshot() differs, byte for
//     byte, from the snapshot taken just before it (the snapshot holds the core's whole memory,
//     every view's contents included, and the facade's state);
//   - wrong: an answer of a valid call that disagrees with the brute-force references of tests/
//     (reference.ts, rect_reference.ts, platforms_reference.ts, tiles_reference.ts), sampled, and
//     a validate() that throws on a world only valid calls touched.
// Shared by the CI slice (tests/fuzz/fuzz.test.ts) and `npm run fuzz` (tests/fuzz/run.ts).
import fc from "fast-check";
import {
  circleCircle, HitcoreError, IdKind, NULL_ID, overlapShapes, pointInCircle, pointInRect, rectCircle, rectRect,
  type CreateOptions, type Platforms, type RectLevel, type TileMap, type World,
} from "../../bindings/node.js";
import { crc32 } from "../../bindings/snapshot.js";
import { ARENA_BASE, HEADERS_END } from "../../layout/grid.js";
import { detect, inside, levelOf } from "../platforms_reference.js";
import { refCrossPairs, refFirstHits, refQuery, refSelfPairs, shapeAt, type Shape } from "../reference.js";
import { RefMap } from "../tiles_reference.js";
import {
  arrayPlan, bool, coord, FIRST_READS, groups, hostile, int, makeArray, motion, mostly, oneOf, real, size, type Arg, type ArrayPlan,
} from "./values.js";

/** What a run counts. */
export interface FuzzCounts {
  calls: number;
  /** Calls that returned. */
  returned: number;
  /** Calls refused with a HitcoreError. */
  refused: number;
  traps: number;
  foreign: number;
  changed: number;
  wrong: number;
  /** Answers compared with a reference. */
  checked: number;
  worlds: number;
  /** The slowest call (ms and what it was), reported, not judged: the machine is shared. */
  slowest: [number, string];
  /** Calls that grew a world past BIG_WORLD bytes (accepted: counts within the documented limits), which ended that world. */
  big: string[];
  /** The first few failures, with the op, its arguments and what went wrong. */
  examples: string[];
  /** Every failure by kind, op and message (numbers left out): how many times each was seen. */
  classes: Record<string, number>;
}

export interface FuzzOptions {
  /** Makes a world on the backend under test. */
  create: (options: CreateOptions) => Promise<World>;
  seed: number;
  /** Calls to make (the last world's program is cut to fit). */
  calls: number;
  /** Calls per world before a fresh one (default 300). */
  perWorld?: number;
  /** Fraction of valid query answers compared with a reference (default 0.25). */
  checkRate?: number;
  /** Called with the world right after a wrong answer (to look into it). */
  onWrong?: (world: World, op: string, args: unknown[], why: string) => void;
  /** Called before every call (to find a call that does not return). */
  trace?: (call: number, op: string, args: unknown[]) => void;
  /** Ops left out (the CI slice leaves out the ones with known, reported failures). */
  skip?: readonly string[];
  /** Called with a call that took over 2 s, the level kind (levelOptions) and the snapshot before it, to replay it. */
  slow?: (call: { level: number; op: string; args: string[]; ms: number; before: Uint8Array }) => void;
  /** Called after every world with the counts so far. */
  progress?: (counts: FuzzCounts) => void;
}

type Pools = number[][]; // live handles per IdKind

interface Saved { bytes: Uint8Array; live: Pools; dead: Pools; points: number[] | null }

/** What the ops see: the world and its parts (any: the fuzz passes what the types forbid), the handles it knows. */
export interface Ctx {
  world: any;
  tm: any;
  rl: any;
  pl: any;
  live: Pools;
  dead: Pools;
  foreign: Pools;
  saved: Saved | null;
  emptySnapshot: Uint8Array;
  /** A value a prep wrote into a view, to put back after the call: [view getter, index, old value]. */
  undo: [() => { [k: number]: number }, number, number][];
  /** A prep wrote a value that is not valid: the answer is not compared, and validate may refuse. */
  poisoned: boolean;
  rand: () => number;
  /** The collision points the map holds (setPoints), when known; the last array given to setPoints. */
  points: number[] | null;
  lastPoints: unknown;
}

const KINDS = 9;
/** Memory past which a world ends (64 MiB): the snapshot at every call would take longer than the calls. */
const BIG_WORLD = 64 * 1048576;
const pools = (): Pools => Array.from({ length: KINDS }, () => []);
const copyPools = (p: Pools): Pools => p.map((a) => a.slice());

function pick(pool: number[], i: number): number {
  return pool.length === 0 ? NULL_ID : pool[i % pool.length];
}

/** A handle of kind `kind`: live most of the time, else removed, another world's, another kind's, made up or hostile. */
function id(kind: number): fc.Arbitrary<Arg<Ctx>> {
  return fc.oneof(
    { arbitrary: fc.nat().map((i) => (c: Ctx) => pick(c.live[kind], i)), weight: 8 },
    { arbitrary: fc.nat().map((i) => (c: Ctx) => pick(c.dead[kind], i)), weight: 1 },
    { arbitrary: fc.nat().map((i) => (c: Ctx) => pick(c.foreign[kind], i)), weight: 1 },
    { arbitrary: fc.tuple(fc.nat(KINDS - 1), fc.nat()).map(([k, i]) => (c: Ctx) => pick(c.live[k], i)), weight: 1 },
    { arbitrary: fc.oneof(fc.integer(), fc.double()).map((v) => () => v), weight: 1 },
    { arbitrary: hostile as fc.Arbitrary<Arg<Ctx>>, weight: 1 },
  );
}

const plan = arrayPlan.map((p) => () => p);
const nothing: fc.Arbitrary<Arg<Ctx>>[] = [];

interface Op {
  name: string;
  weight: number;
  args: fc.Arbitrary<Arg<Ctx>>[];
  /** Which part the op needs (skipped when the world has none). */
  part?: "tm" | "rl" | "pl";
  /** Writes into views before the call (and before the snapshot); puts entries in ctx.undo. */
  prep?: (c: Ctx, v: unknown[]) => void;
  run: (c: Ctx, v: unknown[]) => unknown;
  /** Updates the known handles after a call that returned. */
  after?: (c: Ctx, v: unknown[], result: unknown) => void;
  /** Compares a returned answer with the reference: a description of the disagreement, or null. */
  check?: (c: Ctx, v: unknown[], result: unknown) => string | null;
  /** The call must not be refused (validate on a world only valid calls touched). */
  mustPass?: boolean;
}

const ops: Op[] = [];
function op(name: string, weight: number, args: fc.Arbitrary<Arg<Ctx>>[], run: Op["run"], more: Partial<Op> = {}): void {
  const part = name.startsWith("tm.") ? "tm" : name.startsWith("rl.") ? "rl" : name.startsWith("pl.") ? "pl" : undefined;
  ops.push({ name, weight, args, run, part, ...more });
}

const added = (kind: number) => (c: Ctx, _v: unknown[], r: unknown) => { c.live[kind].push(r as number); };
const removed = (kind: number, at = 0) => (c: Ctx, v: unknown[]) => {
  const i = c.live[kind].indexOf(v[at] as number);
  if (i >= 0) c.dead[kind].push(...c.live[kind].splice(i, 1));
};
const addedAll = (kind: number) => (c: Ctx, _v: unknown[], r: unknown) => { c.live[kind].push(...(r as number[])); };

function sortedKeys(pairs: Int32Array, n: number, unordered: boolean): number[] {
  const keys: number[] = [];
  for (let k = 0; k < n; k++) {
    let a = pairs[2 * k], b = pairs[2 * k + 1];
    if (unordered && a > b) [a, b] = [b, a];
    keys.push(a * 4194304 + b);
  }
  return keys.sort((p, q) => p - q);
}
const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
/** The pairs a query returned against the reference's: all of them, or with growPairs false the first ones and droppedPairs more. */
function samePairs(world: World, got: number[], want: number[]): boolean {
  if (world.droppedPairs === 0) return same(got, want);
  const all = new Set(want);
  return got.length + world.droppedPairs === want.length && got.every((k) => all.has(k));
}
const differ = (what: string, got: unknown, want: unknown) => `${what}: got ${JSON.stringify(got).slice(0, 200)}, want ${JSON.stringify(want).slice(0, 200)}`;
const results = (view: Int32Array, n: number) => Array.from(view.subarray(0, n)).sort((a, b) => a - b);

// ---- the world's bodies and queries --------------------------------------------------------

op("addPoint", 6, [coord(), coord(), groups()], (c, v) => c.world.addPoint(...v), { after: added(IdKind.Body) });
op("addCircle", 8, [coord(), coord(), size(), groups()], (c, v) => c.world.addCircle(...v), { after: added(IdKind.Body) });
op("addRect", 8, [coord(), coord(), size(), size(), groups()], (c, v) => c.world.addRect(...v), { after: added(IdKind.Body) });
op("remove", 5, [id(IdKind.Body)], (c, v) => c.world.remove(v[0]), { after: removed(IdKind.Body) });
op("clear", 0.1, nothing, (c) => c.world.clear(), { after: (c) => { c.dead[0].push(...c.live[0]); c.live[0] = []; } });
op("has", 1, [id(IdKind.Body)], (c, v) => c.world.has(v[0]));
op("indexOf", 1, [id(IdKind.Body)], (c, v) => c.world.indexOf(v[0]));
op("idAt", 1, [int(-2, 300)], (c, v) => c.world.idAt(v[0]));
op("kindOf", 1, [id(IdKind.Body)], (c, v) => c.world.kindOf(v[0]));
op("setPosition", 3, [id(IdKind.Body), coord(), coord()], (c, v) => c.world.setPosition(...v));
op("setCircle", 2, [id(IdKind.Body), coord(), coord(), size()], (c, v) => c.world.setCircle(...v));
op("setRect", 2, [id(IdKind.Body), coord(), coord(), size(), size()], (c, v) => c.world.setRect(...v));
op("setPoint", 2, [id(IdKind.Body), coord(), coord()], (c, v) => c.world.setPoint(...v));
op("setGroups", 2, [id(IdKind.Body), groups()], (c, v) => c.world.setGroups(...v));
op("setCellSize", 1, [oneOf(0, 4, 16, 64, 1000)], (c, v) => c.world.setCellSize(v[0]));
function setPositions(c: Ctx, px: ArrayPlan, py: ArrayPlan): unknown {
  const w = c.world, n = w.count, x = w.x, y = w.y;
  const xs: number[] = [], ys: number[] = [];
  for (let s = 0; s < n; s++) { xs.push(x[s] + ((s * 7) % 5) - 2); ys.push(y[s] - ((s * 3) % 5) + 2); }
  return w.setPositions(makeArray(xs, px), makeArray(ys, py));
}
// Arrays of the wrong length or type, or no array: refused before anything is staged.
op("setPositions", 3, [plan, plan], (c, v) => {
  const [px, py] = (v as ArrayPlan[]).map((p) => (p.fault === "element" ? { ...p, fault: "none" as const } : p));
  return setPositions(c, px, py);
});
// One number that is not a coordinate: the core refuses it after the arrays were staged in its scratch.
op("setPositions.badNumber", 1, [plan, plan], (c, v) => setPositions(c, { ...(v[0] as ArrayPlan), fault: "element" }, v[1] as ArrayPlan));

function checkSelf(c: Ctx, v: unknown[], n: unknown): string | null {
  const mask = v[0] === undefined ? 0xffffffff : (v[0] as number);
  const got = sortedKeys(c.world.pairs, n as number, true), want = refSelfPairs(c.world, mask);
  return samePairs(c.world, got, want) ? null : differ(`selfPairs(${mask})`, got, want);
}
op("selfPairs", 4, [groups()], (c, v) => c.world.selfPairs(v[0]), { check: checkSelf });
// The stateless shape tests: a boolean, or a HitcoreError for an argument that is no number.
const shapeArgs = (n: number) => Array.from({ length: n }, () => coord<Ctx>());
op("pointInRect", 1, shapeArgs(6), (_c, v) => (pointInRect as (...a: unknown[]) => boolean)(...v));
op("pointInCircle", 1, shapeArgs(5), (_c, v) => (pointInCircle as (...a: unknown[]) => boolean)(...v));
op("rectRect", 1, shapeArgs(8), (_c, v) => (rectRect as (...a: unknown[]) => boolean)(...v));
op("circleCircle", 1, shapeArgs(6), (_c, v) => (circleCircle as (...a: unknown[]) => boolean)(...v));
op("rectCircle", 1, shapeArgs(7), (_c, v) => (rectCircle as (...a: unknown[]) => boolean)(...v));
op("overlapShapes", 1, [oneOf(1, 2, 3), ...shapeArgs(4), oneOf(1, 2, 3), ...shapeArgs(4)], (_c, v) => (overlapShapes as (...a: unknown[]) => boolean)(...v));
op("crossPairs", 4, [groups(), groups()], (c, v) => c.world.crossPairs(v[0], v[1]), {
  check: (c, v, n) => {
    const got = sortedKeys(c.world.pairs, n as number, false), want = refCrossPairs(c.world, v[0] as number, v[1] as number);
    return samePairs(c.world, got, want) ? null : differ(`crossPairs(${v[0]}, ${v[1]})`, got, want);
  },
});
op("firstHits", 4, [groups(), groups(), bool()], (c, v) => c.world.firstHits(v[0], v[1], v[2]), {
  check: (c, v, n) => {
    if (c.world.droppedPairs > 0) return null; // the hits past the pair buffer are not written: the reference does not say which
    const want = refFirstHits(c.world, v[0] as number, v[1] as number, (v[2] ?? true) as boolean);
    const got = Array.from((c.world.pairs as Int32Array).subarray(0, 2 * (n as number)));
    if (!same(got, want.pairs)) return differ(`firstHits(${v[0]}, ${v[1]}, ${v[2]}) pairs`, got, want.pairs);
    const flags = Array.from(c.world.flags as Uint8Array).slice(0, c.world.count).map((f, s) => (c.world.kinds[s] ? f & 3 : 0));
    return same(flags, want.flags) ? null : differ("firstHits flags", flags, want.flags);
  },
});
op("buildGrid", 1, [groups()], (c, v) => c.world.buildGrid(v[0]));
const probeCheck = (name: string, probe: (v: number[]) => Shape, maskAt: number) => (c: Ctx, v: unknown[], n: unknown) => {
  // The probe as the world holds it: in its f32 stores, as every shape (a subnormal y is -0 there).
  const shape = probe(v as number[]), f = Math.fround;
  const stored = { kind: shape.kind, x: f(shape.x), y: f(shape.y), a: f(shape.a), b: f(shape.b) };
  const got = results(c.world.results, n as number), want = refQuery(c.world, stored, (v[maskAt] ?? 0xffffffff) as number);
  return same(got, want) ? null : differ(`${name}(${v.join(", ")})`, got, want);
};
op("queryRect", 3, [coord(), coord(), size(), size(), groups()], (c, v) => c.world.queryRect(...v), {
  check: probeCheck("queryRect", (v) => ({ kind: 3, x: v[0], y: v[1], a: v[2], b: v[3] }), 4),
});
op("queryCircle", 3, [coord(), coord(), size(), groups()], (c, v) => c.world.queryCircle(...v), {
  check: probeCheck("queryCircle", (v) => ({ kind: 2, x: v[0], y: v[1], a: v[2], b: 0 }), 3),
});
op("queryPoint", 3, [coord(), coord(), groups()], (c, v) => c.world.queryPoint(...v), {
  check: probeCheck("queryPoint", (v) => ({ kind: 1, x: v[0], y: v[1], a: 0, b: 0 }), 2),
});
op("touching", 3, [id(IdKind.Body), groups()], (c, v) => c.world.touching(v[0], v[1]), {
  check: (c, v, n) => {
    const slot = c.world.indexOf(v[0]);
    const got = results(c.world.results, n as number), want = refQuery(c.world, shapeAt(c.world, slot), (v[1] ?? 0xffffffff) as number, slot);
    return same(got, want) ? null : differ(`touching(slot ${slot}, ${v[1]})`, got, want);
  },
});
op("stats", 0.5, nothing, (c) => c.world.stats());
op("validate", 1, nothing, (c) => c.world.validate(), { mustPass: true });

// A value written straight into a body view, then a query over the bodies: the query refuses
// with INVALID_ENTITY (and changes nothing) or skips the slot; the value is put back after.
const BAD_VIEW_VALUES = [NaN, Infinity, -Infinity, 1e31, -1e31, 3e38, -5];
function viewWrite(name: string, queries: ((w: any) => unknown)[]): void {
  op(name, 1, [fc.nat().map((i) => () => i), fc.nat(3).map((i) => () => i), fc.nat(BAD_VIEW_VALUES.length - 1).map((i) => () => BAD_VIEW_VALUES[i]), fc.nat(queries.length - 1).map((i) => () => i)],
    (c, v) => queries[v[3] as number](c.world), { prep: viewPrep });
}
const viewPrep = (c: Ctx, v: unknown[]) => {
  const w = c.world, id = pick(c.live[IdKind.Body], v[0] as number);
  if (!w.has(id)) return;
  const slot = w.indexOf(id), field = ["x", "y", "a", "b"][v[1] as number];
  const view = () => w[field];
  c.undo.push([view, slot, view()[slot]]);
  view()[slot] = v[2] as number;
  c.poisoned = true;
};
// Calls that check every body before they write anything.
viewWrite("viewWrite", [(w) => w.overlapLevel(), (w) => w.moveBodies()]);
// The grid's pair and probe queries, which find a bad value while they run (the grid's scratch, the
// probe slot, the results and the header's counts already written).
viewWrite("viewWrite.grid", [(w) => w.selfPairs(), (w) => w.crossPairs(1, 2), (w) => w.firstHits(1, 2), (w) => w.controllerContacts(),
  (w) => w.queryRect(0, 0, 500, 500), (w) => w.touching(w.idAt(0))]);

// ---- casts, moves, overlaps, contacts across the parts ---------------------------------------

op("castSegment", 2, [coord(), coord(), motion(), motion(), groups()], (c, v) => c.world.castSegment(...v));
op("castRay", 2, [coord(), coord(), motion(), motion(), size(), groups()], (c, v) => c.world.castRay(...v));
op("castCircle", 2, [coord(), coord(), size(), motion(), motion(), groups()], (c, v) => c.world.castCircle(...v));
op("castBox", 2, [coord(), coord(), size(), size(), motion(), motion(), groups()], (c, v) => c.world.castBox(...v));
op("ensureCasts", 1, [int(0, 64)], (c, v) => c.world.ensureCasts(v[0]));
op("castMany", 2, [int(0, 40), oneOf(0, 1, 2), groups(), fc.nat().map((i) => () => i)], (c, v) => c.world.castMany(v[0], v[1], v[2]), {
  prep: (c, v) => {
    const inputs = c.world.castInputs as Float32Array, seed = v[3] as number;
    for (let k = 0; k < inputs.length; k++) {
      const r = ((seed + k * 2654435761) >>> 0) % 1000;
      inputs[k] = k % 6 < 2 ? r : k % 6 < 4 ? r / 4 - 125 : r % 8;
    }
    if (seed % 5 === 0 && inputs.length > 0) {
      c.undo.push([() => c.world.castInputs, seed % inputs.length, inputs[seed % inputs.length]]);
      inputs[seed % inputs.length] = BAD_VIEW_VALUES[seed % BAD_VIEW_VALUES.length];
      c.poisoned = true;
    }
  },
});
op("moveBodies", 3, [groups(), oneOf(0, 1, 2, 3), real(0, 1), groups(), fc.nat().map((i) => () => i)], (c, v) => c.world.moveBodies(v[0], v[1], v[2], v[3]), {
  prep: (c, v) => {
    const w = c.world, vx = w.vx as Float32Array, vy = w.vy as Float32Array, seed = v[4] as number;
    for (let s = 0; s < w.count; s++) { vx[s] = ((seed + 13 * s) % 81) - 40; vy[s] = ((seed + 7 * s) % 61) - 30; }
    if (seed % 6 === 0 && w.count > 0) {
      const slot = seed % w.count;
      c.undo.push([() => c.world.vx, slot, vx[slot]]);
      vx[slot] = BAD_VIEW_VALUES[seed % BAD_VIEW_VALUES.length];
      c.poisoned = true;
    }
  },
});
op("overlapLevel", 2, [groups()], (c, v) => c.world.overlapLevel(v[0]));
op("controllerContacts", 2, [groups(), groups()], (c, v) => c.world.controllerContacts(v[0], v[1]));
op("setLevelGroups", 1, [oneOf(0, 1, 2, 3, 4, 5), groups()], (c, v) => c.world.setLevelGroups(v[0], v[1]));
op("setResponse", 1, [oneOf(1, 2, 4, 3, 0, 2 ** 31), oneOf(0, 1, 2, 3), real(0, 1)], (c, v) => c.world.setResponse(...v));
op("loadLevel", 0.3, nothing, (c) => c.world.loadLevel({ ascii: ["X"] }));
op("addTileMap", 0.2, nothing, (c) => c.world.addTileMap({ cols: 2, rows: 2 }));

// ---- snapshot and restore --------------------------------------------------------------------

op("snapshot", 1, nothing, (c) => c.world.snapshot(), {
  after: (c, _v, r) => { c.saved = { bytes: r as Uint8Array, live: copyPools(c.live), dead: copyPools(c.dead), points: c.points }; },
});
op("restore", 1.5, [fc.nat(7).map((i) => () => i), fc.nat().map((i) => () => i), fc.nat(255).map((i) => () => i)], (c, v) => {
  const kind = v[0] as number, at = v[1] as number, byte = v[2] as number;
  const saved = c.saved?.bytes ?? c.world.snapshot();
  switch (kind) {
    case 0: case 1: return c.world.restore(c.saved ? saved : c.world.snapshot());
    case 2: return c.world.restore(saved.slice(0, at % saved.length));
    case 3: { const b = saved.slice(); b[at % b.length] ^= byte | 1; return c.world.restore(b); }
    case 4: { // a byte changed past the checksum, the checksum made to match: the decoder's and restore's own checks
      // Every other time in the parts' headers (the first HEADERS_END bytes of the memory, after the state), which the core trusts.
      const b = saved.slice(), memoryAt = 24 + new DataView(b.buffer).getUint32(12, true);
      const i = at & 1 ? memoryAt + ((at >>> 1) % HEADERS_END) : 24 + (at % (b.length - 24));
      b[i] ^= byte | 1;
      new DataView(b.buffer).setUint32(20, crc32(b.subarray(24)), true);
      return c.world.restore(b);
    }
    case 5: return c.world.restore(c.emptySnapshot);
    case 6: return c.world.restore(Array.from(saved));
    default: return c.world.restore(HOSTILE_RESTORE[at % HOSTILE_RESTORE.length]());
  }
}, {
  after: (c, v) => {
    // A restore that took: the handles are those of the snapshot (a tampered one that passed every
    // check is kept too: then the ids are the saved ones, and the world must still validate).
    if (c.saved && (v[0] as number) !== 5) { c.live = copyPools(c.saved.live); c.dead = copyPools(c.saved.dead); c.points = c.saved.points; }
  },
});
const HOSTILE_RESTORE = [() => undefined, () => null, () => new Uint8Array(0), () => new Uint16Array(8), () => "HITCORE", () => ({ length: 24 }), () => new ArrayBuffer(64)];

// ---- the rect level ---------------------------------------------------------------------------

function rectsFrom(p: ArrayPlan): unknown {
  const n = 1 + (p.at % 4), r: number[] = [];
  for (let k = 0; k < n; k++) r.push(((p.at >> (k + 2)) % 40) * 2, ((p.at >> k) % 30) * 2, 1 + ((p.at >> (k + 1)) % 48), 1 + ((p.at >> (k + 3)) % 24));
  return makeArray(r, p, 4);
}
op("rl.addPrefab", 2, [plan], (c, v) => c.rl.addPrefab(rectsFrom((v[0] as ArrayPlan))), { after: added(IdKind.Prefab) });
op("rl.addInstance", 3, [id(IdKind.Prefab), coord(), coord(), oneOf(0, 1, 2, 3, 4)], (c, v) => c.rl.addInstance(...v), { after: added(IdKind.Instance) });
op("rl.build", 0.5, nothing, (c) => c.rl.build());
op("rl.queryBox", 3, [coord(), coord(), coord(), coord(), oneOf(0, 1, 2)], (c, v) => c.rl.queryBox(...v), {
  check: (c, v, n) => {
    const rl = c.rl as RectLevel, out = new Float64Array(4), want: number[] = [];
    if (v.slice(0, 4).some((a) => typeof a !== "number")) return null; // refused unless numbers
    const [x0, y0, x1, y1] = v as number[];
    for (let i = 0; i < rl.instanceCount; i++) {
      rl.instanceBox(rl.idAt(IdKind.Instance, i), out);
      if (x0 <= out[2] && out[0] <= x1 && y0 <= out[3] && out[1] <= y1) want.push(i);
    }
    const got = results(rl.results, n as number);
    return same(got, want) ? null : differ(`rl.queryBox(${v.join(", ")})`, got, want);
  },
});
const out64 = fc.nat(5).map((k) => () => [new Float64Array(4), new Float64Array(4), new Float32Array(4), new Float64Array(2), [], null][k]);
op("rl.instanceBox", 1, [id(IdKind.Instance), mostly(out64)], (c, v) => c.rl.instanceBox(v[0], v[1]));
op("rl.instanceRectCount", 1, [id(IdKind.Instance)], (c, v) => c.rl.instanceRectCount(v[0]));
op("rl.prefabRectCount", 1, [id(IdKind.Prefab)], (c, v) => c.rl.prefabRectCount(v[0]));
op("rl.worldRect", 1, [id(IdKind.Instance), int(-1, 5), mostly(out64)], (c, v) => c.rl.worldRect(v[0], v[1], v[2]));
op("rl.statsInto", 0.5, [mostly(fc.nat(3).map((k) => () => [new Int32Array(5), new Int32Array(2), new Float64Array(5), {}][k]))], (c, v) => c.rl.statsInto(v[0]));
const CONFIG_KEYS = ["gravity", "maxFall", "runSpeed", "jumpSpeed", "extraPull", "graceFrames", "sensorTop", "sensorBottom", "stepHeight", "inset", "bounce", "nonsense", "__proto__"];
op("rl.setCharacterConfig", 1, [fc.nat(CONFIG_KEYS.length - 1).map((k) => () => k), real(0, 900), fc.nat(3).map((k) => () => k)], (c, v) => {
  const shape = v[2] as number, key = CONFIG_KEYS[v[0] as number];
  if (shape === 3) return c.rl.setCharacterConfig(v[1]);
  const config = shape === 2 ? Object.create(null) : {};
  Object.defineProperty(config, key, { value: v[1], enumerable: true });
  return c.rl.setCharacterConfig(config);
});
op("rl.addCharacter", 2, [coord(), coord(), size(), size(), oneOf(0, 1, 2, 3)], (c, v) => c.rl.addCharacter(...v), { after: added(IdKind.Character) });
op("rl.removeCharacter", 1, [id(IdKind.Character)], (c, v) => c.rl.removeCharacter(v[0]), { after: removed(IdKind.Character) });
op("rl.placeCharacter", 1, [id(IdKind.Character), coord(), coord()], (c, v) => c.rl.placeCharacter(...v));
op("rl.stepCharacters", 2, [oneOf(0, 1, 2), fc.nat().map((i) => () => i)], (c, v) => c.rl.stepCharacters(v[0]), {
  prep: (c, v) => { const input = c.rl.charInput as Int32Array; for (let k = 0; k < input.length; k++) input[k] = ((v[1] as number) >> k) & 31; },
});
op("rl.castSegment", 1, [coord(), coord(), motion(), motion()], (c, v) => c.rl.castSegment(...v));
op("rl.castRay", 1, [coord(), coord(), motion(), motion(), size()], (c, v) => c.rl.castRay(...v));
op("rl.castBox", 1, [coord(), coord(), size(), size(), motion(), motion()], (c, v) => c.rl.castBox(...v));
op("rl.castCircle", 1, [coord(), coord(), size(), motion(), motion()], (c, v) => c.rl.castCircle(...v));
op("rl.reserveProjectiles", 1, [int(0, 64)], (c, v) => c.rl.reserveProjectiles(v[0]));
op("rl.moveProjectiles", 2, [int(0, 70), fc.nat().map((i) => () => i)], (c, v) => c.rl.moveProjectiles(v[0]), {
  prep: (c, v) => {
    const rl = c.rl, seed = v[1] as number, n = (rl.projX as Float32Array).length;
    const views = [rl.projX, rl.projY, rl.projVX, rl.projVY, rl.projR] as Float32Array[];
    for (let k = 0; k < n; k++) {
      views[0][k] = (seed + 97 * k) % 1000; views[1][k] = (seed + 31 * k) % 600;
      views[2][k] = ((seed + k) % 201) - 100; views[3][k] = ((seed + 3 * k) % 201) - 100; views[4][k] = (seed + k) % 9;
    }
    if (seed % 5 === 0 && n > 0) {
      const f = seed % 5, k = seed % n, names = ["projX", "projY", "projVX", "projVY", "projR"];
      c.undo.push([() => c.rl[names[f]], k, views[f][k]]);
      views[f][k] = BAD_VIEW_VALUES[seed % BAD_VIEW_VALUES.length];
      c.poisoned = true;
    }
  },
});
op("rl.has", 0.5, [id(IdKind.Instance)], (c, v) => c.rl.has(v[0]));
op("rl.indexOf", 0.5, [id(IdKind.Character)], (c, v) => c.rl.indexOf(v[0]));
op("rl.idAt", 0.5, [oneOf(1, 2, 3, 0, 4), int(-1, 40)], (c, v) => c.rl.idAt(v[0], v[1]));
op("rl.stats", 0.3, nothing, (c) => c.rl.stats());
op("rl.validate", 0.5, nothing, (c) => c.rl.validate(), { mustPass: true });

// ---- the platforms ----------------------------------------------------------------------------

function polygonFrom(p: ArrayPlan): unknown {
  const cx = (p.at % 900) + 20, cy = ((p.at >> 4) % 500) + 20, r = 4 + (p.at % 40), n = 3 + (p.at % 4), pts: number[] = [];
  for (let k = 0; k < n; k++) pts.push(Math.round(cx + r * Math.cos((2 * Math.PI * k) / n)), Math.round(cy + r * Math.sin((2 * Math.PI * k) / n)));
  return makeArray(pts, p, 2);
}
function surfacesFrom(p: ArrayPlan): unknown {
  const n = 1 + (p.at % 3), s: number[] = [];
  for (let k = 0; k < n; k++) { const x = ((p.at >> k) % 900) + 10, y = ((p.at >> (k + 3)) % 500) + 10; s.push(x, y, x + 20 + (k * 13) % 60, y + (k * 29) % 40 - 20); }
  return makeArray(s, p, 4);
}
function halfspacesFrom(p: ArrayPlan): unknown {
  const x = (p.at % 900) + 10, y = ((p.at >> 5) % 500) + 10, w = 4 + (p.at % 30);
  return makeArray([1, 0, x + w, -1, 0, -x, 0, 1, y + w, 0, -1, -y], p, 3);
}
op("pl.addSurface", 2, [coord(), coord(), coord(), coord()], (c, v) => c.pl.addSurface(...v), { after: added(IdKind.Surface) });
op("pl.addSurfaces", 1, [plan], (c, v) => c.pl.addSurfaces(surfacesFrom((v[0] as ArrayPlan))), { after: addedAll(IdKind.Surface) });
op("pl.addPolygon", 2, [plan], (c, v) => c.pl.addPolygon(polygonFrom((v[0] as ArrayPlan))), { after: addedAll(IdKind.Polyhedron) });
op("pl.addHalfspaces", 1, [plan], (c, v) => c.pl.addHalfspaces(halfspacesFrom((v[0] as ArrayPlan))), { after: added(IdKind.Polyhedron) });
op("pl.clearLevel", 0.05, nothing, (c) => c.pl.clearLevel(), {
  after: (c) => { for (const k of [IdKind.Surface, IdKind.Polyhedron]) { c.dead[k].push(...c.live[k]); c.live[k] = []; } },
});
op("pl.surface", 0.5, [id(IdKind.Surface)], (c, v) => c.pl.surface(v[0]));
op("pl.halfspaces", 0.5, [id(IdKind.Polyhedron)], (c, v) => c.pl.halfspaces(v[0]));
op("pl.vertices", 0.5, [id(IdKind.Polyhedron)], (c, v) => c.pl.vertices(v[0]));
op("pl.extent", 0.5, [id(IdKind.Surface)], (c, v) => c.pl.extent(v[0]));
op("pl.exact", 0.5, [bool()], (c, v) => { c.pl.exact = v[0]; });
op("pl.addBall", 3, [coord(), coord(), size(), motion(), motion(), motion(), motion()], (c, v) => c.pl.addBall(...v), { after: added(IdKind.Ball) });
op("pl.setBall", 2, [id(IdKind.Ball), coord(), coord(), motion(), motion()], (c, v) => c.pl.setBall(...v));
op("pl.setAcceleration", 1, [id(IdKind.Ball), motion(), motion()], (c, v) => c.pl.setAcceleration(...v));
op("pl.clearBalls", 0.05, nothing, (c) => c.pl.clearBalls(), { after: (c) => { c.dead[IdKind.Ball].push(...c.live[IdKind.Ball]); c.live[IdKind.Ball] = []; } });
op("pl.step", 2, [real(0, 0.1)], (c, v) => c.pl.step(v[0]));
op("pl.touchingSurfaces", 2, [coord(), coord(), size(), bool()], (c, v) => c.pl.touchingSurfaces(...v), {
  check: (c, v, n) => {
    const pl = c.pl as Platforms, [x, y] = v as number[], r = (v[2] ?? 10) as number, exact = (v[3] ?? pl.exact) as boolean;
    const want = levelOf(pl).surfaces.map((s, i) => (detect(s, x, y, r, exact) ? i : -1)).filter((i) => i >= 0);
    const got = results(pl.results, n as number);
    return same(got, want) ? null : differ(`pl.touchingSurfaces(${v.join(", ")})`, got, want);
  },
});
op("pl.polyhedraAt", 2, [coord(), coord(), size()], (c, v) => c.pl.polyhedraAt(...v), {
  check: (c, v, n) => {
    const pl = c.pl as Platforms, [x, y] = v as number[], r = (v[2] ?? 0) as number;
    const want = levelOf(pl).polyhedra.map((h, i) => (inside(h, x, y, r) ? i : -1)).filter((i) => i >= 0);
    const got = results(pl.results, n as number);
    return same(got, want) ? null : differ(`pl.polyhedraAt(${v.join(", ")})`, got, want);
  },
});
op("pl.cast", 1, [coord(), coord(), coord(), coord(), size(), bool(), bool()], (c, v) => c.pl.cast(...v));
op("pl.castSegment", 1, [coord(), coord(), motion(), motion()], (c, v) => c.pl.castSegment(...v));
op("pl.castRay", 1, [coord(), coord(), motion(), motion(), size()], (c, v) => c.pl.castRay(...v));
op("pl.castCircle", 1, [coord(), coord(), size(), motion(), motion()], (c, v) => c.pl.castCircle(...v));
op("pl.castBox", 1, [coord(), coord(), size(), size(), motion(), motion()], (c, v) => c.pl.castBox(...v));
op("pl.has", 0.5, [id(IdKind.Ball)], (c, v) => c.pl.has(v[0]));
op("pl.indexOf", 0.5, [id(IdKind.Surface)], (c, v) => c.pl.indexOf(v[0]));
op("pl.idAt", 0.5, [oneOf(4, 5, 6, 0, 7), int(-1, 40)], (c, v) => c.pl.idAt(v[0], v[1]));
op("pl.stats", 0.3, nothing, (c) => c.pl.stats());
op("pl.validate", 0.5, nothing, (c) => c.pl.validate(), { mustPass: true });

// ---- the tile map -----------------------------------------------------------------------------

op("tm.ensureEntities", 1, [int(0, 300)], (c, v) => c.tm.ensureEntities(v[0]));
op("tm.ensureBoxes", 1, [int(0, 80)], (c, v) => c.tm.ensureBoxes(v[0]));
op("tm.normalizeX", 0.5, [coord()], (c, v) => c.tm.normalizeX(v[0]));
op("tm.cellAt", 0.5, [int(-2, 50), int(-2, 30)], (c, v) => c.tm.cellAt(v[0], v[1]));
op("tm.flagsAt", 0.5, [coord(), coord()], (c, v) => c.tm.flagsAt(v[0], v[1]));
op("tm.canMoveTo", 0.5, [coord(), coord()], (c, v) => c.tm.canMoveTo(v[0], v[1]));
op("tm.setCell", 2, [int(-2, 50), int(-2, 30), int(0, 63)], (c, v) => c.tm.setCell(...v));
op("tm.addMonster", 2, [coord(), coord(), size(), size(), int(0, 3)], (c, v) => c.tm.addMonster(...v), { after: added(IdKind.Monster) });
op("tm.moveMonster", 2, [id(IdKind.Monster), coord(), coord()], (c, v) => c.tm.moveMonster(...v));
op("tm.removeMonster", 1, [id(IdKind.Monster)], (c, v) => c.tm.removeMonster(v[0]), { after: removed(IdKind.Monster) });
op("tm.isMonster", 0.5, [id(IdKind.Monster)], (c, v) => c.tm.isMonster(v[0]));
function pointsFrom(p: ArrayPlan): unknown {
  const n = 1 + (p.at % 10), pts: number[] = [];
  for (let k = 0; k < n; k++) pts.push(((p.at >> k) % 33) - 16, -((p.at >> (k + 1)) % 40));
  return makeArray(pts, p, 2);
}
op("tm.setPoints", 1, [plan], (c, v) => {
  c.lastPoints = pointsFrom((v[0] as ArrayPlan));
  return c.tm.setPoints(c.lastPoints);
}, { after: (c) => { c.points = Array.from(((c.lastPoints as Record<symbol, unknown>)[FIRST_READS] ?? c.lastPoints) as ArrayLike<number>, Number); } });
op("tm.collidePoints", 2, [int(0, 64), fc.nat().map((i) => () => i)], (c, v) => c.tm.collidePoints(v[0]), {
  prep: (c, v) => {
    const xs = c.tm.entityX as Float64Array, ys = c.tm.entityY as Float64Array, seed = v[1] as number;
    for (let e = 0; e < xs.length; e++) { xs[e] = (((seed + 37 * e) % 2200) - 200) / 2; ys[e] = (((seed + 53 * e) % 1400) - 200) / 2; }
    if (seed % 7 === 0 && xs.length > 0) {
      c.undo.push([() => c.tm.entityX, seed % xs.length, xs[seed % xs.length]]);
      xs[seed % xs.length] = BAD_VIEW_VALUES[seed % BAD_VIEW_VALUES.length];
      c.poisoned = true;
    }
  },
  check: (c, v) => {
    const tm = c.tm as TileMap, n = v[0] as number, ref = new RefMap(tm, tm.coinWidth), np = tm.pointsPerEntity;
    const points = c.points;
    if (!points || points.length !== 2 * np) return null; // the offsets the map holds are not known here
    for (let e = 0; e < n; e++) {
      for (let p = 0; p < np; p++) {
        const want = ref.point(tm.entityX[e], tm.entityY[e], points[2 * p], points[2 * p + 1]), k = e * np + p;
        const got = { cell: tm.pointCells[k], hits: tm.pointHits[k], monster: tm.pointMonsters[k] };
        if (got.cell !== want.cell || got.hits !== want.hits || got.monster !== want.monster) {
          return differ(`tm.collidePoints entity ${e} (${tm.entityX[e]}, ${tm.entityY[e]}) point ${p}`, got, want);
        }
      }
    }
    return null;
  },
});
op("tm.moveBoxes", 2, [int(0, 40), fc.nat().map((i) => () => i)], (c, v) => c.tm.moveBoxes(v[0]), {
  prep: (c, v) => {
    const b = c.tm.boxes as Float64Array, seed = v[1] as number;
    for (let k = 0; k < b.length; k += 6) {
      b[k] = (seed + 11 * k) % 900; b[k + 1] = (seed + 5 * k) % 600; b[k + 2] = 1 + ((seed + k) % 30); b[k + 3] = 1 + ((seed + 2 * k) % 30);
      b[k + 4] = ((seed + 3 * k) % 81) - 40; b[k + 5] = ((seed + 9 * k) % 81) - 40;
    }
    if (seed % 6 === 0 && b.length > 0) {
      c.undo.push([() => c.tm.boxes, seed % b.length, b[seed % b.length]]);
      b[seed % b.length] = BAD_VIEW_VALUES[seed % BAD_VIEW_VALUES.length];
      c.poisoned = true;
    }
  },
});
op("tm.addController", 1, [coord(), coord()], (c, v) => c.tm.addController(...v), { after: added(IdKind.Controller) });
op("tm.setInput", 1, [id(IdKind.Controller), int(0, 31)], (c, v) => c.tm.setInput(...v));
op("tm.stepControllers", 2, [real(0, 0.1)], (c, v) => c.tm.stepControllers(v[0]));
op("tm.controller", 0.5, [id(IdKind.Controller)], (c, v) => c.tm.controller(v[0]));
op("tm.controllerX", 0.3, [id(IdKind.Controller)], (c, v) => c.tm.controllerX(v[0]));
op("tm.controllerEvents", 0.3, [id(IdKind.Controller)], (c, v) => c.tm.controllerEvents(v[0]));
op("tm.setControllerPosition", 1, [id(IdKind.Controller), coord(), coord()], (c, v) => c.tm.setControllerPosition(...v));
op("tm.has", 0.5, [id(IdKind.Controller)], (c, v) => c.tm.has(v[0]));
op("tm.indexOf", 0.5, [id(IdKind.Monster)], (c, v) => c.tm.indexOf(v[0]));
op("tm.idAt", 0.5, [oneOf(7, 8, 0, 3), int(-1, 40)], (c, v) => c.tm.idAt(v[0], v[1]));
op("tm.stats", 0.3, nothing, (c) => c.tm.stats);
op("tm.validate", 0.5, nothing, (c) => c.tm.validate(), { mustPass: true });

/** Every op's name, for the CI slice's check that every one ran. */
export const OP_NAMES = ops.map((o) => o.name);

const call = fc.oneof(...ops.map((o) => ({ weight: Math.max(1, Math.round(o.weight * 10)), arbitrary: fc.tuple(...o.args).map((args) => ({ op: o, args })) })));

// ---- levels, and hostile ones ------------------------------------------------------------------

const ASCII = [
  "XXXXXXXXXXXXXXXXXHXX",
  "   o      H     H   ",
  "  ---    XH  1  H  ^",
  "         XH XXXXX   ",
  " 0   o    H         ",
  "XXXXX  XXXXXXX   XXX",
  "       ^^       2   ",
  "XXXXXXXXXXXXXXXXXXXX",
];

export interface LevelSources {
  /** fixtures/tiled/arena_level.tmj, parsed. */
  tiled: Record<string, unknown>;
}

/** The options of a valid level (one of three kinds), small capacities so that every store grows. */
export function levelOptions(kind: number, src: LevelSources): Record<string, unknown> {
  const small = { rectLevel: { prefabCapacity: 2, rectCapacity: 4, instanceCapacity: 2, characterCapacity: 1, projectileCapacity: 2 }, platforms: { ballCapacity: 2, maxRadius: 40 } };
  const tiles = { entityCapacity: 4, boxCapacity: 4, monsterCapacity: 4, controllerCapacity: 1, coinWidth: undefined };
  if (kind === 0) return { tiled: structuredClone(src.tiled), ...tiles, ...small };
  return { ascii: ASCII, tileSize: 32 + 8 * (kind - 1), wrap: kind === 2, ...tiles, ...small };
}

/** Every (container, key) in a JSON value. */
function slots(root: unknown): [Record<string, unknown>, string][] {
  const out: [Record<string, unknown>, string][] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) { out.push([v as Record<string, unknown>, k]); stack.push((v as Record<string, unknown>)[k]); }
  }
  return out;
}

/** A level's options with one thing made hostile: a field of the Tiled JSON, a line or cell of the ASCII map, or an option. */
function hostileLevel(options: Record<string, unknown>, at: number, bad: unknown): Record<string, unknown> {
  const o = { ...options };
  const which = at % 4;
  if (which === 0 && o.tiled) {
    o.tiled = structuredClone(o.tiled);
    const all = slots(o.tiled);
    const [parent, key] = all[(at >> 2) % all.length];
    parent[key] = bad;
  } else if (which === 0 || which === 1) {
    const rows = (o.ascii as string[] | undefined ?? ASCII).slice() as unknown[], r = (at >> 2) % rows.length;
    if (at % 3 === 0) rows[r] = bad;
    else { const s = String(rows[r]); const i = (at >> 5) % s.length; rows[r] = s.slice(0, i) + String.fromCharCode((at >> 7) % 256) + s.slice(i + 1 + ((at >> 9) % 2)); }
    delete o.tiled;
    o.ascii = rows;
  } else {
    const paths = [["tileSize"], ["wrap"], ["solidFloor"], ["coinWidth"], ["monsterSize"], ["entityCapacity"], ["controller"], ["rectLevel", "prefabCapacity"], ["rectLevel", "character"],
      ["platforms", "maxRadius"], ["platforms", "ballCapacity"], ["platforms", "resistanceX"], ["platforms", "maxSubsteps"], ["rectLevel"], ["platforms"], ["groups"]];
    const path = paths[(at >> 2) % paths.length];
    if (path.length === 1) o[path[0]] = bad;
    else o[path[0]] = { ...(o[path[0]] as object), [path[1]]: bad };
  }
  return o;
}

// ---- running -------------------------------------------------------------------------------------

/**
 * -1 if two snapshots are equal, else where they first differ: "state byte k" (the facade's fields)
 * or "memory byte k" (the core's memory, from address 0; the arena from ARENA_BASE), past the
 * preamble and its checksum.
 */
function difference(a: Uint8Array, b: Uint8Array): string | null {
  if (Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length))) return null;
  const n = Math.min(a.length, b.length);
  let i = 24;
  while (i < n && a[i] === b[i]) i++;
  const stateA = new DataView(a.buffer, a.byteOffset).getUint32(12, true), stateB = new DataView(b.buffer, b.byteOffset).getUint32(12, true);
  if (i - 24 < Math.min(stateA, stateB) || stateA !== stateB) return `state byte ${i - 24} (state ${stateA} bytes before, ${stateB} after)`;
  const m = i - 24 - stateA;
  return `memory byte ${m < HEADERS_END ? m : m - HEADERS_END + ARENA_BASE} (snapshot ${a.length} bytes before, ${b.length} after)`;
}

function show(v: unknown): string {
  if (typeof v === "function") return "function";
  if (typeof v === "symbol") return "Symbol";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v === undefined) return "undefined";
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${(v as Uint8Array).length})`;
  try { return JSON.stringify(v)?.slice(0, 80) ?? String(v); } catch { return Object.prototype.toString.call(v); }
}

function collectHandles(c: Ctx, loaded: Record<string, unknown> | null): void {
  const tm = c.tm as TileMap | null;
  if (tm) for (let m = 0; m < tm.monsterCount; m++) { const h = tm.idAt(IdKind.Monster, m); if (h !== NULL_ID) c.live[IdKind.Monster].push(h); }
  const rl = c.rl as RectLevel | null;
  if (rl) {
    for (let i = 0; i < rl.instanceCount; i++) c.live[IdKind.Instance].push(rl.idAt(IdKind.Instance, i));
    for (let i = 0; i < rl.prefabCount; i++) c.live[IdKind.Prefab].push(rl.idAt(IdKind.Prefab, i));
  }
  const pl = c.pl as Platforms | null;
  if (pl) {
    for (let i = 0; i < pl.surfaceCount; i++) c.live[IdKind.Surface].push(pl.idAt(IdKind.Surface, i));
    for (let i = 0; i < pl.polyhedronCount; i++) c.live[IdKind.Polyhedron].push(pl.idAt(IdKind.Polyhedron, i));
  }
  void loaded;
}

/** Runs `options.calls` fuzz calls on one backend and returns the counts. */
export async function fuzz(options: FuzzOptions, src: LevelSources): Promise<FuzzCounts> {
  const counts: FuzzCounts = { calls: 0, returned: 0, refused: 0, traps: 0, foreign: 0, changed: 0, wrong: 0, checked: 0, worlds: 0, slowest: [0, ""], examples: [], classes: {}, big: [] };
  const perWorld = options.perWorld ?? 300, checkRate = options.checkRate ?? 0.25;
  const note = (what: string) => {
    if (counts.examples.length < 20) counts.examples.push(what);
    const [kind, rest] = [what.slice(0, what.indexOf(":")), what.slice(what.indexOf(":") + 2)];
    const end = rest.lastIndexOf("): "), op = rest.slice(0, rest.search(/[( ]/)), why = (end >= 0 ? rest.slice(end + 3) : rest.slice(rest.indexOf(") ") + 2)).replace(/-?[0-9][0-9.e+-]*/g, "#").slice(0, 100);
    const key = `${kind} ${op}: ${why}`;
    counts.classes[key] = (counts.classes[key] ?? 0) + 1;
  };

  // Another world with the same kinds of parts and handles of every kind: its ids are foreign here.
  const other = await options.create({ capacity: 8 });
  other.loadLevel(levelOptions(1, src));
  const foreign = pools();
  for (let k = 0; k < 4; k++) foreign[IdKind.Body].push(other.addCircle(10 * k, 10, 4));
  const orl = other.rectLevel!, opl = other.platforms!, otm = other.tileMap!;
  const prefab = orl.addPrefab([0, 0, 10, 10]);
  foreign[IdKind.Prefab].push(prefab);
  foreign[IdKind.Instance].push(orl.addInstance(prefab, 5, 5));
  foreign[IdKind.Character].push(orl.addCharacter(100, 10, 20, 40));
  foreign[IdKind.Surface].push(opl.addSurface(0, 0, 50, 0));
  foreign[IdKind.Polyhedron].push(...opl.addPolygon([0, 0, 10, 0, 5, 8]));
  foreign[IdKind.Ball].push(opl.addBall(20, 20));
  foreign[IdKind.Controller].push(otm.addController(40, 40));
  foreign[IdKind.Monster].push(otm.addMonster(64, 64, 16, 16));
  const emptySnapshot = (await options.create({ capacity: 4 })).snapshot();

  const started = options.seed;
  for (let life = 0; counts.calls < options.calls; life++) {
    const program = fc.sample(fc.record({
      level: fc.nat(3), capacity: fc.constantFrom(4, 16, 64), growable: fc.constantFrom(true, true, true, false), pairCapacity: fc.constantFrom(undefined, 4),
      growPairs: fc.constantFrom(true, true, false), cellSize: fc.constantFrom(0, 0, 16, 100),
      hostileLoads: fc.array(fc.tuple(fc.nat(), fc.oneof(fc.double(), hostile.map((h) => h(undefined as never)))), { maxLength: 4 }),
      calls: fc.array(call, { minLength: perWorld, maxLength: perWorld }),
    }), { seed: started * 7919 + life, numRuns: 1 })[0];
    counts.worlds++;
    const world = await options.create({ capacity: program.capacity, growable: program.growable, maxCapacity: program.growable ? 4096 : undefined,
      pairCapacity: program.pairCapacity, growPairs: program.growPairs, cellSize: program.cellSize });
    const base = levelOptions(program.level % 3, src);
    const c: Ctx = { world, tm: null, rl: null, pl: null, live: pools(), dead: pools(), foreign, saved: null, emptySnapshot, undo: [], poisoned: false, rand: mulberry(started + life), points: null, lastPoints: null };

    // Hostile levels first, each a call on the empty world: refused and nothing changed, or loaded.
    let loaded: Record<string, unknown> | null = null;
    for (const [at, bad] of program.hostileLoads) {
      if (counts.calls >= options.calls) break;
      const before = world.snapshot();
      counts.calls++;
      try {
        loaded = world.loadLevel(hostileLevel(base, at, bad) as never) as unknown as Record<string, unknown>;
        counts.returned++;
        break;
      } catch (e) {
        if (!classify(e, `loadLevel(hostile ${at}, ${show(bad)})`)) continue;
        const d = difference(before, world.snapshot());
        if (d || world.tileMap || world.rectLevel || world.platforms) { counts.changed++; note(`changed: loadLevel(hostile ${at}, ${show(bad)}) refused, snapshot differs at ${d}`); }
      }
    }
    if (!loaded) {
      if (program.level === 3) {
        world.addTileMap({ cols: 24, rows: 16, tileSize: 32, entityCapacity: 4, boxCapacity: 4, monsterCapacity: 2, controllerCapacity: 1 });
        world.addRectLevel({ prefabCapacity: 1, rectCapacity: 1, instanceCapacity: 1, characterCapacity: 1, projectileCapacity: 1 });
        world.addPlatforms({ ballCapacity: 1, maxRadius: 48 });
      } else loaded = world.loadLevel(base as never) as unknown as Record<string, unknown>;
    }
    c.tm = world.tileMap; c.rl = world.rectLevel; c.pl = world.platforms;
    collectHandles(c, loaded);

    let before: Uint8Array | null = null;
    let dead = false;
    for (const { op: o, args } of program.calls) {
      if (counts.calls >= options.calls) break;
      if (options.skip?.includes(o.name)) continue;
      const v = args.map((a, i) => { if (typeof a !== "function") throw new Error(`${o.name} arg ${i}: ${show(a)}`); return a(c); });
      c.poisoned = false;
      if (o.prep) { o.prep(c, v); before = null; }
      before ??= snap(world, `before ${o.name}`);
      const beforeCall = before;
      if (!before) { dead = true; break; }
      counts.calls++;
      let result: unknown;
      options.trace?.(counts.calls, o.name, v);
      const t0 = performance.now();
      try {
        result = o.run(c, v);
      } catch (e) {
        const what = `${o.name}(${v.map(show).join(", ")})`;
        if (o.mustPass && !c.poisoned) {
          const why = `${what} refused a valid world: ${e instanceof Error ? e.message.slice(0, 300) : show(e)}`;
          counts.wrong++;
          note(`wrong: ${why}`);
          options.onWrong?.(world, o.name, v, why);
        }
        if (!classify(e, what)) { dead = true; break; }
        const now = snap(world, `after ${what}`);
        if (!now) { dead = true; break; }
        const d = difference(before!, now);
        if (d) { counts.changed++; note(`changed: ${what} refused (${(e as HitcoreError).code}) and the snapshot differs at ${d}`); }
        before = now;
        if (undo(c)) before = null;
        continue;
      }
      const ms = performance.now() - t0;
      if (ms > counts.slowest[0]) counts.slowest = [ms, `${o.name}(${v.map(show).join(", ")})`];
      if (ms > 2000 && options.slow) options.slow({ level: program.level, op: o.name, args: v.map(show), ms, before: before! });
      if (world.memoryBytes > BIG_WORLD) {
        // A capacity call with a valid but huge count (2^24 entities, say) grows memory past what the
        // fuzz can snapshot at every call: the world ends here, the growth noted.
        if (counts.big.length < 10) counts.big.push(`${o.name}(${v.map(show).join(", ")}) grew the world to ${(world.memoryBytes / 1048576).toFixed(0)} MB`);
        world.dispose();
        dead = true;
        break;
      }
      counts.returned++;
      before = null;
      // A grid query that took a value written through a body view (1e31 is finite: it is not
      // refused) built its grid over it; putting the value back is a view write too, after which
      // the probe queries answer from that grid until the next build, as the README says of view
      // writes. The fuzz builds it again, so that the answers it compares are the stores'.
      if (undo(c) && o.name.startsWith("viewWrite")) { try { world.buildGrid(); } catch { /* every value written is back: nothing to refuse */ } }
      if (o.name === "snapshot" || o.name === "restore") {
        // The world after a restore must take a snapshot again (its state is whole).
        if (!snap(world, `after ${o.name}(${v.map(show).join(", ")})`)) { dead = true; break; }
      }
      o.after?.(c, v, result);
      if (o.check && !c.poisoned && c.rand() < checkRate) {
        counts.checked++;
        let why: string | null;
        try { why = o.check(c, v, result); } catch (e) { why = `the check threw ${e instanceof Error ? e.message : show(e)}`; }
        if (why) { counts.wrong++; note(`wrong: ${why}`); options.onWrong?.(world, o.name, v, why); options.slow?.({ level: program.level, op: `wrong ${o.name}`, args: v.map(show), ms: 0, before: beforeCall! }); }
      }
    }
    if (dead) { try { world.dispose(); } catch { /* disposed already */ } }
    else {
      // Every part of a disposed world refuses with DISPOSED.
      world.dispose();
      for (const name of ["addCircle", "selfPairs", "snapshot", "castSegment"] as const) {
        if (counts.calls >= options.calls) break;
        counts.calls++;
        try {
          (world as any)[name](1, 1, 1, 1);
          counts.returned++;
          counts.wrong++; note(`wrong: ${name} on a disposed world returned`);
        } catch (e) { classify(e, `${name} after dispose`); }
      }
    }
    options.progress?.(counts);
  }
  return counts;

  /** The world's snapshot, or null (counted as foreign) when snapshot() itself throws. */
  function snap(world: World, what: string): Uint8Array | null {
    try {
      return world.snapshot();
    } catch (e) {
      counts.foreign++;
      note(`foreign: snapshot() ${what} threw ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 300)}` : show(e)}`);
      return null;
    }
  }

  /** Counts an exception: true for a HitcoreError (the world lives on), false for a trap or a foreign exception. */
  function classify(e: unknown, what: string): boolean {
    if (e instanceof HitcoreError) { counts.refused++; return true; }
    if (e instanceof WebAssembly.RuntimeError) { counts.traps++; note(`trap: ${what}: ${e.message}`); return false; }
    counts.foreign++;
    note(`foreign: ${what}: ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 300)}` : show(e)}`);
    return false;
  }
}

/** Puts back the values preps wrote into views; true if there were any. */
function undo(c: Ctx): boolean {
  if (c.undo.length === 0) return false;
  for (const [view, i, old] of c.undo.reverse()) { const v = view(); if (i < (v as Float32Array).length) v[i] = old; }
  c.undo = [];
  return true;
}

function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
