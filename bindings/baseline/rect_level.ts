// The pure-TS baseline of the rects part: assembly/rect_level.ts, assembly/characters.ts and
// assembly/casts.ts ported function for function onto typed-array views of the same layout
// (layout/rects.ts). Same algorithm, same f64 arithmetic on f32 stores, so both backends
// agree bit for bit. Read the wasm files for the why of each step. One class holds the three
// files' functions because they share the call's counters and the last world rect.
import { BASELINE_ARENA_BASE } from "../../layout/grid.js";
import {
  CAST_BOX, CAST_CIRCLE, CAST_OUT_WORDS, CHAR_ENEMY, CHAR_NONE, CHAR_PLAYER, IN_JUMP, IN_LEFT, IN_RIGHT,
  MAX_DEPTH, MIRROR_X, MIRROR_Y, PF_HIT, PF_INSIDE, RC_BOUNCE, RC_EXTRA_PULL, RC_GRACE_FRAMES, RC_GRAVITY,
  RC_INSET, RC_JUMP_SPEED, RC_MAX_FALL, RC_RUN_SPEED, RC_SENSOR_BOTTOM, RC_SENSOR_TOP, RC_STEP_HEIGHT, RH,
  RH_CANDS, RH_CAST_INSTANCE, RH_CAST_OUT, RH_CAST_RECT, RH_CGRACE, RH_CH, RH_CHARS, RH_CINPUT, RH_CKIND,
  RH_CSTATE, RH_CVX, RH_CVY, RH_CW, RH_CX, RH_CY, RH_DEPTH, RH_INST_BOX, RH_INST_FLAGS, RH_INST_NODE,
  RH_INST_PREFAB, RH_INST_X, RH_INST_Y, RH_INSTANCES, RH_ITEMS, RH_NODE_BOX, RH_NODE_START, RH_NODE_SUB,
  RH_PFLAGS, RH_PR, RH_PREFAB_BOX, RH_PREFAB_START, RH_PVX, RH_PVY, RH_PX, RH_PY, RH_RECTS, RH_RESULTS,
  RH_STACK, RH_STOMPS, SEARCH_BOXES, SEARCH_TREE, RS_CHAR_TESTS, RS_FOUND, RS_INSTANCE_TESTS, RS_NODES, RS_RECT_TESTS, ST_GROUNDED,
  ST_HEAD_BUMP, ST_HURT, ST_JUMPED, ST_LANDED, ST_STOMPED, ST_STOMPING, ST_WALL_LEFT, ST_WALL_RIGHT, STACK_CAP,
} from "../../layout/rects.js";

/** What both backends of the rects part export (the wasm core's functions, the baseline's methods). */
export interface RectsKernel {
  readonly memory: WebAssembly.Memory;
  arenaBase(): number;
  /** Builds the quadtree of the given depth over the instances; returns its node count. */
  rectsBuild(depth: number): number;
  /** Instances whose master box overlaps the box, into RH_RESULTS; returns their number. */
  rectsQueryBox(x0: number, y0: number, x1: number, y1: number, search: number): number;
  /** Steps every character one frame; returns the stomps written to RH_STOMPS. */
  rectsStepCharacters(search: number): number;
  /** Casts a point, box or circle; returns 1 on a hit (details in RH_CAST_OUT and the header). */
  rectsCast(mode: number, px: number, py: number, dx: number, dy: number, a: number, b: number, search: number): number;
  /** Moves the projectiles without tunneling; returns how many hit. */
  rectsMoveProjectiles(count: number, search: number): number;
}

const HW = RH >> 2;
const levelOffset = (level: number): number => ((1 << (level << 1)) - 1) / 3;

export class RectsBaseline implements RectsKernel {
  readonly memory: WebAssembly.Memory;
  private buffer: ArrayBuffer | null = null;
  private f32 = new Float32Array(0);
  private f64 = new Float64Array(0);
  private i32 = new Int32Array(0);

  private nodeSteps = 0;
  private instanceTests = 0;
  private rectTests = 0;
  private charTests = 0;
  private wx0 = 0;
  private wy0 = 0;
  private wx1 = 0;
  private wy1 = 0;
  private ht = 0;
  private hnx = 0;
  private hny = 0;
  private bestT = 0;
  private bestNx = 0;
  private bestNy = 0;
  private bestInst = -1;
  private bestRect = -1;

  constructor(memory: WebAssembly.Memory) {
    this.memory = memory;
  }

