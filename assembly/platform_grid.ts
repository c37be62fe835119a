// The platforms part's header and scratch access, and the static grid over the level
// (cell lists built by the facade at load time, bindings/platform_index.ts). Layout:
// layout/platforms.ts.
//
// Maths runs in f64 on the stored f32 values (as assembly/shapes.ts does): f64 operations are the
// same IEEE operations in wasm and in JS, so the wasm cores, the js backend (the scalar core
// translated by wasm2js) and the brute-force reference take the same decisions bit for bit, borderline contacts
// included. Only the stores back to f32 round, through toF32.
import { PLATFORMS_HEADER } from "../layout/grid.ts";
import {
  P_GRID_COLS, P_GRID_INV, P_GRID_OX, P_GRID_OY, P_GRID_ROWS, P_HALFSPACES, P_POLY_CELLS, P_POLY_EXTENT, P_POLY_ITEMS,
  P_BALL_HIT_PART, P_BALL_HIT_SHAPE, P_POLY_START, P_SURF_CELLS, P_SURF_ITEMS, P_SURFACES, PLATFORMS_SCRATCH, X_BALL_R, X_BALL_VX, X_BALL_VY, X_BALL_X,
  X_BALL_Y, X_BEST_NX, X_BEST_NY, X_BEST_T, X_BOX_HH, X_BOX_HW, X_CAST_DX, X_CAST_DY, X_CAST_R, X_CAST_X, X_CAST_X1,
  X_CAST_Y, X_CAST_Y1, P_REACH_BOXES, X_PATH_X0, X_PATH_X1, X_PATH_Y0, X_PATH_Y1,
} from "../layout/platforms.ts";
import { fieldAt } from "./header.ts";
import { f32At, f64At, i32At, setI32, truncI32 } from "./memory.ts";
import { PART_NONE } from "../layout/moves.ts";

// V8, running the js backend's translation, inlines a call only where it runs often
// enough and within a budget, and boxes a double passed to or returned from a call it does not
// inline: a heap allocation. So doubles are read and written through the leaf accessors f32At /
// f64At / setF32 / setF64 directly, at the constant addresses below (or hdr), the part's inner
// functions take and return integers only (but offerHit, called once per hit), and code that
// reads or writes doubles only on a rarely taken path is a function of its own. Per-item loops
// keep what they need in locals.

/** Address of header field `field` (layout/platforms.ts). */
// @ts-ignore: decorator
@inline export function hdr(field: i32): i32 {
  return fieldAt(PLATFORMS_HEADER, field);
}

