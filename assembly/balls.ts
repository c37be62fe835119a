// The batch step for many balls (the seeds' `simulationUpdate`: accelerate, hit-detect and deflect,
// integrate), point queries, and segment / swept-circle casts against the level. One call per
// frame; results stay in the stores and the header. Layout: layout/platforms.ts.
//
// Tunneling: a ball moving more than half its radius in a step is sub-stepped (hit detection then
// integration per sub-step), so its centre cannot cross a surface's band (r thick) or a
// polyhedron (at least 2r thick once its faces move out by r) without landing inside it. At most
// P_MAX_SUBSTEPS sub-steps run; a faster ball has its speed capped to fit them (a terminal speed
// of max * r / (2 dt)), so no drop height passes through a platform.
import {
  C_ID, C_KIND, C_NX, C_NY, C_T, C_X, C_Y, HIT_NONE, P_BALL_COUNT, P_BAX, P_BAY, P_BR, P_BVX, P_BVY, P_BX, P_BY,
  P_EXACT, P_GRID_COLS, P_GRID_INV, P_GRID_OX, P_GRID_OY, P_GRID_RADIUS, P_GRID_ROWS, P_MAX_SUBSTEPS,
  P_POLY_CELLS, P_POLY_ITEMS, P_RES_X, P_RES_Y, P_RESULTS, P_RESULTS_CAP, P_SURF_CELLS, P_SURF_ITEMS,
  S_CANDIDATES, S_CONTACTS, S_SKIPPED, S_SUBSTEPS,
} from "../layout/platforms.ts";
import {
  ballVX, ballVY, ballX, ballY, candidates, cellAt, contacts, countCandidate, ph, phF, resetCounters, setBall, setPh,
  setPhF,
} from "./platform_grid.ts";
import { castPolyhedron, castPolyhedronBox, foldPolyhedra, insidePolyhedron } from "./polyhedra.ts";
import { castId, castKind, castNX, castNY, castSurface, castSurfaceBox, castT, foldSurfaces, resetCast, surfaceTouches } from "./surfaces.ts";

/** Steps every ball by dt seconds; returns the contacts found (S_* hold the details). */
export function stepBalls(dt: f64): i32 {
  resetCounters();
  const n = ph(P_BALL_COUNT);
  const xp = ph(P_BX), yp = ph(P_BY), vxp = ph(P_BVX), vyp = ph(P_BVY), axp = ph(P_BAX), ayp = ph(P_BAY), rp = ph(P_BR);
  const resX = phF(P_RES_X), resY = phF(P_RES_Y), maxR = phF(P_GRID_RADIUS);
  const exact = ph(P_EXACT) != 0;
  const maxSub = max(ph(P_MAX_SUBSTEPS), 1);
  let substeps = 0, skipped = 0;
  for (let i = 0; i < n; i++) {
    const o = i << 2;
    const x = <f64>load<f32>(xp + o), y = <f64>load<f32>(yp + o);
    let vx = <f64>load<f32>(vxp + o), vy = <f64>load<f32>(vyp + o);
    const ax = <f64>load<f32>(axp + o), ay = <f64>load<f32>(ayp + o), r = <f64>load<f32>(rp + o);
    // x - x is 0 only for finite x: bulk writes through the views may have left anything here.
    if (!(x - x == 0 && y - y == 0 && vx - vx == 0 && vy - vy == 0 && ax - ax == 0 && ay - ay == 0 && r >= 0 && r <= maxR)) {
      skipped++;
      continue;
    }
    // accelerate: the seed's resistance, then dt * acc.
    vx = resX * vx + dt * ax;
    vy = resY * vy + dt * ay;
    let steps = 1;
    if (r > 0) {
      const travel = Math.sqrt(vx * vx + vy * vy) * dt;
      const limit = 0.5 * r;
      if (travel > limit) {
        const need = Math.ceil(travel / limit);
        if (need > <f64>maxSub) {
          const scale = <f64>maxSub * limit / travel;
          vx *= scale;
          vy *= scale;
          steps = maxSub;
        } else {
          steps = <i32>need;
        }
      }
    }
    const h = dt / <f64>steps;
    setBall(x, y, vx, vy);
    for (let s = 0; s < steps; s++) {
      foldSurfaces(cellAt(ballX, ballY), r, exact);
      foldPolyhedra(r);
      // velocerate
      setBall(ballX + h * ballVX, ballY + h * ballVY, ballVX, ballVY);
    }
    substeps += steps;
    store<f32>(xp + o, <f32>ballX);
    store<f32>(yp + o, <f32>ballY);
    store<f32>(vxp + o, <f32>ballVX);
    store<f32>(vyp + o, <f32>ballVY);
  }
  setPh(S_CANDIDATES, candidates);
  setPh(S_CONTACTS, contacts);
  setPh(S_SUBSTEPS, substeps);
  setPh(S_SKIPPED, skipped);
  return contacts;
}

