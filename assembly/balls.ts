// The batch step for many balls (the seeds' `simulationUpdate`: accelerate, hit-detect and deflect,
// integrate; against the surfaces and polyhedra, then the world's tile cells and rects as boxes,
// ball_boxes.ts), point queries, and segment / swept-circle casts against the level. One call per
// frame; results stay in the stores and the header. Layout: layout/platforms.ts.
//
// Tunneling: a ball moving more than half its radius in a step is sub-stepped (hit detection then
// integration per sub-step), so its centre cannot cross a surface's band (r thick) or a
// polyhedron (at least 2r thick once its faces move out by r) without landing inside it. At most
// P_MAX_SUBSTEPS sub-steps run; a faster ball has its speed capped to fit them (a terminal speed
// of max * r / (2 dt)), so no drop height passes through a platform.
import {
  C_ID, C_NX, C_NY, C_PART, C_T, C_X, C_Y, P_BALL_COUNT, P_BALL_HIT_PART, P_BALL_HIT_SHAPE, P_BALL_LAST_Y, P_BALL_PREV_VY, P_BALL_PREV_Y, P_BAX, P_BAY, P_BR, P_BVX, P_BVY, P_BX, P_BY,
  P_EXACT, P_GRID_RADIUS, P_MAX_SUBSTEPS, P_RES_X, P_RES_Y, P_RESULTS, P_RESULTS_CAP, S_CANDIDATES, S_CONTACTS,
  S_SKIPPED, S_SUBSTEPS, SURF_STRIDE, P_SURF_COUNT,
} from "../layout/platforms.ts";
import { PART_NONE } from "../layout/moves.ts";
import {
  AT_GRID_COLS, AT_GRID_INV, AT_GRID_OX, AT_GRID_OY, AT_GRID_ROWS, AT_POLY_CELLS, AT_POLY_ITEMS, AT_SURF_CELLS,
  AT_SURF_ITEMS, AT_SURFACES, BALL_R, BALL_VX, BALL_VY, BALL_X, BALL_Y, BEST_NX, BEST_NY, BEST_T, BOX_HH, BOX_HW,
  AT_REACH_BOXES, beginNotes, candidates, CAST_DX, noteBall, CAST_DY, PATH_X0, PATH_X1, PATH_Y0, PATH_Y1, CAST_R, CAST_X, CAST_X1, CAST_Y, CAST_Y1, cellOf, contacts, count, hdr, resetCounters,
} from "./platform_grid.ts";
import { f32At, f64At, i32At, pick, setF32, setF64, setI32, toF32, truncI32 } from "./memory.ts";
import { castPolyhedron, castPolyhedronBox, foldPolyhedra, insidePolyhedron } from "./polyhedra.ts";
import { castId, castPart, castSurface, castSurfaceBox, foldSurfaces, resetCast, surfaceTouches } from "./surfaces.ts";
import { foldBoxes, levelBoxes, SUB_Y } from "./ball_boxes.ts";

