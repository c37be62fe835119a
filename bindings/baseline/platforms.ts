// The pure-TS baseline of the platforms part: assembly/platform_grid.ts, surfaces.ts, polyhedra.ts
// and balls.ts ported function for function onto typed-array views of the same layout
// (layout/platforms.ts). Same algorithm, f64 maths on the stored f32 values as in the
// core, so both backends agree bit for bit. Read the wasm files for the why of each step.
import { BASELINE_ARENA_BASE, PLATFORMS_HEADER } from "../../layout/grid.js";
import {
  C_ID, C_KIND, C_NX, C_NY, C_T, C_X, C_Y, HIT_NONE, HIT_POLYHEDRON, HIT_SURFACE, HS_STRIDE, P_BALL_COUNT, P_BAX,
  P_BAY, P_BR, P_BVX, P_BVY, P_BX, P_BY, P_EXACT, P_GRID_COLS, P_GRID_INV, P_GRID_OX, P_GRID_OY, P_GRID_RADIUS,
  P_GRID_ROWS, P_HALFSPACES, P_MAX_SUBSTEPS, P_POLY_CELLS, P_POLY_EXTENT, P_POLY_ITEMS, P_POLY_START, P_RES_X, P_RES_Y,
  P_RESULTS, P_RESULTS_CAP, P_SURF_CELLS, P_SURF_ITEMS, P_SURFACES, S_CANDIDATES, S_CONTACTS, S_SKIPPED,
  S_SUBSTEPS, SURF_STRIDE,
} from "../../layout/platforms.js";
import type { PlatformsKernel } from "../platforms_kernel.js";

const HDR = PLATFORMS_HEADER >> 2;
const SQRT1_2 = Math.SQRT1_2;

/** The TS baseline kernel over a WebAssembly.Memory of its own (never compiled to wasm). */
export class BaselinePlatformsKernel implements PlatformsKernel {
  readonly memory: WebAssembly.Memory;
  private buffer: ArrayBuffer | null = null;
  private f32 = new Float32Array(0);
  private i32 = new Int32Array(0);

  // The ball being resolved, the counters of the current call, the best hit of the current cast.
  // Doubles live in typed arrays: a double stored in an object field is boxed on every write.
  // Doubles also travel between methods through these arrays, never as arguments or results: V8
  // boxes a double passed to (or returned from) a method it does not inline, which cost the step
  // about 1.3 KB per frame over 2,000 balls.
  private readonly ball = new Float64Array(5); // x, y, vx, vy, radius
  private readonly point = new Float64Array(3); // x, y, r of the current surface test
  private readonly best = new Float64Array(3); // t, nx, ny of the best hit of the current cast
  private readonly clip = new Float64Array(4); // Cyrus-Beck entry t, exit t, entry face nx, ny
  private clipEntering = false;
  private readonly box = new Float64Array(2); // half extents of the current swept box
  private boxMode = false;
  private candidates = 0;
  private contacts = 0;
  private castKind = 0;
  private castId = 0;

  constructor(memory: WebAssembly.Memory) {
    this.memory = memory;
  }

  arenaBase(): number {
    return BASELINE_ARENA_BASE;
  }

  private views(): void {
    if (this.buffer !== this.memory.buffer) {
      this.buffer = this.memory.buffer;
      this.f32 = new Float32Array(this.buffer);
      this.i32 = new Int32Array(this.buffer);
    }
  }

  /** cellAt of the ball being stepped. */
  private ballCell(): number {
    const i32 = this.i32, f32 = this.f32;
    const cols = i32[HDR + P_GRID_COLS], rows = i32[HDR + P_GRID_ROWS];
    const inv = f32[HDR + P_GRID_INV];
    const tx = (this.ball[0] - f32[HDR + P_GRID_OX]) * inv;
    const ty = (this.ball[1] - f32[HDR + P_GRID_OY]) * inv;
    if (!(tx >= 0 && tx < cols && ty >= 0 && ty < rows)) return cols * rows;
    return Math.floor(ty) * cols + Math.floor(tx);
  }