/** Surfaces whose hit region (trapezium, or rounded when exact) holds (x, y) for radius r, ascending ids into P_RESULTS; returns how many. */
export function touchSurfaces(x: f64, y: f64, r: f64, exact: bool): i32 {
  resetCounters();
  const starts = ph(P_SURF_CELLS), items = ph(P_SURF_ITEMS), out = ph(P_RESULTS), cap = ph(P_RESULTS_CAP);
  const cell = cellAt(x, y);
  const end = load<i32>(starts + (cell << 2), 4);
  let found = 0;
  for (let j = load<i32>(starts + (cell << 2)); j < end; j++) {
    const s = load<i32>(items + (j << 2));
    countCandidate();
    if (surfaceTouches(s, x, y, r, exact)) {
      if (found < cap) store<i32>(out + (found << 2), s);
      found++;
    }
  }
  setPh(S_CANDIDATES, candidates);
  setPh(S_CONTACTS, found);
  return found;
}

/** Polyhedra holding a ball of radius r at (x, y), ascending ids into P_RESULTS; returns how many. */
export function insidePolyhedra(x: f64, y: f64, r: f64): i32 {
  resetCounters();
  const starts = ph(P_POLY_CELLS), items = ph(P_POLY_ITEMS), out = ph(P_RESULTS), cap = ph(P_RESULTS_CAP);
  const cell = cellAt(x, y);
  const end = load<i32>(starts + (cell << 2), 4);
  let found = 0;
  for (let j = load<i32>(starts + (cell << 2)); j < end; j++) {
    const k = load<i32>(items + (j << 2));
    countCandidate();
    if (insidePolyhedron(k, x, y, r)) {
      if (found < cap) store<i32>(out + (found << 2), k);
      found++;
    }
  }
  setPh(S_CANDIDATES, candidates);
  setPh(S_CONTACTS, found);
  return found;
}

// The swept box of the current cast (castBox), or none (castSegment): half extents, and the mode.
let boxHW: f64 = 0;
let boxHH: f64 = 0;
let boxMode = false;

/** Tests every item of one cell's lists against the cast. */
function castCell(cell: i32, x0: f64, y0: f64, dx: f64, dy: f64, r: f64, surfaces: bool, polyhedra: bool): void {
  if (surfaces) {
    const starts = ph(P_SURF_CELLS), items = ph(P_SURF_ITEMS);
    const end = load<i32>(starts + (cell << 2), 4);
    for (let j = load<i32>(starts + (cell << 2)); j < end; j++) {
      countCandidate();
      if (boxMode) castSurfaceBox(load<i32>(items + (j << 2)), x0, y0, dx, dy, boxHW, boxHH);
      else castSurface(load<i32>(items + (j << 2)), x0, y0, dx, dy, r);
    }
  }
  if (polyhedra) {
    const starts = ph(P_POLY_CELLS), items = ph(P_POLY_ITEMS);
    const end = load<i32>(starts + (cell << 2), 4);
    for (let j = load<i32>(starts + (cell << 2)); j < end; j++) {
      countCandidate();
      if (boxMode) castPolyhedronBox(load<i32>(items + (j << 2)), x0, y0, dx, dy, boxHW, boxHH);
      else castPolyhedron(load<i32>(items + (j << 2)), x0, y0, dx, dy, r);
    }
  }
}

/**
 * Closest hit of the box with min corner (x, y) and size w x h moving by (dx, dy) against the
 * surfaces (front sides) and/or polyhedra, exact (Minkowski sums): its centre (x + w / 2,
 * y + h / 2) moves to the centre plus (dx, dy). Returns 1 and writes C_* on a hit, else 0. It
 * takes the facade's own arguments, so the facade passes no computed double through a call. The same grid walk as castSegment: the facade keeps the box's half
 * diagonal within the grid radius, so every shape it can touch is listed in the cell holding its
 * centre at contact.
 */
