// "Nothing allocates per frame": swept-box casts of each part and the world's casts across parts
// on the wasm path, measured on the JS heap after warm-up. In a file of its own (vitest runs each
// file in a fresh process) so that V8's type feedback is that of an app on one backend: tests that
// drive both backends through the same facade call sites leave them polymorphic, and a double
// passed through a call V8 did not inline is boxed.
import { describe, expect, it } from "vitest";
import { createWorld } from "../bindings/node.js";
import { backendOptions, gc, leastHeapPerCall } from "./support.js";

describe("the frame loop", () => {
  // The wasm path, as the other parts measure theirs: the TS baseline's kernel methods take
  // doubles through calls V8 may or may not inline, so its figure depends on tier-up timing.
  it.runIf(gc !== undefined)("each part's casts and the world's casts across parts allocate no JS heap (wasm-scalar)", async () => {
    for (const backend of ["wasm-scalar"] as const) {
      const world = await createWorld(await backendOptions(backend));
      const rects = world.addRectLevel(), plats = world.addPlatforms();
      rects.addInstance(rects.addPrefab([0, 0, 30, 10]), 100, 100);
      plats.addSurface(0, 0, 100, 0);
      plats.addPolygon([200, 0, 300, 0, 300, 50, 200, 50]);
      let x = 0;
      const frame = () => {
        x = (x + 1) % 300;
        plats.castBox(x, 100, 10, 6, 3, -200);
        rects.castBox(x, 100, 10, 6, 3, -200);
        world.castBox(x, 100, 10, 6, 3, -200);
        world.castCircle(x, 100, 5, 3, -200);
        world.castSegment(x, 100, 3, -200);
      };
      for (let f = 0; f < 30000; f++) frame(); // until V8 has tiered every path up
      expect(leastHeapPerCall(frame, 3000, 2), backend).toBeLessThan(2);
    }
  });
});
