// Contacts of every controller with the bodies of a group mask, in one call (layout/contacts.ts):
// balls (circles), four-sensor characters and tile controllers (boxes) against the live bodies
// whose groups meet the mask, each contact classified as a stomp, a hurt or a pick-up.
//
// - The bodies are found through the grid: one home-grid build over the mask (buildGrid's, in
//   the pair queries' grid regions), then each controller looks at the cells
//   its box can reach (one cell back, as a home grid's queries do) and at the large list, as
//   probeGrid does. The f32 box test there keeps every pair the exact test can find.
// - Overlap is open: the controller's interior must meet the body (a point strictly inside, a
//   circle or rect reaching past the controller's edge); a controller only touching a body has no
//   contact with it. Computed in f64 on the stored values, the same operations in every backend.
// - Type: PICK_UP when the body's groups meet the pick-up mask; else STOMP when the controller was
//   falling (its vy > 0 at the start of its last step, y down) and its bottom was then at or above
//   the body's top (what each controller's step keeps: P_BALL_PREV_*, RH_CPREV, CF_PREV_*); else HURT.
import {
  ENTRY_BYTES, G_COLS, G_INV, G_INVY, G_LARGE, G_MAXX, G_MAXY, G_OX, G_OY, G_ROWS, H_A, H_B, H_BOX, H_CELLS, H_ENTRIES, H_GROUPS,
  H_KIND, H_LARGE, H_SEL, H_X, H_Y, KIND_CIRCLE, KIND_POINT, KIND_SHIFT, PLATFORMS_HEADER, TAG_SLOT, WORLD_HEADER,
} from "../layout/grid.ts";
import {
  CONTACT_FIELDS, CONTACT_HURT, CONTACT_PICK_UP, CONTACT_STOMP, CONTACTS_SCRATCH, CONTROLLER_BALL, CONTROLLER_CHARACTER,
  CONTROLLER_TILE, W_CONTACT_CAP, W_CONTACTS, X_C_CX, X_C_CY, X_C_PREV_BOTTOM, X_C_PREV_VY, X_C_R, X_C_X0, X_C_X1, X_C_Y0,
  X_C_Y1,
} from "../layout/contacts.ts";
import { P_BALL_COUNT, P_BALL_PREV_VY, P_BALL_PREV_Y, P_BR, P_BX, P_BY } from "../layout/platforms.ts";
import { CHAR_NONE, RH_CH, RH_CHARS, RH_CKIND, RH_CPREV, RH_CW, RH_CX, RH_CY } from "../layout/rects.ts";
import { CF_PREV_DY, CF_PREV_Y, CF_X, CF_Y, CTL_F_FIELDS, CTL_I_FIELDS, CI_STATE, P_H, P_W, ST_LIVE, T_CTL_CAP, T_CTL_F, T_CTL_I, T_PARAMS } from "../layout/tiles.ts";
import { buildGrid } from "./grid/build.ts";
import { cellOf, recordOverlaps } from "./grid/boxes.ts";
import { invalidSlots } from "./grid/check.ts";
import { hdr, hdrF, headerI32 } from "./header.ts";
import { f32At, f64At, i32At, maxI32, setF64, setI32, toF32, u8At } from "./memory.ts";
import { rh } from "./rect_level.ts";
import { th } from "./tile_map.ts";

const SCRATCH = WORLD_HEADER + CONTACTS_SCRATCH;
const C_X0 = SCRATCH + (X_C_X0 << 3);
const C_Y0 = SCRATCH + (X_C_Y0 << 3);
const C_X1 = SCRATCH + (X_C_X1 << 3);
const C_Y1 = SCRATCH + (X_C_Y1 << 3);
const C_CX = SCRATCH + (X_C_CX << 3);
const C_CY = SCRATCH + (X_C_CY << 3);
const C_R = SCRATCH + (X_C_R << 3);
const C_PREV_BOTTOM = SCRATCH + (X_C_PREV_BOTTOM << 3);
const C_PREV_VY = SCRATCH + (X_C_PREV_VY << 3);

// The records of the current call: how many were found, and where they go.
let found = 0;
let out = 0;
let cap = 0;

/**
 * Every controller's contacts with the live bodies among slots [0, count) whose groups meet
 * `mask`, records into W_CONTACTS (the first W_CONTACT_CAP of them); `pickUp` marks the bodies
 * that are picked up. Builds the home grid over `mask` (cells cellSize wide, 0: automatic).
 * Returns how many contacts there are, or -1 when a body holds invalid data (S_INVALID).
 */
