// The platforms part: surfaces (seed 000), polyhedra (seed 001), the ball batch step and casts.
// Differential: the wasm core, the js backend (the scalar core translated by wasm2js) and the brute-force
// reference (tests/platforms_reference.ts) agree exactly on seeded random levels, hard cases
// included; the seeds' own levels are fixtures.
//
// Coordinates are y-down. Each scene is the y-up scene of the seeds mirrored: levels through flipY
// (y -> -y), the balls' y, vy and ay and every query's y negated, and the expectations mirrored, so
// "the ground at y = -250" of the seed is the ground at y = 250 here, below the ball.
import { describe, expect, it } from "vitest";
import { circlePolygon, EG_DATA, EG_LEVEL, flipY, PlatformRain, randomPolygons, randomSurfaces, starPolygon } from "../fixtures/platform_levels.js";
import { mulberry32 } from "../fixtures/random.js";
import { HitcoreError, IdKind, Part, PLATFORMER, type PlatformsOptions, type Platforms , type CreateOptions } from "../bindings/node.js";
import { signedArea2 } from "../bindings/polygon.js";
import {
  detect, inside, levelOf, lineToSurface, lineToSurfaceF32, pointInPolygon, refCast, refStep, type RefBall, type RefLevel,
} from "./platforms_reference.js";
import { BACKENDS, backendOptions, gc, leastHeapPerCall, type BackendName, newPlatforms } from "./support.js";


async function platforms(backend: BackendName, options: PlatformsOptions & CreateOptions = {}): Promise<Platforms> {
  return newPlatforms({ ...options, ...(await backendOptions(backend)) });
}

function ballsOf(p: Platforms): RefBall[] {
  const out: RefBall[] = [];
  for (let i = 0; i < p.ballCount; i++) out.push({ x: p.x[i], y: p.y[i], vx: p.vx[i], vy: p.vy[i], ax: p.ax[i], ay: p.ay[i], r: p.radius[i] });
  return out;
}

function stateOf(p: Platforms): number[] {
  const n = p.ballCount;
  return [...p.x.subarray(0, n), ...p.y.subarray(0, n), ...p.vx.subarray(0, n), ...p.vy.subarray(0, n)];
}

function refState(balls: RefBall[]): number[] {
  return [...balls.map((b) => b.x), ...balls.map((b) => b.y), ...balls.map((b) => b.vx), ...balls.map((b) => b.vy)];
}

/** Builds the same level and balls on both backends, steps them and the reference, and compares every frame. */
async function agreeOnSteps(build: (p: Platforms) => void, frames: number, dt: number, options: PlatformsOptions & CreateOptions = {}): Promise<{ contacts: number; p: Platforms }> {
  const runs = await Promise.all(BACKENDS.map((b) => platforms(b, options)));
  runs.forEach(build);
  const level = levelOf(runs[0]);
  const ref = ballsOf(runs[0]);
  const params = { resX: options.resistanceX ?? 0.95, resY: options.resistanceY ?? 1, maxSubsteps: options.maxSubsteps ?? 64, exact: !!options.exact, maxRadius: options.maxRadius ?? 10 };
  let contacts = 0;
  for (let f = 0; f < frames; f++) {
    const c = runs.map((p) => p.step(dt));
    for (const n of c) expect(n).toBe(c[0]);
    contacts += c[0];
    refStep(level, ref, dt, params);
    const expected = refState(ref);
    for (const p of runs) expect(stateOf(p)).toEqual(expected);
  }
  return { contacts, p: runs[0] };
}

/** The seeds' y-up levels in y-down coordinates: the segments or polygons mirrored by flipY. */
/** The reference's hit kinds (0 none, 1 surface, 2 polyhedron) as the Part a Hit reports. */
const PART_OF = [Part.None, Part.Surfaces, Part.Polyhedra];

const LEVEL = flipY(EG_LEVEL);
const DATA = EG_DATA.map((poly) => flipY(poly));

/**
 * n balls in the box x0 .. x0 + w by y0 - h .. y0 (the y-up box y0 .. y0 + h mirrored; each ball
 * the mirror of the y-up scene's), with random velocities and the seeds' gravity.
 */
function addRandomBalls(p: Platforms, n: number, seed: number, x0: number, y0: number, w: number, h: number, rMax = 10): void {
  const rand = mulberry32(seed);
  for (let i = 0; i < n; i++) {
    p.addBall(x0 + rand() * w, -(y0 + rand() * h), Math.round(rand() * rMax * 4) / 4, (rand() - 0.5) * 400, -((rand() - 0.5) * 400), (rand() - 0.5) * 200, PLATFORMER.gravity);
  }
}

/** A stored surface record's first nine numbers mirrored in y (the seed's y-up lineToSurface -> y-down). */
function mirrorRecord(r: ArrayLike<number>): number[] {
  return [r[0], -r[1], r[2], r[3], -r[4], r[5], r[6], -r[7], r[8]];
}

