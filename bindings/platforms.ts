// The platforms facade: surfaces (seed 000), halfspace polyhedra (seed 001) and many balls in one
// kernel instance, on either backend. It validates, turns segments and vertex lists into the
// seeds' normals and offsets, splits non-convex polygons (bindings/polygon.ts), builds the static
// grid (bindings/platform_index.ts) and lays out the regions of layout/platforms.ts; the
// kernels run the per-frame loops over them.
//
// Coordinates are y-down, like the screen, Tiled, the world's bodies and the rect level: gravity is
// +y. The seeds draw y-up; every rule here that depends on up and down is theirs mirrored
// (y -> -y), so a seed level with its y negated (fixtures/platform_levels.ts: flipY) behaves as the
// seed's level mirrored, to the bit: a surface's normal is on the left of p0 -> p1 as drawn on the
// screen (the seed's rotate90, mirrored), its bound normals are rotate315 and rotate45 of it (the
// seed's rotate45 and rotate315, mirrored), and a polygon's parts run counter-clockwise as drawn (a
// negative shoelace sum in y-down coordinates), their outward normals on the right of each edge as
// drawn. The kernels only take dot products with the stored normals, so they need no mirroring.
//
// Regions, in this order from the kernel's arena base (rebuilt whenever the level or the ball
// capacity changes; balls are carried over):
//   surfaces    f32[SURF_STRIDE * S]   records of lineToSurface
//   halfspaces  f32[HS_STRIDE * H]     nx, ny, offset, unused
//   polyStart   i32[P + 1]             first halfspace of each polyhedron, then the end
//   surfCells   i32[cells + 2]         } the static grid: CSR runs of ids per cell,
//   surfItems   i32[...]               } the last cell being "outside the grid"
//   polyCells   i32[cells + 2]         }
//   polyItems   i32[...]               }
//   x, y, vx, vy, ax, ay, radius       f32[ball capacity] each
//   results     i32[max(S, P, 1)]      ids of the last point query
//   extents     f32[4 * P]             min x, min y, max x, max y per polyhedron (+-Infinity: unbounded)
import { Arena, type Heap, type Region } from "./arena.js";
import { PLATFORMS_HEADER } from "../layout/grid.js";
import { buildPlatformIndex, indexBounds, type PlatformIndex } from "./platform_index.js";
import type { PlatformsKernel } from "./platforms_kernel.js";
import {
  C_ID, C_NX, C_NY, C_PART, C_T, C_X, C_Y, HS_STRIDE, P_BALL_COUNT, P_BAX,
  P_BALL_HIT_PART, P_BALL_HIT_SHAPE, P_BALL_LAST_Y, P_BALL_PREV_VY, P_BALL_PREV_Y, P_BAY, P_BR, P_BVX, P_BVY, P_BX, P_BY, P_EXACT, P_GRID_COLS, P_GRID_INV, P_GRID_OX, P_GRID_OY, P_GRID_RADIUS,
  P_GRID_ROWS, P_HALFSPACES, P_MAX_SUBSTEPS, P_POLY_CELLS, P_POLY_COUNT, P_POLY_EXTENT, P_POLY_ITEMS, P_POLY_START, P_RES_X,
  P_RES_Y, P_RESULTS, P_RESULTS_CAP, P_REACH_BOXES, P_SURF_CELLS, P_SURF_COUNT, P_SURF_ITEMS, P_SURFACES, PLATFORMS_FIELDS,
  S_CANDIDATES, S_CONTACTS, S_SKIPPED, S_SUBSTEPS, SURF_STRIDE,
} from "../layout/platforms.js";
import { PART_NONE } from "../layout/moves.js";
import { convexPartsYDown } from "./polygon.js";
import { checkCoord, checkHeader, checkSize, describe, HitcoreError, readOnce, setHeaderFields } from "./validate.js";
import type { Backend } from "./world.js";
import { Hit } from "./hit.js";
import { generationOf, IdKind, kindFor, makeId, MAX_GENERATION, nextGeneration, NULL_ID, slotFor, slotOf, unknownId, wrongKind, type WorldTag } from "./ids.js";

/** The kinds of handle the platforms give out. */
const PLATFORM_KINDS = [IdKind.Surface, IdKind.Polyhedron, IdKind.Ball] as const;

export { SURF_STRIDE };

/** The seeds' constants (both tutorials use the same ones), for y-down coordinates. */
export const PLATFORMER = {
  /** Downward acceleration, +y with y down (the seeds' `gravity`, -300 in their y-up frame). */
  gravity: 300,
  /** Horizontal acceleration while an arrow key is held, the seeds' `speed`. */
  speed: 200,
  /** Speed of a jump, upward: a jump subtracts it from vy (the seeds' `jumpspeed`, added in their y-up frame). */
  jumpSpeed: 300,
  /** The seeds' `playerRadius`. */
  radius: 10,
  /** Velocity factor per step, the seeds' `resistance` / `decell`. */
  resistanceX: 0.95,
  resistanceY: 1,
  fps: 60,
} as const;

export interface PlatformsOptions {
  /** Largest ball radius (default 10): the static grid covers hit regions up to it; larger balls are rejected. */
  maxRadius?: number;
  /** Balls to reserve room for (default 1024); the store grows x2 when full. */
  ballCapacity?: number;
  /** Hard cap on balls (default 4,194,304). */
  maxBalls?: number;
  /** Surfaces use the exact rounded hit region instead of the seed's trapezium (default false). */
  exact?: boolean;
  /** Velocity factors per step (defaults: the seeds' 0.95 and 1). */
  resistanceX?: number;
  resistanceY?: number;
  /** Most sub-steps per ball per step (default 64); faster balls have their speed capped to fit. */
  maxSubsteps?: number;
}

/** What the last kernel call visited (allocates: for tests and tuning, not the frame loop). */
export interface PlatformStats {
  /** Surfaces and polyhedra tested. */
  candidates: number;
  /** Of those, touching (step: deflections; queries: results). */
  contacts: number;
  /** Sub-steps run by the last step, over all balls. */
  substeps: number;
  /** Balls the last step skipped (non-finite data written through the views, radius above maxRadius). */
  skipped: number;
  cols: number;
  rows: number;
  cellSize: number;
}

const BALL_FIELDS = [P_BX, P_BY, P_BVX, P_BVY, P_BAX, P_BAY, P_BR];
// What stepBalls keeps per ball besides: y and vy before the step, y before the last move, the last box contact's part and shape.
const BALL_STEP_FIELDS = [P_BALL_PREV_Y, P_BALL_PREV_VY, P_BALL_LAST_Y, P_BALL_HIT_PART, P_BALL_HIT_SHAPE];
/** Region index (in REGION_FIELDS) of every per-ball region: 4 bytes per ball each, carried over a relayout. */
const BALL_REGIONS = [7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19, 20];
/** The region of the reach boxes, past the balls'. */
const REACH_REGION = 21;
// Header field of each region, in layout order (writeHeader writes them again after clearing the stats).
const REGION_FIELDS = [P_SURFACES, P_HALFSPACES, P_POLY_START, P_SURF_CELLS, P_SURF_ITEMS, P_POLY_CELLS, P_POLY_ITEMS,
  ...BALL_FIELDS, P_RESULTS, P_POLY_EXTENT, ...BALL_STEP_FIELDS, P_REACH_BOXES];
