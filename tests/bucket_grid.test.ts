// Differential tests of the bucket grid: on seeded scenes, including the hard ones (everything in
// one cell, huge entities among small, zero sizes, exact touching), the wasm core (both builds), its js build
// and the brute-force reference report identical pair sets, first hits and query results.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../fixtures/random.js";
import { makeScene, loadScene, SCENE_SHAPES, type SceneShape } from "../fixtures/scenes.js";
import { Kind, type World } from "../bindings/node.js";
import { refCrossPairs, refFirstHits, refOverlap, refQuery, refSelfPairs, shapeAt } from "./reference.js";
import { COVER_CELLS_MOST, COVER_CELLS_PER_ENTITY } from "../layout/grid.js";
import { BACKENDS, crossPairsOf, newWorld, pairKeys, selfPairsOf, sortedResults } from "./support.js";

const SIZES = [1, 2, 37, 600];

async function worldsFor(shape: SceneShape, n: number, seed: number, cellSize = 0): Promise<World[]> {
  const scene = makeScene(shape, n, seed);
  const worlds: World[] = [];
  for (const backend of BACKENDS) {
    const w = await newWorld(backend, { capacity: 16, cellSize });
    loadScene(w, scene);
    worlds.push(w);
  }
  return worlds;
}

describe.each(SCENE_SHAPES)("scene %s", (shape) => {
  it.each(SIZES)("self and cross pairs match brute force (n = %i)", async (n) => {
    for (const seed of [1, 2]) {
      const worlds = await worldsFor(shape, n, seed);
      const refAll = refSelfPairs(worlds[0], 0xffffffff);
      const refOne = refSelfPairs(worlds[0], 1);
      const refCross = refCrossPairs(worlds[0], 1, 2);
      for (const w of worlds) {
        const all = w.selfPairs();
        expect(pairKeys(w.pairs, all, false), `${w.backend} self, all groups`).toEqual(refAll);
        const one = w.selfPairs(1);
        expect(pairKeys(w.pairs, one, false), `${w.backend} self, group 1`).toEqual(refOne);
        const cross = w.crossPairs(1, 2);
        expect(pairKeys(w.pairs, cross, false), `${w.backend} cross 1 x 2`).toEqual(refCross);
      }
    }
  });

  it.each(SIZES)("first hits match the seed's loop, exclusive or not (n = %i)", async (n) => {
    const worlds = await worldsFor(shape, n, 5);
    for (const exclusive of [true, false]) {
      const ref = refFirstHits(worlds[0], 1, 2, exclusive);
      for (const w of worlds) {
        const hits = w.firstHits(1, 2, exclusive);
        expect(Array.from(w.pairs.subarray(0, 2 * hits)), `${w.backend} exclusive=${exclusive}`).toEqual(ref.pairs);
        expect(Array.from(w.flags.subarray(0, w.count))).toEqual(ref.flags);
      }
    }
  });

  it("probe queries match brute force, with and without a grid", async () => {
    const worlds = await worldsFor(shape, 300, 9);
    const rnd = mulberry32(4);
    for (let t = 0; t < 40; t++) {
      const x = Math.floor(rnd() * 400) - 20, y = Math.floor(rnd() * 400) - 20;
      const w = Math.floor(rnd() * 60), h = Math.floor(rnd() * 60), r = Math.floor(rnd() * 30);
      const mask = t % 3 === 0 ? 0xffffffff : 1 + (t % 2);
      const base = worlds[0];
      const refR = refQuery(base, { kind: Kind.Rect, x, y, a: w, b: h }, mask);
      const refC = refQuery(base, { kind: Kind.Circle, x, y, a: r, b: 0 }, mask);
      const refP = refQuery(base, { kind: Kind.Point, x, y, a: 0, b: 0 }, mask);
      const slot = t % base.count;
      const refT = refQuery(base, shapeAt(base, slot), mask, slot);
      for (const world of worlds) {
        for (const grid of [false, true]) {
          if (grid) world.buildGrid(t % 2 === 0 ? 0xffffffff : mask);
          const label = `${world.backend} grid=${grid}`;
          expect(sortedResults(world.queryRect(x, y, w, h, mask), world), label).toEqual(refR);
          expect(sortedResults(world.queryCircle(x, y, r, mask), world), label).toEqual(refC);
          expect(sortedResults(world.queryPoint(x, y, mask), world), label).toEqual(refP);
          expect(sortedResults(world.touching(world.idAt(slot), mask), world), label).toEqual(refT);
        }
      }
    }
  });
});

