// The typed facade of the rects part: one RectLevel over either kernel (wasm core or its js translation).
// It owns the layout of layout/rects.ts, growth and validation; the kernels run the loops.
//
// Regions, in this order from the arena base (P prefabs, R rects, I instances, N quadtree nodes,
// C characters, Q projectiles; every region keeps its data when the arena grows):
//   prefabStart i32[P+1], prefabBox f32[4P], rects f32[4R]
//   instPrefab, instX, instY, instFlags 4 bytes x I; instBox f64[4I]; items, instNode, cands, results i32[I]
//   nodeBox f64[4N], nodeStart i32[N+1], nodeSub i32[N]; stack i32[STACK_CAP]; castOut f64[CAST_OUT_WORDS]
//   cx, cy, cw, ch, cvx, cvy f32[C]; ckind, cinput, cstate, cgrace i32[C]; stomps i32[2C]
//   px, py, pvx, pvy, pr f32[Q]; pflags i32[Q]
import { Arena, type Heap, type Region } from "./arena.js";
import { checkCoord, checkHeader, checkOut, checkSize, describe, HitcoreError, readOnce } from "./validate.js";
import type { Backend } from "./world.js";
import { Hit, Part } from "./hit.js";
import { generationOf, IdKind, kindFor, makeId, MAX_GENERATION, NULL_ID, slotFor, slotOf, unknownId, wrongKind, type WorldTag } from "./ids.js";

/** The kinds of handle a rect level gives out. */
const RECT_KINDS = [IdKind.Prefab, IdKind.Instance, IdKind.Character] as const;
import type { RectsKernel } from "./rects_kernel.js";
import type { WasmMemory } from "./wasm_types.js";
import {
  CAST_BOX, CAST_CIRCLE, CAST_OUT_WORDS, CAST_SEGMENT, CHAR_ENEMY, CHAR_NONE, CHAR_PLAYER, MAX_DEPTH, MIRROR_X,
  MIRROR_Y, PF_HIT, PF_INSIDE, RC_BOUNCE, RC_EXTRA_PULL, RC_GRACE_FRAMES,
  RC_GRAVITY, RC_INSET, RC_JUMP_SPEED, RC_MAX_FALL, RC_RUN_SPEED, RC_SENSOR_BOTTOM, RC_SENSOR_TOP,
  RC_STEP_HEIGHT, RH, RH_CANDS, RH_CAST_INSTANCE, RH_CAST_OUT, RH_CAST_RECT, RH_CGRACE, RH_CH, RH_CHARS, RH_CPREV,
  RH_CINPUT, RH_CKIND, RH_CSTATE, RH_CVX, RH_CVY, RH_CW, RH_CX, RH_CY, RH_DEPTH, RH_FIELDS, RH_INST_BOX,
  RH_INST_FLAGS, RH_INST_NODE, RH_INST_PREFAB, RH_INST_X, RH_INST_Y, RH_INSTANCES, RH_ITEMS, RH_NODE_BOX,
  RH_NODE_START, RH_NODE_SUB, RH_PFLAGS, RH_PR, RH_PREFAB_BOX, RH_PREFAB_START, RH_PREFABS, RH_PVX, RH_PVY,
  RH_PX, RH_PY, RH_RECT_COUNT, RH_RECTS, RH_RESULTS, RH_STACK, RH_STOMPS, RS_CHAR_TESTS, RS_FOUND,
  RS_INSTANCE_TESTS, RS_NODES, RS_RECT_TESTS, SEARCH_BOXES, SEARCH_FLAT, SEARCH_TREE, ST_GROUNDED, ST_HEAD_BUMP, ST_HURT, ST_JUMPED, ST_LANDED,
  ST_STOMPED, ST_STOMPING, ST_WALL_LEFT, ST_WALL_RIGHT, STACK_CAP,
} from "../layout/rects.js";

/** How an instance is mirrored within its prefab's box (addInstance), alone or both: Mirror.X | Mirror.Y. */
export const Mirror = { X: MIRROR_X, Y: MIRROR_Y } as const;

/**
 * How a call finds the rects near a box; every mode gives the same answer. Tree (the default): the
 * quadtree, then the instances' master boxes, then their rects; Boxes: every master box; Flat:
 * every rect of every instance (for comparisons).
 */
export const Search = { Flat: SEARCH_FLAT, Boxes: SEARCH_BOXES, Tree: SEARCH_TREE } as const;

/** What a character slot holds (charKind): players stomp enemies; None is a free slot. */
export const CharacterKind = { None: CHAR_NONE, Player: CHAR_PLAYER, Enemy: CHAR_ENEMY } as const;

/** Bits of charState, written by each stepCharacters. */
export const CharacterState = {
  /** The bottom sensor stands on a rect. */
  Grounded: ST_GROUNDED,
  /** Grounded now, not the frame before. */
  Landed: ST_LANDED,
  /** The top sensor hit a rect while moving up: the upward speed was cancelled. */
  HeadBump: ST_HEAD_BUMP,
  /** The left sensor was pushed out of a rect. */
  WallLeft: ST_WALL_LEFT,
  /** The right sensor was pushed out of a rect. */
  WallRight: ST_WALL_RIGHT,
  /** An enemy a player's bottom sensor hit while falling. */
  Stomped: ST_STOMPED,
  /** A player that stomped an enemy this frame (and bounced). */
  Stomping: ST_STOMPING,
  /** A player whose master box touched an enemy without stomping it. */
  Hurt: ST_HURT,
  /** A jump started this frame. */
  Jumped: ST_JUMPED,
} as const;

/** Bits of projFlags, written by each moveProjectiles. */
export const ProjectileFlag = {
  /** The path hit a rect this frame: clipped there, velocity reflected. */
  Hit: PF_HIT,
  /** The projectile started inside a rect and was left where it was. */
  Inside: PF_INSIDE,
} as const;
export type { RectsKernel } from "./rects_kernel.js";


