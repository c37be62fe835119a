// The tower seed's player update as a reusable controller, for many controllers in one call:
// forces, integration with speed bounds, then the seed's ordered collision checks until none is
// left, each resolved as in the seed (collide, collideUp, collideDown, stepping up, climbing, hurt).
// State lives in the controller regions (layout/tiles.ts); nothing allocates. No double lives in a
// module variable or crosses a call that is not inlined (the js backend would box it): the stepped
// controller's reals stay in its CF_* slot, the tuning's in T_PARAMS, the step's dt and old y in the
// scratch slots, each read into locals where it is used.
//
// y grows downward: gravity pulls +y, a jump and a climb up move -y. The seed is y-up; every rule
// here that depends on up and down is the seed's mirrored, so a map turned upside down behaves as
// the seed's player would on it, mirrored. The origin (CF_X, CF_Y) is the middle of the feet, the
// bottom-centre of the w x h box: the box spans x - w/2 .. x + w/2 and y - h .. y.
//
// In a world with a rect level or polyhedra, a collision point inside a rect or a polyhedron is
// blocked as inside a platform cell, and the resolutions take that shape's edge where they take
// the cell's (controller_level.ts; docs/world.md "Controllers against every part"). On a map
// alone the shapes are never looked at.
import {
  CELL_COIN, CELL_ONE_WAY, CELL_PLATFORM, CF_DX, CF_DY, CF_PREV_DY, CF_PREV_Y, CF_STEP_Y, CF_X, CF_Y, CI_EVENTS, CI_FALLING_JUMP, CI_HITS, CI_HURTING, CI_INPUT,
  CI_SCORE, CI_STATE, CI_STEP_COUNT, CI_STEPPING, CTL_F_FIELDS, CTL_I_FIELDS, EV_CLIMB, EV_COIN, EV_FALL,
  EV_HEAD, EV_HURT, EV_JUMP, EV_LANDED, EV_STEP, EV_WALL, HIT_BLOCKED, HIT_COIN, HIT_LADDER, HIT_MONSTER,
  HIT_ONE_WAY, HIT_SPIKE, MAX_ITERATIONS, P_ACCEL, P_CLIMBDY,
  P_COIN_SCORE, P_FALLING_JUMP, P_FRICTION, P_GRAVITY, P_H, P_HURT_FRAMES, P_IMPULSE, P_LADDER_EDGE,
  P_MAXDX, P_MAXDY, P_STEP_FRAMES, P_SURFACE, P_W, S_T_ITERATIONS, ST_CLIMBING, ST_FALLING, ST_LIVE,
  T_CELLS, T_CTL_F, T_CTL_I,
} from "../layout/tiles.ts";
import { IN_DOWN, IN_JUMP, IN_LEFT, IN_RIGHT, IN_UP } from "../layout/input.ts";
import {
  pointInShapes, Q_BOTTOM, Q_LEFT, Q_RIGHT, Q_TOP, Q_X, Q_X1, Q_Y, Q_YMAX, sc, setSc, shapesTopBelow, worldHasPolyhedra,
  worldHasRects,
} from "./controller_level.ts";
import {
  AT_DT, AT_OLD_Y, cellOf, flagsAt, foldX, hitsAt, lastCell, lastCol, lastRow, loadMap, mapRows, normX, param, rowOf, saveStats, setTh, th, tile,
  tileInv, width,
} from "./tile_map.ts";

// The seed's ten points, in this order: topLeft, topRight, middleLeft, middleRight, bottomLeft,
// bottomRight, underLeft, underRight, ladderUp, ladderDown. Offsets from the feet: the top points
// 2 pixels under the head (dy 2 - h), the bottom ones at the feet (0), the under ones a pixel below
// them (+1), each point looked up by rowIn (on a row line: the row above).
const TL = 0, TR = 1, ML = 2, MR = 3, BL = 4, BR = 5, UL = 6, UR = 7, LU = 8, LD = 9;
const NPTS = 10;
// Static scratch (not an allocation): per point dx, dy (f64) and col, row, cell, hits (i32).
const PT_OFF = memory.data(NPTS * 16);
const PT_INFO = memory.data(NPTS * 16);
// Per point held by a rect or a polyhedron (BY_SHAPE in its hits): the top, bottom, left and right
// (f64) the resolutions take, each the shape's merged with its cell's where the cell blocks too.
const PT_SHAPE = memory.data(NPTS * 32);
/** A hits bit beside the HIT_* ones (all below it): the point is inside a rect or a polyhedron. */
const BY_SHAPE = 256;
/** The world has rects or polyhedra this call. */
let mixed = false;

