// Probe queries (assembly/grid/probes.ts): rect, circle, point and touching queries on every fixture
// scene match brute force with and without a grid, and on the reach grid crossPairs leaves behind.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../fixtures/random.js";
import { SCENE_SHAPES } from "../../fixtures/scenes.js";
import { Kind } from "../../bindings/node.js";
import { refQuery, shapeAt } from "../reference.js";
import { sortedResults } from "../support.js";
import { fewEnemies, worldsFor } from "./support.js";

describe.each(SCENE_SHAPES)("scene %s", (shape) => {
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

describe("probe queries on a reach grid", () => {
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
});