/** The shared movement and sensor constants of a level's characters (units per frame; y grows downward). */
export interface CharacterConfig {
  gravity: number;
  /** Fall speed cap; keep it below sensorBottom so a fall cannot skip the feet sensor (the seed: +5). */
  maxFall: number;
  runSpeed: number;
  jumpSpeed: number;
  /** Extra downward pull while the grace timer runs (keeps the character on stairs going down). */
  extraPull: number;
  /** Frames after leaving the ground without jumping during which a jump is still allowed (seed: 6). */
  graceFrames: number;
  /** Height of the head sensor; keep it above jumpSpeed (the seed: +5). */
  sensorTop: number;
  /** Height of the feet sensor; keep it above maxFall (the seed: +5). */
  sensorBottom: number;
  /** Side sensors stop this far above the feet: steps up to this height are climbed. */
  stepHeight: number;
  /** Head and feet sensors are this much narrower on each side than the character. */
  inset: number;
  /** Upward speed after a stomp. */
  bounce: number;
}

export const DEFAULT_CHARACTER: Readonly<CharacterConfig> = {
  gravity: 0.5, maxFall: 10, runSpeed: 3, jumpSpeed: 10, extraPull: 2, graceFrames: 6,
  sensorTop: 15, sensorBottom: 15, stepHeight: 16, inset: 2, bounce: 7,
};

const CONFIG_FIELDS: [keyof CharacterConfig, number][] = [
  ["gravity", RC_GRAVITY], ["maxFall", RC_MAX_FALL], ["runSpeed", RC_RUN_SPEED], ["jumpSpeed", RC_JUMP_SPEED],
  ["extraPull", RC_EXTRA_PULL], ["sensorTop", RC_SENSOR_TOP], ["sensorBottom", RC_SENSOR_BOTTOM],
  ["stepHeight", RC_STEP_HEIGHT], ["inset", RC_INSET], ["bounce", RC_BOUNCE],
];

export interface RectLevelOptions {
  /** Room reserved before the stores grow (x2); all grow on demand. */
  prefabCapacity?: number;
  rectCapacity?: number;
  instanceCapacity?: number;
  characterCapacity?: number;
  projectileCapacity?: number;
  /** Character constants; missing ones take DEFAULT_CHARACTER. */
  character?: Partial<CharacterConfig>;
}


/** What the last call visited (allocates: for tests and the HUD, not the frame loop). */
export interface RectStats {
  /** Quadtree nodes whose quadrants were classified against the query (one step each). */
  nodeSteps: number;
  /** Instance master boxes tested. */
  instanceTests: number;
  /** Sensor or cast tests against prefab rects. */
  rectTests: number;
  /** Character against character tests (stomps). */
  charTests: number;
  /** Instances found, hits, or stomps, by call. */
  found: number;
}

interface Caps { P: number; R: number; I: number; N: number; C: number; Q: number }

// [header field, bytes per element, capacity it scales with, extra elements]
type RegionSpec = [number, number, keyof Caps | null, number];
const REGIONS: RegionSpec[] = [
  [RH_PREFAB_START, 4, "P", 1], [RH_PREFAB_BOX, 16, "P", 0], [RH_RECTS, 16, "R", 0],
  [RH_INST_PREFAB, 4, "I", 0], [RH_INST_X, 4, "I", 0], [RH_INST_Y, 4, "I", 0], [RH_INST_FLAGS, 4, "I", 0],
  [RH_INST_BOX, 32, "I", 0], [RH_ITEMS, 4, "I", 0], [RH_INST_NODE, 4, "I", 0], [RH_CANDS, 4, "I", 0],
  [RH_RESULTS, 4, "I", 0], [RH_NODE_BOX, 32, "N", 0], [RH_NODE_START, 4, "N", 1], [RH_NODE_SUB, 4, "N", 0],
  [RH_STACK, 4, null, STACK_CAP], [RH_CAST_OUT, 8, null, CAST_OUT_WORDS],
  [RH_CX, 4, "C", 0], [RH_CY, 4, "C", 0], [RH_CW, 4, "C", 0], [RH_CH, 4, "C", 0], [RH_CVX, 4, "C", 0],
  [RH_CVY, 4, "C", 0], [RH_CKIND, 4, "C", 0], [RH_CINPUT, 4, "C", 0], [RH_CSTATE, 4, "C", 0],
  [RH_CGRACE, 4, "C", 0], [RH_STOMPS, 8, "C", 0], [RH_CPREV, 8, "C", 0],
  [RH_PX, 4, "Q", 0], [RH_PY, 4, "Q", 0], [RH_PVX, 4, "Q", 0], [RH_PVY, 4, "Q", 0], [RH_PR, 4, "Q", 0],
  [RH_PFLAGS, 4, "Q", 0],
];

const nodesFor = (depth: number): number => ((1 << ((depth + 1) << 1)) - 1) / 3;

/**
 * A platformer level of instanced rectangle prefabs with a quadtree, four-sensor characters
 * stepped in one call per frame, casts and swept shapes against the rects, and projectiles that
 * cannot tunnel. Use world.addRectLevel().
 */
export class RectLevel {
  readonly backend: Backend;
  private readonly kernel: RectsKernel;
  private readonly memory: WebAssembly.Memory;
  private caps: Caps;
  private readonly arena: Arena;
  private prefabs = 0;
  private rectCount = 0;
  private instances = 0;
  private chars = 0;
  private dirty = true;
  private config: CharacterConfig;
  private readonly freeChars: number[] = [];
  /** Generation of each character slot: removeCharacter bumps it, so the removed character's handle is refused. */
  private readonly charGens: number[] = [];
  private readonly ids: WorldTag;
  /** The last cast's hit: part Part.Rects, shape the instance, rect the prefab rect within it (Part.None after a miss). */
  readonly hit = new Hit();

  private buffer: ArrayBuffer | null = null;
  private header = new Int32Array(0);
  private headerF = new Float32Array(0);
  private views: (Float32Array | Int32Array | Float64Array)[] = [];

  /** Use world.addRectLevel(); this constructor takes the world's kernel and heap. */
  constructor(kernel: RectsKernel, backend: Backend, heap: Heap, ids: WorldTag, options: RectLevelOptions = {}) {
    const cap = (name: string, v: number | undefined, d: number) => checkCount(name, v ?? d, 1);
    this.caps = {
      P: cap("prefabCapacity", options.prefabCapacity, 16), R: cap("rectCapacity", options.rectCapacity, 128),
      I: cap("instanceCapacity", options.instanceCapacity, 256), N: nodesFor(0),
      C: cap("characterCapacity", options.characterCapacity, 16), Q: cap("projectileCapacity", options.projectileCapacity, 256),
    };
    this.config = checkConfig(DEFAULT_CHARACTER, options.character);
    this.kernel = kernel;
    this.backend = backend;
    this.ids = ids;
    this.memory = kernel.memory;
    this.arena = new Arena(kernel.memory, heap);
    this.relayout(this.caps, "addRectLevel");
    this.header[RH_DEPTH] = -1;
    this.writeConfig();
  }