describe("surfaces (seed 000)", () => {
  it("stores lineToSurface's normals and offsets for the seed's level, mirrored", async () => {
    const p = await platforms("wasm-scalar");
    const ids = p.addSurfaces(LEVEL);
    expect(p.surfaceCount).toBe(EG_LEVEL.length / 4);
    expect(ids.map((id) => p.indexOf(id))).toEqual([...Array(p.surfaceCount).keys()]);
    for (let s = 0; s < p.surfaceCount; s++) {
      // The seed's lineToSurface of its own (y-up) segment, mirrored.
      const [x0, y0, x1, y1] = EG_LEVEL.slice(4 * s, 4 * s + 4);
      const want = mirrorRecord(lineToSurface(x0, y0, x1, y1));
      const got = p.surface(ids[s]);
      for (let k = 0; k < want.length; k++) expect(got[k]).toBeCloseTo(want[k], 3);
      expect(Math.hypot(got[0], got[1])).toBeCloseTo(1, 6);
      expect([...got.slice(9, 13)]).toEqual(LEVEL.slice(4 * s, 4 * s + 4));
    }
    // The level drawn left to right faces up: the flat ground (surface 2) has the normal (0, -1).
    expect([p.surface(ids[2])[0], p.surface(ids[2])[1]]).toEqual([0, -1]);
  });

  it("stores the y-up f32 record mirrored bit for bit: flipY(level) behaves as the seed's level mirrored", async () => {
    const p = await platforms("js");
    const lines = [...EG_LEVEL, ...randomSurfaces(500, 12, 700).map((v, i) => (i % 2 ? v - 350 : v) + (i % 3) / 8)];
    p.addSurfaces(flipY(lines));
    for (let s = 0; s < p.surfaceCount; s++) {
      const [x0, y0, x1, y1] = lines.slice(4 * s, 4 * s + 4);
      const want = mirrorRecord(lineToSurfaceF32(x0, y0, x1, y1));
      // Equal as numbers (Object.is would tell a mirrored +0 from the stored +0: the facade stores no -0).
      expect(Array.from(p.surface(p.idAt(IdKind.Surface, s)).slice(0, 9)).map((v) => v + 0)).toEqual(want.map((v) => v + 0));
    }
  });

  it("the bound offsets follow the ball radius (not a hard-coded 10)", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend, { maxRadius: 40 });
      p.addSurface(0, 0, 100, 0); // normal (0, -1): solid below, platform top at y = 0
      // Past the right end by 12 at height 1: inside the trapezium for r = 40, not for r = 10.
      expect(p.touchingSurfaces(112, -1, 40, false)).toBe(1);
      expect(p.touchingSurfaces(112, -1, 10, false)).toBe(0);
      // The band is r thick, one-sided.
      expect(p.touchingSurfaces(50, -39, 40, false)).toBe(1);
      expect(p.touchingSurfaces(50, -41, 40, false)).toBe(0);
      expect(p.touchingSurfaces(50, 1, 40, false)).toBe(0);
    }
  });

  it("trapezium and rounded regions differ only in the corner regions, by at most r (1 - 1/sqrt 2)", async () => {
    const rand = mulberry32(7);
    for (const backend of BACKENDS) {
      const p = await platforms(backend, { maxRadius: 16 });
      const lines = randomSurfaces(40, 3, 400);
      p.addSurfaces(lines);
      const level = levelOf(p);
      let onlyExact = 0, both = 0;
      for (let k = 0; k < 20000; k++) {
        const x = rand() * 460 - 30, y = rand() * 460 - 30, r = 1 + Math.floor(rand() * 16);
        const nt = p.touchingSurfaces(x, y, r, false);
        const trap = new Set(p.results.subarray(0, nt));
        const ne = p.touchingSurfaces(x, y, r, true);
        const exact = new Set(p.results.subarray(0, ne));
        for (const s of trap) expect(exact.has(s)).toBe(true); // trapezium inside the rounded region
        for (const s of exact) {
          if (trap.has(s)) { both++; continue; }
          onlyExact++;
          const S = level.surfaces[s];
          const ex = S[11] - S[9], ey = S[12] - S[10], len = Math.hypot(ex, ey);
          const u = ((x - S[9]) * ex + (y - S[10]) * ey) / len;
          // Beyond an end (a corner region), and between the 45-degree cut (r / sqrt 2 from the end) and the arc (r).
          expect(u < 1e-3 || u > len - 1e-3).toBe(true);
          const dEnd = Math.min(Math.hypot(x - S[9], y - S[10]), Math.hypot(x - S[11], y - S[12]));
          expect(dEnd).toBeGreaterThanOrEqual(r * Math.SQRT1_2 - 1e-3);
          expect(dEnd).toBeLessThanOrEqual(r + 1e-3);
        }
      }
      expect(onlyExact).toBeGreaterThan(0);
      expect(both).toBeGreaterThan(onlyExact);
    }
  });

  it("point queries agree with the brute-force reference and test only nearby surfaces", async () => {
    const rand = mulberry32(11);
    const lines = randomSurfaces(4000, 5);
    const side = Math.sqrt(4000) * 60;
    const runs = await Promise.all(BACKENDS.map((b) => platforms(b)));
    for (const p of runs) { p.addSurfaces(lines); p.validate(); }
    const level = levelOf(runs[0]);
    let tested = 0;
    for (let k = 0; k < 3000; k++) {
      const x = rand() * side, y = rand() * side, r = Math.floor(rand() * 11), exact = rand() < 0.5;
      const want = level.surfaces.flatMap((S, s) => (detect(S, x, y, r, exact) ? [s] : []));
      for (const p of runs) {
        const n = p.touchingSurfaces(x, y, r, exact);
        expect([...p.results.subarray(0, n)]).toEqual(want);
      }
      tested += runs[0].stats().candidates;
    }
    expect(tested / 3000).toBeLessThan(40); // of 4000 surfaces
  });

  it("balls on random surfaces: wasm, js and the reference agree step for step (trapezium and exact)", async () => {
    const lines = randomSurfaces(300, 9, 600);
    for (const exact of [false, true]) {
      const { contacts } = await agreeOnSteps((p) => { p.addSurfaces(flipY(lines)); addRandomBalls(p, 300, 4, 0, 0, 600, 700); }, 40, 1 / 60, { exact });
      expect(contacts).toBeGreaterThan(100);
    }
  });

  it("hard cases agree: exact touching, zero radius, everything in one cell, huge surfaces, corners", async () => {
    await agreeOnSteps((p) => {
      // A closed box and a V (corners where surfaces meet), a huge floor, a pile of identical surfaces.
      p.addSurfaces([0, 0, 100, 0, 100, 0, 100, -100, 100, -100, 0, -100, 0, -100, 0, 0]);
      p.addSurfaces([200, -50, 250, 0, 250, 0, 300, -50]);
      p.addSurface(-1e5, 20, 1e5, 20);
      for (let k = 0; k < 50; k++) p.addSurface(400, 0, 440, 0);
      p.addBall(50, -110, 10, 0, 5); // exactly touching the box top (y = -100 - r)
      p.addBall(50, -100, 0, 0, 5); // zero radius, on the line
      p.addBall(250, -20, 10); // in the V
      p.addBall(420, -10, 10, 30, 0); // on the pile: all in one cell
      p.addBall(420, -10, 0, 0, 0);
      p.addBall(3e4, 10, 10, 100, 0); // on the huge floor, far from everything else
      p.addBall(100, -110, 10, 0, 50); // on the box corner
      addRandomBalls(p, 100, 8, -50, -30, 500, 200);
    }, 120, 1 / 60);
  });

  it("corners: a ball in the seed's V valley comes to rest, and the fold is applied to all touching surfaces", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      p.addSurfaces(LEVEL);
      const id = p.indexOf(p.addBall(25, -150, 10)); // above the spike at (25, -100)
      for (let k = 0; k < 2000; k++) p.step(1 / 60);
      // It slides off the spike and settles on the flat ground at y = 250 (band [240, 250]).
      expect(p.y[id]).toBeLessThanOrEqual(250);
      expect(p.y[id]).toBeGreaterThanOrEqual(240);
    }
  });
});

