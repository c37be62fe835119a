// Shared by the tests: every backend over the freshly built cores, and the brute-force reference.
import { readFile } from "node:fs/promises";
import { expect } from "vitest";
import {
  createWorld, HitcoreError, Mirror, type Backend, type CreateOptions, type Platforms, type PlatformsOptions, type RectLevel, type RectLevelOptions,
  type TileMap, type TileMapOptions, type World,
} from "../bindings/node.js";

/**
 * The cores every differential test runs, named for the core: the wasm backend on
 * dist/hitcore.wasm ("wasm-scalar") and on dist/hitcore-simd.wasm ("wasm-simd"), and the js backend.
 */
export const BACKENDS = ["wasm-scalar", "wasm-simd", "js"] as const;
export type BackendName = (typeof BACKENDS)[number];

const core = WebAssembly.compile(await readFile(new URL("../dist/hitcore.wasm", import.meta.url)));
const simdCore = WebAssembly.compile(await readFile(new URL("../dist/hitcore-simd.wasm", import.meta.url)));

/** The create* options that put a test on a backend, over the cores `npm run build` wrote. */
export async function backendOptions(backend: BackendName): Promise<{ backend: Backend; wasm?: WebAssembly.Module }> {
  if (backend === "js") return { backend };
  return { backend: "wasm", wasm: await (backend === "wasm-simd" ? simdCore : core) };
}

/** A world on the given backend, over the freshly built core (run `npm run build` first). */
export async function newWorld(backend: BackendName, options: CreateOptions = {}): Promise<World> {
  return createWorld({ ...options, ...(await backendOptions(backend)) });
}

/** A new world's tile map (createWorld, then addTileMap): the options of both. */
export async function newTileMap(options: TileMapOptions & CreateOptions): Promise<TileMap> {
  return (await createWorld(options)).addTileMap(options);
}

/** A new world's rect level (createWorld, then addRectLevel): the options of both. */
export async function newRectLevel(options: RectLevelOptions & CreateOptions = {}): Promise<RectLevel> {
  return (await createWorld(options)).addRectLevel(options);
}

/** A new world's platforms (createWorld, then addPlatforms): the options of both. */
export async function newPlatforms(options: PlatformsOptions & CreateOptions = {}): Promise<Platforms> {
  return (await createWorld(options)).addPlatforms(options);
}

/** The HitcoreError a call throws (fails the test if it throws anything else, or nothing). */
export function refusal(run: () => unknown): HitcoreError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(HitcoreError);
    return e as HitcoreError;
  }
  throw new Error("expected a refusal, the call returned");
}

/** Pairs as sorted numbers (a * 2^22 + b), so two pair lists compare with toEqual. */
export function pairKeys(pairs: Int32Array, count: number, unordered: boolean): number[] {
  const keys: number[] = [];
  for (let k = 0; k < count; k++) {
    let a = pairs[2 * k], b = pairs[2 * k + 1];
    if (unordered && a > b) { const t = a; a = b; b = t; }
    keys.push(a * 4194304 + b);
  }
  return keys.sort((p, q) => p - q);
}

/** Slots of the last query's results, sorted. Takes the count first: the query may have grown the views. */
export function sortedResults(count: number, world: World): number[] {
  return Array.from(world.results.subarray(0, count)).sort((p, q) => p - q);
}

/** Runs selfPairs, then reads the pair view (which the query may have replaced). */
export function selfPairsOf(world: World, mask = 0xffffffff): [Int32Array, number, boolean] {
  const n = world.selfPairs(mask);
  return [world.pairs, n, false];
}

/** Runs crossPairs, then reads the pair view. */
export function crossPairsOf(world: World, maskA = 1, maskB = 2): [Int32Array, number, boolean] {
  const n = world.crossPairs(maskA, maskB);
  return [world.pairs, n, false];
}

/** V8's gc(), when the process runs with --expose-gc (vitest.config.ts passes it): the heap tests run only then. */
export const gc = (globalThis as { gc?: () => void }).gc;

/**
 * JS heap bytes per call of `run`, the least over windows of `calls` calls after one forced
 * collection (one only: a collection per window can drop optimized code, whose re-optimization
 * then lands on the next window's heap). V8's tier-up lands on the heap (code, feedback, and the
 * boxing in the code it replaces), and on a loaded machine it finishes late, in the second or
 * third window as well (CI measured 16 B per call in all of three). So windows run until one
 * comes in under `limit`, up to `windows`: an allocation per call shows in every window and
 * still fails, tier-up does not last that long. A window whose heap shrank had a collection in
 * it (what `run` allocates can fill the young generation within one window) and measured nothing:
 * it does not count, and when no window counts the result is Infinity. `perRun` is how many calls
 * one `run` makes. Pass a warmed-up `run`.
 */
export function leastHeapPerCall(run: (call: number) => void, calls: number, limit: number, perRun = 1, windows = 10): number {
  gc!();
  let least = Infinity;
  for (let w = 0; w < windows && least >= limit; w++) {
    const before = process.memoryUsage().heapUsed;
    for (let c = 0; c < calls; c++) run(c);
    const grown = process.memoryUsage().heapUsed - before;
    if (grown >= 0) least = Math.min(least, grown / (calls * perRun));
  }
  return least;
}

/** A world with every part and something in every debugDraw layer (tests/debug_draw*.test.ts). */
export async function everyPart(backend: "wasm-scalar" | "js" = "wasm-scalar"): Promise<World> {
  const world = await newWorld(backend, { cellSize: 32 });
  const map = world.addTileMap({ ascii: ["X -H    ", "o^ 1    ", "XXXXXXXX"], tileSize: 32 });
  map.addController(48, 64);
  map.ensureEntities(4);
  map.entityX.set([16, 48, 112, 208]); // the default points about the coin, the spike, the ladder and the monster, and in the air
  map.entityY.set([64, 64, 64, 32]);
  map.collidePoints(4);
  const level = world.addRectLevel();
  const p = level.addPrefab([0, 0, 40, 10, 0, 10, 10, 30]);
  for (let k = 0; k < 6; k++) level.addInstance(p, 300 + 60 * k, 50 * k, k & 1 ? Mirror.X : 0);
  level.addCharacter(120, 300, 20, 40);
  level.reserveProjectiles(2);
  level.projX.set([250, 320]); level.projY.set([20, 30]); level.projVX.set([4, -3]); level.projR.set([3, 0]);
  level.moveProjectiles(2);
  const plat = world.addPlatforms({ maxRadius: 10 });
  plat.addSurfaces([0, 400, 200, 420]);
  plat.addPolygon([500, 400, 600, 400, 550, 480]);
  plat.addHalfspaces([0, -1, -900]);
  plat.addBall(100, 380, 6);
  for (let k = 0; k < 40; k++) world.addCircle(20 + 17 * k, 200 + (k % 5) * 9, 3, 1 << (k % 3));
  world.addPoint(5, 5, 4);
  world.addRect(98, 376, 8, 8, 8);
  world.selfPairs();
  world.controllerContacts(8);
  world.castCircle(10, 150, 5, 600, 0);
  world.ensureCasts(4);
  world.castInputs.set([10, 100, 500, 10, 0, 0, 10, 120, 500, -30, 0, 0]);
  world.castMany(2);
  return world;
}