// The tuning's integers, read once per call (its reals are read from T_PARAMS where used).
let fallingJumpFrames: i32 = 0;
let stepFrames: i32 = 1;
let hurtFrames: i32 = 0;
let coinScore: i32 = 0;

// The controller being stepped: its reals stay in its CF_* slot at ctl (in T_CTL_F), its integers
// are read into the variables below.
let ctl: i32 = 0;
let state: i32 = 0;
let input: i32 = 0;
let fallingJump: i32 = 0;
let stepping: i32 = 0;
let stepCount: i32 = 0;
let hurting: i32 = 0;
let score: i32 = 0;
let hits: i32 = 0;
let events: i32 = 0;
let rounds: i32 = 0;

// @ts-ignore: decorator
@inline function real(field: i32): f64 { return load<f64>(ctl + (field << 3)); }
// @ts-ignore: decorator
@inline function setReal(field: i32, v: f64): void { store<f64>(ctl + (field << 3), v); }

// @ts-ignore: decorator
@inline function offX(p: i32): f64 { return load<f64>(PT_OFF + (p << 4)); }
// @ts-ignore: decorator
@inline function offY(p: i32): f64 { return load<f64>(PT_OFF + (p << 4), 8); }
// @ts-ignore: decorator
@inline function col(p: i32): i32 { return load<i32>(PT_INFO + (p << 4)); }
// @ts-ignore: decorator
@inline function row(p: i32): i32 { return load<i32>(PT_INFO + (p << 4), 4); }
// @ts-ignore: decorator
@inline function cellIx(p: i32): i32 { return load<i32>(PT_INFO + (p << 4), 8); }
// @ts-ignore: decorator
@inline function has(p: i32, bits: i32): bool { return (load<i32>(PT_INFO + (p << 4), 12) & bits) != 0; }

// The edges of point p's blocking cell, or of the shapes holding it (BY_SHAPE).
// @ts-ignore: decorator
@inline function topOf(p: i32): f64 {
  return has(p, BY_SHAPE) ? load<f64>(PT_SHAPE + (p << 5)) : <f64>row(p) * tile();
}
// @ts-ignore: decorator
@inline function bottomOf(p: i32): f64 {
  return has(p, BY_SHAPE) ? load<f64>(PT_SHAPE + (p << 5), 8) : <f64>(row(p) + 1) * tile();
}
// @ts-ignore: decorator
@inline function leftOf(p: i32): f64 {
  return has(p, BY_SHAPE) ? load<f64>(PT_SHAPE + (p << 5), 16) : <f64>col(p) * tile();
}
// @ts-ignore: decorator
@inline function rightOf(p: i32): f64 {
  return has(p, BY_SHAPE) ? load<f64>(PT_SHAPE + (p << 5), 24) : <f64>(col(p) + 1) * tile();
}

// @ts-ignore: decorator
@inline function setOffset(p: i32, ox: f64, oy: f64): void {
  store<f64>(PT_OFF + (p << 4), ox);
  store<f64>(PT_OFF + (p << 4), oy, 8);
}

function loadTuning(): void {
  fallingJumpFrames = <i32>param(P_FALLING_JUMP);
  stepFrames = <i32>param(P_STEP_FRAMES);
  if (stepFrames < 1) stepFrames = 1;
  hurtFrames = <i32>param(P_HURT_FRAMES);
  coinScore = <i32>param(P_COIN_SCORE);
  const w = param(P_W), h = param(P_H), px = tile() / 32; // the seed's "1" and "2" are pixels of a 32-pixel tile
  setOffset(TL, -w / 4, 2 * px - h);
  setOffset(TR, w / 4, 2 * px - h);
  setOffset(ML, -w / 2, -h / 2);
  setOffset(MR, w / 2, -h / 2);
  setOffset(BL, -w / 4, 0);
  setOffset(BR, w / 4, 0);
  setOffset(UL, -w / 4, px);
  setOffset(UR, w / 4, px);
  setOffset(LU, 0, -h / 2);
  setOffset(LD, 0, px);
}

