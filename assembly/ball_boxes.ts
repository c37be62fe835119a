// Balls against the other parts of the world: the tile map's solid cells and the rect level's
// rects, each an axis-aligned box treated as the convex polyhedron of "Hit Detection with
// Polyhedra" that the box is (four halfspaces). A ball of radius r touches a box when its centre
// is inside the box grown by r on every side (that tutorial's point test with every face moved out
// by r, corners square); it is then pushed out along the nearest face and loses the velocity
// component into it (its `deflect`), exactly as polyhedra.ts does for the platforms' polyhedra.
// Layout: layout/platforms.ts (scratch), layout/tiles.ts, layout/rects.ts.
//
// Seams: a floor of boxes side by side has faces inside it, between two boxes. A ball rolling over
// the line between them is inside the next box's grown side face sooner than its top face
// would win, and a push along that face would stop it. So a face is a seam when the point just
// beyond it (a sixteenth of the radius out, level with the ball's centre as far as the face
// reaches) lies in another solid box: a solid or one-way cell, or a rect near the ball. When the
// nearest face is a seam and the ball's centre lies beyond it, the box leaves the ball to the box
// on the other side; when the centre is inside the box, the nearest face that leads into open
// space pushes, and a ball buried in solid mass, where no face does, takes the nearest face.
//
// One-way cells block only a ball coming down onto their top: moving down (vy > 0) when it meets
// the cell, with its bottom at or above the cell's top at the start of the sub-step that moved it
// in (X_SUB_Y: the y before its last move, kept in P_BALL_LAST_Y from one step to the next), and then
// push it up only. The comparison allows the f32 rounding of a stored position, so a ball resting
// on the top stays there.
//
// Doubles pass between these functions through the scratch slots (X_BOX_*, X_PROBE_*, X_SUB_Y),
// not arguments or module variables: the js backend would box them (platform_grid.ts).
import { PART_RECTS, PART_TILES } from "../layout/moves.ts";
import { PLATFORMS_SCRATCH, X_BOX_X0, X_NEAR_X0, X_PROBE_X, X_PROBE_Y, X_SUB_Y } from "../layout/platforms.ts";
import { PLATFORMS_HEADER } from "../layout/grid.ts";
import {
  RH_CANDS, RH_DEPTH, RH_INSTANCES,
} from "../layout/rects.ts";
import { CELL_ONE_WAY, CELL_PLATFORM, P_TILE, T_CELLS, T_COLS, T_FLOOR, T_PARAMS, T_ROWS, T_WRAP } from "../layout/tiles.ts";
import { BALL_R, BALL_VX, BALL_VY, BALL_X, BALL_Y, count, noteContact } from "./platform_grid.ts";
import { f64At, i32At, setF64, setI32 } from "./memory.ts";
import { tileFlags } from "./moves.ts";
import { rectEnd, rectStart, rh, treeQueryAt, worldRectInto } from "./rect_level.ts";
import { th } from "./tile_map.ts";

const SCRATCH = PLATFORMS_HEADER + PLATFORMS_SCRATCH;
export const SUB_Y = SCRATCH + (X_SUB_Y << 3);
// A box is four consecutive slots: x0, y0, x1, y1.
const BOX_X0 = SCRATCH + (X_BOX_X0 << 3);
const BOX_Y0 = BOX_X0 + 8;
const BOX_X1 = BOX_X0 + 16;
const BOX_Y1 = BOX_X0 + 24;
const NEAR = SCRATCH + (X_NEAR_X0 << 3);
const PROBE_X = SCRATCH + (X_PROBE_X << 3);
const PROBE_Y = SCRATCH + (X_PROBE_Y << 3);

// Faces, in the order ties go: top, bottom, left, right (a ball on a corner lands on it).
const TOP = 0, BOTTOM = 1, LEFT = 2, RIGHT = 3;
const SOLID = CELL_PLATFORM | CELL_ONE_WAY;

/** Which other parts the balls meet this step: 1 tiles, 2 rects (their instances indexed). */
export function levelBoxes(): i32 {
  let parts = 0;
  if (th(T_COLS) > 0 && th(T_ROWS) > 0) parts |= 1;
  if (rh(RH_INSTANCES) > 0 && rh(RH_DEPTH) >= 0) parts |= 2;
  return parts;
}

// The rect candidates of the current sub-step (instances in RH_CANDS): the seam test reads them.
let candCount = 0;
let useTiles = false;

