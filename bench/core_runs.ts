// The interleaved timing that `npm run bench:simd` and `npm run bench:ab` share: a wasm core's
// worlds on the peers scenes (fixtures/box_scenes.ts) or on MovingCircles (fixtures/scenes.ts), and
// rounds that alternate which core goes first, each core's time the least mean ms per frame over
// rounds and worlds, so a noisy machine's slow spells drop out. bench:ab also pairs the cores
// frame by frame (paired), whose ratios hold when the machine's speed changes from one second to
// the next (this VM's does, by up to 1.5x).
import { createWorld } from "../bindings/node.js";
import type { World } from "../bindings/world.js";
import { BoxScene, type Mode, type Shape } from "../fixtures/box_scenes.js";
import { BULLET, MovingCircles } from "../fixtures/scenes.js";

export interface Run {
  readonly world: World;
  /** Moves the scene and writes the positions into the world (untimed). */
  step(): void;
  /** The collision call (timed); returns the pair count. */
  frame(): number;
}

/** A world on core `bytes` holding a peers scene's boxes; frame() is selfPairs (complete) or crossPairs (bipartite). */
export async function boxRun(bytes: Uint8Array, scene: BoxScene): Promise<Run> {
  const world = await createWorld({ wasm: bytes, capacity: scene.n, pairCapacity: 4 * scene.n });
  for (let k = 0; k < scene.n; k++) world.addRect(scene.x[k], scene.y[k], scene.w[k], scene.h[k], k < scene.nA ? 1 : 2);
  const complete = scene.n === scene.nA;
  return {
    world,
    step() {
      scene.step();
      const x = world.x, y = world.y;
      for (let k = 0; k < scene.n; k++) { x[k] = scene.x[k]; y[k] = scene.y[k]; }
    },
    frame: () => (complete ? world.selfPairs(1) : world.crossPairs(1, 2)),
  };
}

/** A world on core `bytes` holding n moving circles; frame() is selfPairs. */
export async function circlesRun(bytes: Uint8Array, n: number): Promise<Run> {
  const world = await createWorld({ wasm: bytes, capacity: n, pairCapacity: 4 * n });
  const scene = new MovingCircles(world, n);
  return { world, step: () => scene.step(), frame: () => world.selfPairs(BULLET) };
}

/** A run of scene `name` ("circles self" or "<shape> <mode>", as the tables name them) at size n. */
export function sceneRun(name: string, n: number, bytes: Uint8Array): Promise<Run> {
  if (name === "circles self") return circlesRun(bytes, n);
  const [shape, mode] = name.split(" ") as [Shape, Mode];
  return boxRun(bytes, new BoxScene({ shape, mode, n }));
}

/**
 * Times runs[core][world] in `rounds` rounds of `frames` frames, the cores taking turns (which one
 * goes first alternates); returns each core's least mean ms per frame.
 */
export function interleave(runs: Run[][], rounds: number, frames: number): number[] {
  const best = runs.map(() => Infinity);
  const worlds = runs[0].length;
  for (let r = 0; r < rounds; r++) {
    for (let w = 0; w < worlds; w++) {
      for (let j = 0; j < runs.length; j++) {
        const c = (j + r + w) % runs.length;
        const run = runs[c][w];
        let t = 0;
        for (let f = 0; f < frames; f++) {
          run.step();
          const t0 = performance.now();
          run.frame();
          t += performance.now() - t0;
        }
        best[c] = Math.min(best[c], t / frames);
      }
    }
  }
  return best;
}

/**
 * Times runs[0] against each other run frame by frame: the two alternate (A B, then B A), and each
 * frame's time is divided by its neighbour's. Returns, per run, the median of those ratios over
 * `pairs` pairs (1 for runs[0]). Neighbouring frames share the machine's state, so its slow and
 * fast spells cancel; the caches, though, are the other run's, as in a game whose frame does other
 * work between collision calls.
 */
export function paired(runs: Run[], pairs: number): number[] {
  const time = (run: Run) => {
    run.step();
    const t0 = performance.now();
    run.frame();
    return performance.now() - t0;
  };
  const ratios = new Float64Array(pairs);
  return runs.map((run, j) => {
    if (j === 0) return 1;
    for (let k = 0; k < pairs; k++) {
      let a: number, b: number;
      if (k & 1) { a = time(runs[0]); b = time(run); } else { b = time(run); a = time(runs[0]); }
      ratios[k] = b / a;
    }
    return median(ratios);
  });
}

/** The median of a sample (sorted in place). */
function median(v: Float64Array): number {
  v.sort();
  const h = v.length >> 1;
  return v.length & 1 ? v[h] : (v[h - 1] + v[h]) / 2;
}