  // ---- level pieces -------------------------------------------------------------------------

  /** Bytes of the level's memory (wasm memory or the js backend's), for growth checks. */
  get memoryBytes(): number { return this.memory.buffer.byteLength; }

  /** Prefabs defined. */
  get prefabCount(): number { return this.prefabs; }
  /** Instances placed. */
  get instanceCount(): number { return this.instances; }
  /** Prefab rects held in memory (each stored once, however many instances use it). */
  get storedRects(): number { return this.rectCount; }

  // ---- handles ------------------------------------------------------------------------------

  /** True when `handle` names a prefab, an instance or a live character of this level. */
  has(handle: number): boolean {
    const kind = kindFor(handle, this.ids.tag), s = slotOf(handle);
    if (kind === IdKind.Prefab) return s < this.prefabs && generationOf(handle) === 1;
    if (kind === IdKind.Instance) return s < this.instances && generationOf(handle) === 1;
    if (kind === IdKind.Character) return s < this.chars && this.charGens[s] === generationOf(handle) && this.i32(RH_CKIND)[s] !== CHAR_NONE;
    return false;
  }

  /**
   * The index of a prefab's, instance's or character's handle: instances' indices are what
   * queryBox's results and hits (hit.shape, world.hitShape) give, characters' index the char* views
   * and stomps.
   */
  indexOf(handle: number): number {
    if (!this.has(handle)) {
      const kind = kindFor(handle, this.ids.tag), known = RECT_KINDS.includes(kind as never);
      const slots = kind === IdKind.Prefab ? this.prefabs : kind === IdKind.Instance ? this.instances : this.chars;
      throw unknownId("indexOf", handle, this.ids.tag, known ? kind : IdKind.Instance, slots,
        "Use a handle addPrefab, addInstance or addCharacter returned (check with has(handle)).", known ? undefined : "a prefab, an instance or a character");
    }
    return slotOf(handle);
  }

  /** The handle of the prefab, instance or character (IdKind.*) at an index, or NULL_ID where there is none. */
  idAt(kind: number, index: number): number {
    if (!RECT_KINDS.includes(kind as never)) throw wrongKind("idAt", kind, RECT_KINDS);
    const count = kind === IdKind.Prefab ? this.prefabs : kind === IdKind.Instance ? this.instances : this.chars;
    if (!Number.isInteger(index) || index < 0 || index >= count) return NULL_ID;
    if (kind !== IdKind.Character) return makeId(1, kind, this.ids.tag, index);
    return this.i32(RH_CKIND)[index] === CHAR_NONE ? NULL_ID : makeId(this.charGens[index], kind, this.ids.tag, index);
  }

