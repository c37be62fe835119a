// The typed facade: one World over either kernel (the wasm core or its js build). It owns the memory
// layout, ids, growth and validation; the kernels only run loops over the regions it lays out.
//
// Regions, in this order from the arena base (S = capacity + 1 slots: the last is the query probe):
//   x, y, a, b      f32[S]     position; a = radius (circle) or width (rect); b = height (rect)
//   groups          u32[S]     group bits; 0 marks a free slot         } preserved when
//   kind            u8[S]      Kind.*; 0 marks a free slot             } the arena grows
//   flags           u8[S]      BodyFlag.* of the last firstHits        }
//   box             f32[4C]    scratch: boxes of the selected entities
//   sel             i32[C]     scratch: slots of the selected entities
//   cells           i32[CELLS_PER_ENTITY * C + SLACK]  scratch: cell counts, then ends
//   entries         ENTRY_BYTES x C  scratch: (slot, box) of the small entities by cell
//   large           i32[C]     scratch: large entities
//   home            i32[C]     scratch: home cell per selected entity (then the SIMD walk's cells and list)
//   pairs           i32[2P]    pair output
//   results         i32[S]     query output
//   hist            i32[256]   scratch: size histogram
//   planes          f32[4(C+4)] scratch: the entries' boxes as four planes (the SIMD core's pair walk)
import {
  ARENA_BASE, CELLS_PER_ENTITY, ENTRY_BYTES, HEADERS_END, FLAG_HIT, FLAG_STOPPED, G_CELL, G_COLS, G_COVER, G_ENTRIES, G_LARGE, G_OX, G_OY,
  G_INV, G_MASK, G_MAXX, G_MAXY, G_INVY, G_REACHH, G_REACHW, G_ROWS, G_SELECTED, G_SPLIT, H_A, H_B, H_BOX, H_CAPACITY, H_CELLS, H_CELLS_CAP, H_ENTRIES, H_HOME, H_LARGE,
  H_FLAGS, H_GROUPS, H_HIST, H_KIND, H_PLANES, H_PAIRS, H_PAIRS_CAP, H_RESULTS, H_SEL, H_X, H_Y, HEADER,
  HEADER_FIELDS, HIST_BUCKETS, KIND_CIRCLE, PART_HEADER_FIELDS, WORLD_HEADER, PLATFORMS_HEADER, RECTS_HEADER, TILES_HEADER, PLANE_SLACK, KIND_NONE, KIND_POINT, KIND_RECT, S_AABB_TESTS,
  MIN_CELL_SIZE, S_CELLS_VISITED, TAG_SLOT, S_FIRST_INVALID, S_FOUND, S_INVALID, S_NARROW_TESTS, SCRATCH_SLACK,
} from "../layout/grid.js";
import type { Kernel } from "./kernel.js";
import {
  CAST_HIT, CAST_IN, SWEEP_BOX, SWEEP_CIRCLE, SWEEP_POINT, W_CAST_CAP, W_CAST_HIT_F, W_CAST_HIT_I, W_CASTS, W_ONE_NX, W_ONE_NY,
  W_ONE_PART, W_ONE_RECT, W_ONE_SHAPE, W_ONE_T, W_OVERLAP, WORLD_FIELDS, LEVEL_PLATFORMS, LEVEL_RECTS, W_LEVEL_ALWAYS, W_LEVEL_CELLS,
  W_LEVEL_COLS, W_LEVEL_INV, W_LEVEL_OX, W_LEVEL_OY, W_LEVEL_ROWS, W_LEVEL_RLISTED, W_LEVEL_RLISTS,
  H_HIT_F, H_HIT_I, H_VX, H_VY, MOVE_BAD_NUMBER,
  RESPONSE_BOUNCE, RESPONSE_SLIDE, RESPONSE_STOP, RESPONSE_BY_GROUP, PARTS_POLYHEDRA, PARTS_RECTS, PARTS_SURFACES, PARTS_TILES,
  W_RESPONSES, W_RESTITUTIONS, W_PAIRS_OUT, W_PROBE_BOX, W_PROBE_CELLS, W_PROBE_ENTRIES, W_PROBE_LARGE, W_PROBE_SEL,
} from "../layout/moves.js";
import {
  CONTACT_FIELDS, CONTACT_HURT, CONTACT_PICK_UP, CONTACT_STOMP, CONTROLLER_BALL, CONTROLLER_CHARACTER, CONTROLLER_TILE,
  CONTACTS_SCRATCH, W_CONTACT_CAP, W_CONTACTS, W_CONTACTS_OUT, X_C_FIELDS,
} from "../layout/contacts.js";
import { Arena, detachViews, fitsHeap, HEAP_LIMIT, Heap, layoutIsWhole, reserve, type Layout, type Region } from "./arena.js";
import { assign, checkShape, decodeSnapshot, encodeSnapshot, pick, type StateValue } from "./snapshot.js";
import { buildPlatformIndex } from "./platform_index.js";
import { Platforms, type PlatformsOptions } from "./platforms.js";
import type { PlatformsKernel } from "./platforms_kernel.js";
import { RectLevel, type RectLevelOptions } from "./rect_level.js";
import type { RectsKernel } from "./rects_kernel.js";
import { tileMapIn, type TileKernel, type TileMap, type TileMapOptions } from "./tile_map.js";
import { addLevelObjects, type LevelObjectsLoaded } from "./level_objects.js";
import { checkCoord, checkHeader, checkSize, describe, HitcoreError, MAX_COORD, notNumbers, numbersLength, optionsOf, setHeaderFields } from "./validate.js";
import { IN_DOWN, IN_JUMP, IN_LEFT, IN_RIGHT, IN_UP } from "../layout/input.js";
import { Hit, Part } from "./hit.js";
import {
  generationOf, IdKind, makeId, MAX_GENERATION, NULL_ID, releaseTag, SLOT_SPAN, slotFor, swapTag, takeTag, unknownId, WORLD_TAGS, type WorldTag,
} from "./ids.js";
import { buildLevelGrid, type LevelBoxes } from "./level_grid.js";

export { Hit, HitcoreError, MAX_COORD, Part };

export type Backend = "wasm" | "js";

/** Shape kinds as stored in `world.kinds`. */
export const Kind = { None: KIND_NONE, Point: KIND_POINT, Circle: KIND_CIRCLE, Rect: KIND_RECT } as const;
/** Bits of `world.flags` written by firstHits: a bullet that hit something and stopped, an enemy that was hit. */
export const BodyFlag = { Stopped: FLAG_STOPPED, Hit: FLAG_HIT } as const;
/**
 * The input bits a game writes each frame for its characters, one set for every controller: the
 * rect level's four-sensor characters (`charInput`: Left, Right, Jump) and the tile map's
 * controllers (`setInput`: all five; Up and Down climb ladders).
 */
export const Input = { Left: IN_LEFT, Right: IN_RIGHT, Up: IN_UP, Down: IN_DOWN, Jump: IN_JUMP } as const;

/** Every group bit: the default mask of queries. */
export const ALL_GROUPS = 0xffffffff;
export { IdKind, NULL_ID };

export interface WorldOptions {
  /** `wasm` (default) or `js`, the same core compiled to JavaScript. */
  backend?: Backend;
  /** Entities to reserve room for (default 1024). */
  capacity?: number;
  /** Grow the stores (x2) when full instead of throwing (default true). */
  growable?: boolean;
  /** Hard cap on entities when growing (default 4,194,304, or `capacity` when larger; at most 2^24 - 1). */
  maxCapacity?: number;
  /** Grid cell size in world units; 0 or absent picks one from the entity sizes each build. */
  cellSize?: number;
  /** Pairs the pair buffer holds before it grows (default 2 x capacity). */
  pairCapacity?: number;
  /** Grow the pair buffer and rerun a query whose pairs did not fit (default true); false reports `droppedPairs`. */
  growPairs?: boolean;
}

/** What the last query visited, for tests and tuning (allocates: not for the frame loop). */
export interface GridStats {
  /** Entities the last grid held. */
  selected: number;
  cols: number;
  rows: number;
  cellSize: number;
  /**
   * Top-left corner of the grid, which covers the boxes of what it holds: a home grid's is their
   * top-left corner snapped down to a multiple of the cell size (so moving entities keep one grid
   * for many frames), a reach grid's is that corner moved up and left by the probe size.
   */
  originX: number;
  originY: number;
  /** Records in cells (one per small entity; in a reach grid, one per cell it reaches) and entities in the large list. */
  entries: number;
  large: number;
  /**
   * Whether the last grid is a reach grid: crossPairs lists the smaller side (up to a ninth of the
   * capacity) in every cell its boxes reach once widened by the largest probe, and probes it with
   * the larger side in slot order, one cell per probe; when that would not fit, a home grid of the
   * larger side.
   */
  cover: boolean;
  /**
   * The probe width and height a reach grid is widened for (0 for other grids): the largest the
   * probes had in the last crossPairs with the same probing side, or in this call when a probe has
   * grown past them (the call then starts over, widened for this call's). Bullets keep their sizes,
   * so a call does not measure them before building.
   */
  reachWidth: number;
  reachHeight: number;
  /**
   * Whether the last selfPairs split thin boxes (nearly all of them at least 4 times longer than
   * wide) into a grid of wide flat cells for the wide ones and one of tall narrow cells for the
   * tall ones. The other grid fields then describe the tall boxes' grid; `selected` counts both.
   */
  split: boolean;
  cellsVisited: number;
  aabbTests: number;
  narrowTests: number;
  found: number;
}


/** The world's regions, in this order from the arena base; the first seven keep their data when the stores grow. */
function regionsFor(capacity: number, pairCapacity: number): Region[] {
  const slots = capacity + 1;
  const cells = CELLS_PER_ENTITY * capacity + SCRATCH_SLACK;
  const store = (field: number, bytes: number): Region => ({ field, bytes, keep: true });
  const scratch = (field: number, bytes: number): Region => ({ field, bytes, keep: false });
  return [
    store(H_X, 4 * slots), store(H_Y, 4 * slots), store(H_A, 4 * slots), store(H_B, 4 * slots),
    store(H_GROUPS, 4 * slots), store(H_KIND, slots), store(H_FLAGS, slots),
    store(H_VX, 4 * slots), store(H_VY, 4 * slots), store(H_HIT_I, 12 * slots), store(H_HIT_F, 12 * slots),
    scratch(H_BOX, 16 * capacity), scratch(H_SEL, 4 * capacity), scratch(H_CELLS, 4 * cells),
    scratch(H_ENTRIES, ENTRY_BYTES * capacity), scratch(H_LARGE, 4 * capacity), scratch(H_HOME, 4 * capacity),
    scratch(H_PAIRS, 8 * pairCapacity), scratch(H_RESULTS, 4 * slots), scratch(H_HIST, 4 * HIST_BUCKETS),
    scratch(H_PLANES, 16 * (capacity + PLANE_SLACK)),
  ];
}

/** The capacities the bodies' header holds for the core (field, value pairs): relayout writes them, validate checks them. */
function capacityFields(capacity: number, pairCapacity: number): number[] {
  return [H_CAPACITY, capacity, H_CELLS_CAP, CELLS_PER_ENTITY * capacity + SCRATCH_SLACK, H_PAIRS_CAP, pairCapacity];
}

/** The pairs of the last pair query that answered (world.pairs), copied out of the core's H_PAIRS: W_PAIRS_OUT's one region. */
function pairsOutRegions(pairCapacity: number): Region[] {
  return [{ field: W_PAIRS_OUT, bytes: 8 * pairCapacity, keep: true }];
}

/** The probe grid's regions for `capacity` entities: those of the pair queries' grid that a probe reads. */
function probeRegions(capacity: number): Region[] {
  const scratch = (field: number, bytes: number): Region => ({ field, bytes, keep: false });
  return [
    scratch(W_PROBE_BOX, 16 * capacity), scratch(W_PROBE_SEL, 4 * capacity), scratch(W_PROBE_CELLS, 4 * (CELLS_PER_ENTITY * capacity + SCRATCH_SLACK)),
    scratch(W_PROBE_ENTRIES, ENTRY_BYTES * capacity), scratch(W_PROBE_LARGE, 4 * capacity),
  ];
}

// The probe grid's pointers (world header) and the bodies' header fields the core reads them
// from, in pairs; and the fields that describe a built grid, which the probe grid keeps apart.
const PROBE_POINTERS = [W_PROBE_BOX, H_BOX, W_PROBE_SEL, H_SEL, W_PROBE_CELLS, H_CELLS, W_PROBE_ENTRIES, H_ENTRIES, W_PROBE_LARGE, H_LARGE];
const GRID_SHAPE = [G_COLS, G_ROWS, G_OX, G_OY, G_MAXX, G_MAXY, G_INV, G_CELL, G_SELECTED, G_ENTRIES, G_MASK, G_LARGE, G_COVER, G_INVY, G_SPLIT, G_REACHW, G_REACHH];

/** Whether an arena's last layout is `regions`, field by field and size by size (validate()). */
function laidOutAs(arena: Arena, regions: readonly Region[]): boolean {
  return arena.sizes.length === regions.length && regions.every((r, k) => r.field === arena.fields[k] && r.bytes === arena.sizes[k]);
}

