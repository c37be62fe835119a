// The seeds' example levels and the random level generators, shared by the platforms tests, the
// benchmark and the demo pages (one scene module, as bench/scene.ts is for the bucket grid).
import { mulberry32 } from "./scene.js";

/** Seed 000's `egLevel`: line segments (x0, y0, x1, y1), y up, copied from the tutorial. */
export const EG_LEVEL: readonly number[] = [
  -400, 0, -300, -200,
  -300, -200, -200, -250,
  -200, -250, 0, -250,
  0, -250, 25, 100,
  25, 100, 50, -250,
  50, -250, 250, -250,
  250, -250, 400, -100,
  -280, 220, -120, 220,
  -120, 220, -200, 200,
  -200, 200, -280, 220,
  100, 70, 300, 70,
  300, 70, 300, 50,
  300, 50, 100, 50,
  100, 50, 100, 70,
];

/** Seed 000's `initialPlayer` position. */
export const EG_LEVEL_START = [400, 300] as const;

/** Seed 001's `egData`: polygons as flat vertex lists (y up), copied from the tutorial. */
export const EG_DATA: readonly (readonly number[])[] = [
  [797.14286, 366.42857, 867.14286, 366.42857, 849.28572, 350, 817.85714, 346.42857],
  [857.85714, 274.28571, 897.14286, 232.85714, 918.57143, 155.71429, 901.42857, 122.14286, 845, 115, 803.57143, 138.57143, 795, 175.71429, 810, 261.42857],
  [727.81491, 387.89858, 703.57125, 312.64221, 665.18545, 284.86302, 613.1626, 323.75389, 600.03061, 387.89858],
  [196.97975, 434.36559, 325.7742, 434.36559, 289.91378, 417.69808, 240.92138, 415.67777, 211.62696, 421.73869],
  [59.599, 377.29198, 109.09647, 377.29198, 91.418805, 364.15999],
  [137.38075, 320.72343, 178.797, 320.72343, 157.5838, 310.11683],
  [209.10158, 241.42646, 274.76149, 241.42646, 270.21581, 206.07112, 255.82113, 180.31222, 238.90107, 174.75639, 219.45564, 209.35412],
  [68.185297, 217.1828, 155.05842, 217.1828, 131.82491, 200.0102, 88.388348, 194.95944],
  [553.05851, -0.00003, 368.20061, -0.00003, 368.20061, 72.73106, 410.12193, 202.03056, 514.16765, 248.49758, 535.38084, 208.59656, 553.05851, 114.14726],
  [520, 114.14726, 731.35044, 105.56094, 960, 51.51777, 960, -0.00003, 520, -0.00003],
  [380, -0.00003, 0, -0.00003, 0, 126.26915, 149.50258, 131.82499, 295.9747, 114.14732, 380, 72.73106],
];

/** Seed 001's `initialPlayer` position (its level spans 0..960 x 0..540). */
export const EG_DATA_START = [400, 300] as const;

/**
 * A random platform level of n surfaces over a square: short platforms with random slopes, in
 * closed triangles and open runs, integer coordinates. Density stays constant as n grows.
 */
export function randomSurfaces(n: number, seed = 1, side = Math.sqrt(n) * 60): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  while (out.length < 4 * n) {
    const x = Math.round(rand() * side), y = Math.round(rand() * side);
    const len = 10 + Math.round(rand() * 40), angle = (rand() - 0.5) * 1.2;
    const x1 = x + Math.round(Math.cos(angle) * len), y1 = y + Math.round(Math.sin(angle) * len);
    if (x1 === x && y1 === y) continue;
    out.push(x, y, x1, y1);
  }
  return out;
}

/** A random convex polygon (flat, counter-clockwise): k corners on a jittered circle of radius r around (cx, cy). */
export function randomConvex(rand: () => number, cx: number, cy: number, r: number, k: number): number[] {
  const angles: number[] = [];
  for (let i = 0; i < k; i++) angles.push(((i + 0.2 + 0.6 * rand()) / k) * 2 * Math.PI);
  return angles.flatMap((a) => [cx + Math.cos(a) * r, cy + Math.sin(a) * r]);
}

