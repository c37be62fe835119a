// Swept boxes against surfaces and polyhedra (Platforms.castBox), the aliases that give both parts
// the same four casts, and the world's casts across parts (world.castSegment ... castBox), all
// reporting one hit record (Hit). Differential: the wasm core,
// the js backend and a brute-force reference written from the definition (every shape, no grid:
// the Minkowski sum of each shape and the box as halfspaces, Cyrus-Beck on the centre's segment)
// agree exactly on seeded random scenes; a tunnelling trial checks the answers against geometry
// computed another way (point in polygon, separating axes). Coordinates are y-down: the scenes are
// the y-up ones mirrored (levels through flipY, boxes' min corner y -> -(y + h), motion dy -> -dy),
// so the same casts hit and the counts below are the y-up scenes' own.
import { describe, expect, it } from "vitest";
import { flipY, randomConvex, randomSurfaces } from "../fixtures/platform_levels.js";
import { mulberry32 } from "../fixtures/random.js";
import {
  createWorld, type CreateOptions, HitcoreError, IdKind, Part, type Platforms, type PlatformsOptions, type RectLevel, type World,
} from "../bindings/node.js";
import { levelOf, pointInPolygon, type RefLevel } from "./platforms_reference.js";
import { BACKENDS, backendOptions, type BackendName, newPlatforms } from "./support.js";

const f = Math.fround;

async function platforms(backend: BackendName, options: PlatformsOptions & CreateOptions = {}): Promise<Platforms> {
  return newPlatforms({ ...options, ...(await backendOptions(backend)) });
}

/** A world holding the parts named (a rect level, platforms with maxRadius 12, or both). */
async function worldWith(backend: BackendName, parts: { rects?: boolean; platforms?: boolean }): Promise<{ world: World; rects: RectLevel | null; plats: Platforms | null }> {
  const world = await createWorld(await backendOptions(backend));
  const rects = parts.rects ? world.addRectLevel() : null;
  const plats = parts.platforms ? world.addPlatforms({ maxRadius: 12 }) : null;
  return { world, rects, plats };
}

/** The reference's hit kinds (0 none, 1 surface, 2 polyhedron) as the Part a Hit reports. */
const PART_OF = [Part.None, Part.Surfaces, Part.Polyhedra];

// ---- the brute-force reference ---------------------------------------------------------------

interface BoxHit { kind: number; id: number; t: number; nx: number; ny: number }

/** Cyrus-Beck of p + t d against halfspaces [nx, ny, off] in the given order; the entry t and face, or null. */
function clipAll(faces: number[][], px: number, py: number, dx: number, dy: number): [number, number, number] | null {
  let tIn = -Infinity, tOut = Infinity, fx = 0, fy = 0, entering = false;
  for (const [nx, ny, off] of faces) {
    const num = off - (px * nx + py * ny), den = dx * nx + dy * ny;
    if (den === 0) { if (num < 0) return null; continue; }
    const t = num / den;
    if (den < 0) { if (t > tIn) { tIn = t; fx = nx; fy = ny; entering = true; } } else if (t < tOut) tOut = t;
    if (tIn > tOut) return null;
  }
  if (!entering || tIn < 0 || tIn > 1 || tIn > tOut) return null;
  return [tIn, fx, fy];
}

/**
 * Closest first contact of a box of half extents (hw, hh) whose centre moves p -> p + d with every
 * surface (front side only) and polyhedron: the centre against each Minkowski sum. Ties go to
 * surfaces, then lower ids.
 */
function refBoxCast(level: RefLevel, extents: Float32Array[], px: number, py: number, dx: number, dy: number, hw: number, hh: number): BoxHit {
  let best: BoxHit = { kind: 0, id: -1, t: Infinity, nx: 0, ny: 0 };
  const offer = (t: number, nx: number, ny: number, kind: number, id: number) => {
    if (t < best.t || (t === best.t && (kind < best.kind || (kind === best.kind && id < best.id)))) best = { kind, id, t, nx, ny };
  };
  level.surfaces.forEach((S, id) => {
    const [nx, ny, o] = [S[0], S[1], S[2]];
    if (!(dx * nx + dy * ny < 0)) return; // one-sided: only moving toward the front
    const sup = Math.abs(nx) * hw + Math.abs(ny) * hh;
    const xs = [S[9], S[11]], ys = [S[10], S[12]];
    const hit = clipAll([[nx, ny, o + sup], [-nx, -ny, sup - o], [1, 0, Math.max(...xs) + hw], [-1, 0, hw - Math.min(...xs)],
      [0, 1, Math.max(...ys) + hh], [0, -1, hh - Math.min(...ys)]], px, py, dx, dy);
    if (!hit) return;
    const [t, fx, fy] = hit;
    // Entered through a side with the centre behind the segment's line: that is the back.
    if ((fx !== nx || fy !== ny) && (px + t * dx) * nx + (py + t * dy) * ny < o) return;
    offer(t, fx, fy, 1, id);
  });
  level.polyhedra.forEach((h, id) => {
    const faces: number[][] = [];
    for (let i = 0; i < h.length; i += 3) faces.push([h[i], h[i + 1], h[i + 2] + (Math.abs(h[i]) * hw + Math.abs(h[i + 1]) * hh)]);
    const [x0, y0, x1, y1] = extents[id];
    faces.push([1, 0, x1 + hw], [-1, 0, hw - x0], [0, 1, y1 + hh], [0, -1, hh - y0]);
    const hit = clipAll(faces, px, py, dx, dy);
    if (hit) offer(hit[0], hit[1], hit[2], 2, id);
  });
  return best;
}

