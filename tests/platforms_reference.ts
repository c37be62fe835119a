// The brute-force reference for the platforms part, retyped from the seeds (000: detect, deflect,
// hitDetection, lineToSurface; 001: dummyTest, deflect, multideflect, simulationUpdate) rather than
// imported from the library. It loops over every surface and polyhedron, with no grid. It works
// on the level as the facade stored it (f32 records) and does its maths in f64, as the kernels do,
// so the three agree exactly; lineToSurface itself is checked separately against these formulas.
// Working on the stored records, it has no up or down of its own; lineToSurface stays y-up, as
// the seed wrote it, and the tests mirror its output for the y-down store.
import { IdKind, type Platforms } from "../bindings/node.js";

export interface RefLevel {
  /** Per surface: [nx, ny, o, n0x, n0y, c0, n1x, n1y, c1, x0, y0, x1, y1]. */
  surfaces: Float32Array[];
  /** Per polyhedron: flat [nx, ny, offset, ...]. */
  polyhedra: Float32Array[];
}

export function levelOf(p: Platforms): RefLevel {
  const surfaces: Float32Array[] = [];
  for (let s = 0; s < p.surfaceCount; s++) surfaces.push(p.surface(p.idAt(IdKind.Surface, s)));
  const polyhedra: Float32Array[] = [];
  for (let k = 0; k < p.polyhedronCount; k++) polyhedra.push(p.halfspaces(p.idAt(IdKind.Polyhedron, k)));
  return { surfaces, polyhedra };
}

const dot = (ax: number, ay: number, bx: number, by: number) => ax * bx + ay * by;

/** Seed 000's lineToSurface, in f64, for any radius (the bound offsets get r / sqrt 2 added at test time). */
export function lineToSurface(x0: number, y0: number, x1: number, y1: number): number[] {
  const len = Math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2);
  const n = [-(y1 - y0) / len, (x1 - x0) / len]; // normalise (rotate90 (p1 - p0))
  const o = dot(n[0], n[1], x1, y1);
  const s = 1 / Math.sqrt(2);
  const n0 = [s * (n[0] - n[1]), s * (n[0] + n[1])]; // rotate45
  const n1 = [s * (n[0] + n[1]), s * (n[1] - n[0])]; // rotate315
  return [n[0], n[1], o, n0[0], n0[1], dot(n0[0], n0[1], x0, y0), n1[0], n1[1], dot(n1[0], n1[1], x1, y1)];
}

/**
 * Seed 000's lineToSurface as a y-up store holds it: the tutorial's formulas with every stored
 * value rounded to f32 (the ends too). The y-down facade must store exactly this, mirrored, for
 * the mirrored segment.
 */
export function lineToSurfaceF32(x0: number, y0: number, x1: number, y1: number): number[] {
  const f = Math.fround, s = Math.SQRT1_2;
  x0 = f(x0); y0 = f(y0); x1 = f(x1); y1 = f(y1);
  const len = Math.hypot(x1 - x0, y1 - y0);
  const nx = f(-(y1 - y0) / len) + 0, ny = f((x1 - x0) / len) + 0; // normalise (rotate90 (p1 - p0))
  const n0x = f(s * (nx - ny)), n0y = f(s * (nx + ny)); // rotate45
  const n1x = f(s * (nx + ny)), n1y = f(s * (ny - nx)); // rotate315
  return [nx, ny, f(nx * x1 + ny * y1), n0x, n0y, f(n0x * x0 + n0y * y0), n1x, n1y, f(n1x * x1 + n1y * y1)];
}

/** Seed 000's detect (trapezium), or the exact rounded region: front side, within r of the segment. */
export function detect(s: Float32Array, px: number, py: number, r: number, exact: boolean): boolean {
  const d = px * s[0] + py * s[1];
  const band = s[2] <= d && d <= s[2] + r;
  if (!exact) {
    return px * s[3] + py * s[4] <= s[5] + r * Math.SQRT1_2
      && px * s[6] + py * s[7] <= s[8] + r * Math.SQRT1_2
      && band;
  }
  const ex = s[11] - s[9], ey = s[12] - s[10];
  const qx = px - s[9], qy = py - s[10];
  const t = Math.min(1, Math.max(0, (qx * ex + qy * ey) / (ex * ex + ey * ey)));
  const dx = qx - t * ex, dy = qy - t * ey;
  return band && dx * dx + dy * dy <= r * r;
}

/** Seed 001's dummyTest with every face moved out by r. */
export function inside(h: Float32Array, px: number, py: number, r: number): boolean {
  for (let i = 0; i < h.length; i += 3) if (px * h[i] + py * h[i + 1] - h[i + 2] - r > 0) return false;
  return true;
}

export interface RefBall { x: number; y: number; vx: number; vy: number; ax: number; ay: number; r: number }

/** Seed 000's deflect folded over all touching surfaces (foldr: the last surface first). */
function hitDetection(level: RefLevel, b: RefBall, exact: boolean): void {
  for (let s = level.surfaces.length - 1; s >= 0; s--) {
    const S = level.surfaces[s];
    if (!detect(S, b.x, b.y, b.r, exact)) continue;
    const dv = b.vx * S[0] + b.vy * S[1];
    if (dv <= 0) { b.vx = b.vx - dv * S[0]; b.vy = b.vy - dv * S[1]; }
  }
}