/** A random level of n convex polyhedra over a square (3 to 8 corners, radius 8 to 40). Density stays constant as n grows. */
export function randomPolygons(n: number, seed = 1, side = Math.sqrt(n) * 100): number[][] {
  const rand = mulberry32(seed);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    out.push(randomConvex(rand, rand() * side, rand() * side, 8 + rand() * 32, 3 + Math.floor(rand() * 6)));
  }
  return out;
}

/** Balls spread over a square above a level: (x, y, r) triples, r in [rMin, rMax]. */
export function randomBalls(n: number, seed: number, side: number, rMin = 4, rMax = 10): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(rand() * side, rand() * side, rMin + rand() * (rMax - rMin));
  return out;
}

/** What PlatformRain drives: the part of the Platforms facade it uses. */
interface RainTarget {
  readonly ballCount: number;
  readonly x: Float32Array;
  readonly y: Float32Array;
  readonly vx: Float32Array;
  readonly vy: Float32Array;
  addBall(x: number, y: number, radius?: number): number;
}

/**
 * Rain over a level: n balls dropped from random points above the box (x0, y0)-(x1, y1) (y up);
 * balls that fall below y0 start again from the top. Deterministic for a seed, so two backends
 * stepping the same rain stay equal. Used by the benchmark and the demo pages' rain mode.
 */
export class PlatformRain {
  private readonly rand: () => number;
  readonly first: number;
  readonly count: number;

  constructor(private readonly p: RainTarget, n: number, private readonly box: readonly [number, number, number, number], seed = 1, rMin = 3, rMax = 6) {
    this.rand = mulberry32(seed);
    this.first = p.ballCount;
    this.count = n;
    const [x0, y0, x1, y1] = box;
    for (let i = 0; i < n; i++) p.addBall(x0 + this.rand() * (x1 - x0), y0 + this.rand() * (y1 - y0), rMin + Math.round(this.rand() * 4 * (rMax - rMin)) / 4);
  }

  /** Restarts the balls that fell out of the level; returns how many. No allocation. */
  recycle(): number {
    const x0 = this.box[0], y0 = this.box[1], x1 = this.box[2];
    const x = this.p.x, y = this.p.y, vx = this.p.vx, vy = this.p.vy;
    let n = 0;
    for (let i = this.first; i < this.first + this.count; i++) {
      if (y[i] >= y0 - 50 && x[i] >= x0 - 200 && x[i] <= x1 + 200) continue;
      x[i] = x0 + this.rand() * (x1 - x0);
      y[i] = this.box[3] + this.rand() * 50;
      vx[i] = 0;
      vy[i] = 0;
      n++;
    }
    return n;
  }
}

// ---- large outlines: what an editor saves for terrain, and the shapes that are hard to split ----

/** n points on a circle of radius r, counter-clockwise (in f32 it is no longer quite convex). */
export function circlePolygon(n: number, r = 1000): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) { const a = (i / n) * 2 * Math.PI; out.push(Math.cos(a) * r, Math.sin(a) * r); }
  return out;
}

/** A star of n points: every angle step a random radius in [rMin, rMax] (simple: angles increase). */
export function starPolygon(n: number, seed = 1, rMin = 200, rMax = 1000): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) { const a = (i / n) * 2 * Math.PI, r = rMin + rand() * (rMax - rMin); out.push(Math.cos(a) * r, Math.sin(a) * r); }
  return out;
}

/** A comb of about n points, clockwise: teeth 2 wide and 90 tall with gaps of 2, on a spine 10 high. */
export function combPolygon(n: number): number[] {
  const teeth = Math.max(1, Math.floor((n - 2) / 4));
  const out = [0, 0];
  for (let t = 0; t < teeth; t++) { const x = 4 * t; out.push(x, 100, x + 2, 100, x + 2, 10, x + 4, 10); }
  out.length -= 2;
  out.push(4 * teeth - 2, 0);
  return out;
}

/** A hill of n points, clockwise: a random walk of heights on top of a flat bottom (an editor's terrain). */
export function hillPolygon(n: number, seed = 1): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  let h = 50;
  for (let i = 0; i < n - 2; i++) { h = Math.max(1, h + (rand() - 0.5) * 10); out.push(i * 2, h); }
  out.push((n - 3) * 2, 0, 0, 0);
  return out;
}
