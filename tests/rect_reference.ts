// The brute-force reference for the rects part, written straight from the seed with plain objects
// and no hierarchy: every instance is stamped into its own world rects (the "lazy" 16 x 8 = 128
// rects the seed avoids), every character tests every rect, and casts intersect the segment with
// each edge (and each corner circle) instead of the kernels' slab method.
const f = Math.fround;

export interface RefRect { x0: number; y0: number; x1: number; y1: number; instance: number; rect: number }

export class RefLevel {
  prefabs: number[][] = [];
  boxes: number[][] = [];
  instances: { prefab: number; x: number; y: number; mirror: number }[] = [];

  addPrefab(rects: number[]): number {
    const r = rects.map(f);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let k = 0; k < r.length; k += 4) {
      x0 = Math.min(x0, r[k]); y0 = Math.min(y0, r[k + 1]);
      x1 = Math.max(x1, r[k] + r[k + 2]); y1 = Math.max(y1, r[k + 1] + r[k + 3]);
    }
    this.prefabs.push(r);
    this.boxes.push([x0, y0, x1, y1]);
    return this.prefabs.length - 1;
  }

  addInstance(prefab: number, x: number, y: number, mirror = 0): number {
    this.instances.push({ prefab, x: f(x), y: f(y), mirror });
    return this.instances.length - 1;
  }

  /** Every rect of every instance in world space, mirrored inside the prefab's box, then translated. */
  stamp(): RefRect[] {
    const out: RefRect[] = [];
    this.instances.forEach((inst, i) => {
      const r = this.prefabs[inst.prefab], [bx0, by0, bx1, by1] = this.boxes[inst.prefab];
      for (let k = 0; k < r.length / 4; k++) {
        let x = r[4 * k], y = r[4 * k + 1];
        const w = r[4 * k + 2], h = r[4 * k + 3];
        if (inst.mirror & 1) x = (bx0 + bx1) - (x + w);
        if (inst.mirror & 2) y = (by0 + by1) - (y + h);
        const x0 = inst.x + x, y0 = inst.y + y;
        out.push({ x0, y0, x1: x0 + w, y1: y0 + h, instance: i, rect: k });
      }
    });
    return out;
  }

  /** Instances whose box (the prefab's box, translated) overlaps the query, touching included. */
  queryBox(x0: number, y0: number, x1: number, y1: number): number[] {
    const found: number[] = [];
    this.instances.forEach((inst, i) => {
      const b = this.boxes[inst.prefab];
      if (x0 <= inst.x + b[2] && inst.x + b[0] <= x1 && y0 <= inst.y + b[3] && inst.y + b[1] <= y1) found.push(i);
    });
    return found;
  }
}

export interface RefCharacter {
  x: number; y: number; w: number; h: number; vx: number; vy: number;
  kind: number; input: number; state: number; grace: number;
}

export interface RefConfig {
  gravity: number; maxFall: number; runSpeed: number; jumpSpeed: number; extraPull: number; graceFrames: number;
  sensorTop: number; sensorBottom: number; stepHeight: number; inset: number; bounce: number;
}

const touch = (ax0: number, ay0: number, ax1: number, ay1: number, r: RefRect) => ax0 <= r.x1 && r.x0 <= ax1 && ay0 <= r.y1 && r.y0 <= ay1;

