// The pure-TS baseline of assembly/tile_controller.ts: the seed's player update for many
// controllers, the same steps in the same order over the same layout. Read the wasm file for the
// why of each step.
import { TILES_HEADER } from "../../layout/grid.js";
import {
  CELL_ONE_WAY, CELL_PLATFORM, CF_DX, CF_DY, CF_STEP_Y, CF_X, CF_Y, CI_EVENTS, CI_FALLING_JUMP, CI_HITS, CI_HURTING, CI_INPUT, CI_SCORE,
  CI_STATE, CI_STEP_COUNT, CI_STEPPING, CTL_F_FIELDS, CTL_I_FIELDS, EV_CLIMB, EV_COIN, EV_FALL, EV_HEAD,
  EV_HURT, EV_JUMP, EV_LANDED, EV_STEP, EV_WALL, HIT_BLOCKED, HIT_COIN, HIT_LADDER, HIT_MONSTER, HIT_ONE_WAY,
  HIT_SPIKE, IN_DOWN, IN_JUMP, IN_LEFT, IN_RIGHT, IN_UP, MAX_ITERATIONS, P_ACCEL, P_CLIMBDY, P_COIN_SCORE,
  P_FALLING_JUMP, P_FRICTION, P_GRAVITY, P_H, P_HURT_FRAMES, P_IMPULSE, P_LADDER_EDGE, P_MAXDX, P_MAXDY,
  P_STEP_FRAMES, P_SURFACE, P_TILE, P_W, S_T_ITERATIONS, ST_CLIMBING, ST_FALLING, ST_LIVE, T_CTL_F, T_CTL_I,
} from "../../layout/tiles.js";
import { BaselineTileMap } from "./tile_map.js";

const TL = 0, TR = 1, ML = 2, MR = 3, BL = 4, BR = 5, UL = 6, UR = 7, LU = 8, LD = 9;
const NPTS = 10;
const SOLID = HIT_BLOCKED, STAND = HIT_BLOCKED | HIT_ONE_WAY, HURT = HIT_MONSTER | HIT_SPIKE;

/** The whole tile kernel in TS: the map's loops plus the controller. */
export class BaselineTileKernel extends BaselineTileMap {
  // Per point: offset, then what the last update found (the wasm core keeps these in static data).
  private readonly offX = new Float64Array(NPTS);
  private readonly offY = new Float64Array(NPTS);
  private readonly pCol = new Int32Array(NPTS);
  private readonly pRow = new Int32Array(NPTS);
  private readonly pCell = new Int32Array(NPTS);
  private readonly pHits = new Int32Array(NPTS);

  private T = 1;
  private maxdx = 0;
  private maxdy = 0;
  private climbdy = 0;
  private gravity = 0;
  private impulse = 0;
  private accel = 0;
  private friction = 0;
  private surface = 0;
  private ladderEdge = 0;
  private fallingJumpFrames = 0;
  private stepFrames = 1;
  private hurtFrames = 0;
  private coinScore = 0;
  private pw = 0;

  private x = 0;
  private y = 0;
  private dx = 0;
  private dy = 0;
  private stepY = 0;
  private state = 0;
  private input = 0;
  private fallingJump = 0;
  private stepping = 0;
  private stepCount = 0;
  private hurting = 0;
  private score = 0;
  private hits = 0;
  private events = 0;
  private rounds = 0;
  // Doubles handed to step and sweepFall through fields: V8 boxes double arguments of calls it does not inline.
  private dt = 0;
  private oldY = 0;

  private setOffset(p: number, ox: number, oy: number): void {
    this.offX[p] = ox;
    this.offY[p] = oy;
  }