describe("polyhedra (seed 001)", () => {
  it("vertex lists of either winding give the same halfspaces, normals outward", async () => {
    const p = await platforms("js");
    const square = [0, 0, 10, 0, 10, 10, 0, 10];
    const reversed = [0, 10, 10, 10, 10, 0, 0, 0];
    const [a] = p.addPolygon(square), [b] = p.addPolygon(reversed);
    const ha = p.halfspaces(a), hb = p.halfspaces(b);
    const faces = (h: Float32Array) => Array.from({ length: h.length / 3 }, (_, i) => `${h[3 * i]},${h[3 * i + 1]},${h[3 * i + 2]}`).sort();
    expect(faces(ha)).toEqual(faces(hb));
    expect(inside(ha, 5, 5, 0)).toBe(true);
    expect(inside(ha, 11, 5, 0)).toBe(false);
    expect(inside(ha, 11, 5, 1)).toBe(true); // faces move out by r
  });

  it("splits the seed's polygons into convex parts covering exactly the polygon", async () => {
    const rand = mulberry32(2);
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      const owners: number[][] = DATA.map((poly) => p.addPolygon(poly));
      expect(owners.flat().map((id) => p.indexOf(id))).toEqual([...Array(p.polyhedronCount).keys()]);
      for (let k = 0; k < p.polyhedronCount; k++) {
        const v = p.vertices(p.idAt(IdKind.Polyhedron, k))!;
        // Convex and counter-clockwise as drawn with y down: every turn right in these coordinates.
        for (let i = 0; i < v.length / 2; i++) {
          const n = v.length / 2, a = (i + n - 1) % n, c = (i + 1) % n;
          expect((v[2 * i] - v[2 * a]) * (v[2 * c + 1] - v[2 * a + 1]) - (v[2 * i + 1] - v[2 * a + 1]) * (v[2 * c] - v[2 * a])).toBeLessThan(0);
        }
      }
      // Part areas add up to the polygon's area (the parts' signed areas are negative).
      DATA.forEach((poly, i) => {
        const area = Math.abs(signedArea2(poly.filter((_, j) => j % 2 === 0), poly.filter((_, j) => j % 2 === 1)));
        const parts = owners[i].reduce((s, k) => { const v = p.vertices(k)!; return s - signedArea2(v.filter((_, j) => j % 2 === 0), v.filter((_, j) => j % 2 === 1)); }, 0);
        expect(parts).toBeCloseTo(area, 0);
      });
      // Points: in the polygon (ray crossing) exactly when in one of its parts.
      for (let k = 0; k < 4000; k++) {
        const x = rand() * 960, y = -(rand() * 540);
        const n = p.polyhedraAt(x, y, 0);
        const hits = new Set(p.results.subarray(0, n));
        DATA.forEach((poly, i) => {
          const inPoly = pointInPolygon(poly, x, y);
          const inPart = owners[i].some((id) => hits.has(p.indexOf(id)));
          const nearEdge = owners[i].some((id) => inside(p.halfspaces(id), x, y, 1e-3)) !== owners[i].some((id) => inside(p.halfspaces(id), x, y, -1e-3));
          if (!nearEdge) expect(inPart).toBe(inPoly);
        });
      }
    }
  });

  it("splits non-convex random polygons (stars) into convex parts; cleans repeats and collinear runs", async () => {
    const rand = mulberry32(5);
    const p = await platforms("js");
    for (let t = 0; t < 30; t++) {
      const k = 5 + Math.floor(rand() * 8);
      const star: number[] = [];
      for (let i = 0; i < 2 * k; i++) {
        const a = (i / (2 * k)) * 2 * Math.PI, r = i % 2 ? 20 + rand() * 10 : 50 + rand() * 30;
        star.push(Math.round(Math.cos(a) * r * 8) / 8, Math.round(Math.sin(a) * r * 8) / 8);
      }
      const ids = p.addPolygon(rand() < 0.5 ? star : reverseFlat(star));
      expect(ids.length).toBeGreaterThan(1);
      for (let q = 0; q < 300; q++) {
        const x = rand() * 180 - 90, y = rand() * 180 - 90;
        const inPart = ids.some((id) => inside(p.halfspaces(id), x, y, 0));
        const near = ids.some((id) => inside(p.halfspaces(id), x, y, 1e-3)) !== ids.some((id) => inside(p.halfspaces(id), x, y, -1e-3));
        if (!near) expect(inPart).toBe(pointInPolygon(star, x, y));
      }
    }
    // Repeated points and a collinear run are cleaned: a square with extras is one 4-face part.
    const [sq] = p.addPolygon([0, 0, 0, 0, 5, 0, 10, 0, 10, 10, 10, 10, 0, 10, 0, 5]);
    expect(p.halfspaces(sq).length).toBe(12);
  });

  it("loads a 3,000-gon as a polygon and as halfspaces (the extents agree); a 3,000-point star splits", async () => {
    const p = await platforms("js");
    const circle = circlePolygon(3000, 500);
    const convexHalfspaces: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const j = (i + 1) % 3000, dx = circle[2 * j] - circle[2 * i], dy = circle[2 * j + 1] - circle[2 * i + 1], len = Math.hypot(dx, dy);
      if (len === 0) continue;
      convexHalfspaces.push(dy / len, -dx / len, (dy * circle[2 * i] - dx * circle[2 * i + 1]) / len);
    }
    // Sizes at which the quadratic and cubic methods took tens of seconds: such a method would fail
    // this test by its timeout. Their speed is not asserted here (the machine is shared).
    const fromHs = p.addHalfspaces(convexHalfspaces);
    const ids = p.addPolygon(starPolygon(3000, 9, 100, 500));
    expect(ids.length).toBeGreaterThan(100);
    const e = p.extent(fromHs);
    for (let k = 0; k < 4; k++) expect(Math.abs(Math.abs(e[k]) - 500)).toBeLessThan(0.01);
    // Random halfspace sets (bounded, unbounded, empty): the extents match trying every pair of faces as a corner.
    const rand = mulberry32(21);
    for (let t = 0; t < 200; t++) {
      const hs: number[] = [];
      const faces = 1 + Math.floor(rand() * 12);
      for (let f = 0; f < faces; f++) { const a = rand() * 2 * Math.PI; hs.push(Math.cos(a), Math.sin(a), rand() * 100 - (t % 7 === 0 ? 60 : 10)); }
      const id = p.addHalfspaces(hs);
      const stored = Array.from(p.halfspaces(id));
      const got = p.extent(id), want = [-cornerSupport(stored, -1, 0), -cornerSupport(stored, 0, -1), cornerSupport(stored, 1, 0), cornerSupport(stored, 0, 1)];
      for (let k = 0; k < 4; k++) {
        if (!Number.isFinite(want[k])) expect(got[k]).toBe(want[k]);
        else expect(Math.abs(got[k] - want[k])).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(want[k])));
      }
    }
  });

  it("point and ball queries agree with the reference; unbounded polyhedra are found everywhere", async () => {
    const rand = mulberry32(12);
    const runs = await Promise.all(BACKENDS.map((b) => platforms(b)));
    const polys = randomPolygons(1500, 3).map((poly) => flipY(poly));
    for (const p of runs) {
      for (const poly of polys) p.addPolygon(poly);
      p.addHalfspaces([0, -1, 0]); // the ground y >= 0, unbounded
      p.validate();
    }
    const level = levelOf(runs[0]);
    const side = Math.sqrt(1500) * 100;
    let tested = 0;
    for (let k = 0; k < 3000; k++) {
      const far = k % 10 === 0;
      const x = far ? (rand() - 0.5) * 1e7 : rand() * side, y = -(far ? (rand() - 0.5) * 1e7 : rand() * side - 20);
      const r = Math.floor(rand() * 11);
      const want = level.polyhedra.flatMap((h, id) => (inside(h, x, y, r) ? [id] : []));
      for (const p of runs) {
        const n = p.polyhedraAt(x, y, r);
        expect([...p.results.subarray(0, n)]).toEqual(want);
      }
      tested += runs[0].stats().candidates;
    }
    expect(tested / 3000).toBeLessThan(30); // of 1501 polyhedra
  });

  it("balls on random overlapping polyhedra: wasm, js and the reference agree step for step", async () => {
    const polys = randomPolygons(200, 6, 500).map((poly) => flipY(poly));
    const { contacts } = await agreeOnSteps((p) => {
      for (const poly of polys) p.addPolygon(poly);
      p.addHalfspaces([0, -1, 0]);
      p.addHalfspaces([1, 0, 0, 0, -1, 30]); // x <= 0 and y >= -30: an unbounded corner
      addRandomBalls(p, 300, 9, 0, 0, 500, 600);
      p.addBall(250, -10, 10, 0, 20); // exactly touching the ground face (y = 0 - r)
      p.addBall(250, 0, 0, 10, 0); // zero radius on the face
      // A huge slab, a pile of identical boxes (all in one cell), a thin sliver with a sharp corner.
      p.addPolygon([-1e5, 400, 1e5, 400, 1e5, 300, -1e5, 300]);
      for (let k = 0; k < 40; k++) p.addPolygon([600, -100, 640, -100, 640, -140, 600, -140]);
      p.addPolygon([700, -200, 900, -201, 700, -202]);
      for (let k = 0; k < 20; k++) p.addBall(600 + 2 * k, k - 150, 5, 0, 100);
      p.addBall(5e4, 290, 10, 50, 0);
      p.addBall(880, -215, 10, 0, 200);
    }, 60, 1 / 60);
    expect(contacts).toBeGreaterThan(100);
  });

  it("surfaces and polyhedra together, seed levels, several frame times", async () => {
    for (const dt of [1 / 240, 1 / 30]) {
      await agreeOnSteps((p) => {
        p.addSurfaces(LEVEL);
        for (const poly of DATA) p.addPolygon(poly);
        addRandomBalls(p, 150, 10, -400, -250, 1360, 700);
      }, 60, dt);
    }
  });
});