const SQRT1_2 = Math.SQRT1_2;

/**
 * Boxes (x0, y0, x1, y1 each) as f32 rounded outward, so the stored box holds the exact one; NaN
 * (unbounded) becomes the whole plane. Load time only.
 */
function outward(boxes: readonly number[]): Float32Array {
  const out = new Float32Array(boxes.length);
  for (let k = 0; k < boxes.length; k++) {
    const v = boxes[k], lo = (k & 3) < 2;
    if (Number.isNaN(v)) { out[k] = lo ? -Infinity : Infinity; continue; }
    // A relative step of 2^-22 is past f32's rounding (2^-24): the rounded value stays on the outer side.
    out[k] = Math.fround(lo ? v - Math.abs(v) * 2 ** -22 - 1e-30 : v + Math.abs(v) * 2 ** -22 + 1e-30);
  }
  return out;
}

function checkOption(name: string, v: unknown, lo: number, hi: number, integer: boolean): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < lo || v > hi || (integer && !Number.isInteger(v))) {
    throw new HitcoreError("INVALID_OPTION", `${name} must be ${integer ? "an integer" : "a number"} in [${lo}, ${hi}], got ${describe(v)}.`);
  }
  return v;
}

// Outward f32 rounding of extents (load time only).
const bitsF = new Float32Array(1);
const bitsI = new Int32Array(bitsF.buffer);