/** Steps every ball by dt seconds; returns the contacts found (S_* hold the details). */
export function stepBalls(dt: f64): i32 {
  resetCounters();
  const n = i32At(hdr(P_BALL_COUNT));
  const xp = i32At(hdr(P_BX)), yp = i32At(hdr(P_BY)), vxp = i32At(hdr(P_BVX)), vyp = i32At(hdr(P_BVY));
  const axp = i32At(hdr(P_BAX)), ayp = i32At(hdr(P_BAY)), rp = i32At(hdr(P_BR));
  const resX = <f64>f32At(hdr(P_RES_X)), resY = <f64>f32At(hdr(P_RES_Y));
  const maxR = <f64>f32At(hdr(P_GRID_RADIUS));
  const surfCells = i32At(AT_SURF_CELLS), polyCells = i32At(AT_POLY_CELLS);
  const exact = i32At(hdr(P_EXACT)) != 0;
  const maxAsked = i32At(hdr(P_MAX_SUBSTEPS));
  const maxSub = pick(maxAsked, 1, maxAsked > 1);
  // The tile map's cells and the rect level's rects, when the world holds them (ball_boxes.ts).
  const boxes = levelBoxes();
  const lastp = i32At(hdr(P_BALL_LAST_Y)), prevYp = i32At(hdr(P_BALL_PREV_Y)), prevVyp = i32At(hdr(P_BALL_PREV_VY));
  beginNotes();
  let substeps = 0, skipped = 0;
  for (let i = 0; i < n; i++) {
    const o = i << 2;
    const yf = f32At(yp + o), vyf = f32At(vyp + o);
    // y and vy before the step, as stored: the world's controllerContacts tells a stomp by them.
    setF32(prevYp + o, yf);
    setF32(prevVyp + o, vyf);
    if (boxes != 0) noteBall(o); // no box contact yet
    const x = <f64>f32At(xp + o), y = <f64>yf;
    let vx = <f64>f32At(vxp + o), vy = <f64>vyf;
    const ax = <f64>f32At(axp + o), ay = <f64>f32At(ayp + o), r = <f64>f32At(rp + o);
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
          steps = truncI32(need);
        }
      }
    }
    const h = dt / <f64>steps;
    setF64(BALL_X, x);
    setF64(BALL_Y, y);
    setF64(BALL_VX, vx);
    setF64(BALL_VY, vy);
    setF64(BALL_R, r);
    if (boxes != 0) setF64(SUB_Y, <f64>f32At(lastp + o));
    for (let s = 0; s < steps; s++) {
      // Surfaces only turn the velocity, so the polyhedra start in the same cell. Cells with no
      // surfaces (polyhedra) need no fold.
      const cell = cellOf(BALL_X), at = cell << 2;
      if (i32At(surfCells + at) != i32At(surfCells + at + 4)) foldSurfaces(cell, exact);
      if (i32At(polyCells + at) != i32At(polyCells + at + 4)) foldPolyhedra(cell);
      if (boxes != 0) {
        foldBoxes(boxes);
        setF64(SUB_Y, f64At(BALL_Y)); // where the move below starts
      }
      // velocerate
      setF64(BALL_X, f64At(BALL_X) + h * f64At(BALL_VX));
      setF64(BALL_Y, f64At(BALL_Y) + h * f64At(BALL_VY));
    }
    substeps += steps;
    setF32(xp + o, toF32(f64At(BALL_X)));
    setF32(yp + o, toF32(f64At(BALL_Y)));
    setF32(vxp + o, toF32(f64At(BALL_VX)));
    setF32(vyp + o, toF32(f64At(BALL_VY)));
    if (boxes != 0) setF32(lastp + o, toF32(f64At(SUB_Y)));
  }
  setI32(hdr(S_CANDIDATES), candidates);
  setI32(hdr(S_CONTACTS), contacts);
  setI32(hdr(S_SUBSTEPS), substeps);
  setI32(hdr(S_SKIPPED), skipped);
  return contacts;
}

/** Surfaces whose hit region (trapezium, or rounded when exact) holds (x, y) for radius r, ascending ids into P_RESULTS; returns how many. */
export function touchSurfaces(x: f64, y: f64, r: f64, exact: bool): i32 {
  const starts = i32At(AT_SURF_CELLS), items = i32At(AT_SURF_ITEMS);
  const out = i32At(hdr(P_RESULTS)), cap = i32At(hdr(P_RESULTS_CAP));
  setF64(BALL_X, x); setF64(BALL_Y, y); setF64(BALL_R, r); // the ball the tests read
  const cell = cellOf(BALL_X);
  const start = i32At(starts + (cell << 2)), end = i32At(starts + (cell << 2) + 4);
  let found = 0;
  for (let j = start; j < end; j++) {
    const s = i32At(items + (j << 2));
    if (surfaceTouches(s, exact)) {
      if (found < cap) setI32(out + (found << 2), s);
      found++;
    }
  }
  setI32(hdr(S_CANDIDATES), end - start);
  setI32(hdr(S_CONTACTS), found);
  return found;
}

/** Polyhedra holding a ball of radius r at (x, y), ascending ids into P_RESULTS; returns how many. */
export function insidePolyhedra(x: f64, y: f64, r: f64): i32 {
  const starts = i32At(AT_POLY_CELLS), items = i32At(AT_POLY_ITEMS);
  const out = i32At(hdr(P_RESULTS)), cap = i32At(hdr(P_RESULTS_CAP));
  setF64(BALL_X, x); setF64(BALL_Y, y); setF64(BALL_R, r); // the ball the tests read
  const cell = cellOf(BALL_X);
  const start = i32At(starts + (cell << 2)), end = i32At(starts + (cell << 2) + 4);
  let found = 0;
  for (let j = start; j < end; j++) {
    const k = i32At(items + (j << 2));
    if (insidePolyhedron(k)) {
      if (found < cap) setI32(out + (found << 2), k);
      found++;
    }
  }
  setI32(hdr(S_CANDIDATES), end - start);
  setI32(hdr(S_CONTACTS), found);
  return found;
}

// Whether the current cast is castBox's swept box (half extents BOX_*), or castSegment's circle.
let boxMode = false;

/**
 * Whether the reach box at `box` (f32 x4) misses the current cast's centre path box (x0, y0, x1,
 * y1). The four comparisons or'ed, not chained: one branch for the caller rather than up to four,
 * each as unpredictable as the boxes around a cast.
 */