export function castBox(x: f64, y: f64, w: f64, h: f64, dx: f64, dy: f64, surfaces: bool, polyhedra: bool): i32 {
  const hw = w / 2, hh = h / 2, cx = x + hw, cy = y + hh;
  boxHW = hw; boxHH = hh; boxMode = true;
  const hit = castSegment(cx, cy, cx + dx, cy + dy, 0, surfaces, polyhedra);
  boxMode = false;
  return hit;
}

/**
 * Closest hit of a circle of radius r (0: a ray or segment) moving from (x0, y0) to (x1, y1)
 * against the surfaces and/or polyhedra; returns 1 and writes C_* on a hit, else 0. Walks the
 * cells the centre's path crosses (Amanatides-Woo), plus the outside cell when an end lies beyond
 * the grid: every item a circle up to the grid radius can touch is listed in the cell holding its
 * centre at contact, so long casts cost what their length crosses, not their bounding box.
 */
export function castSegment(x0: f64, y0: f64, x1: f64, y1: f64, r: f64, surfaces: bool, polyhedra: bool): i32 {
  resetCounters();
  resetCast();
  const dx = x1 - x0, dy = y1 - y0;
  if (dx != 0 || dy != 0) {
    const cols = ph(P_GRID_COLS), rows = ph(P_GRID_ROWS);
    const inv = phF(P_GRID_INV);
    const outside = cols * rows;
    if (cellAt(x0, y0) == outside || cellAt(x1, y1) == outside) castCell(outside, x0, y0, dx, dy, r, surfaces, polyhedra);
    // The path in cell units, clipped to the grid box [0, cols] x [0, rows]: s in [sa, sb].
    const gx = (x0 - phF(P_GRID_OX)) * inv, gy = (y0 - phF(P_GRID_OY)) * inv;
    const gdx = dx * inv, gdy = dy * inv;
    let sa: f64 = 0, sb: f64 = 1;
    if (gdx == 0) {
      if (!(gx >= 0 && gx <= <f64>cols)) sb = -1;
    } else {
      const s1 = -gx / gdx, s2 = (<f64>cols - gx) / gdx;
      sa = max(sa, min(s1, s2));
      sb = min(sb, max(s1, s2));
    }
    if (gdy == 0) {
      if (!(gy >= 0 && gy <= <f64>rows)) sb = -1;
    } else {
      const s1 = -gy / gdy, s2 = (<f64>rows - gy) / gdy;
      sa = max(sa, min(s1, s2));
      sb = min(sb, max(s1, s2));
    }
    if (sa <= sb) {
      let col = <i32>min(max(Math.floor(gx + sa * gdx), 0), <f64>(cols - 1));
      let row = <i32>min(max(Math.floor(gy + sa * gdy), 0), <f64>(rows - 1));
      const stepX = gdx > 0 ? 1 : gdx < 0 ? -1 : 0, stepY = gdy > 0 ? 1 : gdy < 0 ? -1 : 0;
      // s at the next column (row) boundary, and s per cell.
      let nextX = stepX > 0 ? (<f64>(col + 1) - gx) / gdx : stepX < 0 ? (<f64>col - gx) / gdx : Infinity;
      let nextY = stepY > 0 ? (<f64>(row + 1) - gy) / gdy : stepY < 0 ? (<f64>row - gy) / gdy : Infinity;
      const deltaX = stepX != 0 ? 1 / Math.abs(gdx) : Infinity, deltaY = stepY != 0 ? 1 / Math.abs(gdy) : Infinity;
      for (let guard = cols + rows + 2; guard > 0; guard--) {
        castCell(row * cols + col, x0, y0, dx, dy, r, surfaces, polyhedra);
        if (min(nextX, nextY) > sb) break;
        if (nextX <= nextY) { col += stepX; nextX += deltaX; } else { row += stepY; nextY += deltaY; }
        if (col < 0 || col >= cols || row < 0 || row >= rows) break;
      }
    }
  }
  setPh(S_CANDIDATES, candidates);
  const hit = castKind != HIT_NONE;
  setPh(S_CONTACTS, hit ? 1 : 0);
  setPhF(C_T, hit ? castT : 1);
  setPhF(C_X, x0 + (hit ? castT : 1) * dx);
  setPhF(C_Y, y0 + (hit ? castT : 1) * dy);
  setPhF(C_NX, castNX);
  setPhF(C_NY, castNY);
  setPh(C_KIND, castKind);
  setPh(C_ID, hit ? castId : -1);
  return hit ? 1 : 0;
}