  arenaBase(): number {
    return BASELINE_ARENA_BASE;
  }

  private views(): void {
    if (this.buffer !== this.memory.buffer) {
      this.buffer = this.memory.buffer;
      this.f32 = new Float32Array(this.buffer);
      this.f64 = new Float64Array(this.buffer);
      this.i32 = new Int32Array(this.buffer);
    }
  }

  private rh(field: number): number {
    return this.i32[HW + field];
  }

  private rhF(field: number): number {
    return this.f32[HW + field];
  }

  private resetStats(): void {
    this.nodeSteps = 0; this.instanceTests = 0; this.rectTests = 0; this.charTests = 0;
  }

  private flushStats(found: number): void {
    const h = this.i32;
    h[HW + RS_NODES] = this.nodeSteps;
    h[HW + RS_INSTANCE_TESTS] = this.instanceTests;
    h[HW + RS_RECT_TESTS] = this.rectTests;
    h[HW + RS_CHAR_TESTS] = this.charTests;
    h[HW + RS_FOUND] = found;
  }

  private worldRect(i: number, r: number): void {
    const f32 = this.f32, i32 = this.i32;
    const rw = (this.rh(RH_RECTS) >> 2) + (r << 2);
    let x = f32[rw], y = f32[rw + 1];
    const w = f32[rw + 2], h = f32[rw + 3];
    const flags = i32[(this.rh(RH_INST_FLAGS) >> 2) + i];
    if (flags & (MIRROR_X | MIRROR_Y)) {
      const bw = (this.rh(RH_PREFAB_BOX) >> 2) + (i32[(this.rh(RH_INST_PREFAB) >> 2) + i] << 2);
      if (flags & MIRROR_X) x = (f32[bw] + f32[bw + 2]) - (x + w);
      if (flags & MIRROR_Y) y = (f32[bw + 1] + f32[bw + 3]) - (y + h);
    }
    const tx = f32[(this.rh(RH_INST_X) >> 2) + i], ty = f32[(this.rh(RH_INST_Y) >> 2) + i];
    this.wx0 = tx + x; this.wy0 = ty + y; this.wx1 = this.wx0 + w; this.wy1 = this.wy0 + h;
  }

  private rectStart(i: number): number {
    return this.i32[(this.rh(RH_PREFAB_START) >> 2) + this.i32[(this.rh(RH_INST_PREFAB) >> 2) + i]];
  }

  private rectEnd(i: number): number {
    return this.i32[(this.rh(RH_PREFAB_START) >> 2) + this.i32[(this.rh(RH_INST_PREFAB) >> 2) + i] + 1];
  }

  // ---- rect_level.ts ---------------------------------------------------------------------------

  private instanceBoxes(n: number): void {
    const f32 = this.f32, f64 = this.f64, i32 = this.i32;
    const pw = this.rh(RH_INST_PREFAB) >> 2, xw = this.rh(RH_INST_X) >> 2, yw = this.rh(RH_INST_Y) >> 2;
    const boxd = this.rh(RH_INST_BOX) >> 3, pbw = this.rh(RH_PREFAB_BOX) >> 2;
    for (let i = 0; i < n; i++) {
      const bw = pbw + (i32[pw + i] << 2);
      const tx = f32[xw + i], ty = f32[yw + i];
      const o = boxd + (i << 2);
      f64[o] = tx + f32[bw];
      f64[o + 1] = ty + f32[bw + 1];
      f64[o + 2] = tx + f32[bw + 2];
      f64[o + 3] = ty + f32[bw + 3];
    }
  }