function f32Step(f: number, up: boolean): number {
  if (!Number.isFinite(f)) return f;
  if (f === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
  bitsF[0] = f;
  bitsI[0] += (f > 0) === up ? 1 : -1;
  return bitsF[0];
}

function f32Up(x: number): number {
  const f = Math.fround(x);
  return f < x ? f32Step(f, true) : f;
}

function f32Down(x: number): number {
  const f = Math.fround(x);
  return f > x ? f32Step(f, false) : f;
}

/**
 * Support max e . x over the polyhedron of stored halfspaces [nx, ny, offset, unused, ...] for an
 * axis e, rounded up to f32; Infinity where it is unbounded along e, or bounded only by a face
 * whose normal is e (that face already gives the Minkowski sum its side), or empty. Finite exactly
 * when e lies strictly between two normals less than a half turn apart: the two closest to e on
 * either side are the pair to try. The maximum is then a 2D linear program, solved by Seidel's
 * randomized incremental method (a fixed shuffle): expected O(faces), where trying every pair of
 * faces as a corner against every face was O(faces^3), 41 s for a 3,000-gon.
 */
function support(hs: number[], ex: number, ey: number): number {
  const n = hs.length / HS_STRIDE;
  const nx = (i: number) => hs[i * HS_STRIDE], ny = (i: number) => hs[i * HS_STRIDE + 1], no = (i: number) => hs[i * HS_STRIDE + 2];
  // The normals nearest to e clockwise (a) and counter-clockwise (b), by the angle they make with e.
  let a = -1, b = -1, angleA = Infinity, angleB = Infinity;
  for (let i = 0; i < n; i++) {
    const c = nx(i) * ey - ny(i) * ex, d = nx(i) * ex + ny(i) * ey;
    if (c > 0) { const t = Math.atan2(c, d); if (t < angleA) { angleA = t; a = i; } }
    else if (c < 0) { const t = Math.atan2(-c, d); if (t < angleB) { angleB = t; b = i; } }
  }
  if (a < 0 || b < 0 || !(nx(a) * ny(b) - ny(a) * nx(b) > 0)) return Infinity;
  // Start at the corner of a and b, then add the other faces in a fixed random order; when the
  // corner breaks a face, the new optimum lies on that face's line, bounded by the faces so far.
  const det = nx(a) * ny(b) - ny(a) * nx(b);
  let vx = (no(a) * ny(b) - no(b) * ny(a)) / det, vy = (nx(a) * no(b) - nx(b) * no(a)) / det;
  const order: number[] = [a, b];
  for (let i = 0; i < n; i++) if (i !== a && i !== b) order.push(i);
  let seed = 0x9e3779b9 | 0;
  for (let i = order.length - 1; i > 2; i--) {
    seed = (Math.imul(seed, 1664525) + 1013904223) | 0;
    const j = 2 + ((seed >>> 0) % (i - 1));
    const t = order[i]; order[i] = order[j]; order[j] = t;
  }
  for (let k = 2; k < order.length; k++) {
    const h = order[k];
    const hx = nx(h), hy = ny(h), ho = no(h);
    if (hx * vx + hy * vy <= ho + 1e-6 * (1 + Math.abs(vx) + Math.abs(vy))) continue;
    // On the line: x = (hx, hy) * ho + t * (-hy, hx); maximise e . x over t within faces order[0..k).
    const px = hx * ho, py = hy * ho, dx = -hy, dy = hx;
    let tLo = -Infinity, tHi = Infinity;
    for (let j = 0; j < k; j++) {
      const g = order[j];
      const slope = nx(g) * dx + ny(g) * dy, room = no(g) - (nx(g) * px + ny(g) * py);
      if (Math.abs(slope) < 1e-9) {
        if (room < -1e-6 * (1 + Math.abs(px) + Math.abs(py))) return Infinity; // parallel and outside: empty
      } else if (slope > 0) tHi = Math.min(tHi, room / slope);
      else tLo = Math.max(tLo, room / slope);
    }
    if (tLo > tHi + 1e-6 * (1 + Math.abs(tLo))) return Infinity; // the faces leave nothing: empty
    const gain = ex * dx + ey * dy;
    const t = gain > 0 ? tHi : gain < 0 ? tLo : Number.isFinite(tLo) ? tLo : Number.isFinite(tHi) ? tHi : 0;
    vx = px + t * dx;
    vy = py + t * dy;
  }
  const best = vx * ex + vy * ey;
  return Number.isFinite(best) ? f32Up(best + 1e-6 * (1 + Math.abs(best))) : Infinity;
}

function checkFlat(method: string, name: string, values: ArrayLike<number>, stride: number): void {
  if (values === null || typeof values !== "object" || typeof values.length !== "number") {
    throw new HitcoreError("INVALID_ARGUMENT", `${method}: ${name} must be a flat array of numbers, got ${describe(values)}.`);
  }
  if (values.length === 0 || values.length % stride !== 0) {
    throw new HitcoreError("INVALID_ARGUMENT", `${method}: ${name} must hold groups of ${stride} numbers, got ${values.length}. Pass a flat array such as [${stride === 4 ? "x0, y0, x1, y1" : "nx, ny, offset"}, ...].`);
  }
  for (let i = 0; i < values.length; i++) checkCoord(method, `${name}[${i}]`, values[i]);
}

/**
 * The regions of a level of nS surfaces, nP polyhedra with `halfspaces` numbers of halfspace data,
 * an index with lists of the given lengths, and room for ballCap balls. The level regions are
 * rewritten at every layout and the balls carried over, so no region keeps its data.
 */
function levelRegions(nS: number, nP: number, halfspaces: number, surfStarts: number, surfItems: number, polyStarts: number, polyItems: number, ballCap: number): Region[] {
  const resultsCap = Math.max(nS, nP, 1);
  const bytes = [4 * Math.max(nS * SURF_STRIDE, 1), 4 * Math.max(halfspaces, 1), 4 * (nP + 1),
    4 * surfStarts, 4 * Math.max(surfItems, 1), 4 * polyStarts, 4 * Math.max(polyItems, 1),
    4 * ballCap, 4 * ballCap, 4 * ballCap, 4 * ballCap, 4 * ballCap, 4 * ballCap, 4 * ballCap, 4 * resultsCap,
    4 * Math.max(4 * nP, 1), ...BALL_STEP_FIELDS.map(() => 4 * ballCap), 4 * Math.max(4 * nS + 4 * nP, 1)];
  return REGION_FIELDS.map((field, r) => ({ field, bytes: bytes[r], keep: false }));
}

/** Surfaces, convex polyhedra and balls of a 2D platformer in one kernel instance. */
export class Platforms {
  readonly backend: Backend;
  /** Largest ball radius the level's grid covers. */
  readonly maxRadius: number;
  private readonly kernel: PlatformsKernel;
  private readonly memory: WebAssembly.Memory;
  private readonly maxBalls: number;
  private exactRegion: boolean;
  private resistanceX: number;
  private resistanceY: number;
  private maxSubsteps: number;

  // The level, kept on the JS side too: it is rewritten into memory on every relayout.
  private surfRecords: number[] = [];
  private surfBoxes: number[] = [];
  private halfspaceData: number[] = [];
  private polyStart: number[] = [0];
  private polyBoxes: number[] = [];
  private polyVertices: (number[] | null)[] = [];
  private polyExtents: number[] = [];
  private index: PlatformIndex | null = null;
  // Generations of the level's handles (surfaces and polyhedra) and of the balls' handles:
  // clearLevel and clearBalls move them on, so a cleared handle is refused once its slot is reused.
  private levelGen = 1;
  private ballGen = 1;
  private readonly ids: WorldTag;

  private ballCap: number;
  private balls = 0;
  private readonly arena: Arena;
  private offsets = new Int32Array(16);
  private resultsCap = 1;

  private buffer: ArrayBuffer | null = null;
  private header = new Int32Array(0);
  private headerF = new Float32Array(0);
  private _views: Float32Array[] = [];
  private _results = new Int32Array(0);
  private _lastY = new Float32Array(0); // P_BALL_LAST_Y
  private _hitPart = new Int32Array(0); // P_BALL_HIT_PART
  private _hitShape = new Int32Array(0); // P_BALL_HIT_SHAPE
  private _prevY = new Float32Array(0); // P_BALL_PREV_Y
  private _prevVy = new Float32Array(0); // P_BALL_PREV_VY

  /** The last cast's hit: part Part.Surfaces or Part.Polyhedra, shape the surface or polyhedron id (Part.None after a miss). */
  readonly hit = new Hit();
  private readonly castLength = new Float64Array(1);

  /** Use world.addPlatforms(); this constructor takes the world's kernel and heap. */
  constructor(kernel: PlatformsKernel, backend: Backend, heap: Heap, ids: WorldTag, options: PlatformsOptions = {}) {
    this.maxRadius = checkOption("maxRadius", options.maxRadius ?? PLATFORMER.radius, Number.MIN_VALUE, 1e6, false);
    this.ballCap = checkOption("ballCapacity", options.ballCapacity ?? 1024, 1, 1 << 22, true);
    this.maxBalls = checkOption("maxBalls", options.maxBalls ?? 1 << 22, this.ballCap, 1 << 24, true);
    this.exactRegion = !!options.exact;
    this.resistanceX = checkOption("resistanceX", options.resistanceX ?? PLATFORMER.resistanceX, 0, 1, false);
    this.resistanceY = checkOption("resistanceY", options.resistanceY ?? PLATFORMER.resistanceY, 0, 1, false);
    this.maxSubsteps = checkOption("maxSubsteps", options.maxSubsteps ?? 64, 1, 4096, true);
    this.kernel = kernel;
    this.backend = backend;
    this.ids = ids;
    this.memory = kernel.memory;
    // Memory grows at least twofold: a level added piece by piece is laid out again at each query.
    this.arena = new Arena(kernel.memory, heap, 2);
    this.relayout(this.ballCap, "addPlatforms");
    this.header[C_ID] = -1;
    this.headerF[C_T] = 1;
  }

  // ---- the level ----------------------------------------------------------------------------

  /** Surfaces held; their indices (touchingSurfaces' results, hits) are 0 .. surfaceCount - 1 in the order added. */
  get surfaceCount(): number {
    return this.surfRecords.length / SURF_STRIDE;
  }

  /** Polyhedra held; their indices (polyhedraAt's results, hits) are 0 .. polyhedronCount - 1 in the order added. */
  get polyhedronCount(): number {
    return this.polyStart.length - 1;
  }

  /**
   * Adds a surface from p0 to p1 (the seed's lineToSurface, mirrored for y down): one-sided, met
   * from the side its normal points to, on the left of p0 -> p1 as drawn on a y-down screen: a
   * surface drawn left to right faces up. Returns its handle.
   */
  addSurface(x0: number, y0: number, x1: number, y1: number): number {
    return this.addSurfaces([x0, y0, x1, y1])[0];
  }

  /** Adds surfaces from a flat [x0, y0, x1, y1, ...] list, all or none; returns their handles, in order. */
  addSurfaces(lines: ArrayLike<number>): number[] {
    lines = readOnce("addSurfaces", "lines", lines);
    checkFlat("addSurfaces", "lines", lines, 4);
    const f = Math.fround;
    for (let i = 0; i < lines.length; i += 4) {
      if (f(lines[i]) === f(lines[i + 2]) && f(lines[i + 1]) === f(lines[i + 3])) {
        throw new HitcoreError("DEGENERATE_SURFACE", `addSurfaces: line ${i / 4} has zero length (both ends at ${lines[i]}, ${lines[i + 1]}). Remove it or give two distinct ends.`);
      }
    }
    this.admit("addSurfaces", lines.length / 4, 0, 0);
    const handles: number[] = [];
    for (let i = 0; i < lines.length; i += 4) {
      handles.push(makeId(this.levelGen, IdKind.Surface, this.ids.tag, this.surfaceCount));
      this.pushSurface(f(lines[i]), f(lines[i + 1]), f(lines[i + 2]), f(lines[i + 3]));
    }
    this.index = null;
    return handles;
  }

  private pushSurface(x0: number, y0: number, x1: number, y1: number): void {
    const f = Math.fround;
    const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy);
    // The seed's normalise (rotate90 (p1 - p0)) and its bounds rotate45 n (at p0) and rotate315 n
    // (at p1), mirrored in y: each value is the seed's for the mirrored segment, or its negation,
    // bit for bit (negation is exact), so the offsets below come out equal. + 0 drops -0.
    const nx = f(dy / len) + 0, ny = f(-dx / len) + 0; // (dy, -dx) / len: left of p0 -> p1 as drawn
    const n0x = f(SQRT1_2 * (nx + ny)), n0y = f(SQRT1_2 * (ny - nx)); // rotate315 n, the mirrored rotate45
    const n1x = f(SQRT1_2 * (nx - ny)), n1y = f(SQRT1_2 * (nx + ny)); // rotate45 n, the mirrored rotate315
    this.surfRecords.push(nx, ny, f(nx * x1 + ny * y1), n0x, n0y, f(n0x * x0 + n0y * y0), n1x, n1y, f(n1x * x1 + n1y * y1),
      x0, y0, x1, y1, 0, 0, 0);
    const m = this.margin(Math.max(Math.abs(x0), Math.abs(y0), Math.abs(x1), Math.abs(y1)));
    this.surfBoxes.push(Math.min(x0, x1) - m, Math.min(y0, y1) - m, Math.max(x0, x1) + m, Math.max(y0, y1) + m);
  }

  /** How far past an item's geometry the grid lists it: the largest radius, and room for f32 rounding. */
  private margin(size: number): number {
    return this.maxRadius * 1.0001 + 1e-3 + 1e-5 * size;
  }

  /**
   * Adds a simple polygon from a flat [x0, y0, x1, y1, ...] vertex list of either winding (solid
   * inside; the orientation comes from the signed area). Repeated points and collinear runs are
   * cleaned; a non-convex polygon is split into convex parts, each stored counter-clockwise as
   * drawn on a y-down screen (see vertices). Returns the handles of the polyhedra it became. Throws for
   * fewer than three distinct corners, no area, or crossing edges.
   */
  addPolygon(points: ArrayLike<number>): number[] {
    points = readOnce("addPolygon", "points", points);
    const parts = convexPartsYDown("addPolygon", points);
    this.admit("addPolygon", 0, parts.length, parts.reduce((sum, part) => sum + (part.length / 2) * HS_STRIDE, 0));
    const ids: number[] = [];
    for (const part of parts) ids.push(this.pushConvex(part));
    this.index = null;
    return ids;
  }

  /**
   * A convex part, counter-clockwise as drawn with y down: the seed's vPolyToHPoly, one halfspace
   * per edge, normals outward (the seed's right of a counter-clockwise edge, mirrored).
   */
  private pushConvex(part: number[]): number {
    const f = Math.fround;
    const n = part.length / 2;
    const normals: number[] = [];
    for (let i = 0; i < n; i++) {
      const ax = part[2 * i], ay = part[2 * i + 1];
      const bx = part[(2 * i + 2) % part.length], by = part[(2 * i + 3) % part.length];
      const len = Math.hypot(bx - ax, by - ay);
      const nx = f(-(by - ay) / len) + 0, ny = f((bx - ax) / len) + 0; // (-dy, dx) / len: right of the edge as drawn, outward; + 0 drops -0
      normals.push(nx, ny);
      this.halfspaceData.push(nx, ny, f(nx * ax + ny * ay), 0);
    }
    // Box of the polygon with its faces moved out by maxRadius: its mitred corners.
    const R = this.maxRadius;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, size = 0, bounded = true;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n; // corner j joins edge i and edge j
      const ax = normals[2 * i], ay = normals[2 * i + 1], bx = normals[2 * j], by = normals[2 * j + 1];
      const k = 1 + ax * bx + ay * by;
      if (k < 1e-9) { bounded = false; break; }
      const vx = part[2 * j] + (R * (ax + bx)) / k, vy = part[2 * j + 1] + (R * (ay + by)) / k;
      x0 = Math.min(x0, vx); y0 = Math.min(y0, vy); x1 = Math.max(x1, vx); y1 = Math.max(y1, vy);
      size = Math.max(size, Math.abs(part[2 * j]), Math.abs(part[2 * j + 1]));
    }
    const m = this.margin(size) - R;
    if (bounded) this.polyBoxes.push(x0 - m, y0 - m, x1 + m, y1 + m);
    else this.polyBoxes.push(NaN, NaN, NaN, NaN);
    let ex0 = Infinity, ey0 = Infinity, ex1 = -Infinity, ey1 = -Infinity;
    for (let i = 0; i < part.length; i += 2) {
      ex0 = Math.min(ex0, part[i]); ey0 = Math.min(ey0, part[i + 1]);
      ex1 = Math.max(ex1, part[i]); ey1 = Math.max(ey1, part[i + 1]);
    }
    this.polyExtents.push(f32Down(ex0), f32Down(ey0), f32Up(ex1), f32Up(ey1));
    this.polyStart.push(this.halfspaceData.length / HS_STRIDE);
    this.polyVertices.push(part);
    return makeId(this.levelGen, IdKind.Polyhedron, this.ids.tag, this.polyStart.length - 2);
  }

  /**
   * Adds a convex polyhedron given directly as halfspaces n . x <= offset, a flat
   * [nx, ny, offset, ...] list (normals are normalised; the offset is scaled with them). It may be
   * unbounded: [0, -1, 0] is the ground y >= 0 (the seed's y <= 0, mirrored). Such polyhedra are
   * tested by every ball. Returns its handle.
   */
  addHalfspaces(halfspaces: ArrayLike<number>): number {
    halfspaces = readOnce("addHalfspaces", "halfspaces", halfspaces);
    checkFlat("addHalfspaces", "halfspaces", halfspaces, 3);
    for (let i = 0; i < halfspaces.length; i += 3) {
      if (!(Math.hypot(halfspaces[i], halfspaces[i + 1]) > 0)) {
        throw new HitcoreError("DEGENERATE_HALFSPACE", `addHalfspaces: halfspace ${i / 3} has a zero normal. Give the outward normal (nx, ny) of each face.`);
      }
    }
    this.admit("addHalfspaces", 0, 1, (halfspaces.length / 3) * HS_STRIDE);
    const f = Math.fround;
    const first = this.halfspaceData.length;
    for (let i = 0; i < halfspaces.length; i += 3) {
      const len = Math.hypot(halfspaces[i], halfspaces[i + 1]);
      this.halfspaceData.push(f(halfspaces[i] / len) + 0, f(halfspaces[i + 1] / len) + 0, f(halfspaces[i + 2] / len) + 0, 0);
    }
    const stored = this.halfspaceData.slice(first);
    this.polyExtents.push(-support(stored, -1, 0), -support(stored, 0, -1), support(stored, 1, 0), support(stored, 0, 1));
    this.polyBoxes.push(NaN, NaN, NaN, NaN);
    this.polyStart.push(this.halfspaceData.length / HS_STRIDE);
    this.polyVertices.push(null);
    this.index = null;
    return makeId(this.levelGen, IdKind.Polyhedron, this.ids.tag, this.polyStart.length - 2);
  }

  /** Removes every surface and polyhedron (balls stay); their handles stay invalid. */
  clearLevel(): void {
    this.levelGen = nextGeneration(this.levelGen);
    this.surfRecords = [];
    this.surfBoxes = [];
    this.halfspaceData = [];
    this.polyStart = [0];
    this.polyBoxes = [];
    this.polyVertices = [];
    this.polyExtents = [];
    this.index = null;
  }

  /** Surface record of lineToSurface (SURF_STRIDE numbers: n, offset, n0, c0, n1, c1, p0, p1); a copy. */
  surface(handle: number): Float32Array {
    const s = this.levelSlot("surface", handle, IdKind.Surface);
    return Float32Array.from(this.surfRecords.slice(s * SURF_STRIDE, (s + 1) * SURF_STRIDE));
  }

  /** Halfspaces of a polyhedron as a flat [nx, ny, offset, ...] copy. */
  halfspaces(handle: number): Float32Array {
    const p = this.levelSlot("halfspaces", handle, IdKind.Polyhedron);
    const out: number[] = [];
    for (let h = this.polyStart[p]; h < this.polyStart[p + 1]; h++) out.push(...this.halfspaceData.slice(h * HS_STRIDE, h * HS_STRIDE + 3));
    return Float32Array.from(out);
  }

  /**
   * Corners of a polyhedron made from a polygon, flat, counter-clockwise as drawn on a y-down screen
   * (a negative shoelace sum in these coordinates), or null for one given as halfspaces.
   */
  vertices(handle: number): readonly number[] | null {
    return this.polyVertices[this.levelSlot("vertices", handle, IdKind.Polyhedron)];
  }

  /**
   * A polyhedron's extent [min x, min y, max x, max y] as the swept-box casts use it (a copy):
   * rounded outward to f32; +-Infinity on a side where it is unbounded (or where only a face
   * parallel to that axis bounds it, which the face itself already covers).
   */
  extent(handle: number): Float32Array {
    const p = this.levelSlot("extent", handle, IdKind.Polyhedron);
    return Float32Array.from(this.polyExtents.slice(4 * p, 4 * p + 4));
  }

  /**
   * surface, halfspaces and vertices by index (0 .. surfaceCount - 1, 0 .. polyhedronCount - 1, as
   * hits and queries give them), without a copy: for overlays in a frame loop (a handle is a
   * double, which V8 boxes across a call it does not inline). surfaceAt writes the SURF_STRIDE
   * numbers of the surface's record into out.
   */
  surfaceAt(index: number, out: Float64Array): Float64Array {
    const s = this.levelIndex("surfaceAt", index, this.surfaceCount);
    for (let k = 0; k < SURF_STRIDE; k++) out[k] = this.surfRecords[s * SURF_STRIDE + k];
    return out;
  }

  /** The faces of the polyhedron at `index` into out (nx, ny, offset each); returns their number. out holds 3 x faceCountAt(index). */
  halfspacesAt(index: number, out: Float64Array): number {
    const p = this.levelIndex("halfspacesAt", index, this.polyhedronCount), h0 = this.polyStart[p], n = this.polyStart[p + 1] - h0;
    for (let h = 0; h < n; h++) {
      const at = (h0 + h) * HS_STRIDE;
      out[3 * h] = this.halfspaceData[at]; out[3 * h + 1] = this.halfspaceData[at + 1]; out[3 * h + 2] = this.halfspaceData[at + 2];
    }
    return n;
  }

  /** Faces of the polyhedron at `index`. */
  faceCountAt(index: number): number {
    const p = this.levelIndex("faceCountAt", index, this.polyhedronCount);
    return this.polyStart[p + 1] - this.polyStart[p];
  }

  /** Corners of the polyhedron at `index` (see vertices; the stored list, not a copy: do not change it), or null. */
  verticesAt(index: number): readonly number[] | null {
    return this.polyVertices[this.levelIndex("verticesAt", index, this.polyhedronCount)];
  }

  private levelIndex(method: string, index: number, count: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new HitcoreError("INVALID_ARGUMENT", `${method}: index must be from 0 to ${count - 1}, got ${describe(index)}.`);
    }
    return index;
  }

  /** Surfaces use the exact rounded region (true) or the seed's trapezium (false). */
  get exact(): boolean {
    return this.exactRegion;
  }

  set exact(value: boolean) {
    this.exactRegion = !!value;
    this.refresh();
    this.header[P_EXACT] = this.exactRegion ? 1 : 0;
  }

  // ---- balls --------------------------------------------------------------------------------

  /** Balls held; the views index them 0 .. ballCount - 1 (indexOf gives a ball's index). */
  get ballCount(): number {
    return this.balls;
  }

  /** Views of the ball stores, [0, ballCount) in use. Re-read after adding balls or level pieces: relayout replaces them. */
  get x(): Float32Array { return this.view(0); }
  get y(): Float32Array { return this.view(1); }
  get vx(): Float32Array { return this.view(2); }
  get vy(): Float32Array { return this.view(3); }
  get ax(): Float32Array { return this.view(4); }
  get ay(): Float32Array { return this.view(5); }
  get radius(): Float32Array { return this.view(6); }
  /**
   * Per ball, in a world with a tile map or rect instances, the Part of its last contact with them in
   * the last step (Part.Tiles or Part.Rects; Part.None if none), and (boxContactShape) the cell index
   * (-1 for the walls and floor around the map) or the instance. Surfaces and polyhedra are counted
   * in stats().contacts only. Re-read after adding balls.
   */
  get boxContactPart(): Int32Array { this.refresh(); return this._hitPart; }
  /** The cell or instance of each ball's last box contact (see boxContactPart); -1 if none. */
  get boxContactShape(): Int32Array { this.refresh(); return this._hitShape; }
  /** Indices written by the last touchingSurfaces / polyhedraAt (idAt gives their handles). */
  get results(): Int32Array { this.ensureIndex(); this.refresh(); return this._results; }

  private view(k: number): Float32Array {
    this.refresh();
    return this._views[k];
  }

  /** Adds a ball (radius up to maxRadius; acceleration defaults to the seeds' gravity); returns its handle. */
  addBall(x: number, y: number, radius: number = PLATFORMER.radius, vx = 0, vy = 0, ax = 0, ay: number = PLATFORMER.gravity): number {
    this.checkBall("addBall", x, y, radius, vx, vy, ax, ay);
    if (this.balls === this.ballCap) {
      if (this.ballCap >= this.maxBalls) {
        throw new HitcoreError("STORE_FULL", `addBall: the store holds maxBalls = ${this.maxBalls} balls. Create the platforms with a larger maxBalls, or clearBalls() first.`);
      }
      this.relayout(Math.min(this.ballCap * 2, this.maxBalls), "addBall");
    }
    const i = this.balls++;
    this.refresh();
    const v = this._views;
    v[0][i] = x; v[1][i] = y; v[2][i] = vx; v[3][i] = vy; v[4][i] = ax; v[5][i] = ay; v[6][i] = radius;
    this._prevY[i] = y; this._prevVy[i] = 0; this._lastY[i] = y; // not falling before its first step
    this._hitPart[i] = PART_NONE; this._hitShape[i] = -1;
    this.header[P_BALL_COUNT] = this.balls;
    return makeId(this.ballGen, IdKind.Ball, this.ids.tag, i);
  }

  /** Sets a ball's position and velocity. */
  setBall(ball: number, x: number, y: number, vx: number, vy: number): void {
    const i = this.ballSlot("setBall", ball);
    this.checkBall("setBall", x, y, 0, vx, vy, 0, 0);
    this.refresh();
    const v = this._views;
    v[0][i] = x; v[1][i] = y; v[2][i] = vx; v[3][i] = vy;
    this._prevY[i] = y; this._prevVy[i] = 0; this._lastY[i] = y;
  }

  /** Sets a ball's acceleration (the seeds' input handler changes it on arrow keys). */
  setAcceleration(ball: number, ax: number, ay: number): void {
    const i = this.ballSlot("setAcceleration", ball);
    checkCoord("setAcceleration", "ax", ax);
    checkCoord("setAcceleration", "ay", ay);
    this.refresh();
    this._views[4][i] = ax;
    this._views[5][i] = ay;
  }

  /** Removes every ball; their handles stay invalid. */
  clearBalls(): void {
    this.balls = 0;
    this.ballGen = nextGeneration(this.ballGen);
    this.refresh();
    this.header[P_BALL_COUNT] = 0;
  }

  private checkBall(method: string, x: number, y: number, r: number, vx: number, vy: number, ax: number, ay: number): void {
    checkCoord(method, "x", x);
    checkCoord(method, "y", y);
    checkCoord(method, "vx", vx);
    checkCoord(method, "vy", vy);
    checkCoord(method, "ax", ax);
    checkCoord(method, "ay", ay);
    this.checkRadius(method, r);
  }

  private checkRadius(method: string, r: number): void {
    checkCoord(method, "radius", r);
    if (r < 0) throw new HitcoreError("NEGATIVE_SIZE", `${method}: radius must be >= 0, got ${r}. Pass the absolute radius.`);
    if (r > this.maxRadius) {
      throw new HitcoreError("RADIUS_TOO_LARGE", `${method}: radius ${r} is above maxRadius ${this.maxRadius}, which the level's grid covers. Create the platforms with a larger maxRadius.`);
    }
  }

  // ---- handles ------------------------------------------------------------------------------

  private countOf(kind: number): number {
    return kind === IdKind.Surface ? this.surfaceCount : kind === IdKind.Polyhedron ? this.polyhedronCount : kind === IdKind.Ball ? this.balls : 0;
  }

  /** True when `handle` names a surface, polyhedron or ball these platforms hold. */
  has(handle: number): boolean {
    const kind = kindFor(handle, this.ids.tag), s = slotOf(handle);
    return kind >= 0 && s < this.countOf(kind) && generationOf(handle) === (kind === IdKind.Ball ? this.ballGen : this.levelGen);
  }

  /** The index of a surface's, polyhedron's or ball's handle: into the results, hits (hit.shape, world.hitShape) and the ball views. */
  indexOf(handle: number): number {
    if (!this.has(handle)) {
      const kind = kindFor(handle, this.ids.tag), known = PLATFORM_KINDS.includes(kind as never);
      throw unknownId("indexOf", handle, this.ids.tag, known ? kind : IdKind.Surface, this.countOf(kind),
        "Use a handle addSurface(s), addPolygon, addHalfspaces or addBall returned, not cleared since (check with has(handle)).",
        known ? undefined : "a surface, a polyhedron or a ball", kind === IdKind.Ball ? this.ballGen : this.levelGen);
    }
    return slotOf(handle);
  }

  /** The handle of the surface, polyhedron or ball (IdKind.*) at an index, or NULL_ID where there is none. */
  idAt(kind: number, index: number): number {
    if (!PLATFORM_KINDS.includes(kind as never)) throw wrongKind("idAt", kind, PLATFORM_KINDS);
    if (!Number.isInteger(index) || index < 0 || index >= this.countOf(kind)) return NULL_ID;
    return makeId(kind === IdKind.Ball ? this.ballGen : this.levelGen, kind, this.ids.tag, index);
  }

  private levelSlot(method: string, handle: number, kind: number): number {
    const s = slotFor(handle, this.ids.tag, kind);
    if (s < 0 || s >= this.countOf(kind) || generationOf(handle) !== this.levelGen) {
      throw unknownId(method, handle, this.ids.tag, kind, this.countOf(kind), `Use a handle ${kind === IdKind.Surface ? "addSurface(s)" : "addPolygon or addHalfspaces"} returned, not cleared since.`, undefined, this.levelGen);
    }
    return s;
  }

  private ballSlot(method: string, ball: number): number {
    const i = slotFor(ball, this.ids.tag, IdKind.Ball);
    if (i < 0 || i >= this.balls || generationOf(ball) !== this.ballGen) {
      throw unknownId(method, ball, this.ids.tag, IdKind.Ball, this.balls, "Use a handle addBall returned, not cleared since (idAt(IdKind.Ball, index) for an index).", undefined, this.ballGen);
    }
    return i;
  }

  // ---- the frame loop -----------------------------------------------------------------------

  /**
   * One step of the seeds' simulationUpdate for every ball: velocity = resistance * velocity +
   * dt * acceleration; every touching surface (then polyhedron, then the world's tile cells and rects,
   * as boxes) deflects it; position += dt *
   * velocity. Balls moving more than half their radius are sub-stepped. Returns the contacts.
   */
  step(dt: number): number {
    if (typeof dt !== "number" || !(dt > 0 && dt <= 1)) {
      throw new HitcoreError("INVALID_NUMBER", `step: dt must be a number of seconds in (0, 1], got ${describe(dt)}. Clamp long frames (a stalled tab) before stepping.`);
    }
    this.ensureIndex();
    this.prepareWorld?.();
    return this.kernel.stepBalls(dt);
  }

  /** Surfaces whose hit region holds a ball of radius r at (x, y); ids ascending in `results`; returns how many. */
  touchingSurfaces(x: number, y: number, r: number = PLATFORMER.radius, exact: boolean = this.exactRegion): number {
    checkCoord("touchingSurfaces", "x", x);
    checkCoord("touchingSurfaces", "y", y);
    this.checkRadius("touchingSurfaces", r);
    this.ensureIndex();
    return this.kernel.touchSurfaces(x, y, r, !!exact);
  }

  /** Polyhedra holding a ball of radius r at (x, y) (r = 0: the point test); ids ascending in `results`; returns how many. */
  polyhedraAt(x: number, y: number, r = 0): number {
    checkCoord("polyhedraAt", "x", x);
    checkCoord("polyhedraAt", "y", y);
    this.checkRadius("polyhedraAt", r);
    this.ensureIndex();
    return this.kernel.insidePolyhedra(x, y, r);
  }

  /**
   * Closest hit of a circle of radius r (0: a ray or segment) moving from (x0, y0) to (x1, y1)
   * against the surfaces (front sides only) and polyhedra (faces moved out by r). Shapes that
   * already hold the start are not hits. Fills `hit` and returns whether anything was hit.
   */
  cast(x0: number, y0: number, x1: number, y1: number, r = 0, surfaces: boolean | null = true, polyhedra: boolean | null = true): boolean {
    checkCoord("cast", "x0", x0);
    checkCoord("cast", "y0", y0);
    checkCoord("cast", "x1", x1);
    checkCoord("cast", "y1", y1);
    this.checkRadius("cast", r);
    this.ensureIndex();
    const dx = x1 - x0, dy = y1 - y0;
    this.castLength[0] = Math.sqrt(dx * dx + dy * dy); // not Math.hypot: it allocates per call
    const hit = this.kernel.castSegment(x0, y0, x1, y1, r, !!(surfaces ?? true), !!(polyhedra ?? true)) !== 0;
    this.takeHit();
    return hit;
  }

  /**
   * A point moving from (x, y) by (dx, dy): cast(x, y, x + dx, y + dy). The same meaning as
   * RectLevel.castSegment; fills `hit` and returns whether anything was hit.
   */
  castSegment(x: number, y: number, dx: number, dy: number): boolean {
    this.checkMotion("castSegment", x, y, dx, dy);
    this.ensureIndex();
    // Straight to the kernel: a double passed through another JS call that is not inlined is boxed.
    this.castLength[0] = Math.sqrt(dx * dx + dy * dy);
    const hit = this.kernel.castSegment(x, y, x + dx, y + dy, 0, true, true) !== 0;
    this.takeHit();
    return hit;
  }

  /** A ray from (x, y) along (dirX, dirY) up to maxDistance (as RectLevel.castRay): hit.distance is the range. */
  castRay(x: number, y: number, dirX: number, dirY: number, maxDistance: number): boolean {
    this.checkMotion("castRay", x, y, dirX, dirY);
    checkSize("castRay", "maxDistance", maxDistance);
    const len = Math.sqrt(dirX * dirX + dirY * dirY); // not Math.hypot: it allocates per call
    if (!(len > 0)) throw new HitcoreError("INVALID_DIRECTION", "castRay: the direction is (0, 0). Pass a non-zero direction.");
    this.ensureIndex();
    this.castLength[0] = maxDistance;
    const hit = this.kernel.castSegment(x, y, x + dirX * (maxDistance / len), y + dirY * (maxDistance / len), 0, true, true) !== 0;
    this.takeHit();
    return hit;
  }

  /** A circle (centre x, y, radius r up to maxRadius) swept by (dx, dy), as RectLevel.castCircle. */
  castCircle(x: number, y: number, r: number, dx: number, dy: number): boolean {
    this.checkMotion("castCircle", x, y, dx, dy);
    this.checkRadius("castCircle", r);
    this.ensureIndex();
    this.castLength[0] = Math.sqrt(dx * dx + dy * dy);
    const hit = this.kernel.castSegment(x, y, x + dx, y + dy, r, true, true) !== 0;
    this.takeHit();
    return hit;
  }

  /**
   * A box (min corner x, y: the top-left in y-down screen coordinates, as RectLevel.castBox; size
   * w x h) swept by (dx, dy) against the surfaces (front sides) and polyhedra, exact: its centre is
   * cast against their Minkowski sums with the box. Its half diagonal must be at most maxRadius
   * (the grid covers that much). Shapes that already overlap the start are not hits. Fills `hit`
   * (hit.x, hit.y: the box's centre at contact) and returns whether anything was hit.
   */
  castBox(x: number, y: number, w: number, h: number, dx: number, dy: number, surfaces: boolean | null = true, polyhedra: boolean | null = true): boolean {
    this.checkMotion("castBox", x, y, dx, dy);
    checkSize("castBox", "width", w);
    checkSize("castBox", "height", h);
    const hw = w / 2, hh = h / 2;
    if (!(Math.sqrt(hw * hw + hh * hh) <= this.maxRadius)) {
      throw new HitcoreError("BOX_TOO_LARGE", `castBox: a ${w} x ${h} box has half diagonal ${Math.sqrt(hw * hw + hh * hh)}, above maxRadius ${this.maxRadius}, which the level's grid covers. Create the platforms with maxRadius >= the half diagonal of the largest box you cast.`);
    }
    this.ensureIndex();
    this.castLength[0] = Math.sqrt(dx * dx + dy * dy);
    // The arguments as given (the kernel finds the centre): a computed double passed through a call V8 does not inline is boxed.
    const hit = this.kernel.castBox(x, y, w, h, dx, dy, !!(surfaces ?? true), !!(polyhedra ?? true)) !== 0;
    this.takeHit();
    return hit;
  }

  /**
   * Copies the kernel's report of the last cast into `hit`. No argument (a double passed to a call
   * V8 does not inline is boxed), and the views are rebuilt only when memory has grown (a detached
   * view reads length 0): calling refresh() on every cast left 48 bytes of JS heap per cast.
   */
  private takeHit(): void {
    if (this.headerF.length === 0) this.refresh();
    const f = this.headerF, h = this.header, real = this.hit.real, int = this.hit.int, t = f[C_T];
    real[0] = t; real[1] = t * this.castLength[0]; real[2] = f[C_X]; real[3] = f[C_Y]; real[4] = f[C_NX]; real[5] = f[C_NY];
    int[0] = h[C_PART]; int[1] = h[C_ID]; // int[2], the rect, stays -1
  }

  private checkMotion(method: string, x: number, y: number, dx: number, dy: number): void {
    checkCoord(method, "x", x);
    checkCoord(method, "y", y);
    checkCoord(method, "dx", dx);
    checkCoord(method, "dy", dy);
  }

  /** What the last call visited, and the grid's shape. */
  stats(): PlatformStats {
    this.ensureIndex();
    this.refresh();
    const h = this.header;
    return {
      candidates: h[S_CANDIDATES], contacts: h[S_CONTACTS], substeps: h[S_SUBSTEPS], skipped: h[S_SKIPPED],
      cols: h[P_GRID_COLS], rows: h[P_GRID_ROWS], cellSize: 1 / this.headerF[P_GRID_INV],
    };
  }

  /** Checks the grid's invariants (tests, debugging): cell runs match the item list, hold known ids, and ascend (the fold order relies on it). */
  validate(): void {
    for (const g of [this.levelGen, this.ballGen]) {
      if (!Number.isInteger(g) || g < 1 || g >= MAX_GENERATION) throw new HitcoreError("CORRUPT", `validate: handle generation ${g} is out of range`);
    }
    this.ensureIndex();
    const ix = this.index!;
    this.refresh();
    checkHeader("platforms", this.header, this.headerCounts());
    const cells = ix.cols * ix.rows;
    for (const [starts, items, count] of [[ix.surfStarts, ix.surfItems, this.surfaceCount], [ix.polyStarts, ix.polyItems, this.polyhedronCount]] as const) {
      if (starts.length !== cells + 2 || starts[cells + 1] !== items.length) throw new HitcoreError("CORRUPT", "validate: cell starts do not match the item list");
      for (let c = 0; c <= cells; c++) {
        for (let j = starts[c]; j < starts[c + 1]; j++) {
          if (items[j] < 0 || items[j] >= count) throw new HitcoreError("CORRUPT", `validate: cell ${c} lists unknown id ${items[j]}`);
          if (j > starts[c] && items[j] <= items[j - 1]) throw new HitcoreError("CORRUPT", `validate: cell ${c} is not ascending`);
        }
      }
    }
  }

  // ---- memory -------------------------------------------------------------------------------

  /**
   * Refuses with CAPACITY, before an edit changes anything, a level of `addS` more surfaces and
   * `addP` more polyhedra (`addHs` more numbers of halfspace data) whose layout, with the largest
   * index that many items can have (indexBounds), would pass the heap limit: the next query lays
   * it out, and must not be the one to fail.
   */
  private admit(method: string, addS: number, addP: number, addHs: number): void {
    const nS = this.surfaceCount + addS, nP = this.polyhedronCount + addP, most = indexBounds(nS + nP);
    const regions = levelRegions(nS, nP, this.halfspaceData.length + addHs, most.cells + 2, most.entries + 4, most.cells + 2, 1, this.ballCap);
    this.arena.check(regions, method, false, `${nS} surfaces and ${nP} polyhedra (with their index) and room for ${this.ballCap} balls`);
  }

  private ensureIndex(): void {
    if (this.index === null) this.relayout(this.ballCap, "a query after the level changed");
  }

  /** Builds the grid, lays out every region for `ballCap` balls, grows memory, writes the level and carries the balls over. */
  private relayout(ballCap: number, method: string): void {
    const nS = this.surfaceCount, nP = this.polyhedronCount;
    const index = buildPlatformIndex(Float64Array.from(this.surfBoxes), nS, Float64Array.from(this.polyBoxes), nP);
    const resultsCap = Math.max(nS, nP, 1);
    const regions = levelRegions(nS, nP, this.halfspaceData.length, index.surfStarts.length, index.surfItems.length, index.polyStarts.length, index.polyItems.length, ballCap);
    this.arena.check(regions, method, method === "addPlatforms", `${nS} surfaces, ${nP} polyhedra and room for ${ballCap} balls`);
    this.revision++;
    // Carry the balls over (load time, not per frame: a copy is fine).
    let kept: Uint8Array[] = [];
    if (this.balls > 0) {
      this.refresh();
      kept = BALL_REGIONS.map((r) => new Uint8Array(this.memory.buffer, this.offsets[r], 4 * this.balls).slice());
    }
    this.arena.layout(regions, () => new Int32Array(this.memory.buffer, PLATFORMS_HEADER, PLATFORMS_FIELDS));
    const offsets = this.arena.offsets;
    this.offsets = offsets;
    this.ballCap = ballCap;
    this.resultsCap = resultsCap;
    this.index = index;
    this.buffer = null;
    this.refresh();
    const buf = this.memory.buffer;
    new Float32Array(buf, offsets[0], this.surfRecords.length).set(this.surfRecords);
    new Float32Array(buf, offsets[1], this.halfspaceData.length).set(this.halfspaceData);
    new Int32Array(buf, offsets[2], this.polyStart.length).set(this.polyStart);
    new Int32Array(buf, offsets[3], index.surfStarts.length).set(index.surfStarts);
    new Int32Array(buf, offsets[4], index.surfItems.length).set(index.surfItems);
    new Int32Array(buf, offsets[5], index.polyStarts.length).set(index.polyStarts);
    new Int32Array(buf, offsets[6], index.polyItems.length).set(index.polyItems);
    new Float32Array(buf, offsets[15], this.polyExtents.length).set(this.polyExtents);
    const reach = new Float32Array(buf, offsets[REACH_REGION], this.surfBoxes.length + this.polyBoxes.length);
    reach.set(outward(this.surfBoxes));
    reach.set(outward(this.polyBoxes), this.surfBoxes.length);
    for (let k = 0; k < kept.length; k++) new Uint8Array(buf, offsets[BALL_REGIONS[k]], kept[k].length).set(kept[k]);
    this.writeHeader();
  }

  private writeHeader(): void {
    const h = this.header, f = this.headerF, o = this.offsets, ix = this.index!;
    h.fill(0, 0, S_CANDIDATES); // the stats and the last cast survive a relayout
    setHeaderFields(h, this.headerCounts());
    h[P_SURFACES] = o[0];
    h[P_HALFSPACES] = o[1];
    h[P_POLY_START] = o[2];
    f[P_GRID_OX] = ix.ox;
    f[P_GRID_OY] = ix.oy;
    f[P_GRID_INV] = ix.inv;
    f[P_GRID_RADIUS] = this.maxRadius;
    h[P_SURF_CELLS] = o[3];
    h[P_SURF_ITEMS] = o[4];
    h[P_POLY_CELLS] = o[5];
    h[P_POLY_ITEMS] = o[6];
    for (let k = 0; k < BALL_FIELDS.length; k++) h[BALL_FIELDS[k]] = o[7 + k];
    h[P_RESULTS] = o[14];
    f[P_RES_X] = this.resistanceX;
    f[P_RES_Y] = this.resistanceY;
    h[P_POLY_EXTENT] = o[15];
    for (let k = 0; k < BALL_STEP_FIELDS.length; k++) h[BALL_STEP_FIELDS[k]] = o[16 + k];
    h[P_REACH_BOXES] = o[REACH_REGION];
  }

  /** The header's counts, capacities, switches and index size (field, value pairs), which the core trusts; the index must be built. */
  private headerCounts(): number[] {
    const ix = this.index!;
    return [P_SURF_COUNT, this.surfaceCount, P_POLY_COUNT, this.polyhedronCount, P_BALL_COUNT, this.balls, P_RESULTS_CAP, this.resultsCap,
      P_MAX_SUBSTEPS, this.maxSubsteps, P_EXACT, this.exactRegion ? 1 : 0, P_GRID_COLS, ix.cols, P_GRID_ROWS, ix.rows];
  }

  /** Views over the current buffer, rebuilt when memory has grown. */
  private refresh(): void {
    // memory.grow detaches the old buffer, and views of a detached buffer read length 0: checked
    // first, because reading memory.buffer costs about 50 bytes of JS heap per call in Node 20.
    if (this.buffer !== null && this.headerF.length !== 0) return;
    const buf = this.memory.buffer;
    if (buf === this.buffer) return;
    this.buffer = buf;
    this.header = new Int32Array(buf, PLATFORMS_HEADER, PLATFORMS_FIELDS);
    this.headerF = new Float32Array(buf, PLATFORMS_HEADER, PLATFORMS_FIELDS);
    this._views = BALL_FIELDS.map((_, k) => new Float32Array(buf, this.offsets[7 + k], this.ballCap));
    this._results = new Int32Array(buf, this.offsets[14], this.resultsCap);
    this._prevY = new Float32Array(buf, this.offsets[16], this.ballCap);
    this._prevVy = new Float32Array(buf, this.offsets[17], this.ballCap);
    this._lastY = new Float32Array(buf, this.offsets[18], this.ballCap);
    this._hitPart = new Int32Array(buf, this.offsets[19], this.ballCap);
    this._hitShape = new Int32Array(buf, this.offsets[20], this.ballCap);
  }

  /** @internal Set by the world: readies its other parts (the rect level's quadtree) before the balls step against them. */
  prepareWorld: (() => void) | null = null;

  /** @internal Readies the part for a cross-part call of the world (its index built, its regions laid out). */
  prepare(): void {
    this.ensureIndex();
  }

  /** @internal Whether prepare() would build the index (and so write memory). */
  get stale(): boolean { return this.index === null; }

  /** @internal Counts the rebuilds of the index: the world rebuilds its level grid when it changes. */
  revision = 0;

  /** @internal The reach boxes of the surfaces, then of the polyhedra (x0, y0, x1, y1 each; NaN: unbounded). */
  reachBoxes(): [readonly number[], number, readonly number[], number] {
    return [this.surfBoxes, this.surfaceCount, this.polyBoxes, this.polyhedronCount];
  }

  /** @internal Rebuilds the views after world.restore wrote memory. */
  reattach(): void {
    this.buffer = null;
    this.refresh();
  }
}


