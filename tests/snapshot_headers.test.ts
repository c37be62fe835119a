// A snapshot whose part headers (the region pointers, capacities and counts the core trusts) or
// current grid were changed, its checksum made to match as a hostile save file would: restore
// refuses it, or takes what the world can run. Every call after it answers or throws a
// HitcoreError; none traps.
import { describe, expect, it } from "vitest";
import { crc32 } from "../bindings/snapshot.js";
import { HitcoreError, type World } from "../bindings/node.js";
import { ARENA_BASE, H_BOX, H_CELLS, H_ENTRIES, H_LARGE, H_SEL, HEADER, HEADERS_END } from "../layout/grid.js";
import { everyPart, newWorld } from "./support.js";

const PREAMBLE = 24;

/** Where the snapshot's memory (its headers, then its regions) starts, past the preamble and the state. */
function memoryStart(bytes: Uint8Array): number {
  return PREAMBLE + new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
}

/**
 * Restores `saved` with the word at byte `at` set to `value` and the checksum made to match, as a
 * hostile save file would be; returns whether restore took it (a refusal must be a HitcoreError).
 */
function restoreChanged(world: World, saved: Uint8Array, at: number, value: number): boolean {
  const bytes = saved.slice(), view = new DataView(bytes.buffer);
  view.setInt32(at, value, true);
  view.setUint32(20, crc32(bytes.subarray(PREAMBLE)), true);
  try {
    world.restore(bytes);
    return true;
  } catch (e) {
    expect(e).toBeInstanceOf(HitcoreError);
    return false;
  }
}

/** One call of each kind that reads what the headers point at. */
function everyCall(world: World): void {
  const map = world.tileMap!, level = world.rectLevel!, plat = world.platforms!;
  world.vx.fill(7);
  world.vy.fill(-5);
  const calls: (() => unknown)[] = [
    () => world.queryRect(0, 0, 400, 400), () => world.selfPairs(), () => world.crossPairs(1, 2), () => world.firstHits(1, 2),
    () => world.queryCircle(100, 200, 50), () => world.buildGrid(3), () => world.queryRect(0, 0, 400, 400),
    () => world.moveBodies(), () => world.overlapLevel(), () => world.controllerContacts(8),
    () => world.castSegment(0, 100, 600, 300), () => world.castBox(10, 10, 8, 8, 400, 300), () => world.castMany(2),
    () => map.collidePoints(4), () => map.stepControllers(1 / 60), () => map.moveBoxes(1), () => map.flagsAt(40, 40),
    () => level.stepCharacters(), () => level.moveProjectiles(2), () => level.queryBox(0, 0, 600, 400), () => level.castSegment(0, 0, 600, 300),
    () => plat.step(1 / 60), () => plat.castSegment(0, 300, 600, 500), () => plat.castBox(0, 300, 10, 10, 600, 200),
  ];
  for (const call of calls) {
    try {
      call();
    } catch (e) {
      if (!(e instanceof HitcoreError)) throw e;
    }
  }
}

describe("a snapshot with tampered part headers", () => {
  for (const backend of ["wasm-scalar", "js"] as const) {
    it(`is refused, or runs every call without a trap (${backend})`, async () => {
      const world = await everyPart(backend);
      const saved = world.snapshot();
      const memoryAt = memoryStart(saved);
      const failures: string[] = [];
      let taken = 0;
      for (let at = 0; at < HEADERS_END; at += 4) {
        const was = new DataView(saved.buffer).getInt32(memoryAt + at, true);
        if (was === 0) continue; // a field no part uses (or a count of 0): changed below from another field's view
        for (const value of [-1, was + 4, was * 2 + 64, 1 << 30, 0x7fffffff]) {
          if (!restoreChanged(world, saved, memoryAt + at, value)) continue;
          taken++;
          try {
            everyCall(world);
          } catch (e) {
            failures.push(`byte ${at} (was ${was}) = ${value}: ${e instanceof Error ? e.message : String(e)}`);
          }
          world.restore(saved);
        }
      }
      expect(failures).toEqual([]);
      expect(taken).toBeGreaterThan(0); // fields the core does not trust (stats, the last cast's hit) are taken
      expect(Buffer.compare(world.snapshot(), saved)).toBe(0);
    }, 300_000);
  }
});

describe("a snapshot with a tampered grid", () => {
  for (const backend of ["wasm-scalar", "js"] as const) {
    it(`is refused, or its probes answer without a trap (${backend})`, async () => {
      // The grid the last selfPairs built is current, so the probes after restore read it: its
      // cell ends, records, selection and large list, each word changed in turn near its start.
      let taken = 0;
      const failures: string[] = [];
      for (const field of [H_CELLS, H_ENTRIES, H_SEL, H_LARGE, H_BOX]) {
        for (const value of [-1, 1 << 20, 0x7fffffff, 123456]) {
          for (let word = 0; word < 24; word++) {
            const world = await newWorld(backend, { capacity: 64 });
            for (let k = 0; k < 40; k++) world.addCircle(10 * (k % 8), 10 * (k >> 3), 3 + (k % 3) * 20);
            world.selfPairs();
            const saved = world.snapshot(), memoryAt = memoryStart(saved);
            const at = new DataView(saved.buffer).getInt32(memoryAt + HEADER + 4 * field, true) + 4 * word; // the region's address, then the word's
            if (!restoreChanged(world, saved, memoryAt + HEADERS_END + at - ARENA_BASE, value)) continue;
            taken++;
            for (const call of [() => world.queryRect(0, 0, 50, 50), () => world.queryCircle(30, 30, 20), () => world.touching(world.idAt(0))]) {
              try {
                call();
              } catch (e) {
                if (!(e instanceof HitcoreError)) failures.push(`field ${field} word ${word} = ${value}: ${e instanceof Error ? e.message : String(e)}`);
              }
            }
          }
        }
      }
      expect(failures).toEqual([]);
      expect(taken).toBeGreaterThan(0); // words past what the grid uses are taken
    }, 120_000);
  }
});

describe("the grid check", () => {
  it("takes a current grid with no cells, whatever its cell table still holds", async () => {
    // buildGrid over a mask nobody is in leaves a current grid of 0 x 0 cells over the last grid's cell table.
    const world = await newWorld("wasm-scalar", { capacity: 64 });
    for (let k = 0; k < 40; k++) world.addCircle(10 * (k % 8), 10 * (k >> 3), 3, 1);
    world.selfPairs();
    world.buildGrid(8);
    expect(world.stats().cols).toBe(0);
    world.validate();
    const saved = world.snapshot();
    world.restore(saved);
    expect(world.queryRect(0, 0, 50, 50, 8)).toBe(0);
  });
});