// ---- scenes ------------------------------------------------------------------------------------

/** Outward halfspaces [nx, ny, offset, ...] of a convex polygon of either winding. */
function halfspacesOf(poly: number[]): number[] {
  const n = poly.length / 2;
  let area = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    area += poly[2 * i] * poly[2 * j + 1] - poly[2 * j] * poly[2 * i + 1];
  }
  const s = area > 0 ? 1 : -1;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ex = poly[2 * j] - poly[2 * i], ey = poly[2 * j + 1] - poly[2 * i + 1], len = Math.hypot(ex, ey);
    const nx = (s * ey) / len, ny = (-s * ex) / len;
    out.push(nx, ny, nx * poly[2 * i] + ny * poly[2 * i + 1]);
  }
  return out;
}

function reversed(poly: number[]): number[] {
  const out: number[] = [];
  for (let i = poly.length - 2; i >= 0; i -= 2) out.push(poly[i], poly[i + 1]);
  return out;
}

/** A polygon with integer corners (exact in f32), of either winding. */
function intPolygon(rand: () => number, cx: number, cy: number, r: number): number[] {
  const poly = randomConvex(rand, cx, cy, r, 3 + Math.floor(rand() * 6)).map(Math.round);
  return rand() < 0.5 ? poly : reversed(poly);
}

/** The same random level on every platforms instance: polygons (both windings), halfspace polygons, unbounded ones, surfaces, a pile in one cell, a huge slab. */
function buildLevel(runs: Platforms[], seed: number): void {
  const rand = mulberry32(seed);
  const polys: number[][] = [];
  for (let i = 0; i < 120; i++) polys.push(flipY(intPolygon(rand, rand() * 1000, rand() * 1000, 6 + rand() * 30)));
  for (let i = 0; i < 12; i++) polys.push(flipY(intPolygon(rand, 500 + rand() * 4, 500 + rand() * 4, 3 + rand() * 4))); // a pile in one cell
  const asHalfspaces: number[][] = [];
  for (let i = 0; i < 30; i++) {
    const poly = flipY(randomConvex(rand, rand() * 1000, rand() * 1000, 6 + rand() * 30, 3 + Math.floor(rand() * 5)));
    asHalfspaces.push(halfspacesOf(rand() < 0.5 ? poly : reversed(poly)));
  }
  const lines = flipY(randomSurfaces(300, seed + 1, 1000));
  for (const p of runs) {
    for (const poly of polys) p.addPolygon(poly);
    for (const hs of asHalfspaces) p.addHalfspaces(hs);
    p.addHalfspaces([0, -1, -60]); // the seed's ground, lowered: y >= 60
    p.addHalfspaces([-1, -1, 1100, 1, -1, 1300]); // an unbounded wedge, apex up at (100, -1200)
    p.addHalfspaces([1, 0, -80, -1, 0, 90]); // an unbounded vertical strip, 10 wide
    p.addPolygon([-20000, -1400, 20000, -1400, 20000, -1500, -20000, -1500]); // huge
    p.addSurfaces(lines);
    p.addSurfaces([200, -300, 260, -300, 300, -250, 300, -200]); // axis-aligned ones
  }
}

function extentsOf(p: Platforms): Float32Array[] {
  const out: Float32Array[] = [];
  for (let k = 0; k < p.polyhedronCount; k++) out.push(p.extent(p.idAt(IdKind.Polyhedron, k)));
  return out;
}

// ---- tests ---------------------------------------------------------------------------------------