/** Regions of regionsFor's list that hold nothing between calls (every call writes them before it reads them): a snapshot holds them as zeros. */
const SCRATCH_REGIONS = [H_BOX, H_SEL, H_CELLS, H_ENTRIES, H_LARGE, H_HOME, H_HIST, H_PAIRS, H_PLANES].map((f) => regionsFor(1, 1).findIndex((r) => r.field === f));

// What a snapshot keeps of each part beside memory (world.snapshot): the facade's fields that
// change after construction. Options that shape a part are its `config`, which must match.
const PARTS = ["tileMap", "rectLevel", "platforms"] as const;
const BODY_STATE = ["cap", "pairCap", "top", "live", "gens", "freeSlots", "freeCount", "gridMask", "droppedPairs", "cellSizeOption", "levelGroups", "probeShape", "statsOfProbe"];
const TILE_MAP_STATE = ["caps", "pointCount", "monsterTop", "monsterFree", "monsterGens", "controllerTop", "cover", "monsterTypes"];
const RECT_LEVEL_STATE = ["caps", "prefabs", "rectCount", "instances", "chars", "dirty", "config", "freeChars", "charGens", "castSearch"];
const PLATFORMS_STATE = [
  "exactRegion", "resistanceX", "resistanceY", "maxSubsteps", "surfRecords", "surfBoxes", "halfspaceData", "polyStart",
  "polyBoxes", "polyVertices", "polyExtents", "index", "ballCap", "balls", "offsets", "resultsCap", "levelGen", "ballGen",
];
const ARENA_STATE = ["offsets", "sizes", "fields", "start", "end"];

/** What a disposed world's parts hold instead of their kernel and memory: any use throws DISPOSED. */
const DISPOSED = new Proxy({}, {
  get(_, name) {
    throw new HitcoreError("DISPOSED", `the world was disposed (reading ${String(name)}). Create a new world with createWorld().`);
  },
});

/** Which controller a record of `world.contacts` is about (its index is that part's id or slot). */
export const ControllerKind = { Ball: CONTROLLER_BALL, Character: CONTROLLER_CHARACTER, TileController: CONTROLLER_TILE } as const;
/** What a controller's contact with a body is (world.controllerContacts). */
export const ContactType = { Stomp: CONTACT_STOMP, Hurt: CONTACT_HURT, PickUp: CONTACT_PICK_UP } as const;

/** What a body does at its first contact in moveBodies. */
export const Response = { Stop: RESPONSE_STOP, Slide: RESPONSE_SLIDE, Bounce: RESPONSE_BOUNCE, ByGroup: RESPONSE_BY_GROUP } as const;

/** What a level part may be given when it is added: its group bits (1 unless given). */
export interface LevelPartOptions {
  groups?: number;
}

/** A level to load into a world in one call (world.loadLevel): a tile map's options, and the other parts' options. */
export interface LevelOptions extends TileMapOptions {
  /** Options of the rect level that receives the map's rectangle objects. */
  rectLevel?: RectLevelOptions;
  /** Options of the platforms that receive its polygon and polyline objects. */
  platforms?: PlatformsOptions;
}

/** What world.loadLevel made, and what came from where. */
export interface LevelLoaded extends LevelObjectsLoaded {
  tileMap: TileMap;
  rectLevel: RectLevel;
  platforms: Platforms;
}

/** What a cast sweeps (castMany): a point, a box (half extents a, b) or a circle (radius a). */
export const Sweep = { Point: SWEEP_POINT, Box: SWEEP_BOX, Circle: SWEEP_CIRCLE } as const;

/** Every export of the core: one instance serves every part of a world. */
export type WorldKernel = Kernel & TileKernel & RectsKernel & PlatformsKernel;

/** v[k] for an error message, or "(unreadable)" when reading it throws (a module function: a closure over the caller's locals would allocate its context on every call). */
function elementAt(v: ArrayLike<number>, k: number): unknown {
  try {
    return v[k];
  } catch {
    return "(unreadable)";
  }
}

/**
 * setPositions' staging of an array-like that is not a typed array: its first n elements, each
 * read once and refused (INVALID_ARGUMENT) unless a number. The planes it writes hold nothing
 * between calls, so a refusal part way leaves nothing behind.
 */
function stageNumbers(name: string, v: ArrayLike<number>, n: number, stage: Float64Array): void {
  try {
    for (let k = 0; k < n; k++) {
      const e = v[k];
      if (typeof e !== "number") throw notNumbers("setPositions", name, `got ${describe(e)} at index ${k}`);
      stage[k] = e;
    }
  } catch (e) {
    if (e instanceof HitcoreError) throw e;
    throw new HitcoreError("INVALID_ARGUMENT", `setPositions: reading ${name} threw ${describe(e)}. Pass a Float64Array, a Float32Array or an array of numbers.`);
  }
}

/**
 * A collision world: one instance of the core and one memory holding the bodies (flat stores of
 * points, circles and rects, a bucket grid, batched queries) and the level's parts (a tile map, a
 * rect level, platforms), each added once.
 */
export class World {
  readonly backend: Backend;
  private readonly kernel: WorldKernel;
  private readonly heap: Heap;
  /** The world's id tag, shared with its parts, which put it into their handles too. */
  private readonly ids: WorldTag;
  private disposed = false;
  private _tileMap: TileMap | null = null;
  private _rectLevel: RectLevel | null = null;
  private _platforms: Platforms | null = null;
  private readonly memory: WebAssembly.Memory;
  private readonly growable: boolean;
  private readonly growPairs: boolean;
  private readonly maxCapacity: number;
  private cellSizeOption: number;
  private readonly arena: Arena;
  private readonly castArena: Arena;
  private castCap = 0;
  // overlapLevel's three planes (W_OVERLAP in the world header, whose grid header has no free
  // field): laid out at the first overlapLevel, then relaid with the bodies (CAPACITY + 1 slots).
  private readonly overlapArena: Arena;
  private overlapSlots = 0;
  private readonly contactArena: Arena;
  private contactCap = 0; // records the contacts region holds
  // world.pairs, relaid with the pair capacity (W_PAIRS_OUT).
  private readonly pairsOutArena: Arena;
  // The probe grid (W_PROBE_*): laid out at the first buildGrid for the stores' capacity, relaid with them.
  private readonly probeArena: Arena;
  private probeSlots = 0; // the capacity the probe grid is laid out for; 0: none
  private probeShape = new Int32Array(HEADER_FIELDS); // its GRID_SHAPE fields, at their header indices
  private statsOfProbe = false; // whether the last grid call was buildGrid or a probe (stats() then shows the probe grid)
  private readonly swapped = new Int32Array(HEADER_FIELDS); // the pair queries' fields while the probe grid is swapped in
  private readonly keptHeader = new Int32Array(HEADER_FIELDS); // the header before a pair query, for a refusal to put back
  private headerKept = false; // keptHeader holds the header from before the running call (keepHeader, not keepReport)
  /** The last cast's hit (castSegment, castRay, castCircle, castBox). */
  readonly hit = new Hit();
  private cap = 0; // entity slots per store
  private pairCap = 0; // pairs the pair region holds

  private top = 0; // slots in use: [0, top) holds every live entity
  private live = 0;
  private gens: Uint32Array;
  private freeSlots: Int32Array;
  private freeCount = 0;
  private gridMask = 0; // mask of the probe grid buildGrid built; 0 when stale or none
  private wasInvalid = 0; // the header's invalid report before the running query (keepReport)
  private wasFirst = 0;
  /** Pairs the last query found that did not fit (only when growPairs is false). */
  droppedPairs = 0;

  private buffer: ArrayBuffer | null = null;
  private header = new Int32Array(0);
  private headerF = new Float32Array(0);
  private _x = new Float32Array(0);
  private _y = new Float32Array(0);
  private _a = new Float32Array(0);
  private _b = new Float32Array(0);
  private _groups = new Uint32Array(0);
  private _kinds = new Uint8Array(0);
  private _flags = new Uint8Array(0);
  private _pairs = new Int32Array(0);
  private words = new Int32Array(0); // the whole memory, for copying pairs and contact records out
  private _results = new Int32Array(0);
  private _vx = new Float32Array(0);
  private _vy = new Float32Array(0);
  private _hitPart = new Int32Array(0);
  private _hitShape = new Int32Array(0);
  private _hitRect = new Int32Array(0);
  private _hitT = new Float32Array(0);
  private _hitNx = new Float32Array(0);
  private _hitNy = new Float32Array(0);
  private _overlapParts = new Uint32Array(0);
  private _overlapCells = new Uint32Array(0);
  private _overlapShape = new Int32Array(0);
  private _gridCells = new Int32Array(0);
  // setPositions' staging: x and y as f64 in the planes scratch, which no call keeps between calls.
  private _stageX = new Float64Array(0);
  private _stageY = new Float64Array(0);

  /** Use createWorld() from the package entry; this constructor takes an instantiated kernel. */
  constructor(kernel: WorldKernel, backend: Backend, given: WorldOptions = {}) {
    const options = optionsOf("createWorld", given);
    const capacity = checkCount("capacity", options.capacity ?? 1024, 1, SLOT_SPAN - 1);
    this.maxCapacity = checkCount("maxCapacity", options.maxCapacity ?? Math.max(1 << 22, capacity), capacity, SLOT_SPAN - 1);
    const pairCapacity = checkCount("pairCapacity", options.pairCapacity ?? 2 * capacity, 1, HEAP_LIMIT / 8);
    this.cellSizeOption = checkCellSize(options.cellSize ?? 0);
    this.kernel = kernel;
    this.backend = backend;
    this.memory = kernel.memory;
    this.growable = options.growable ?? true;
    this.growPairs = options.growPairs ?? true;
    this.heap = new Heap(kernel.arenaBase());
    this.arena = new Arena(kernel.memory, this.heap);
    this.castArena = new Arena(kernel.memory, this.heap);
    this.overlapArena = new Arena(kernel.memory, this.heap);
    this.ids = { tag: takeTag() };
    this.contactArena = new Arena(kernel.memory, this.heap);
    this.pairsOutArena = new Arena(kernel.memory, this.heap);
    this.probeArena = new Arena(kernel.memory, this.heap);
    this.gens = new Uint32Array(capacity).fill(1);
    this.freeSlots = new Int32Array(capacity);
    try {
      const end = this.arena.plan(regionsFor(capacity, pairCapacity)).end;
      if (!fitsHeap(end)) {
        throw new HitcoreError("INVALID_OPTION", `capacity ${capacity} with pairCapacity ${pairCapacity} needs ${end} bytes of memory, past the ${HEAP_LIMIT} a world may span. ` +
          "Lower them: the stores and the pair buffer grow on demand.");
      }
      this.relayout(capacity, pairCapacity, "createWorld");
    } catch (e) {
      releaseTag(this.ids.tag); // a world never made holds no tag
      throw e;
    }
  }

  // ---- the level's parts -------------------------------------------------------------------

  /** The tile map added by addTileMap, or null. */
  get tileMap(): TileMap | null { return this._tileMap; }
  /** The rect level added by addRectLevel, or null. */
  get rectLevel(): RectLevel | null { return this._rectLevel; }
  /** The platforms (surfaces, polyhedra, balls) added by addPlatforms, or null. */
  get platforms(): Platforms | null { return this._platforms; }

  /** Adds the world's tile map (ASCII, Tiled JSON or an empty cols x rows) to its memory. One per world. */
  addTileMap(given: TileMapOptions & LevelPartOptions): TileMap {
    this.checkPart("addTileMap", this._tileMap);
    const options = optionsOf("addTileMap", given);
    const groups = partGroups("addTileMap", options);
    const map = (this._tileMap = tileMapIn(this.kernel, this.backend, this.heap, this.ids, options));
    this.levelGroups[0] = groups;
    // Its controllers see the rects and polyhedra: those must be built before a step.
    map.prepareWorld = () => this.prepareLevel();
    return map;
  }

  /** Adds the world's rect level (prefabs, instances, quadtree, four-sensor characters) to its memory. One per world. */
  addRectLevel(given: RectLevelOptions & LevelPartOptions = {}): RectLevel {
    this.checkPart("addRectLevel", this._rectLevel);
    const options = optionsOf("addRectLevel", given);
    const groups = partGroups("addRectLevel", options);
    const level = (this._rectLevel = new RectLevel(this.kernel, this.backend, this.heap, this.ids, options));
    this.levelGroups[1] = groups;
    // Its characters see the tiles, surfaces and polyhedra: the platforms' grid must be built before a step.
    level.prepareWorld = () => this.prepareLevel();
    return level;
  }

  /** Adds the world's platforms (surfaces, polyhedra, balls) to its memory. One per world. */
  addPlatforms(given: PlatformsOptions & LevelPartOptions = {}): Platforms {
    this.checkPart("addPlatforms", this._platforms);
    const options = optionsOf("addPlatforms", given);
    const groups = partGroups("addPlatforms", options);
    const platforms = (this._platforms = new Platforms(this.kernel, this.backend, this.heap, this.ids, options));
    this.levelGroups[2] = groups;
    this.levelGroups[3] = groups;
    // The balls step against the rect level too: its quadtree must be current.
    platforms.prepareWorld = () => this._rectLevel?.prepare();
    return platforms;
  }