  /**
   * Defines a prefab from its collision rects in prefab space, flat as (x, y, w, h, x, y, w, h, ...).
   * Returns the prefab's handle. An empty list defines a prefab that cannot be instanced.
   */
  addPrefab(rects: ArrayLike<number>): number {
    rects = readOnce("addPrefab", "rects", rects);
    if (!rects || typeof rects.length !== "number" || rects.length % 4 !== 0) {
      throw new HitcoreError("INVALID_PREFAB", `addPrefab: rects must be a flat list of (x, y, w, h) quadruples, got length ${describe(rects?.length)}. Pass [x0, y0, w0, h0, x1, y1, w1, h1, ...].`);
    }
    const k = rects.length / 4;
    for (let r = 0; r < k; r++) {
      checkCoord("addPrefab", `rect ${r} x`, rects[4 * r]);
      checkCoord("addPrefab", `rect ${r} y`, rects[4 * r + 1]);
      checkSize("addPrefab", `rect ${r} width`, rects[4 * r + 2]);
      checkSize("addPrefab", `rect ${r} height`, rects[4 * r + 3]);
    }
    this.ensure("addPrefab", { P: this.prefabs + 1, R: this.rectCount + k });
    const start = this.i32(RH_PREFAB_START), box = this.f32(RH_PREFAB_BOX), store = this.f32(RH_RECTS);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let r = 0; r < k; r++) {
      const o = 4 * (this.rectCount + r);
      for (let f = 0; f < 4; f++) store[o + f] = rects[4 * r + f];
      // The box is the union of the rects as stored (f32), so it holds every one of them.
      x0 = Math.min(x0, store[o]); y0 = Math.min(y0, store[o + 1]);
      x1 = Math.max(x1, store[o] + store[o + 2]); y1 = Math.max(y1, store[o + 1] + store[o + 3]);
    }
    const p = this.prefabs;
    if (k === 0) { x0 = 0; y0 = 0; x1 = 0; y1 = 0; }
    box[4 * p] = x0; box[4 * p + 1] = y0; box[4 * p + 2] = Math.fround(x1) < x1 ? nextUp(x1) : x1;
    box[4 * p + 3] = Math.fround(y1) < y1 ? nextUp(y1) : y1;
    start[p] = this.rectCount;
    start[p + 1] = this.rectCount + k;
    this.rectCount += k;
    this.prefabs++;
    this.hdr()[RH_PREFABS] = this.prefabs;
    this.hdr()[RH_RECT_COUNT] = this.rectCount;
    return makeId(1, IdKind.Prefab, this.ids.tag, p);
  }

  /** Rects of a prefab. */
  prefabRectCount(prefab: number): number {
    return this.rectsOf(this.prefabSlot("prefabRectCount", prefab));
  }

  private rectsOf(p: number): number {
    const start = this.i32(RH_PREFAB_START);
    return start[p + 1] - start[p];
  }

  /**
   * Places a prefab with its prefab-space origin at (x, y), mirrored inside its own box by
   * Mirror.X and/or Mirror.Y. Returns the instance's handle (queries and hits give its index:
   * indexOf, idAt). Rebuilds the quadtree lazily (or call build()).
   */
  addInstance(prefab: number, x: number, y: number, mirror = 0): number {
    const p = this.prefabSlot("addInstance", prefab);
    if (this.rectsOf(p) === 0) {
      throw new HitcoreError("EMPTY_PREFAB", `addInstance: prefab ${prefab} has no rects, so an instance of it could never collide. Give the prefab at least one rect in addPrefab, or draw it without an instance.`);
    }
    checkCoord("addInstance", "x", x);
    checkCoord("addInstance", "y", y);
    if (!Number.isInteger(mirror) || mirror < 0 || mirror > (MIRROR_X | MIRROR_Y)) {
      throw new HitcoreError("INVALID_MIRROR", `addInstance: mirror must be 0, Mirror.X (1), Mirror.Y (2) or both (3), got ${describe(mirror)}.`);
    }
    this.ensure("addInstance", { I: this.instances + 1 });
    const i = this.instances;
    this.i32(RH_INST_PREFAB)[i] = p;
    this.f32(RH_INST_X)[i] = x;
    this.f32(RH_INST_Y)[i] = y;
    this.i32(RH_INST_FLAGS)[i] = mirror;
    this.instances++;
    this.hdr()[RH_INSTANCES] = this.instances;
    this.dirty = true;
    return makeId(1, IdKind.Instance, this.ids.tag, i);
  }

  /** Builds the quadtree over the instances (done lazily by the queries when the level changed). */
  build(): void {
    const depth = Math.min(MAX_DEPTH, Math.ceil(Math.log(Math.max(1, this.instances)) / Math.log(4) - 1e-9));
    this.ensure("build", { N: nodesFor(depth) });
    this.kernel.rectsBuild(depth);
    this.dirty = false;
    this.revision++;
  }

  /** @internal Counts the builds: the world rebuilds its level grid when it changes. */
  revision = 0;

  /** @internal The instances' master boxes (x0, y0, x1, y1 each) of the last build. */
  masterBoxes(): Float64Array {
    this.buildIfDirty();
    return this.f64(RH_INST_BOX).subarray(0, 4 * this.instances);
  }

  /** Depth of the quadtree (0: the root only). */
  get depth(): number {
    this.buildIfDirty();
    return this.hdr()[RH_DEPTH];
  }

  /** Quadtree nodes of the current tree: (4^(depth+1) - 1) / 3. */
  get nodeCount(): number {
    return nodesFor(this.depth);
  }

  /** Quadtree node boxes (x0, y0, x1, y1 per node, level by level, row-major), for overlays; nodeCount are valid. */
  get nodeBoxes(): Float64Array {
    this.buildIfDirty();
    return this.f64(RH_NODE_BOX);
  }

  /** Instances in each node's subtree (skip empty nodes when drawing); nodeCount are valid. */
  get nodeCounts(): Int32Array {
    this.buildIfDirty();
    return this.i32(RH_NODE_SUB);
  }

  /** Master box of an instance into out (x0, y0, x1, y1). */
  instanceBox(instance: number, out: Float64Array): Float64Array {
    const i = this.instanceSlot("instanceBox", instance);
    checkOut("instanceBox", "out", out, 4);
    this.buildIfDirty();
    const b = this.f64(RH_INST_BOX);
    for (let f = 0; f < 4; f++) out[f] = b[4 * i + f];
    return out;
  }

  /** Rects of an instance (its prefab's). */
  instanceRectCount(instance: number): number {
    return this.rectsOf(this.i32(RH_INST_PREFAB)[this.instanceSlot("instanceRectCount", instance)]);
  }

  /** World box (x0, y0, x1, y1) of rect k of an instance, translated and mirrored, into out. */
  worldRect(instance: number, k: number, out: Float64Array): Float64Array {
    const i = this.instanceSlot("worldRect", instance);
    checkOut("worldRect", "out", out, 4);
    const prefab = this.i32(RH_INST_PREFAB)[i];
    if (!Number.isInteger(k) || k < 0 || k >= this.rectsOf(prefab)) {
      throw new HitcoreError("UNKNOWN_RECT", `worldRect: rect ${describe(k)} is not in instance ${instance} (0..${this.rectsOf(prefab) - 1}).`);
    }
    return this.rectInto(i, prefab, k, out);
  }

  /**
   * Master boxes of the instances (x0, y0, x1, y1 per instance index, instanceCount valid), as the
   * last build made them: a view, for overlays and culling in a frame loop.
   */
  get instanceBoxes(): Float64Array {
    this.buildIfDirty();
    return this.f64(RH_INST_BOX);
  }

  /**
   * Rects of the instance at `index` (0 .. instanceCount - 1, as queryBox writes them), and
   * worldRectAt its rect k: worldRect by index, for a frame loop (a handle is a double, which V8
   * boxes across a call it does not inline). Unchecked beyond being integers in range.
   */
  rectCountAt(index: number): number {
    return this.rectsOf(this.i32(RH_INST_PREFAB)[this.instanceIndex("rectCountAt", index)]);
  }

  /** World box (x0, y0, x1, y1) of rect k of the instance at `index` into out (see rectCountAt). */
  worldRectAt(index: number, k: number, out: Float64Array): Float64Array {
    const i = this.instanceIndex("worldRectAt", index), prefab = this.i32(RH_INST_PREFAB)[i];
    if (!Number.isInteger(k) || k < 0 || k >= this.rectsOf(prefab)) {
      throw new HitcoreError("UNKNOWN_RECT", `worldRectAt: rect ${describe(k)} is not in instance index ${index} (0..${this.rectsOf(prefab) - 1}).`);
    }
    return this.rectInto(i, prefab, k, out);
  }

  /**
   * The four sensor boxes of the character in `slot` (x0, y0, x1, y1 each: top, bottom, left,
   * right, as stepCharacters tests them) into out[0 .. 16), from its master box and the level's
   * character config. For overlays; allocates nothing.
   */
  sensorsInto(slot: number, out: Float64Array): Float64Array {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.chars) {
      throw new HitcoreError("INVALID_ARGUMENT", `sensorsInto: slot must be a character slot from 0 to ${this.chars - 1}, got ${describe(slot)}.`);
    }
    const x = this.f32(RH_CX)[slot], y = this.f32(RH_CY)[slot], w = this.f32(RH_CW)[slot], h = this.f32(RH_CH)[slot];
    const c = this.config, mid = x + w / 2;
    // top, bottom: inset from the sides; left, right: halves, from under the head to stepHeight above the feet.
    out[0] = x + c.inset; out[1] = y; out[2] = x + w - c.inset; out[3] = y + c.sensorTop;
    out[4] = x + c.inset; out[5] = y + h - c.sensorBottom; out[6] = x + w - c.inset; out[7] = y + h;
    out[8] = x; out[9] = y + c.sensorTop; out[10] = mid; out[11] = y + h - c.stepHeight;
    out[12] = mid; out[13] = y + c.sensorTop; out[14] = x + w; out[15] = y + h - c.stepHeight;
    return out;
  }

  private instanceIndex(method: string, index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.instances) {
      throw new HitcoreError("INVALID_ARGUMENT", `${method}: index must be an instance index from 0 to ${this.instances - 1}, got ${describe(index)}.`);
    }
    return index;
  }

  /** World box of rect k of instance slot i (of prefab `prefab`), translated and mirrored. */
  private rectInto(i: number, prefab: number, k: number, out: Float64Array): Float64Array {
    const r = this.f32(RH_RECTS), box = this.f32(RH_PREFAB_BOX);
    const o = 4 * (this.i32(RH_PREFAB_START)[prefab] + k);
    let x = r[o], y = r[o + 1];
    const w = r[o + 2], h = r[o + 3], flags = this.i32(RH_INST_FLAGS)[i];
    if (flags & MIRROR_X) x = (box[4 * prefab] + box[4 * prefab + 2]) - (x + w);
    if (flags & MIRROR_Y) y = (box[4 * prefab + 1] + box[4 * prefab + 3]) - (y + h);
    out[0] = this.f32(RH_INST_X)[i] + x;
    out[1] = this.f32(RH_INST_Y)[i] + y;
    out[2] = out[0] + w;
    out[3] = out[1] + h;
    return out;
  }

  /**
   * Instances whose master box overlaps the box (collision or view culling); returns their number,
   * instance indices in `results`. `search` Search.Boxes tests every master box (for comparisons).
   */
  queryBox(x0: number, y0: number, x1: number, y1: number, search: number = SEARCH_TREE): number {
    checkBox("queryBox", x0, y0, x1, y1);
    checkSearch("queryBox", search);
    this.buildIfDirty();
    return this.kernel.rectsQueryBox(x0, y0, x1, y1, search);
  }

  /** Output of queryBox. Re-read after calls that may grow the stores. */
  get results(): Int32Array { return this.i32(RH_RESULTS); }

  /** The last call's stats without allocating: [nodeSteps, instanceTests, rectTests, charTests, found] into out. */
  statsInto(out: Int32Array): Int32Array {
    checkOut("statsInto", "out", out, 5, "Int32Array");
    const h = this.hdr();
    out[0] = h[RS_NODES]; out[1] = h[RS_INSTANCE_TESTS]; out[2] = h[RS_RECT_TESTS]; out[3] = h[RS_CHAR_TESTS]; out[4] = h[RS_FOUND];
    return out;
  }

  /** What the last query, step or cast visited (allocates: for tests and tuning). */
  stats(): RectStats {
    const h = this.hdr();
    return { nodeSteps: h[RS_NODES], instanceTests: h[RS_INSTANCE_TESTS], rectTests: h[RS_RECT_TESTS], charTests: h[RS_CHAR_TESTS], found: h[RS_FOUND] };
  }

  // ---- characters ---------------------------------------------------------------------------

  /** The level's character constants. */
  get characterConfig(): Readonly<CharacterConfig> { return { ...this.config }; }

  /** Changes character constants (validated together; nothing changes if one is bad). */
  setCharacterConfig(config: Partial<CharacterConfig>): void {
    const next = checkConfig(this.config, config);
    for (let c = 0; c < this.chars; c++) {
      if (this.i32(RH_CKIND)[c] !== CHAR_NONE) checkCharacterSize("setCharacterConfig", this.f32(RH_CW)[c], this.f32(RH_CH)[c], next);
    }
    this.config = next;
    this.writeConfig();
  }

  /** Character slots in use: the views and the step cover [0, characterCount). */
  get characterCount(): number { return this.chars; }

  /**
   * Adds a character (master box top-left x, y, size w x h); CharacterKind.Player or
   * CharacterKind.Enemy. Returns its handle; the char* views and stomps are indexed by its slot
   * (indexOf).
   */
  addCharacter(x: number, y: number, w: number, h: number, kind: number = CHAR_PLAYER): number {
    checkCoord("addCharacter", "x", x);
    checkCoord("addCharacter", "y", y);
    checkSize("addCharacter", "width", w);
    checkSize("addCharacter", "height", h);
    checkCharacterSize("addCharacter", w, h, this.config);
    if (kind !== CHAR_PLAYER && kind !== CHAR_ENEMY) {
      throw new HitcoreError("INVALID_KIND", `addCharacter: kind must be CharacterKind.Player (1) or CharacterKind.Enemy (2), got ${describe(kind)}.`);
    }
    let c: number;
    if (this.freeChars.length > 0) c = this.freeChars.pop()!;
    else {
      this.ensure("addCharacter", { C: this.chars + 1 });
      c = this.chars++;
      this.charGens.push(1);
      this.hdr()[RH_CHARS] = this.chars;
    }
    this.f32(RH_CX)[c] = x; this.f32(RH_CY)[c] = y; this.f32(RH_CW)[c] = w; this.f32(RH_CH)[c] = h;
    this.f32(RH_CVX)[c] = 0; this.f32(RH_CVY)[c] = 0;
    this.f32(RH_CPREV)[2 * c] = y; this.f32(RH_CPREV)[2 * c + 1] = 0; // not falling before its first step
    this.i32(RH_CKIND)[c] = kind; this.i32(RH_CINPUT)[c] = 0; this.i32(RH_CSTATE)[c] = 0; this.i32(RH_CGRACE)[c] = 0;
    return makeId(this.charGens[c], IdKind.Character, this.ids.tag, c);
  }

  /** Removes a character: its handle stays invalid; later addCharacter calls reuse its slot under a new handle. */
  removeCharacter(character: number): void {
    const c = this.characterSlot("removeCharacter", character);
    this.i32(RH_CKIND)[c] = CHAR_NONE;
    // A slot whose generation would wrap is retired rather than reused.
    if (++this.charGens[c] < MAX_GENERATION) this.freeChars.push(c);
  }

  /** Moves a character and clears its speed and contact state. */
  placeCharacter(character: number, x: number, y: number): void {
    const c = this.characterSlot("placeCharacter", character);
    checkCoord("placeCharacter", "x", x);
    checkCoord("placeCharacter", "y", y);
    this.f32(RH_CX)[c] = x; this.f32(RH_CY)[c] = y; this.f32(RH_CVX)[c] = 0; this.f32(RH_CVY)[c] = 0;
    this.f32(RH_CPREV)[2 * c] = y; this.f32(RH_CPREV)[2 * c + 1] = 0;
    this.i32(RH_CSTATE)[c] = 0; this.i32(RH_CGRACE)[c] = 0;
  }

  /** Views of the characters (slot-indexed). Re-read after adding: growth replaces views. */
  get charX(): Float32Array { return this.f32(RH_CX); }
  get charY(): Float32Array { return this.f32(RH_CY); }
  get charW(): Float32Array { return this.f32(RH_CW); }
  get charH(): Float32Array { return this.f32(RH_CH); }
  get charVX(): Float32Array { return this.f32(RH_CVX); }
  get charVY(): Float32Array { return this.f32(RH_CVY); }
  /** CharacterKind.* per character; None for a free slot. */
  get charKind(): Int32Array { return this.i32(RH_CKIND); }
  /** Input.Left | Input.Right | Input.Jump per character: the game writes these before each step. */
  get charInput(): Int32Array { return this.i32(RH_CINPUT); }
  /** CharacterState.* bits of the last step. */
  get charState(): Int32Array { return this.i32(RH_CSTATE); }
  /** Grace frames left per character. */
  get charGrace(): Int32Array { return this.i32(RH_CGRACE); }
  /** (stomper, victim) slot pairs of the last step. */
  get stomps(): Int32Array { return this.i32(RH_STOMPS); }

  /**
   * Steps every character one frame (one kernel call); returns the stomps written to `stomps`.
   * `search` (Search.Tree default, Search.Boxes, Search.Flat) changes the work, never the result.
   */
  stepCharacters(search: number = SEARCH_TREE): number {
    checkSearch("stepCharacters", search);
    this.buildIfDirty();
    this.prepareWorld?.();
    return this.kernel.rectsStepCharacters(search);
  }

  // ---- casts ----------------------------------------------------------------------------------

  /** A point moving from (x, y) by (dx, dy) against the rects: true on a hit, details in `hit`. */
  castSegment(x: number, y: number, dx: number, dy: number): boolean {
    checkMotion("castSegment", x, y, dx, dy);
    return this.cast(CAST_SEGMENT, x, y, dx, dy, 0, 0);
  }

  /** A ray from (x, y) along (dirX, dirY) up to maxDistance: true on a hit; hit.distance is the range. */
  castRay(x: number, y: number, dirX: number, dirY: number, maxDistance: number): boolean {
    checkMotion("castRay", x, y, dirX, dirY);
    checkSize("castRay", "maxDistance", maxDistance);
    const len = Math.sqrt(dirX * dirX + dirY * dirY); // not Math.hypot: it allocates per call in V8
    if (!(len > 0)) throw new HitcoreError("INVALID_DIRECTION", "castRay: the direction is (0, 0). Pass a non-zero direction.");
    return this.cast(CAST_SEGMENT, x, y, dirX / len * maxDistance, dirY / len * maxDistance, 0, 0);
  }

  /** A box (top-left x, y, size w x h) swept by (dx, dy): true on a hit; hit.x/y is its centre at contact. */
  castBox(x: number, y: number, w: number, h: number, dx: number, dy: number): boolean {
    checkMotion("castBox", x, y, dx, dy);
    checkSize("castBox", "width", w);
    checkSize("castBox", "height", h);
    return this.cast(CAST_BOX, x + w / 2, y + h / 2, dx, dy, w / 2, h / 2);
  }

  /** A circle (centre x, y, radius r) swept by (dx, dy): true on a hit. */
  castCircle(x: number, y: number, r: number, dx: number, dy: number): boolean {
    checkMotion("castCircle", x, y, dx, dy);
    checkSize("castCircle", "radius", r);
    return this.cast(r > 0 ? CAST_CIRCLE : CAST_SEGMENT, x, y, dx, dy, r, r);
  }

  /** How casts and projectiles find nearby rects (Search.Tree by default; the others for comparisons). */
  castSearch: number = SEARCH_TREE;

  private cast(mode: number, x: number, y: number, dx: number, dy: number, a: number, b: number): boolean {
    this.buildIfDirty();
    const hit = this.kernel.rectsCast(mode, x, y, dx, dy, a, b, checkSearch("cast", this.castSearch)) === 1;
    const out = this.f64(RH_CAST_OUT), h = this.hdr(), real = this.hit.real, int = this.hit.int;
    const t = hit ? out[0] : 1;
    real[0] = t;
    real[1] = t * Math.sqrt(dx * dx + dy * dy);
    real[2] = hit ? out[3] : x + dx;
    real[3] = hit ? out[4] : y + dy;
    real[4] = out[1];
    real[5] = out[2];
    const instance = h[RH_CAST_INSTANCE];
    int[0] = hit ? Part.Rects : Part.None;
    int[1] = instance;
    int[2] = hit ? h[RH_CAST_RECT] - this.i32(RH_PREFAB_START)[this.i32(RH_INST_PREFAB)[instance]] : -1;
    return hit;
  }

  // ---- projectiles -----------------------------------------------------------------------------

  /** Projectile slots before the buffers grow. */
  get projectileCapacity(): number { return this.caps.Q; }
  /** Projectile views: centre, velocity per frame, radius (0: a point); write them, then moveProjectiles. */
  get projX(): Float32Array { return this.f32(RH_PX); }
  get projY(): Float32Array { return this.f32(RH_PY); }
  get projVX(): Float32Array { return this.f32(RH_PVX); }
  get projVY(): Float32Array { return this.f32(RH_PVY); }
  get projR(): Float32Array { return this.f32(RH_PR); }
  /** ProjectileFlag.Hit / ProjectileFlag.Inside of the last moveProjectiles. */
  get projFlags(): Int32Array { return this.i32(RH_PFLAGS); }

  /** Makes room for n projectiles (views are replaced when it grows). */
  reserveProjectiles(n: number): void {
    checkCount("reserveProjectiles", n, 0);
    this.ensure("reserveProjectiles", { Q: n });
  }

  /**
   * Moves projectiles [0, count) of the proj* views one frame without tunneling: a hit stops the
   * projectile a skin short of the surface and reflects its velocity. One kernel call; returns the hits.
   */
  moveProjectiles(count: number): number {
    if (!Number.isInteger(count) || count < 0 || count > this.caps.Q) {
      throw new HitcoreError("INVALID_COUNT", `moveProjectiles: count must be an integer in [0, ${this.caps.Q}], got ${describe(count)}. Call reserveProjectiles(n) first for more.`);
    }
    this.buildIfDirty();
    const hits = this.kernel.rectsMoveProjectiles(count, checkSearch("moveProjectiles", this.castSearch));
    this.movedProjectiles = count;
    return hits;
  }

  /** Projectiles [0, n) of the last moveProjectiles(n) (0 before one): debugDraw's Projectiles layer. */
  get lastProjectiles(): number { return this.movedProjectiles; }
  private movedProjectiles = 0;

  /** Checks the quadtree and store invariants; throws CORRUPT naming the first broken one (tests, debugging). */
  validate(): void {
    const h = this.hdr(), built = h[RH_DEPTH];
    checkHeader("rect level", h, [RH_PREFABS, this.prefabs, RH_RECT_COUNT, this.rectCount, RH_INSTANCES, this.instances, RH_CHARS, this.chars]);
    if (!(built >= -1 && built <= MAX_DEPTH && nodesFor(built) < this.i32(RH_NODE_START).length)) {
      throw new HitcoreError("CORRUPT", `validate: the quadtree's depth ${built} does not fit its node regions`);
    }
    this.buildIfDirty();
    const depth = this.hdr()[RH_DEPTH], nodes = nodesFor(depth);
    const start = this.i32(RH_NODE_START), items = this.i32(RH_ITEMS), nb = this.f64(RH_NODE_BOX), ib = this.f64(RH_INST_BOX);
    const sub = this.i32(RH_NODE_SUB);
    const seen = new Uint8Array(this.instances);
    const bad = (why: string) => { throw new HitcoreError("CORRUPT", `validate: ${why}`); };
    if (this.charGens.length !== this.chars) bad(`${this.charGens.length} character generations for ${this.chars} character slots`);
    for (let c = 0; c < this.chars; c++) {
      const g = this.charGens[c];
      if (!Number.isInteger(g) || g < 1 || g > MAX_GENERATION) bad(`character slot ${c} has generation ${g}`);
    }
    if (start[nodes] !== this.instances) bad(`the nodes hold ${start[nodes]} items for ${this.instances} instances`);
    for (let k = 0; k < nodes; k++) {
      for (let j = start[k]; j < start[k + 1]; j++) {
        const i = items[j];
        if (i < 0 || i >= this.instances || seen[i]) bad(`item ${j} of node ${k} is ${i}: missing or duplicated`);
        seen[i] = 1;
        if (ib[4 * i] < nb[4 * k] || ib[4 * i + 1] < nb[4 * k + 1] || ib[4 * i + 2] > nb[4 * k + 2] || ib[4 * i + 3] > nb[4 * k + 3]) {
          bad(`instance ${i} is not inside its node ${k}`);
        }
      }
    }
    let L = 0;
    for (let k = 0; k < nodes; k++) {
      while (k >= nodesFor(L)) L++;
      let s = start[k + 1] - start[k];
      if (L < depth) {
        const side = 1 << L, local = k - nodesFor(L - 1), iy = Math.floor(local / side), ix = local % side, coff = nodesFor(L);
        for (let q = 0; q < 4; q++) s += sub[coff + (2 * iy + (q >> 1)) * 2 * side + 2 * ix + (q & 1)];
      }
      if (s !== sub[k]) bad(`node ${k} counts ${sub[k]} instances in its subtree, found ${s}`);
    }
  }

  // ---- internals ------------------------------------------------------------------------------

  private buildIfDirty(): void {
    if (this.dirty) this.build();
  }

  // Prefabs and instances are never removed: generation 1 always (a restore may take back the
  // ones added after its snapshot, and their handles then name nothing until the slots are reused).
  private prefabSlot(method: string, prefab: number): number {
    const p = slotFor(prefab, this.ids.tag, IdKind.Prefab);
    if (p < 0 || p >= this.prefabs || generationOf(prefab) !== 1) {
      throw unknownId(method, prefab, this.ids.tag, IdKind.Prefab, this.prefabs, "Use a handle addPrefab returned.");
    }
    return p;
  }

  private instanceSlot(method: string, instance: number): number {
    const i = slotFor(instance, this.ids.tag, IdKind.Instance);
    if (i < 0 || i >= this.instances || generationOf(instance) !== 1) {
      throw unknownId(method, instance, this.ids.tag, IdKind.Instance, this.instances, "Use a handle addInstance returned (idAt(IdKind.Instance, index) for an index from a query or a hit).");
    }
    return i;
  }

  private characterSlot(method: string, character: number): number {
    const c = slotFor(character, this.ids.tag, IdKind.Character);
    if (c < 0 || c >= this.chars || this.charGens[c] !== generationOf(character) || this.i32(RH_CKIND)[c] === CHAR_NONE) {
      throw unknownId(method, character, this.ids.tag, IdKind.Character, this.chars, "Use a handle addCharacter returned that was not removed (check with has(handle)).");
    }
    return c;
  }

  private writeConfig(): void {
    const hf = this.hdrF();
    for (const [name, field] of CONFIG_FIELDS) hf[field] = this.config[name];
    this.hdr()[RC_GRACE_FRAMES] = this.config.graceFrames;
  }

  private ensure(method: string, need: Partial<Caps>): void {
    let grow = false;
    const next = { ...this.caps };
    for (const key of Object.keys(need) as (keyof Caps)[]) {
      let c = next[key];
      while (c < need[key]!) { c *= 2; grow = true; }
      next[key] = c;
    }
    if (grow) this.relayout(next, method);
  }

  /** Lays the regions out for the capacities; every region keeps its data. Refused first, changing nothing, when they would not fit (Arena.check). */
  private relayout(caps: Caps, method: string): void {
    const regions: Region[] = REGIONS.map(([field, bytes, key, extra]) => ({ field, bytes: bytes * ((key ? caps[key] : 0) + extra), keep: true }));
    this.arena.check(regions, method, method === "addRectLevel", `a rect level of ${caps.P} prefabs, ${caps.R} rects, ${caps.I} instances, ${caps.C} characters and ${caps.Q} projectiles`);
    this.arena.layout(regions, () => new Int32Array(this.memory.buffer, RH, RH_FIELDS));
    this.caps = caps;
    this.buffer = null;
    this.refresh();
  }

  private refresh(): void {
    const buf = this.memory.buffer;
    if (buf === this.buffer) return;
    this.buffer = buf;
    this.header = new Int32Array(buf, RH, RH_FIELDS);
    this.headerF = new Float32Array(buf, RH, RH_FIELDS);
    this.views = REGIONS.map(([field, bytes], r) => {
      const o = this.header[field], s = this.arena.sizes[r];
      return bytes === 32 || field === RH_CAST_OUT ? new Float64Array(buf, o, s >> 3) :
        isFloatRegion(field) ? new Float32Array(buf, o, s >> 2) : new Int32Array(buf, o, s >> 2);
    });
  }

  // The kernels never allocate; memory grows when a part of the world lays its regions out, which
  // detaches every view of the old buffer (a detached view's length reads 0). The accessors check
  // that length rather than `memory.buffer`, whose read costs a JS heap allocation in V8.
  private hdr(): Int32Array {
    if (this.header.length === 0) this.refresh();
    return this.header;
  }
  private hdrF(): Float32Array {
    if (this.header.length === 0) this.refresh();
    return this.headerF;
  }
  private view(field: number): Float32Array | Int32Array | Float64Array {
    if (this.header.length === 0) this.refresh();
    return this.views[REGION_INDEX[field]];
  }
  private f32(field: number): Float32Array { return this.view(field) as Float32Array; }
  private i32(field: number): Int32Array { return this.view(field) as Int32Array; }
  private f64(field: number): Float64Array { return this.view(field) as Float64Array; }

  /** @internal Readies the part for a cross-part call of the world (its index built, its regions laid out). */
  prepare(): void {
    this.buildIfDirty();
  }

  /** @internal Whether prepare() would build (and so write memory). */
  get stale(): boolean { return this.dirty; }

  /** @internal Set by the world: readies its other parts (which the characters see) before a step. */
  prepareWorld: (() => void) | null = null;

  /** @internal Rebuilds the views after world.restore wrote memory. */
  reattach(): void {
    this.buffer = null;
    this.refresh();
  }
}