describe("casts (rays, segments, swept circles)", () => {
  it("agree with the brute-force reference on random levels", async () => {
    const rand = mulberry32(21);
    const runs = await Promise.all(BACKENDS.map((b) => platforms(b)));
    const lines = randomSurfaces(400, 2, 900);
    const polys = randomPolygons(150, 4, 900);
    for (const p of runs) {
      p.addSurfaces(lines);
      for (const poly of polys) p.addPolygon(poly);
      p.addHalfspaces([0, 1, -50]);
    }
    const level = levelOf(runs[0]);
    let hits = 0;
    for (let k = 0; k < 6000; k++) {
      const x0 = rand() * 1000 - 50, y0 = rand() * 1000 - 50, len = rand() < 0.2 ? 2000 : rand() * 200;
      const a = rand() * 2 * Math.PI;
      // One cast in ten is axis-aligned (a zero component in the grid walk).
      const axis = k % 10 === 1 ? Math.floor(rand() * 4) : -1;
      const cx = axis < 0 ? Math.cos(a) : [1, 0, -1, 0][axis], cy = axis < 0 ? Math.sin(a) : [0, 1, 0, -1][axis];
      const x1 = x0 + cx * len, y1 = y0 + cy * len;
      const r = k % 3 === 0 ? 0 : Math.floor(rand() * 10);
      const f = Math.fround;
      const want = refCast(level, x0, y0, x1 - x0, y1 - y0, r);
      for (const p of runs) {
        const got = p.cast(x0, y0, x1, y1, r);
        expect(got).toBe(want.kind !== 0);
        expect(p.hit.part).toBe(PART_OF[want.kind]);
        expect(p.hit.shape).toBe(want.id);
        if (got) {
          expect(p.hit.t).toBe(f(want.t));
          expect([p.hit.nx, p.hit.ny]).toEqual([f(want.nx), f(want.ny)]);
        }
      }
      if (want.kind !== 0) hits++;
    }
    expect(hits).toBeGreaterThan(1500);
  });

  it("walk only the cells along the path: a diagonal across a large level tests a small part of it", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      const n = 20000, side = Math.sqrt(n) * 60;
      p.addSurfaces(flipY(randomSurfaces(n, 8)));
      const level = levelOf(p);
      // Upward from below the level toward the top right: misses most surfaces' fronts, crosses every row.
      for (const r of [0, 10]) {
        const got = p.cast(-10, 10, side + 10, -side - 10, r);
        const want = refCast(level, -10, 10, side + 20, -side - 20, r);
        expect(got).toBe(want.kind !== 0);
        expect(p.hit.shape).toBe(want.id);
        expect(p.stats().candidates).toBeLessThan(n / 10);
      }
    }
  });

  it("report the geometry: a ray and a swept circle onto a flat platform, a polyhedron face, misses", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      p.addSurface(0, 0, 100, 0); // faces up: normal (0, -1)
      const [box] = p.addPolygon([200, 0, 300, 0, 300, -50, 200, -50]);
      expect(p.cast(50, -100, 50, 100)).toBe(true);
      expect(p.hit).toMatchObject({ part: Part.Surfaces, shape: 0, rect: -1, x: 50, y: 0, nx: 0, ny: -1, t: 0.5 });
      expect(p.hit.distance).toBeCloseTo(100, 4);
      expect(p.cast(50, -100, 50, 100, 10)).toBe(true);
      expect(p.hit).toMatchObject({ x: 50, y: -10 });
      expect(p.hit.distance).toBeCloseTo(90, 4);
      expect(p.cast(50, 100, 50, -100)).toBe(false); // from behind: surfaces are one-sided
      expect(p.hit.part).toBe(Part.None);
      expect(p.cast(150, -25, 400, -25, 5)).toBe(true);
      expect(p.hit).toMatchObject({ part: Part.Polyhedra, shape: p.indexOf(box), x: 195, y: -25, nx: -1, ny: 0 });
      expect(p.idAt(IdKind.Polyhedron, p.hit.shape)).toBe(box);
      expect(p.cast(250, -25, 400, -25)).toBe(false); // starts inside
      expect(p.cast(110, -5, 110, 5, 10, true, false)).toBe(true); // the rounded end: (110, -5) is 10 from (100, 0)... past it
      expect(p.hit.shape).toBe(0);
      expect(p.cast(150, -25, 400, -25, 5, true, false)).toBe(false); // polyhedra excluded
    }
  });
});