describe("grid shapes", () => {
  it.each([0.25, 3, 50, 100000])("any user cell size gives the same pairs (cellSize %f)", async (cellSize) => {
    const worlds = await worldsFor("huge", 400, 3, cellSize);
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) expect(pairKeys(...selfPairsOf(w))).toEqual(ref);
  });

  it("holes left by removals are skipped, and reused slots report the new entity", async () => {
    for (const backend of BACKENDS) {
      const w = await newWorld(backend);
      const ids = loadScene(w, makeScene("uniform", 500, 11));
      const rnd = mulberry32(12);
      for (const id of ids) if (rnd() < 0.3) w.remove(id);
      for (let k = 0; k < 50; k++) w.addCircle(Math.floor(rnd() * 200), Math.floor(rnd() * 200), 5, 1);
      w.validate();
      expect(pairKeys(...selfPairsOf(w))).toEqual(refSelfPairs(w, 0xffffffff));
      expect(pairKeys(...crossPairsOf(w))).toEqual(refCrossPairs(w, 1, 2));
    }
  });

  it("prunes: a uniform scene tests a small fraction of all pairs", async () => {
    for (const w of await worldsFor("uniform", 4000, 2)) {
      w.selfPairs();
      const s = w.stats();
      expect(s.selected).toBe(4000);
      expect(s.aabbTests).toBeLessThan((4000 * 3999) / 2 / 100);
      expect(s.cols * s.rows).toBeLessThanOrEqual(4 * 4000 + 64);
    }
  });

  it("everything in one cell degrades to brute force, not worse", async () => {
    for (const w of await worldsFor("one-cell", 500, 2)) {
      const n = w.selfPairs();
      expect(pairKeys(w.pairs, n, false)).toEqual(refSelfPairs(w, 0xffffffff));
      expect(w.stats().aabbTests).toBeLessThanOrEqual((500 * 499) / 2);
    }
  });

  it("a cell of more than 65,535 entities (the cores count in 16 bits until a cell fills) gives the same pairs and stats", async () => {
    // 70,000 points at distinct positions (no two overlap) and 30 circles, in one cell of a user
    // cell size: the wasm cores' u16 counts fill up and they count again in 32 bits.
    // One rect at slot 65,538 is large (three cells wide): its group of four goes lane by lane,
    // with counts past 65,535 in it.
    const n = 70000, rnd = mulberry32(21), huge = 65538;
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: n + 64, cellSize: 1e6 }));
    for (let k = 0; k < n; k++) {
      const x = k * 0.01, y = ((k * 7919) % 1000) * 0.01;
      for (const w of worlds) {
        if (k === huge) w.addRect(-1e6, 0, 3e6, 5, 1);
        else w.addPoint(x, y, 1);
      }
    }
    for (let k = 0; k < 30; k++) {
      const x = rnd() * 700, y = rnd() * 10, r = 0.05 + rnd() * 0.5;
      for (const w of worlds) w.addCircle(x, y, r, 1);
    }
    // Only pairs with a circle or the rect in them can overlap: the reference tests those.
    const w0 = worlds[0], ref = new Set<number>();
    for (const c of [huge, ...Array.from({ length: 30 }, (_, k) => n + k)]) {
      for (let j = 0; j < n + 30; j++) {
        if (j !== c && refOverlap(shapeAt(w0, c), shapeAt(w0, j))) ref.add(Math.min(c, j) * 4194304 + Math.max(c, j));
      }
    }
    expect(ref.size).toBeGreaterThan(30);
    // Three calls: the SIMD core's third counts on the grid the first two made, in its select pass.
    for (let call = 0; call < 3; call++) {
      const stats = [];
      for (const w of worlds) {
        expect(pairKeys(...selfPairsOf(w)), `call ${call}`).toEqual([...ref].sort((a, b) => a - b));
        stats.push(w.stats());
      }
      expect([stats[0].large, stats[0].entries]).toEqual([1, n + 29]);
      for (const s of stats) expect(s).toEqual(stats[0]);
    }
  });

  it("cross pairs index the smaller side and probe with the larger, in either order of the masks", async () => {
    const rnd = mulberry32(11);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: 64 }));
    for (let k = 0; k < 900; k++) {
      const bullet = k % 10 !== 0; // 810 bullets (group 1), 90 enemies (group 2)
      const x = Math.floor(rnd() * 400), y = Math.floor(rnd() * 400), r = 1 + Math.floor(rnd() * 3);
      for (const w of worlds) (bullet ? w.addCircle(x, y, r, 1) : w.addRect(x, y, 8 + (k % 7), 8 + (k % 5), 2));
    }
    const ab = refCrossPairs(worlds[0], 1, 2), ba = refCrossPairs(worlds[0], 2, 1);
    expect(ab.length).toBeGreaterThan(20);
    for (const w of worlds) {
      const n = w.crossPairs(1, 2);
      expect(pairKeys(w.pairs, n, false)).toEqual(ab);
      expect(w.stats().selected).toBe(90); // the enemies were indexed
      // The grid left behind holds the enemies: a query for them uses it and agrees with a scan.
      const hits = w.queryRect(100, 100, 50, 50, 2);
      expect(w.stats().cellsVisited).toBeGreaterThan(0);
      expect(sortedResults(hits, w)).toEqual(refQuery(w, { kind: Kind.Rect, x: 100, y: 100, a: 50, b: 50 }, 2));
      const m = w.crossPairs(2, 1);
      expect(pairKeys(w.pairs, m, false)).toEqual(ba);
      expect(w.stats().selected).toBe(90);
    }
  });

  it("cross pairs count the same box tests on every backend, entities in both masks included", async () => {
    const worlds = await worldsFor("clustered", 600, 1);
    const stats = worlds.map((w) => [[1, 2], [1, 3], [3, 1]].map(([a, b]) => {
      const n = w.crossPairs(a, b);
      const s = w.stats();
      return [n, s.aabbTests, s.narrowTests, s.cellsVisited];
    }));
    expect(stats[0][1][1]).toBeGreaterThan(0);
    for (const s of stats.slice(1)) expect(s).toEqual(stats[0]);
  });

  // Bullets against a few enemies: 1 slot in 25 is an enemy (group 2), 1 in 75 is in both groups.
  async function fewEnemies(shape: SceneShape, n: number, seed: number): Promise<World[]> {
    const worlds = await worldsFor(shape, n, seed);
    for (const w of worlds) {
      for (let k = 0; k < w.count; k++) w.setGroups(w.idAt(k), k % 75 === 0 ? 3 : k % 25 === 0 ? 2 : 1);
    }
    return worlds;
  }

  it.each(SCENE_SHAPES)("cross pairs against a few enemies match brute force, reach grid or not (%s)", async (shape) => {
    for (const seed of [1, 2, 3]) {
      const worlds = await fewEnemies(shape, 900, seed);
      for (const [a, b] of [[1, 2], [2, 1], [1, 3], [2, 3]]) {
        const ref = refCrossPairs(worlds[0], a, b);
        const runs = worlds.map((w) => {
          const n = w.crossPairs(a, b);
          expect(pairKeys(w.pairs, n, false), `${w.backend} ${a} x ${b} seed ${seed}`).toEqual(ref);
          const { cover, aabbTests, narrowTests, cellsVisited, entries } = w.stats();
          return [Array.from(w.pairs.subarray(0, 2 * n)), cover, aabbTests, narrowTests, cellsVisited, entries];
        });
        // The same path on every backend: the same pairs in the same order, the same work.
        for (const r of runs.slice(1)) expect(r).toEqual(runs[0]);
      }
    }
  });

  it("cross pairs index the smaller side in a reach grid, spread out or crowded, and every call agrees", async () => {
    for (const shape of ["uniform", "one-cell"] as const) {
      const worlds = await fewEnemies(shape, 900, 1);
      const ref = refCrossPairs(worlds[0], 1, 2);
      for (const w of worlds) {
        for (let t = 0; t < 3; t++) {
          const n = w.crossPairs(1, 2);
          expect(pairKeys(w.pairs, n, false), `${shape} ${w.backend} call ${t}`).toEqual(ref);
          const s = w.stats();
          expect(s.cover, w.backend).toBe(true);
          expect(s.selected, w.backend).toBe(36); // the enemies are indexed, the bullets probe
          expect(s.entries, w.backend).toBeGreaterThanOrEqual(s.selected);
          expect(s.large, w.backend).toBe(0);
        }
      }
    }
  });

  it("a reach grid over many enemies keeps its cell table within COVER_CELLS_MOST cells, and pairs stay exact", async () => {
    // 1,200 enemies would get 38k cells at COVER_CELLS_PER_ENTITY; the cap makes the cells coarser.
    const rnd = mulberry32(5);
    const worlds: World[] = [];
    // Room for the enemies' records: a reach grid needs COVER_RECORDS slots of capacity per enemy.
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: 16384 }));
    const side = 4000;
    for (let k = 0; k < 7200; k++) {
      const enemy = k % 6 === 0, x = Math.floor(rnd() * side), y = Math.floor(rnd() * side);
      const w = enemy ? 10.5 + Math.floor(rnd() * 14) : 2.5 + Math.floor(rnd() * 3), h = enemy ? 10.5 + Math.floor(rnd() * 14) : 2.5;
      for (const world of worlds) world.addRect(x, y, w, h, enemy ? 2 : 1);
    }
    const ref = refCrossPairs(worlds[0], 1, 2);
    expect(ref.length).toBeGreaterThan(100);
    expectCrossOnEveryBackend(worlds, ref, true);
    const s = worlds[0].stats();
    expect(s.selected).toBe(1200);
    expect(1200 * COVER_CELLS_PER_ENTITY).toBeGreaterThan(COVER_CELLS_MOST); // the cap binds here
    expect((s.cols + 1) * (s.rows + 1)).toBeLessThanOrEqual(COVER_CELLS_MOST);
    expect(s.cols * s.rows).toBeGreaterThan(COVER_CELLS_MOST / 2); // and the cells are not coarser than it asks
  });

  it("a repeated cross pairs call keeps the last call's indexed side only while it is still the smaller", async () => {
    // 300 bullets (group 1) and 30 enemies (group 2); then the enemies outnumber the bullets, the
    // two sides tie (B is indexed), and the bullets are the few: each call checked against a world
    // with no last call. Room for every grid's records, so only the side counts can catch a flip.
    const rnd = mulberry32(21);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: 8192 }));
    const boxes: number[][] = [];
    for (let k = 0; k < 330; k++) boxes.push([Math.floor(rnd() * 300), Math.floor(rnd() * 300), 2 + Math.floor(rnd() * 12), 2 + Math.floor(rnd() * 12)]);
    for (const w of worlds) for (const [k, [x, y, bw, bh]] of boxes.entries()) w.addRect(x, y, bw, bh, k < 300 ? 1 : 2);
    const regroup = (enemies: number) => {
      for (const w of worlds) for (let k = 0; k < 330; k++) w.setGroups(w.idAt(k), k < 330 - enemies ? 1 : 2);
    };
    for (const [enemies, selected] of [[30, 30], [30, 30], [180, 150], [180, 150], [165, 165], [300, 30], [30, 30]]) {
      regroup(enemies);
      const ref = refCrossPairs(worlds[0], 1, 2);
      const fresh = await newWorld("js", { capacity: 8192 });
      for (let k = 0; k < 330; k++) fresh.addRect(worlds[0].x[k], worlds[0].y[k], worlds[0].a[k], worlds[0].b[k], worlds[0].groups[k]);
      const n = fresh.crossPairs(1, 2);
      expect(fresh.stats().selected).toBe(selected); // the smaller side is indexed (B on a tie)
      expectCrossOnEveryBackend(worlds, ref, true);
      expect(Array.from(worlds[0].pairs.subarray(0, 2 * n))).toEqual(Array.from(fresh.pairs.subarray(0, 2 * n)));
      expect(worlds[0].stats()).toEqual(fresh.stats());
    }
  });

  /** crossPairs(1, 2) on each world gives `ref`, on a reach grid or not (`cover`), and every backend the same pairs, order and stats. */
  function expectCrossOnEveryBackend(worlds: World[], ref: number[], cover: boolean): void {
    const runs = worlds.map((w) => {
      const n = w.crossPairs(1, 2);
      expect(pairKeys(w.pairs, n, false), w.backend).toEqual(ref);
      expect(w.stats().cover, w.backend).toBe(cover);
      return [Array.from(w.pairs.subarray(0, 2 * n)), w.stats()];
    });
    for (const r of runs.slice(1)) expect(r).toEqual(runs[0]);
  }

  it("a probe too wide for the reach grid's budget makes cross pairs build a home grid instead", async () => {
    const worlds = await fewEnemies("uniform", 900, 2);
    expectCrossOnEveryBackend(worlds, refCrossPairs(worlds[0], 1, 2), true);
    const [x, y, a, b] = [worlds[0].x[1], worlds[0].y[1], worlds[0].a[1], worlds[0].b[1]];
    for (const w of worlds) w.setRect(w.idAt(1), -5000, -5000, 1e6, 40); // a bullet a million wide
    const ref = refCrossPairs(worlds[0], 1, 2);
    expect(ref.length).toBeGreaterThan(0);
    expectCrossOnEveryBackend(worlds, ref, false);
    // Back to its size: the next call is on a reach grid again, widened for the bullets as they are.
    for (const w of worlds) w.setRect(w.idAt(1), x, y, a, b);
    expectCrossOnEveryBackend(worlds, refCrossPairs(worlds[0], 1, 2), true);
    expect(worlds[0].stats().reachWidth).toBe(widestProbe(worlds[0], 1)[0]);
  });

  /** The largest box width and height among the live slots in `mask`, in f32 as the kernels compute them. */
  function widestProbe(w: World, mask: number): [number, number] {
    const f = Math.fround;
    let most = [0, 0];
    for (let k = 0; k < w.count; k++) {
      if (w.kinds[k] === 0 || (w.groups[k] & mask) === 0) continue;
      const { kind, x, y, a, b } = shapeAt(w, k);
      const box = kind === Kind.Rect ? [f(f(x + a) - x), f(f(y + b) - y)]
        : kind === Kind.Circle ? [f(f(x + a) - f(x - a)), f(f(y + a) - f(y - a))] : [0, 0];
      most = [Math.max(most[0], box[0]), Math.max(most[1], box[1])];
    }
    return most as [number, number];
  }

  it("the reach grid is widened for the last call's probes, and a probe that grows starts the call over", async () => {
    const worlds = await fewEnemies("uniform", 900, 6);
    const [w0, h0] = widestProbe(worlds[0], 1);
    // The first call measures the probes; the next ones reuse what it measured.
    for (let t = 0; t < 2; t++) {
      expectCrossOnEveryBackend(worlds, refCrossPairs(worlds[0], 1, 2), true);
      for (const w of worlds) expect([w.stats().reachWidth, w.stats().reachHeight], w.backend).toEqual([w0, h0]);
    }
    // A bullet grows past them, placed so its left edge is more than a cell further left of an
    // enemy its right part overlaps than the old width: a grid widened only for the old sizes
    // would not list that enemy in its corner's cell. (Not so wide that the records pass the budget.)
    const e = Array.from({ length: worlds[0].count }, (_, k) => k).find((k) => worlds[0].groups[k] === 2)!;
    const [ex, ey] = [worlds[0].x[e], worlds[0].y[e]];
    const wide = w0 + 2 * worlds[0].stats().cellSize + 1, tall = h0 + 2;
    for (const w of worlds) w.setRect(w.idAt(1), ex - wide + 1, ey - 0.5, wide, tall); // covers (ex, ey), whatever e's kind
    const ref = refCrossPairs(worlds[0], 1, 2);
    expect(ref).toContain(1 * 4194304 + e); // pairKeys' key of (bullet 1, enemy e)
    expectCrossOnEveryBackend(worlds, ref, true);
    const grown = widestProbe(worlds[0], 1);
    expect(grown[0]).toBeGreaterThan(w0);
    for (const w of worlds) expect([w.stats().reachWidth, w.stats().reachHeight], w.backend).toEqual(grown);
    // Shrunk again: one more call still widened for the wide bullet (the last call's), then back.
    for (const w of worlds) w.setRect(w.idAt(1), ex - 40, ey - 40, 2, 2);
    for (const expected of [grown, widestProbe(worlds[0], 1)]) {
      expectCrossOnEveryBackend(worlds, refCrossPairs(worlds[0], 1, 2), true);
      for (const w of worlds) expect([w.stats().reachWidth, w.stats().reachHeight], w.backend).toEqual(expected);
    }
  });

  it("the reach grid finds probes that touch an enemy exactly, far from the origin, all kinds", async () => {
    // Enemies at large fractional coordinates; each probe is placed so its right or bottom edge
    // lands on an enemy's left or top edge (as near as f32 allows), the widest probe included.
    const rnd = mulberry32(11);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: 16 }));
    const enemies: number[][] = [];
    for (let e = 0; e < 40; e++) {
      enemies.push([123456.7 + rnd() * 3000, -98765.3 + rnd() * 3000, 5 + rnd() * 30, 5 + rnd() * 30]);
    }
    const probes: number[][] = [];
    for (let p = 0; p < 600; p++) {
      const [ex, ey, ew, eh] = enemies[p % 40];
      const kind = p % 3, w = p === 0 ? 64.3 : 0.5 + rnd() * 20, h = 0.5 + rnd() * 20;
      const t = rnd();
      // Left of the enemy, touching; above it, touching; or anywhere along its edges.
      const x = p % 2 ? ex - w : ex + (t - 0.5) * ew, y = p % 2 ? ey + (t - 0.5) * eh : ey - h;
      probes.push(kind === 0 ? [Kind.Rect, x, y, w, h] : kind === 1 ? [Kind.Circle, x + w / 2, y + w / 2, w / 2, 0] : [Kind.Point, x + w, y + h, 0, 0]);
    }
    for (const w of worlds) {
      for (const [x, y, ew, eh] of enemies) w.addRect(x, y, ew, eh, 2);
      for (const [k, x, y, a, b] of probes) {
        if (k === Kind.Rect) w.addRect(x, y, a, b, 1);
        else if (k === Kind.Circle) w.addCircle(x, y, a, 1);
        else w.addPoint(x, y, 1);
      }
    }
    const ref = refCrossPairs(worlds[0], 1, 2);
    expect(ref.length).toBeGreaterThan(100);
    expectCrossOnEveryBackend(worlds, ref, true);
  });

  it.each(["uniform", "zero"] as const)("probe queries after cross pairs read the reach grid and match brute force (%s)", async (shape) => {
    const worlds = await fewEnemies(shape, 900, 4);
    const rnd = mulberry32(8);
    for (const w of worlds) {
      w.crossPairs(1, 2);
      expect(w.stats().cover, w.backend).toBe(true);
    }
    for (let t = 0; t < 60; t++) {
      const x = Math.floor(rnd() * 400) - 20, y = Math.floor(rnd() * 400) - 20;
      const qw = Math.floor(rnd() * 80), qh = Math.floor(rnd() * 80), r = Math.floor(rnd() * 40);
      const refR = refQuery(worlds[0], { kind: Kind.Rect, x, y, a: qw, b: qh }, 2);
      const refC = refQuery(worlds[0], { kind: Kind.Circle, x, y, a: r, b: 0 }, 2);
      for (const w of worlds) {
        expect(sortedResults(w.queryRect(x, y, qw, qh, 2), w), w.backend).toEqual(refR);
        expect(sortedResults(w.queryCircle(x, y, r, 2), w), w.backend).toEqual(refC);
        expect(w.stats().cover, w.backend).toBe(true); // the queries used the grid, not a scan
      }
    }
  });

  it("many large entities are swept, not tested all against all (no cliff when the cells are small)", async () => {
    // Long thin rects (the peers' skewed scene) with cells far smaller than them: nearly all large.
    const rnd = mulberry32(7);
    const n = 3000;
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend, { capacity: n, cellSize: 4 }));
    for (let k = 0; k < n; k++) {
      const long = 20 + Math.floor(rnd() * 100), short = 1 + Math.floor(rnd() * 2);
      const x = Math.floor(rnd() * 2000), y = Math.floor(rnd() * 2000);
      for (const w of worlds) (k & 1 ? w.addRect(x, y, long, short) : w.addRect(x, y, short, long));
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) {
      const found = w.selfPairs();
      expect(pairKeys(w.pairs, found, false)).toEqual(ref);
      const s = w.stats();
      expect(s.large).toBeGreaterThan(n / 2);
      // All against all would be n^2 / 2 = 4.5M box tests; the sweep on left edges needs a small fraction.
      expect(s.aabbTests).toBeLessThan((n * (n - 1)) / 2 / 10);
    }
  });

  it("huge entities among small ones go to the large list, and pairs stay exact", async () => {
    for (const w of await worldsFor("huge", 2000, 4)) {
      const n = w.selfPairs();
      expect(pairKeys(w.pairs, n, false)).toEqual(refSelfPairs(w, 0xffffffff));
      const s = w.stats();
      expect(s.entries + s.large).toBe(2000);
      expect(s.large).toBeGreaterThan(0);
      expect(s.large).toBeLessThanOrEqual(2000 / 10);
    }
  });

  it("every backend picks the same winners for the same input, every time", async () => {
    const worlds = await worldsFor("clustered", 3000, 21);
    const runs = worlds.map((w) => {
      const n = w.firstHits(1, 2);
      return Array.from(w.pairs.subarray(0, 2 * n));
    });
    expect(runs[0].length).toBeGreaterThan(0);
    for (const run of runs) expect(run).toEqual(runs[0]);
    const again = worlds[0].firstHits(1, 2);
    expect(Array.from(worlds[0].pairs.subarray(0, 2 * again))).toEqual(runs[0]);
  });

  it("random float scenes (not f32-exact) still agree bit for bit", async () => {
    const rnd = mulberry32(77);
    const worlds: World[] = [];
    for (const backend of BACKENDS) worlds.push(await newWorld(backend));
    for (let k = 0; k < 1500; k++) {
      const kind = k % 3, x = rnd() * 300, y = rnd() * 300, a = rnd() * 6, b = rnd() * 6, g = 1 + (k & 1);
      for (const w of worlds) {
        if (kind === 0) w.addPoint(x, y, g);
        else if (kind === 1) w.addCircle(x, y, a, g);
        else w.addRect(x, y, a, b, g);
      }
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    expect(ref.length).toBeGreaterThan(100);
    for (const w of worlds) expect(pairKeys(...selfPairsOf(w))).toEqual(ref);
  });
});

