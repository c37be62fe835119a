// The Tiled loaders against mutated maps: fast-check draws mutation plans (byte flips, truncation,
// spliced copies, deleted and duplicated fields, wrong types, huge sizes, deep nesting, broken
// external files) over the fixtures, with a fixed seed, and every load is counted. The loaders
// must refuse with a HitcoreError or load; never throw anything else, never take over a second,
// and a refused addLevelObjects must leave its stores as they were.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addLevelObjects, HitcoreError, type Platforms, type RectLevel } from "../bindings/node.js";
import { newTileMap, newRectLevel, newPlatforms } from "./support.js";
import { loadTiledMap, loadTiledMapSync, type TiledMap } from "../bindings/tiled_load.js";

const FIXTURES = new URL("../fixtures/tiled/", import.meta.url);
const FILES: Record<string, string> = {};
for (const name of ["arena.tmj", "chunks.tmj", "tower.tmx", "tiles.tsj", "tiles.tsx", "block.tj", "block.tx"]) {
  FILES[name] = readFileSync(new URL(name, FIXTURES), "utf8");
}
const SEEDS = ["arena.tmj", "chunks.tmj", "tower.tmx"] as const;
/** Values a hostile file puts where a field should be. */
const HOSTILE: unknown[] = [null, true, "", "x", -1, 0, 1.5, 1e9, 2 ** 31, -(2 ** 53), 1e308, [], {}, [1, 2, 3], { x: 1 }, "AAAA", `${"=".repeat(2000)}A`, "__proto__", "1.1"];
const HUGE = [1e9, 2 ** 31 - 1, 2 ** 53, -5, 65536, 8192];

type Mutation =
  | { kind: "flip"; at: number; char: number }
  | { kind: "truncate"; at: number }
  | { kind: "splice"; at: number; to: number; length: number }
  | { kind: "delete"; at: number }
  | { kind: "duplicate"; at: number }
  | { kind: "retype"; at: number; value: number }
  | { kind: "huge"; at: number; value: number }
  | { kind: "nest"; depth: number }
  | { kind: "file"; name: number; at: number; char: number };

const unit = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: unit, char: fc.integer({ min: 0, max: 127 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: unit }),
  fc.record({ kind: fc.constant("splice" as const), at: unit, to: unit, length: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant("delete" as const), at: unit }),
  fc.record({ kind: fc.constant("duplicate" as const), at: unit }),
  fc.record({ kind: fc.constant("retype" as const), at: unit, value: fc.nat(HOSTILE.length - 1) }),
  fc.record({ kind: fc.constant("huge" as const), at: unit, value: fc.nat(HUGE.length - 1) }),
  fc.record({ kind: fc.constant("nest" as const), depth: fc.constantFrom(50, 250, 5000) }),
  fc.record({ kind: fc.constant("file" as const), name: fc.nat(3), at: unit, char: fc.integer({ min: 0, max: 127 }) }),
);
const plan = fc.record({ seed: fc.constantFrom(...SEEDS), steps: fc.array(mutation, { minLength: 1, maxLength: 4 }) });

/** Every (container, key) in a JSON value, found with an explicit stack. */
function slots(root: unknown): [Record<string, unknown> | unknown[], string | number][] {
  const out: [Record<string, unknown> | unknown[], string | number][] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) v.forEach((x, i) => { out.push([v, i]); stack.push(x); });
    else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) { out.push([v as Record<string, unknown>, k]); stack.push((v as Record<string, unknown>)[k]); }
  }
  return out;
}

function flip(text: string, at: number, char: number): string {
  const i = Math.floor(at * text.length);
  return text.slice(0, i) + String.fromCharCode(char) + text.slice(i + 1);
}