describe("the batch step at the seeds' speeds", () => {
  it("a ball resting on each seed level's ground stays on it for 100,000 steps, 1/240 s to 1/30 s", async () => {
    for (const backend of BACKENDS) {
      for (const dt of [1 / 240, 1 / 60, 1 / 30]) {
        const s = await platforms(backend);
        s.addSurfaces(LEVEL);
        const flat = s.indexOf(s.addBall(-100, 240)); // on egLevel's flat ground (y = 250)
        const slope = s.indexOf(s.addBall(150, 240));
        const poly = await platforms(backend);
        for (const q of DATA) poly.addPolygon(q);
        const ground = poly.indexOf(poly.addBall(200, -140)); // on egData's ground polygon (top edge near y = -130)
        for (let k = 0; k < 100_000; k++) { s.step(dt); poly.step(dt); }
        for (const id of [flat, slope]) {
          expect(s.y[id]).toBeLessThanOrEqual(250);
          expect(s.y[id]).toBeGreaterThanOrEqual(240 - 1e-3);
        }
        // Still above the ground polygon's top edge and inside the level.
        expect(poly.polyhedraAt(poly.x[ground], poly.y[ground] + 12, 0)).toBeGreaterThan(0);
        expect(poly.polyhedraAt(poly.x[ground], poly.y[ground], 9)).toBe(0);
      }
    }
  }, 120_000);

  it("a ball dropped from any height does not pass through a platform", async () => {
    for (const backend of BACKENDS) {
      for (const dt of [1 / 240, 1 / 30]) {
        const p = await platforms(backend);
        p.addSurface(-100, 0, 100, 0); // a thin platform
        const [slab] = p.addPolygon([300, 10, 500, 10, 500, 0, 300, 0]); // a 10-thick slab
        const heights = [20, 200, 2000, 2e4, 2e5, 2e6, 1e7];
        const onSurface = heights.map((h) => p.indexOf(p.addBall(0, -h, 10)));
        const onSlab = heights.map((h) => p.indexOf(p.addBall(400, -h, 10)));
        for (let k = 0; k < 20_000 && !onSurface.concat(onSlab).every((id) => Math.abs(p.vy[id]) < 1 && p.y[id] > -50); k++) p.step(dt);
        for (const id of onSurface) expect(p.y[id]).toBeLessThanOrEqual(0);
        for (const id of onSlab) {
          expect(p.y[id]).toBeLessThanOrEqual(0);
          expect(p.polyhedraAt(p.x[id], p.y[id], 0)).toBe(0);
        }
        expect(p.indexOf(slab)).toBe(0);
        expect(p.stats().substeps).toBeGreaterThanOrEqual(onSurface.length * 2);
      }
    }
  }, 120_000);

  it("per-ball cost stays flat as the level grows 10x", async () => {
    const perBall: number[] = [];
    for (const n of [1000, 10000]) {
      const p = await platforms("wasm-scalar");
      const side = Math.sqrt(n) * 60;
      p.addSurfaces(flipY(randomSurfaces(n, 1)));
      addRandomBalls(p, 2000, 3, 0, 0, side, side);
      p.step(1 / 60);
      perBall.push(p.stats().candidates / 2000);
    }
    expect(perBall[1]).toBeLessThan(perBall[0] * 1.5);
  });

  it("skips balls whose data went bad through the views, without trapping", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend);
      p.addSurfaces(LEVEL);
      const good = p.indexOf(p.addBall(-100, 0));
      const bad = p.indexOf(p.addBall(0, 0));
      const big = p.indexOf(p.addBall(50, 0));
      p.x[bad] = NaN;
      p.radius[big] = 1000; // above maxRadius
      p.step(1 / 60);
      expect(p.stats().skipped).toBe(2);
      expect(Number.isNaN(p.x[bad])).toBe(true);
      expect(p.y[big]).toBe(0);
      expect(p.y[good]).toBeGreaterThan(0); // fell: y grows downward
    }
  });
});