/** One frame of the seed's four-sensor character against every rect; returns the stomps as [player, enemy]. */
export function refStep(chars: RefCharacter[], rects: RefRect[], cfg: RefConfig): [number, number][] {
  const c32 = Object.fromEntries(Object.entries(cfg).map(([k, v]) => [k, f(v)])) as unknown as RefConfig;
  for (const ch of chars) {
    if (ch.kind === 0) continue;
    const wasGrounded = (ch.state & 1) !== 0;
    let state = 0, vx = 0, vy = ch.vy, x = ch.x, y = ch.y, grace = ch.grace;
    // Input bits: 1 left, 2 right, 16 jump; state bits as CharacterState.
    if (ch.input & 1) vx -= c32.runSpeed;
    if (ch.input & 2) vx += c32.runSpeed;
    if ((ch.input & 16) && (wasGrounded || grace > 0)) { vy = -c32.jumpSpeed; grace = 0; state |= 256; }
    vy += c32.gravity;
    if (!wasGrounded && grace > 0) vy += c32.extraPull;
    if (vy > c32.maxFall) vy = c32.maxFall;
    x += vx; y += vy;
    const { w, h } = ch;
    // Red and blue: the side boxes, from below the head to stepHeight above the feet.
    let toRight = -Infinity, toLeft = Infinity;
    for (const r of rects) {
      if (touch(x, y + c32.sensorTop, x + w * 0.5, y + h - c32.stepHeight, r)) toRight = Math.max(toRight, r.x1);
      if (touch(x + w * 0.5, y + c32.sensorTop, x + w, y + h - c32.stepHeight, r)) toLeft = Math.min(toLeft, r.x0);
    }
    if (toRight > -Infinity) { x = toRight; state |= 8; if (vx < 0) vx = 0; }
    if (toLeft < Infinity) { x = toLeft - w; state |= 16; if (vx > 0) vx = 0; }
    // Yellow (feet) lands on the highest top; green (head) bumps on the lowest bottom.
    let ground = Infinity, ceiling = -Infinity;
    for (const r of rects) {
      if (touch(x + c32.inset, y + h - c32.sensorBottom, x + w - c32.inset, y + h, r)) ground = Math.min(ground, r.y0);
      if (touch(x + c32.inset, y, x + w - c32.inset, y + c32.sensorTop, r)) ceiling = Math.max(ceiling, r.y1);
    }
    if (ground < Infinity && vy >= 0) { y = ground - h; vy = 0; state |= 1; if (!wasGrounded) state |= 2; }
    else if (ceiling > -Infinity && vy < 0) { y = ceiling; vy = 0; state |= 4; }
    if (state & 1) grace = cfg.graceFrames; else if (grace > 0) grace--;
    ch.x = f(x); ch.y = f(y); ch.vx = f(vx); ch.vy = f(vy); ch.state = state; ch.grace = grace;
  }
  const stomps: [number, number][] = [];
  chars.forEach((p, pi) => {
    if (p.kind !== 1) return;
    chars.forEach((e, ei) => {
      if (e.kind !== 2 || (e.state & 32)) return;
      const eb: RefRect = { x0: e.x, y0: e.y, x1: e.x + e.w, y1: e.y + e.h, instance: -1, rect: -1 };
      if (!touch(p.x, p.y, p.x + p.w, p.y + p.h, eb)) return;
      const feet = touch(p.x + c32.inset, p.y + p.h - c32.sensorBottom, p.x + p.w - c32.inset, p.y + p.h, eb);
      if (p.vy >= 0 && !(p.state & 1) && feet && p.y + p.h <= e.y + c32.sensorBottom) {
        e.state |= 32; p.state |= 64; p.vy = f(-c32.bounce); stomps.push([pi, ei]);
      } else p.state |= 128;
    });
  });
  return stomps;
}

export interface RefHit { t: number; nx: number; ny: number; instance: number; rect: number }

/**
 * Closest hit of a point (r = 0, a = b = 0), a box (half extents a, b) or a circle (radius r)
 * moving from p by d, t in [0, 1]; null for none. Starting inside gives t = 0 and a zero normal.
 */
export function refCast(rects: RefRect[], px: number, py: number, dx: number, dy: number, a: number, b: number, r: number): RefHit | null {
  let best: RefHit | null = null;
  const offer = (t: number, nx: number, ny: number, rr: RefRect) => {
    if (t < 0 || t > 1) return;
    if (!best || t < best.t || (t === best.t && (rr.instance < best.instance || (rr.instance === best.instance && rr.rect < best.rect)))) {
      best = { t, nx, ny, instance: rr.instance, rect: rr.rect };
    }
  };
  for (const rr of rects) {
    const x0 = rr.x0 - a - r, x1 = rr.x1 + a + r, y0 = rr.y0 - b - r, y1 = rr.y1 + b + r;
    // Inside: for a circle, closer to the rect than r; otherwise strictly inside the grown rect.
    if (r > 0) {
      const qx = Math.max(rr.x0, Math.min(px, rr.x1)), qy = Math.max(rr.y0, Math.min(py, rr.y1));
      if ((px - qx) ** 2 + (py - qy) ** 2 < r * r) { offer(0, 0, 0, rr); continue; }
    } else if (px > x0 && px < x1 && py > y0 && py < y1) { offer(0, 0, 0, rr); continue; }
    // Each edge the motion crosses inward, within the edge's extent (the face part only, for a circle).
    const ey0 = r > 0 ? rr.y0 : y0, ey1 = r > 0 ? rr.y1 : y1, ex0 = r > 0 ? rr.x0 : x0, ex1 = r > 0 ? rr.x1 : x1;
    if (dx > 0) { const t = (x0 - px) / dx, y = py + t * dy; if (y >= ey0 && y <= ey1) offer(t, -1, 0, rr); }
    if (dx < 0) { const t = (x1 - px) / dx, y = py + t * dy; if (y >= ey0 && y <= ey1) offer(t, 1, 0, rr); }
    if (dy > 0) { const t = (y0 - py) / dy, x = px + t * dx; if (x >= ex0 && x <= ex1) offer(t, 0, -1, rr); }
    if (dy < 0) { const t = (y1 - py) / dy, x = px + t * dx; if (x >= ex0 && x <= ex1) offer(t, 0, 1, rr); }
    if (r > 0) {
      for (const [cx, cy] of [[rr.x0, rr.y0], [rr.x1, rr.y0], [rr.x0, rr.y1], [rr.x1, rr.y1]]) {
        // |p + t d - c| = r, the smaller root, moving toward the corner.
        const fx = px - cx, fy = py - cy, A = dx * dx + dy * dy, B = fx * dx + fy * dy, C = fx * fx + fy * fy - r * r;
        if (A === 0 || B >= 0 || B * B - A * C < 0) continue;
        const t = (-B - Math.sqrt(B * B - A * C)) / A;
        offer(t, (fx + t * dx) / r, (fy + t * dy) / r, rr);
      }
    }
  }
  return best;
}