export function controllerContacts(count: i32, mask: i32, pickUp: i32, cellSize: f32): i32 {
  found = 0;
  out = headerI32(WORLD_HEADER, W_CONTACTS);
  cap = headerI32(WORLD_HEADER, W_CONTACT_CAP);
  // Before anything is written: a refused call changes nothing.
  if (invalidSlots(count, mask) != 0) return -1;
  const held = buildGrid(count, mask, cellSize);
  if (held == 0) return 0;
  // Balls: circles.
  const balls = headerI32(PLATFORMS_HEADER, P_BALL_COUNT);
  if (balls > 0) {
    const xp = headerI32(PLATFORMS_HEADER, P_BX), yp = headerI32(PLATFORMS_HEADER, P_BY), rp = headerI32(PLATFORMS_HEADER, P_BR);
    const prevY = headerI32(PLATFORMS_HEADER, P_BALL_PREV_Y), prevVy = headerI32(PLATFORMS_HEADER, P_BALL_PREV_VY);
    for (let i = 0; i < balls; i++) {
      const o = i << 2;
      const x = <f64>f32At(xp + o), y = <f64>f32At(yp + o), r = <f64>f32At(rp + o);
      // x - x is 0 only for finite x (bulk writes through the views may have left anything here).
      if (!(x - x == 0 && y - y == 0 && r >= 0 && r - r == 0)) continue;
      setF64(C_CX, x); setF64(C_CY, y); setF64(C_R, r);
      setF64(C_X0, x - r); setF64(C_Y0, y - r); setF64(C_X1, x + r); setF64(C_Y1, y + r);
      setF64(C_PREV_BOTTOM, <f64>f32At(prevY + o) + r);
      setF64(C_PREV_VY, <f64>f32At(prevVy + o));
      matchController(CONTROLLER_BALL, i, pickUp, true);
    }
  }
  // Four-sensor characters: their master boxes.
  const chars = rh(RH_CHARS);
  if (chars > 0) {
    const xp = rh(RH_CX), yp = rh(RH_CY), wp = rh(RH_CW), hp = rh(RH_CH), kp = rh(RH_CKIND), prevp = rh(RH_CPREV);
    for (let c = 0; c < chars; c++) {
      const o = c << 2;
      if (i32At(kp + o) == CHAR_NONE) continue;
      const x = <f64>f32At(xp + o), y = <f64>f32At(yp + o), w = <f64>f32At(wp + o), h = <f64>f32At(hp + o);
      if (!(x - x == 0 && y - y == 0 && w >= 0 && w - w == 0 && h >= 0 && h - h == 0)) continue;
      setF64(C_X0, x); setF64(C_Y0, y); setF64(C_X1, x + w); setF64(C_Y1, y + h);
      setF64(C_PREV_BOTTOM, <f64>f32At(prevp + (o << 1)) + h);
      setF64(C_PREV_VY, <f64>f32At(prevp + (o << 1) + 4));
      matchController(CONTROLLER_CHARACTER, c, pickUp, false);
    }
  }
  // Tile controllers: the w x h box over the middle of the feet.
  const ctls = th(T_CTL_CAP);
  if (ctls > 0) {
    const cf = th(T_CTL_F), ci = th(T_CTL_I), params = th(T_PARAMS);
    const hw = f64At(params + (P_W << 3)) * 0.5, h = f64At(params + (P_H << 3));
    for (let i = 0; i < ctls; i++) {
      if ((i32At(ci + i * (CTL_I_FIELDS << 2) + (CI_STATE << 2)) & ST_LIVE) == 0) continue;
      const f = cf + i * (CTL_F_FIELDS << 3);
      const x = f64At(f + (CF_X << 3)), y = f64At(f + (CF_Y << 3));
      setF64(C_X0, x - hw); setF64(C_Y0, y - h); setF64(C_X1, x + hw); setF64(C_Y1, y);
      setF64(C_PREV_BOTTOM, f64At(f + (CF_PREV_Y << 3)));
      setF64(C_PREV_VY, f64At(f + (CF_PREV_DY << 3)));
      matchController(CONTROLLER_TILE, i, pickUp, false);
    }
  }
  return found;
}

/**
 * The controller in the scratch (C_*: a circle when `circle`, else its box) against the grid:
 * the small bodies in the cells its box can reach, then the large ones. Its records are sorted by
 * slot, since cells do not hold slots in order.
 */