  /**
   * Sets the group bits of one kind of level geometry (Part.Tiles, Part.Rects, Part.Surfaces or
   * Part.Polyhedra; 1 unless set): moveBodies and the casts sweep against the kinds whose groups
   * meet their `levelMask`.
   */
  setLevelGroups(part: number, groups: number): void {
    if (part !== Part.Tiles && part !== Part.Rects && part !== Part.Surfaces && part !== Part.Polyhedra) {
      throw new HitcoreError("INVALID_OPTION", `setLevelGroups: part must be Part.Tiles, Part.Rects, Part.Surfaces or Part.Polyhedra, got ${describe(part)}.`);
    }
    checkGroups("setLevelGroups", groups);
    this.checkLive("setLevelGroups");
    this.levelGroups[part - 1] = groups;
  }

  /** The group bits of one kind of level geometry (Part.*). */
  levelGroupsOf(part: number): number {
    return Number.isInteger(part) ? this.levelGroups[part - 1] ?? 0 : 0;
  }

  /**
   * What moveBodies(mask, Response.ByGroup) does for bodies whose lowest group bit in the mask is
   * `group` (one bit): stop, slide, or bounce with `restitution`. Every group stops until set.
   */
  setResponse(group: number, response: number, restitution = 1): void {
    if (!Number.isInteger(group) || group <= 0 || group > 0x80000000 || (group & (group - 1)) !== 0) {
      throw new HitcoreError("INVALID_MASK", `setResponse: group must be one group bit (1, 2, 4, ... 2^31), got ${describe(group)}.`);
    }
    checkResponse("setResponse", response, restitution);
    this.checkLive("setResponse");
    this.refresh();
    const bit = 31 - Math.clz32(group);
    this.worldHeader[W_RESPONSES + bit] = response;
    new Float32Array(this.memory.buffer, WORLD_HEADER, WORLD_FIELDS)[W_RESTITUTIONS + bit] = restitution;
  }

  /** Group bits of the tile map, the rect level, the surfaces and the polyhedra, in Part order. */
  private levelGroups = new Uint32Array([1, 1, 1, 1]);

  /** The PARTS_* whose groups meet `levelMask`. */
  private partsFor(method: string, levelMask: number): number {
    checkMask(method, "levelMask", levelMask);
    const g = this.levelGroups;
    return ((g[0] & levelMask) !== 0 ? PARTS_TILES : 0) | ((g[1] & levelMask) !== 0 ? PARTS_RECTS : 0) |
      ((g[2] & levelMask) !== 0 ? PARTS_SURFACES : 0) | ((g[3] & levelMask) !== 0 ? PARTS_POLYHEDRA : 0);
  }

  /**
   * Loads a whole level in one call: the map (ASCII, Tiled JSON or a map from loadTiledMap) becomes
   * the tile map, its rectangle objects instances of the rect level (a prefab per distinct size),
   * its polygon objects polyhedra of the platforms (split into convex parts) and its polyline
   * objects surfaces of the platforms (one per segment of non-zero length, facing the left of the
   * line as drawn: drawn left to right, up). Returns the parts and the handles each object became
   * (per kind of object, and by Tiled object id). The world must hold no part yet; if any of it is
   * refused, the world is left as it was.
   */
  loadLevel(given: LevelOptions): LevelLoaded {
    this.checkLive("loadLevel");
    const options = optionsOf("loadLevel", given);
    if (this._tileMap || this._rectLevel || this._platforms) {
      throw new HitcoreError("INVALID_OPTION", "loadLevel: the world already has a level part; load a level into a world that has none (create another world for another level).");
    }
    const before = this.snapshot();
    try {
      const tileMap = this.addTileMap(options);
      const rectLevel = this.addRectLevel(options.rectLevel ?? {});
      const platforms = this.addPlatforms(options.platforms ?? {});
      const loaded = addLevelObjects(tileMap.objects, { rects: rectLevel, platforms });
      return { tileMap, rectLevel, platforms, ...loaded };
    } catch (e) {
      this._tileMap = this._rectLevel = this._platforms = null;
      this.restore(before);
      throw e;
    }
  }

  /**
   * Lets go of the world: its instance and memory go with the last reference to them (WebAssembly
   * memory cannot shrink or be freed sooner), its id tag is free for a new world, and every later
   * call on it or its parts throws DISPOSED.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    releaseTag(this.ids.tag);
    for (const part of [this, this._tileMap, this._rectLevel, this._platforms]) {
      if (!part) continue;
      const p = part as unknown as Record<string, unknown>;
      p.kernel = DISPOSED;
      p.memory = DISPOSED;
      p.buffer = null;
      p.header = new Int32Array(0);
    }
  }

  // ---- snapshot and restore -------------------------------------------------------------------

  /**
   * The world's whole state as bytes: every store, the level's parts, ids and free slots, and the
   * core's memory (the probe grid buildGrid built included), so a restored world stepped with the same
   * calls gives bit-identical results. The bytes move between the wasm-scalar, wasm-simd and js
   * cores. Allocates (a copy of the used memory): for rollback and saves, not every frame by default.
   */
  snapshot(): Uint8Array {
    this.checkLive("snapshot");
    this.pairGrid();
    const buf = new Uint8Array(this.memory.buffer), top = this.heap.top;
    const memory = new Uint8Array(HEADERS_END + top - ARENA_BASE);
    memory.set(buf.subarray(0, HEADERS_END));
    memory.set(buf.subarray(ARENA_BASE, top), HEADERS_END);
    // The pair queries' grid, the pairs they write before they answer and the planes
    // (setPositions' staging, the SIMD pair walk's scratch) hold nothing between calls: every call
    // writes them before it reads them. So a snapshot holds them as zeros, and a call refused after
    // writing them leaves the snapshot as it was.
    const zero = (arena: Arena, r: number) => {
      const at = HEADERS_END + arena.offsets[r] - ARENA_BASE;
      memory.fill(0, at, at + arena.sizes[r]);
    };
    for (const r of SCRATCH_REGIONS) zero(this.arena, r);
    // controllerContacts' scratch: its records before they are copied out, the current controller.
    if (this.contactCap > 0) zero(this.contactArena, 0);
    memory.fill(0, WORLD_HEADER + CONTACTS_SCRATCH, WORLD_HEADER + CONTACTS_SCRATCH + 8 * X_C_FIELDS);
    return encodeSnapshot(this.state(), memory);
  }

  /**
   * Brings back the state `bytes` (from snapshot()) holds. The world must hold the same parts, made
   * with the same map size and options, as the one that took the snapshot (add them first, then
   * restore). Ids issued before the snapshot are valid again, and this world now answers to the ids
   * of the world that took it. A damaged, truncated or tampered snapshot (SNAPSHOT_CORRUPT), one from
   * another format (SNAPSHOT_FORMAT) or of another level (SNAPSHOT_MISMATCH) is refused, and the world
   * is left as it was.
   */
  restore(bytes: Uint8Array): void {
    this.checkLive("restore");
    const { state, memory } = decodeSnapshot(bytes);
    const like = this.state();
    for (const name of PARTS) {
      const has = (like as Record<string, StateValue>)[name] != null, had = (state as Record<string, StateValue> | null)?.[name] != null;
      if (has !== had) {
        throw new HitcoreError("SNAPSHOT_MISMATCH", `restore: the snapshot ${had ? "holds" : "has no"} ${name} and this world ${has ? "has one" : "has none"}. ` +
          "Add the same parts to the world, then restore.");
      }
    }
    // The platforms' index is null until a call builds it, in the snapshot's world or in this one:
    // an unbuilt one is rebuilt from the restored level, a built one is checked against the index shape.
    const mine = (like as { platforms?: { fields: Record<string, StateValue> } | null }).platforms?.fields;
    const theirs = (state as { platforms?: { fields?: StateValue } | null } | null)?.platforms?.fields;
    if (mine && theirs && typeof theirs === "object" && !Array.isArray(theirs) && !ArrayBuffer.isView(theirs)) {
      const index = (theirs as Record<string, StateValue>).index;
      if (index === null) mine.index = null;
      else if (mine.index === null) mine.index = buildPlatformIndex(new Float64Array(0), 0, new Float64Array(0), 0) as unknown as StateValue;
    }
    checkShape(state, like, "state");
    const s = state as Record<string, Record<string, StateValue>>;
    for (const name of PARTS) {
      const config = s[name]?.config, mine = (like as Record<string, Record<string, StateValue> | null>)[name]?.config;
      if (config && JSON.stringify(config) !== JSON.stringify(mine)) {
        throw new HitcoreError("SNAPSHOT_MISMATCH", `restore: the snapshot's ${name} was made with ${JSON.stringify(config)}, this world's with ${JSON.stringify(mine)}. ` +
          "Make the part with the same options, then restore.");
      }
    }
    const top = s.heap.top as unknown as number, tag = state && (state as Record<string, StateValue>).tag;
    if (!Number.isInteger(top) || top < ARENA_BASE || memory.length !== HEADERS_END + top - ARENA_BASE ||
      !Number.isInteger(tag) || (tag as number) < 0 || (tag as number) >= WORLD_TAGS) {
      throw new HitcoreError("SNAPSHOT_CORRUPT", "restore: the snapshot's memory does not match its layout. Pass the bytes world.snapshot() returned, unchanged.");
    }
    const headers = new Int32Array(memory.slice(0, HEADERS_END).buffer);
    for (const [name, at] of [["bodies", HEADER], ["casts", WORLD_HEADER], ["overlaps", WORLD_HEADER], ["contacts", WORLD_HEADER], ["pairsOut", WORLD_HEADER], ["probes", WORLD_HEADER], ["tileMap", TILES_HEADER], ["rectLevel", RECTS_HEADER], ["platforms", PLATFORMS_HEADER]] as const) {
      const layout = s[name]?.arena as unknown as Layout | undefined;
      if (layout && layout.offsets.length > 0 && !layoutIsWhole(layout, headers.subarray(at >> 2, (at >> 2) + PART_HEADER_FIELDS), ARENA_BASE, top)) {
        throw new HitcoreError("SNAPSHOT_CORRUPT", `restore: the snapshot's ${name} regions are not where its header says. Pass the bytes world.snapshot() returned, unchanged.`);
      }
    }
    // Whatever fails while the state is applied or checked (a tampered field can make a view that
    // does not fit), the world goes back to what it was.
    const undo = this.snapshot();
    try {
      this.apply(state, memory);
      this.validate();
      this._tileMap?.validate();
      this._rectLevel?.validate();
      this._platforms?.validate();
    } catch (e) {
      const back = decodeSnapshot(undo);
      this.apply(back.state, back.memory);
      throw new HitcoreError("SNAPSHOT_CORRUPT", `restore: the snapshot's contents are inconsistent (${e instanceof Error ? e.message : String(e)}); the world is unchanged.`);
    }
  }

  /** The JavaScript half of the state: what the facade keeps beside memory. */
  private state(): StateValue {
    const save = (part: object | null, keys: readonly string[], config?: Record<string, StateValue>) =>
      part && { fields: pick(part, keys), arena: pick((part as unknown as { arena: object }).arena, ARENA_STATE), ...(config ? { config } : {}) };
    const tm = this._tileMap, pl = this._platforms;
    return {
      heap: { top: this.heap.top },
      tag: this.ids.tag,
      bodies: save(this, BODY_STATE),
      casts: { fields: pick(this, ["castCap", "levelCap", "levelListCap"]), arena: pick(this.castArena, ARENA_STATE) },
      overlaps: { fields: pick(this, ["overlapSlots"]), arena: pick(this.overlapArena, ARENA_STATE) },
      contacts: { fields: pick(this, ["contactCap"]), arena: pick(this.contactArena, ARENA_STATE) },
      pairsOut: { fields: {}, arena: pick(this.pairsOutArena, ARENA_STATE) },
      probes: { fields: pick(this, ["probeSlots"]), arena: pick(this.probeArena, ARENA_STATE) },
      tileMap: save(tm, TILE_MAP_STATE, tm ? { cols: tm.cols, rows: tm.rows, tileSize: tm.tileSize, wrap: tm.wrap, solidFloor: tm.solidFloor } : undefined),
      rectLevel: save(this._rectLevel, RECT_LEVEL_STATE),
      platforms: save(pl, PLATFORMS_STATE, pl ? { maxRadius: pl.maxRadius } : undefined),
    };
  }