describe("the frame loop", () => {
  // The wasm path, as tests/allocation.test.ts measures the grid's.
  it.runIf(gc !== undefined)("the wasm path allocates no JS heap per step, query or cast, and memory stays flat", async () => {
    const p = await platforms("wasm-scalar", { ballCapacity: 2000 });
    p.addSurfaces(LEVEL);
    for (const poly of DATA) p.addPolygon(poly.map((v, i) => (i % 2 ? v + 250 : v - 480)));
    const rain = new PlatformRain(p, 2000, [-400, -300, 400, 250], 3);
    const frame = () => {
      p.step(1 / 60);
      p.touchingSurfaces(0, 240, 10);
      p.polyhedraAt(0, 200, 5);
      p.cast(0, -300, 10, 300, 5);
    };
    for (let f = 0; f < 3000; f++) { frame(); rain.recycle(); } // until V8 has tiered every path up
    const buffer = p.x.buffer;
    expect(leastHeapPerCall(frame, 2000, 2)).toBeLessThan(2);
    expect(p.x.buffer).toBe(buffer); // no memory growth: the views were not replaced
  });
});

describe("the js backend's frame loop", () => {
  // V8 boxes a double stored in a module variable or passed through a call it does not inline; the
  // core keeps its doubles in memory scratch and passes integers (assembly/platform_grid.ts).
  it.runIf(gc !== undefined)("the js backend's step allocates no JS heap per frame", async () => {
    const p = await platforms("js", { ballCapacity: 1000 });
    p.addSurfaces(LEVEL);
    for (const poly of DATA) p.addPolygon(poly.map((v, i) => (i % 2 ? v + 250 : v - 480)));
    const rain = new PlatformRain(p, 1000, [-400, -300, 400, 250], 3);
    for (let f = 0; f < 2000; f++) { p.step(1 / 60); rain.recycle(); }
    // Steps only: the rain's recycling draws boxed random numbers of its own.
    expect(leastHeapPerCall(() => p.step(1 / 60), 500, 2)).toBeLessThan(2);
  });
});

