// hitcore through its public World API: rect entities, positions copied in each frame (setPositions
// on the SIMD core, the x / y views on the scalar core and the baseline), one selfPairs (complete)
// or crossPairs (bipartite) call per frame. The entry's createWorld is passed in, so the same
// adapter runs under Node (bindings/node.ts) and in the page (browser.ts).
import type { Backend, World } from "../../bindings/world.js";
import type { Peer, PeerRun } from "./peer.js";
import type { BoxScene } from "../../fixtures/box_scenes.js";

const SET_A = 1;
const SET_B = 2;

type CreateWorld = (options: { backend?: Backend; wasm?: URL | string; capacity?: number; pairCapacity?: number }) => Promise<World>;

/** The hitcore adapter for one backend ("wasm", "wasm-simd": the wasm backend on another core file, "js"). */
export function hitcorePeer(name: string, backend: Backend, createWorld: CreateWorld, wasm?: URL | string): Peer {
  const simd = name.includes("simd");
  return {
    name,
    hitcore: true,
    lag: 0,
    how: `hitcore ${backend === "js" ? "TS baseline" : "wasm core"}${simd ? " (SIMD build)" : ""}: ` +
      `rects added once; each frame positions copied in from the scene's Float64Arrays (${simd ?
        "world.setPositions(x, y): two byte copies and one checked conversion, four slots a step" :
        "TypedArray.set into world.x / world.y: setPositions checks every number one at a time here, which costs more than it saves"}), then one ` +
      "world.selfPairs(mask) (complete) or world.crossPairs(maskA, maskB) (bipartite); pairs read from world.pairs",
    async create(scene: BoxScene): Promise<PeerRun> {
      const world = await createWorld({ backend, wasm, capacity: scene.n, pairCapacity: 4 * scene.n });
      for (let k = 0; k < scene.n; k++) world.addRect(scene.x[k], scene.y[k], scene.w[k], scene.h[k], k < scene.nA ? SET_A : SET_B);
      const complete = scene.n === scene.nA;
      let count = 0;
      return {
        frame() {
          // Slot k is box k: the positions in one call, as a game keeping them in arrays of its own
          // would write them. On the scalar core and the baseline the fastest way is the views
          // (re-read each frame: growth would replace them), one unchecked bulk copy per axis.
          if (simd) {
            world.setPositions(scene.x, scene.y);
          } else {
            world.x.set(scene.x);
            world.y.set(scene.y);
          }
          count = complete ? world.selfPairs(SET_A) : world.crossPairs(SET_A, SET_B);
          return count;
        },
        pairs: () => ({ buf: world.pairs, count }),
        dispose() { /* the world's memory goes with the last reference */ },
      };
    },
  };
}