const FLOAT_REGIONS = [RH_PREFAB_BOX, RH_RECTS, RH_INST_X, RH_INST_Y, RH_CX, RH_CY, RH_CW, RH_CH, RH_CVX, RH_CVY, RH_CPREV, RH_PX, RH_PY, RH_PVX, RH_PVY, RH_PR];
function isFloatRegion(field: number): boolean {
  return FLOAT_REGIONS.includes(field);
}
const REGION_INDEX: number[] = [];
REGIONS.forEach(([field], r) => { REGION_INDEX[field] = r; });

/** The smallest f32 above v (v is finite and its f32 rounding fell below it). */
function nextUp(v: number): number {
  const f = new Float32Array([v]);
  const u = new Uint32Array(f.buffer);
  if (f[0] < v) u[0] += f[0] >= 0 ? 1 : -1;
  return f[0];
}

// ---- validation: fail fast, with the fix in the message --------------------------------------

function checkBox(method: string, x0: number, y0: number, x1: number, y1: number): void {
  checkCoord(method, "x0", x0); checkCoord(method, "y0", y0); checkCoord(method, "x1", x1); checkCoord(method, "y1", y1);
  if (x1 < x0 || y1 < y0) {
    throw new HitcoreError("NEGATIVE_SIZE", `${method}: the box (${x0}, ${y0})-(${x1}, ${y1}) has x1 < x0 or y1 < y0. Pass the top-left corner first.`);
  }
}

