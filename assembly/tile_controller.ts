// The tower seed's player update as a reusable controller, for many controllers in one call:
// forces, integration with speed bounds, then the seed's ordered collision checks until none is
// left, each resolved as in the seed (collide, collideUp, collideDown, stepping up, climbing, hurt).
// State lives in the controller regions (layout/tiles.ts); nothing allocates.
import {
  CELL_COIN, CELL_ONE_WAY, CELL_PLATFORM, CF_DX, CF_DY, CF_STEP_Y, CF_X, CF_Y, CI_EVENTS, CI_FALLING_JUMP, CI_HITS, CI_HURTING, CI_INPUT,
  CI_SCORE, CI_STATE, CI_STEP_COUNT, CI_STEPPING, CTL_F_FIELDS, CTL_I_FIELDS, EV_CLIMB, EV_COIN, EV_FALL,
  EV_HEAD, EV_HURT, EV_JUMP, EV_LANDED, EV_STEP, EV_WALL, HIT_BLOCKED, HIT_COIN, HIT_LADDER, HIT_MONSTER,
  HIT_ONE_WAY, HIT_SPIKE, MAX_ITERATIONS, P_ACCEL, P_CLIMBDY,
  P_COIN_SCORE, P_FALLING_JUMP, P_FRICTION, P_GRAVITY, P_H, P_HURT_FRAMES, P_IMPULSE, P_LADDER_EDGE,
  P_MAXDX, P_MAXDY, P_STEP_FRAMES, P_SURFACE, P_TILE, P_W, S_T_ITERATIONS, ST_CLIMBING, ST_FALLING, ST_LIVE,
  T_CELLS, T_CTL_F, T_CTL_I,
} from "../layout/tiles.ts";
import { IN_DOWN, IN_JUMP, IN_LEFT, IN_RIGHT, IN_UP } from "../layout/input.ts";
import { cellOf, flagsAt, lastCell, lastCol, lastRow, loadMap, normX, param, pointHits, saveStats, setTh, th } from "./tile_map.ts";

// The seed's ten points, in this order: topLeft, topRight, middleLeft, middleRight, bottomLeft,
// bottomRight, underLeft, underRight, ladderUp, ladderDown.
const TL = 0, TR = 1, ML = 2, MR = 3, BL = 4, BR = 5, UL = 6, UR = 7, LU = 8, LD = 9;
const NPTS = 10;
// Static scratch (not an allocation): per point dx, dy (f64) and col, row, cell, hits (i32).
const PT_OFF = memory.data(NPTS * 16);
const PT_INFO = memory.data(NPTS * 16);

// Tuning, read once per call.
let T: f64 = 1;
let maxdx: f64 = 0;
let maxdy: f64 = 0;
let climbdy: f64 = 0;
let gravity: f64 = 0;
let impulse: f64 = 0;
let accel: f64 = 0;
let friction: f64 = 0;
let surface: f64 = 0;
let ladderEdge: f64 = 0;
let fallingJumpFrames: i32 = 0;
let stepFrames: i32 = 1;
let hurtFrames: i32 = 0;
let coinScore: i32 = 0;
let pw: f64 = 0;

// The controller being stepped.
let x: f64 = 0;
let y: f64 = 0;
let dx: f64 = 0;
let dy: f64 = 0;
let stepY: f64 = 0;
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

// @ts-ignore: decorator
@inline function setOffset(p: i32, ox: f64, oy: f64): void {
  store<f64>(PT_OFF + (p << 4), ox);
  store<f64>(PT_OFF + (p << 4), oy, 8);
}

function setOffsets(): void {
  const w = param(P_W), h = param(P_H), px = T / 32; // the seed's "1" and "2" are pixels of a 32-pixel tile
  setOffset(TL, -w / 4, h - 2 * px);
  setOffset(TR, w / 4, h - 2 * px);
  setOffset(ML, -w / 2, h / 2);
  setOffset(MR, w / 2, h / 2);
  setOffset(BL, -w / 4, 0);
  setOffset(BR, w / 4, 0);
  setOffset(UL, -w / 4, -px);
  setOffset(UR, w / 4, -px);
  setOffset(LU, 0, h / 2);
  setOffset(LD, 0, -px);
}