describe("swept boxes against surfaces and polyhedra", () => {
  it("agree with the brute-force reference on random levels (sizes incl. zero, touching starts, axis-aligned and zero motion)", async () => {
    const rand = mulberry32(7);
    const runs = await Promise.all(BACKENDS.map((b) => platforms(b, { maxRadius: 12 })));
    buildLevel(runs, 31);
    const level = levelOf(runs[0]);
    const extents = extentsOf(runs[0]);
    let hits = 0, surfaceHits = 0, axisHits = 0, touching = 0;
    for (let k = 0; k < 8000; k++) {
      // Sizes on a 1/2 grid, one in six of zero width and/or height.
      let w = Math.round(rand() * 32) / 2, h = Math.round(rand() * 32) / 2;
      if (k % 6 === 0) w = 0;
      if (k % 9 === 0) h = 0;
      let x = Math.round(rand() * 1100) - 50, y = 100 - Math.round(rand() * 1600) - h;
      const a = rand() * 2 * Math.PI, len = rand() < 0.15 ? 1500 : rand() * 150;
      let dx = Math.cos(a) * len, dy = -(Math.sin(a) * len);
      const mode = k % 10;
      if (mode === 1) { const s = [1, 0, -1, 0][k % 4] * len; dx = s; dy = 0; }
      if (mode === 2) { const s = [0, -1, 0, 1][k % 4] * len; dx = 0; dy = s; }
      if (mode === 3) { dx = 0; dy = 0; }
      if (mode === 4) {
        // Start exactly touching the ground (y = 60) or the slab's underside (y = -1400), moving in.
        if (k % 20 === 4) { y = 60 - h; dy = Math.abs(dy) + 1; } else { y = -1400; dy = -Math.abs(dy) - 1; }
      }
      const cx = x + w / 2, cy = y + h / 2;
      const want = refBoxCast(level, extents, cx, cy, dx, dy, w / 2, h / 2);
      for (const p of runs) {
        const got = p.castBox(x, y, w, h, dx, dy);
        expect(got).toBe(want.kind !== 0);
        expect([p.hit.part, p.hit.shape, p.hit.rect]).toEqual([PART_OF[want.kind], want.id, -1]);
        if (got) {
          expect(p.hit.t).toBe(f(want.t));
          expect([p.hit.nx, p.hit.ny]).toEqual([f(want.nx), f(want.ny)]);
          expect(p.hit.x).toBe(f(cx + want.t * dx));
          expect(p.hit.y).toBe(f(cy + want.t * dy));
        } else {
          expect([p.hit.t, p.hit.shape]).toEqual([1, -1]);
        }
      }
      if (want.kind !== 0) {
        hits++;
        if (want.kind === 1) surfaceHits++;
        if ((want.nx === 0 || want.ny === 0) && Math.abs(want.nx + want.ny) === 1) axisHits++;
        if (mode === 4 && want.t === 0) touching++;
      }
      if (mode === 3) expect(want.kind).toBe(0); // zero motion never hits (a start inside is no hit)
    }
    expect(hits).toBeGreaterThan(1500);
    expect(surfaceHits).toBeGreaterThan(300);
    expect(axisHits).toBeGreaterThan(200);
    expect(touching).toBeGreaterThan(50);
  });

  it("walk the grid cells along the path: a box cast across a large level tests a small part of it, same answer as brute force", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      const n = 20000, side = Math.sqrt(n) * 60;
      p.addSurfaces(flipY(randomSurfaces(n, 8)));
      const level = levelOf(p), extents = extentsOf(p);
      for (const [w, h] of [[0, 0], [12, 6], [14, 14]]) {
        const got = p.castBox(-10, 10 - h, w, h, side + 20, -side - 20);
        const want = refBoxCast(level, extents, -10 + w / 2, 10 - h + h / 2, side + 20, -side - 20, w / 2, h / 2);
        expect(got).toBe(want.kind !== 0);
        expect(p.hit.shape).toBe(want.id);
        expect(p.stats().candidates).toBeLessThan(n / 10);
      }
    }
  });

  it("each polygon's extent holds its corners, rounded outward; unbounded sides are infinite", async () => {
    const p = await platforms("js");
    const rand = mulberry32(3);
    for (let i = 0; i < 50; i++) {
      const poly = randomConvex(rand, rand() * 1000, rand() * 1000, 5 + rand() * 50, 3 + Math.floor(rand() * 6));
      const [id] = p.addPolygon(poly);
      const fromHs = p.addHalfspaces(halfspacesOf(poly));
      const corners = p.vertices(id)!; // as stored (f32)
      const xs = corners.filter((_, j) => j % 2 === 0), ys = corners.filter((_, j) => j % 2 === 1);
      const want = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      const e = p.extent(id), g = p.extent(fromHs);
      expect(e[0]).toBeLessThanOrEqual(want[0]); expect(e[1]).toBeLessThanOrEqual(want[1]);
      expect(e[2]).toBeGreaterThanOrEqual(want[2]); expect(e[3]).toBeGreaterThanOrEqual(want[3]);
      for (let j = 0; j < 4; j++) {
        expect(Math.abs(e[j] - want[j])).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(want[j])));
        expect(Math.abs(g[j] - want[j])).toBeLessThanOrEqual(1e-3 * (1 + Math.abs(want[j])));
      }
    }
    const ground = p.addHalfspaces([0, -1, 0]);
    expect([...p.extent(ground)]).toEqual([-Infinity, -Infinity, Infinity, Infinity]);
    const wedge = p.addHalfspaces([-1, -1, 0, 1, -1, 0]); // y >= |x|: apex (0, 0), bounded above (least y) only
    const e = p.extent(wedge);
    expect([e[0], e[2], e[3]]).toEqual([-Infinity, Infinity, Infinity]);
    expect(e[1]).toBeCloseTo(0, 5);
    expect(e[1]).toBeLessThanOrEqual(0);
  });

  it("report the geometry: a box onto a platform, a polyhedron's face and corner, a wedge's apex, from behind", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend, { maxRadius: 20 });
      p.addSurface(0, 0, 100, 0); // faces up: normal (0, -1)
      const [box] = p.addPolygon([200, 0, 300, 0, 300, -50, 200, -50]);
      const tri = p.addHalfspaces(halfspacesOf([400, 0, 440, -40, 360, -40]).flat()); // apex down at (400, 0)
      expect(p.castBox(40, -110, 20, 10, 0, 200)).toBe(true); // onto the platform: bottom edge at y = 0
      expect(p.hit).toMatchObject({ part: Part.Surfaces, shape: 0, rect: -1, x: 50, y: -5, nx: 0, ny: -1, t: 0.5 });
      expect(p.hit.distance).toBeCloseTo(100, 4);
      expect(p.castBox(40, 90, 20, 10, 0, -200)).toBe(false); // from behind: one-sided
      expect(p.castBox(100, -30, 20, 10, 200, 0)).toBe(true); // right edge onto the face x = 200
      expect(p.hit).toMatchObject({ part: Part.Polyhedra, shape: p.indexOf(box), x: 190, y: -25, nx: -1, ny: 0 });
      expect(p.castBox(395, 40, 10, 10, 0, -100)).toBe(true); // the triangle's apex onto the box's top edge
      expect(p.hit).toMatchObject({ part: Part.Polyhedra, shape: p.indexOf(tri), nx: 0, ny: 1, x: 400 });
      expect(p.hit.y).toBeCloseTo(5, 4);
      p.clearLevel();
      p.addHalfspaces([-1, -1, 0, 1, -1, 0]); // y >= |x|: apex (0, 0)
      expect(p.castBox(-10, -110, 20, 10, 0, 200)).toBe(true); // bottom edge onto the apex, not the faces
      expect(p.hit.ny).toBe(-1);
      expect(p.hit.y).toBeCloseTo(-5, 4);
      expect(p.castBox(-10, -110, 20, 10, 0, 200, false, true)).toBe(true);
      expect(p.castBox(-10, -110, 20, 10, 0, 200, true, false)).toBe(false); // polyhedra excluded
    }
  });

  it("100,000 random boxes at up to 100x the thinnest wall's thickness never end past a wall or surface", async () => {
    const rand = mulberry32(99);
    const walls: number[][] = []; // thin rotated rectangles, 1 thick
    for (let i = 0; i < 40; i++) {
      const cx = 100 + rand() * 800, cy = 100 + rand() * 800, a = rand() * Math.PI, len = 40 + rand() * 120;
      const ux = Math.cos(a), uy = Math.sin(a), vx = -uy * 0.5, vy = ux * 0.5;
      const poly = flipY([cx - ux * len / 2 - vx, cy - uy * len / 2 - vy, cx + ux * len / 2 - vx, cy + uy * len / 2 - vy,
        cx + ux * len / 2 + vx, cy + uy * len / 2 + vy, cx - ux * len / 2 + vx, cy - uy * len / 2 + vy]);
      walls.push(rand() < 0.5 ? poly : reversed(poly));
    }
    const lines = flipY(randomSurfaces(40, 5, 1000));
    const segments = lineSegments(lines);
    const bounds = (pts: number[]) => {
      const xs = pts.filter((_, j) => j % 2 === 0), ys = pts.filter((_, j) => j % 2 === 1);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    };
    const wallBoxes = walls.map(bounds), segBoxes = segments.map(bounds);
    for (const backend of BACKENDS) {
      const p = await platforms(backend, { maxRadius: 10 });
      walls.forEach((poly, i) => (i % 4 === 3 ? p.addHalfspaces(halfspacesOf(poly)) : p.addPolygon(poly)));
      p.addSurfaces(lines);
      const trial = mulberry32(1234);
      const eps = 1e-2;
      let stopped = 0, checked = 0;
      for (let k = 0; k < 100000; k++) {
        const hw = trial() * 7, hh = trial() * 7; // half diagonal under 10
        const cx = trial() * 1000, cy = -(trial() * 1000);
        const a = trial() * 2 * Math.PI, speed = trial() * 100;
        const dx = Math.cos(a) * speed, dy = -(Math.sin(a) * speed);
        const start = boxCorners(cx, cy, hw, hh);
        // Only starts clear of every wall and segment (a start inside is no hit by contract).
        const nearStart = (b: number[]) => b[0] <= cx + hw + 1 && b[2] >= cx - hw - 1 && b[1] <= cy + hh + 1 && b[3] >= cy - hh - 1;
        if (walls.some((w, i) => nearStart(wallBoxes[i]) && overlaps(start, w, -eps))) continue;
        if (segments.some((s, i) => nearStart(segBoxes[i]) && overlaps(start, s, -eps))) continue;
        checked++;
        const hit = p.castBox(cx - hw, cy - hh, 2 * hw, 2 * hh, dx, dy);
        if (hit) stopped++;
        const t = hit ? p.hit.t : 1;
        const ex = cx + t * dx, ey = cy + t * dy;
        // Only shapes near the sweep's box can be met (a cheap filter; the checks below are exact).
        const sx0 = Math.min(cx, ex) - hw - 1, sy0 = Math.min(cy, ey) - hh - 1, sx1 = Math.max(cx, ex) + hw + 1, sy1 = Math.max(cy, ey) + hh + 1;
        const near = (b: number[]) => b[0] <= sx1 && b[2] >= sx0 && b[1] <= sy1 && b[3] >= sy0;
        let swept: number[] | null = null;
        for (let i = 0; i < walls.length; i++) {
          if (!near(wallBoxes[i])) continue;
          const w = walls[i];
          // Not inside a wall (point in polygon), and the whole sweep clear of it (separating axes).
          if (pointInPolygon(w, ex, ey)) throw new Error(`box ${hw} x ${hh} from (${cx}, ${cy}) by (${dx}, ${dy}) ended inside wall ${i}`);
          swept ??= hull([...start, ...boxCorners(ex, ey, hw, hh)]);
          if (overlaps(swept, w, eps)) throw new Error(`box ${hw} x ${hh} from (${cx}, ${cy}) by (${dx}, ${dy}) passed into wall ${i}`);
        }
        for (let s = 0; s < segments.length; s++) {
          if (near(segBoxes[s]) && crossesFront(segments[s], cx, cy, ex, ey, hw, hh, eps)) {
            throw new Error(`box ${hw} x ${hh} from (${cx}, ${cy}) by (${dx}, ${dy}) passed through surface ${s}`);
          }
        }
      }
      expect(checked).toBeGreaterThan(80000);
      expect(stopped).toBeGreaterThan(checked / 20);
    }
  }, 300000);
});

