// The worker protocol (WorldWorker on the page's side, serveWorld in the worker) over a
// MessageChannel in Node: its two ports stand for the worker and its scope, with the same
// structured cloning and transfer a real worker has. Frames are transferred here (Node has no
// cross-origin isolation); tests/browser.test.ts runs both kinds of frame in module workers.
// Needs dist/ (`npm run build`, which `npm test` runs first).
import { readFile } from "node:fs/promises";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { createWorld, Response, WorldWorker, type World } from "../dist/bindings/browser.js";
import { serveWorld } from "../dist/bindings/worker.js";

const core = new Uint8Array(await readFile(new URL("../dist/hitcore.wasm", import.meta.url)));
const LEVEL = { ascii: ["          ", "          ", "XXXXXXXXXX"], tileSize: 32 };

interface Setup { bullets: number }
interface Input { vy: number }

/** The scene both sides build: `bullets` circles in a row, moving down onto the tiles. */
function setup(world: World, { bullets }: Setup): void {
  for (let k = 0; k < bullets; k++) world.addCircle(16 + 30 * k, 10, 4);
}
function step(world: World, { vy }: Input, results: Float64Array): void {
  const n = world.count, vys = world.vy;
  for (let k = 0; k < n; k++) vys[k] = vy;
  results[0] = world.moveBodies(1, Response.Stop);
  results[1] = world.count;
}

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

const terminated = new Set<object>();

/** A WorldWorker whose "worker" is one port of a channel, serveWorld listening on the other. */
function channel(): Worker {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  serveWorld<Setup, Input>({ setup, step }, port2 as never);
  return Object.assign(port1, { terminate: () => { terminated.add(port1); port1.close(); } }) as unknown as Worker;
}

describe("WorldWorker and serveWorld", () => {
  it("create, loadLevel, step: the frames carry the same positions and results as the world run in-thread", async () => {
    const host = await WorldWorker.start(channel(), { world: { capacity: 8, wasm: core, simd: false }, setup: { bullets: 5 }, fields: ["x", "y", "flags"] });
    expect(host.shared).toBe(false);
    expect(host.frame.step).toBe(0);
    await host.loadLevel(LEVEL);

    const local = await createWorld({ capacity: 8, wasm: core, simd: false });
    setup(local, { bullets: 5 });
    local.loadLevel(LEVEL);
    const results = new Float64Array(8);
    const frames: Array<{ x: Float32Array }> = [];
    for (let s = 1; s <= 8; s++) {
      expect(host.step({ vy: 7 })).toBe(true);
      expect(host.step({ vy: 7 })).toBe(false); // one step in flight at a time
      expect(host.busy).toBe(true);
      const frame = await host.next();
      step(local, { vy: 7 }, results);
      expect(frame.step).toBe(s);
      expect(frame.count).toBe(5);
      expect([...frame.results]).toEqual([...results]);
      expect([...frame.views.x]).toEqual([...local.x.subarray(0, 5)]);
      expect([...frame.views.y]).toEqual([...local.y.subarray(0, 5)]);
      expect([...frame.views.flags]).toEqual([...local.flags.subarray(0, 5)]);
      frames.push(frame.views);
    }
    // The bodies fell onto the floor (row 2 starts at y 64): they stop on it, radius 4 above (less a skin).
    for (const y of host.frame.views.y) {
      expect(y).toBeGreaterThan(59.99);
      expect(y).toBeLessThanOrEqual(60);
    }
    // Transferred, not copied: a frame the page handed back (with the step after next) is detached there.
    expect(frames.slice(0, 6).map((v) => v.x.buffer.byteLength)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(frames[7].x.length).toBe(5);
    host.terminate();
    expect(() => host.step({ vy: 1 })).toThrow(/terminated/);
  });

  it("rejects a bad level with its HitcoreError code, and keeps serving", async () => {
    const host = await WorldWorker.start(channel(), { world: { capacity: 4, wasm: core }, setup: { bullets: 1 }, fields: ["x"] });
    // Both sent before either answers: each call gets its own answer, in order.
    const bad = host.loadLevel({ ascii: ["X?"] }), good = host.loadLevel(LEVEL);
    await expect(bad).rejects.toMatchObject({ name: "HitcoreError", code: "MALFORMED_MAP" });
    await expect(good).resolves.toBeUndefined();
    host.step({ vy: 1 });
    expect((await host.next()).count).toBe(1);
  });

  it("rejects a world the worker cannot create with its code, and stops that worker", async () => {
    const worker = channel();
    await expect(WorldWorker.start(worker, { world: { wasm: core, backend: "gpu" as never }, fields: ["x"] })).rejects.toMatchObject({ code: "INVALID_OPTION" });
    expect(terminated.has(worker)).toBe(true);
  });

  it("refuses fields it cannot carry, shared frames without isolation, and a world larger than its frames", async () => {
    await expect(WorldWorker.start(channel(), { world: { wasm: core }, fields: ["x", "pairs" as never] })).rejects.toMatchObject({ code: "INVALID_OPTION" });
    await expect(WorldWorker.start(channel(), { world: { wasm: core }, fields: ["x"], shared: true })).rejects.toThrow(/cross-origin isolated/);
    const host = await WorldWorker.start(channel(), { world: { capacity: 2, wasm: core }, setup: { bullets: 3 }, fields: ["x"] });
    host.step({ vy: 1 });
    await expect(host.next()).rejects.toMatchObject({ code: "CAPACITY" });
    expect(() => host.step({ vy: 1 })).toThrow(/more than the 2 its frames hold/);
  });
});