function matchController(kind: i32, index: i32, pickUp: i32, circle: bool): void {
  const cols = hdr(G_COLS), rows = hdr(G_ROWS);
  const ox = hdrF(G_OX), oy = hdrF(G_OY), inv = hdrF(G_INV), invY = hdrF(G_INVY);
  // The box rounded to f32 (rounding keeps order, so the closed f32 box tests keep every overlap).
  const x0 = toF32(f64At(C_X0)), y0 = toF32(f64At(C_Y0)), x1 = toF32(f64At(C_X1)), y1 = toF32(f64At(C_Y1));
  const first = found;
  if (cols != 0 && !(x1 < ox || y1 < oy || x0 > hdrF(G_MAXX) || y0 > hdrF(G_MAXY))) {
    // A small body reaches at most one cell past its home: look one cell before the box too.
    const c0x = maxI32(cellOf(x0, ox, inv, cols) - 1, 0), c0y = maxI32(cellOf(y0, oy, invY, rows) - 1, 0);
    const c1x = cellOf(x1, ox, inv, cols), c1y = cellOf(y1, oy, invY, rows);
    const cellsp = hdr(H_CELLS) + 4, entp = hdr(H_ENTRIES), pitch = cols + 1;
    for (let cy = c0y; cy <= c1y; cy++) {
      // A row's cells are contiguous in the entry list: one run per row.
      const row = cy * pitch;
      const from = i32At(cellsp + ((row + c0x - 1) << 2)), to = i32At(cellsp + ((row + c1x) << 2));
      for (let p = from; p < to; p++) {
        const e = entp + p * ENTRY_BYTES;
        const tag = i32At(e), k = tag >>> KIND_SHIFT;
        if (!recordOverlaps(k, f32At(e + 4), f32At(e + 8), f32At(e + 12), f32At(e + 16), x0, y0, x1, y1)) continue;
        touchBody(kind, index, tag & TAG_SLOT, pickUp, circle);
      }
    }
  }
  const large = hdr(G_LARGE), largep = hdr(H_LARGE), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  for (let t = 0; t < large; t++) {
    const s = i32At(largep + (t << 2)), b = boxp + (s << 4);
    if (x1 < f32At(b) || x0 > f32At(b + 8) || y1 < f32At(b + 4) || y0 > f32At(b + 12)) continue;
    touchBody(kind, index, i32At(selp + (s << 2)), pickUp, circle);
  }
  sortBySlot(first);
}

/** The exact (open) test of body `slot` against the controller in the scratch, and its record if they overlap. */
function touchBody(kind: i32, index: i32, slot: i32, pickUp: i32, circle: bool): void {
  const o = slot << 2;
  const k = u8At(hdr(H_KIND) + slot);
  const x = <f64>f32At(hdr(H_X) + o), y = <f64>f32At(hdr(H_Y) + o), a = <f64>f32At(hdr(H_A) + o), b = <f64>f32At(hdr(H_B) + o);
  let hit = false;
  if (circle) {
    const cx = f64At(C_CX), cy = f64At(C_CY), r = f64At(C_R);
    if (k == KIND_POINT) {
      const dx = x - cx, dy = y - cy;
      hit = dx * dx + dy * dy < r * r;
    } else if (k == KIND_CIRCLE) {
      const dx = x - cx, dy = y - cy, s = r + a;
      hit = dx * dx + dy * dy < s * s;
    } else {
      const dx = cx - Math.min(Math.max(cx, x), x + a), dy = cy - Math.min(Math.max(cy, y), y + b);
      hit = dx * dx + dy * dy < r * r;
    }
  } else {
    const x0 = f64At(C_X0), y0 = f64At(C_Y0), x1 = f64At(C_X1), y1 = f64At(C_Y1);
    if (k == KIND_POINT) {
      hit = x > x0 && x < x1 && y > y0 && y < y1;
    } else if (k == KIND_CIRCLE) {
      // The circle's centre strictly inside the box, or the circle reaching past its nearest edge.
      const dx = x - Math.min(Math.max(x, x0), x1), dy = y - Math.min(Math.max(y, y0), y1);
      hit = (x > x0 && x < x1 && y > y0 && y < y1) || dx * dx + dy * dy < a * a;
    } else {
      hit = x0 < x + a && x < x1 && y0 < y + b && y < y1;
    }
  }
  if (!hit) return;
  let type = CONTACT_HURT;
  if ((i32At(hdr(H_GROUPS) + o) & pickUp) != 0) type = CONTACT_PICK_UP;
  else if (f64At(C_PREV_VY) > 0 && f64At(C_PREV_BOTTOM) <= (k == KIND_CIRCLE ? y - a : y)) type = CONTACT_STOMP;
  if (found < cap) {
    const r = out + found * (CONTACT_FIELDS << 2);
    setI32(r, kind);
    setI32(r + 4, index);
    setI32(r + 8, slot);
    setI32(r + 12, type);
  }
  found++;
}

/** Insertion sort of the records written since `first` by body slot (a controller meets few bodies). */
function sortBySlot(first: i32): void {
  const end = found < cap ? found : cap;
  const stride = CONTACT_FIELDS << 2;
  for (let i = first + 1; i < end; i++) {
    const p = out + i * stride;
    const slot = i32At(p + 8), type = i32At(p + 12);
    let j = i - 1;
    while (j >= first && i32At(out + j * stride + 8) > slot) {
      const q = out + j * stride;
      setI32(q + stride + 8, i32At(q + 8));
      setI32(q + stride + 12, i32At(q + 12));
      j--;
    }
    const q = out + (j + 1) * stride;
    setI32(q + 8, slot);
    setI32(q + 12, type);
  }
}