/**
 * The ball (BALL_*) against the solid cells and the rects near it (`parts` from levelBoxes): each
 * box it is inside pushes it out, cells first (row by row), then rects (instances as the quadtree
 * finds them, their rects in prefab order).
 */
export function foldBoxes(parts: i32): void {
  const r = f64At(BALL_R);
  // Seam probes go a sixteenth of the radius past a face (and a little more, for r = 0).
  const eps = r * 0.0625 + 1e-6;
  useTiles = (parts & 1) != 0;
  candCount = 0;
  let tested = 0, touched = 0;
  if ((parts & 2) != 0) {
    // Rects whose boxes the seam probes can reach as well as the ball: two radii around it.
    const px = f64At(BALL_X), py = f64At(BALL_Y), reach = 2 * r + 4 * eps;
    setF64(NEAR, px - reach);
    setF64(NEAR + 8, py - reach);
    setF64(NEAR + 16, px + reach);
    setF64(NEAR + 24, py + reach);
    candCount = treeQueryAt(NEAR, rh(RH_CANDS));
  }
  if (useTiles) {
    const cols = th(T_COLS), rows = th(T_ROWS), wrap = th(T_WRAP) != 0, floor = th(T_FLOOR) != 0, cells = th(T_CELLS);
    const size = f64At(th(T_PARAMS) + (P_TILE << 3)), inv = 1 / size;
    const px = f64At(BALL_X), py = f64At(BALL_Y);
    // One cell more on each side than the grown box reaches: a ball touching a cell's edge is inside it.
    const c0 = <i32>Math.floor((px - r) * inv) - 1, c1 = <i32>Math.floor((px + r) * inv) + 1;
    const r0 = <i32>Math.floor((py - r) * inv) - 1, r1 = <i32>Math.floor((py + r) * inv) + 1;
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const flags = tileFlags(col, row, cols, rows, wrap, floor, cells);
        if ((flags & SOLID) == 0) continue;
        tested++;
        setF64(BOX_X0, <f64>col * size);
        setF64(BOX_Y0, <f64>row * size);
        setF64(BOX_X1, <f64>(col + 1) * size);
        setF64(BOX_Y1, <f64>(row + 1) * size);
        if (resolveBox((flags & CELL_PLATFORM) == 0)) {
          touched++;
          // The cell's index as moveBodies reports it: wrapped, -1 for the walls and floor around the map.
          noteContact(PART_TILES, row >= rows || (!wrap && (col < 0 || col >= cols)) ? -1 : row * cols + ((col % cols) + cols) % cols);
        }
      }
    }
  }
  const cands = rh(RH_CANDS);
  for (let k = 0; k < candCount; k++) {
    const i = i32At(cands + (k << 2));
    const end = rectEnd(i);
    for (let q = rectStart(i); q < end; q++) {
      tested++;
      worldRectInto(i, q, BOX_X0);
      if (resolveBox(false)) {
        touched++;
        noteContact(PART_RECTS, i);
      }
    }
  }
  count(tested, touched);
}

/**
 * The ball (BALL_*) against the box BOX_*: when its centre is inside the box grown by r (touching
 * counts, as for polyhedra), pushes it out along the nearest face that is not a seam and drops the
 * velocity component into that face. A one-way box only takes a ball coming down onto its top.
 * Returns whether the ball touched it.
 */
function resolveBox(oneWay: bool): bool {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const x0 = f64At(BOX_X0), y0 = f64At(BOX_Y0), x1 = f64At(BOX_X1), y1 = f64At(BOX_Y1);
  // The four faces' distances (n . p - offset - r, <= 0 inside), early out at the first beyond.
  const dTop = y0 - py - r;
  if (dTop > 0) return false;
  const dBottom = py - y1 - r;
  if (dBottom > 0) return false;
  const dLeft = x0 - px - r;
  if (dLeft > 0) return false;
  const dRight = px - x1 - r;
  if (dRight > 0) return false;
  if (oneWay) {
    const bottom = f64At(SUB_Y) + r;
    if (!(f64At(BALL_VY) > 0 && bottom <= y0 + (Math.abs(y0) + r) * (1.0 / 1048576))) return false;
    pushOut(TOP);
    return true;
  }
  let skipped = 0;
  for (let round = 0; round < 4; round++) {
    // The nearest face not yet found to be a seam (ties: top, bottom, left, right).
    let face = -1, best = -Infinity;
    if ((skipped & 1) == 0 && dTop > best) { face = TOP; best = dTop; }
    if ((skipped & 2) == 0 && dBottom > best) { face = BOTTOM; best = dBottom; }
    if ((skipped & 4) == 0 && dLeft > best) { face = LEFT; best = dLeft; }
    if ((skipped & 8) == 0 && dRight > best) { face = RIGHT; best = dRight; }
    if (!seam(face)) {
      pushOut(face);
      return true;
    }
    // The nearest face is a seam and the centre lies beyond it, over the box on the other side:
    // that box resolves the ball, this one leaves it (pushing it along a far face would throw it
    // through the floor at an inner corner).
    if (round == 0 && best > -r) return false;
    skipped |= 1 << face;
  }
  // Every face leads into solid mass: the nearest one.
  let face = TOP, best = dTop;
  if (dBottom > best) { face = BOTTOM; best = dBottom; }
  if (dLeft > best) { face = LEFT; best = dLeft; }
  if (dRight > best) { face = RIGHT; best = dRight; }
  pushOut(face);
  return true;
}

