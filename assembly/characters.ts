// The four-sensor character of "2D Platformer Advanced Collision Detection", stepped in a batch:
// every character (the player and the enemies alike) in one call per frame. Layout:
// layout/rects.ts.
//
// A character is a master box (x, y, w, h; y grows downward) holding four sensors:
//   top     [x + inset, x + w - inset] x [y, y + sensorTop]              head bump: cancels upward speed
//   bottom  [x + inset, x + w - inset] x [y + h - sensorBottom, y + h]   lands, reports ground contact, stomps
//   left    [x, x + w/2] x [y + sensorTop, y + h - stepHeight]           pushes out of walls
//   right   [x + w/2, x + w] x [same]
// The side sensors stop stepHeight above the feet, so a step lower than that is met by the bottom
// sensor only, which raises the character onto it (step-up). The top and bottom sensors are inset
// so a wall the side sensors pushed out of no longer touches them.
//
// Per frame: input sets the run speed; a jump starts if grounded or within the grace timer;
// gravity (plus the extra pull during the grace timer) and the fall cap; move; then the seed's
// overlap-then-correct collision: side sensors first, then top and bottom with the corrected x.
//
// The sensors see the world's other parts too (controller_level.ts, docs/world.md "Controllers
// against every part"): solid tile cells as rects, one-way cells and up-facing surfaces as ground
// met from above, polyhedra through their extremes within each sensor's range. A level of rects
// alone runs exactly the rects' loops: the other parts are looked at only when the world has them.
import {
  CHAR_ENEMY, CHAR_NONE, CHAR_PLAYER, RC_BOUNCE, RC_EXTRA_PULL, RC_GRACE_FRAMES,
  RC_GRAVITY, RC_INSET, RC_JUMP_SPEED, RC_MAX_FALL, RC_RUN_SPEED, RC_SENSOR_BOTTOM, RC_SENSOR_TOP,
  RC_STEP_HEIGHT, RH_CANDS, RH_CGRACE, RH_CH, RH_CHARS, RH_CINPUT, RH_CKIND, RH_CSTATE, RH_CVX, RH_CVY,
  RH_CPREV, RH_CW, RH_CX, RH_CY, RH_INSTANCES, RH_STOMPS, ST_GROUNDED, ST_HEAD_BUMP, ST_HURT, ST_JUMPED, ST_LANDED, ST_STOMPED,
  ST_STOMPING, ST_WALL_LEFT, ST_WALL_RIGHT,
} from "../layout/rects.ts";
import { IN_JUMP, IN_LEFT, IN_RIGHT } from "../layout/input.ts";
import {
  boxesOverlap, countCharTest, countRectTests, findCandidatesAt, flushStats, rectEnd, rectStart, resetStats, rh, rhF,
  WORLD_RECT, worldRect,
} from "./rect_level.ts";
import {
  C_ACC_A, C_ACC_B, C_H, C_INSET, C_SBOTTOM, C_STEP, C_STOP, C_W, C_X, C_XS, C_Y, C_YS, charOthers, PASS_SIDES, PASS_VERTICAL,
  sc, setSc, worldHasPlatforms, worldHasTiles,
} from "./controller_level.ts";

/** The instances whose master box meets the character's box (x, y, w, h), into `out`: findCandidatesAt over QUERY. */
// @ts-ignore: decorator
@inline function candidatesOver(search: i32, x: f64, y: f64, w: f64, h: f64, out: i32): i32 {
  store<f64>(QUERY, x);
  store<f64>(QUERY, y, 8);
  store<f64>(QUERY, x + w, 16);
  store<f64>(QUERY, y + h, 24);
  return findCandidatesAt(search, QUERY, out);
}

// The box of candidatesOver (static scratch).
const QUERY: i32 = <i32>memory.data(32, 8);

/**
 * Steps every character one frame against the level (and players against enemies); returns the
 * number of stomps, written as (stomper, victim) pairs to RH_STOMPS. `search` (SEARCH_*) picks how
 * the nearby rects are found; every mode gives the same result, with more tests the flatter it is.
 * One function: the tutorial's per-character step in its order (forces, side sensors, top and
 * bottom sensors, grace timer, enemies), each step commented, sharing the character's locals.
 */
