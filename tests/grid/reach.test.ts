// Reach grids (assembly/grid/reach.ts, probed by reach_probe.ts): the cell table's cap, the
// widening for the probes' extents (measured, kept from the last call, grown within a call), the
// fall back to a home grid when the records pass the budget, and probes that touch exactly.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { Kind, type World } from "../../bindings/node.js";
import { refCrossPairs, shapeAt } from "../reference.js";
import { COVER_CELLS_MOST, COVER_CELLS_PER_ENTITY } from "../../layout/grid.js";
import { BACKENDS, newWorld, pairKeys } from "../support.js";
import { expectCrossOnEveryBackend, fewEnemies } from "./support.js";

describe("reach grids", () => {
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
});