// ---- geometry for the tunnelling trial (independent of the casts: corners, hulls, separating axes) ----

function boxCorners(cx: number, cy: number, hw: number, hh: number): number[] {
  return [cx - hw, cy - hh, cx + hw, cy - hh, cx + hw, cy + hh, cx - hw, cy + hh];
}

function lineSegments(lines: number[]): number[][] {
  const out: number[][] = [];
  for (let s = 0; s < lines.length; s += 4) out.push(lines.slice(s, s + 4));
  return out;
}

/** Convex hull (monotone chain) of a flat point list. */
function hull(pts: number[]): number[] {
  const p: [number, number][] = [];
  for (let i = 0; i < pts.length; i += 2) p.push([pts[i], pts[i + 1]]);
  p.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [], upper: [number, number][] = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop(); lower.push(q); }
  for (const q of p.reverse()) { while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop(); upper.push(q); }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)].flat();
}

/** Two convex point sets overlap by more than `margin` along every separating axis candidate (edge normals of both; negative margin: within -margin). */
function overlaps(a: number[], b: number[], margin: number): boolean {
  for (const poly of [a, b]) {
    const n = poly.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const ex = poly[2 * j] - poly[2 * i], ey = poly[2 * j + 1] - poly[2 * i + 1], len = Math.hypot(ex, ey);
      if (len === 0) continue;
      const nx = -ey / len, ny = ex / len;
      let a0 = Infinity, a1 = -Infinity, b0 = Infinity, b1 = -Infinity;
      for (let k = 0; k < a.length; k += 2) { const d = a[k] * nx + a[k + 1] * ny; a0 = Math.min(a0, d); a1 = Math.max(a1, d); }
      for (let k = 0; k < b.length; k += 2) { const d = b[k] * nx + b[k + 1] * ny; b0 = Math.min(b0, d); b1 = Math.max(b1, d); }
      if (a1 < b0 + margin || b1 < a0 + margin) return false;
    }
  }
  return true;
}