/** Each point's cell and HIT_* flags at the controller's position, into PT_INFO. */
function updatePoints(): void {
  // The reals, read once: the stores below could alias them for the compiler.
  const x = real(CF_X), y = real(CF_Y), w = width(), inv = tileInv(), t = tile();
  for (let p = 0; p < NPTS; p++) {
    const h = hitsAt(foldX(x + offX(p), w), y + offY(p), inv, t);
    const at = PT_INFO + (p << 4);
    store<i32>(at, lastCol);
    store<i32>(at, lastRow, 4);
    store<i32>(at, lastCell, 8);
    store<i32>(at, h, 12);
  }
  if (mixed) shapePoints();
}

/**
 * The points inside a rect or a polyhedron: blocked (HIT_BLOCKED | BY_SHAPE), with the edges the
 * resolutions take (PT_SHAPE): the shapes' extremes along the point's lines, merged with the
 * cell's where the cell itself blocks (stands, for the top), the cell's where a shape is unbounded.
 */
function shapePoints(): void {
  const x = real(CF_X), y = real(CF_Y), w = width(), t = tile();
  for (let p = 0; p < NPTS; p++) {
    setSc(Q_X, foldX(x + offX(p), w));
    setSc(Q_Y, y + offY(p));
    if (!pointInShapes()) continue;
    const at = PT_INFO + (p << 4), hits = load<i32>(at, 12);
    const cellTop = <f64>row(p) * t, cellBottom = <f64>(row(p) + 1) * t;
    const cellLeft = <f64>col(p) * t, cellRight = <f64>(col(p) + 1) * t;
    const stand = (hits & (HIT_BLOCKED | HIT_ONE_WAY)) != 0, solid = (hits & HIT_BLOCKED) != 0;
    let top = sc(Q_TOP), bottom = sc(Q_BOTTOM), left = sc(Q_LEFT), right = sc(Q_RIGHT);
    if (top == -Infinity || (stand && cellTop < top)) top = cellTop;
    if (bottom == Infinity || (solid && cellBottom > bottom)) bottom = cellBottom;
    if (left == -Infinity || (solid && cellLeft < left)) left = cellLeft;
    if (right == Infinity || (solid && cellRight > right)) right = cellRight;
    const e = PT_SHAPE + (p << 5);
    store<f64>(e, top);
    store<f64>(e, bottom, 8);
    store<f64>(e, left, 16);
    store<f64>(e, right, 24);
    store<i32>(at, hits | HIT_BLOCKED | BY_SHAPE, 12);
  }
}

// @ts-ignore: decorator
@inline function bound(v: f64, lo: f64, hi: f64): f64 {
  return v < lo ? lo : v > hi ? hi : v;
}

// Resolutions, as in the seed. Each returns whether the check loop must run again.
function collide(p: i32, left: bool): bool {
  setReal(CF_X, normX((left ? rightOf(p) : leftOf(p)) - offX(p)));
  setReal(CF_DX, 0);
  events |= EV_WALL;
  return true;
}

/** The head against the underside of point p's cell. */
function collideUp(p: i32): bool {
  setReal(CF_Y, bottomOf(p) - offY(p));
  setReal(CF_DY, 0);
  events |= EV_HEAD;
  return true;
}

/** The feet on the top of point p's cell. */
function collideDown(p: i32): bool {
  setReal(CF_Y, topOf(p));
  setReal(CF_DY, 0);
  state &= ~ST_FALLING;
  events |= EV_LANDED;
  return true;
}

function stopClimbing(p: i32): bool {
  state &= ~ST_CLIMBING;
  setReal(CF_DY, 0);
  if (p >= 0) setReal(CF_Y, topOf(p));
  return true;
}

