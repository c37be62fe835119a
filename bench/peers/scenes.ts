// The peers comparison's scenes, after box-intersect's benchmark: boxes uniform in a square,
// clustered, or with skewed (high aspect ratio) sizes; complete (all pairs in one set) or bipartite
// (set A, the bullets, against set B, about 3% as many enemies: 50k against 1.5k).
//
// Every box moves every frame, by whole units, back and forth around its home (period 16 frames),
// so clusters stay clusters however many frames a fast library runs. Positions are integers and
// sizes are integers plus 0.5, so two edges are always at least 0.5 apart: boxes never touch
// exactly, and strict against non-strict tests or f32 against f64 cannot make libraries disagree.
// No dependencies and no Node APIs: the page in demo/peers.html runs the same scenes.
import { mulberry32 } from "../scene.js";

export type Shape = "uniform" | "clustered" | "skewed";
export type Mode = "complete" | "bipartite";
export const SHAPES: Shape[] = ["uniform", "clustered", "skewed"];
export const MODES: Mode[] = ["complete", "bipartite"];

/** Enemies per bullet in bipartite scenes (50k bullets against 1.5k enemies). */
export const ENEMY_RATIO = 0.03;
const PERIOD = 16; // frames of one back-and-forth: 8 one way, 8 back

export interface SceneSpec {
  shape: Shape;
  mode: Mode;
  /** Boxes in set A (complete: all of them; bipartite: the bullets). */
  n: number;
  seed?: number;
}

export function sceneName(spec: SceneSpec): string {
  return `${spec.shape} ${spec.mode}`;
}

/** Boxes as top-left corner and size in flat arrays; box k is entity k in every library. */
export class BoxScene {
  readonly spec: SceneSpec;
  /** All boxes: [0, nA) are set A, [nA, n) set B (bipartite only). */
  readonly n: number;
  readonly nA: number;
  readonly side: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly w: Float64Array;
  readonly h: Float64Array;
  /** Frames stepped since reset. */
  frame = 0;
  private readonly x0: Float64Array;
  private readonly y0: Float64Array;
  private readonly vx: Int8Array;
  private readonly vy: Int8Array;
  private readonly phase: Uint8Array;

  constructor(spec: SceneSpec) {
    this.spec = spec;
    this.nA = spec.n;
    this.n = spec.mode === "bipartite" ? spec.n + Math.max(1, Math.round(spec.n * ENEMY_RATIO)) : spec.n;
    const n = this.n;
    // Density like a busy game screen: a box of size 5 overlaps about 0.4 others in a uniform scene.
    this.side = Math.round(Math.sqrt(spec.n) * (spec.shape === "skewed" ? 40 : 16));
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.w = new Float64Array(n);
    this.h = new Float64Array(n);
    this.x0 = new Float64Array(n);
    this.y0 = new Float64Array(n);
    this.vx = new Int8Array(n);
    this.vy = new Int8Array(n);
    this.phase = new Uint8Array(n);
    const rnd = mulberry32(spec.seed ?? 12345);
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const speed = () => (rnd() < 0.5 ? -1 : 1) * int(1, 2); // never 0: every box moves every frame
    const margin = PERIOD; // room for the back-and-forth (8 frames of at most 2 units)
    const side = this.side;
    const clusters = Math.max(1, Math.round(spec.n / 200));
    const cx = new Float64Array(clusters), cy = new Float64Array(clusters);
    for (let c = 0; c < clusters; c++) { cx[c] = rnd() * side; cy[c] = rnd() * side; }
    for (let k = 0; k < n; k++) {
      const enemy = k >= this.nA;
      let w: number, h: number;
      if (spec.shape === "skewed") {
        const long = enemy ? int(60, 240) : int(20, 120), short = enemy ? int(4, 8) : int(1, 2);
        if (rnd() < 0.5) { w = long; h = short; } else { w = short; h = long; }
      } else if (spec.mode === "bipartite") {
        w = enemy ? int(10, 24) : int(2, 4);
        h = enemy ? int(10, 24) : int(2, 4);
      } else {
        w = int(2, 7);
        h = int(2, 7);
      }
      w += 0.5; // whole positions, sizes a half off: edges never meet
      h += 0.5;
      let px: number, py: number;
      if (spec.shape === "clustered") {
        // Four times the uniform density inside a cluster (sum of two uniforms: a soft edge).
        const c = int(0, clusters - 1);
        px = cx[c] + (rnd() + rnd() - 1) * 64;
        py = cy[c] + (rnd() + rnd() - 1) * 64;
      } else {
        px = rnd() * side;
        py = rnd() * side;
      }
      this.x0[k] = Math.min(Math.max(Math.round(px), margin), Math.floor(side - margin - w));
      this.y0[k] = Math.min(Math.max(Math.round(py), margin), Math.floor(side - margin - h));
      this.w[k] = w;
      this.h[k] = h;
      this.vx[k] = speed();
      this.vy[k] = speed();
      this.phase[k] = int(0, PERIOD - 1);
    }
    this.reset();
  }

  /** Back to frame 0 (each library starts from the same positions). */
  reset(): void {
    this.x.set(this.x0);
    this.y.set(this.y0);
    this.frame = 0;
    // Start each box at its phase's offset so frame 0 is already mid-motion.
    for (let k = 0; k < this.n; k++) {
      const p = this.phase[k];
      const out = p < PERIOD / 2 ? p : PERIOD - p;
      this.x[k] += this.vx[k] * out;
      this.y[k] += this.vy[k] * out;
    }
  }

  /** Moves every box by its speed, out for 8 frames and back for 8. */
  step(): void {
    const f = this.frame++;
    const x = this.x, y = this.y, vx = this.vx, vy = this.vy, phase = this.phase;
    for (let k = 0; k < this.n; k++) {
      const dir = ((f + phase[k]) & (PERIOD - 1)) < PERIOD / 2 ? 1 : -1;
      x[k] += vx[k] * dir;
      y[k] += vy[k] * dir;
    }
  }
}