/** The seed's text (and its external files) with the plan applied: structural steps on parsed JSON (or XML attributes), then text steps. */
function mutate(seed: string, steps: Mutation[]): { text: string | object; files: Record<string, string> } {
  const files = { ...FILES };
  const json = seed.endsWith(".tmj");
  let doc: unknown = json ? JSON.parse(FILES[seed]) : null;
  let text = FILES[seed];
  for (const step of steps) {
    if (step.kind === "file") {
      const name = ["tiles.tsj", "tiles.tsx", "block.tj", "block.tx"][step.name];
      files[name] = flip(files[name], step.at, step.char);
    } else if (json && (step.kind === "delete" || step.kind === "duplicate" || step.kind === "retype" || step.kind === "huge")) {
      const all = slots(doc);
      const [parent, key] = all[Math.floor(step.at * all.length)];
      if (step.kind === "delete") { if (Array.isArray(parent)) parent.splice(key as number, 1); else delete parent[key as string]; }
      else if (step.kind === "duplicate") { if (Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(parent[key as number])); else (parent as Record<string, unknown>)[`${String(key)}`] = structuredClone((parent as Record<string, unknown>)[key as string]); }
      else if (step.kind === "retype") (parent as Record<string | number, unknown>)[key] = structuredClone(HOSTILE[step.value]);
      else (parent as Record<string | number, unknown>)[key] = HUGE[step.value];
    } else if (json && step.kind === "nest") {
      const map = doc as Record<string, unknown>;
      let layers: unknown = map.layers;
      for (let d = 0; d < step.depth; d++) layers = [{ type: "group", name: `g${d}`, offsetx: 1, layers }];
      map.layers = layers;
      map.properties = [{ name: "deep", type: "class", value: nestedValue(step.depth) }];
    } else if (!json && step.kind === "nest") {
      text = text.replace("<objectgroup", `${"<group>".repeat(step.depth)}<objectgroup`).replace("</map>", `${"</group>".repeat(step.depth)}</map>`);
    } else if (!json && (step.kind === "retype" || step.kind === "huge" || step.kind === "delete" || step.kind === "duplicate")) {
      // XML: an attribute's value replaced, removed or doubled.
      const attrs = [...text.matchAll(/ ([a-z]+)="([^"]*)"/g)];
      const m = attrs[Math.floor(step.at * attrs.length)];
      const i = m.index!, end = i + m[0].length;
      const value = step.kind === "retype" ? String(HOSTILE[step.value] ?? "") : step.kind === "huge" ? String(HUGE[step.value]) : "";
      text = step.kind === "delete" ? text.slice(0, i) + text.slice(end) : step.kind === "duplicate" ? text.slice(0, end) + m[0] + text.slice(end) : `${text.slice(0, i)} ${m[1]}="${value.replace(/"/g, "")}"${text.slice(end)}`;
    }
  }
  if (json) {
    try {
      text = JSON.stringify(doc);
    } catch {
      return { text: doc as object, files }; // too deep for JSON.stringify (it recurses): the loaders take the object
    }
  }
  for (const step of steps) {
    if (step.kind === "flip") text = flip(text, step.at, step.char);
    else if (step.kind === "truncate") text = text.slice(0, Math.floor(step.at * text.length));
    else if (step.kind === "splice") {
      const from = Math.floor(step.at * text.length), to = Math.floor(step.to * text.length);
      text = text.slice(0, to) + text.slice(from, from + step.length) + text.slice(to);
    }
  }
  return { text, files };
}

function nestedValue(depth: number): unknown {
  let v: unknown = { leaf: 1 };
  for (let d = 0; d < depth; d++) v = { inner: v };
  return v;
}

interface Counts {
  runs: number;
  loaded: number;
  refused: number;
  /** Thrown, but not a HitcoreError. */
  foreign: number;
  /** A load (or its addLevelObjects) over a second. */
  hangs: number;
  /** A refused addLevelObjects that changed a store. */
  partial: number;
  /** Sync and async disagreed on loading or refusing. */
  disagree: number;
  slowest: number;
  examples: string[];
}

function storeState(level: RectLevel, platforms: Platforms): string {
  return `${level.prefabCount}/${level.instanceCount}/${level.storedRects}/${platforms.polyhedronCount}/${platforms.surfaceCount}`;
}