  private cellAt(x: number, y: number): number {
    const i32 = this.i32, f32 = this.f32;
    const cols = i32[HDR + P_GRID_COLS], rows = i32[HDR + P_GRID_ROWS];
    const inv = f32[HDR + P_GRID_INV];
    const tx = (x - f32[HDR + P_GRID_OX]) * inv;
    const ty = (y - f32[HDR + P_GRID_OY]) * inv;
    if (!(tx >= 0 && tx < cols && ty >= 0 && ty < rows)) return cols * rows;
    return Math.floor(ty) * cols + Math.floor(tx);
  }

  // ---- surfaces (assembly/surfaces.ts) -----------------------------------------------------

  /** Is `point` (x, y, r) in surface s's hit region? */
  private surfaceTouches(s: number, exact: boolean): boolean {
    const f32 = this.f32;
    const px = this.point[0], py = this.point[1], r = this.point[2];
    const p = (this.i32[HDR + P_SURFACES] >> 2) + s * SURF_STRIDE;
    const nx = f32[p], ny = f32[p + 1], o = f32[p + 2];
    const d = px * nx + py * ny;
    if (!(o <= d && d <= o + r)) return false;
    if (!exact) {
      const k = r * SQRT1_2;
      return px * f32[p + 3] + py * f32[p + 4] <= f32[p + 5] + k
        && px * f32[p + 6] + py * f32[p + 7] <= f32[p + 8] + k;
    }
    const x0 = f32[p + 9], y0 = f32[p + 10];
    const ex = f32[p + 11] - x0, ey = f32[p + 12] - y0;
    const qx = px - x0, qy = py - y0;
    let t = (qx * ex + qy * ey) / (ex * ex + ey * ey);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const dx = qx - t * ex, dy = qy - t * ey;
    return dx * dx + dy * dy <= r * r;
  }

  private foldSurfaces(cell: number, exact: boolean): void {
    const i32 = this.i32, f32 = this.f32;
    const starts = i32[HDR + P_SURF_CELLS] >> 2, items = i32[HDR + P_SURF_ITEMS] >> 2;
    const surf = i32[HDR + P_SURFACES] >> 2;
    const s0 = i32[starts + cell];
    this.point[0] = this.ball[0]; this.point[1] = this.ball[1]; this.point[2] = this.ball[4]; // surfaces never move the ball
    for (let j = i32[starts + cell + 1] - 1; j >= s0; j--) {
      const s = i32[items + j];
      this.candidates++;
      if (this.surfaceTouches(s, exact)) {
        this.contacts++;
        const p = surf + s * SURF_STRIDE;
        const nx = f32[p], ny = f32[p + 1];
        const vn = this.ball[2] * nx + this.ball[3] * ny;
        if (vn <= 0) {
          this.ball[2] = this.ball[2] - vn * nx;
          this.ball[3] = this.ball[3] - vn * ny;
        }
      }
    }
  }

  private offerHit(t: number, nx: number, ny: number, kind: number, id: number): void {
    if (t < this.best[0] || (t === this.best[0] && (kind < this.castKind || (kind === this.castKind && id < this.castId)))) {
      this.best[0] = t; this.best[1] = nx; this.best[2] = ny; this.castKind = kind; this.castId = id;
    }
  }

  private capHit(px: number, py: number, dx: number, dy: number, cx: number, cy: number, r: number, nx: number, ny: number, s: number): void {
    const fx = px - cx, fy = py - cy;
    const a = dx * dx + dy * dy;
    const b = fx * dx + fy * dy;
    const c = fx * fx + fy * fy - r * r;
    if (c < 0 || b >= 0) return;
    const disc = b * b - a * c;
    if (disc < 0) return;
    const t = (-b - Math.sqrt(disc)) / a;
    if (t < 0 || t > 1) return;
    const hx = fx + t * dx, hy = fy + t * dy;
    if (hx * nx + hy * ny < 0) return;
    this.offerHit(t, hx / r, hy / r, HIT_SURFACE, s);
  }