// @ts-ignore: decorator
@inline function pathMisses(box: i32, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return ((<i32>(<f64>f32At(box) > x1)) | (<i32>(<f64>f32At(box + 8) < x0)) | (<i32>(<f64>f32At(box + 4) > y1)) | (<i32>(<f64>f32At(box + 12) < y0))) != 0;
}

/**
 * Tests every item of one cell's lists against the current cast (CAST_*). An item whose reach box
 * the centre's path misses cannot be hit (the centre at contact lies in it) and is not tested.
 */
function castCell(cell: i32, surfaces: bool, polyhedra: bool): void {
  const boxes = i32At(AT_REACH_BOXES);
  const x0 = f64At(PATH_X0), y0 = f64At(PATH_Y0), x1 = f64At(PATH_X1), y1 = f64At(PATH_Y1);
  if (surfaces) {
    const starts = i32At(AT_SURF_CELLS), items = i32At(AT_SURF_ITEMS), records = i32At(AT_SURFACES);
    const dx = f64At(CAST_DX), dy = f64At(CAST_DY);
    const start = i32At(starts + (cell << 2)), end = i32At(starts + (cell << 2) + 4);
    for (let j = start; j < end; j++) {
      const s = i32At(items + (j << 2)), p = records + s * (SURF_STRIDE << 2);
      // Surfaces are hit only while moving toward their front (d . n < 0): the others need no call.
      if (pathMisses(boxes + (s << 4), x0, y0, x1, y1) | !(dx * <f64>f32At(p) + dy * <f64>f32At(p + 4) < 0)) continue;
      if (boxMode) castSurfaceBox(s);
      else castSurface(s);
    }
    count(end - start, 0);
  }
  if (polyhedra) {
    const starts = i32At(AT_POLY_CELLS), items = i32At(AT_POLY_ITEMS);
    const start = i32At(starts + (cell << 2)), end = i32At(starts + (cell << 2) + 4);
    const polyBoxes = boxes + (i32At(hdr(P_SURF_COUNT)) << 4);
    for (let j = start; j < end; j++) {
      const k = i32At(items + (j << 2));
      if (pathMisses(polyBoxes + (k << 4), x0, y0, x1, y1)) continue;
      if (boxMode) castPolyhedronBox(k);
      else castPolyhedron(k);
    }
    count(end - start, 0);
  }
}

/**
 * Closest hit of the box with min corner (x, y) and size w x h moving by (dx, dy) against the
 * surfaces (front sides) and/or polyhedra, exact (Minkowski sums): its centre (x + w / 2,
 * y + h / 2) moves to the centre plus (dx, dy). Returns 1 and writes C_* on a hit, else 0. It
 * takes the facade's own arguments, so the facade passes no computed double through a call. The
 * same grid walk as castSegment: the facade keeps the box's half diagonal within the grid radius,
 * so every shape it can touch is listed in the cell holding its centre at contact.
 */
export function castBox(x: f64, y: f64, w: f64, h: f64, dx: f64, dy: f64, surfaces: bool, polyhedra: bool): i32 {
  const hw = w / 2, hh = h / 2, cx = x + hw, cy = y + hh;
  setF64(BOX_HW, hw);
  setF64(BOX_HH, hh);
  setF64(CAST_X, cx);
  setF64(CAST_Y, cy);
  setF64(CAST_X1, cx + dx);
  setF64(CAST_Y1, cy + dy);
  setF64(CAST_R, 0);
  boxMode = true;
  const hit = castPath(surfaces, polyhedra);
  boxMode = false;
  return hit;
}

/**
 * Closest hit of a circle of radius r (0: a ray or segment) moving from (x0, y0) to (x1, y1)
 * against the surfaces and/or polyhedra; returns 1 and writes C_* on a hit, else 0.
 */
export function castSegment(x0: f64, y0: f64, x1: f64, y1: f64, r: f64, surfaces: bool, polyhedra: bool): i32 {
  setF64(CAST_X, x0);
  setF64(CAST_Y, y0);
  setF64(CAST_X1, x1);
  setF64(CAST_Y1, y1);
  setF64(CAST_R, r);
  return castPath(surfaces, polyhedra);
}

/**
 * The cast from CAST_X, _Y to CAST_X1, _Y1 (a circle of radius CAST_R, or castBox's box).
 * Walks the cells the centre's path crosses (Amanatides-Woo), plus the outside cell when an end
 * lies beyond the grid: every item a circle up to the grid radius can touch is listed in the cell
 * holding its centre at contact, so long casts cost what their length crosses, not their
 * bounding box.
 */