function loadTuning(): void {
  T = param(P_TILE);
  pw = param(P_W);
  maxdx = param(P_MAXDX);
  maxdy = param(P_MAXDY);
  climbdy = param(P_CLIMBDY);
  gravity = param(P_GRAVITY);
  impulse = param(P_IMPULSE);
  accel = param(P_ACCEL);
  friction = param(P_FRICTION);
  surface = param(P_SURFACE);
  ladderEdge = param(P_LADDER_EDGE);
  fallingJumpFrames = <i32>param(P_FALLING_JUMP);
  stepFrames = <i32>param(P_STEP_FRAMES);
  if (stepFrames < 1) stepFrames = 1;
  hurtFrames = <i32>param(P_HURT_FRAMES);
  coinScore = <i32>param(P_COIN_SCORE);
  setOffsets();
}

function updatePoints(): void {
  for (let p = 0; p < NPTS; p++) {
    const h = pointHits(normX(x + offX(p)), y + offY(p));
    const at = PT_INFO + (p << 4);
    store<i32>(at, lastCol);
    store<i32>(at, lastRow, 4);
    store<i32>(at, lastCell, 8);
    store<i32>(at, h, 12);
  }
}

// @ts-ignore: decorator
@inline function bound(v: f64, lo: f64, hi: f64): f64 {
  return v < lo ? lo : v > hi ? hi : v;
}

// Resolutions, as in the seed. Each returns whether the check loop must run again.
function collide(p: i32, left: bool): bool {
  x = normX(<f64>(col(p) + (left ? 1 : 0)) * T - offX(p));
  dx = 0;
  events |= EV_WALL;
  return true;
}

function collideUp(p: i32): bool {
  y = <f64>row(p) * T - offY(p);
  dy = 0;
  events |= EV_HEAD;
  return true;
}

function collideDown(p: i32): bool {
  y = <f64>(row(p) + 1) * T;
  dy = 0;
  state &= ~ST_FALLING;
  events |= EV_LANDED;
  return true;
}

function stopClimbing(p: i32): bool {
  state &= ~ST_CLIMBING;
  dy = 0;
  if (p >= 0) y = <f64>(row(p) + 1) * T;
  return true;
}