  /** Writes a checked state and its memory into the world and rebuilds every view. */
  private apply(state: StateValue, memory: Uint8Array): void {
    const s = state as Record<string, Record<string, Record<string, StateValue>>>;
    const top = s.heap.top as unknown as number;
    if (top > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((top - this.memory.buffer.byteLength) / 65536));
    const buf = new Uint8Array(this.memory.buffer);
    buf.set(memory.subarray(0, HEADERS_END));
    buf.set(memory.subarray(HEADERS_END), ARENA_BASE);
    if (this.heap.top > top) buf.fill(0, top, this.heap.top);
    this.heap.top = top;
    this.probeIn = false; // a snapshot holds the pair queries' grid fields
    // The restored layout may put other regions where the views a caller kept point: detach them.
    detachViews(this.memory);
    const tag = s.tag as unknown as number;
    if (tag !== this.ids.tag) {
      swapTag(this.ids.tag, tag);
      this.ids.tag = tag;
    }
    const arenas: Record<string, Arena> = { casts: this.castArena, overlaps: this.overlapArena, contacts: this.contactArena, pairsOut: this.pairsOutArena, probes: this.probeArena };
    for (const [name, part] of [["bodies", this], ["casts", this], ["overlaps", this], ["contacts", this], ["pairsOut", this], ["probes", this], ["tileMap", this._tileMap], ["rectLevel", this._rectLevel], ["platforms", this._platforms]] as const) {
      if (!part) continue;
      assign(part, s[name].fields);
      const arena = arenas[name] ?? (part as unknown as { arena: object }).arena;
      assign(arena, s[name].arena);
    }
    for (const part of [this, this._tileMap, this._rectLevel, this._platforms]) part?.reattach();
    this.levelRects = -1; // the next cross-part call rebuilds the level grid from the restored level
  }

  /** @internal Rebuilds the views after restore wrote memory. */
  reattach(): void {
    this.buffer = null;
    this.refresh();
  }

  private checkLive(method: string): void {
    if (this.disposed) throw new HitcoreError("DISPOSED", `${method}: the world was disposed. Create a new world with createWorld().`);
  }

  /** Readies the level's parts for a call that reads them all (indexes built, regions laid out, the level grid current). */
  private prepareLevel(): void {
    const rects = this._rectLevel, platforms = this._platforms;
    rects?.prepare();
    platforms?.prepare();
    const rev = rects?.revision ?? 0, prev = platforms?.revision ?? 0;
    if (rev === this.levelRects && prev === this.levelPlatforms) return;
    this.levelRects = rev;
    this.levelPlatforms = prev;
    const sets: LevelBoxes[] = [];
    if (rects) sets.push({ boxes: rects.masterBoxes(), count: rects.instanceCount, bit: LEVEL_RECTS });
    if (platforms) {
      const [surf, nSurf, poly, nPoly] = platforms.reachBoxes();
      sets.push({ boxes: surf, count: nSurf, bit: LEVEL_PLATFORMS }, { boxes: poly, count: nPoly, bit: LEVEL_PLATFORMS });
    }
    const grid = buildLevelGrid(sets), lists = grid.rectLists, listBytes = lists ? 4 * lists.length : 0;
    if (grid.cells.length > this.levelCap || listBytes > this.levelListCap) {
      this.layoutCasts(this.castCap, Math.max(grid.cells.length, this.levelCap), Math.max(listBytes, this.levelListCap));
    }
    this.refresh();
    const w = this.worldHeader, d = this.worldHeaderD;
    new Uint8Array(this.memory.buffer, w[W_LEVEL_CELLS], grid.cells.length).set(grid.cells);
    if (lists) new Int32Array(this.memory.buffer, w[W_LEVEL_RLISTS], lists.length).set(lists);
    w[W_LEVEL_RLISTED] = lists ? 1 : 0;
    w[W_LEVEL_COLS] = grid.cols;
    w[W_LEVEL_ROWS] = grid.rows;
    w[W_LEVEL_ALWAYS] = grid.always;
    d[W_LEVEL_OX >> 1] = grid.ox;
    d[W_LEVEL_OY >> 1] = grid.oy;
    d[W_LEVEL_INV >> 1] = grid.inv;
  }

  /** The parts' revisions the level grid was built for (-1: build it at the next cross-part call). */
  private levelRects = -1;
  private levelPlatforms = -1;

  private checkPart(method: string, part: object | null): void {
    this.checkLive(method);
    if (part) throw new HitcoreError("INVALID_OPTION", `${method}: the world already has one; a world holds one of each part. Create another world for another level.`);
  }

  // ---- stores -------------------------------------------------------------------------------

  /** Entities the stores hold before they grow. */
  get capacity(): number {
    return this.cap;
  }

  /** Slots in use: views and query loops cover [0, count); free slots inside have kind 0. */
  get count(): number {
    return this.top;
  }

  /** Live entities. */
  get size(): number {
    return this.live;
  }

  /** x of each slot (circle centre, rect left, point). Re-read after adding: growth replaces views. */
  get x(): Float32Array { this.refresh(); return this._x; }
  /** y of each slot (circle centre, rect top, point). */
  get y(): Float32Array { this.refresh(); return this._y; }
  /** Radius of a circle, width of a rect, 0 for a point. */
  get a(): Float32Array { this.refresh(); return this._a; }
  /** Height of a rect, 0 otherwise. */
  get b(): Float32Array { this.refresh(); return this._b; }
  /** Group bits of each slot; 0 for a free slot. */
  get groups(): Uint32Array { this.refresh(); return this._groups; }
  /** Kind.* of each slot. Read-only for users: change shapes with setCircle / setRect / setPoint. */
  get kinds(): Uint8Array { this.refresh(); return this._kinds; }
  /** BodyFlag.Stopped and BodyFlag.Hit of the last firstHits, per slot. */
  get flags(): Uint8Array { this.refresh(); return this._flags; }
  /** Pair output of the last pair query: slots at [2k] and [2k + 1]. */
  get pairs(): Int32Array { this.refresh(); return this._pairs; }
  /** Slot output of the last probe query. */
  get results(): Int32Array { this.refresh(); return this._results; }
  /** Velocity of each slot, in units per moveBodies call: the game writes it. */
  get vx(): Float32Array { this.refresh(); return this._vx; }
  get vy(): Float32Array { this.refresh(); return this._vy; }
  /** Each slot's first hit in the last moveBodies: the part (Part.*; Part.None if it hit nothing). */
  get hitPart(): Int32Array { this.refresh(); return this._hitPart; }
  /** The tile cell (row * cols + col; -1 for the floor below the map), rect instance, surface or polyhedron hit. */
  get hitShape(): Int32Array { this.refresh(); return this._hitShape; }
  /** The rect within the instance's prefab for a rect hit; -1 otherwise. */
  get hitRect(): Int32Array { this.refresh(); return this._hitRect; }
  /** Fraction of the move made before the hit (1 if none). */
  get hitT(): Float32Array { this.refresh(); return this._hitT; }
  /** Unit normal of what was hit, pointing back at the body (0, 0 if it started inside it). */
  get hitNx(): Float32Array { this.refresh(); return this._hitNx; }
  get hitNy(): Float32Array { this.refresh(); return this._hitNy; }
  /**
   * Each slot's parts in the last overlapLevel: bit 1 << Part.* for each part of the level it is
   * inside (0: none). Empty until the first overlapLevel.
   */
  get overlapParts(): Uint32Array { this.refresh(); return this._overlapParts; }
  /** The OR of the TileCell.* flags of the tile cells each slot overlapped (walls and floor outside the map: Platform). */
  get overlapCells(): Uint32Array { this.refresh(); return this._overlapCells; }
  /**
   * The first shape each slot overlapped, in Part order: a tile cell (row * cols + col; -1 for the
   * walls or floor outside the map), a rect instance, a surface or a polyhedron; -1 if none.
   */
  get overlapShape(): Int32Array { this.refresh(); return this._overlapShape; }

  /** Adds a point; returns its id. */
  addPoint(x: number, y: number, groups = 1): number {
    checkCoord("addPoint", "x", x);
    checkCoord("addPoint", "y", y);
    checkGroups("addPoint", groups);
    return this.insert(KIND_POINT, x, y, 0, 0, groups);
  }

  /** Adds a circle of centre (x, y) and radius r; returns its id. */
  addCircle(x: number, y: number, r: number, groups = 1): number {
    checkCoord("addCircle", "x", x);
    checkCoord("addCircle", "y", y);
    checkSize("addCircle", "radius", r);
    checkGroups("addCircle", groups);
    return this.insert(KIND_CIRCLE, x, y, r, 0, groups);
  }

  /** Adds a rect with top-left (x, y), width w and height h; returns its id. */
  addRect(x: number, y: number, w: number, h: number, groups = 1): number {
    checkCoord("addRect", "x", x);
    checkCoord("addRect", "y", y);
    checkSize("addRect", "width", w);
    checkSize("addRect", "height", h);
    checkGroups("addRect", groups);
    return this.insert(KIND_RECT, x, y, w, h, groups);
  }

  /** Removes an entity. Its id stays invalid forever; its slot is reused under a new id. */
  remove(id: number): void {
    const slot = this.slotOf("remove", id);
    this._kinds[slot] = KIND_NONE;
    this._groups[slot] = 0;
    this.live--;
    this.gridMask = 0;
    if (++this.gens[slot] < MAX_GENERATION) this.freeSlots[this.freeCount++] = slot;
  }

  /** Removes every entity; all ids become invalid. */
  clear(): void {
    this.refresh();
    for (let s = 0; s < this.top; s++) {
      if (this._kinds[s] !== KIND_NONE) this.remove(this.idAt(s));
    }
  }

  /** True when id names a live entity. */
  has(id: number): boolean {
    const slot = slotFor(id, this.ids.tag, IdKind.Body);
    return slot >= 0 && slot < this.top && this.gens[slot] === generationOf(id) && this.kinds[slot] !== KIND_NONE;
  }

  /** Slot of a live entity: its index into the views and the query outputs. */
  indexOf(id: number): number {
    return this.slotOf("indexOf", id);
  }