describe("Tiled loaders under mutated maps", () => {
  it("refuse with a HitcoreError or load: no other exception, nothing over a second, no partial load", async () => {
    const counts: Counts = { runs: 0, loaded: 0, refused: 0, foreign: 0, hangs: 0, partial: 0, disagree: 0, slowest: 0, examples: [] };
    const note = (what: string, steps: unknown, e?: unknown) => {
      if (counts.examples.length < 8) counts.examples.push(`${what}: ${JSON.stringify(steps).slice(0, 300)} ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : ""}`);
    };
    let level = await newRectLevel({ backend: "js" });
    let platforms = await newPlatforms({ backend: "js" });
    // A fixed slice of the seeded plan, so every run (however loaded the machine) tests the same maps.
    const cases = fc.sample(plan, { seed: 29, numRuns: 800 });
    const started = performance.now();
    for (const [index, { seed, steps }] of cases.entries()) {
      let made: ReturnType<typeof mutate>;
      try {
        made = mutate(seed, steps);
      } catch {
        continue; // structuredClone recurses too: a copy of a 5,000-deep nest cannot be made here
      }
      const { text, files } = made;
      const resolve = (p: string) => {
        if (!Object.hasOwn(files, p)) throw new Error(`no such file ${p}`);
        return files[p];
      };
      counts.runs++;
      const t0 = performance.now();
      let map: TiledMap | null = null;
      try {
        map = loadTiledMapSync(text, { resolve, path: seed });
      } catch (e) {
        if (e instanceof HitcoreError) counts.refused++;
        else { counts.foreign++; note("foreign", { seed, steps }, e); }
      }
      if (map !== null) {
        counts.loaded++;
        if (index % 8 === 0) level = await newRectLevel({ backend: "js" }), platforms = await newPlatforms({ backend: "js" });
        const before = storeState(level, platforms);
        try {
          addLevelObjects(map, { rects: level, platforms, rectsAsPolyhedra: true });
        } catch (e) {
          if (!(e instanceof HitcoreError)) { counts.foreign++; note("foreign in addLevelObjects", { seed, steps }, e); }
          else if (storeState(level, platforms) !== before) { counts.partial++; note("partial", { seed, steps }, e); }
        }
        if (index % 16 === 0) {
          try {
            (await newTileMap({ tiled: map, backend: "js" })).validate();
          } catch (e) {
            if (!(e instanceof HitcoreError)) { counts.foreign++; note("foreign in createTileMap", { seed, steps }, e); }
          }
        }
      }
      const ms = performance.now() - t0;
      counts.slowest = Math.max(counts.slowest, ms);
      // Reported, not asserted: the machine is shared, so a slow case is a lead, not a failure.
      if (ms > 1000) counts.hangs++;
      // Every fifth case through the async loader too: the same verdict.
      if (index % 5 === 0) {
        let asyncLoaded = false;
        const t1 = performance.now();
        try {
          await loadTiledMap(text, { resolve: async (p) => resolve(p), path: seed });
          asyncLoaded = true;
        } catch (e) {
          if (!(e instanceof HitcoreError)) { counts.foreign++; note("foreign (async)", { seed, steps }, e); }
        }
        if (performance.now() - t1 > 1000) counts.hangs++;
        if (asyncLoaded !== (map !== null)) { counts.disagree++; note("sync and async disagree", { seed, steps }); }
      }
    }
    console.log(`Tiled fuzz: ${counts.runs} mutated maps, ${counts.loaded} loaded, ${counts.refused} refused (HitcoreError), `
      + `${counts.foreign} other exceptions, ${counts.hangs} over 1 s (slowest ${counts.slowest.toFixed(0)} ms), ${counts.partial} partial loads, `
      + `${counts.disagree} sync/async disagreements, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(counts.examples).toEqual([]);
    expect({ foreign: counts.foreign, partial: counts.partial, disagree: counts.disagree }).toEqual({ foreign: 0, partial: 0, disagree: 0 });
    expect(counts.runs).toBeGreaterThan(300);
    expect(counts.loaded).toBeGreaterThan(20);
    expect(counts.refused).toBeGreaterThan(100);
  }, 60_000);
});