  private loadTuning(): void {
    this.T = this.param(P_TILE);
    this.pw = this.param(P_W);
    this.maxdx = this.param(P_MAXDX);
    this.maxdy = this.param(P_MAXDY);
    this.climbdy = this.param(P_CLIMBDY);
    this.gravity = this.param(P_GRAVITY);
    this.impulse = this.param(P_IMPULSE);
    this.accel = this.param(P_ACCEL);
    this.friction = this.param(P_FRICTION);
    this.surface = this.param(P_SURFACE);
    this.ladderEdge = this.param(P_LADDER_EDGE);
    this.fallingJumpFrames = Math.trunc(this.param(P_FALLING_JUMP));
    this.stepFrames = Math.trunc(this.param(P_STEP_FRAMES));
    if (this.stepFrames < 1) this.stepFrames = 1;
    this.hurtFrames = Math.trunc(this.param(P_HURT_FRAMES));
    this.coinScore = Math.trunc(this.param(P_COIN_SCORE));
    const w = this.param(P_W), h = this.param(P_H), px = this.T / 32;
    this.setOffset(TL, -w / 4, h - 2 * px);
    this.setOffset(TR, w / 4, h - 2 * px);
    this.setOffset(ML, -w / 2, h / 2);
    this.setOffset(MR, w / 2, h / 2);
    this.setOffset(BL, -w / 4, 0);
    this.setOffset(BR, w / 4, 0);
    this.setOffset(UL, -w / 4, -px);
    this.setOffset(UR, w / 4, -px);
    this.setOffset(LU, 0, h / 2);
    this.setOffset(LD, 0, -px);
  }

  private updatePoints(): void {
    for (let p = 0; p < NPTS; p++) {
      this.qx = this.normX(this.x + this.offX[p]);
      this.qy = this.y + this.offY[p];
      const h = this.pointHits();
      this.pCol[p] = this.lastCol;
      this.pRow[p] = this.lastRow;
      this.pCell[p] = this.lastCell;
      this.pHits[p] = h;
    }
  }

  private has(p: number, bits: number): boolean {
    return (this.pHits[p] & bits) !== 0;
  }

  private collide(p: number, left: boolean): boolean {
    this.x = this.normX((this.pCol[p] + (left ? 1 : 0)) * this.T - this.offX[p]);
    this.dx = 0;
    this.events |= EV_WALL;
    return true;
  }

  private collideUp(p: number): boolean {
    this.y = this.pRow[p] * this.T - this.offY[p];
    this.dy = 0;
    this.events |= EV_HEAD;
    return true;
  }

  private collideDown(p: number): boolean {
    this.y = (this.pRow[p] + 1) * this.T;
    this.dy = 0;
    this.state &= ~ST_FALLING;
    this.events |= EV_LANDED;
    return true;
  }

  private stopClimbing(p: number): boolean {
    this.state &= ~ST_CLIMBING;
    this.dy = 0;
    if (p >= 0) this.y = (this.pRow[p] + 1) * this.T;
    return true;
  }

  private startSteppingUp(dir: number, p: number): boolean {
    this.stepping = dir;
    this.stepCount = this.stepFrames;
    this.stepY = (this.pRow[p] + 1) * this.T;
    this.events |= EV_STEP;
    return false;
  }