  private castSurface(s: number, px: number, py: number, dx: number, dy: number, r: number): void {
    const f32 = this.f32;
    const p = (this.i32[HDR + P_SURFACES] >> 2) + s * SURF_STRIDE;
    const nx = f32[p], ny = f32[p + 1], o = f32[p + 2];
    const den = dx * nx + dy * ny;
    if (!(den < 0)) return;
    const x0 = f32[p + 9], y0 = f32[p + 10], x1 = f32[p + 11], y1 = f32[p + 12];
    const t = (o + r - (px * nx + py * ny)) / den;
    if (t >= 0 && t <= 1) {
      const ex = x1 - x0, ey = y1 - y0;
      const u = ((px + t * dx - x0) * ex + (py + t * dy - y0) * ey) / (ex * ex + ey * ey);
      if (u >= 0 && u <= 1) {
        this.offerHit(t, nx, ny, HIT_SURFACE, s);
        return;
      }
    }
    if (r > 0) {
      this.capHit(px, py, dx, dy, x0, y0, r, nx, ny, s);
      this.capHit(px, py, dx, dy, x1, y1, r, nx, ny, s);
    }
  }

  // ---- polyhedra (assembly/polyhedra.ts) ---------------------------------------------------

  private insidePolyhedron(k: number, px: number, py: number, r: number): boolean {
    const i32 = this.i32, f32 = this.f32;
    const starts = i32[HDR + P_POLY_START] >> 2, hs = i32[HDR + P_HALFSPACES] >> 2;
    const last = hs + i32[starts + k + 1] * HS_STRIDE;
    for (let h = hs + i32[starts + k] * HS_STRIDE; h < last; h += HS_STRIDE) {
      if (px * f32[h] + py * f32[h + 1] - f32[h + 2] - r > 0) return false;
    }
    return true;
  }

  private deflectPolyhedron(k: number): boolean {
    const i32 = this.i32, f32 = this.f32;
    const starts = i32[HDR + P_POLY_START] >> 2, hs = i32[HDR + P_HALFSPACES] >> 2;
    let h = hs + i32[starts + k] * HS_STRIDE;
    const last = hs + i32[starts + k + 1] * HS_STRIDE;
    if (h >= last) return false;
    const px = this.ball[0], py = this.ball[1], r = this.ball[4];
    let best = -Infinity, bx = 0, by = 0;
    for (; h < last; h += HS_STRIDE) {
      const nx = f32[h], ny = f32[h + 1];
      const dist = px * nx + py * ny - f32[h + 2] - r;
      if (dist > 0) return false;
      if (dist >= best) { best = dist; bx = nx; by = ny; }
    }
    this.contacts++;
    const vn = bx * this.ball[2] + by * this.ball[3];
    if (vn <= 0) {
      this.ball[2] = this.ball[2] - vn * bx;
      this.ball[3] = this.ball[3] - vn * by;
    }
    this.ball[0] = px - best * bx;
    this.ball[1] = py - best * by;
    return true;
  }