/** The seed's ordered checks over the points updatePoints found; resolves the first contact. */
function checkCollision(): bool {
  const x = real(CF_X), y = real(CF_Y), dx = real(CF_DX), dy = real(CF_DY);
  const T = tile(), surface = param(P_SURFACE);
  const falling = (state & ST_FALLING) != 0;
  const fallingUp = falling && dy < 0;
  const fallingDown = falling && dy >= 0;
  const climbing = (state & ST_CLIMBING) != 0;
  const up = (input & IN_UP) != 0, down = (input & IN_DOWN) != 0;
  const climbingDown = climbing && down;
  const runningLeft = dx < 0, runningRight = dx > 0;
  const SOLID = HIT_BLOCKED, STAND = HIT_BLOCKED | HIT_ONE_WAY;

  // Coins: the seed's collectCoin ends the frame's checks; here the loop goes on, so a coin taken
  // while falling cannot skip that frame's landing.
  for (let p = TL; p <= BR; p++) {
    if (has(p, HIT_COIN)) {
      const c = th(T_CELLS) + cellIx(p);
      store<u8>(c, load<u8>(c) & ~CELL_COIN);
      score += coinScore;
      events |= EV_COIN;
      return true;
    }
  }
  // Landing on a platform (or a one-way platform) or the top of a ladder: feet at most `surface`
  // below the top of their cell.
  if (fallingDown && has(BL, STAND) && !has(ML, SOLID) && !has(TL, SOLID) && y + offY(BL) < topOf(BL) + surface) return collideDown(BL);
  if (fallingDown && has(BR, STAND) && !has(MR, SOLID) && !has(TR, SOLID) && y + offY(BR) < topOf(BR) + surface) return collideDown(BR);
  if (fallingDown && has(LD, HIT_LADDER) && !has(LU, HIT_LADDER)) return collideDown(LD);
  // Head bumps.
  if (fallingUp && has(TL, SOLID) && !has(ML, SOLID) && !has(BL, SOLID)) return collideUp(TL);
  if (fallingUp && has(TR, SOLID) && !has(MR, SOLID) && !has(BR, SOLID)) return collideUp(TR);
  // The bottom of a ladder.
  if (climbingDown && has(LD, STAND)) return stopClimbing(LD);
  // Walls and steps, running right then left.
  if (runningRight && has(TR, SOLID) && !has(TL, SOLID)) return collide(TR, false);
  if (runningRight && has(MR, SOLID) && !has(ML, SOLID)) return collide(MR, false);
  if (runningRight && has(BR, SOLID) && !has(BL, SOLID)) {
    if (falling) return collide(BR, false);
    return startSteppingUp(1, BR);
  }
  if (runningLeft && has(TL, SOLID) && !has(TR, SOLID)) return collide(TL, true);
  if (runningLeft && has(ML, SOLID) && !has(MR, SOLID)) return collide(ML, true);
  if (runningLeft && has(BL, SOLID) && !has(BR, SOLID)) {
    if (falling) return collide(BL, true);
    return startSteppingUp(-1, BL);
  }
  // Start climbing, start falling (with the falling-jump grace), fall off a ladder.
  const ladderCentre = (<f64>col(LU) + 0.5) * T;
  const onLadder = (has(LU, HIT_LADDER) || has(LD, HIT_LADDER)) && param(P_LADDER_EDGE) > Math.abs(x - ladderCentre) / (T / 2);
  if (!climbing && onLadder && ((has(LU, HIT_LADDER) && up) || (has(LD, HIT_LADDER) && down))) {
    state |= ST_CLIMBING;
    setReal(CF_DX, 0);
    events |= EV_CLIMB;
    return false;
  } else if (!climbing && !falling && !has(UL, STAND) && !has(UR, STAND) && !onLadder) {
    state |= ST_FALLING;
    fallingJump = fallingJumpFrames;
    events |= EV_FALL;
    return false;
  }
  if (climbing && !onLadder) return stopClimbing(-1);
  // Monsters (and spikes) hurt, then nothing hurts for the hurt frames.
  if (hurting == 0) {
    const HURT = HIT_MONSTER | HIT_SPIKE;
    if (has(TL, HURT) || has(TR, HURT) || has(ML, HURT) || has(MR, HURT) || has(BL, HURT) || has(BR, HURT) || has(LU, HURT) || has(LD, HURT)) {
      hurting = hurtFrames > 0 ? hurtFrames : 1;
      hits++;
      events |= EV_HURT;
      return true;
    }
  }
  return false;
}