describe("bad input", () => {
  async function rejects(p: Platforms, code: string, call: () => unknown): Promise<void> {
    const before = JSON.stringify([p.surfaceCount, p.polyhedronCount, p.ballCount, stateOf(p), levelOf(p)]);
    let error: unknown;
    try { call(); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(HitcoreError);
    expect((error as HitcoreError).code).toBe(code);
    expect((error as HitcoreError).message).toMatch(/hitcore: .+\. .+/); // the problem, then the fix
    expect(JSON.stringify([p.surfaceCount, p.polyhedronCount, p.ballCount, stateOf(p), levelOf(p)])).toBe(before);
  }

  it("throws HitcoreError with the fix, and leaves the store unchanged", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend, { ballCapacity: 2, maxBalls: 2 });
      p.addSurfaces(LEVEL);
      p.addPolygon(DATA[0]);
      p.addBall(0, 0);
      await rejects(p, "INVALID_NUMBER", () => p.addSurface(0, 0, NaN, 1));
      await rejects(p, "INVALID_NUMBER", () => p.addSurfaces([0, 0, 1, 1, 2, 2, Infinity, 3]));
      await rejects(p, "INVALID_ARGUMENT", () => p.addSurfaces([0, 0, 1]));
      await rejects(p, "DEGENERATE_SURFACE", () => p.addSurfaces([0, 0, 1, 1, 5, 5, 5, 5]));
      await rejects(p, "DEGENERATE_POLYGON", () => p.addPolygon([0, 0, 1, 1]));
      await rejects(p, "DEGENERATE_POLYGON", () => p.addPolygon([0, 0, 1, 1, 2, 2, 3, 3]));
      await rejects(p, "DEGENERATE_POLYGON", () => p.addPolygon([0, 0, 0, 0, 0, 0]));
      await rejects(p, "SELF_INTERSECTING", () => p.addPolygon([0, 0, 10, 10, 10, 0, 0, 10]));
      await rejects(p, "INVALID_POLYGON", () => p.addPolygon([0, 0, 1, 0, 1]));
      await rejects(p, "INVALID_NUMBER", () => p.addPolygon([0, 0, 1, 0, NaN, 1]));
      await rejects(p, "DEGENERATE_HALFSPACE", () => p.addHalfspaces([0, 0, 1]));
      await rejects(p, "RADIUS_TOO_LARGE", () => p.addBall(0, 0, 11));
      await rejects(p, "NEGATIVE_SIZE", () => p.addBall(0, 0, -1));
      await rejects(p, "INVALID_NUMBER", () => p.addBall(0, NaN));
      await rejects(p, "UNKNOWN_ID", () => p.setBall(5, 0, 0, 0, 0));
      await rejects(p, "UNKNOWN_ID", () => p.setAcceleration(-1, 0, 0));
      await rejects(p, "UNKNOWN_ID", () => p.halfspaces(3));
      await rejects(p, "INVALID_NUMBER", () => p.step(0));
      await rejects(p, "INVALID_NUMBER", () => p.step(NaN));
      await rejects(p, "INVALID_NUMBER", () => p.cast(0, 0, Infinity, 0));
      await rejects(p, "RADIUS_TOO_LARGE", () => p.touchingSurfaces(0, 0, 50));
      p.addBall(1, 1);
      await rejects(p, "STORE_FULL", () => p.addBall(2, 2));
      await expect(platforms(backend, { maxRadius: -1 })).rejects.toThrow(HitcoreError);
      await expect(platforms(backend, { maxSubsteps: 0.5 })).rejects.toThrow(HitcoreError);
    }
  });

  it("grows the ball store x2 and keeps balls and the level across relayouts", async () => {
    for (const backend of BACKENDS) {
      const p = await platforms(backend, { ballCapacity: 1 });
      p.addSurfaces(LEVEL);
      const ids = Array.from({ length: 3000 }, (_, i) => p.indexOf(p.addBall(-390 + (i % 700), -300 - Math.floor(i / 700) * 20)));
      p.addPolygon(DATA[3]); // relayout with balls present
      expect(p.ballCount).toBe(3000);
      expect(p.x[ids[2999]]).toBe(-390 + (2999 % 700));
      expect(p.y[ids[2999]]).toBe(-300 - 4 * 20);
      p.validate();
    }
  });
});