function checkCollision(): bool {
  const falling = (state & ST_FALLING) != 0;
  const fallingUp = falling && dy > 0;
  const fallingDown = falling && dy <= 0;
  const climbing = (state & ST_CLIMBING) != 0;
  const up = (input & IN_UP) != 0, down = (input & IN_DOWN) != 0;
  const climbingDown = climbing && down;
  const runningLeft = dx < 0, runningRight = dx > 0;
  const SOLID = HIT_BLOCKED, STAND = HIT_BLOCKED | HIT_ONE_WAY;
  updatePoints();

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
  // Landing on a platform (or a one-way platform) or the top of a ladder.
  if (fallingDown && has(BL, STAND) && !has(ML, SOLID) && !has(TL, SOLID) && y + offY(BL) > <f64>(row(BL) + 1) * T - surface) return collideDown(BL);
  if (fallingDown && has(BR, STAND) && !has(MR, SOLID) && !has(TR, SOLID) && y + offY(BR) > <f64>(row(BR) + 1) * T - surface) return collideDown(BR);
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
  const onLadder = (has(LU, HIT_LADDER) || has(LD, HIT_LADDER)) && ladderEdge > Math.abs(x - ladderCentre) / (T / 2);
  if (!climbing && onLadder && ((has(LU, HIT_LADDER) && up) || (has(LD, HIT_LADDER) && down))) {
    state |= ST_CLIMBING;
    dx = 0;
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
  stepY = <f64>(row(p) + 1) * T; // the top of the step
  events |= EV_STEP;
  return false; // not a collision, as in the seed
}

/** A fall faster than the landing band would pass through a platform: stop the feet inside the band. */
function sweepFall(oldY: f64): void {
  let r = cellOf(oldY) - 1;
  const cl = cellOf(normX(x - pw / 4)), cr = cellOf(normX(x + pw / 4));
  while (r >= -1 && <f64>(r + 1) * T - surface > y) {
    if ((flagsAt(cl, r) | flagsAt(cr, r)) & (CELL_PLATFORM | CELL_ONE_WAY)) {
      y = <f64>(r + 1) * T - surface * 0.5;
      return;
    }
    r--;
  }
}

function step(dt: f64): void {
  events = 0;
  const wasLeft = dx < 0, wasRight = dx > 0;
  if (stepping != 0) {
    // Stepping up: rise to the top of the step and edge forward over a few frames, unchecked.
    y += T / <f64>stepFrames;
    x = normX(x + <f64>stepping * (pw / 4) / <f64>stepFrames);
    stepCount--;
    if (stepCount <= 0 || y >= stepY) {
      y = stepY;
      stepping = 0;
      stepCount = 0;
    }
  } else {
    const falling = (state & ST_FALLING) != 0;
    let ddx: f64 = 0;
    let ddy: f64 = falling ? -gravity : 0;
    if (state & ST_CLIMBING) {
      ddy = 0;
      if (input & IN_UP) dy = climbdy;
      else if (input & IN_DOWN) dy = -climbdy;
      else dy = 0;
    }
    if (input & IN_LEFT) ddx -= accel;
    else if (wasLeft) ddx += friction;
    if (input & IN_RIGHT) ddx += accel;
    else if (wasRight) ddx -= friction;
    if ((input & IN_JUMP) && (!falling || fallingJump > 0)) {
      // performJump: an instant big force for one frame.
      if (state & ST_CLIMBING) stopClimbing(-1);
      dy = 0;
      ddy = impulse;
      state |= ST_FALLING;
      fallingJump = 0;
      input &= ~IN_JUMP;
      events |= EV_JUMP;
    }
    const oldY = y;
    x = normX(x + dt * dx);
    y = y + dt * dy;
    dx = bound(dx + dt * ddx, -maxdx, maxdx);
    dy = bound(dy + dt * ddy, -maxdy, maxdy);
    if (y < oldY) sweepFall(oldY);
    let k = 0;
    while (k < MAX_ITERATIONS) {
      k++;
      if (!checkCollision()) break;
    }
    rounds += k;
    // Friction must stop the player, not turn it round.
    if ((wasLeft && dx > 0) || (wasRight && dx < 0)) dx = 0;
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
  const cf = th(T_CTL_F), ci = th(T_CTL_I);
  rounds = 0;
  let active = 0;
  for (let i = 0; i < count; i++) {
    const f = cf + i * (CTL_F_FIELDS << 3);
    const n = ci + i * (CTL_I_FIELDS << 2);
    state = load<i32>(n + (CI_STATE << 2));
    if ((state & ST_LIVE) == 0) continue;
    x = load<f64>(f + (CF_X << 3));
    y = load<f64>(f + (CF_Y << 3));
    dx = load<f64>(f + (CF_DX << 3));
    dy = load<f64>(f + (CF_DY << 3));
    stepY = load<f64>(f + (CF_STEP_Y << 3));
    input = load<i32>(n + (CI_INPUT << 2));
    fallingJump = load<i32>(n + (CI_FALLING_JUMP << 2));
    stepping = load<i32>(n + (CI_STEPPING << 2));
    stepCount = load<i32>(n + (CI_STEP_COUNT << 2));
    hurting = load<i32>(n + (CI_HURTING << 2));
    score = load<i32>(n + (CI_SCORE << 2));
    hits = load<i32>(n + (CI_HITS << 2));
    step(dt);
    store<f64>(f + (CF_X << 3), x);
    store<f64>(f + (CF_Y << 3), y);
    store<f64>(f + (CF_DX << 3), dx);
    store<f64>(f + (CF_DY << 3), dy);
    store<f64>(f + (CF_STEP_Y << 3), stepY);
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