  private checkCollision(): boolean {
    const falling = (this.state & ST_FALLING) !== 0;
    const fallingUp = falling && this.dy > 0;
    const fallingDown = falling && this.dy <= 0;
    const climbing = (this.state & ST_CLIMBING) !== 0;
    const up = (this.input & IN_UP) !== 0, down = (this.input & IN_DOWN) !== 0;
    const climbingDown = climbing && down;
    const runningLeft = this.dx < 0, runningRight = this.dx > 0;
    const T = this.T, y = this.y, offY = this.offY, pRow = this.pRow;
    this.updatePoints();

    for (let p = TL; p <= BR; p++) {
      if (this.has(p, HIT_COIN)) {
        this.clearCoin(this.pCell[p]);
        this.score += this.coinScore;
        this.events |= EV_COIN;
        return true;
      }
    }
    if (fallingDown && this.has(BL, STAND) && !this.has(ML, SOLID) && !this.has(TL, SOLID) && y + offY[BL] > (pRow[BL] + 1) * T - this.surface) return this.collideDown(BL);
    if (fallingDown && this.has(BR, STAND) && !this.has(MR, SOLID) && !this.has(TR, SOLID) && y + offY[BR] > (pRow[BR] + 1) * T - this.surface) return this.collideDown(BR);
    if (fallingDown && this.has(LD, HIT_LADDER) && !this.has(LU, HIT_LADDER)) return this.collideDown(LD);
    if (fallingUp && this.has(TL, SOLID) && !this.has(ML, SOLID) && !this.has(BL, SOLID)) return this.collideUp(TL);
    if (fallingUp && this.has(TR, SOLID) && !this.has(MR, SOLID) && !this.has(BR, SOLID)) return this.collideUp(TR);
    if (climbingDown && this.has(LD, STAND)) return this.stopClimbing(LD);
    if (runningRight && this.has(TR, SOLID) && !this.has(TL, SOLID)) return this.collide(TR, false);
    if (runningRight && this.has(MR, SOLID) && !this.has(ML, SOLID)) return this.collide(MR, false);
    if (runningRight && this.has(BR, SOLID) && !this.has(BL, SOLID)) {
      if (falling) return this.collide(BR, false);
      return this.startSteppingUp(1, BR);
    }
    if (runningLeft && this.has(TL, SOLID) && !this.has(TR, SOLID)) return this.collide(TL, true);
    if (runningLeft && this.has(ML, SOLID) && !this.has(MR, SOLID)) return this.collide(ML, true);
    if (runningLeft && this.has(BL, SOLID) && !this.has(BR, SOLID)) {
      if (falling) return this.collide(BL, true);
      return this.startSteppingUp(-1, BL);
    }
    const ladderCentre = (this.pCol[LU] + 0.5) * T;
    const onLadder = (this.has(LU, HIT_LADDER) || this.has(LD, HIT_LADDER)) && this.ladderEdge > Math.abs(this.x - ladderCentre) / (T / 2);
    if (!climbing && onLadder && ((this.has(LU, HIT_LADDER) && up) || (this.has(LD, HIT_LADDER) && down))) {
      this.state |= ST_CLIMBING;
      this.dx = 0;
      this.events |= EV_CLIMB;
      return false;
    } else if (!climbing && !falling && !this.has(UL, STAND) && !this.has(UR, STAND) && !onLadder) {
      this.state |= ST_FALLING;
      this.fallingJump = this.fallingJumpFrames;
      this.events |= EV_FALL;
      return false;
    }
    if (climbing && !onLadder) return this.stopClimbing(-1);
    if (this.hurting === 0) {
      if (this.has(TL, HURT) || this.has(TR, HURT) || this.has(ML, HURT) || this.has(MR, HURT) || this.has(BL, HURT) || this.has(BR, HURT) || this.has(LU, HURT) || this.has(LD, HURT)) {
        this.hurting = this.hurtFrames > 0 ? this.hurtFrames : 1;
        this.hits++;
        this.events |= EV_HURT;
        return true;
      }
    }
    return false;
  }

  private sweepFall(): void {
    const oldY = this.oldY;
    const T = this.T;
    let r = this.cellOf(oldY) - 1;
    const cl = this.cellOf(this.normX(this.x - this.pw / 4)), cr = this.cellOf(this.normX(this.x + this.pw / 4));
    while (r >= -1 && (r + 1) * T - this.surface > this.y) {
      if ((this.flagsAt(cl, r) | this.flagsAt(cr, r)) & (CELL_PLATFORM | CELL_ONE_WAY)) {
        this.y = (r + 1) * T - this.surface * 0.5;
        return;
      }
      r--;
    }
  }