export function rectsStepCharacters(search: i32): i32 {
  resetStats();
  const count = rh(RH_CHARS);
  const gravity = rhF(RC_GRAVITY), maxFall = rhF(RC_MAX_FALL), run = rhF(RC_RUN_SPEED), jumpSpeed = rhF(RC_JUMP_SPEED);
  const pull = rhF(RC_EXTRA_PULL), graceFrames = rh(RC_GRACE_FRAMES);
  const sTop = rhF(RC_SENSOR_TOP), sBottom = rhF(RC_SENSOR_BOTTOM), step = rhF(RC_STEP_HEIGHT), inset = rhF(RC_INSET);
  const xp = rh(RH_CX), yp = rh(RH_CY), wp = rh(RH_CW), hp = rh(RH_CH), vxp = rh(RH_CVX), vyp = rh(RH_CVY);
  const kp = rh(RH_CKIND), ip = rh(RH_CINPUT), sp = rh(RH_CSTATE), gp = rh(RH_CGRACE), cands = rh(RH_CANDS);
  const prevp = rh(RH_CPREV);
  // The world's other parts, handed to controller_level.ts through its scratch (doubles never
  // cross a call there: the js backend would box them).
  const others = worldHasTiles() || worldHasPlatforms(), instances = rh(RH_INSTANCES);
  if (others) {
    setSc(C_STOP, sTop); setSc(C_SBOTTOM, sBottom); setSc(C_STEP, step); setSc(C_INSET, inset);
  }
  for (let c = 0; c < count; c++) {
    const o = c << 2;
    if (load<i32>(kp + o) == CHAR_NONE) continue;
    const input = load<i32>(ip + o), before = load<i32>(sp + o);
    let grace = load<i32>(gp + o);
    const w = <f64>load<f32>(wp + o), h = <f64>load<f32>(hp + o);
    let x = <f64>load<f32>(xp + o), y = <f64>load<f32>(yp + o), vy = <f64>load<f32>(vyp + o);
    // Where it stood and how it fell before this step: the world's controllerContacts tells a stomp by them.
    store<f32>(prevp + (o << 1), load<f32>(yp + o));
    store<f32>(prevp + (o << 1), load<f32>(vyp + o), 4);
    const wasGrounded = (before & ST_GROUNDED) != 0;
    let state = 0;
    let vx: f64 = 0;
    if (input & IN_LEFT) vx -= run;
    if (input & IN_RIGHT) vx += run;
    if ((input & IN_JUMP) && (wasGrounded || grace > 0)) {
      vy = -jumpSpeed;
      grace = 0;
      state |= ST_JUMPED;
    }
    vy += gravity;
    // The seed's quirk: briefly off the ground without jumping, pull down harder (hug stairs going down).
    if (!wasGrounded && grace > 0) vy += pull;
    if (vy > maxFall) vy = maxFall;
    const xs = x, ys = y;
    x += vx;
    y += vy;
    // Candidates: instances whose master box overlaps the character's master box (none to look
    // for in a world of other parts alone: no query, whose doubles the js backend would box).
    let n = instances > 0 ? candidatesOver(search, x, y, w, h, cands) : 0;
    // Side sensors: the left one is pushed to the right edge of what it overlaps, the right one to the left edge.
    const half = x + w * 0.5;
    const sy0 = y + sTop, sy1 = y + h - step;
    let toRight = -Infinity, toLeft = Infinity;
    for (let k = 0; k < n; k++) {
      const i = load<i32>(cands + (k << 2));
      const end = rectEnd(i);
      for (let r = rectStart(i); r < end; r++) {
        worldRect(i, r);
        const wx0 = load<f64>(WORLD_RECT), wy0 = load<f64>(WORLD_RECT, 8), wx1 = load<f64>(WORLD_RECT, 16), wy1 = load<f64>(WORLD_RECT, 24);
        countRectTests(2);
        if (boxesOverlap(x, sy0, half, sy1, wx0, wy0, wx1, wy1) && wx1 > toRight) toRight = wx1;
        if (boxesOverlap(half, sy0, x + w, sy1, wx0, wy0, wx1, wy1) && wx0 < toLeft) toLeft = wx0;
      }
    }
    if (others) {
      setSc(C_X, x); setSc(C_Y, y); setSc(C_W, w); setSc(C_H, h); setSc(C_XS, xs); setSc(C_YS, ys);
      setSc(C_ACC_A, toRight); setSc(C_ACC_B, toLeft);
      charOthers(PASS_SIDES);
      toRight = sc(C_ACC_A); toLeft = sc(C_ACC_B);
    }
    if (toRight > -Infinity) { x = toRight; state |= ST_WALL_LEFT; if (vx < 0) vx = 0; }
    if (toLeft < Infinity) { x = toLeft - w; state |= ST_WALL_RIGHT; if (vx > 0) vx = 0; }
    // A side push moved the master box: what the head and feet can touch must be looked up again.
    if ((toRight > -Infinity || toLeft < Infinity) && instances > 0) n = candidatesOver(search, x, y, w, h, cands);
    // Top and bottom sensors with the corrected x: land on the highest top, bump on the lowest bottom.
    const tx0 = x + inset, tx1 = x + w - inset;
    const by0 = y + h - sBottom, by1 = y + h, hy1 = y + sTop;
    let ground = Infinity, ceiling = -Infinity;
    for (let k = 0; k < n; k++) {
      const i = load<i32>(cands + (k << 2));
      const end = rectEnd(i);
      for (let r = rectStart(i); r < end; r++) {
        worldRect(i, r);
        const wx0 = load<f64>(WORLD_RECT), wy0 = load<f64>(WORLD_RECT, 8), wx1 = load<f64>(WORLD_RECT, 16), wy1 = load<f64>(WORLD_RECT, 24);
        countRectTests(2);
        if (boxesOverlap(tx0, by0, tx1, by1, wx0, wy0, wx1, wy1) && wy0 < ground) ground = wy0;
        if (boxesOverlap(tx0, y, tx1, hy1, wx0, wy0, wx1, wy1) && wy1 > ceiling) ceiling = wy1;
      }
    }
    if (others) {
      setSc(C_X, x);
      setSc(C_ACC_A, ground); setSc(C_ACC_B, ceiling);
      charOthers(PASS_VERTICAL);
      ground = sc(C_ACC_A); ceiling = sc(C_ACC_B);
    }
    if (ground < Infinity && vy >= 0) {
      y = ground - h;
      vy = 0;
      state |= ST_GROUNDED;
      if (!wasGrounded) state |= ST_LANDED;
    } else if (ceiling > -Infinity && vy < 0) {
      y = ceiling;
      vy = 0;
      state |= ST_HEAD_BUMP;
    }
    // The grace timer restarts on the ground and ticks down in the air.
    if (state & ST_GROUNDED) grace = graceFrames;
    else if (grace > 0) grace--;
    store<f32>(xp + o, <f32>x);
    store<f32>(yp + o, <f32>y);
    store<f32>(vxp + o, <f32>vx);
    store<f32>(vyp + o, <f32>vy);
    store<i32>(sp + o, state);
    store<i32>(gp + o, grace);
  }
  const stomps = stompPass(count, sBottom, inset, rhF(RC_BOUNCE));
  flushStats(stomps);
  return stomps;
}