describe("the SIMD core", () => {
  it("builds the scalar core's grids and emits the same pairs in the same order, with the same stats", async () => {
    // Past 4,096 slots (the histogram samples), with holes left by removals and masks that take
    // every other slot (selections that are not runs of four slots), large entities, and counts
    // that are not multiples of four: every path of the SIMD passes, against the scalar ones.
    // (The other tests compare pair sets with the js backend and the reference.)
    const cases: [SceneShape, number][] = [["mixed-groups", 5003], ["huge", 4801], ["skewed", 2002], ["clustered", 6001], ["uniform", 37]];
    for (const [shape, n] of cases) {
      const scene = makeScene(shape, n, 13);
      const runs: unknown[][] = [];
      for (const backend of ["wasm-scalar", "wasm-simd"] as const) {
        const w = await newWorld(backend, { capacity: 16 });
        loadScene(w, scene).forEach((id, k) => { if (k % 7 === 3) w.remove(id); });
        const out: unknown[] = [];
        const record = (found: number) => out.push(Array.from(w.pairs.subarray(0, 2 * found)), w.stats());
        record(w.selfPairs());
        record(w.selfPairs(1));
        record(w.crossPairs(1, 2));
        record(w.crossPairs(2, 1));
        record(w.firstHits(1, 2));
        out.push(Array.from(w.flags.subarray(0, w.count)));
        record(w.queryRect(100, 100, 300, 200, 1));
        out.push(Array.from(w.results.subarray(0, w.stats().found)));
        runs.push(out);
      }
      expect(runs[0][0]).not.toEqual([]);
      for (let r = 0; r < runs[0].length; r++) expect(runs[1][r], `${shape} ${n}: record ${r}`).toEqual(runs[0][r]);
    }
  });

  it("selfPairs frame after frame on moving entities: the same pairs, order and stats as the scalar core and the js backend, grid kept or changed", async () => {
    // The SIMD core finds homes in its select pass on the last grid while the grid stays the same
    // (the cell size and the snapped origin), and builds again when it changes: here a jitter
    // every frame keeps it, and frames 4, 5 and 7 change it. Holes left by
    // removals and a mask that takes some slots make partial groups of four; "huge" has large
    // entities; a NaN written through a view on frame 3 must be reported as on any other call.
    const cases: [SceneShape, number, number][] = [["mixed-groups", 4403, 0xffffffff], ["mixed-groups", 2003, 1], ["huge", 1202, 0xffffffff], ["uniform", 37, 0xffffffff]];
    for (const [shape, n, mask] of cases) {
      const scene = makeScene(shape, n, 17);
      const worlds: World[] = [];
      for (const backend of BACKENDS) {
        const w = await newWorld(backend, { capacity: 16 });
        loadScene(w, scene).forEach((id, k) => { if (k % 7 === 3) w.remove(id); });
        worlds.push(w);
      }
      const rnd = mulberry32(n);
      const bad = worlds[0].kinds.findIndex((k, s) => k === Kind.Circle && s >= 8 && s < n - 8 && (worlds[0].groups[s] & mask) !== 0);
      for (let frame = 0; frame < 9; frame++) {
        const dx = new Float32Array(n).map(() => rnd() - 0.5), dy = new Float32Array(n).map(() => rnd() - 0.5);
        if (frame === 4) dx.fill(20.5); // the origin moves two or three cells, the shape stays
        if (frame === 5) dx[worlds[0].x.indexOf(Math.max(...worlds[0].x.subarray(0, n)))] = 16; // two more columns
        if (frame === 7) dx[n >> 1] = 5000; // a bigger grid of bigger cells
        const runs: unknown[][] = [];
        for (const w of worlds) {
          for (let s = 0; s < w.count; s++) { w.x[s] += dx[s]; w.y[s] += dy[s]; }
          if (frame === 3) {
            const keep = w.x[bad];
            w.x[bad] = NaN;
            expect(() => w.selfPairs(mask), `${shape} ${n}, frame ${frame}`).toThrow(new RegExp(`slot ${bad} .* x = NaN`));
            w.x[bad] = keep;
          }
          const found = w.selfPairs(mask);
          runs.push([pairKeys(w.pairs, found, false), Array.from(w.pairs.subarray(0, 2 * found)), w.stats()]);
        }
        expect(runs[0][0], `${shape} ${n}, frame ${frame}`).toEqual(refSelfPairs(worlds[0], mask));
        for (const r of runs) expect(r, `${shape} ${n}, frame ${frame}`).toEqual(runs[0]);
      }
    }
  });

  it("a -0 coordinate gives every backend the grid origin +0, whichever zero comes first", async () => {
    for (const first of [-0, 0]) {
      const stats = [];
      for (const backend of BACKENDS) {
        const w = await newWorld(backend);
        for (let k = 0; k < 11; k++) w.addRect(k % 3 === 0 ? first : -first, k % 2 === 0 ? -first : first, 4, 4);
        w.selfPairs();
        stats.push(w.stats());
      }
      for (const s of stats) {
        expect(Object.is(s.originX, 0) && Object.is(s.originY, 0), `first zero ${Object.is(first, -0) ? "-0" : "+0"}`).toBe(true);
        expect(s).toEqual(stats[0]);
      }
    }
  });
});