/**
 * Did the box's centre cross surface (x0, y0) -> (x1, y1) from its front (left of the direction as
 * drawn with y down) to its back at a point where the box overlaps the segment by more than eps?
 * That is passing through the platform; crossing beside it and reaching it from behind is allowed
 * (one-sided).
 */
function crossesFront(s: number[], cx: number, cy: number, ex: number, ey: number, hw: number, hh: number, eps: number): boolean {
  const [x0, y0, x1, y1] = s;
  const side = (x: number, y: number) => (y1 - y0) * (x - x0) - (x1 - x0) * (y - y0); // > 0: in front, where (dy, -dx) points
  const a = side(cx, cy), b = side(ex, ey);
  if (!(a > 0 && b < 0)) return false;
  const u = a / (a - b);
  const qx = cx + u * (ex - cx), qy = cy + u * (ey - cy);
  return overlaps(boxCorners(qx, qy, hw, hh), s, eps);
}

describe("the four casts on each part, and the world's casts across parts", () => {
  it("Platforms' castSegment, castRay and castCircle are cast() with RectLevel's arguments", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      p.addSurface(0, 0, 100, 0);
      p.addPolygon([200, 0, 300, 0, 300, 50, 200, 50]);
      const rand = mulberry32(11);
      for (let k = 0; k < 500; k++) {
        const x = rand() * 400 - 50, y = rand() * 200 - 100, dx = (rand() - 0.5) * 400, dy = (rand() - 0.5) * 400, r = Math.floor(rand() * 10);
        const want = [p.cast(x, y, x + dx, y + dy), p.hit.t, p.hit.shape, p.hit.part];
        expect([p.castSegment(x, y, dx, dy), p.hit.t, p.hit.shape, p.hit.part]).toEqual(want);
        const len = Math.hypot(dx, dy);
        if (len > 0) {
          const wantRay = [p.cast(x, y, x + dx / len * 300, y + dy / len * 300), p.hit.t, p.hit.shape];
          expect([p.castRay(x, y, dx, dy, 300), p.hit.t, p.hit.shape]).toEqual(wantRay);
        }
        const wantCircle = [p.cast(x, y, x + dx, y + dy, r), p.hit.t, p.hit.shape, p.hit.nx, p.hit.ny];
        expect([p.castCircle(x, y, r, dx, dy), p.hit.t, p.hit.shape, p.hit.nx, p.hit.ny]).toEqual(wantCircle);
      }
    }
  });

  it("the world's casts pick the closest hit of its parts, with which part and shape (ties to the rects)", async () => {
    for (const backend of BACKENDS) {
      // The same level in three worlds: rects and platforms together, and each part alone.
      const both = await worldWith(backend, { rects: true, platforms: true });
      const onlyRects = await worldWith(backend, { rects: true });
      const onlyPlats = await worldWith(backend, { platforms: true });
      const rand = mulberry32(17);
      for (const rects of [both.rects!, onlyRects.rects!]) {
        const prefab = rects.addPrefab([0, 0, 30, 10, 10, 10, 10, 30]);
        const at = mulberry32(23);
        for (let i = 0; i < 60; i++) rects.addInstance(prefab, Math.round(at() * 900), Math.round(at() * 900));
      }
      const polygons: number[][] = [];
      for (let i = 0; i < 60; i++) polygons.push(intPolygon(rand, rand() * 1000, rand() * 1000, 5 + rand() * 25));
      for (const plats of [both.plats!, onlyPlats.plats!]) {
        for (const poly of polygons) plats.addPolygon(poly);
        plats.addSurfaces(randomSurfaces(60, 9, 1000));
      }
      const seen = new Map<number, number>();
      for (let k = 0; k < 3000; k++) {
        const x = rand() * 1000, y = rand() * 1000, a = rand() * 2 * Math.PI, len = rand() * 300;
        const dx = Math.cos(a) * len, dy = Math.sin(a) * len;
        const w = Math.round(rand() * 16), h = Math.round(rand() * 16), r = Math.round(rand() * 12);
        const kind = k % 4;
        const run = (world: World) =>
          kind === 0 ? world.castSegment(x, y, dx, dy)
            : kind === 1 ? world.castRay(x, y, dx || 1, dy, len)
              : kind === 2 ? world.castBox(x, y, w, h, dx, dy)
                : world.castCircle(x, y, r, dx, dy);
        const of = (world: World) => [world.hit.t, world.hit.shape, world.hit.rect, world.hit.part, world.hit.nx, world.hit.ny];
        const rHit = run(onlyRects.world) ? of(onlyRects.world) : null;
        const pHit = run(onlyPlats.world) ? of(onlyPlats.world) : null;
        const world = both.world, mine = world.hit;
        const got = run(world);
        expect(got).toBe(rHit !== null || pHit !== null);
        seen.set(mine.part, (seen.get(mine.part) ?? 0) + 1);
        if (!got) { expect([mine.part, mine.shape, mine.rect, mine.t]).toEqual([Part.None, -1, -1, 1]); continue; }
        const rectsWin = rHit !== null && (pHit === null || rHit[0] <= pHit[0]);
        if (rectsWin) {
          expect(mine.part).toBe(Part.Rects);
          expect(of(world)).toEqual(rHit);
        } else {
          expect([Part.Surfaces, Part.Polyhedra]).toContain(mine.part);
          expect(of(world)).toEqual(pHit);
          expect(mine.rect).toBe(-1);
        }
        expect(mine.distance).toBeCloseTo(mine.t * (kind === 1 ? len : Math.hypot(dx, dy)), 3);
      }
      const platformHits = (seen.get(Part.Surfaces) ?? 0) + (seen.get(Part.Polyhedra) ?? 0);
      expect(Math.min(seen.get(Part.Rects) ?? 0, platformHits, seen.get(Part.None) ?? 0)).toBeGreaterThan(200);
    }
  });

  it("a tie between a rect and a platform goes to the rect, and the parts' own hits name the same shapes", async () => {
    for (const backend of BACKENDS) {
      const { world, rects, plats } = await worldWith(backend, { rects: true, platforms: true });
      // Faces at x = 106, met by a 6 wide box from x = 0 after 100 of 200 (t = 0.5, exact in the f32 the platforms report).
      const block = rects!.addInstance(rects!.addPrefab([0, 0, 20, 4]), 106, 0); // y 0 to 4
      plats!.addPolygon([106, 8, 126, 8, 126, 12, 106, 12]); // y 8 to 12
      plats!.addSurface(106, 20, 106, 16); // y 16 to 20, facing left (-x)
      // A 6 x 20 box meets all three at once: the rect wins.
      expect(world.castBox(0, 0, 6, 20, 200, 0)).toBe(true);
      expect([world.hit.part, world.hit.shape, world.hit.rect, world.hit.t, world.hit.nx, world.hit.ny]).toEqual([Part.Rects, rects!.indexOf(block), 0, 0.5, -1, 0]);
      // Below the rect, the polyhedron and the surface tie: the surface (the lower Part) wins.
      expect(world.castBox(0, 6, 6, 14, 200, 0)).toBe(true);
      expect([world.hit.part, world.hit.shape, world.hit.rect, world.hit.t, world.hit.nx]).toEqual([Part.Surfaces, 0, -1, 0.5, -1]);
      expect(plats!.castBox(0, 6, 6, 14, 200, 0)).toBe(true);
      expect([plats!.hit.part, plats!.hit.shape, plats!.hit.rect, plats!.hit.t]).toEqual([Part.Surfaces, 0, -1, world.hit.t]);
      expect(plats!.castBox(0, 6, 6, 14, 200, 0, false, true)).toBe(true);
      expect([plats!.hit.part, plats!.hit.shape]).toEqual([Part.Polyhedra, 0]);
      expect(rects!.castBox(0, 0, 6, 20, 200, 0)).toBe(true);
      expect([rects!.hit.part, rects!.hit.shape, rects!.hit.rect, rects!.hit.x, rects!.hit.y, rects!.hit.distance]).toEqual([Part.Rects, rects!.indexOf(block), 0, 103, 10, 100]);
      // A miss fills the same record: no part or shape, the whole motion.
      expect(rects!.castSegment(0, 200, 50, 0)).toBe(false);
      expect([rects!.hit.part, rects!.hit.shape, rects!.hit.rect, rects!.hit.t, rects!.hit.x, rects!.hit.y, rects!.hit.distance]).toEqual([Part.None, -1, -1, 1, 50, 200, 50]);
      expect(plats!.castSegment(0, 200, 50, 0)).toBe(false);
      expect([plats!.hit.part, plats!.hit.shape, plats!.hit.rect, plats!.hit.t, plats!.hit.x, plats!.hit.y, plats!.hit.distance]).toEqual([Part.None, -1, -1, 1, 50, 200, 50]);
      expect(world.castSegment(0, 200, 50, 0)).toBe(false);
      expect([world.hit.part, world.hit.shape, world.hit.rect, world.hit.t, world.hit.x, world.hit.y, world.hit.distance]).toEqual([Part.None, -1, -1, 1, 50, 200, 50]);
    }
  });

  it("bad input throws HitcoreError before any part is touched, and the parts are unchanged", async () => {
    for (const backend of BACKENDS) {
      const { world, rects: r, plats: p } = await worldWith(backend, { rects: true, platforms: true });
      const rects = r!, plats = p!;
      rects.addInstance(rects.addPrefab([0, 0, 10, 10]), 100, 100);
      plats.addSurface(0, 0, 100, 0);
      plats.addPolygon([200, 0, 300, 0, 300, -50, 200, -50]);
      // A known last hit in the world and in each part, which a rejected call must leave as it is.
      expect(world.castSegment(105, 50, 0, 100)).toBe(true);
      expect(rects.castSegment(105, 50, 0, 100)).toBe(true);
      expect(plats.castBox(40, -110, 20, 10, 0, 200)).toBe(true);
      const hitOf = (h: { part: number; shape: number; rect: number; t: number; x: number; y: number; nx: number; ny: number }) => [h.part, h.shape, h.rect, h.t, h.x, h.y, h.nx, h.ny];
      const snapshot = () => JSON.stringify([hitOf(world.hit), hitOf(rects.hit), hitOf(plats.hit), levelOf(plats), plats.stats(), rects.stats()]);
      const before = snapshot();
      const bad: [string, () => unknown][] = [
        ["INVALID_NUMBER", () => world.castSegment(NaN, 0, 1, 1)],
        ["INVALID_NUMBER", () => world.castRay(0, 0, 1, 0, Infinity)],
        ["INVALID_DIRECTION", () => world.castRay(0, 0, 0, 0, 10)],
        ["NEGATIVE_SIZE", () => world.castBox(0, 0, -1, 4, 1, 1)],
        ["NEGATIVE_SIZE", () => world.castBox(0, 0, 4, -1, 1, 1)],
        ["INVALID_NUMBER", () => world.castBox(0, 0, 4, 4, NaN, 1)],
        ["RADIUS_TOO_LARGE", () => world.castBox(0, 0, 30, 30, 1, 1)],
        ["NEGATIVE_SIZE", () => world.castCircle(0, 0, -2, 1, 1)],
        ["RADIUS_TOO_LARGE", () => world.castCircle(0, 0, 13, 1, 1)],
        ["INVALID_COUNT", () => world.castMany(1)],
        ["NEGATIVE_SIZE", () => plats.castBox(0, 0, -1, 4, 1, 1)],
        ["INVALID_NUMBER", () => plats.castBox(0, 0, 4, 4, 1, -Infinity)],
        ["INVALID_NUMBER", () => plats.castBox(0, NaN, 4, 4, 1, 1)],
        ["BOX_TOO_LARGE", () => plats.castBox(0, 0, 20, 20, 1, 1)],
        ["INVALID_DIRECTION", () => plats.castRay(0, 0, 0, 0, 5)],
        ["NEGATIVE_SIZE", () => plats.castRay(0, 0, 1, 0, -5)],
        ["NEGATIVE_SIZE", () => plats.castCircle(0, 0, -1, 1, 1)],
        ["INVALID_NUMBER", () => plats.castSegment(0, 0, NaN, 1)],
        ["NEGATIVE_SIZE", () => rects.castBox(0, 0, -1, 4, 1, 1)],
        ["INVALID_NUMBER", () => rects.castSegment(0, 0, 1, NaN)],
      ];
      for (const [code, call] of bad) {
        let error: unknown;
        try { call(); } catch (e) { error = e; }
        expect(error).toBeInstanceOf(HitcoreError);
        expect((error as HitcoreError).code).toBe(code);
        expect((error as Error).message.length).toBeGreaterThan(40);
        expect(snapshot()).toBe(before);
      }
    }
  });

  it("a cast many map widths long on a wrapping map meets the first copy of a wall either way, as a short one does", async () => {
    for (const backend of BACKENDS) {
      const world = await createWorld({ ...(await backendOptions(backend)) });
      world.addTileMap({ ascii: ["    ", "  X ", "XXXX"], tileSize: 32, wrap: true });
      // From column 0, left: the copy of column 2 two columns away (its right side at x = -32); right: column 2 at x = 64.
      for (const dx of [-9e29, -1e18, -1e9, -64, 9e29, 1e18, 1e9, 64]) {
        expect(world.castCircle(16, 48, 0.5, dx, 0), `${backend} dx ${dx}`).toBe(true);
        expect(world.hit.distance, `${backend} dx ${dx}`).toBeCloseTo(47.5, 3);
        expect(world.hit.nx, `${backend} dx ${dx}`).toBe(dx < 0 ? 1 : -1);
      }
    }
  });
});

