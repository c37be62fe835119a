// Crowded grids (assembly/grid/crowded.ts): a pile of entities in one cell (a cellSize far larger
// than the world). selfPairs, crossPairs and firstHits against the brute-force reference on every
// backend, piles of points, mixed shapes, ties in left edges and -0 included; selfPairs' order (each
// cell sorted by left edge, stably); the box tests counted, which prove that sorted cells cut the
// search short; and a pair buffer that may not grow.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { Kind, type World } from "../../bindings/node.js";
import { refCrossPairs, refFirstHits, refOverlap, refSelfPairs, shapeAt } from "../reference.js";
import { BACKENDS, newWorld, pairKeys } from "../support.js";

const ONE_CELL = 2 ** 30;

type Place = (w: World, k: number, rnd: () => number) => void;

/** A world per backend holding n entities placed by `place` (the same random draws on each), in one cell. */
async function pile(n: number, place: Place, options: { growPairs?: boolean; pairCapacity?: number } = {}): Promise<World[]> {
  const worlds: World[] = [];
  for (const backend of BACKENDS) {
    const w = await newWorld(backend, { capacity: 16, cellSize: ONE_CELL, ...options });
    const rnd = mulberry32(n);
    for (let k = 0; k < n; k++) place(w, k, rnd);
    worlds.push(w);
  }
  return worlds;
}

const int = (rnd: () => number, hi: number) => Math.floor(rnd() * hi);
const PILES: [string, Place][] = [
  ["scattered points, a few equal", (w, k, r) => w.addPoint(int(r, 60), int(r, 60), 1 + (k % 3))],
  ["points in one column, -0 among them", (w, k, r) => w.addPoint(k % 4 === 0 ? -0 : 0, int(r, 200), 1 + (k % 3))],
  ["points on one spot", (w, k) => w.addPoint(7, 7, 1 + (k % 3))],
  ["mixed shapes with equal left edges", (w, k, r) => {
    const x = 8 + 4 * int(r, 10), y = 8 + int(r, 300), g = 1 + (k % 3); // 8 + : every box right of 0, in the cell from 0
    if (k % 3 === 0) w.addPoint(x, y, g);
    else if (k % 3 === 1) w.addCircle(x + 2, y, 2 + int(r, 3), g);
    else w.addRect(x, y, int(r, 12), int(r, 6), g);
  }],
];

/** selfPairs' order in one cell: slots sorted by box left edge (ties by slot), each against those after it. */
function oneCellOrder(w: World, mask: number): number[] {
  const slots: number[] = [];
  for (let s = 0; s < w.count; s++) if (w.kinds[s] !== 0 && (w.groups[s] & mask) !== 0) slots.push(s);
  const left = (s: number) => (w.kinds[s] === Kind.Circle ? Math.fround(w.x[s] - w.a[s]) : w.x[s]);
  slots.sort((p, q) => left(p) - left(q) || p - q);
  const out: number[] = [];
  for (let p = 0; p < slots.length; p++) {
    for (let q = p + 1; q < slots.length; q++) {
      if (refOverlap(shapeAt(w, slots[p]), shapeAt(w, slots[q]))) out.push(Math.min(slots[p], slots[q]), Math.max(slots[p], slots[q]));
    }
  }
  return out;
}

