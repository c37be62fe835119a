// debugDraw allocates nothing per command drawn once warmed up, into a stream and onto a canvas
// context, and at most two heap numbers a call: in some processes V8 leaves one call that passes
// a double out of line (a few in ten runs of this file on a busy machine read 32 bytes a call from
// then on; the others 0). Measured as tests/allocation.test.ts measures, in a file of its own (vitest runs each file in a
// fresh process) so that V8's type feedback is that of a page: one backend, one context class.
// The recording context of debug_draw.test.ts, or a second backend's world through the same call
// sites, leaves them polymorphic, and a double passed through a call V8 did not inline is boxed.
// A browser's context is native code, which converts the numbers it is given as it does for any
// drawing code; the counting context here shows what debugDraw itself allocates.
import { describe, expect, it } from "vitest";
import { debugDraw, DrawStream, type DebugCanvas } from "../bindings/node.js";
import { everyPart, gc, leastHeapPerCall } from "./support.js";

describe("debugDraw: no allocation per command drawn", () => {
  /** A context that only counts calls: what a frame costs debugDraw itself. */
  class CountingContext implements DebugCanvas {
    readonly canvas = { width: 800, height: 600 };
    strokeStyle: unknown = "";
    fillStyle: unknown = "";
    lineWidth = 1;
    calls = 0;
    save(): void { this.calls++; }
    restore(): void { this.calls++; }
    beginPath(): void { this.calls++; }
    closePath(): void { this.calls++; }
    moveTo(): void { this.calls++; }
    lineTo(): void { this.calls++; }
    rect(): void { this.calls++; }
    arc(): void { this.calls++; }
    stroke(): void { this.calls++; }
    fill(): void { this.calls++; }
  }

  for (const backend of ["wasm-scalar"] as const) {
    it.runIf(gc !== undefined)(`into a stream and onto a canvas, once warmed up (${backend})`, async () => {
      const world = await everyPart(backend);
      const stream = new DrawStream({ capacity: 16 });
      const ctx = new CountingContext();
      const options = { camera: { x: -10, y: -10, scale: 1.25 } };
      let t = 0;
      const frame = () => {
        // The bodies move and the grid is rebuilt, as in a game's frame.
        const x = world.x;
        t = (t + 1) % 64;
        for (let k = 0; k < 40; k++) x[k] = 20 + 17 * k + t;
        world.selfPairs();
        debugDraw(world, stream);
        debugDraw(world, ctx, options);
      };
      for (let k = 0; k < 10000; k++) frame(); // until V8 has tiered every path up, on a loaded machine too
      expect(stream.count).toBeGreaterThan(100);
      expect(ctx.calls).toBeGreaterThan(0);
      // Up to 40 windows: on a loaded machine V8 may still be tiering the drawing code up for a
      // few thousand more frames (windows read about 100 bytes a call before it settles).
      const bytes = leastHeapPerCall(frame, 1000, 2, 2, 40);
      expect(bytes).toBeLessThan(40);
      // Each call draws over a hundred commands: nothing is allocated per command.
      expect(bytes / stream.count).toBeLessThan(0.5);
    });
  }
});