  private step(): void {
    const dt = this.dt;
    this.events = 0;
    const wasLeft = this.dx < 0, wasRight = this.dx > 0;
    if (this.stepping !== 0) {
      this.y += this.T / this.stepFrames;
      this.x = this.normX(this.x + this.stepping * (this.pw / 4) / this.stepFrames);
      this.stepCount--;
      if (this.stepCount <= 0 || this.y >= this.stepY) {
        this.y = this.stepY;
        this.stepping = 0;
        this.stepCount = 0;
      }
    } else {
      const falling = (this.state & ST_FALLING) !== 0;
      let ddx = 0;
      let ddy = falling ? -this.gravity : 0;
      if (this.state & ST_CLIMBING) {
        ddy = 0;
        if (this.input & IN_UP) this.dy = this.climbdy;
        else if (this.input & IN_DOWN) this.dy = -this.climbdy;
        else this.dy = 0;
      }
      if (this.input & IN_LEFT) ddx -= this.accel;
      else if (wasLeft) ddx += this.friction;
      if (this.input & IN_RIGHT) ddx += this.accel;
      else if (wasRight) ddx -= this.friction;
      if ((this.input & IN_JUMP) && (!falling || this.fallingJump > 0)) {
        if (this.state & ST_CLIMBING) this.stopClimbing(-1);
        this.dy = 0;
        ddy = this.impulse;
        this.state |= ST_FALLING;
        this.fallingJump = 0;
        this.input &= ~IN_JUMP;
        this.events |= EV_JUMP;
      }
      const oldY = this.y;
      this.x = this.normX(this.x + dt * this.dx);
      this.y = this.y + dt * this.dy;
      // bound() written out: a double-valued helper call that V8 does not inline boxes its arguments.
      const ndx = this.dx + dt * ddx, ndy = this.dy + dt * ddy;
      this.dx = ndx < -this.maxdx ? -this.maxdx : ndx > this.maxdx ? this.maxdx : ndx;
      this.dy = ndy < -this.maxdy ? -this.maxdy : ndy > this.maxdy ? this.maxdy : ndy;
      this.oldY = oldY;
      if (this.y < oldY) this.sweepFall();
      let k = 0;
      while (k < MAX_ITERATIONS) {
        k++;
        if (!this.checkCollision()) break;
      }
      this.rounds += k;
      if ((wasLeft && this.dx > 0) || (wasRight && this.dx < 0)) this.dx = 0;
      if ((this.state & ST_FALLING) !== 0 && this.fallingJump > 0) this.fallingJump--;
    }
    if (this.hurting > 0 && (this.events & EV_HURT) === 0) this.hurting--;
  }

  stepControllers(count: number, dt: number): number {
    this.loadMap();
    this.loadTuning();
    const f64 = this.f64, i32 = this.i32;
    const cf = this.th(T_CTL_F) >> 3, ci = this.th(T_CTL_I) >> 2;
    this.rounds = 0;
    this.dt = dt;
    let active = 0;
    for (let i = 0; i < count; i++) {
      const f = cf + i * CTL_F_FIELDS;
      const n = ci + i * CTL_I_FIELDS;
      this.state = i32[n + CI_STATE];
      if ((this.state & ST_LIVE) === 0) continue;
      this.x = f64[f + CF_X];
      this.y = f64[f + CF_Y];
      this.dx = f64[f + CF_DX];
      this.dy = f64[f + CF_DY];
      this.stepY = f64[f + CF_STEP_Y];
      this.input = i32[n + CI_INPUT];
      this.fallingJump = i32[n + CI_FALLING_JUMP];
      this.stepping = i32[n + CI_STEPPING];
      this.stepCount = i32[n + CI_STEP_COUNT];
      this.hurting = i32[n + CI_HURTING];
      this.score = i32[n + CI_SCORE];
      this.hits = i32[n + CI_HITS];
      this.step();
      f64[f + CF_X] = this.x;
      f64[f + CF_Y] = this.y;
      f64[f + CF_DX] = this.dx;
      f64[f + CF_DY] = this.dy;
      f64[f + CF_STEP_Y] = this.stepY;
      i32[n + CI_STATE] = this.state;
      i32[n + CI_INPUT] = this.input;
      i32[n + CI_FALLING_JUMP] = this.fallingJump;
      i32[n + CI_STEPPING] = this.stepping;
      i32[n + CI_STEP_COUNT] = this.stepCount;
      i32[n + CI_HURTING] = this.hurting;
      i32[n + CI_SCORE] = this.score;
      i32[n + CI_HITS] = this.hits;
      i32[n + CI_EVENTS] = this.events;
      if (this.events !== 0) active++;
    }
    this.i32[(TILES_HEADER >> 2) + S_T_ITERATIONS] = this.rounds;
    this.saveStats();
    return active;
  }
}