/**
 * The reference for a polyhedron's extent: max e . x over [nx, ny, offset, ...], trying every pair
 * of faces as a corner against every face (O(faces^3)); Infinity when unbounded along e (no two
 * normals less than a half turn apart on either side of e) or empty.
 */
function cornerSupport(hs: number[], ex: number, ey: number): number {
  const n = hs.length / 3;
  let inCone = false;
  for (let i = 0; i < n && !inCone; i++) for (let j = 0; j < n; j++) {
    const ax = hs[3 * i], ay = hs[3 * i + 1], bx = hs[3 * j], by = hs[3 * j + 1];
    if (ax * ey - ay * ex > 0 && ex * by - ey * bx > 0 && ax * by - ay * bx > 0) { inCone = true; break; }
  }
  if (!inCone) return Infinity;
  let best = -Infinity;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const ax = hs[3 * i], ay = hs[3 * i + 1], ao = hs[3 * i + 2], bx = hs[3 * j], by = hs[3 * j + 1], bo = hs[3 * j + 2];
    const det = ax * by - ay * bx;
    if (Math.abs(det) < 1e-9) continue;
    const vx = (ao * by - bo * ay) / det, vy = (ax * bo - bx * ao) / det, tol = 1e-6 * (1 + Math.abs(vx) + Math.abs(vy));
    let ok = true;
    for (let k = 0; k < n && ok; k++) ok = vx * hs[3 * k] + vy * hs[3 * k + 1] <= hs[3 * k + 2] + tol;
    if (ok) best = Math.max(best, vx * ex + vy * ey);
  }
  return best === -Infinity ? Infinity : best;
}

function reverseFlat(v: number[]): number[] {
  const out: number[] = [];
  for (let i = v.length - 2; i >= 0; i -= 2) out.push(v[i], v[i + 1]);
  return out;
}

export type { RefLevel };