function startSteppingUp(dir: i32, p: i32): bool {
  stepping = dir;
  stepCount = stepFrames;
  setReal(CF_STEP_Y, topOf(p)); // the top of the step
  events |= EV_STEP;
  return false; // not a collision, as in the seed
}

/** A fall (from AT_OLD_Y) faster than the landing band would pass through a platform: stop the feet inside the band. */
function sweepFall(): void {
  const x = real(CF_X), y = real(CF_Y), T = tile(), surface = param(P_SURFACE), pw = param(P_W);
  // From the row under the old feet down to the floor row (every row below the map reads like it).
  let r = rowOf(load<f64>(AT_OLD_Y)) + 1;
  const floorRow = mapRows();
  const cl = cellOf(normX(x - pw / 4)), cr = cellOf(normX(x + pw / 4));
  while (r <= floorRow && <f64>r * T + surface < y) {
    if ((flagsAt(cl, r) | flagsAt(cr, r)) & (CELL_PLATFORM | CELL_ONE_WAY)) {
      setReal(CF_Y, <f64>r * T + surface * 0.5);
      break;
    }
    r++;
  }
  if (mixed) sweepShapes();
}

/**
 * sweepFall's rule for rects and polyhedra (after the cells', so the higher top wins): the feet
 * crossed a shape's top and ended past its landing band, which ends at the shape's bottom when the
 * shape is thinner than the band: stop them inside that band.
 */
function sweepShapes(): void {
  const x = real(CF_X), y = real(CF_Y), surface = param(P_SURFACE), pw = param(P_W);
  setSc(Q_X, normX(x - pw / 4));
  setSc(Q_X1, normX(x + pw / 4));
  setSc(Q_Y, load<f64>(AT_OLD_Y));
  setSc(Q_YMAX, y);
  shapesTopBelow();
  const top = sc(Q_TOP);
  if (!(top < Infinity)) return;
  const band = Math.min(surface, sc(Q_BOTTOM) - top);
  if (y > top + band) setReal(CF_Y, top + band * 0.5);
}

/** Steps the controller at ctl (its slot and the variables above) by AT_DT seconds. */
function step(): void {
  events = 0;
  const dx = real(CF_DX);
  const wasLeft = dx < 0, wasRight = dx > 0;
  if (stepping != 0) {
    // Stepping up: rise (-y) to the top of the step and edge forward over a few frames, unchecked.
    const y = real(CF_Y) - tile() / <f64>stepFrames, stepY = real(CF_STEP_Y);
    setReal(CF_Y, y);
    setReal(CF_X, normX(real(CF_X) + <f64>stepping * (param(P_W) / 4) / <f64>stepFrames));
    stepCount--;
    if (stepCount <= 0 || y <= stepY) {
      setReal(CF_Y, stepY);
      stepping = 0;
      stepCount = 0;
    }
  } else {
    const dt = load<f64>(AT_DT);
    const falling = (state & ST_FALLING) != 0;
    let dy = real(CF_DY);
    let ddx: f64 = 0;
    let ddy: f64 = falling ? param(P_GRAVITY) : 0;
    if (state & ST_CLIMBING) {
      ddy = 0;
      if (input & IN_UP) dy = -param(P_CLIMBDY);
      else if (input & IN_DOWN) dy = param(P_CLIMBDY);
      else dy = 0;
    }
    if (input & IN_LEFT) ddx -= param(P_ACCEL);
    else if (wasLeft) ddx += param(P_FRICTION);
    if (input & IN_RIGHT) ddx += param(P_ACCEL);
    else if (wasRight) ddx -= param(P_FRICTION);
    if ((input & IN_JUMP) && (!falling || fallingJump > 0)) {
      // performJump: an instant big force upward (-y) for one frame.
      state &= ~ST_CLIMBING; // stopClimbing(-1): its dy = 0 is the next line
      dy = 0;
      ddy = -param(P_IMPULSE);
      state |= ST_FALLING;
      fallingJump = 0;
      input &= ~IN_JUMP;
      events |= EV_JUMP;
    }
    const oldY = real(CF_Y), y = oldY + dt * dy;
    const maxdx = param(P_MAXDX), maxdy = param(P_MAXDY);
    setReal(CF_X, normX(real(CF_X) + dt * dx));
    setReal(CF_Y, y);
    setReal(CF_DX, bound(dx + dt * ddx, -maxdx, maxdx));
    setReal(CF_DY, bound(dy + dt * ddy, -maxdy, maxdy));
    if (y > oldY) {
      store<f64>(AT_OLD_Y, oldY);
      sweepFall();
    }
    // Rounds of checks until one finds nothing to resolve. The first round is written apart from
    // the others so that updatePoints and checkCollision each have two callers: binaryen inlines a
    // function with one caller whatever its size, and with two they stay functions of their own in
    // the js backend, where V8 then deoptimizes and recompiles only checkCollision when one of its
    // rare branches first runs, not the loop over every controller.
    let k = 1;
    updatePoints();
    if (checkCollision()) {
      while (k < MAX_ITERATIONS) {
        k++;
        updatePoints();
        if (!checkCollision()) break;
      }
    }
    rounds += k;
    // Friction must stop the player, not turn it round.
    const ndx = real(CF_DX);
    if ((wasLeft && ndx > 0) || (wasRight && ndx < 0)) setReal(CF_DX, 0);
    if ((state & ST_FALLING) != 0 && fallingJump > 0) fallingJump--;
  }
  if (hurting > 0 && (events & EV_HURT) == 0) hurting--;
}