/** Seed 001's multideflect = foldr deflect: the last polyhedron first; maximumBy keeps the last maximum. */
function multideflect(level: RefLevel, b: RefBall): void {
  for (let k = level.polyhedra.length - 1; k >= 0; k--) {
    const h = level.polyhedra[k];
    if (h.length === 0) continue;
    const diffs: number[] = [];
    for (let i = 0; i < h.length; i += 3) diffs.push(b.x * h[i] + b.y * h[i + 1] - h[i + 2] - b.r);
    if (!diffs.every((d) => d <= 0)) continue;
    let best = 0;
    for (let i = 1; i < diffs.length; i++) if (diffs[i] >= diffs[best]) best = i;
    const nx = h[3 * best], ny = h[3 * best + 1], d = diffs[best];
    const vn = nx * b.vx + ny * b.vy;
    const vx = vn <= 0 ? b.vx - vn * nx : b.vx, vy = vn <= 0 ? b.vy - vn * ny : b.vy;
    b.x = b.x - d * nx; b.y = b.y - d * ny; b.vx = vx; b.vy = vy;
  }
}

export interface RefParams { resX: number; resY: number; maxSubsteps: number; exact: boolean; maxRadius: number }

/**
 * simulationUpdate dt = velocerate dt . hitDetection . accellerate dt, with the library's
 * sub-stepping (a ball moving more than r / 2 per step runs ceil(travel / (r / 2)) sub-steps of
 * hitDetection + velocerate, its speed capped to maxSubsteps of them). Positions and velocities
 * are stored back as f32, as the stores hold them.
 */
export function refStep(level: RefLevel, balls: RefBall[], dt: number, p: RefParams): void {
  const f = Math.fround;
  const resX = f(p.resX), resY = f(p.resY);
  for (const b of balls) {
    const finite = [b.x, b.y, b.vx, b.vy, b.ax, b.ay].every(Number.isFinite);
    if (!finite || !(b.r >= 0 && b.r <= f(p.maxRadius))) continue;
    b.vx = resX * b.vx + dt * b.ax;
    b.vy = resY * b.vy + dt * b.ay;
    let steps = 1;
    if (b.r > 0) {
      const travel = Math.sqrt(b.vx * b.vx + b.vy * b.vy) * dt, limit = 0.5 * b.r;
      if (travel > limit) {
        steps = Math.ceil(travel / limit);
        if (steps > p.maxSubsteps) {
          const scale = p.maxSubsteps * limit / travel;
          b.vx *= scale; b.vy *= scale;
          steps = p.maxSubsteps;
        }
      }
    }
    const h = dt / steps;
    for (let s = 0; s < steps; s++) {
      hitDetection(level, b, p.exact);
      multideflect(level, b);
      b.x = b.x + h * b.vx;
      b.y = b.y + h * b.vy;
    }
    b.x = f(b.x); b.y = f(b.y); b.vx = f(b.vx); b.vy = f(b.vy);
  }
}

export interface RefHit { kind: number; id: number; t: number; nx: number; ny: number }

/**
 * Closest first contact of a circle moving p -> p + d with every surface (front side, capsule of
 * radius r) and polyhedron (faces out by r), by brute force; ties go to surfaces, then lower ids.
 */
export function refCast(level: RefLevel, px: number, py: number, dx: number, dy: number, r: number): RefHit {
  let best: RefHit = { kind: 0, id: -1, t: Infinity, nx: 0, ny: 0 };
  const offer = (t: number, nx: number, ny: number, kind: number, id: number) => {
    if (t < best.t || (t === best.t && (kind < best.kind || (kind === best.kind && id < best.id)))) best = { kind, id, t, nx, ny };
  };
  level.surfaces.forEach((S, id) => {
    const den = dx * S[0] + dy * S[1];
    if (!(den < 0)) return;
    const t = (S[2] + r - (px * S[0] + py * S[1])) / den;
    if (t >= 0 && t <= 1) {
      const ex = S[11] - S[9], ey = S[12] - S[10];
      const u = ((px + t * dx - S[9]) * ex + (py + t * dy - S[10]) * ey) / (ex * ex + ey * ey);
      if (u >= 0 && u <= 1) { offer(t, S[0], S[1], 1, id); return; }
    }
    if (r <= 0) return;
    for (const [cx, cy] of [[S[9], S[10]], [S[11], S[12]]]) {
      const fx = px - cx, fy = py - cy;
      const a = dx * dx + dy * dy, b = fx * dx + fy * dy, c = fx * fx + fy * fy - r * r;
      if (c < 0 || b >= 0) continue;
      const disc = b * b - a * c;
      if (disc < 0) continue;
      const t = (-b - Math.sqrt(disc)) / a;
      if (t < 0 || t > 1) continue;
      const hx = fx + t * dx, hy = fy + t * dy;
      if (hx * S[0] + hy * S[1] < 0) continue;
      offer(t, hx / r, hy / r, 1, id);
    }
  });
  level.polyhedra.forEach((h, id) => {
    let tIn = -Infinity, tOut = Infinity, nx = 0, ny = 0, entering = false;
    for (let i = 0; i < h.length; i += 3) {
      const num = h[i + 2] + r - (px * h[i] + py * h[i + 1]);
      const den = dx * h[i] + dy * h[i + 1];
      if (den === 0) { if (num < 0) return; continue; }
      const t = num / den;
      if (den < 0) { if (t > tIn) { tIn = t; nx = h[i]; ny = h[i + 1]; entering = true; } }
      else if (t < tOut) tOut = t;
      if (tIn > tOut) return;
    }
    if (!entering || tIn < 0 || tIn > 1 || tIn > tOut) return;
    offer(tIn, nx, ny, 2, id);
  });
  return best;
}

/** Point in a simple polygon (flat vertex list) by ray crossing: the reference for convex splitting. */
export function pointInPolygon(pts: readonly number[], px: number, py: number): boolean {
  let inside = false;
  const n = pts.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = pts[2 * i], yi = pts[2 * i + 1], xj = pts[2 * j], yj = pts[2 * j + 1];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
