// Shared by the grid's tests (tests/grid/, one file per concept of assembly/grid/): differential
// tests on seeded scenes, including the hard ones (everything in one cell, huge entities among
// small, zero sizes, exact touching), where the wasm core (both builds), its js build and the
// brute-force reference (../reference.ts) report identical pair sets, first hits and query results.
import { expect } from "vitest";
import { makeScene, loadScene, type SceneShape } from "../../fixtures/scenes.js";
import type { World } from "../../bindings/node.js";
import { BACKENDS, newWorld, pairKeys } from "../support.js";

/** The scene sizes the per-scene tests run: one entity, two, a few, and enough to fill cells. */
export const SIZES = [1, 2, 37, 600];

/** A world per backend (in BACKENDS' order) holding makeScene(shape, n, seed); cellSize 0 is automatic. */
export async function worldsFor(shape: SceneShape, n: number, seed: number, cellSize = 0): Promise<World[]> {
  const scene = makeScene(shape, n, seed);
  const worlds: World[] = [];
  for (const backend of BACKENDS) {
    const w = await newWorld(backend, { capacity: 16, cellSize });
    loadScene(w, scene);
    worlds.push(w);
  }
  return worlds;
}

/** Bullets against a few enemies: 1 slot in 25 is an enemy (group 2), 1 in 75 is in both groups. */
export async function fewEnemies(shape: SceneShape, n: number, seed: number): Promise<World[]> {
  const worlds = await worldsFor(shape, n, seed);
  for (const w of worlds) {
    for (let k = 0; k < w.count; k++) w.setGroups(w.idAt(k), k % 75 === 0 ? 3 : k % 25 === 0 ? 2 : 1);
  }
  return worlds;
}

/** crossPairs(1, 2) on each world gives `ref`, on a reach grid or not (`cover`), and every backend the same pairs, order and stats. */
export function expectCrossOnEveryBackend(worlds: World[], ref: number[], cover: boolean): void {
  const runs = worlds.map((w) => {
    const n = w.crossPairs(1, 2);
    expect(pairKeys(w.pairs, n, false), w.backend).toEqual(ref);
    expect(w.stats().cover, w.backend).toBe(cover);
    return [Array.from(w.pairs.subarray(0, 2 * n)), w.stats()];
  });
  for (const r of runs.slice(1)) expect(r).toEqual(runs[0]);
}