function castPath(surfaces: bool, polyhedra: bool): i32 {
  resetCounters();
  const x0 = f64At(CAST_X), y0 = f64At(CAST_Y);
  const dx = f64At(CAST_X1) - x0, dy = f64At(CAST_Y1) - y0;
  setF64(CAST_DX, dx);
  setF64(CAST_DY, dy);
  setF64(PATH_X0, Math.min(x0, x0 + dx));
  setF64(PATH_Y0, Math.min(y0, y0 + dy));
  setF64(PATH_X1, Math.max(x0, x0 + dx));
  setF64(PATH_Y1, Math.max(y0, y0 + dy));
  resetCast();
  if (dx != 0 || dy != 0) {
    const cols = i32At(AT_GRID_COLS), rows = i32At(AT_GRID_ROWS);
    const inv = <f64>f32At(AT_GRID_INV);
    const outside = cols * rows, first = cellOf(CAST_X), last = cellOf(CAST_X1);
    if (first == last && first != outside) {
      castCell(first, surfaces, polyhedra); // a path within one cell (most short casts): no walk
      return endCast(x0, y0, dx, dy);
    }
    if (first == outside || last == outside) castCell(outside, surfaces, polyhedra);
    // The path in cell units, clipped to the grid box [0, cols] x [0, rows]: s in [sa, sb].
    const gx = (x0 - <f64>f32At(AT_GRID_OX)) * inv, gy = (y0 - <f64>f32At(AT_GRID_OY)) * inv;
    const gdx = dx * inv, gdy = dy * inv;
    let sa: f64 = 0, sb: f64 = 1;
    if (gdx == 0) {
      if (!(gx >= 0 && gx <= <f64>cols)) sb = -1;
    } else {
      const s1 = -gx / gdx, s2 = (<f64>cols - gx) / gdx;
      sa = Math.max(sa, Math.min(s1, s2));
      sb = Math.min(sb, Math.max(s1, s2));
    }
    if (gdy == 0) {
      if (!(gy >= 0 && gy <= <f64>rows)) sb = -1;
    } else {
      const s1 = -gy / gdy, s2 = (<f64>rows - gy) / gdy;
      sa = Math.max(sa, Math.min(s1, s2));
      sb = Math.min(sb, Math.max(s1, s2));
    }
    if (sa <= sb) {
      let col = truncI32(Math.min(Math.max(Math.floor(gx + sa * gdx), 0), <f64>(cols - 1)));
      let row = truncI32(Math.min(Math.max(Math.floor(gy + sa * gdy), 0), <f64>(rows - 1)));
      const stepX = gdx > 0 ? 1 : gdx < 0 ? -1 : 0, stepY = gdy > 0 ? 1 : gdy < 0 ? -1 : 0;
      // s at the next column (row) boundary, and s per cell.
      let nextX = stepX > 0 ? (<f64>(col + 1) - gx) / gdx : stepX < 0 ? (<f64>col - gx) / gdx : Infinity;
      let nextY = stepY > 0 ? (<f64>(row + 1) - gy) / gdy : stepY < 0 ? (<f64>row - gy) / gdy : Infinity;
      const deltaX = stepX != 0 ? 1 / Math.abs(gdx) : Infinity, deltaY = stepY != 0 ? 1 / Math.abs(gdy) : Infinity;
      for (let guard = cols + rows + 2; guard > 0; guard--) {
        castCell(row * cols + col, surfaces, polyhedra);
        if (Math.min(nextX, nextY) > sb) break;
        if (nextX <= nextY) { col += stepX; nextX += deltaX; } else { row += stepY; nextY += deltaY; }
        if (col < 0 || col >= cols || row < 0 || row >= rows) break;
      }
    }
  }
  return endCast(x0, y0, dx, dy);
}

/** castPath's end: the stats, and the closest hit of the cast from (x0, y0) by (dx, dy) into C_*; returns 1 on a hit. */
function endCast(x0: f64, y0: f64, dx: f64, dy: f64): i32 {
  setI32(hdr(S_CANDIDATES), candidates);
  const hit = castPart != PART_NONE;
  setI32(hdr(S_CONTACTS), hit ? 1 : 0);
  const t = hit ? f64At(BEST_T) : 1;
  setF32(hdr(C_T), toF32(t));
  setF32(hdr(C_X), toF32(x0 + t * dx));
  setF32(hdr(C_Y), toF32(y0 + t * dy));
  setF32(hdr(C_NX), toF32(f64At(BEST_NX)));
  setF32(hdr(C_NY), toF32(f64At(BEST_NY)));
  setI32(hdr(C_PART), castPart);
  setI32(hdr(C_ID), hit ? castId : -1);
  return hit ? 1 : 0;
}