function checkMotion(method: string, x: number, y: number, dx: number, dy: number): void {
  checkCoord(method, "x", x); checkCoord(method, "y", y); checkCoord(method, "dx", dx); checkCoord(method, "dy", dy);
}

function checkSearch(method: string, v: number): number {
  if (v !== SEARCH_TREE && v !== SEARCH_BOXES && v !== SEARCH_FLAT) {
    throw new HitcoreError("INVALID_OPTION", `${method}: search must be Search.Tree (2), Search.Boxes (1) or Search.Flat (0), got ${describe(v)}.`);
  }
  return v;
}

function checkCount(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min || v > 1 << 24) {
    throw new HitcoreError("INVALID_OPTION", `${name} must be an integer in [${min}, 2^24], got ${describe(v)}.`);
  }
  return v;
}

/**
 * The config `base` with the fields `partial` gives, checked: a new object holding the known fields
 * only, so a key of the caller's (such as an own "__proto__") never reaches the level's state.
 */
function checkConfig(base: Readonly<CharacterConfig>, partial: unknown): CharacterConfig {
  if (partial !== undefined && (typeof partial !== "object" || partial === null)) {
    throw new HitcoreError("INVALID_OPTION", `character config must be an object of CharacterConfig fields, got ${describe(partial)}.`);
  }
  const given = (partial ?? {}) as Partial<Record<keyof CharacterConfig, unknown>>;
  const c = { ...base };
  for (const name of Object.keys(DEFAULT_CHARACTER) as (keyof CharacterConfig)[]) {
    if (!Object.prototype.hasOwnProperty.call(given, name)) continue;
    const v = given[name];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1e6) {
      throw new HitcoreError("INVALID_OPTION", `character.${name} must be a finite number in [0, 1e6], got ${describe(v)}.`);
    }
    c[name] = v;
  }
  if (!Number.isInteger(c.graceFrames)) {
    throw new HitcoreError("INVALID_OPTION", `character.graceFrames must be an integer >= 0, got ${describe(c.graceFrames)}.`);
  }
  return c;
}

function checkCharacterSize(method: string, w: number, h: number, c: CharacterConfig): void {
  if (!(h > c.sensorTop + c.stepHeight) || !(h >= c.sensorBottom) || !(w > 2 * c.inset)) {
    throw new HitcoreError("INVALID_CHARACTER", `${method}: a ${w} x ${h} character cannot hold its sensors: it needs height > sensorTop + stepHeight (${c.sensorTop} + ${c.stepHeight}), height >= sensorBottom (${c.sensorBottom}) and width > 2 x inset (${2 * c.inset}). Make it larger or change the character config.`);
  }
}
