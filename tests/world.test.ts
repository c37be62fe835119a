// The facade: ids, growth, views, validation. Every rejected call leaves the store as it was.
import { describe, expect, it } from "vitest";
import { makeScene, loadScene } from "../fixtures/scenes.js";
import { ALL_GROUPS, HitcoreError, Kind, NULL_ID, type World } from "../bindings/node.js";
import { refSelfPairs } from "./reference.js";
import { BACKENDS, newWorld, pairKeys, selfPairsOf } from "./support.js";

/** The largest coordinate a store holds: the largest f32 at most MAX_COORD (1e30 itself rounds up past it). */
const EDGE = Math.fround(9.9999995e29);

/** Everything a user can observe of the store. */
function snapshot(w: World) {
  const n = w.count;
  return {
    count: n, size: w.size, capacity: w.capacity,
    x: Array.from(w.x.subarray(0, n)), y: Array.from(w.y.subarray(0, n)),
    a: Array.from(w.a.subarray(0, n)), b: Array.from(w.b.subarray(0, n)),
    groups: Array.from(w.groups.subarray(0, n)), kinds: Array.from(w.kinds.subarray(0, n)),
  };
}

function rejects(w: World, code: string, call: () => unknown, mentions: RegExp): void {
  const before = snapshot(w);
  let caught: unknown = null;
  try { call(); } catch (e) { caught = e; }
  expect(caught, `expected ${code}`).toBeInstanceOf(HitcoreError);
  expect((caught as HitcoreError).code).toBe(code);
  expect((caught as HitcoreError).message).toMatch(mentions);
  expect(snapshot(w)).toEqual(before);
}