  rectsBuild(depth: number): number {
    this.views();
    const f64 = this.f64, i32 = this.i32;
    const n = this.rh(RH_INSTANCES);
    if (depth < 0) depth = 0;
    if (depth > MAX_DEPTH) depth = MAX_DEPTH;
    this.instanceBoxes(n);
    const boxd = this.rh(RH_INST_BOX) >> 3, nbd = this.rh(RH_NODE_BOX) >> 3, startw = this.rh(RH_NODE_START) >> 2;
    const subw = this.rh(RH_NODE_SUB) >> 2, itemsw = this.rh(RH_ITEMS) >> 2, nodew = this.rh(RH_INST_NODE) >> 2;
    const nodes = levelOffset(depth + 1);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < n; i++) {
      const o = boxd + (i << 2);
      x0 = Math.min(x0, f64[o]); y0 = Math.min(y0, f64[o + 1]);
      x1 = Math.max(x1, f64[o + 2]); y1 = Math.max(y1, f64[o + 3]);
    }
    if (n === 0) { x0 = 0; y0 = 0; x1 = 0; y1 = 0; }
    f64[nbd] = x0; f64[nbd + 1] = y0; f64[nbd + 2] = x1; f64[nbd + 3] = y1;
    for (let L = 0; L < depth; L++) {
      const side = 1 << L, off = levelOffset(L), coff = levelOffset(L + 1);
      for (let iy = 0; iy < side; iy++) {
        for (let ix = 0; ix < side; ix++) {
          const p = nbd + ((off + iy * side + ix) << 2);
          const px0 = f64[p], py0 = f64[p + 1], px1 = f64[p + 2], py1 = f64[p + 3];
          const mx = (px0 + px1) * 0.5, my = (py0 + py1) * 0.5;
          for (let q = 0; q < 4; q++) {
            const cx = q & 1, cy = q >> 1;
            const c = nbd + ((coff + ((iy << 1) + cy) * (side << 1) + (ix << 1) + cx) << 2);
            f64[c] = cx ? mx : px0; f64[c + 1] = cy ? my : py0;
            f64[c + 2] = cx ? px1 : mx; f64[c + 3] = cy ? py1 : my;
          }
        }
      }
    }
    i32.fill(0, startw, startw + nodes + 1);
    for (let i = 0; i < n; i++) {
      const o = boxd + (i << 2);
      const bx0 = f64[o], by0 = f64[o + 1], bx1 = f64[o + 2], by1 = f64[o + 3];
      let L = 0, ix = 0, iy = 0;
      while (L < depth) {
        const p = nbd + ((levelOffset(L) + iy * (1 << L) + ix) << 2);
        const mx = (f64[p] + f64[p + 2]) * 0.5, my = (f64[p + 1] + f64[p + 3]) * 0.5;
        let cx = -1, cy = -1;
        if (bx1 <= mx) cx = 0; else if (bx0 >= mx) cx = 1;
        if (by1 <= my) cy = 0; else if (by0 >= my) cy = 1;
        if (cx < 0 || cy < 0) break;
        L++; ix = (ix << 1) + cx; iy = (iy << 1) + cy;
      }
      const node = levelOffset(L) + iy * (1 << L) + ix;
      i32[nodew + i] = node;
      i32[startw + node]++;
    }
    for (let k = 0; k < nodes; k++) i32[subw + k] = i32[startw + k];
    for (let L = depth - 1; L >= 0; L--) {
      const side = 1 << L, off = levelOffset(L), coff = levelOffset(L + 1);
      for (let iy = 0; iy < side; iy++) {
        for (let ix = 0; ix < side; ix++) {
          let s = 0;
          for (let q = 0; q < 4; q++) s += i32[subw + coff + ((iy << 1) + (q >> 1)) * (side << 1) + (ix << 1) + (q & 1)];
          i32[subw + off + iy * side + ix] += s;
        }
      }
    }
    let run = 0;
    for (let k = 0; k < nodes; k++) {
      const c = i32[startw + k];
      i32[startw + k] = run;
      run += c;
    }
    i32[startw + nodes] = run;
    for (let i = 0; i < n; i++) {
      const p = startw + i32[nodew + i];
      const at = i32[p];
      i32[itemsw + at] = i;
      i32[p] = at + 1;
    }
    for (let k = nodes; k > 0; k--) i32[startw + k] = i32[startw + k - 1];
    i32[startw] = 0;
    i32[HW + RH_DEPTH] = depth;
    return nodes;
  }

  private treeQuery(x0: number, y0: number, x1: number, y1: number, outw: number): number {
    const depth = this.rh(RH_DEPTH);
    if (depth < 0) return 0;
    const f64 = this.f64, i32 = this.i32;
    const nbd = this.rh(RH_NODE_BOX) >> 3, startw = this.rh(RH_NODE_START) >> 2, subw = this.rh(RH_NODE_SUB) >> 2;
    const itemsw = this.rh(RH_ITEMS) >> 2, boxd = this.rh(RH_INST_BOX) >> 3, stackw = this.rh(RH_STACK) >> 2;
    if (i32[subw] === 0) return 0;
    if (!(x0 <= f64[nbd + 2] && f64[nbd] <= x1 && y0 <= f64[nbd + 3] && f64[nbd + 1] <= y1)) return 0;
    let found = 0;
    i32[stackw] = 0;
    let top = 1;
    while (top > 0) {
      top--;
      const packed = i32[stackw + top];
      const L = packed >>> 24, iy = (packed >>> 12) & 0xfff, ix = packed & 0xfff;
      const node = levelOffset(L) + iy * (1 << L) + ix;
      const end = i32[startw + node + 1];
      for (let k = i32[startw + node]; k < end; k++) {
        const i = i32[itemsw + k];
        const o = boxd + (i << 2);
        this.instanceTests++;
        if (x0 <= f64[o + 2] && f64[o] <= x1 && y0 <= f64[o + 3] && f64[o + 1] <= y1) i32[outw + found++] = i;
      }
      if (L >= depth) continue;
      this.nodeSteps++;
      const p = nbd + (node << 2);
      const mx = (f64[p] + f64[p + 2]) * 0.5, my = (f64[p + 1] + f64[p + 3]) * 0.5;
      const left = x0 <= mx, right = x1 >= mx, up = y0 <= my, down = y1 >= my;
      const coff = levelOffset(L + 1), cside = 2 << L;
      for (let q = 3; q >= 0; q--) {
        const cx = q & 1, cy = q >> 1;
        if (!(cx ? right : left) || !(cy ? down : up)) continue;
        const cix = (ix << 1) + cx, ciy = (iy << 1) + cy;
        if (i32[subw + coff + ciy * cside + cix] === 0) continue;
        if (top < STACK_CAP) i32[stackw + top++] = ((L + 1) << 24) | (ciy << 12) | cix;
      }
    }
    return found;
  }

  private bruteQuery(x0: number, y0: number, x1: number, y1: number, outw: number): number {
    const f64 = this.f64, i32 = this.i32;
    const n = this.rh(RH_INSTANCES), boxd = this.rh(RH_INST_BOX) >> 3;
    let found = 0;
    for (let i = 0; i < n; i++) {
      const o = boxd + (i << 2);
      this.instanceTests++;
      if (x0 <= f64[o + 2] && f64[o] <= x1 && y0 <= f64[o + 3] && f64[o + 1] <= y1) i32[outw + found++] = i;
    }
    return found;
  }

  private findCandidates(search: number, x0: number, y0: number, x1: number, y1: number, outw: number): number {
    if (search === SEARCH_TREE) return this.treeQuery(x0, y0, x1, y1, outw);
    if (search === SEARCH_BOXES) return this.bruteQuery(x0, y0, x1, y1, outw);
    const n = this.rh(RH_INSTANCES), i32 = this.i32;
    for (let i = 0; i < n; i++) i32[outw + i] = i;
    return n;
  }

  rectsQueryBox(x0: number, y0: number, x1: number, y1: number, search: number): number {
    this.views();
    this.resetStats();
    const out = this.rh(RH_RESULTS) >> 2;
    const n = search === SEARCH_TREE ? this.treeQuery(x0, y0, x1, y1, out) : this.bruteQuery(x0, y0, x1, y1, out);
    this.flushStats(n);
    return n;
  }

  // ---- characters.ts -----------------------------------------------------------------------------

  rectsStepCharacters(search: number): number {
    this.views();
    this.resetStats();
    const f32 = this.f32, i32 = this.i32;
    const count = this.rh(RH_CHARS);
    const gravity = this.rhF(RC_GRAVITY), maxFall = this.rhF(RC_MAX_FALL), run = this.rhF(RC_RUN_SPEED);
    const jumpSpeed = this.rhF(RC_JUMP_SPEED), pull = this.rhF(RC_EXTRA_PULL), graceFrames = this.rh(RC_GRACE_FRAMES);
    const sTop = this.rhF(RC_SENSOR_TOP), sBottom = this.rhF(RC_SENSOR_BOTTOM), step = this.rhF(RC_STEP_HEIGHT);
    const inset = this.rhF(RC_INSET);
    const xw = this.rh(RH_CX) >> 2, yw = this.rh(RH_CY) >> 2, ww = this.rh(RH_CW) >> 2, hw = this.rh(RH_CH) >> 2;
    const vxw = this.rh(RH_CVX) >> 2, vyw = this.rh(RH_CVY) >> 2, kw = this.rh(RH_CKIND) >> 2;
    const iw = this.rh(RH_CINPUT) >> 2, sw = this.rh(RH_CSTATE) >> 2, gw = this.rh(RH_CGRACE) >> 2;
    const candw = this.rh(RH_CANDS) >> 2;
    for (let c = 0; c < count; c++) {
      if (i32[kw + c] === CHAR_NONE) continue;
      const input = i32[iw + c], before = i32[sw + c];
      let grace = i32[gw + c];
      const w = f32[ww + c], h = f32[hw + c];
      let x = f32[xw + c], y = f32[yw + c], vy = f32[vyw + c];
      const wasGrounded = (before & ST_GROUNDED) !== 0;
      let state = 0;
      let vx = 0;
      if (input & IN_LEFT) vx -= run;
      if (input & IN_RIGHT) vx += run;
      if ((input & IN_JUMP) && (wasGrounded || grace > 0)) {
        vy = -jumpSpeed;
        grace = 0;
        state |= ST_JUMPED;
      }
      vy += gravity;
      if (!wasGrounded && grace > 0) vy += pull;
      if (vy > maxFall) vy = maxFall;
      x += vx;
      y += vy;
      let n = this.findCandidates(search, x, y, x + w, y + h, candw);
      const half = x + w * 0.5;
      const sy0 = y + sTop, sy1 = y + h - step;
      let toRight = -Infinity, toLeft = Infinity;
      for (let k = 0; k < n; k++) {
        const i = i32[candw + k];
        const end = this.rectEnd(i);
        for (let r = this.rectStart(i); r < end; r++) {
          this.worldRect(i, r);
          this.rectTests += 2;
          const wx0 = this.wx0, wy0 = this.wy0, wx1 = this.wx1, wy1 = this.wy1;
          if (x <= wx1 && wx0 <= half && sy0 <= wy1 && wy0 <= sy1 && wx1 > toRight) toRight = wx1;
          if (half <= wx1 && wx0 <= x + w && sy0 <= wy1 && wy0 <= sy1 && wx0 < toLeft) toLeft = wx0;
        }
      }
      if (toRight > -Infinity) { x = toRight; state |= ST_WALL_LEFT; if (vx < 0) vx = 0; }
      if (toLeft < Infinity) { x = toLeft - w; state |= ST_WALL_RIGHT; if (vx > 0) vx = 0; }
      if (toRight > -Infinity || toLeft < Infinity) n = this.findCandidates(search, x, y, x + w, y + h, candw);
      const tx0 = x + inset, tx1 = x + w - inset;
      const by0 = y + h - sBottom, by1 = y + h, hy1 = y + sTop;
      let ground = Infinity, ceiling = -Infinity;
      for (let k = 0; k < n; k++) {
        const i = i32[candw + k];
        const end = this.rectEnd(i);
        for (let r = this.rectStart(i); r < end; r++) {
          this.worldRect(i, r);
          this.rectTests += 2;
          const wx0 = this.wx0, wy0 = this.wy0, wx1 = this.wx1, wy1 = this.wy1;
          const xs = tx0 <= wx1 && wx0 <= tx1;
          if (xs && by0 <= wy1 && wy0 <= by1 && wy0 < ground) ground = wy0;
          if (xs && y <= wy1 && wy0 <= hy1 && wy1 > ceiling) ceiling = wy1;
        }
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
      if (state & ST_GROUNDED) grace = graceFrames;
      else if (grace > 0) grace--;
      f32[xw + c] = x;
      f32[yw + c] = y;
      f32[vxw + c] = vx;
      f32[vyw + c] = vy;
      i32[sw + c] = state;
      i32[gw + c] = grace;
    }
    const stomps = this.stompPass(count, sBottom, inset, this.rhF(RC_BOUNCE));
    this.flushStats(stomps);
    return stomps;
  }

  private stompPass(count: number, sBottom: number, inset: number, bounce: number): number {
    const f32 = this.f32, i32 = this.i32;
    const xw = this.rh(RH_CX) >> 2, yw = this.rh(RH_CY) >> 2, ww = this.rh(RH_CW) >> 2, hw = this.rh(RH_CH) >> 2;
    const vyw = this.rh(RH_CVY) >> 2, kw = this.rh(RH_CKIND) >> 2, sw = this.rh(RH_CSTATE) >> 2;
    const outw = this.rh(RH_STOMPS) >> 2;
    let stomps = 0;
    for (let p = 0; p < count; p++) {
      if (i32[kw + p] !== CHAR_PLAYER) continue;
      const px = f32[xw + p], py = f32[yw + p], pw = f32[ww + p], ph = f32[hw + p];
      for (let e = 0; e < count; e++) {
        if (i32[kw + e] !== CHAR_ENEMY || (i32[sw + e] & ST_STOMPED) !== 0) continue;
        const ex = f32[xw + e], ey = f32[yw + e];
        const ex1 = ex + f32[ww + e], ey1 = ey + f32[hw + e];
        this.charTests++;
        if (!(px <= ex1 && ex <= px + pw && py <= ey1 && ey <= py + ph)) continue;
        const vy = f32[vyw + p];
        const state = i32[sw + p];
        const fx0 = px + inset, fy0 = py + ph - sBottom, fx1 = px + pw - inset, fy1 = py + ph;
        if (vy >= 0 && (state & ST_GROUNDED) === 0 && fx0 <= ex1 && ex <= fx1 && fy0 <= ey1 && ey <= fy1 && py + ph <= ey + sBottom) {
          i32[sw + e] |= ST_STOMPED;
          i32[sw + p] = state | ST_STOMPING;
          f32[vyw + p] = -bounce;
          i32[outw + 2 * stomps] = p;
          i32[outw + 2 * stomps + 1] = e;
          stomps++;
        } else {
          i32[sw + p] = state | ST_HURT;
        }
      }
    }
    return stomps;
  }

  // ---- casts.ts -----------------------------------------------------------------------------------

  private castRect(mode: number, px: number, py: number, dx: number, dy: number, a: number, b: number, x0: number, y0: number, x1: number, y1: number): boolean {
    const gx0 = x0 - a, gx1 = x1 + a, gy0 = y0 - b, gy1 = y1 + b;
    let tn = -Infinity, tf = Infinity, nx = 0, ny = 0;
    if (dx === 0) {
      if (px < gx0 || px > gx1) return false;
    } else {
      const t0 = (gx0 - px) / dx, t1 = (gx1 - px) / dx;
      tn = Math.min(t0, t1); tf = Math.max(t0, t1);
      nx = dx > 0 ? -1 : 1;
    }
    if (dy === 0) {
      if (py < gy0 || py > gy1) return false;
    } else {
      const t0 = (gy0 - py) / dy, t1 = (gy1 - py) / dy;
      const ten = Math.min(t0, t1), tex = Math.max(t0, t1);
      if (ten > tn) { tn = ten; nx = 0; ny = dy > 0 ? -1 : 1; }
      if (tex < tf) tf = tex;
    }
    if (tn > tf || tf < 0 || tn > 1) return false;
    if (tn < 0) {
      if (tf === 0) return false;
      if (mode === CAST_CIRCLE) {
        const outX = px < x0 || px > x1, outY = py < y0 || py > y1;
        if (outX && outY) return this.cornerCast(px, py, dx, dy, a, px < x0 ? x0 : x1, py < y0 ? y0 : y1);
      }
      this.ht = 0; this.hnx = 0; this.hny = 0;
      return true;
    }
    if (mode === CAST_CIRCLE) {
      const hx = px + tn * dx, hy = py + tn * dy;
      if ((hx < x0 || hx > x1) && (hy < y0 || hy > y1)) return this.cornerCast(px, py, dx, dy, a, hx < x0 ? x0 : x1, hy < y0 ? y0 : y1);
    }
    this.ht = tn; this.hnx = nx; this.hny = ny;
    return true;
  }

  private cornerCast(px: number, py: number, dx: number, dy: number, r: number, cx: number, cy: number): boolean {
    const fx = px - cx, fy = py - cy;
    const c = fx * fx + fy * fy - r * r;
    if (c <= 0) { this.ht = 0; this.hnx = 0; this.hny = 0; return c < 0 || fx * dx + fy * dy < 0; }
    const a = dx * dx + dy * dy, b = fx * dx + fy * dy;
    if (b >= 0 || a === 0) return false;
    const disc = b * b - a * c;
    if (disc < 0) return false;
    const t = (-b - Math.sqrt(disc)) / a;
    if (t > 1) return false;
    const ht = t < 0 ? 0 : t;
    this.ht = ht;
    this.hnx = (fx + ht * dx) / r;
    this.hny = (fy + ht * dy) / r;
    return true;
  }

  private castCandidates(n: number, mode: number, px: number, py: number, dx: number, dy: number, a: number, b: number): boolean {
    const i32 = this.i32, candw = this.rh(RH_CANDS) >> 2;
    this.bestT = Infinity; this.bestInst = -1; this.bestRect = -1; this.bestNx = 0; this.bestNy = 0;
    for (let k = 0; k < n; k++) {
      const i = i32[candw + k];
      const end = this.rectEnd(i);
      for (let r = this.rectStart(i); r < end; r++) {
        this.worldRect(i, r);
        this.rectTests++;
        if (!this.castRect(mode, px, py, dx, dy, a, b, this.wx0, this.wy0, this.wx1, this.wy1)) continue;
        const ht = this.ht;
        if (ht < this.bestT || (ht === this.bestT && (i < this.bestInst || (i === this.bestInst && r < this.bestRect)))) {
          this.bestT = ht; this.bestNx = this.hnx; this.bestNy = this.hny; this.bestInst = i; this.bestRect = r;
        }
      }
    }
    return this.bestInst >= 0;
  }

  private sweepCandidates(px: number, py: number, dx: number, dy: number, a: number, b: number, search: number): number {
    const x0 = Math.min(px, px + dx) - a, x1 = Math.max(px, px + dx) + a;
    const y0 = Math.min(py, py + dy) - b, y1 = Math.max(py, py + dy) + b;
    const out = this.rh(RH_CANDS) >> 2;
    return this.findCandidates(search, x0, y0, x1, y1, out);
  }

  rectsCast(mode: number, px: number, py: number, dx: number, dy: number, a: number, b: number, search: number): number {
    this.views();
    this.resetStats();
    if (mode === CAST_CIRCLE) b = a;
    else if (mode !== CAST_BOX) { a = 0; b = 0; }
    const n = this.sweepCandidates(px, py, dx, dy, a, b, search);
    const hit = this.castCandidates(n, mode, px, py, dx, dy, a, b);
    const od = this.rh(RH_CAST_OUT) >> 3, f64 = this.f64;
    f64.fill(0, od, od + CAST_OUT_WORDS);
    if (hit) {
      f64[od] = this.bestT;
      f64[od + 1] = this.bestNx;
      f64[od + 2] = this.bestNy;
      f64[od + 3] = px + this.bestT * dx;
      f64[od + 4] = py + this.bestT * dy;
    }
    this.i32[HW + RH_CAST_INSTANCE] = hit ? this.bestInst : -1;
    this.i32[HW + RH_CAST_RECT] = hit ? this.bestRect : -1;
    this.flushStats(hit ? 1 : 0);
    return hit ? 1 : 0;
  }

  rectsMoveProjectiles(count: number, search: number): number {
    this.views();
    this.resetStats();
    const f32 = this.f32, i32 = this.i32;
    const xw = this.rh(RH_PX) >> 2, yw = this.rh(RH_PY) >> 2, vxw = this.rh(RH_PVX) >> 2, vyw = this.rh(RH_PVY) >> 2;
    const rw = this.rh(RH_PR) >> 2, fw = this.rh(RH_PFLAGS) >> 2;
    let hits = 0;
    for (let q = 0; q < count; q++) {
      const px = f32[xw + q], py = f32[yw + q];
      let vx = f32[vxw + q], vy = f32[vyw + q];
      const r = f32[rw + q];
      const mode = r > 0 ? CAST_CIRCLE : 0;
      const n = this.sweepCandidates(px, py, vx, vy, r, r, search);
      if (!this.castCandidates(n, mode, px, py, vx, vy, r, r)) {
        f32[xw + q] = px + vx;
        f32[yw + q] = py + vy;
        i32[fw + q] = 0;
        continue;
      }
      hits++;
      const nx = this.bestNx, ny = this.bestNy, t = this.bestT;
      if (nx === 0 && ny === 0) { i32[fw + q] = PF_INSIDE; continue; }
      const skin = 1e-3 + (Math.max(Math.abs(px), Math.abs(py)) + Math.abs(vx) + Math.abs(vy)) * 2.384185791015625e-7;
      f32[xw + q] = px + t * vx + nx * skin;
      f32[yw + q] = py + t * vy + ny * skin;
      const dot = vx * nx + vy * ny;
      vx -= 2 * dot * nx;
      vy -= 2 * dot * ny;
      f32[vxw + q] = vx;
      f32[vyw + q] = vy;
      i32[fw + q] = PF_HIT;
    }
    this.flushStats(hits);
    return hits;
  }
}