  /** Id of the entity in a slot, or NULL_ID for a free slot. */
  idAt(slot: number): number {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.top || this.kinds[slot] === KIND_NONE) return NULL_ID;
    return this.idOf(slot);
  }

  /** Kind.* of a live entity. */
  kindOf(id: number): number {
    return this.kinds[this.slotOf("kindOf", id)];
  }

  /** Moves an entity (circle centre, rect top-left, point). */
  setPosition(id: number, x: number, y: number): void {
    const slot = this.slotOf("setPosition", id);
    checkCoord("setPosition", "x", x);
    checkCoord("setPosition", "y", y);
    this._x[slot] = x;
    this._y[slot] = y;
    this.gridMask = 0;
  }

  /**
   * Moves the entities in slots [0, xs.length) to (xs[k], ys[k]) (circle centre, rect top-left,
   * point): a game's own position arrays, indexed by slot, in one call. The arrays are copied as
   * bytes and the core checks and converts them: on the SIMD core about twice as fast from
   * Float64Arrays as writing the x and y views with TypedArray.set, which converts number by
   * number (on the scalar core and the js backend, slower than that). Throws, moving nothing, when
   * the lengths differ or pass `count`, or when a number is not finite or past MAX_COORD.
   */
  setPositions(xs: ArrayLike<number>, ys: ArrayLike<number>): void {
    const n = numbersLength("setPositions", "xs", xs, false), ny = numbersLength("setPositions", "ys", ys, false);
    if (ny !== n || n > this.top) {
      const why = ny !== n ? `xs has ${n} numbers and ys ${ny}` : `${n} positions for ${this.top} slots in use`;
      throw new HitcoreError("INVALID_ARGUMENT", `setPositions: ${why}. Pass two arrays of the same length, one number per slot, at most world.count long.`);
    }
    this.refresh();
    // A typed array is copied by its own length; any other array-like is read once, element by
    // element, each checked to be a number as it is staged (a getter could answer differently on
    // a second read).
    if (ArrayBuffer.isView(xs)) this._stageX.set(xs);
    else stageNumbers("xs", xs, n, this._stageX);
    if (ArrayBuffer.isView(ys)) this._stageY.set(ys);
    else stageNumbers("ys", ys, n, this._stageY);
    // Staged in the planes, which hold nothing between calls: a refused call leaves the grid as it was.
    const bad = this.kernel.setPositions(n);
    if (bad >= 0) {
      throw new HitcoreError("INVALID_NUMBER", `setPositions: slot ${bad} has x ${describe(elementAt(xs, bad))} and y ${describe(elementAt(ys, bad))}; positions must be finite numbers of magnitude at most ${MAX_COORD}. Check the arrays for NaN or Infinity before passing them.`);
    }
    this.gridMask = 0;
  }

  /** Makes an entity a circle. */
  setCircle(id: number, x: number, y: number, r: number): void {
    const slot = this.slotOf("setCircle", id);
    checkCoord("setCircle", "x", x);
    checkCoord("setCircle", "y", y);
    checkSize("setCircle", "radius", r);
    this.write(slot, KIND_CIRCLE, x, y, r, 0, this._groups[slot]);
  }

  /** Makes an entity a rect. */
  setRect(id: number, x: number, y: number, w: number, h: number): void {
    const slot = this.slotOf("setRect", id);
    checkCoord("setRect", "x", x);
    checkCoord("setRect", "y", y);
    checkSize("setRect", "width", w);
    checkSize("setRect", "height", h);
    this.write(slot, KIND_RECT, x, y, w, h, this._groups[slot]);
  }

  /** Makes an entity a point. */
  setPoint(id: number, x: number, y: number): void {
    const slot = this.slotOf("setPoint", id);
    checkCoord("setPoint", "x", x);
    checkCoord("setPoint", "y", y);
    this.write(slot, KIND_POINT, x, y, 0, 0, this._groups[slot]);
  }

  /** Replaces an entity's group bits. */
  setGroups(id: number, groups: number): void {
    const slot = this.slotOf("setGroups", id);
    checkGroups("setGroups", groups);
    this._groups[slot] = groups;
    this.gridMask = 0;
  }

  /** Grid cell size for later builds; 0 picks one from the entity sizes. */
  setCellSize(cellSize: number): void {
    this.cellSizeOption = checkCellSize(cellSize);
    this.gridMask = 0;
  }

  // ---- casts against every part of the level ----------------------------------------------

  /** A point moving from (x, y) by (dx, dy) against every part of the level: true on a hit, the closest in `hit`. */
  castSegment(x: number, y: number, dx: number, dy: number, levelMask = ALL_GROUPS): boolean {
    this.checkCast("castSegment", x, y, dx, dy, 0);
    return this.castOne(SWEEP_POINT, x, y, dx, dy, 0, 0, this.partsFor("castSegment", levelMask));
  }

  /** A ray from (x, y) along (dirX, dirY), up to maxDistance: castSegment of that length. */
  castRay(x: number, y: number, dirX: number, dirY: number, maxDistance: number, levelMask = ALL_GROUPS): boolean {
    checkSize("castRay", "maxDistance", maxDistance);
    this.checkCast("castRay", x, y, dirX, dirY, 0);
    const len = Math.sqrt(dirX * dirX + dirY * dirY);
    if (!(len > 0)) throw new HitcoreError("INVALID_DIRECTION", "castRay: the direction is (0, 0). Pass a non-zero direction.");
    return this.castOne(SWEEP_POINT, x, y, dirX / len * maxDistance, dirY / len * maxDistance, 0, 0, this.partsFor("castRay", levelMask));
  }

  /** A circle (centre x, y, radius r) swept by (dx, dy) against every part of the level. */
  castCircle(x: number, y: number, r: number, dx: number, dy: number, levelMask = ALL_GROUPS): boolean {
    checkSize("castCircle", "radius", r);
    this.checkCast("castCircle", x, y, dx, dy, r);
    return this.castOne(SWEEP_CIRCLE, x, y, dx, dy, r, r, this.partsFor("castCircle", levelMask));
  }

  /** A box (top-left x, y, size w x h) swept by (dx, dy) against every part of the level; hit.x/y is its centre at contact. */
  castBox(x: number, y: number, w: number, h: number, dx: number, dy: number, levelMask = ALL_GROUPS): boolean {
    checkSize("castBox", "width", w);
    checkSize("castBox", "height", h);
    this.checkCast("castBox", x, y, dx, dy, 0);
    this.checkBoxReach("castBox", w, h);
    return this.castOne(SWEEP_BOX, x + w / 2, y + h / 2, dx, dy, w / 2, h / 2, this.partsFor("castBox", levelMask));
  }

  /** Room for `n` casts in castInputs (grows x2); castMany casts the first `count` of them. */
  ensureCasts(n: number): void {
    checkCount("ensureCasts", n, 1);
    if (n <= this.castCap) return;
    let cap = Math.max(this.castCap, 16);
    while (cap < n) cap *= 2;
    this.layoutCasts(cap, this.levelCap, this.levelListCap);
  }

  /**
   * Lays out the world header's regions: room for `castCap` casts, a level grid of `levelCap` cells
   * and `listBytes` of its rect lists.
   */
  private layoutCasts(castCap: number, levelCap: number, listBytes: number): void {
    this.castArena.layout([
      { field: W_CASTS, bytes: 4 * CAST_IN * castCap, keep: true },
      { field: W_CAST_HIT_I, bytes: 4 * CAST_HIT * castCap, keep: true },
      { field: W_CAST_HIT_F, bytes: 4 * CAST_HIT * castCap, keep: true },
      { field: W_LEVEL_CELLS, bytes: levelCap, keep: true },
      { field: W_LEVEL_RLISTS, bytes: listBytes, keep: true },
    ], () => new Int32Array(this.memory.buffer, WORLD_HEADER, WORLD_FIELDS));
    this.castCap = castCap;
    this.levelCap = levelCap;
    this.levelListCap = listBytes;
    this.buffer = null;
    this.refresh();
    this.worldHeader[W_CAST_CAP] = castCap;
  }

  /** Bytes of the level grid's regions: its cells, its rect lists. */
  private levelCap = 0;
  private levelListCap = 0;

  /** castMany's casts: x, y, dx, dy, a, b each (a: circle radius or box half width; b: box half height). */
  get castInputs(): Float32Array { this.refresh(); return this._castInputs; }
  /** castMany's hits: part, shape, rect each (Part.None and -1, -1 for a miss). */
  get castHitInts(): Int32Array { this.refresh(); return this._castHitInts; }
  /** castMany's hits: t, nx, ny each (t = 1 for a miss). */
  get castHitReals(): Float32Array { this.refresh(); return this._castHitReals; }

  /**
   * The first `count` casts of castInputs, all of one kind (Sweep.Point, Sweep.Circle or
   * Sweep.Box), against every part of the level in one call: each one's closest hit goes to
   * castHitInts / castHitReals. Returns how many hit. For many casts a frame (every enemy's line of
   * sight to the player); allocates nothing.
   */
  castMany(count: number, sweep: number = SWEEP_POINT, levelMask = ALL_GROUPS): number {
    if (!Number.isInteger(count) || count < 0 || count > this.castCap) {
      throw new HitcoreError("INVALID_COUNT", `castMany: count must be a whole number from 0 to the room ensureCasts made (${this.castCap}), got ${describe(count)}.`);
    }
    if (sweep !== SWEEP_POINT && sweep !== SWEEP_CIRCLE && sweep !== SWEEP_BOX) {
      throw new HitcoreError("INVALID_OPTION", `castMany: sweep must be Sweep.Point, Sweep.Circle or Sweep.Box, got ${describe(sweep)}.`);
    }
    const parts = this.partsFor("castMany", levelMask);
    this.checkLive("castMany");
    if (count === 0) return (this.castManyCount = 0);
    // Readying a changed level writes memory: the casts are checked first, by the core's own check
    // (a call against no part, which refuses before it casts), so a refused call changes nothing.
    if (this.levelStale()) this.castsUsable(this.kernel.castLevelMany(count, sweep, 0));
    this.prepareLevel();
    const hits = this.castsUsable(this.kernel.castLevelMany(count, sweep, parts));
    this.castManyCount = count;
    this.castManySweep = sweep;
    return hits;
  }

  /** castLevelMany's answer, or INVALID_CAST naming the cast it refused (-1 - its index). */
  private castsUsable(hits: number): number {
    if (hits >= 0) return hits;
    const k = -1 - hits;
    throw new HitcoreError("INVALID_CAST", `castMany: cast ${k} holds a value that is not a finite number of magnitude at most ${MAX_COORD}, a negative size, ` +
      `or a size past the platforms' maxRadius (${this._platforms?.maxRadius ?? "none"}). Fix castInputs[${CAST_IN * k} ... ${CAST_IN * k + 5}]. Nothing was cast.`);
  }

  private checkCast(method: string, x: number, y: number, dx: number, dy: number, reach: number): void {
    this.checkLive(method);
    checkCoord(method, "x", x); checkCoord(method, "y", y); checkCoord(method, "dx", dx); checkCoord(method, "dy", dy);
    const p = this._platforms;
    if (p && reach > p.maxRadius) {
      throw new HitcoreError("RADIUS_TOO_LARGE", `${method}: the cast reaches ${reach} from its centre, past the platforms' maxRadius ${p.maxRadius}, which their grid covers. Add the platforms with a larger maxRadius.`);
    }
  }

  /** Refuses a box whose half diagonal is past the platforms' maxRadius (w, h as given: a computed double passed to a call V8 does not inline is boxed). */
  private checkBoxReach(method: string, w: number, h: number): void {
    const p = this._platforms;
    if (p && Math.sqrt(w * w + h * h) / 2 > p.maxRadius) {
      throw new HitcoreError("RADIUS_TOO_LARGE", `${method}: the cast reaches ${Math.sqrt(w * w + h * h) / 2} from its centre, past the platforms' maxRadius ${p.maxRadius}, which their grid covers. Add the platforms with a larger maxRadius.`);
    }
  }

  /**
   * The last single cast (castSegment, castRay, castBox, castCircle) as made: [Sweep.*, centre x,
   * centre y, dx, dy, a, b] (a, b: radius, or half width and height), its hit in `hit`; Sweep -1
   * before the first. For overlays (debugDraw draws it).
   */
  readonly lastCast = new Float64Array([-1, 0, 0, 0, 0, 0, 0]);
  /** How many casts and of which Sweep the last castMany cast (0 before the first): castInputs and the hits hold them. */
  get lastCastMany(): number { return this.castManyCount; }
  get lastCastManySweep(): number { return this.castManySweep; }
  private castManyCount = 0;
  private castManySweep = SWEEP_POINT;
  /** Records the last controllerContacts wrote to `contacts` (0 before the first). */
  get contactCount(): number { return this.contactTotal; }
  private contactTotal = 0;

  private castOne(mode: number, x: number, y: number, dx: number, dy: number, a: number, b: number, parts: number): boolean {
    const last = this.lastCast;
    last[0] = mode; last[1] = x; last[2] = y; last[3] = dx; last[4] = dy; last[5] = a; last[6] = b;
    this.prepareLevel();
    const hit = this.kernel.castLevel(mode, x, y, dx, dy, a, b, parts) !== 0;
    this.refresh();
    const w = this.worldHeader, d = this.worldHeaderD, real = this.hit.real, int = this.hit.int;
    const t = d[W_ONE_T >> 1];
    real[0] = t;
    real[1] = t * Math.sqrt(dx * dx + dy * dy);
    real[2] = x + t * dx;
    real[3] = y + t * dy;
    real[4] = d[W_ONE_NX >> 1];
    real[5] = d[W_ONE_NY >> 1];
    int[0] = w[W_ONE_PART]; int[1] = w[W_ONE_SHAPE]; int[2] = w[W_ONE_RECT];
    return hit;
  }

  // ---- batched queries: one kernel call each --------------------------------------------------

  /**
   * Moves every live body in `mask` by its velocity (vx, vy) and sweeps it against every part of
   * the level (tile map, rect level, surfaces, polyhedra) so that nothing tunnels, however fast. At
   * its first contact a body stops (Response.Stop: velocity 0), slides along (Response.Slide) or
   * ricochets (Response.Bounce, the normal part scaled by `restitution`), resolving up to four
   * contacts in the call. With Response.ByGroup each body responds as setResponse set for its lowest
   * group bit in `mask`. Only the level geometry whose groups (setLevelGroups) meet `levelMask` is
   * swept against. Writes x, y, vx, vy and each body's first hit (hitPart ... hitNy); returns how
   * many bodies hit something. One wasm call; allocates nothing.
   */
  moveBodies(mask = ALL_GROUPS, response: number = RESPONSE_STOP, restitution = 1, levelMask = ALL_GROUPS): number {
    checkMask("moveBodies", "mask", mask);
    // With Response.ByGroup the table's restitutions apply, but the argument still goes to the core: a number from 0 to 1.
    checkResponse("moveBodies", response === RESPONSE_BY_GROUP ? RESPONSE_BOUNCE : response, restitution);
    const parts = this.partsFor("moveBodies", levelMask);
    this.checkLive("moveBodies");
    // Readying a changed level writes memory: the bodies are checked first, so a refused call changes nothing.
    if (this.levelStale()) this.refuseBodies("moveBodies", mask, true);
    this.prepareLevel();
    this.refresh();
    const wasInvalid = this.header[S_INVALID], wasFirst = this.header[S_FIRST_INVALID];
    const hits = this.kernel.moveBodies(this.top, mask, response, restitution, parts);
    if (hits < 0) this.refused("moveBodies", wasInvalid, wasFirst);
    this.gridMask = 0;
    return hits;
  }

  /** Whether readying the level for a cross-part call (prepareLevel) would write memory: an index to build, the level grid to rebuild. */
  private levelStale(): boolean {
    const rects = this._rectLevel, platforms = this._platforms;
    return (rects?.stale ?? false) || (platforms?.stale ?? false) || (rects?.revision ?? 0) !== this.levelRects || (platforms?.revision ?? 0) !== this.levelPlatforms;
  }

  /** Refuses moveBodies (`move`) or overlapLevel, before anything is written, when a body in `mask` holds a value it cannot take. */
  private refuseBodies(method: string, mask: number, move: boolean): void {
    this.refresh();
    const wasInvalid = this.header[S_INVALID], wasFirst = this.header[S_FIRST_INVALID];
    if (this.kernel.bodiesRefused(this.top, mask, move ? 1 : 0) !== 0) this.refused(method, wasInvalid, wasFirst);
  }

  /** Throws for the body the core refused (S_FIRST_INVALID), after putting back the header's report as it was before the call. */
  private refused(method: string, wasInvalid: number, wasFirst: number): never {
    // A refused call leaves the whole memory as it was, the header's report included.
    const h = this.header, slot = h[S_FIRST_INVALID], why = h[S_INVALID];
    h[S_INVALID] = wasInvalid;
    h[S_FIRST_INVALID] = wasFirst;
    this.checkSlotData(slot);
    if (method === "overlapLevel") {
      throw new HitcoreError("INVALID_ENTITY", `overlapLevel: slot ${slot} (id ${this.idOf(slot)}) holds a position or size that is not a finite number of magnitude at most ${MAX_COORD}. Write finite numbers into world.x / y / a / b. Nothing was written.`);
    }
    if (why === MOVE_BAD_NUMBER) {
      throw new HitcoreError("INVALID_ENTITY", `moveBodies: slot ${slot} (id ${this.idOf(slot)}) has a velocity (${this._vx[slot]}, ${this._vy[slot]}) that is not a finite number of magnitude at most ${MAX_COORD}. Write finite numbers into world.vx / vy. Nothing moved.`);
    }
    throw new HitcoreError("BODY_TOO_LARGE", `moveBodies: slot ${slot} (id ${this.idOf(slot)}) reaches past the platforms' maxRadius (${this._platforms?.maxRadius}), which their grid covers. Add the platforms with a larger maxRadius. Nothing moved.`);
  }

  /**
   * What static level geometry each live body in `mask` is inside, open sets as moveBodies' "starts
   * inside" (touching is not inside): the tile cells under it, the rect level's rects, the surfaces
   * and the polyhedra. Per slot: `overlapParts` (bit 1 << Part.* per part), `overlapCells` (the OR
   * of the flags of its cells: walls, one-way cells, ladders, coins, spikes), `overlapShape` (the
   * first shape, in Part order). Returns how many bodies overlap anything. One wasm call; allocates
   * nothing after the first (which lays out the three views). docs/world.md has the rules.
   */
  overlapLevel(mask = ALL_GROUPS): number {
    checkMask("overlapLevel", "mask", mask);
    this.checkLive("overlapLevel");
    // Laying out the planes and readying a changed level write memory: the bodies are checked first.
    if (this.overlapSlots !== this.cap + 1 || this.levelStale()) this.refuseBodies("overlapLevel", mask, false);
    if (this.overlapSlots !== this.cap + 1) this.layoutOverlaps();
    this.prepareLevel();
    this.refresh();
    const wasInvalid = this.header[S_INVALID], wasFirst = this.header[S_FIRST_INVALID];
    const found = this.kernel.overlapLevel(this.top, mask);
    if (found < 0) this.refused("overlapLevel", wasInvalid, wasFirst);
    return found;
  }

  /**
   * Lays out (or relays, after the bodies grew) overlapLevel's three planes of CAPACITY + 1 slots.
   * The arena keeps the region's bytes in place; the second and third planes then move up to their
   * new starts (the last first, so nothing is overwritten before it moves), and what each plane
   * gains is zeroed.
   */
  private layoutOverlaps(): void {
    const old = this.overlapSlots, slots = this.cap + 1;
    const end = this.overlapArena.layout(overlapRegions(slots), () => new Int32Array(this.memory.buffer, WORLD_HEADER, WORLD_FIELDS));
    if (old > 0 && old < slots) spreadPlanes(new Uint8Array(this.memory.buffer, 0, end), new Int32Array(this.memory.buffer, WORLD_HEADER, WORLD_FIELDS)[W_OVERLAP], 3, old, slots);
    this.overlapSlots = slots;
    this.buffer = null;
    this.refresh();
  }

  /**
   * Contacts of every controller (the platforms' balls, the rect level's characters, the tile
   * map's controllers) with the live bodies in `mask` whose shape its circle or box overlaps (open:
   * touching is no contact). One record per (controller, body) in `world.contacts`, four numbers
   * each: ControllerKind, the controller's index (ball id, character slot, tile controller id),
   * the body's slot, and its ContactType: PickUp when the body's groups meet `pickUpMask`, else
   * Stomp when the controller was falling (vy > 0) with its bottom at or above the body's top at
   * the start of its last step, else Hurt. Records go by kind, controller and slot; returns their
   * number. Builds the pair queries' grid over `mask` (the probe grid is left alone). One wasm call; the
   * record region grows (x2) when a call finds more, and the call runs again.
   */
  controllerContacts(mask = ALL_GROUPS, pickUpMask = 0): number {
    checkMask("controllerContacts", "mask", mask);
    checkGroups("controllerContacts", pickUpMask);
    this.checkLive("controllerContacts");
    if (this.contactCap === 0) {
      this.checkBeforeLayout(mask); // laying out the record region writes memory
      this.ensureContacts(64);
    }
    for (;;) {
      this.keepHeader();
      const total = this.kernel.controllerContacts(this.top, mask, pickUpMask, this.cellSizeOption);
      this.afterPairs();
      if (total <= this.contactCap) {
        this.statsOfProbe = false;
        const w = this.worldHeaderAll;
        this.words.copyWithin(w[W_CONTACTS_OUT] >> 2, w[W_CONTACTS] >> 2, (w[W_CONTACTS] >> 2) + CONTACT_FIELDS * total);
        return (this.contactTotal = total);
      }
      try {
        this.ensureContacts(total);
      } catch (e) {
        // Refused: the records written are the core's scratch; the header goes back to what it was.
        this.putHeaderBack();
        throw e;
      }
    }
  }

  /** Records of the last controllerContacts: kind, index, slot, type each (ControllerKind, ContactType). */
  get contacts(): Int32Array { this.refresh(); return this._contacts; }

  /** Room for `n` contact records in the core's region and in world.contacts (grows x2; the records need not survive: a call writes them again). */
  private ensureContacts(n: number): void {
    let cap = Math.max(this.contactCap, 64);
    while (cap < n) cap *= 2;
    const bytes = 4 * CONTACT_FIELDS * cap;
    this.contactArena.layout([{ field: W_CONTACTS, bytes, keep: false }, { field: W_CONTACTS_OUT, bytes, keep: false }],
      () => new Int32Array(this.memory.buffer, WORLD_HEADER, PART_HEADER_FIELDS));
    this.contactCap = cap;
    this.buffer = null;
    this.refresh();
    new Int32Array(this.memory.buffer, WORLD_HEADER, PART_HEADER_FIELDS)[W_CONTACT_CAP] = cap;
  }

  /** All overlapping pairs among entities in `mask`; returns their number, pairs in `world.pairs` as (lo, hi) slots. */
  selfPairs(mask = ALL_GROUPS): number {
    checkMask("selfPairs", "mask", mask);
    for (;;) {
      this.keepHeader();
      const total = this.kernel.selfPairs(this.top, mask, this.cellSizeOption);
      this.afterPairs();
      if (this.fits("selfPairs", total)) return this.finishPairs(total);
    }
  }

  /** All overlapping (a, b) pairs with a in maskA and b in maskB, a != b; returns their number. */
  crossPairs(maskA: number, maskB: number): number {
    checkMask("crossPairs", "maskA", maskA);
    checkMask("crossPairs", "maskB", maskB);
    for (;;) {
      this.keepHeader();
      const total = this.kernel.crossPairs(this.top, maskA, maskB, this.cellSizeOption);
      this.afterPairs();
      if (this.fits("crossPairs", total)) return this.finishPairs(total);
    }
  }

  /**
   * The seed's markAsHit / markAsStopped: each bullet (in slot order) stops at the lowest-slot enemy
   * it overlaps; with `exclusive` (the seed's behaviour, default) an enemy takes at most one bullet
   * per call (null, like leaving it out, is the default). Writes (bullet, enemy) pairs and
   * BodyFlag.Stopped / BodyFlag.Hit flags; returns the hits.
   */
  firstHits(bulletMask: number, enemyMask: number, exclusive: boolean | null = true): number {
    checkMask("firstHits", "bulletMask", bulletMask);
    checkMask("firstHits", "enemyMask", enemyMask);
    // A bullet stops at one enemy: room for a pair per slot means the call cannot outgrow the
    // buffer after writing its flags (a refusal then would leave them written). Growing relays
    // memory: the bodies are checked first.
    if (this.growPairs && this.pairCap < this.top) {
      this.checkBeforeLayout(bulletMask | enemyMask);
      this.growPairsTo("firstHits", this.top);
    }
    for (;;) {
      this.keepHeader();
      const total = this.kernel.firstHits(this.top, bulletMask, enemyMask, this.cellSizeOption, !!(exclusive ?? true));
      this.afterPairs();
      if (this.fits("firstHits", total)) return this.finishPairs(total);
    }
  }

  /**
   * Builds the probe grid over `mask` for the probe queries that follow (the pair queries build
   * their own and leave it alone). Call it again after moving entities through the views;
   * queryRect and friends fall back to a scan when no probe grid covers their mask.
   */
  buildGrid(mask = ALL_GROUPS): number {
    checkMask("buildGrid", "mask", mask);
    if (this.probeSlots !== this.cap) {
      this.pairGrid();
      this.checkBeforeLayout(mask); // laying the probe grid out writes memory
      this.probeArena.check(probeRegions(this.cap), "buildGrid", false, "the probe grid");
      this.layoutProbes();
      this.refresh();
    }
    this.keepReport();
    this.probeGrid();
    const n = this.kernel.buildGrid(this.top, mask, this.cellSizeOption);
    this.afterPairs();
    this.gridMask = mask;
    this.statsOfProbe = true;
    return n;
  }

  /** The header as a probe reads it, the probe grid swapped in (a copy: for stats() and validate()). */
  private probeHeader(): Int32Array {
    this.probeGrid();
    const copy = this.header.slice();
    this.pairGrid();
    return copy;
  }

  // Whether the core's grid fields point at the probe grid. They do from a probe-grid call until
  // the next call that reads them otherwise, which puts the pair queries' fields back (pairGrid):
  // a run of probes swaps once. Snapshots, relayouts and validate() see the pair queries' fields.
  private probeIn = false;

  /** The probe grid in the core's grid fields. */
  private probeGrid(): void {
    if (this.probeIn) return;
    this.refresh();
    this.toProbeGrid();
    this.probeIn = true;
  }

  /** The pair queries' grid back in the core's grid fields, the probe grid's shape kept (buildGrid may have written it). */
  private pairGrid(): void {
    if (!this.probeIn) return;
    this.refresh();
    this.fromProbeGrid(true);
    this.probeIn = false;
  }

  /** Points the core's grid fields at the probe grid (the pair queries' own kept in `swapped`). */
  private toProbeGrid(): void {
    const h = this.header, w = this.worldHeaderAll, shape = this.probeShape, kept = this.swapped;
    for (let k = 0; k < PROBE_POINTERS.length; k += 2) {
      const f = PROBE_POINTERS[k + 1];
      kept[f] = h[f];
      h[f] = w[PROBE_POINTERS[k]];
    }
    for (const f of GRID_SHAPE) {
      kept[f] = h[f];
      h[f] = shape[f];
    }
  }

  /** Puts the pair queries' grid fields back; with `built`, keeps the probe grid's shape (buildGrid wrote it). */
  private fromProbeGrid(built: boolean): void {
    const h = this.header, shape = this.probeShape, kept = this.swapped;
    for (let k = 1; k < PROBE_POINTERS.length; k += 2) h[PROBE_POINTERS[k]] = kept[PROBE_POINTERS[k]];
    for (const f of GRID_SHAPE) {
      if (built) shape[f] = h[f];
      h[f] = kept[f];
    }
  }

  /** Entities in `mask` overlapping the rect; returns their number, slots in `world.results`. */
  queryRect(x: number, y: number, w: number, h: number, mask = ALL_GROUPS): number {
    checkCoord("queryRect", "x", x);
    checkCoord("queryRect", "y", y);
    checkSize("queryRect", "width", w);
    checkSize("queryRect", "height", h);
    checkMask("queryRect", "mask", mask);
    return this.probe(KIND_RECT, x, y, w, h, mask, -1);
  }

  /** Entities in `mask` overlapping the circle; returns their number, slots in `world.results`. */
  queryCircle(x: number, y: number, r: number, mask = ALL_GROUPS): number {
    checkCoord("queryCircle", "x", x);
    checkCoord("queryCircle", "y", y);
    checkSize("queryCircle", "radius", r);
    checkMask("queryCircle", "mask", mask);
    return this.probe(KIND_CIRCLE, x, y, r, 0, mask, -1);
  }

  /** Entities in `mask` containing the point; returns their number, slots in `world.results`. */
  queryPoint(x: number, y: number, mask = ALL_GROUPS): number {
    checkCoord("queryPoint", "x", x);
    checkCoord("queryPoint", "y", y);
    checkMask("queryPoint", "mask", mask);
    return this.probe(KIND_POINT, x, y, 0, 0, mask, -1);
  }

  /** One-vs-many: entities in `mask` that entity `id` touches (never itself); slots in `world.results`. */
  touching(id: number, mask = ALL_GROUPS): number {
    const slot = this.slotOf("touching", id);
    checkMask("touching", "mask", mask);
    return this.probe(this._kinds[slot], this._x[slot], this._y[slot], this._a[slot], this._b[slot], mask, slot);
  }

  /** What the last query visited. Allocates an object: for tests and tuning, not the frame loop. */
  stats(): GridStats {
    this.pairGrid();
    this.refresh();
    // The grid fields of the grid the last call used: a pair query's, or the probe grid.
    const h = this.statsOfProbe ? this.probeHeader() : this.header;
    const f = new Float32Array(h.buffer, h.byteOffset, HEADER_FIELDS);
    return {
      selected: h[G_SELECTED], cols: h[G_COLS], rows: h[G_ROWS], cellSize: f[G_CELL], originX: f[G_OX], originY: f[G_OY],
      entries: h[G_ENTRIES], large: h[G_LARGE], cover: h[G_COVER] === 1, reachWidth: f[G_REACHW], reachHeight: f[G_REACHH], split: h[G_SPLIT] === 1,
      cellsVisited: h[S_CELLS_VISITED], aabbTests: h[S_AABB_TESTS], narrowTests: h[S_NARROW_TESTS], found: h[S_FOUND],
    };
  }

  /**
   * The last pair query's grid's shape without allocating, for overlays: [cols, rows, cell width, cell height,
   * origin x, origin y, mask, entries, large, reach grid (1) or home grid (0)] into out[0 .. 10).
   * Its cells are gridCells'. After a split (stats().split) it is the tall boxes' grid.
   */
  gridShapeInto(out: Float64Array): Float64Array {
    this.pairGrid();
    this.refresh();
    const h = this.header, f = this.headerF;
    out[0] = h[G_COLS]; out[1] = h[G_ROWS]; out[2] = f[G_CELL]; out[3] = h[G_SPLIT] === 1 ? 1 / f[G_INVY] : f[G_CELL];
    out[4] = f[G_OX]; out[5] = f[G_OY]; out[6] = h[G_MASK] >>> 0; out[7] = h[G_ENTRIES]; out[8] = h[G_LARGE]; out[9] = h[G_COVER];
    return out;
  }

  /**
   * The last pair query's grid's cells as ends: the records of cell c = row * (cols + 1) + col (the table has a
   * padding column and row) are [c === 0 ? 0 : gridCells[c], gridCells[c + 1]), so a cell is in use
   * when those differ. A view over scratch the next grid build rewrites: read it right after the
   * query it shows.
   */
  get gridCells(): Int32Array { this.refresh(); return this._gridCells; }

  /** Bytes of memory the world's arena spans (wasm memory for both backends). */
  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Checks the store's invariants; throws a HitcoreError naming the first broken one. For tests and debug builds. */
  validate(): void {
    this.pairGrid();
    this.refresh();
    let live = 0;
    const free = new Set<number>();
    for (let k = 0; k < this.freeCount; k++) free.add(this.freeSlots[k]);
    for (let s = 0; s < this.top; s++) {
      const kind = this._kinds[s];
      if (kind === KIND_NONE) {
        if (this._groups[s] !== 0) throw new HitcoreError("CORRUPT", `free slot ${s} has group bits ${this._groups[s]}`);
        if (!free.has(s) && this.gens[s] < MAX_GENERATION) throw new HitcoreError("CORRUPT", `free slot ${s} is not on the free list`);
        continue;
      }
      live++;
      if (kind > KIND_RECT) throw new HitcoreError("CORRUPT", `slot ${s} has unknown kind ${kind}`);
      if (free.has(s)) throw new HitcoreError("CORRUPT", `live slot ${s} is on the free list`);
      this.checkSlotData(s);
    }
    if (live !== this.live) throw new HitcoreError("CORRUPT", `counted ${live} live entities, expected ${this.live}`);
    // The capacities the core trusts, and regions of the sizes they need.
    checkHeader("bodies", this.header, capacityFields(this.cap, this.pairCap));
    if (!laidOutAs(this.arena, regionsFor(this.cap, this.pairCap))) {
      throw new HitcoreError("CORRUPT", `validate: the bodies' regions do not match capacity ${this.cap} and pair capacity ${this.pairCap}`);
    }
    checkHeader("world", this.worldHeader, [W_CAST_CAP, this.castCap, W_CONTACT_CAP, this.contactCap]);
    if (!laidOutAs(this.pairsOutArena, pairsOutRegions(this.pairCap)) || !laidOutAs(this.probeArena, this.probeSlots === 0 ? [] : probeRegions(this.cap))) {
      throw new HitcoreError("CORRUPT", "validate: the pairs' or the probe grid's regions do not match the capacities");
    }
    if (this.gridMask !== 0) this.checkGrid();
  }

  /**
   * CORRUPT unless what the probe queries read of the current grid stays inside its regions: its
   * cell table inside the cells region, every cell end inside the records region, the slot of every
   * record a cell reaches a slot, every large entity a selected one and every selected one a slot.
   * A restored snapshot brings its grid, and the probes trust it. (Only what a probe can reach: a
   * grid's own fields need not agree, as a cell table a 0-column grid left behind does not.)
   */
  private checkGrid(): void {
    const cap = this.cap, buf = this.memory.buffer;
    if (this.probeSlots !== cap) throw new HitcoreError("CORRUPT", "validate: a probe grid is current, with none laid out");
    const h = this.probeHeader();
    const cols = h[G_COLS], rows = h[G_ROWS], entries = h[G_ENTRIES], selected = h[G_SELECTED], large = h[G_LARGE];
    const bad = (why: string) => { throw new HitcoreError("CORRUPT", `validate: the grid ${why}`); };
    if (h[G_COVER] !== 0 || h[G_SPLIT] !== 0) bad("is not a home grid of one kind, as buildGrid builds");
    // A probe reads cell ends [0, rows x (cols + 1)) (a row's pitch holds a padding column), none when cols is 0.
    const cellsCap = h[H_CELLS_CAP], table = cols === 0 ? 0 : rows * (cols + 1); // validate() checked H_CELLS_CAP first
    if (!(cols >= 0 && rows >= 0 && table <= cellsCap)) bad(`of ${cols} x ${rows} cells does not fit its ${cellsCap} cells`);
    if (!(entries >= 0 && entries <= cap && selected >= 0 && selected <= cap && large >= 0 && large <= selected)) {
      bad(`counts (${entries} records, ${selected} selected, ${large} large) do not fit capacity ${cap}`);
    }
    const cells = new Int32Array(buf, h[H_CELLS], table);
    let reach = 0;
    for (let c = 0; c < table; c++) {
      if (!(cells[c] >= 0 && cells[c] <= cap)) bad(`cell ${c} ends at record ${cells[c]}, past the ${cap} the records region holds`);
      if (cells[c] > reach) reach = cells[c];
    }
    const stride = ENTRY_BYTES >> 2, records = new Int32Array(buf, h[H_ENTRIES], stride * reach);
    for (let e = 0; e < reach; e++) if ((records[stride * e] & TAG_SLOT) > cap) bad(`record ${e} holds slot ${records[stride * e] & TAG_SLOT}`);
    const sel = new Int32Array(buf, h[H_SEL], selected), list = new Int32Array(buf, h[H_LARGE], large);
    for (let t = 0; t < selected; t++) if (!(sel[t] >= 0 && sel[t] <= cap)) bad(`selects slot ${sel[t]}`);
    for (let k = 0; k < large; k++) if (!(list[k] >= 0 && list[k] < selected)) bad(`lists large entity ${list[k]} of ${selected}`);
  }

  // ---- internals ------------------------------------------------------------------------------

  private insert(kind: number, x: number, y: number, a: number, b: number, groups: number): number {
    let slot: number;
    if (this.freeCount > 0) {
      slot = this.freeSlots[--this.freeCount];
    } else {
      if (this.top === this.cap) this.growStores("add");
      slot = this.top++;
    }
    this.write(slot, kind, x, y, a, b, groups);
    this.live++;
    return this.idOf(slot);
  }

  private idOf(slot: number): number {
    return makeId(this.gens[slot], IdKind.Body, this.ids.tag, slot);
  }

  private write(slot: number, kind: number, x: number, y: number, a: number, b: number, groups: number): void {
    this.refresh();
    this._x[slot] = x;
    this._y[slot] = y;
    this._a[slot] = a + 0; // +0 for -0: the grid queries' check reads a size's sign bit (check.ts)
    this._b[slot] = b + 0;
    this._groups[slot] = groups;
    this._kinds[slot] = kind;
    this.gridMask = 0;
  }

  private slotOf(method: string, id: number): number {
    const slot = slotFor(id, this.ids.tag, IdKind.Body);
    if (slot < 0 || slot >= this.top || this.gens[slot] !== generationOf(id) || this.kinds[slot] === KIND_NONE) {
      throw unknownId(method, id, this.ids.tag, IdKind.Body, this.top, "Use an id returned by addPoint/addCircle/addRect that has not been removed (check with has(id)).");
    }
    return slot;
  }

  private probe(kind: number, x: number, y: number, a: number, b: number, mask: number, exclude: number): number {
    this.refresh();
    const p = this.cap, px = this._x[p], py = this._y[p], pa = this._a[p], pb = this._b[p];
    this._x[p] = x;
    this._y[p] = y;
    this._a[p] = a;
    this._b[p] = b;
    this._kinds[p] = kind;
    const useGrid = this.gridMask !== 0 && ((mask & ~this.gridMask) >>> 0) === 0;
    this.keepReport();
    if (useGrid) this.probeGrid();
    const n = this.kernel.queryProbe(this.top, mask, useGrid, exclude);
    this._kinds[p] = KIND_NONE;
    if (this.header[S_INVALID] > 0) {
      // Refused: the probe slot as it was too (the core wrote nothing else).
      this._x[p] = px; this._y[p] = py; this._a[p] = pa; this._b[p] = pb;
      this.refuseInvalid();
    }
    if (useGrid) this.statsOfProbe = true;
    return n;
  }

  /** Keeps the header's invalid report (S_INVALID, S_FIRST_INVALID) for refuseInvalid to put back: a refused call leaves memory as it was. */
  private keepReport(): void {
    this.refresh();
    this.headerKept = false;
    this.wasInvalid = this.header[S_INVALID];
    this.wasFirst = this.header[S_FIRST_INVALID];
  }

  /** The grid queries' refusal (INVALID_ENTITY) for bodies in `mask`, run alone before a call lays out memory, so that a refused call lays out nothing. */
  private checkBeforeLayout(mask: number): void {
    this.keepReport();
    this.kernel.invalidSlots(this.top, mask);
    this.afterPairs();
  }

  /** Puts back the header keepHeader kept: a pair query or controllerContacts refused after the core ran. */
  private putHeaderBack(): void {
    this.refresh();
    this.header.set(this.keptHeader);
  }

  /** Keeps the whole header before a pair query (keepReport's report among it), for a refusal to put back. */
  private keepHeader(): void {
    this.pairGrid();
    this.keepReport();
    this.keptHeader.set(this.header);
    this.headerKept = true;
  }

  /** After a grid query or build (keepReport before it): refuses it when the core did. */
  private afterPairs(): void {
    this.refresh();
    if (this.header[S_INVALID] > 0) this.refuseInvalid();
  }

  /**
   * INVALID_ENTITY, naming the slot and field, for a call the core refused because slots it reads
   * hold no valid shape (one rule for pair and probe queries). The core wrote nothing but the
   * report, which goes back to what keepReport kept; or, for a pair query (selfPairs and a repeated
   * crossPairs refuse at their end), its scratch and the header, which goes back to what
   * keepHeader kept.
   */
  private refuseInvalid(): never {
    const h = this.header, bad = h[S_INVALID], slot = h[S_FIRST_INVALID];
    if (this.headerKept) {
      h.set(this.keptHeader);
    } else {
      h[S_INVALID] = this.wasInvalid;
      h[S_FIRST_INVALID] = this.wasFirst;
    }
    this.checkSlotData(slot);
    throw new HitcoreError("INVALID_ENTITY", `${bad} entities hold invalid data (first: slot ${slot}).`);
  }

  /** Throws, naming the field, when a slot's data (possibly written through a view) is not a valid shape. */
  private checkSlotData(s: number): void {
    const kind = this._kinds[s];
    const fields: [string, number][] = [["x", this._x[s]], ["y", this._y[s]]];
    if (kind === KIND_CIRCLE) fields.push(["radius", this._a[s]]);
    if (kind === KIND_RECT) fields.push(["width", this._a[s]], ["height", this._b[s]]);
    for (const [name, v] of fields) {
      const size = name !== "x" && name !== "y";
      if (!Number.isFinite(v) || Math.abs(v) > MAX_COORD || (size && v < 0)) {
        throw new HitcoreError("INVALID_ENTITY", `slot ${s} (id ${this.idOf(s)}) has ${name} = ${v} ` +
          `in the store, written through a view. Write finite numbers of magnitude at most ${MAX_COORD}` +
          `${size ? " and sizes >= 0" : ""} into world.x / y / a / b.`);
      }
    }
  }

  /**
   * Whether the pairs found fit the pair buffer; otherwise grows it (growPairsTo) for the call to
   * run again. CAPACITY when not even `total` pairs fit, with everything as it was: the query wrote
   * only its scratch (its grid and the pairs it found, in H_PAIRS) and the header, which goes back.
   */
  private fits(method: string, total: number): boolean {
    try {
      if (total < 0) {
        // The core counts pairs in an int32 that stays negative once past 2^31 (assembly/grid/stats.ts): no pair buffer could hold them.
        throw new HitcoreError("CAPACITY", `${method}: more than 2^31 pairs overlap, more than a world's memory could hold. Query fewer entities at once (smaller masks), or spread them out.`);
      }
      if (total <= this.pairCap || !this.growPairs) return true;
      this.growPairsTo(method, total);
      return false;
    } catch (e) {
      // Refused: the pairs out and the probe grid were never written, the core's grid and pairs
      // are scratch, and the header goes back to what it was.
      this.putHeaderBack();
      throw e;
    }
  }

  /** Grows the pair buffers to hold `total` pairs (x2, or exactly `total` when twice would pass HEAP_LIMIT); CAPACITY, changing nothing, when not even that fits. */
  private growPairsTo(method: string, total: number): void {
    let next = this.pairCap;
    while (next < total) next *= 2;
    if (!this.relayoutFits(this.cap, next)) next = total;
    this.relayout(this.cap, next, method, ` (room for ${total} pairs; create the world with growPairs: false to keep the first pairCapacity of them, or query fewer entities at once)`);
  }

  /** A pair query's answer: its pairs (those that fit) copied out to world.pairs. */
  private finishPairs(total: number): number {
    const cap = this.pairCap, n = total > cap ? cap : total;
    this.droppedPairs = total - n;
    this.statsOfProbe = false;
    const from = this.header[H_PAIRS] >> 2, to = this._pairs.byteOffset >> 2;
    this.words.copyWithin(to, from, from + 2 * n);
    return n;
  }

  private growStores(method: string): void {
    const cap = this.cap;
    if (!this.growable || cap >= this.maxCapacity) {
      throw new HitcoreError("STORE_FULL", `${method}: the store is full (${cap} entities). ` +
        (this.growable ? `Raise maxCapacity (now ${this.maxCapacity}) or remove entities first.`
          : "Create the world with a larger capacity, or with growable: true."));
    }
    const next = Math.min(cap * 2, this.maxCapacity);
    const gens = new Uint32Array(next).fill(1);
    gens.set(this.gens);
    const free = new Int32Array(next);
    free.set(this.freeSlots.subarray(0, this.freeCount));
    this.relayout(next, Math.max(this.pairCap, 2 * next), method, ` (growing the stores to ${next} entities; create the world with a lower maxCapacity, or remove entities first)`);
    this.gens = gens;
    this.freeSlots = free;
  }

  /** The regions of `capacity` entities and `pairCapacity` pairs, and overlapLevel's planes if laid out: where they would end, or NaN. */
  private relayoutEnd(capacity: number, pairCapacity: number): number {
    let end = this.arena.plan(regionsFor(capacity, pairCapacity)).end;
    end = this.pairsOutArena.plan(pairsOutRegions(pairCapacity), end).end;
    if (this.overlapSlots > 0) end = this.overlapArena.plan(overlapRegions(capacity + 1), end).end;
    return this.probeSlots > 0 ? this.probeArena.plan(probeRegions(capacity), end).end : end;
  }

  private relayoutFits(capacity: number, pairCapacity: number): boolean {
    return fitsHeap(this.relayoutEnd(capacity, pairCapacity));
  }

  /**
   * Lays the regions out for the new capacities (the stores keep their data) and rewrites the
   * header. Planned whole first: CAPACITY from `method` (`why` says what for), with nothing
   * changed, when the regions would pass HEAP_LIMIT or memory cannot grow.
   */
  private relayout(capacity: number, pairCapacity: number, method: string, why = ""): void {
    this.pairGrid();
    const need = this.relayoutEnd(capacity, pairCapacity);
    if (!fitsHeap(need)) {
      throw new HitcoreError("CAPACITY", `${method}: the world's stores would need ${need} bytes of memory, past the ${HEAP_LIMIT} a world may span${why}.`);
    }
    reserve(this.memory, need); // both layouts below then fit in memory as it is
    const end = this.arena.layout(regionsFor(capacity, pairCapacity), () => new Int32Array(this.memory.buffer, HEADER, HEADER_FIELDS));
    const old = this.cap + 1, slots = capacity + 1;
    if (this.cap > 0 && old < slots) {
      // The hit planes keep their bytes in place: each plane moves to its start for the new capacity.
      const bytes = new Uint8Array(this.memory.buffer, 0, end), h = new Int32Array(this.memory.buffer, HEADER, HEADER_FIELDS);
      spreadPlanes(bytes, h[H_HIT_I], 3, old, slots);
      spreadPlanes(bytes, h[H_HIT_F], 3, old, slots);
    }
    const worldHeader = () => new Int32Array(this.memory.buffer, WORLD_HEADER, PART_HEADER_FIELDS);
    if (pairCapacity !== this.pairCap) this.pairsOutArena.layout(pairsOutRegions(pairCapacity), worldHeader);
    const grown = capacity !== this.cap;
    this.cap = capacity;
    this.pairCap = pairCapacity;
    if (this.overlapSlots > 0) this.layoutOverlaps();
    if (this.probeSlots > 0 && grown) this.layoutProbes();
    this.buffer = null;
    this.refresh();
    setHeaderFields(this.header, capacityFields(capacity, pairCapacity));
  }

  /** Lays the probe grid out (or again, after the stores grew) for the stores' capacity: it holds no grid until buildGrid builds one. */
  private layoutProbes(): void {
    this.probeArena.layout(probeRegions(this.cap), () => new Int32Array(this.memory.buffer, WORLD_HEADER, PART_HEADER_FIELDS));
    this.probeSlots = this.cap;
    this.gridMask = 0;
    this.buffer = null;
  }

  /** Rebuilds every view when memory has grown (any growth detaches the old buffer). */
  private worldHeader = new Int32Array(0);
  private worldHeaderAll = new Int32Array(0); // its PART_HEADER_FIELDS, the probe grid's and world.pairs' pointers among them
  private worldHeaderD = new Float64Array(0);
  private _castInputs = new Float32Array(0);
  private _castHitInts = new Int32Array(0);
  private _castHitReals = new Float32Array(0);
  private _contacts = new Int32Array(0);

  private refresh(): void {
    const buf = this.memory.buffer;
    if (buf === this.buffer) return;
    this.buffer = buf;
    const h = new Int32Array(buf, HEADER, HEADER_FIELDS), slots = this.cap + 1;
    this.header = h;
    this.headerF = new Float32Array(buf, HEADER, HEADER_FIELDS);
    this._x = new Float32Array(buf, h[H_X], slots);
    this._y = new Float32Array(buf, h[H_Y], slots);
    this._a = new Float32Array(buf, h[H_A], slots);
    this._b = new Float32Array(buf, h[H_B], slots);
    this._groups = new Uint32Array(buf, h[H_GROUPS], slots);
    this._kinds = new Uint8Array(buf, h[H_KIND], slots);
    this._flags = new Uint8Array(buf, h[H_FLAGS], slots);
    this.words = new Int32Array(buf);
    this._pairs = new Int32Array(buf, new Int32Array(buf, WORLD_HEADER, PART_HEADER_FIELDS)[W_PAIRS_OUT], 2 * this.pairCap);
    this._results = new Int32Array(buf, h[H_RESULTS], slots);
    this._vx = new Float32Array(buf, h[H_VX], slots);
    this._vy = new Float32Array(buf, h[H_VY], slots);
    this._hitPart = new Int32Array(buf, h[H_HIT_I], slots);
    this._hitShape = new Int32Array(buf, h[H_HIT_I] + 4 * slots, slots);
    this._hitRect = new Int32Array(buf, h[H_HIT_I] + 8 * slots, slots);
    this._hitT = new Float32Array(buf, h[H_HIT_F], slots);
    this._hitNx = new Float32Array(buf, h[H_HIT_F] + 4 * slots, slots);
    this._hitNy = new Float32Array(buf, h[H_HIT_F] + 8 * slots, slots);
    this._gridCells = new Int32Array(buf, this.probeIn ? this.swapped[H_CELLS] : h[H_CELLS], CELLS_PER_ENTITY * this.cap + SCRATCH_SLACK);
    const w = (this.worldHeader = new Int32Array(buf, WORLD_HEADER, WORLD_FIELDS));
    this.worldHeaderAll = new Int32Array(buf, WORLD_HEADER, PART_HEADER_FIELDS);
    this.worldHeaderD = new Float64Array(buf, WORLD_HEADER, WORLD_FIELDS >> 1);
    if (this.overlapSlots > 0) {
      const o = w[W_OVERLAP], n = this.overlapSlots;
      this._overlapParts = new Uint32Array(buf, o, n);
      this._overlapCells = new Uint32Array(buf, o + 4 * n, n);
      this._overlapShape = new Int32Array(buf, o + 8 * n, n);
    }
    if (this.castCap > 0) {
      this._castInputs = new Float32Array(buf, w[W_CASTS], CAST_IN * this.castCap);
      this._castHitInts = new Int32Array(buf, w[W_CAST_HIT_I], CAST_HIT * this.castCap);
      this._castHitReals = new Float32Array(buf, w[W_CAST_HIT_F], CAST_HIT * this.castCap);
    }
    if (this.contactCap > 0) {
      const at = new Int32Array(buf, WORLD_HEADER, PART_HEADER_FIELDS)[W_CONTACTS_OUT];
      this._contacts = new Int32Array(buf, at, CONTACT_FIELDS * this.contactCap);
    }
    const stage = this.cap + PLANE_SLACK; // the planes region holds 16 bytes for each
    this._stageX = new Float64Array(buf, h[H_PLANES], stage);
    this._stageY = new Float64Array(buf, h[H_PLANES] + 8 * stage, stage);
  }
}