describe.each(BACKENDS)("world on %s", (backend) => {
  it("adds shapes into slots and reads them back through the views", async () => {
    const w = await newWorld(backend);
    const p = w.addPoint(1, 2, 4), c = w.addCircle(3, 4, 5), r = w.addRect(6, 7, 8, 9, 2);
    expect([w.kindOf(p), w.kindOf(c), w.kindOf(r)]).toEqual([Kind.Point, Kind.Circle, Kind.Rect]);
    const s = w.indexOf(r);
    expect([w.x[s], w.y[s], w.a[s], w.b[s], w.groups[s]]).toEqual([6, 7, 8, 9, 2]);
    expect(w.idAt(s)).toBe(r);
    expect(w.size).toBe(3);
    w.setCircle(r, 1, 1, 2);
    expect(w.kindOf(r)).toBe(Kind.Circle);
    w.setGroups(r, 8);
    expect(w.groups[s]).toBe(8);
  });

  it("a removed id stays invalid after its slot is reused", async () => {
    const w = await newWorld(backend);
    const a = w.addCircle(0, 0, 1);
    const slot = w.indexOf(a);
    w.remove(a);
    expect(w.has(a)).toBe(false);
    expect(w.idAt(slot)).toBe(NULL_ID);
    const b = w.addCircle(5, 5, 1);
    expect(w.indexOf(b)).toBe(slot);
    expect(b).not.toBe(a);
    expect(w.has(a)).toBe(false);
    rejects(w, "UNKNOWN_ID", () => w.setPosition(a, 1, 1), /was removed/);
    rejects(w, "UNKNOWN_ID", () => w.remove(a), /has\(id\)/);
    rejects(w, "UNKNOWN_ID", () => w.indexOf(12345), /not an id/);
    rejects(w, "UNKNOWN_ID", () => w.touching(b * 2, 1), /never issued|not an id|removed/);
    w.validate();
  });

  it("rejects bad numbers, sizes, groups and masks, naming the fix", async () => {
    const w = await newWorld(backend);
    w.addRect(0, 0, 10, 10);
    const id = w.addCircle(3, 3, 2);
    rejects(w, "INVALID_NUMBER", () => w.addCircle(NaN, 0, 1), /x must be a finite number.*NaN/);
    rejects(w, "INVALID_NUMBER", () => w.addRect(0, Infinity, 1, 1), /y must be a finite number/);
    rejects(w, "INVALID_NUMBER", () => w.addPoint(1e31, 0), /magnitude at most/);
    rejects(w, "NEGATIVE_SIZE", () => w.addCircle(0, 0, -1), /radius must be >= 0/);
    rejects(w, "NEGATIVE_SIZE", () => w.addRect(0, 0, 5, -2), /height must be >= 0.*top-left/);
    rejects(w, "NEGATIVE_SIZE", () => w.setRect(id, 0, 0, -5, 2), /width must be >= 0/);
    rejects(w, "INVALID_NUMBER", () => w.setPosition(id, 0, NaN), /y must be a finite number/);
    rejects(w, "INVALID_GROUPS", () => w.addPoint(0, 0, 1.5), /groups must be an integer bit set/);
    rejects(w, "INVALID_GROUPS", () => w.addPoint(0, 0, -1), /groups must be an integer bit set/);
    rejects(w, "INVALID_MASK", () => w.selfPairs(0), /mask must be a non-zero integer/);
    rejects(w, "INVALID_MASK", () => w.crossPairs(1, 2 ** 32), /maskB/);
    rejects(w, "NEGATIVE_SIZE", () => w.queryRect(0, 0, -1, 1), /width must be >= 0/);
    rejects(w, "INVALID_NUMBER", () => w.queryCircle(0, 0, NaN), /radius must be a finite number/);
    rejects(w, "INVALID_NUMBER", () => w.addCircle("3" as unknown as number, 0, 1), /got string 3/);
    await expect(newWorld(backend, { capacity: 0 })).rejects.toThrow(/capacity must be an integer >= 1/);
    await expect(newWorld(backend, { cellSize: -2 })).rejects.toThrow(/cellSize must be 0 \(automatic\)/);
  });

  it("a full store that may not grow says so and stays unchanged", async () => {
    const w = await newWorld(backend, { capacity: 4, growable: false });
    for (let k = 0; k < 4; k++) w.addCircle(k, k, 1);
    rejects(w, "STORE_FULL", () => w.addCircle(9, 9, 1), /store is full \(4 entities\).*larger capacity/);
    const limited = await newWorld(backend, { capacity: 2, maxCapacity: 4 });
    for (let k = 0; k < 4; k++) limited.addPoint(k, k);
    rejects(limited, "STORE_FULL", () => limited.addPoint(9, 9), /Raise maxCapacity/);
  });

  it("bad data written through the views is reported by slot and field, never trapping the core", async () => {
    const w = await newWorld(backend);
    loadScene(w, makeScene("uniform", 50, 3));
    const id = w.addCircle(10, 10, 3);
    const s = w.indexOf(id);
    for (const [field, value] of [["x", NaN], ["y", Infinity], ["a", -4]] as const) {
      const view = w[field];
      const keep = view[s];
      view[s] = value;
      expect(() => w.selfPairs()).toThrow(new RegExp(`slot ${s} .* (x|y|radius) = ${value}`));
      expect(() => w.firstHits(1, 2)).toThrow(HitcoreError);
      expect(() => w.crossPairs(ALL_GROUPS, ALL_GROUPS)).toThrow(/written through a view/);
      // A probe query's scan refuses it by the same rule, no trap.
      expect(() => w.queryRect(0, 0, 1000, 1000)).toThrow(new RegExp(`slot ${s} .* (x|y|radius) = ${value}`));
      view[s] = keep;
    }
    const n = w.selfPairs();
    expect(pairKeys(w.pairs, n, false)).toEqual(refSelfPairs(w, ALL_GROUPS));
  });

  it("growth rebuilds the views, keeps every entity, and old views are detached", async () => {
    const w = await newWorld(backend, { capacity: 8 });
    const oldX = w.x;
    const ids = loadScene(w, makeScene("mixed-groups", 3000, 8));
    expect(w.capacity).toBeGreaterThanOrEqual(3000);
    if (backend !== "js") expect(oldX.length).toBe(0); // a grown wasm memory detaches old views
    const scene = makeScene("mixed-groups", 3000, 8);
    for (let k = 0; k < 3000; k += 97) {
      const s = w.indexOf(ids[k]);
      expect([w.x[s], w.y[s], w.a[s], w.groups[s], w.kinds[s]]).toEqual([scene.x[k], scene.y[k], scene.a[k], scene.groups[k], scene.kind[k]]);
    }
    w.validate();
    expect(pairKeys(...selfPairsOf(w))).toEqual(refSelfPairs(w, ALL_GROUPS));
  });

  it("setPositions moves slots [0, n) as the views would, and pairs follow", async () => {
    const w = await newWorld(backend, { capacity: 8 });
    loadScene(w, makeScene("mixed-groups", 3001, 5)); // grown past 8: the staging views are rebuilt too
    const n = w.count;
    // f64 positions that f32 rounds (and one below f32's smallest normal), the last slot included
    // (an odd count: the SIMD core's last slot goes through its scalar loop).
    const xs = new Float64Array(n), ys = new Float64Array(n);
    for (let k = 0; k < n; k++) { xs[k] = (k * 7919) % 2003 + 0.1 * k; ys[k] = -((k * 104729) % 1999) - 1 / 3; }
    xs[n - 1] = 1e-40;
    ys[n - 2] = EDGE;
    const want = snapshot(w);
    want.x = Array.from(Float32Array.from(xs));
    want.y = Array.from(Float32Array.from(ys));
    w.setPositions(xs, ys);
    expect(snapshot(w)).toEqual(want);
    expect(pairKeys(...selfPairsOf(w))).toEqual(refSelfPairs(w, ALL_GROUPS));
    // A shorter pair of arrays (plain arrays too) moves only its slots.
    w.setPositions([5, 6], [7, 8]);
    expect([w.x[0], w.x[1], w.y[0], w.y[1], w.x[2]]).toEqual([5, 6, 7, 8, want.x[2]]);
    w.setPositions(new Float64Array(0), new Float64Array(0));
    expect(w.x[0]).toBe(5);
  });

  it("setPositions rejects bad numbers and lengths, moving nothing", async () => {
    const w = await newWorld(backend);
    for (let k = 0; k < 37; k++) w.addCircle(k, k, 1);
    const xs = new Float64Array(37).fill(3), ys = new Float64Array(37).fill(4);
    // 1.0000000001e30 and 1e30 are past MAX_COORD once rounded to f32 (1.00000002e30), as the store would hold them: the SIMD
    // core's f32 check finds them, and the scalar core checks the rounded value too.
    // passes it to the exact one.
    for (const [slot, bad] of [[0, NaN], [36, Infinity], [17, -1e31], [33, NaN], [6, 1.0000000001e30], [9, -1.0000000001e30], [20, 1e30], [21, -1e30]] as const) {
      const bx = xs.slice(), by = ys.slice();
      (slot % 2 ? by : bx)[slot] = bad;
      rejects(w, "INVALID_NUMBER", () => w.setPositions(bx, by), new RegExp(`slot ${slot} has x.*${String(bad).replace("+", "\\+")}.*finite`));
    }
    rejects(w, "INVALID_ARGUMENT", () => w.setPositions(xs, ys.subarray(1)), /xs has 37 numbers and ys 36/);
    rejects(w, "INVALID_ARGUMENT", () => w.setPositions(new Float64Array(38), new Float64Array(38)), /38 positions for 37 slots/);
    w.setPositions(xs, ys);
    expect([w.x[36], w.y[0]]).toEqual([3, 4]);
  });

  it("a pair buffer too small grows and the query returns every pair", async () => {
    const w = await newWorld(backend, { capacity: 64, pairCapacity: 4 });
    loadScene(w, makeScene("one-cell", 64, 2));
    const ref = refSelfPairs(w, ALL_GROUPS);
    expect(ref.length).toBeGreaterThan(100);
    const n = w.selfPairs();
    expect(n).toBe(ref.length);
    expect(pairKeys(w.pairs, n, false)).toEqual(ref);
    expect(w.droppedPairs).toBe(0);
  });

  it("with growPairs false, overflow is reported, not dropped silently", async () => {
    const w = await newWorld(backend, { capacity: 64, pairCapacity: 10, growPairs: false });
    loadScene(w, makeScene("one-cell", 64, 2));
    const ref = refSelfPairs(w, ALL_GROUPS);
    const n = w.selfPairs();
    expect(n).toBe(10);
    expect(w.droppedPairs).toBe(ref.length - 10);
    for (const key of pairKeys(w.pairs, n, false)) expect(ref).toContain(key);
  });

  it("add/remove churn keeps memory bounded and the store valid", async () => {
    const w = await newWorld(backend, { capacity: 256 });
    const live: number[] = [];
    let seed = 1;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let k = 0; k < 1000; k++) live.push(w.addCircle(rnd() * 500, rnd() * 500, 2));
    w.selfPairs();
    const bytes = w.memoryBytes;
    for (let round = 0; round < 50; round++) {
      for (let k = 0; k < 300; k++) w.remove(live.splice(Math.floor(rnd() * live.length), 1)[0]);
      for (let k = 0; k < 300; k++) live.push(w.addRect(rnd() * 500, rnd() * 500, 3, 3));
      w.selfPairs();
    }
    expect(w.memoryBytes).toBe(bytes);
    expect(w.size).toBe(1000);
    expect(w.count).toBeLessThanOrEqual(1300);
    w.validate();
    for (const id of live) expect(w.has(id)).toBe(true);
  });

  it("clear() invalidates every id and empties every query", async () => {
    const w = await newWorld(backend);
    const ids = loadScene(w, makeScene("uniform", 100, 1));
    w.clear();
    expect(w.size).toBe(0);
    expect(ids.some((id) => w.has(id))).toBe(false);
    expect(w.selfPairs()).toBe(0);
    expect(w.queryRect(-1e6, -1e6, 2e6, 2e6)).toBe(0);
  });

  it("queries on an empty world return nothing and do not trap", async () => {
    const w = await newWorld(backend);
    expect(w.selfPairs()).toBe(0);
    expect(w.crossPairs(1, 2)).toBe(0);
    expect(w.firstHits(1, 2)).toBe(0);
    expect(w.buildGrid()).toBe(0);
    expect(w.queryPoint(0, 0)).toBe(0);
    expect(w.queryRect(0, 0, 10, 10)).toBe(0);
  });

  it("extreme but valid coordinates stay exact", async () => {
    const w = await newWorld(backend);
    w.addRect(-EDGE, -EDGE, EDGE, EDGE);
    w.addRect(0, 0, 1, 1);
    w.addCircle(EDGE, EDGE, EDGE);
    w.addPoint(0.5, 0.5);
    w.addCircle(2, 0, 0);
    const n = w.selfPairs();
    expect(pairKeys(w.pairs, n, false)).toEqual(refSelfPairs(w, ALL_GROUPS));
  });
});

describe("huge probes", () => {
  it("a probe reaching past 2^31 cells finds the same bodies on every backend (cell indices clamped before the conversion)", async () => {
    for (const backend of BACKENDS) {
      const world = await newWorld(backend);
      world.addCircle(10, 10, 3); world.addPoint(500, 500); world.addRect(-100, 40, 5, 5);
      for (const r of [1e3, 1e18, 4.79e20, 9e29]) {
        expect(world.queryCircle(-0.625, 532.125, r), `${backend} r ${r}`).toBe(3);
        world.selfPairs(); // and through the grid the pair query leaves
        expect(world.queryCircle(-0.625, 532.125, r), `${backend} r ${r} on the grid`).toBe(3);
        expect(world.queryRect(-1e20, -1e20, 2e20, 2e20), `${backend}`).toBe(3);
      }
    }
  });
});

describe("the published entry", () => {
  it("loads the packaged wasm from dist/ with no options", async () => {
    const { createWorld } = await import("../dist/bindings/node.js");
    const w = await createWorld({ capacity: 4 });
    w.addCircle(0, 0, 2);
    w.addCircle(3, 0, 2);
    expect(w.backend).toBe("wasm");
    expect(w.selfPairs()).toBe(1);
  });
});