/**
 * Players against enemies: a player's bottom sensor on an enemy while falling (or landing) is a
 * stomp: the enemy is flagged, the player bounces. Any other master-box contact hurts the player.
 */
function stompPass(count: i32, sBottom: f64, inset: f64, bounce: f64): i32 {
  const xp = rh(RH_CX), yp = rh(RH_CY), wp = rh(RH_CW), hp = rh(RH_CH), vyp = rh(RH_CVY);
  const kp = rh(RH_CKIND), sp = rh(RH_CSTATE), outp = rh(RH_STOMPS);
  let stomps = 0;
  for (let p = 0; p < count; p++) {
    if (load<i32>(kp + (p << 2)) != CHAR_PLAYER) continue;
    const po = p << 2;
    const px = <f64>load<f32>(xp + po), py = <f64>load<f32>(yp + po);
    const pw = <f64>load<f32>(wp + po), ph = <f64>load<f32>(hp + po);
    for (let e = 0; e < count; e++) {
      const eo = e << 2;
      if (load<i32>(kp + eo) != CHAR_ENEMY || (load<i32>(sp + eo) & ST_STOMPED) != 0) continue;
      const ex = <f64>load<f32>(xp + eo), ey = <f64>load<f32>(yp + eo);
      const ex1 = ex + <f64>load<f32>(wp + eo), ey1 = ey + <f64>load<f32>(hp + eo);
      countCharTest();
      if (!boxesOverlap(px, py, px + pw, py + ph, ex, ey, ex1, ey1)) continue;
      const vy = <f64>load<f32>(vyp + po);
      const state = load<i32>(sp + po);
      if (vy >= 0 && (state & ST_GROUNDED) == 0 && boxesOverlap(px + inset, py + ph - sBottom, px + pw - inset, py + ph, ex, ey, ex1, ey1) && py + ph <= ey + sBottom) {
        store<i32>(sp + eo, load<i32>(sp + eo) | ST_STOMPED);
        store<i32>(sp + po, state | ST_STOMPING);
        store<f32>(vyp + po, <f32>(-bounce));
        store<i32>(outp + (stomps << 3), p);
        store<i32>(outp + (stomps << 3) + 4, e);
        stomps++;
      } else {
        store<i32>(sp + po, state | ST_HURT);
      }
    }
  }
  return stomps;
}
