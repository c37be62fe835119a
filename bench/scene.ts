// One scene module for the demo, the benchmark and the tests (flatbush's bench.js habit): a seeded
// generator, the static scenes the differential tests run, and the moving bullet-hell workload.
// Scenes use integer coordinates and sizes below 2048, so every test in f32 and f64 is exact and
// the backends must agree pair for pair.
import { FLAG_STOPPED, KIND_CIRCLE, KIND_POINT, KIND_RECT, type World } from "../bindings/world.js";

/** mulberry32: a small seeded generator, the same on every platform. */
export function mulberry32(seed: number): () => number {
  // State in a typed array: a closure variable holding a uint32 above 2^30 is boxed on every write.
  const state = new Uint32Array([seed]);
  return () => {
    state[0] += 0x6d2b79f5;
    const t = state[0];
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** Entities in flat arrays, ready to load into a world (slot k gets entity k in a fresh world). */
export interface Scene {
  n: number;
  kind: Uint8Array;
  x: Float32Array;
  y: Float32Array;
  a: Float32Array;
  b: Float32Array;
  groups: Uint32Array;
}

export type SceneShape = "uniform" | "clustered" | "one-cell" | "huge" | "zero" | "touching" | "skewed" | "mixed-groups";
export const SCENE_SHAPES: SceneShape[] = ["uniform", "clustered", "one-cell", "huge", "zero", "touching", "skewed", "mixed-groups"];

function emptyScene(n: number): Scene {
  return {
    n, kind: new Uint8Array(n), x: new Float32Array(n), y: new Float32Array(n),
    a: new Float32Array(n), b: new Float32Array(n), groups: new Uint32Array(n),
  };
}

/**
 * A static scene of n points, circles and rects (groups 1 and 2 alternating unless the shape says
 * otherwise), in a square field whose side grows with sqrt(n) so density stays game-like.
 */
export function makeScene(shape: SceneShape, n: number, seed = 1): Scene {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const s = emptyScene(n);
  const side = Math.max(64, Math.min(2000, Math.round(Math.sqrt(n) * 12)));
  for (let k = 0; k < n; k++) {
    const kind = shape === "zero" ? KIND_POINT : [KIND_POINT, KIND_CIRCLE, KIND_RECT, KIND_CIRCLE][int(0, 3)];
    let x = int(0, side), y = int(0, side), a = int(1, 6), b = int(1, 6);
    switch (shape) {
      case "clustered": {
        const c = int(0, 7);
        x = ((c * 733) % side) + int(-20, 20);
        y = ((c * 389) % side) + int(-20, 20);
        break;
      }
      case "one-cell":
        x = int(0, 3); y = int(0, 3); a = int(0, 2); b = int(0, 2);
        break;
      case "huge":
        if (k % 50 === 0) { a = int(200, 900); b = int(200, 900); }
        break;
      case "zero":
        a = 0; b = 0;
        break;
      case "touching": {
        // A lattice of rects and circles whose edges meet exactly; a few points on the edges.
        const cols = Math.max(1, Math.floor(Math.sqrt(n)));
        x = (k % cols) * 8; y = Math.floor(k / cols) * 8; a = 8; b = 8;
        if (kind === KIND_CIRCLE) { x += 4; y += 4; a = 4; }
        if (kind === KIND_POINT) { x += int(0, 1) * 8; }
        break;
      }
      case "skewed":
        if (rnd() < 0.5) { a = int(20, 120); b = int(1, 2); } else { a = int(1, 2); b = int(20, 120); }
        break;
      default:
        break;
    }
    if (x < 0) x = -x;
    if (y < 0) y = -y;
    s.kind[k] = kind;
    s.x[k] = x;
    s.y[k] = y;
    s.a[k] = kind === KIND_POINT ? 0 : a;
    s.b[k] = kind === KIND_RECT ? b : 0;
    s.groups[k] = shape === "mixed-groups" ? (1 << int(0, 3)) | (rnd() < 0.2 ? 1 << int(0, 3) : 0) : 1 << (k & 1);
  }
  return s;
}

/** Adds a scene's entities to a world; returns their ids in scene order. */
export function loadScene(world: World, scene: Scene): number[] {
  const ids: number[] = [];
  for (let k = 0; k < scene.n; k++) {
    const x = scene.x[k], y = scene.y[k], g = scene.groups[k];
    if (scene.kind[k] === KIND_POINT) ids.push(world.addPoint(x, y, g));
    else if (scene.kind[k] === KIND_CIRCLE) ids.push(world.addCircle(x, y, scene.a[k], g));
    else ids.push(world.addRect(x, y, scene.a[k], scene.b[k], g));
  }
  return ids;
}

// ---- the bullet-hell workload: moving circles, written through the views each frame ----------

export const BULLET = 1 << 0;
export const ENEMY = 1 << 1;
export const PLAYER = 1 << 2;

export interface BulletHellOptions {
  bullets: number;
  enemies: number;
  width: number;
  height: number;
  seed?: number;
}

/**
 * Bullets fired in spirals and fans from emitters, enemies drifting in waves. All motion lives in
 * typed arrays and is written into the world's views: no object per entity, no allocation per frame.
 * Bullet k lives in slot k, enemy e in slot bullets + e.
 */
export class BulletHell {
  readonly width: number;
  readonly height: number;
  bullets = 0;
  readonly enemies: number;
  private readonly vx: Float32Array;
  private readonly vy: Float32Array;
  private readonly age: Float32Array;
  private readonly rnd: () => number;
  private time = 0;
  private emitter = 0;

  constructor(readonly world: World, options: BulletHellOptions) {
    if (world.count !== 0) throw new Error("BulletHell needs an empty world: bullet k lives in slot k, enemy e in slot bullets + e.");
    this.width = options.width;
    this.height = options.height;
    this.enemies = options.enemies;
    this.rnd = mulberry32(options.seed ?? 7);
    const max = options.bullets;
    this.vx = new Float32Array(max + options.enemies);
    this.vy = new Float32Array(max + options.enemies);
    this.age = new Float32Array(max + options.enemies);
    for (let k = 0; k < max; k++) {
      world.addCircle(0, 0, 2 + (k % 3), BULLET);
      this.spawnBullet(k);
      // Start mid-flight, so the first frame already looks like the hundredth.
      const t = this.rnd() * 6;
      const x = world.x, y = world.y;
      const nx = x[k] + this.vx[k] * t, ny = y[k] + this.vy[k] * t;
      if (nx >= 0 && nx <= this.width && ny >= 0 && ny <= this.height) { x[k] = nx; y[k] = ny; }
    }
    for (let e = 0; e < options.enemies; e++) {
      const slot = max + e;
      const size = 10 + Math.floor(this.rnd() * 14);
      if (e % 3 === 0) world.addRect(this.rnd() * (this.width - size), this.rnd() * this.height * 0.6, size, size, ENEMY);
      else world.addCircle(this.rnd() * this.width, this.rnd() * this.height * 0.6, size / 2, ENEMY);
      this.vx[slot] = (this.rnd() - 0.5) * 60;
      this.vy[slot] = (this.rnd() - 0.5) * 20;
    }
    this.bullets = max;
  }

  /** Respawns bullet k at an emitter, on a spiral or a fan. */
  private spawnBullet(k: number): void {
    const w = this.world, cx = this.width * (0.2 + 0.6 * ((this.emitter++ % 5) / 4)), cy = this.height * 0.85;
    const spiral = (k & 1) === 0;
    const angle = spiral ? this.time * 3 + k * 0.7 : -Math.PI / 2 + ((k % 9) - 4) * 0.12;
    const speed = 80 + (k % 7) * 20;
    w.x[k] = cx + this.rnd() * 4;
    w.y[k] = cy + this.rnd() * 4;
    this.vx[k] = Math.cos(angle) * speed;
    this.vy[k] = Math.sin(angle) * speed;
    this.age[k] = 0;
  }

  /** Advances every bullet and enemy by dt seconds through the world's views. */
  step(dt: number): void {
    this.time += dt;
    const w = this.world, x = w.x, y = w.y, vx = this.vx, vy = this.vy;
    const W = this.width, H = this.height;
    for (let k = 0; k < this.bullets; k++) {
      const nx = x[k] + vx[k] * dt, ny = y[k] + vy[k] * dt;
      if (nx < 0 || nx > W || ny < 0 || ny > H) this.spawnBullet(k);
      else { x[k] = nx; y[k] = ny; }
    }
    for (let e = 0; e < this.enemies; e++) {
      const s = this.bullets + e;
      let nx = x[s] + vx[s] * dt, ny = y[s] + vy[s] * dt;
      // Bounce by clamping and pointing the speed inward: flipping it could trap an enemy outside.
      if (nx < 0) { nx = 0; vx[s] = Math.abs(vx[s]); } else if (nx > W - 24) { nx = W - 24; vx[s] = -Math.abs(vx[s]); }
      if (ny < 0) { ny = 0; vy[s] = Math.abs(vy[s]); } else if (ny > H * 0.7) { ny = H * 0.7; vy[s] = -Math.abs(vy[s]); }
      x[s] = nx;
      y[s] = ny;
    }
  }

  /** Bullets that hit something start again at an emitter (call after firstHits). */
  recycleHits(): void {
    const flags = this.world.flags;
    for (let k = 0; k < this.bullets; k++) if (flags[k] & FLAG_STOPPED) this.spawnBullet(k);
  }
}

/** n circles of radius 1-4 in a square sized for a constant density, moving a little each frame. */
export class MovingCircles {
  private readonly vx: Float32Array;
  private readonly vy: Float32Array;
  readonly side: number;

  constructor(readonly world: World, readonly n: number, seed = 3) {
    const rnd = mulberry32(seed);
    this.side = Math.round(Math.sqrt(n) * 16);
    this.vx = new Float32Array(n);
    this.vy = new Float32Array(n);
    for (let k = 0; k < n; k++) {
      world.addCircle(rnd() * this.side, rnd() * this.side, 1 + rnd() * 3, BULLET);
      this.vx[k] = (rnd() - 0.5) * 2;
      this.vy[k] = (rnd() - 0.5) * 2;
    }
  }

  step(): void {
    const x = this.world.x, y = this.world.y, vx = this.vx, vy = this.vy, side = this.side;
    for (let k = 0; k < this.n; k++) {
      let nx = x[k] + vx[k], ny = y[k] + vy[k];
      if (nx < 0 || nx > side) { vx[k] = -vx[k]; nx = x[k]; }
      if (ny < 0 || ny > side) { vy[k] = -vy[k]; ny = y[k]; }
      x[k] = nx;
      y[k] = ny;
    }
  }
}