/** overlapLevel's region: three planes (parts, cells, shape) of `slots` slots. */
function overlapRegions(slots: number): Region[] {
  return [{ field: W_OVERLAP, bytes: 12 * slots, keep: true }];
}

// ---- validation: fail fast, with the fix in the message --------------------------------------

function checkGroups(method: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new HitcoreError("INVALID_GROUPS", `${method}: groups must be an integer bit set in [0, 2^32), got ${describe(v)}. Use bits such as 1 << 0 for players, 1 << 1 for bullets.`);
  }
}

/**
 * A region of `planes` planes of 4-byte values, laid out for `old` slots each and grown in place to
 * hold `slots` each: moves every plane to its new start (the last first, so nothing is overwritten
 * before it moves) and zeroes what each plane gains.
 */
function spreadPlanes(bytes: Uint8Array, at: number, planes: number, old: number, slots: number): void {
  for (let k = planes - 1; k >= 1; k--) bytes.copyWithin(at + 4 * k * slots, at + 4 * k * old, at + 4 * (k + 1) * old);
  for (let k = 0; k < planes; k++) bytes.fill(0, at + 4 * (k * slots + old), at + 4 * (k + 1) * slots);
}

/** A response (Response.Stop, Slide or Bounce) and a restitution from 0 to 1. */
function checkResponse(method: string, response: number, restitution: number): void {
  if (response !== RESPONSE_STOP && response !== RESPONSE_SLIDE && response !== RESPONSE_BOUNCE) {
    throw new HitcoreError("INVALID_OPTION", `${method}: response must be Response.Stop, Response.Slide or Response.Bounce${method === "moveBodies" ? " (or Response.ByGroup)" : ""}, got ${describe(response)}.`);
  }
  if (typeof restitution !== "number" || !(restitution >= 0 && restitution <= 1)) {
    throw new HitcoreError("INVALID_OPTION", `${method}: restitution must be a number from 0 to 1, got ${describe(restitution)}.`);
  }
}