/**
 * Steps controllers [0, count) by dt seconds (skipping slots without ST_LIVE): reads each one's
 * input bits, moves it through the map, collects coins (clearing them from the map) and writes its
 * state, score and EV_* events back. Returns how many controllers had events this step.
 */
export function stepControllers(count: i32, dt: f64): i32 {
  loadMap();
  loadTuning();
  mixed = worldHasRects() || worldHasPolyhedra();
  store<f64>(AT_DT, dt);
  const cf = th(T_CTL_F), ci = th(T_CTL_I);
  rounds = 0;
  let active = 0;
  for (let i = 0; i < count; i++) {
    const n = ci + i * (CTL_I_FIELDS << 2);
    state = load<i32>(n + (CI_STATE << 2));
    if ((state & ST_LIVE) == 0) continue;
    ctl = cf + i * (CTL_F_FIELDS << 3);
    // Where it stood and how it moved before this step: the world's controllerContacts tells a stomp by them.
    store<f64>(ctl + (CF_PREV_Y << 3), load<f64>(ctl + (CF_Y << 3)));
    store<f64>(ctl + (CF_PREV_DY << 3), load<f64>(ctl + (CF_DY << 3)));
    input = load<i32>(n + (CI_INPUT << 2));
    fallingJump = load<i32>(n + (CI_FALLING_JUMP << 2));
    stepping = load<i32>(n + (CI_STEPPING << 2));
    stepCount = load<i32>(n + (CI_STEP_COUNT << 2));
    hurting = load<i32>(n + (CI_HURTING << 2));
    score = load<i32>(n + (CI_SCORE << 2));
    hits = load<i32>(n + (CI_HITS << 2));
    step();
    store<i32>(n + (CI_STATE << 2), state);
    store<i32>(n + (CI_INPUT << 2), input);
    store<i32>(n + (CI_FALLING_JUMP << 2), fallingJump);
    store<i32>(n + (CI_STEPPING << 2), stepping);
    store<i32>(n + (CI_STEP_COUNT << 2), stepCount);
    store<i32>(n + (CI_HURTING << 2), hurting);
    store<i32>(n + (CI_SCORE << 2), score);
    store<i32>(n + (CI_HITS << 2), hits);
    store<i32>(n + (CI_EVENTS << 2), events);
    if (events != 0) active++;
  }
  setTh(S_T_ITERATIONS, rounds);
  saveStats();
  return active;
}