// Addresses of the header fields the per-item functions read (region pointers, the grid), and of
// the f64 scratch slots (X_* in layout/platforms.ts, valid during one kernel call): constants, so a
// read is one leaf call (asc folds them).
export const AT_SURFACES = PLATFORMS_HEADER + (P_SURFACES << 2);
export const AT_SURF_CELLS = PLATFORMS_HEADER + (P_SURF_CELLS << 2);
export const AT_SURF_ITEMS = PLATFORMS_HEADER + (P_SURF_ITEMS << 2);
export const AT_HALFSPACES = PLATFORMS_HEADER + (P_HALFSPACES << 2);
export const AT_POLY_START = PLATFORMS_HEADER + (P_POLY_START << 2);
export const AT_POLY_CELLS = PLATFORMS_HEADER + (P_POLY_CELLS << 2);
export const AT_POLY_ITEMS = PLATFORMS_HEADER + (P_POLY_ITEMS << 2);
export const AT_POLY_EXTENT = PLATFORMS_HEADER + (P_POLY_EXTENT << 2);
export const AT_REACH_BOXES = PLATFORMS_HEADER + (P_REACH_BOXES << 2);
export const AT_GRID_COLS = PLATFORMS_HEADER + (P_GRID_COLS << 2);
export const AT_GRID_ROWS = PLATFORMS_HEADER + (P_GRID_ROWS << 2);
export const AT_GRID_INV = PLATFORMS_HEADER + (P_GRID_INV << 2);
export const AT_GRID_OX = PLATFORMS_HEADER + (P_GRID_OX << 2);
export const AT_GRID_OY = PLATFORMS_HEADER + (P_GRID_OY << 2);
const SCRATCH = PLATFORMS_HEADER + PLATFORMS_SCRATCH;
export const BALL_X = SCRATCH + (X_BALL_X << 3);
export const BALL_Y = SCRATCH + (X_BALL_Y << 3);
export const BALL_VX = SCRATCH + (X_BALL_VX << 3);
export const BALL_VY = SCRATCH + (X_BALL_VY << 3);
export const BALL_R = SCRATCH + (X_BALL_R << 3);
export const CAST_X = SCRATCH + (X_CAST_X << 3);
export const CAST_Y = SCRATCH + (X_CAST_Y << 3);
export const CAST_X1 = SCRATCH + (X_CAST_X1 << 3);
export const CAST_Y1 = SCRATCH + (X_CAST_Y1 << 3);
export const CAST_DX = SCRATCH + (X_CAST_DX << 3);
export const PATH_X0 = SCRATCH + (X_PATH_X0 << 3);
export const PATH_Y0 = SCRATCH + (X_PATH_Y0 << 3);
export const PATH_X1 = SCRATCH + (X_PATH_X1 << 3);
export const PATH_Y1 = SCRATCH + (X_PATH_Y1 << 3);
export const CAST_DY = SCRATCH + (X_CAST_DY << 3);
export const CAST_R = SCRATCH + (X_CAST_R << 3);
export const BOX_HW = SCRATCH + (X_BOX_HW << 3);
export const BOX_HH = SCRATCH + (X_BOX_HH << 3);
export const BEST_T = SCRATCH + (X_BEST_T << 3);
export const BEST_NX = SCRATCH + (X_BEST_NX << 3);
export const BEST_NY = SCRATCH + (X_BEST_NY << 3);

// Counters of the current call, flushed to S_* at its end. The loops count in locals and add
// once per call: a store to a module variable in a js loop makes V8 reload every imported binding.
export let candidates = 0;
export let contacts = 0;

export function resetCounters(): void {
  candidates = 0;
  contacts = 0;
}

// Where the stepped ball's last box contact goes (ball_boxes.ts): its entries of P_BALL_HIT_PART and
// _SHAPE. stepBalls points these at each ball and clears them when the world has boxes for balls.
let hitParts = 0;
let hitShapes = 0;
let hitAt = 0;

/** Reads where the step's contact notes go (once per step). */
export function beginNotes(): void {
  hitParts = i32At(hdr(P_BALL_HIT_PART));
  hitShapes = i32At(hdr(P_BALL_HIT_SHAPE));
}

/** Points the contact notes at the entries of the ball at byte offset `o` in the ball stores, and clears them. */
// @ts-ignore: decorator
@inline export function noteBall(o: i32): void {
  hitAt = o;
  setI32(hitParts + o, PART_NONE);
  setI32(hitShapes + o, -1);
}

/** Notes a box contact of the stepped ball with shape `id` of `part`: the last one of the step stays. */
// @ts-ignore: decorator
@inline export function noteContact(part: i32, id: i32): void {
  setI32(hitParts + hitAt, part);
  setI32(hitShapes + hitAt, id);
}

/** Adds `tested` candidates and `touched` contacts to the current call's counters. */
export function count(tested: i32, touched: i32): void {
  candidates += tested;
  contacts += touched;
}

/**
 * Cell index of the point (f64 x, then y) at address `point` (BALL_X, CAST_X or CAST_X1):
 * row * cols + col, or cols * rows (the outside cell) beyond the grid or for NaN.
 */
export function cellOf(point: i32): i32 {
  const cols = i32At(AT_GRID_COLS), rows = i32At(AT_GRID_ROWS);
  const inv = <f64>f32At(AT_GRID_INV);
  const tx = (f64At(point) - <f64>f32At(AT_GRID_OX)) * inv;
  const ty = (f64At(point + 8) - <f64>f32At(AT_GRID_OY)) * inv;
  // Compared as floats first: NaN and huge values land outside rather than in a saturated cell.
  if (!(tx >= 0 && tx < <f64>cols && ty >= 0 && ty < <f64>rows)) return cols * rows;
  return truncI32(ty) * cols + truncI32(tx);
}