/** A level part's `groups` option (1 when absent). */
function partGroups(method: string, options: LevelPartOptions | undefined): number {
  const groups = options?.groups ?? 1;
  checkGroups(method, groups);
  return groups;
}

function checkMask(method: string, name: string, v: number): void {
  if (!Number.isInteger(v) || v <= 0 || v > 0xffffffff) {
    throw new HitcoreError("INVALID_MASK", `${method}: ${name} must be a non-zero integer bit set below 2^32, got ${describe(v)}. Pass the group bits to match, or ALL_GROUPS.`);
  }
}

function checkCount(name: string, v: number, min: number, max = HEAP_LIMIT): number {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new HitcoreError("INVALID_OPTION", `${name} must be an integer >= ${min} and at most ${max}, got ${describe(v)}.`);
  }
  return v;
}

function checkCellSize(v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > MAX_COORD) {
    throw new HitcoreError("INVALID_OPTION", `cellSize must be 0 (automatic) or a positive finite number, got ${describe(v)}.`);
  }
  // The core takes the size as an f32, where a smaller one may round to 0 (automatic) or to a subnormal.
  if (v > 0 && v < MIN_CELL_SIZE) {
    throw new HitcoreError("INVALID_OPTION", `cellSize must be 0 (automatic) or at least ${MIN_CELL_SIZE}, got ${describe(v)}: pass 0 for automatic cells, or a size of at least ${MIN_CELL_SIZE}.`);
  }
  return v;
}