/**
 * Moves the ball out along `face` of BOX_* (to touching it) and drops the velocity component into
 * it. The face's distance is computed again here, the same double resolveBox chose it by, so no
 * double crosses the call.
 */
function pushOut(face: i32): void {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const nx: f64 = face == LEFT ? -1 : face == RIGHT ? 1 : 0;
  const ny: f64 = face == TOP ? -1 : face == BOTTOM ? 1 : 0;
  const dist = face == TOP ? f64At(BOX_Y0) - py - r : face == BOTTOM ? py - f64At(BOX_Y1) - r :
    face == LEFT ? f64At(BOX_X0) - px - r : px - f64At(BOX_X1) - r;
  const vx = f64At(BALL_VX), vy = f64At(BALL_VY);
  const vn = nx * vx + ny * vy;
  setF64(BALL_X, px - dist * nx);
  setF64(BALL_Y, py - dist * ny);
  setF64(BALL_VX, vn <= 0 ? vx - vn * nx : vx);
  setF64(BALL_VY, vn <= 0 ? vy - vn * ny : vy);
}

/** Whether `face` of BOX_* is a seam: the point just beyond it, level with the ball, lies in another solid box. */
function seam(face: i32): bool {
  const px = f64At(BALL_X), py = f64At(BALL_Y), r = f64At(BALL_R);
  const x0 = f64At(BOX_X0), y0 = f64At(BOX_Y0), x1 = f64At(BOX_X1), y1 = f64At(BOX_Y1);
  const eps = r * 0.0625 + 1e-6;
  // Along the face: the ball's centre, kept eps inside the face's ends (its middle if it is shorter).
  const sx = x1 - x0 > 2 * eps ? Math.min(Math.max(px, x0 + eps), x1 - eps) : (x0 + x1) * 0.5;
  const sy = y1 - y0 > 2 * eps ? Math.min(Math.max(py, y0 + eps), y1 - eps) : (y0 + y1) * 0.5;
  setF64(PROBE_X, face == LEFT ? x0 - eps : face == RIGHT ? x1 + eps : sx);
  setF64(PROBE_Y, face == TOP ? y0 - eps : face == BOTTOM ? y1 + eps : sy);
  return solidAt();
}

/** Whether PROBE_* lies in a solid or one-way cell, or in a rect of the current candidates (closed boxes). */
function solidAt(): bool {
  const qx = f64At(PROBE_X), qy = f64At(PROBE_Y);
  if (useTiles) {
    const size = f64At(th(T_PARAMS) + (P_TILE << 3));
    const col = <i32>Math.floor(qx / size), row = <i32>Math.floor(qy / size);
    if ((tileFlags(col, row, th(T_COLS), th(T_ROWS), th(T_WRAP) != 0, th(T_FLOOR) != 0, th(T_CELLS)) & SOLID) != 0) return true;
  }
  const cands = rh(RH_CANDS);
  for (let k = 0; k < candCount; k++) {
    const i = i32At(cands + (k << 2));
    const end = rectEnd(i);
    for (let q = rectStart(i); q < end; q++) {
      // The box under test is in this list too; the probe lies outside it, so it never counts.
      if (probeInRect(i, q)) return true;
    }
  }
  return false;
}

/** Whether PROBE_* lies in the world box of prefab rect q placed by instance i (closed). */
function probeInRect(i: i32, q: i32): bool {
  worldRectInto(i, q, NEAR);
  const qx = f64At(PROBE_X), qy = f64At(PROBE_Y);
  return qx >= f64At(NEAR) && qx <= f64At(NEAR + 16) && qy >= f64At(NEAR + 8) && qy <= f64At(NEAR + 24);
}