describe.each(PILES)("a pile in one cell: %s", (_, place) => {
  it.each([40, 300])("selfPairs gives the reference's pairs, in left-edge order, the same on every backend (n = %i)", async (n) => {
    const worlds = await pile(n, place);
    const runs = worlds.map((w) => {
      const m = w.selfPairs(1 | 2);
      const s = w.stats();
      expect([s.cols, s.rows]).toEqual([1, 1]);
      expect(pairKeys(w.pairs, m, false), w.backend).toEqual(refSelfPairs(w, 1 | 2));
      expect(Array.from(w.pairs.subarray(0, 2 * m)), w.backend).toEqual(oneCellOrder(w, 1 | 2));
      return [s.aabbTests, s.narrowTests, s.found];
    });
    for (const r of runs) expect(r).toEqual(runs[0]);
  });

  it.each([40, 300])("crossPairs and firstHits give the reference's pairs and hits on every backend (n = %i)", async (n) => {
    const worlds = await pile(n, place);
    const runs = worlds.map((w) => {
      const out: unknown[] = [];
      for (const [a, b] of [[1, 2], [2, 1], [1, 3], [3, 2]]) {
        const m = w.crossPairs(a, b);
        expect(pairKeys(w.pairs, m, false), `${w.backend} ${a} ${b}`).toEqual(refCrossPairs(w, a, b));
        out.push(Array.from(w.pairs.subarray(0, 2 * m)), w.stats().aabbTests);
        for (const exclusive of [true, false]) {
          const ref = refFirstHits(w, a, b, exclusive);
          const hits = w.firstHits(a, b, exclusive);
          expect(Array.from(w.pairs.subarray(0, 2 * hits)), `${w.backend} ${a} ${b} exclusive=${exclusive}`).toEqual(ref.pairs);
          expect(Array.from(w.flags.subarray(0, w.count))).toEqual(ref.flags);
          out.push(w.stats().aabbTests);
        }
      }
      return out;
    });
    for (const r of runs) expect(r).toEqual(runs[0]);
  });
});

describe("crowded cells", () => {
  it("sorted cells cut the search short: scattered points in one cell cost far fewer box tests than pairs of points", async () => {
    const n = 3000;
    const worlds = await pile(n, (w, k, r) => w.addPoint(int(r, 4000), int(r, 4000), 1 + (k % 2)));
    for (const w of worlds) {
      w.selfPairs(1 | 2);
      expect(w.stats().aabbTests, w.backend).toBeLessThan(n * 20); // a double loop tests n (n - 1) / 2 = 4.5M
      w.crossPairs(1, 2);
      expect(w.stats().aabbTests, w.backend).toBeLessThan(n * 20); // a double loop: 2.25M
      w.firstHits(1, 2);
      expect(w.stats().aabbTests, w.backend).toBeLessThan(n * 20);
    }
  });

  it("a pile past the pair buffer counts every pair and keeps the first, the same on every backend", async () => {
    const n = 500;
    const worlds = await pile(n, (w, k) => w.addPoint(3, 4, 1 + (k % 2)), { growPairs: false, pairCapacity: 1024 });
    const runs = worlds.map((w) => {
      const m = w.selfPairs(1 | 2);
      expect(m + w.droppedPairs, w.backend).toBe((n * (n - 1)) / 2);
      expect(m).toBe(1024);
      const first = Array.from(w.pairs.subarray(0, 2 * m));
      const c = w.crossPairs(1, 2);
      expect(c + w.droppedPairs, w.backend).toBe((n / 2) * (n / 2));
      return [first, Array.from(w.pairs.subarray(0, 2 * c))];
    });
    for (const r of runs) expect(r).toEqual(runs[0]);
  });

  it("firstHits with a pair buffer that may not grow: each bullet's hit, whatever crossPairs' pairs would need", async () => {
    // 1,000 bullets on 10 enemies: the enemies are few enough for a reach grid, whose bullet-enemy
    // pairs (10,000) pass the buffer (2,020); the hits (10) do not.
    for (const backend of BACKENDS) {
      const w = await newWorld(backend, { capacity: 1010, growPairs: false });
      for (let k = 0; k < 1000; k++) w.addCircle(50, 50, 3, 1);
      for (let k = 0; k < 10; k++) w.addCircle(50, 50, 3, 2);
      const ref = refFirstHits(w, 1, 2, true);
      const hits = w.firstHits(1, 2);
      expect(hits, backend).toBe(10);
      expect(w.droppedPairs).toBe(0);
      expect(Array.from(w.pairs.subarray(0, 2 * hits))).toEqual(ref.pairs);
      expect(Array.from(w.flags.subarray(0, w.count))).toEqual(ref.flags);
    }
  });
});