describe("selfPairs on thin boxes (split grids)", () => {
  // Walls and lasers: nearly every box at least four times longer than wide, both orientations.
  // Integer corners and sizes, so many boxes touch exactly; a few zero-height lines, copies at
  // the same place, and (at odd slots, which the split's sample of every second slot skips)
  // `giants` boxes far longer than the rest.
  function thinScene(w: World, n: number, seed: number, giants: number, group = 1): void {
    const rnd = mulberry32(seed);
    for (let k = 0; k < n; k++) {
      const long = 8 + Math.floor(rnd() * 60), short = k % 97 === 5 ? 0 : 1 + Math.floor(rnd() * 2);
      const x = Math.floor(rnd() * 600), y = Math.floor(rnd() * 600);
      const giant = k % 2 === 1 && k < 2 * giants;
      const g = k % 3 === 0 ? group | 2 : group;
      if (giant) w.addRect(x, y, 2, 900, g);
      else if (k % 11 === 7 && k > 2 * giants) w.addRect(w.x[k - 1], w.y[k - 1], w.a[k - 1], w.b[k - 1], g); // a copy
      else if (rnd() < 0.5) w.addRect(x, y, long, short, g);
      else w.addRect(x, y, short, long, g);
    }
  }

  async function thinWorlds(n: number, seed: number, giants: number, capacity = 16): Promise<World[]> {
    const worlds: World[] = [];
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity });
      thinScene(w, n, seed, giants);
      worlds.push(w);
    }
    return worlds;
  }

  // The last case fills its store (4,096 slots, all selected): the SIMD select pass writes four
  // lanes at a time past its list's end, and must stop short of the wide grid's lists, which the
  // tall grid's build keeps at the end of the same scratch.
  it.each([[2000, 1, 16], [2000, 2, 16], [5003, 3, 16], [4096, 5, 4096]])("match brute force on every call, split from the second (n = %i, seed %i, capacity %i)", async (n, seed, capacity) => {
    const worlds = await thinWorlds(n, seed, 3, capacity);
    if (capacity === n) for (const w of worlds) expect(w.count, w.backend).toBe(w.capacity);
    const ref = refSelfPairs(worlds[0], 0xffffffff), refTwo = refSelfPairs(worlds[0], 2);
    expect(ref.length).toBeGreaterThan(n / 4);
    for (let call = 0; call < 4; call++) {
      const runs: unknown[] = [];
      for (const w of worlds) {
        const mask = call === 3 ? 2 : 0xffffffff;
        const found = w.selfPairs(mask);
        expect(pairKeys(w.pairs, found, false), `${w.backend} call ${call}`).toEqual(call === 3 ? refTwo : ref);
        const s = w.stats();
        // The first grid is crowded (cells as long as the longest box); the calls after it split.
        // (The facade's first call may already run the kernel twice: the pair buffer grows.)
        if (call > 0) expect(s.split, `${w.backend} call ${call}`).toBe(true);
        if (s.split) expect(s.selected).toBe(call === 3 ? liveCount(w, 2) : w.count);
        runs.push([Array.from(w.pairs.subarray(0, 2 * found)), s]);
      }
      // Same pairs in the same order and the same stats on every backend.
      expect(runs[1], `call ${call}`).toEqual(runs[0]);
      expect(runs[2], `call ${call}`).toEqual(runs[0]);
    }
  });

  it("a tall grid with more large boxes than SPLIT_LARGE starts over on one grid, with the same pairs", async () => {
    const worlds = await thinWorlds(3000, 4, 40);
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) {
      for (let call = 0; call < 3; call++) {
        expect(pairKeys(...selfPairsOf(w)), `${w.backend} call ${call}`).toEqual(ref);
        expect(w.stats().split).toBe(false);
      }
    }
  });

  it("queries after a split read no stale grid", async () => {
    for (const w of await thinWorlds(2000, 5, 0)) {
      w.selfPairs();
      w.selfPairs();
      expect(w.stats().split).toBe(true);
      const rnd = mulberry32(6);
      for (let t = 0; t < 20; t++) {
        const x = Math.floor(rnd() * 600), y = Math.floor(rnd() * 600), s = 1 + Math.floor(rnd() * 80);
        expect(sortedResults(w.queryRect(x, y, s, s / 4), w), w.backend).toEqual(refQuery(w, { kind: Kind.Rect, x, y, a: s, b: s / 4 }, 0xffffffff));
      }
    }
  });

  it.each(["wide", "tall"])("only %s boxes: one of the two grids is empty", async (kind) => {
    const worlds: World[] = [];
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity: 16 });
      const rnd = mulberry32(kind === "wide" ? 9 : 10);
      for (let k = 0; k < 1500; k++) {
        const long = 8 + Math.floor(rnd() * 60), short = 1 + Math.floor(rnd() * 2), x = Math.floor(rnd() * 400), y = Math.floor(rnd() * 400);
        if (kind === "wide") w.addRect(x, y, long, short);
        else w.addRect(x, y, short, long);
      }
      worlds.push(w);
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    expect(ref.length).toBeGreaterThan(100);
    for (const w of worlds) {
      for (let call = 0; call < 3; call++) expect(pairKeys(...selfPairsOf(w)), `${w.backend} call ${call}`).toEqual(ref);
      expect(w.stats().split, w.backend).toBe(true);
    }
  });

  it("boxes that are not nearly all thin stay on one grid", async () => {
    const worlds: World[] = [];
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity: 16 });
      thinScene(w, 2000, 7, 0);
      const rnd = mulberry32(8);
      for (let k = 0; k < 200; k++) w.addRect(Math.floor(rnd() * 600), Math.floor(rnd() * 600), 30, 30);
      worlds.push(w);
    }
    const ref = refSelfPairs(worlds[0], 0xffffffff);
    for (const w of worlds) {
      for (let call = 0; call < 3; call++) {
        expect(pairKeys(...selfPairsOf(w)), w.backend).toEqual(ref);
        expect(w.stats().split, w.backend).toBe(false);
      }
    }
  });
});

function liveCount(w: World, mask: number): number {
  let n = 0;
  for (let s = 0; s < w.count; s++) if (w.kinds[s] !== 0 && (w.groups[s] & mask) !== 0) n++;
  return n;
}