  private foldPolyhedra(): void {
    const i32 = this.i32;
    const starts = i32[HDR + P_POLY_CELLS] >> 2, items = i32[HDR + P_POLY_ITEMS] >> 2;
    let cell = this.ballCell();
    let s0 = i32[starts + cell];
    let j = i32[starts + cell + 1] - 1;
    while (j >= s0) {
      const k = i32[items + j];
      this.candidates++;
      if (this.deflectPolyhedron(k)) {
        const moved = this.ballCell();
        if (moved !== cell) {
          cell = moved;
          s0 = i32[starts + cell];
          let lo = s0, hi = i32[starts + cell + 1];
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (i32[items + mid] < k) lo = mid + 1;
            else hi = mid;
          }
          j = lo - 1;
          continue;
        }
      }
      j--;
    }
  }

  private castPolyhedron(k: number, px: number, py: number, dx: number, dy: number, r: number): void {
    const i32 = this.i32, f32 = this.f32;
    const starts = i32[HDR + P_POLY_START] >> 2, hs = i32[HDR + P_HALFSPACES] >> 2;
    const last = hs + i32[starts + k + 1] * HS_STRIDE;
    let tIn = -Infinity, tOut = Infinity, fx = 0, fy = 0, entering = false;
    for (let h = hs + i32[starts + k] * HS_STRIDE; h < last; h += HS_STRIDE) {
      const nx = f32[h], ny = f32[h + 1];
      const num = f32[h + 2] + r - (px * nx + py * ny);
      const den = dx * nx + dy * ny;
      if (den === 0) {
        if (num < 0) return;
        continue;
      }
      const t = num / den;
      if (den < 0) {
        if (t > tIn) { tIn = t; fx = nx; fy = ny; entering = true; }
      } else if (t < tOut) {
        tOut = t;
      }
      if (tIn > tOut) return;
    }
    if (!entering || tIn < 0 || tIn > 1 || tIn > tOut) return;
    this.offerHit(tIn, fx, fy, HIT_POLYHEDRON, k);
  }

  // ---- swept boxes (assembly/polyhedra.ts, surfaces.ts: castPolyhedronBox, castSurfaceBox) ---

  private clipReset(): void {
    const c = this.clip;
    c[0] = -Infinity; c[1] = Infinity; c[2] = 0; c[3] = 0;
    this.clipEntering = false;
  }

  private clipHalfspace(nx: number, ny: number, off: number, px: number, py: number, dx: number, dy: number): boolean {
    const c = this.clip;
    const num = off - (px * nx + py * ny);
    const den = dx * nx + dy * ny;
    if (den === 0) return !(num < 0);
    const t = num / den;
    if (den < 0) {
      if (t > c[0]) { c[0] = t; c[2] = nx; c[3] = ny; this.clipEntering = true; }
    } else if (t < c[1]) {
      c[1] = t;
    }
    return !(c[0] > c[1]);
  }

  private clipEntry(): number {
    const c = this.clip;
    if (!this.clipEntering || c[0] < 0 || c[0] > 1 || c[0] > c[1]) return -1;
    return c[0];
  }

  private castPolyhedronBox(k: number, px: number, py: number, dx: number, dy: number, hw: number, hh: number): void {
    const i32 = this.i32, f32 = this.f32;
    const starts = i32[HDR + P_POLY_START] >> 2, hs = i32[HDR + P_HALFSPACES] >> 2;
    const last = hs + i32[starts + k + 1] * HS_STRIDE;
    this.clipReset();
    for (let h = hs + i32[starts + k] * HS_STRIDE; h < last; h += HS_STRIDE) {
      const nx = f32[h], ny = f32[h + 1];
      if (!this.clipHalfspace(nx, ny, f32[h + 2] + (Math.abs(nx) * hw + Math.abs(ny) * hh), px, py, dx, dy)) return;
    }
    const e = (i32[HDR + P_POLY_EXTENT] >> 2) + 4 * k;
    if (!this.clipHalfspace(1, 0, f32[e + 2] + hw, px, py, dx, dy)) return;
    if (!this.clipHalfspace(-1, 0, hw - f32[e], px, py, dx, dy)) return;
    if (!this.clipHalfspace(0, 1, f32[e + 3] + hh, px, py, dx, dy)) return;
    if (!this.clipHalfspace(0, -1, hh - f32[e + 1], px, py, dx, dy)) return;
    const t = this.clipEntry();
    if (t >= 0) this.offerHit(t, this.clip[2], this.clip[3], HIT_POLYHEDRON, k);
  }

  private castSurfaceBox(s: number, px: number, py: number, dx: number, dy: number, hw: number, hh: number): void {
    const f32 = this.f32;
    const p = (this.i32[HDR + P_SURFACES] >> 2) + s * SURF_STRIDE;
    const nx = f32[p], ny = f32[p + 1], o = f32[p + 2];
    if (!(dx * nx + dy * ny < 0)) return;
    const x0 = f32[p + 9], y0 = f32[p + 10], x1 = f32[p + 11], y1 = f32[p + 12];
    const sup = Math.abs(nx) * hw + Math.abs(ny) * hh;
    this.clipReset();
    if (!this.clipHalfspace(nx, ny, o + sup, px, py, dx, dy)) return;
    if (!this.clipHalfspace(-nx, -ny, sup - o, px, py, dx, dy)) return;
    if (!this.clipHalfspace(1, 0, Math.max(x0, x1) + hw, px, py, dx, dy)) return;
    if (!this.clipHalfspace(-1, 0, hw - Math.min(x0, x1), px, py, dx, dy)) return;
    if (!this.clipHalfspace(0, 1, Math.max(y0, y1) + hh, px, py, dx, dy)) return;
    if (!this.clipHalfspace(0, -1, hh - Math.min(y0, y1), px, py, dx, dy)) return;
    const t = this.clipEntry();
    if (t < 0) return;
    const fx = this.clip[2], fy = this.clip[3];
    if ((fx !== nx || fy !== ny) && (px + t * dx) * nx + (py + t * dy) * ny < o) return;
    this.offerHit(t, fx, fy, HIT_SURFACE, s);
  }

  castBox(x: number, y: number, w: number, h: number, dx: number, dy: number, surfaces: boolean, polyhedra: boolean): number {
    const hw = w / 2, hh = h / 2, cx = x + hw, cy = y + hh;
    this.box[0] = hw; this.box[1] = hh; this.boxMode = true;
    const hit = this.castSegment(cx, cy, cx + dx, cy + dy, 0, surfaces, polyhedra);
    this.boxMode = false;
    return hit;
  }

  // ---- balls and queries (assembly/balls.ts) -----------------------------------------------

  stepBalls(dt: number): number {
    this.views();
    this.candidates = 0;
    this.contacts = 0;
    const i32 = this.i32, f32 = this.f32;
    const n = i32[HDR + P_BALL_COUNT];
    const xp = i32[HDR + P_BX] >> 2, yp = i32[HDR + P_BY] >> 2, vxp = i32[HDR + P_BVX] >> 2, vyp = i32[HDR + P_BVY] >> 2;
    const axp = i32[HDR + P_BAX] >> 2, ayp = i32[HDR + P_BAY] >> 2, rp = i32[HDR + P_BR] >> 2;
    const resX = f32[HDR + P_RES_X], resY = f32[HDR + P_RES_Y], maxR = f32[HDR + P_GRID_RADIUS];
    const exact = i32[HDR + P_EXACT] !== 0;
    const maxSub = Math.max(i32[HDR + P_MAX_SUBSTEPS], 1);
    let substeps = 0, skipped = 0;
    for (let i = 0; i < n; i++) {
      const x = f32[xp + i], y = f32[yp + i];
      let vx = f32[vxp + i], vy = f32[vyp + i];
      const ax = f32[axp + i], ay = f32[ayp + i], r = f32[rp + i];
      if (!(x - x === 0 && y - y === 0 && vx - vx === 0 && vy - vy === 0 && ax - ax === 0 && ay - ay === 0 && r >= 0 && r <= maxR)) {
        skipped++;
        continue;
      }
      vx = resX * vx + dt * ax;
      vy = resY * vy + dt * ay;
      let steps = 1;
      if (r > 0) {
        const travel = Math.sqrt(vx * vx + vy * vy) * dt;
        const limit = 0.5 * r;
        if (travel > limit) {
          const need = Math.ceil(travel / limit);
          if (need > maxSub) {
            const scale = maxSub * limit / travel;
            vx *= scale;
            vy *= scale;
            steps = maxSub;
          } else {
            steps = need;
          }
        }
      }
      const h = dt / steps;
      this.ball[0] = x; this.ball[1] = y; this.ball[2] = vx; this.ball[3] = vy; this.ball[4] = r;
      for (let s = 0; s < steps; s++) {
        this.foldSurfaces(this.ballCell(), exact);
        this.foldPolyhedra();
        this.ball[0] = this.ball[0] + h * this.ball[2];
        this.ball[1] = this.ball[1] + h * this.ball[3];
      }
      substeps += steps;
      f32[xp + i] = this.ball[0];
      f32[yp + i] = this.ball[1];
      f32[vxp + i] = this.ball[2];
      f32[vyp + i] = this.ball[3];
    }
    i32[HDR + S_CANDIDATES] = this.candidates;
    i32[HDR + S_CONTACTS] = this.contacts;
    i32[HDR + S_SUBSTEPS] = substeps;
    i32[HDR + S_SKIPPED] = skipped;
    return this.contacts;
  }

  touchSurfaces(x: number, y: number, r: number, exact: boolean): number {
    this.views();
    const i32 = this.i32;
    const starts = i32[HDR + P_SURF_CELLS] >> 2, items = i32[HDR + P_SURF_ITEMS] >> 2;
    const out = i32[HDR + P_RESULTS] >> 2, cap = i32[HDR + P_RESULTS_CAP];
    const cell = this.cellAt(x, y);
    const end = i32[starts + cell + 1];
    let found = 0, tested = 0;
    this.point[0] = x; this.point[1] = y; this.point[2] = r;
    for (let j = i32[starts + cell]; j < end; j++) {
      const s = i32[items + j];
      tested++;
      if (this.surfaceTouches(s, exact)) {
        if (found < cap) i32[out + found] = s;
        found++;
      }
    }
    i32[HDR + S_CANDIDATES] = tested;
    i32[HDR + S_CONTACTS] = found;
    return found;
  }

  insidePolyhedra(x: number, y: number, r: number): number {
    this.views();
    const i32 = this.i32;
    const starts = i32[HDR + P_POLY_CELLS] >> 2, items = i32[HDR + P_POLY_ITEMS] >> 2;
    const out = i32[HDR + P_RESULTS] >> 2, cap = i32[HDR + P_RESULTS_CAP];
    const cell = this.cellAt(x, y);
    const end = i32[starts + cell + 1];
    let found = 0, tested = 0;
    for (let j = i32[starts + cell]; j < end; j++) {
      const k = i32[items + j];
      tested++;
      if (this.insidePolyhedron(k, x, y, r)) {
        if (found < cap) i32[out + found] = k;
        found++;
      }
    }
    i32[HDR + S_CANDIDATES] = tested;
    i32[HDR + S_CONTACTS] = found;
    return found;
  }

  private castCell(cell: number, x0: number, y0: number, dx: number, dy: number, r: number, surfaces: boolean, polyhedra: boolean): void {
    const i32 = this.i32;
    if (surfaces) {
      const starts = i32[HDR + P_SURF_CELLS] >> 2, items = i32[HDR + P_SURF_ITEMS] >> 2;
      const end = i32[starts + cell + 1];
      for (let j = i32[starts + cell]; j < end; j++) {
        this.candidates++;
        if (this.boxMode) this.castSurfaceBox(i32[items + j], x0, y0, dx, dy, this.box[0], this.box[1]);
        else this.castSurface(i32[items + j], x0, y0, dx, dy, r);
      }
    }
    if (polyhedra) {
      const starts = i32[HDR + P_POLY_CELLS] >> 2, items = i32[HDR + P_POLY_ITEMS] >> 2;
      const end = i32[starts + cell + 1];
      for (let j = i32[starts + cell]; j < end; j++) {
        this.candidates++;
        if (this.boxMode) this.castPolyhedronBox(i32[items + j], x0, y0, dx, dy, this.box[0], this.box[1]);
        else this.castPolyhedron(i32[items + j], x0, y0, dx, dy, r);
      }
    }
  }

  castSegment(x0: number, y0: number, x1: number, y1: number, r: number, surfaces: boolean, polyhedra: boolean): number {
    this.views();
    this.candidates = 0;
    this.best[0] = Infinity; this.best[1] = 0; this.best[2] = 0; this.castKind = 0; this.castId = 0;
    const i32 = this.i32, f32 = this.f32;
    const dx = x1 - x0, dy = y1 - y0;
    if (dx !== 0 || dy !== 0) {
      const cols = i32[HDR + P_GRID_COLS], rows = i32[HDR + P_GRID_ROWS];
      const inv = f32[HDR + P_GRID_INV];
      const outside = cols * rows;
      if (this.cellAt(x0, y0) === outside || this.cellAt(x1, y1) === outside) this.castCell(outside, x0, y0, dx, dy, r, surfaces, polyhedra);
      const gx = (x0 - f32[HDR + P_GRID_OX]) * inv, gy = (y0 - f32[HDR + P_GRID_OY]) * inv;
      const gdx = dx * inv, gdy = dy * inv;
      let sa = 0, sb = 1;
      if (gdx === 0) {
        if (!(gx >= 0 && gx <= cols)) sb = -1;
      } else {
        const s1 = -gx / gdx, s2 = (cols - gx) / gdx;
        sa = Math.max(sa, Math.min(s1, s2));
        sb = Math.min(sb, Math.max(s1, s2));
      }
      if (gdy === 0) {
        if (!(gy >= 0 && gy <= rows)) sb = -1;
      } else {
        const s1 = -gy / gdy, s2 = (rows - gy) / gdy;
        sa = Math.max(sa, Math.min(s1, s2));
        sb = Math.min(sb, Math.max(s1, s2));
      }
      if (sa <= sb) {
        let col = Math.min(Math.max(Math.floor(gx + sa * gdx), 0), cols - 1);
        let row = Math.min(Math.max(Math.floor(gy + sa * gdy), 0), rows - 1);
        const stepX = gdx > 0 ? 1 : gdx < 0 ? -1 : 0, stepY = gdy > 0 ? 1 : gdy < 0 ? -1 : 0;
        let nextX = stepX > 0 ? (col + 1 - gx) / gdx : stepX < 0 ? (col - gx) / gdx : Infinity;
        let nextY = stepY > 0 ? (row + 1 - gy) / gdy : stepY < 0 ? (row - gy) / gdy : Infinity;
        const deltaX = stepX !== 0 ? 1 / Math.abs(gdx) : Infinity, deltaY = stepY !== 0 ? 1 / Math.abs(gdy) : Infinity;
        for (let guard = cols + rows + 2; guard > 0; guard--) {
          this.castCell(row * cols + col, x0, y0, dx, dy, r, surfaces, polyhedra);
          if (Math.min(nextX, nextY) > sb) break;
          if (nextX <= nextY) { col += stepX; nextX += deltaX; } else { row += stepY; nextY += deltaY; }
          if (col < 0 || col >= cols || row < 0 || row >= rows) break;
        }
      }
    }
    i32[HDR + S_CANDIDATES] = this.candidates;
    const hit = this.castKind !== HIT_NONE;
    const t = hit ? this.best[0] : 1;
    i32[HDR + S_CONTACTS] = hit ? 1 : 0;
    f32[HDR + C_T] = t;
    f32[HDR + C_X] = x0 + t * dx;
    f32[HDR + C_Y] = y0 + t * dy;
    f32[HDR + C_NX] = this.best[1];
    f32[HDR + C_NY] = this.best[2];
    i32[HDR + C_KIND] = this.castKind;
    i32[HDR + C_ID] = hit ? this.castId : -1;
    return hit ? 1 : 0;
  }
}

