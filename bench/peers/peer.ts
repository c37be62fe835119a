// What every library's adapter provides to the comparison: build its structures once from a
// scene's frame-0 positions, then per frame read the scene's new positions, find every overlapping
// pair and write them into a pair buffer. Only frame() is timed.
import type { BoxScene } from "../../fixtures/box_scenes.js";

export interface PeerRun {
  /** Reads the scene's positions into the library, finds all pairs; returns their number. */
  frame(): number;
  /** The last frame's pairs: (a, b) box indices at [2k], [2k + 1] for k below the count. */
  pairs(): { buf: Int32Array; count: number };
  /** Frees what the library holds (rapier's wasm objects); the run is not used again. */
  dispose(): void;
}

export interface Peer {
  /** Name in the tables and the plot. */
  name: string;
  /** hitcore itself (the ratios are against "hitcore wasm"). */
  hitcore: boolean;
  /** How the library is driven, in a sentence for the results. */
  how: string;
  /** Frames its pairs lag behind the positions (rapier reports the positions before its step). */
  lag: number;
  create(scene: BoxScene): Promise<PeerRun>;
}
