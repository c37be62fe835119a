// The tile map facade: one TileMap over either kernel (wasm core or its js translation). It owns the
// layout, growth and validation; the kernels run the loops (assembly/tile_map.ts,
// assembly/tile_controller.ts). Coordinates are y-down, row 0 at the top; a point on the line
// between two rows counts in the row above it (layout/tiles.ts says why).
//
// Regions, in this order from the arena base (N = cols * rows, M monsters, E entities, P = POINT_CAP,
// B boxes, C controllers); every region survives growth:
//   params      f64[PARAM_COUNT]
//   points      f64[2P]        collision point offsets
//   cells       u8[N]          CELL_* flags
//   monHead     i32[N]         first monster per cell
//   monNext     i32[M]         next monster in the same cell
//   monBox      f64[4M]        x, y (top-left), w, h
//   monLive     u8[M]
//   entX, entY  f64[E]         entity origins for collidePoints
//   outCell     i32[E * P]     } collidePoints output
//   outHits     u8[E * P]      }
//   outMonster  i32[E * P]     }
//   boxes       f64[6B]        x, y (top-left), w, h, dx, dy for moveBoxes
//   boxHits     u8[B]          CONTACT_*
//   ctlF        f64[7C]        CF_*
//   ctlI        i32[9C]        CI_*
import { parseAsciiMap, type ParsedTileMap } from "./ascii_map.js";
import { Arena, type Heap, type Region } from "./arena.js";
import { TILES_HEADER } from "../layout/grid.js";
import { parseTiledMap, type TiledMap, type TiledOptions } from "./tiled.js";
import {
  BOX_FIELDS, CELL_COIN, CELL_LADDER, CELL_MONSTER_NEAR, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE, CF_DX, CF_DY, CF_X, CF_Y,
  CI_EVENTS, CI_HITS, CI_HURTING, CI_INPUT, CI_SCORE, CI_STATE, CONTACT_DOWN, CONTACT_LEFT, CONTACT_RIGHT,
  CONTACT_UP, CF_PREV_DY, CF_PREV_Y, CTL_F_FIELDS, CTL_I_FIELDS, EV_CLIMB, EV_COIN, EV_FALL, EV_HEAD, EV_HURT, EV_JUMP, EV_LANDED,
  EV_STEP, EV_WALL, HIT_BLOCKED, HIT_COIN, HIT_LADDER, HIT_MONSTER, HIT_ONE_WAY, HIT_SPIKE,
  NO_MONSTER, OUTSIDE, P_ACCEL, P_CLIMBDY, P_COIN_SCORE, P_COIN_W, P_FALLING_JUMP,
  P_FRICTION, P_GRAVITY, P_H, P_HURT_FRAMES, P_IMPULSE, P_LADDER_EDGE, P_MAXDX, P_MAXDY, P_STEP_FRAMES,
  P_SURFACE, P_TILE, P_W, PARAM_COUNT, POINT_CAP, S_T_CELLS_VISITED, S_T_ITERATIONS, S_T_MONSTER_TESTS,
  ST_CLIMBING, ST_FALLING, ST_LIVE, T_BOX_CAP, T_BOX_HITS, T_BOXES, T_CELLS, T_COLS, T_CTL_CAP, T_CTL_F,
  T_CTL_I, T_ENT_CAP, T_ENT_X, T_ENT_Y, T_FLOOR, T_MON_BOX, T_MON_CAP, T_MON_HEAD, T_MON_LIVE, T_MON_NEXT,
  T_OUT_CELL, T_OUT_HITS, T_OUT_MONSTER, T_PARAMS, T_POINT_COUNT, T_POINTS, T_ROWS, T_WRAP,
} from "../layout/tiles.js";
import { checkHeader, describe, setHeaderFields, HitcoreError, numbersLength, readOnce } from "./validate.js";
import type { WasmMemory } from "./wasm_types.js";
import type { Backend } from "./world.js";
import { generationOf, IdKind, kindFor, makeId, MAX_GENERATION, NULL_ID, slotFor, slotOf, unknownId, wrongKind, type WorldTag } from "./ids.js";

/** The kinds of handle a tile map gives out. */
const TILE_KINDS = [IdKind.Controller, IdKind.Monster] as const;

export { parseAsciiMap, parseTiledMap };
export type { ParsedTileMap, TiledMap, TiledOptions };
export type { TiledObjectInfo, TiledPolygon, TiledPolyline } from "./tiled.js";

/** Cell flags as stored in `tileMap.cells`. */
export const TileCell = { Platform: CELL_PLATFORM, Ladder: CELL_LADDER, Coin: CELL_COIN, OneWay: CELL_ONE_WAY, Spike: CELL_SPIKE, MonsterNear: CELL_MONSTER_NEAR } as const;
/** Per-point flags in `tileMap.pointHits`. */
export const TileHit = { Blocked: HIT_BLOCKED, Ladder: HIT_LADDER, Coin: HIT_COIN, Monster: HIT_MONSTER, OneWay: HIT_ONE_WAY, Spike: HIT_SPIKE } as const;
/** Per-box flags in `tileMap.boxContacts`. */
export const TileContact = { Left: CONTACT_LEFT, Right: CONTACT_RIGHT, Down: CONTACT_DOWN, Up: CONTACT_UP } as const;
/** Controller events of the last step (`controllerEvents`). */
export const TileEvent = { Coin: EV_COIN, Landed: EV_LANDED, Head: EV_HEAD, Wall: EV_WALL, Step: EV_STEP, Climb: EV_CLIMB, Fall: EV_FALL, Hurt: EV_HURT, Jump: EV_JUMP } as const;

/**
 * Where a controller's fields lie in controllerReals and controllerInts, for a frame loop that reads
 * and writes controllers by slot (indexOf once): controllerReals[Reals * slot + X], and
 * controllerInts[Ints * slot + Input]. The methods that take a handle are for setup: a handle is a
 * double, which V8 allocates a heap number for when it crosses a call it does not inline.
 */
export const ControllerField = {
  Reals: CTL_F_FIELDS, X: CF_X, Y: CF_Y, DX: CF_DX, DY: CF_DY,
  Ints: CTL_I_FIELDS, State: CI_STATE, Input: CI_INPUT, Events: CI_EVENTS, Hurting: CI_HURTING, Score: CI_SCORE, Hits: CI_HITS,
} as const;
export { NO_MONSTER, OUTSIDE as OUTSIDE_MAP, POINT_CAP as TILE_POINT_CAP };

/** Coordinates beyond tileSize x this are rejected (cell indices must stay exact integers). */
export const MAX_TILE_COORD = 1 << 26;

/** The controller's tuning, in world units (T = tileSize): speeds per second, forces per second^2. */
export interface TileControllerTuning {
  /** Box width and height (defaults T and 2 T: the middle points then clear a one-tile step). The ten collision points derive from them. */
  width: number;
  height: number;
  maxdx: number; // 8 T
  maxdy: number; // 20 T
  climbdy: number; // 4 T
  gravity: number; // 58.8 T (9.8 x 6 meters of one tile), pulling +y (down)
  impulse: number; // 1200 T (a one-frame force at 60 fps), upward (-y)
  accel: number; // 4 maxdx
  friction: number; // 6 maxdx
  /** How far below a row's top a foot may be and still land on it (0.5 T). */
  surface: number;
  /** How close to a ladder's centre, in half columns, the player must be to climb (0.6). */
  ladderEdge: number;
  /** Frames after walking off an edge during which a jump still works (12). */
  fallingJump: number;
  stepFrames: number; // 8
  hurtFrames: number; // 60
  coinScore: number; // 50
}

export interface TileMapOptions {
  /** The map: the seed's ASCII rows (first line on top), a Tiled JSON map, or an empty cols x rows. */
  ascii?: readonly string[] | string;
  tiled?: unknown;
  tiledOptions?: TiledOptions;
  cols?: number;
  rows?: number;
  /** World units per cell (default: Tiled's tilewidth, else 32). */
  tileSize?: number;
  /** x wraps around the map's width (the tower). Default false: columns beside the map are walls. */
  wrap?: boolean;
  /** Rows below the map (at y >= rows x tileSize) are solid ground (default true). Rows above (y < 0) are always empty. */
  solidFloor?: boolean;
  /** Coin box width (default tileSize / 2), centred in its cell, the full cell high. */
  coinWidth?: number;
  /** Size of monsters spawned from the map (default tileSize); at most tileSize. They stand on the bottom of their cell, centred across it. */
  monsterSize?: number;
  /** Room reserved before growing (x2): entities for collidePoints, boxes, controllers, monsters. */
  entityCapacity?: number;
  boxCapacity?: number;
  controllerCapacity?: number;
  monsterCapacity?: number;
  controller?: Partial<TileControllerTuning>;
}

/** What the last call visited (allocates: not for the frame loop). */
export interface TileStats {
  cellsVisited: number;
  monsterTests: number;
  /** Controller check rounds of the last stepControllers. */
  iterations: number;
}

/** The interface both tile kernels implement. */
export interface TileKernel {
  readonly memory: WasmMemory;
  arenaBase(): number;
  /** Collision points of entities [0, count); returns how many points hit anything. */
  collidePoints(count: number): number;
  /** Swept moves of boxes [0, count); returns how many touched something. */
  moveBoxes(count: number): number;
  /** Steps controllers [0, count) by dt; returns how many had events. */
  stepControllers(count: number, dt: number): number;
}

interface Caps {
  cells: number;
  monsters: number;
  entities: number;
  boxes: number;
  controllers: number;
}

/** The map's regions, in this order from the arena base; all keep their data when a capacity grows. */
function regionsFor(c: Caps): Region[] {
  const eps = c.entities * POINT_CAP;
  const sizes: [number, number][] = [
    [T_PARAMS, 8 * PARAM_COUNT], [T_POINTS, 16 * POINT_CAP], [T_CELLS, c.cells], [T_MON_HEAD, 4 * c.cells],
    [T_MON_NEXT, 4 * c.monsters], [T_MON_BOX, 32 * c.monsters], [T_MON_LIVE, c.monsters], [T_ENT_X, 8 * c.entities],
    [T_ENT_Y, 8 * c.entities], [T_OUT_CELL, 4 * eps], [T_OUT_HITS, eps], [T_OUT_MONSTER, 4 * eps],
    [T_BOXES, 8 * BOX_FIELDS * c.boxes], [T_BOX_HITS, c.boxes], [T_CTL_F, 8 * CTL_F_FIELDS * c.controllers],
    [T_CTL_I, 4 * CTL_I_FIELDS * c.controllers],
  ];
  return sizes.map(([field, bytes]) => ({ field, bytes, keep: true }));
}

function count(name: string, v: unknown, min: number, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = v ?? fallback;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    throw new HitcoreError("INVALID_OPTION", `${name} must be an integer >= ${min}${max < Number.MAX_SAFE_INTEGER ? ` and at most ${max}` : ""}, got ${describe(v)}.`);
  }
  return n;
}

/** The most a tile map's capacity option may ask for (as the rect level's): growth takes it further when the memory holds it. */
const MAX_CAPACITY_OPTION = 1 << 24;

function positive(name: string, v: unknown, fallback: number): number {
  const n = v ?? fallback;
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) throw new HitcoreError("INVALID_OPTION", `${name} must be a positive finite number, got ${describe(v)}.`);
  return n;
}

/**
 * The seed's ten collision points for a w x h player, relative to its origin (the middle of its
 * feet, the bottom-centre of its box), y-down: the seed's y-up offsets with dy negated.
 */
export function seedCollisionPoints(w: number, h: number, tileSize = 32): Float64Array {
  const px = tileSize / 32;
  return Float64Array.from([
    -w / 4, 2 * px - h, w / 4, 2 * px - h, // top left, top right (2 pixels under the head)
    -w / 2, -h / 2, w / 2, -h / 2, // middle left, middle right
    -w / 4, 0, w / 4, 0, // bottom left, bottom right (at the feet)
    -w / 4, px, w / 4, px, // under left, under right (a pixel below the feet)
    0, -h / 2, 0, px, // ladder up, ladder down
  ]);
}

/** A tile map: cells, monsters, collision points, swept boxes and platformer controllers. */
export class TileMap {
  readonly backend: Backend;
  readonly cols: number;
  readonly rows: number;
  readonly tileSize: number;
  readonly wrap: boolean;
  readonly solidFloor: boolean;
  /** Rectangles, polygons and polylines of a Tiled map's object layers (empty for other maps), for the other stores. */
  readonly objects: Pick<TiledMap, "rects" | "rectInfo" | "polygons" | "polylines">;
  /** Monster type per monster slot (from the map, or addMonster). */
  monsterTypes: Int32Array;

  private readonly kernel: TileKernel;
  private readonly memory: WebAssembly.Memory;
  private readonly arena: Arena;
  private caps: Caps = { cells: 0, monsters: 0, entities: 0, boxes: 0, controllers: 0 };
  private pointCount = 0;
  private monsterTop = 0;
  private monsterFree: number[] = [];
  /** Generation of each monster slot: removeMonster bumps it, so the removed monster's handle is refused. */
  private monsterGens: number[] = [];
  private readonly ids: WorldTag;
  private controllerTop = 0;
  /** Monster boxes touching each cell (CELL_MONSTER_NEAR is set where this is above 0). */
  private cover: Int32Array;

  private buffer: ArrayBuffer | null = null;
  private header = new Int32Array(0);
  private _params = new Float64Array(0);
  private _points = new Float64Array(0);
  private _cells = new Uint8Array(0);
  private _monHead = new Int32Array(0);
  private _monNext = new Int32Array(0);
  private _monBox = new Float64Array(0);
  private _monLive = new Uint8Array(0);
  private _entX = new Float64Array(0);
  private _entY = new Float64Array(0);
  private _outCell = new Int32Array(0);
  private _outHits = new Uint8Array(0);
  private _outMonster = new Int32Array(0);
  private _boxes = new Float64Array(0);
  private _boxHits = new Uint8Array(0);
  private _ctlF = new Float64Array(0);
  private _ctlI = new Int32Array(0);

  /** Use world.addTileMap(); this constructor takes the world's kernel and heap. */
  constructor(kernel: TileKernel, backend: Backend, heap: Heap, ids: WorldTag, map: ParsedTileMap & Partial<TiledMap>, options: TileMapOptions = {}) {
    this.kernel = kernel;
    this.backend = backend;
    this.ids = ids;
    this.memory = kernel.memory;
    this.cols = map.cols;
    this.rows = map.rows;
    const T = positive("tileSize", options.tileSize, map.tileSize ?? 32);
    this.tileSize = T;
    this.wrap = options.wrap ?? false;
    this.solidFloor = options.solidFloor ?? true;
    this.objects = { rects: map.rects ?? new Float32Array(0), rectInfo: map.rectInfo ?? [], polygons: map.polygons ?? [], polylines: map.polylines ?? [] };
    const coinWidth = positive("coinWidth", options.coinWidth, T / 2);
    const monsterSize = positive("monsterSize", options.monsterSize, T);
    if (monsterSize > T) throw new HitcoreError("INVALID_OPTION", `monsterSize must be at most tileSize (${T}), got ${monsterSize}; monsters are looked up in the cells around a point.`);
    const spawns = map.monsters.length / 3;
    const caps: Caps = {
      cells: this.cols * this.rows,
      monsters: Math.max(count("monsterCapacity", options.monsterCapacity, 1, 64, MAX_CAPACITY_OPTION), spawns),
      entities: count("entityCapacity", options.entityCapacity, 1, 1024, MAX_CAPACITY_OPTION),
      boxes: count("boxCapacity", options.boxCapacity, 1, 256, MAX_CAPACITY_OPTION),
      controllers: count("controllerCapacity", options.controllerCapacity, 1, 16, MAX_CAPACITY_OPTION),
    };
    const tuning = tuningFor(T, options.controller ?? {});
    this.monsterTypes = new Int32Array(caps.monsters);
    this.cover = new Int32Array(caps.cells);
    this.arena = new Arena(kernel.memory, heap);
    this.relayout(caps, "addTileMap", `a ${this.cols} x ${this.rows} map with entityCapacity ${caps.entities}, boxCapacity ${caps.boxes}, ` +
      `controllerCapacity ${caps.controllers} and monsterCapacity ${caps.monsters}`);
    this._cells.set(map.cells);
    this._monHead.fill(NO_MONSTER);
    const p = this._params;
    p[P_TILE] = T;
    p[P_COIN_W] = coinWidth;
    p[P_W] = tuning.width; p[P_H] = tuning.height; p[P_MAXDX] = tuning.maxdx; p[P_MAXDY] = tuning.maxdy;
    p[P_CLIMBDY] = tuning.climbdy; p[P_GRAVITY] = tuning.gravity; p[P_IMPULSE] = tuning.impulse;
    p[P_ACCEL] = tuning.accel; p[P_FRICTION] = tuning.friction; p[P_SURFACE] = tuning.surface;
    p[P_LADDER_EDGE] = tuning.ladderEdge; p[P_FALLING_JUMP] = tuning.fallingJump; p[P_STEP_FRAMES] = tuning.stepFrames;
    p[P_HURT_FRAMES] = tuning.hurtFrames; p[P_COIN_SCORE] = tuning.coinScore;
    this.setPoints(seedCollisionPoints(tuning.width, tuning.height, T));
    for (let k = 0; k < spawns; k++) {
      const col = map.monsters[3 * k], row = map.monsters[3 * k + 1];
      const inset = (T - monsterSize) / 2;
      this.addMonster(col * T + inset, (row + 1) * T - monsterSize, monsterSize, monsterSize, map.monsters[3 * k + 2]);
    }
  }

  // ---- memory -----------------------------------------------------------------------------

  private writeHeader(): void {
    this.buffer = null;
    this.views();
    setHeaderFields(this.header, this.headerFields());
  }

  /** The header's size, capacities and point count (field, value pairs), which the core trusts. */
  private headerFields(): number[] {
    const c = this.caps;
    return [T_COLS, this.cols, T_ROWS, this.rows, T_WRAP, this.wrap ? 1 : 0, T_FLOOR, this.solidFloor ? 1 : 0,
      T_MON_CAP, c.monsters, T_ENT_CAP, c.entities, T_BOX_CAP, c.boxes, T_CTL_CAP, c.controllers, T_POINT_COUNT, this.pointCount];
  }

  /** Views over the regions, rebuilt when memory has grown (a grown buffer detaches the old views). */
  private views(): void {
    const buffer = this.memory.buffer;
    if (this.buffer === buffer) return;
    this.buffer = buffer;
    const c = this.caps, eps = c.entities * POINT_CAP;
    const o = (this.header = new Int32Array(buffer, TILES_HEADER, 128));
    this._params = new Float64Array(buffer, o[T_PARAMS], PARAM_COUNT);
    this._points = new Float64Array(buffer, o[T_POINTS], 2 * POINT_CAP);
    this._cells = new Uint8Array(buffer, o[T_CELLS], c.cells);
    this._monHead = new Int32Array(buffer, o[T_MON_HEAD], c.cells);
    this._monNext = new Int32Array(buffer, o[T_MON_NEXT], c.monsters);
    this._monBox = new Float64Array(buffer, o[T_MON_BOX], 4 * c.monsters);
    this._monLive = new Uint8Array(buffer, o[T_MON_LIVE], c.monsters);
    this._entX = new Float64Array(buffer, o[T_ENT_X], c.entities);
    this._entY = new Float64Array(buffer, o[T_ENT_Y], c.entities);
    this._outCell = new Int32Array(buffer, o[T_OUT_CELL], eps);
    this._outHits = new Uint8Array(buffer, o[T_OUT_HITS], eps);
    this._outMonster = new Int32Array(buffer, o[T_OUT_MONSTER], eps);
    this._boxes = new Float64Array(buffer, o[T_BOXES], BOX_FIELDS * c.boxes);
    this._boxHits = new Uint8Array(buffer, o[T_BOX_HITS], c.boxes);
    this._ctlF = new Float64Array(buffer, o[T_CTL_F], CTL_F_FIELDS * c.controllers);
    this._ctlI = new Int32Array(buffer, o[T_CTL_I], CTL_I_FIELDS * c.controllers);
  }

  /**
   * Lays the regions out for new capacities (x2 growth), every region keeping its contents; refused
   * first, changing nothing, when they would not fit a world's memory (Arena.check).
   */
  private relayout(caps: Caps, method: string, what: string): void {
    const regions = regionsFor(caps);
    this.arena.check(regions, method, method === "addTileMap", what);
    this.arena.layout(regions, () => new Int32Array(this.memory.buffer, TILES_HEADER, 128));
    // Per-entity outputs are laid out entity-major with POINT_CAP stride: unchanged by growth.
    this.caps = caps;
    if (caps.monsters > this.monsterTypes.length) {
      const types = new Int32Array(caps.monsters);
      types.set(this.monsterTypes);
      this.monsterTypes = types;
    }
    this.writeHeader();
  }

  private grow(method: string, field: keyof Caps, need: number): void {
    const caps = { ...this.caps };
    let n = caps[field];
    while (n < need) n *= 2;
    caps[field] = n;
    this.relayout(caps, method, `room for ${n} ${field}`);
  }

  // ---- views ------------------------------------------------------------------------------

  /** CELL_* flags per cell, index row * cols + col, row 0 at the top. Writable, except bit 7 (TileCell.MonsterNear), which the map keeps. */
  get cells(): Uint8Array { this.views(); return this._cells; }
  /** Entity origins for collidePoints (x, y). Re-read after ensureEntities. */
  get entityX(): Float64Array { this.views(); return this._entX; }
  get entityY(): Float64Array { this.views(); return this._entY; }
  /** collidePoints output, entity e point p at e * pointCount + p: cell index or OUTSIDE_MAP. */
  get pointCells(): Int32Array { this.views(); return this._outCell; }
  /** collidePoints output: Hit.* flags. */
  get pointHits(): Uint8Array { this.views(); return this._outHits; }
  /** collidePoints output: the lowest monster id whose box holds the point, or NO_MONSTER. */
  get pointMonsters(): Int32Array { this.views(); return this._outMonster; }
  /** moveBoxes input and output: (x, y, w, h, dx, dy) per box, (x, y) the top-left corner; x, y are rewritten. */
  get boxes(): Float64Array { this.views(); return this._boxes; }
  /** moveBoxes output: Contact.* per box. */
  get boxContacts(): Uint8Array { this.views(); return this._boxHits; }
  /** Monster boxes (x, y, w, h) per monster id, (x, y) the top-left corner; read only (use moveMonster). */
  get monsterBoxes(): Float64Array { this.views(); return this._monBox; }

  /** Whether each monster slot is live (1) or free (0); monsterCount are valid. */
  get monsterLive(): Uint8Array { this.views(); return this._monLive; }
  /** The collision points' (dx, dy) offsets from an entity's origin (setPoints); pointsPerEntity pairs are valid. */
  get pointOffsets(): Float64Array { this.views(); return this._points; }
  /** How wide a coin is (centred in its cell, the full row high): a collision point picks it up inside that width. */
  get coinWidth(): number { this.views(); return this._params[P_COIN_W]; }
  /** The controllers' box, width by height, its origin the middle of its bottom edge. */
  get controllerWidth(): number { this.views(); return this._params[P_W]; }
  get controllerHeight(): number { this.views(); return this._params[P_H]; }
  get entityCapacity(): number { return this.caps.entities; }
  get boxCapacity(): number { return this.caps.boxes; }
  get monsterCapacity(): number { return this.caps.monsters; }
  get controllerCapacity(): number { return this.caps.controllers; }
  /** Monster slots in use are below this (freed slots inside are not live). */
  get monsterCount(): number { return this.monsterTop; }
  get controllerCount(): number { return this.controllerTop; }
  get pointsPerEntity(): number { return this.pointCount; }
  /** The map's width in world units (the wrap period). */
  get width(): number { return this.cols * this.tileSize; }
  get height(): number { return this.rows * this.tileSize; }

  ensureEntities(n: number): void {
    count("entities", n, 0, 0);
    if (n > this.caps.entities) this.grow("ensureEntities", "entities", n);
  }

  ensureBoxes(n: number): void {
    count("boxes", n, 0, 0);
    if (n > this.caps.boxes) this.grow("ensureBoxes", "boxes", n);
  }

  // ---- cells ------------------------------------------------------------------------------

  /** x folded into [0, width) on a wrapping map (the tower's normalizex); unchanged otherwise. */
  normalizeX(x: number): number {
    if (typeof x !== "number" || !Number.isFinite(x)) throw new HitcoreError("INVALID_NUMBER", `normalizeX: x must be a finite number, got ${describe(x)}.`);
    if (!this.wrap) return x;
    const w = this.width;
    let r = x - Math.floor(x / w) * w;
    if (r >= w) r -= w;
    if (r < 0) r = 0;
    return r;
  }

  /** Flags of cell (col, row), with the outside rules: floor below (row >= rows), walls beside (unless wrapping), air above (row < 0). */
  cellAt(col: number, row: number): number {
    if (!Number.isInteger(col) || !Number.isInteger(row)) throw new HitcoreError("INVALID_ARGUMENT", `cellAt takes integer col and row, got ${describe(col)}, ${describe(row)}.`);
    if (row < 0) return 0;
    if (row >= this.rows) return this.solidFloor ? CELL_PLATFORM : 0;
    if (this.wrap) col = ((col % this.cols) + this.cols) % this.cols;
    else if (col < 0 || col >= this.cols) return CELL_PLATFORM;
    return this.cells[row * this.cols + col];
  }

  /** Flags of the cell holding world point (x, y) (on the line between two rows: the row above). */
  flagsAt(x: number, y: number): number {
    this.checkCoord("x", x);
    this.checkCoord("y", y);
    const T = this.tileSize;
    let col = Math.floor(this.normalizeX(x) / T);
    if (this.wrap && col >= this.cols) col = this.cols - 1;
    return this.cellAt(col, this.pointRow(y));
  }

  /** The row of a point at y: a point on the line between two rows is in the row above it (layout/tiles.ts). */
  private pointRow(y: number): number {
    return Math.ceil(y / this.tileSize) - 1;
  }

  /** The seed-002 grid check: may a point move to (x, y)? False in a platform, a wall or the floor. */
  canMoveTo(x: number, y: number): boolean {
    return (this.flagsAt(x, y) & CELL_PLATFORM) === 0;
  }

  /** Sets a cell's flags (TileCell.* bits below 128). */
  setCell(col: number, row: number, flags: number): void {
    if (!Number.isInteger(col) || !Number.isInteger(row) || col < 0 || row < 0 || col >= this.cols || row >= this.rows) {
      throw new HitcoreError("INVALID_ARGUMENT", `setCell(${describe(col)}, ${describe(row)}): the cell is outside the ${this.cols} x ${this.rows} map.`);
    }
    if (!Number.isInteger(flags) || flags < 0 || flags > 127) throw new HitcoreError("INVALID_ARGUMENT", `cell flags must be an integer 0-127 (TileCell.* bits; TileCell.MonsterNear is kept by the map), got ${describe(flags)}.`);
    const k = row * this.cols + col;
    this.cells[k] = flags | (this._cells[k] & CELL_MONSTER_NEAR);
  }

  // ---- monsters ---------------------------------------------------------------------------

  /**
   * Adds a monster box (top-left corner x, y; w, h at most tileSize), its centre inside the map;
   * returns its handle. monsterBoxes, monsterTypes and pointMonsters index monsters by slot (indexOf).
   */
  addMonster(x: number, y: number, w: number, h: number, type = 0): number {
    this.checkMonsterBox(x, y, w, h);
    if (!Number.isInteger(type) || type < -0x80000000 || type > 0x7fffffff) {
      throw new HitcoreError("INVALID_ARGUMENT", `addMonster: type must be an integer that fits 32 bits (monsterTypes is an Int32Array), got ${describe(type)}.`);
    }
    const id = this.monsterFree.length > 0 ? this.monsterFree[this.monsterFree.length - 1] : this.monsterTop;
    if (id >= this.caps.monsters) this.grow("addMonster", "monsters", id + 1);
    if (this.monsterFree.length > 0) this.monsterFree.pop();
    else {
      this.monsterTop++;
      this.monsterGens.push(1);
    }
    this.views();
    this._monLive[id] = 1;
    this.monsterTypes[id] = type;
    this.placeMonster(id, x, y, w, h);
    return makeId(this.monsterGens[id], IdKind.Monster, this.ids.tag, id);
  }

  /** Moves a monster (relinking it to the cell of its centre). */
  moveMonster(monster: number, x: number, y: number): void {
    const id = this.monsterSlot("moveMonster", monster);
    const b = this._monBox, w = b[4 * id + 2], h = b[4 * id + 3];
    this.checkMonsterBox(x, y, w, h);
    this.unlinkMonster(id);
    this.placeMonster(id, x, y, w, h);
  }

  /** Removes a monster: its handle stays invalid; a later addMonster reuses its slot under a new handle. */
  removeMonster(monster: number): void {
    const id = this.monsterSlot("removeMonster", monster);
    this.unlinkMonster(id);
    this._monLive[id] = 0;
    // A slot whose generation would wrap is retired rather than reused.
    if (++this.monsterGens[id] < MAX_GENERATION) this.monsterFree.push(id);
  }

  /** True when `monster` is the handle of a live monster of this map. */
  isMonster(monster: number): boolean {
    const id = slotFor(monster, this.ids.tag, IdKind.Monster);
    if (id < 0 || id >= this.monsterTop || this.monsterGens[id] !== generationOf(monster)) return false;
    this.views();
    return this._monLive[id] === 1;
  }

  private monsterSlot(method: string, monster: number): number {
    if (!this.isMonster(monster)) {
      throw unknownId(method, monster, this.ids.tag, IdKind.Monster, this.monsterTop, "Use a handle addMonster returned that was not removed (check with isMonster(handle)).");
    }
    return slotOf(monster);
  }

  private checkMonsterBox(x: number, y: number, w: number, h: number): void {
    this.checkCoord("monster x", x);
    this.checkCoord("monster y", y);
    const T = this.tileSize;
    if (typeof w !== "number" || typeof h !== "number" || !(w >= 0 && w <= T) || !(h >= 0 && h <= T)) throw new HitcoreError("INVALID_ARGUMENT", `monster size must be within 0..tileSize (${T}), got ${describe(w)} x ${describe(h)}; split bigger monsters.`);
    const cx = this.normalizeX(x + w / 2), cy = y + h / 2;
    if (cy < 0 || cy > this.height || (!this.wrap && (cx < 0 || cx >= this.width))) {
      throw new HitcoreError("INVALID_ARGUMENT", `monster centre (${cx}, ${cy}) is outside the map (0..${this.width} x 0..${this.height}); monsters live inside it.`);
    }
  }

  private homeCell(id: number): number {
    const b = this._monBox, T = this.tileSize;
    let col = Math.floor(this.normalizeX(b[4 * id] + b[4 * id + 2] / 2) / T);
    if (col >= this.cols) col = this.cols - 1;
    const row = Math.max(0, this.pointRow(b[4 * id + 1] + b[4 * id + 3] / 2));
    return row * this.cols + col;
  }

  private placeMonster(id: number, x: number, y: number, w: number, h: number): void {
    this.views();
    const b = this._monBox;
    b[4 * id] = this.normalizeX(x);
    b[4 * id + 1] = y;
    b[4 * id + 2] = w;
    b[4 * id + 3] = h;
    const cell = this.homeCell(id);
    this._monNext[id] = this._monHead[cell];
    this._monHead[cell] = id;
    this.coverMonster(id, 1);
  }

  /** Counts the monster in every cell a point of its closed box can be in, keeping CELL_MONSTER_NEAR in step. */
  private coverMonster(id: number, delta: number): void {
    const b = this._monBox, T = this.tileSize, cols = this.cols, rows = this.rows;
    const x = b[4 * id], y = b[4 * id + 1];
    const c0 = Math.floor(x / T), c1 = Math.floor((x + b[4 * id + 2]) / T);
    const r0 = Math.max(0, this.pointRow(y)), r1 = Math.min(rows - 1, this.pointRow(y + b[4 * id + 3]));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        let cc = c;
        if (this.wrap) cc = ((c % cols) + cols) % cols;
        else if (c < 0 || c >= cols) continue;
        const k = r * cols + cc;
        this.cover[k] += delta;
        if (this.cover[k] > 0) this._cells[k] |= CELL_MONSTER_NEAR;
        else this._cells[k] &= ~CELL_MONSTER_NEAR;
      }
    }
  }

  private unlinkMonster(id: number): void {
    this.views();
    this.coverMonster(id, -1);
    const cell = this.homeCell(id);
    const head = this._monHead, next = this._monNext;
    if (head[cell] === id) {
      head[cell] = next[id];
    } else {
      let m = head[cell];
      while (m >= 0 && next[m] !== id) m = next[m];
      if (m >= 0) next[m] = next[id];
    }
    next[id] = NO_MONSTER;
  }

  // ---- handles ------------------------------------------------------------------------------

  /** True when `handle` names a controller or a live monster of this map. */
  has(handle: number): boolean {
    const kind = kindFor(handle, this.ids.tag);
    if (kind === IdKind.Monster) return this.isMonster(handle);
    return kind === IdKind.Controller && slotOf(handle) < this.controllerTop && generationOf(handle) === 1;
  }

  /** The slot of a controller's or monster's handle: its index into the controller stores, or monsterBoxes, monsterTypes and pointMonsters. */
  indexOf(handle: number): number {
    if (!this.has(handle)) {
      const kind = kindFor(handle, this.ids.tag), known = TILE_KINDS.includes(kind as never);
      throw unknownId("indexOf", handle, this.ids.tag, known ? kind : IdKind.Controller, kind === IdKind.Monster ? this.monsterTop : this.controllerTop,
        "Use a handle addController or addMonster returned (check with has(handle)).", known ? undefined : "a controller or a monster");
    }
    return slotOf(handle);
  }

  /** The handle of the controller or monster (IdKind.*) in a slot, or NULL_ID where there is none. */
  idAt(kind: number, index: number): number {
    if (!TILE_KINDS.includes(kind as never)) throw wrongKind("idAt", kind, TILE_KINDS);
    if (!Number.isInteger(index) || index < 0) return NULL_ID;
    if (kind === IdKind.Controller) return index < this.controllerTop ? makeId(1, kind, this.ids.tag, index) : NULL_ID;
    if (index >= this.monsterTop) return NULL_ID;
    this.views();
    return this._monLive[index] === 1 ? makeId(this.monsterGens[index], kind, this.ids.tag, index) : NULL_ID;
  }

  // ---- collision points -------------------------------------------------------------------

  /** Sets the collision points: (dx, dy) pairs relative to an entity's origin, at most POINT_CAP. */
  setPoints(offsets: ArrayLike<number>): void {
    offsets = readOnce("setPoints", "offsets", offsets);
    const length = numbersLength("setPoints", "offsets", offsets), n = length / 2;
    if (!Number.isInteger(n) || n < 1 || n > POINT_CAP) throw new HitcoreError("INVALID_ARGUMENT", `setPoints takes 1 to ${POINT_CAP} (dx, dy) pairs, got ${length} numbers.`);
    for (let k = 0; k < offsets.length; k++) this.checkCoord(`point offset ${k}`, offsets[k]);
    this.views();
    for (let k = 0; k < offsets.length; k++) this._points[k] = offsets[k];
    this.pointCount = n;
    this.header[T_POINT_COUNT] = n;
    this.collidedEntities = 0; // the last collidePoints' output was for the offsets before
  }

  /**
   * Looks up every collision point of entities [0, count) (origins in entityX / entityY): writes
   * pointCells, pointHits and pointMonsters at e * pointsPerEntity + p. One kernel call; returns
   * how many points hit anything.
   */
  collidePoints(n: number): number {
    count("count", n, 0, 0);
    if (n > this.caps.entities) throw new HitcoreError("CAPACITY", `collidePoints(${n}) is over entityCapacity ${this.caps.entities}; call ensureEntities(${n}) first.`);
    this.views();
    const xs = this._entX, ys = this._entY;
    for (let e = 0; e < n; e++) {
      if (!this.coordOk(xs[e]) || !this.coordOk(ys[e])) {
        throw new HitcoreError("INVALID_ARGUMENT", `entity ${e} has origin (${xs[e]}, ${ys[e]}); origins must be finite and within ${MAX_TILE_COORD} tiles.`);
      }
    }
    const hits = this.kernel.collidePoints(n);
    this.collidedEntities = n;
    return hits;
  }

  /** Entities [0, n) of the last collidePoints(n), whose points pointHits holds (0 before one, and after setPoints): debugDraw's PointHits layer. */
  get lastCollidePoints(): number { return this.collidedEntities; }
  private collidedEntities = 0;

  // ---- swept boxes ------------------------------------------------------------------------

  /**
   * Moves boxes [0, count) of `boxes` by (dx, dy) through the map, x then y, stopping at the first
   * solid cell each crosses (grid traversal: nothing tunnels) and sliding seam-free along runs of
   * tiles. Rewrites x, y; writes boxContacts; returns how many boxes touched something.
   */
  moveBoxes(n: number): number {
    count("count", n, 0, 0);
    if (n > this.caps.boxes) throw new HitcoreError("CAPACITY", `moveBoxes(${n}) is over boxCapacity ${this.caps.boxes}; call ensureBoxes(${n}) first.`);
    this.views();
    const b = this._boxes;
    for (let i = 0; i < n; i++) {
      const o = BOX_FIELDS * i;
      const ok = this.coordOk(b[o]) && this.coordOk(b[o + 1]) && b[o + 2] > 0 && b[o + 3] > 0 && this.coordOk(b[o + 2]) && this.coordOk(b[o + 3]) &&
        this.coordOk(b[o + 4]) && this.coordOk(b[o + 5]);
      if (!ok) {
        throw new HitcoreError("INVALID_ARGUMENT", `box ${i} is (${Array.from(b.subarray(o, o + 6)).join(", ")}); x, y, dx, dy must be finite and sizes positive (a point mover can use a tiny box).`);
      }
    }
    return this.kernel.moveBoxes(n);
  }

  // ---- controllers ------------------------------------------------------------------------

  /** @internal Set by the world: readies its other parts (the rects and polyhedra its controllers see) before a step. */
  prepareWorld: (() => void) | null = null;

  /**
   * Adds a platformer controller with its origin (the middle of its feet, the bottom-centre of its
   * box) at (x, y); returns its handle (controllerReals / controllerInts index it by slot: indexOf).
   */
  addController(x: number, y: number): number {
    this.checkCoord("controller x", x);
    this.checkCoord("controller y", y);
    const id = this.controllerTop;
    if (id >= this.caps.controllers) this.grow("addController", "controllers", id + 1);
    this.views();
    this.controllerTop++;
    const f = CTL_F_FIELDS * id, n = CTL_I_FIELDS * id;
    this._ctlF.fill(0, f, f + CTL_F_FIELDS);
    this._ctlI.fill(0, n, n + CTL_I_FIELDS);
    this._ctlF[f + CF_X] = this.normalizeX(x);
    this._ctlF[f + CF_Y] = y;
    this._ctlF[f + CF_PREV_Y] = y; // not falling before its first step
    this._ctlI[n + CI_STATE] = ST_LIVE;
    return makeId(1, IdKind.Controller, this.ids.tag, id);
  }

  /** The slot of a controller's handle (controllers are never removed: generation 1 always), views current. */
  private checkController(method: string, controller: number): number {
    const id = slotFor(controller, this.ids.tag, IdKind.Controller);
    if (id < 0 || id >= this.controllerTop || generationOf(controller) !== 1) {
      throw unknownId(method, controller, this.ids.tag, IdKind.Controller, this.controllerTop, "Use a handle addController returned.");
    }
    this.views();
    return id;
  }

  /** Input bits (Input.*) for the next steps; Jump is consumed when a jump happens. */
  setInput(controller: number, bits: number): void {
    const id = this.checkController("setInput", controller);
    if (!Number.isInteger(bits) || bits < 0 || bits > 31) throw new HitcoreError("INVALID_ARGUMENT", `input must be Input.* bits (0-31), got ${describe(bits)}.`);
    this._ctlI[CTL_I_FIELDS * id + CI_INPUT] = bits;
  }

  /** Steps every controller by dt seconds in one kernel call; returns how many had events. */
  stepControllers(dt: number): number {
    if (typeof dt !== "number" || !(dt > 0 && dt <= 1)) throw new HitcoreError("INVALID_ARGUMENT", `dt must be in (0, 1] seconds, got ${describe(dt)}.`);
    this.prepareWorld?.();
    return this.kernel.stepControllers(this.controllerTop, dt);
  }

  /** A controller's state (allocates: for tests, HUDs and debugging, not the hot loop). */
  controller(controller: number): TileControllerState {
    const id = this.checkController("controller", controller);
    const f = CTL_F_FIELDS * id, n = CTL_I_FIELDS * id, F = this._ctlF, I = this._ctlI;
    return {
      x: F[f + CF_X], y: F[f + CF_Y], dx: F[f + CF_DX], dy: F[f + CF_DY],
      falling: (I[n + CI_STATE] & ST_FALLING) !== 0, climbing: (I[n + CI_STATE] & ST_CLIMBING) !== 0,
      hurting: I[n + CI_HURTING], score: I[n + CI_SCORE], hits: I[n + CI_HITS], events: I[n + CI_EVENTS],
    };
  }

  // Controller x, y and score without allocating. The slot first: checkController rebuilds the
  // views when a relayout detached them, and `this._ctlF[...]` would read the old one otherwise.
  controllerX(controller: number): number { const id = this.checkController("controllerX", controller); return this._ctlF[CTL_F_FIELDS * id + CF_X]; }
  controllerY(controller: number): number { const id = this.checkController("controllerY", controller); return this._ctlF[CTL_F_FIELDS * id + CF_Y]; }
  controllerScore(controller: number): number { const id = this.checkController("controllerScore", controller); return this._ctlI[CTL_I_FIELDS * id + CI_SCORE]; }
  controllerEvents(controller: number): number { const id = this.checkController("controllerEvents", controller); return this._ctlI[CTL_I_FIELDS * id + CI_EVENTS]; }

  /** Places a controller (x normalised on a wrapping map) and zeroes its speed. */
  setControllerPosition(controller: number, x: number, y: number): void {
    const id = this.checkController("setControllerPosition", controller);
    this.checkCoord("controller x", x);
    this.checkCoord("controller y", y);
    const f = CTL_F_FIELDS * id;
    this._ctlF[f + CF_X] = this.normalizeX(x);
    this._ctlF[f + CF_Y] = y;
    this._ctlF[f + CF_DX] = 0;
    this._ctlF[f + CF_DY] = 0;
    this._ctlF[f + CF_PREV_Y] = y;
    this._ctlF[f + CF_PREV_DY] = 0;
  }

  /** The raw controller stores (CF_* / CI_* fields), for differential tests and bulk reads. */
  get controllerReals(): Float64Array { this.views(); return this._ctlF; }
  get controllerInts(): Int32Array { this.views(); return this._ctlI; }

  // ---- checks -----------------------------------------------------------------------------

  get stats(): TileStats {
    this.views();
    return { cellsVisited: this.header[S_T_CELLS_VISITED], monsterTests: this.header[S_T_MONSTER_TESTS], iterations: this.header[S_T_ITERATIONS] };
  }

  /** Checks the monster lists: every live monster is listed once, in the cell of its centre. Throws if not. */
  validate(): void {
    this.views();
    checkHeader("tile map", this.header, this.headerFields());
    // The slots in use bound the loops below: a restored state's count past the stores is refused first.
    if (!(Number.isInteger(this.monsterTop) && this.monsterTop >= 0 && this.monsterTop <= this.caps.monsters)) {
      throw new HitcoreError("CORRUPT", `validate: ${this.monsterTop} monster slots in use, past the ${this.caps.monsters} the stores hold`);
    }
    const seen = new Uint8Array(this.caps.monsters);
    const cells = this.cols * this.rows;
    for (let c = 0; c < cells; c++) {
      for (let m = this._monHead[c], guard = 0; m !== NO_MONSTER; m = this._monNext[m]) {
        if (m < 0 || m >= this.monsterTop || this._monLive[m] !== 1) throw new HitcoreError("CORRUPT", `validate: cell ${c} lists monster ${m}, which is not live`);
        if (seen[m]++) throw new HitcoreError("CORRUPT", `validate: monster ${m} is listed twice`);
        if (this.homeCell(m) !== c) throw new HitcoreError("CORRUPT", `validate: monster ${m} is listed in cell ${c}, its centre is in ${this.homeCell(m)}`);
        if (++guard > this.monsterTop) throw new HitcoreError("CORRUPT", `validate: cell ${c} has a cycle`);
      }
    }
    for (let m = 0; m < this.monsterTop; m++) if (this._monLive[m] === 1 && !seen[m]) throw new HitcoreError("CORRUPT", `validate: monster ${m} is in no cell`);
    if (this.monsterGens.length !== this.monsterTop) throw new HitcoreError("CORRUPT", `validate: ${this.monsterGens.length} monster generations for ${this.monsterTop} monster slots`);
    for (let m = 0; m < this.monsterTop; m++) {
      const g = this.monsterGens[m];
      if (!Number.isInteger(g) || g < 1 || g > MAX_GENERATION) throw new HitcoreError("CORRUPT", `validate: monster slot ${m} has generation ${g}`);
    }
    for (let c = 0; c < cells; c++) {
      if ((this.cover[c] > 0) !== ((this._cells[c] & CELL_MONSTER_NEAR) !== 0)) throw new HitcoreError("CORRUPT", `validate: cell ${c}: MonsterNear bit out of step with ${this.cover[c]} monsters touching it`);
    }
  }

  private coordOk(v: number): boolean {
    return Number.isFinite(v) && Math.abs(v) <= MAX_TILE_COORD * this.tileSize;
  }

  private checkCoord(name: string, v: number): void {
    if (typeof v !== "number" || !this.coordOk(v)) throw new HitcoreError("INVALID_ARGUMENT", `${name} must be finite and within ${MAX_TILE_COORD} tiles of the origin, got ${describe(v)}.`);
  }

  /** @internal Rebuilds the views after world.restore wrote memory. */
  reattach(): void {
    this.buffer = null;
    this.views();
  }
}

/** A controller's state, as `tileMap.controller(id)` reports it. */
export interface TileControllerState {
  x: number;
  y: number;
  dx: number;
  dy: number;
  falling: boolean;
  climbing: boolean;
  /** Frames of immunity left after a hurt. */
  hurting: number;
  score: number;
  hits: number;
  /** TileEvent.* bits of the last step. */
  events: number;
}

function tuningFor(T: number, o: Partial<TileControllerTuning>): TileControllerTuning {
  const maxdx = positive("controller.maxdx", o.maxdx, 8 * T);
  const t: TileControllerTuning = {
    width: positive("controller.width", o.width, T),
    height: positive("controller.height", o.height, 2 * T),
    maxdx,
    maxdy: positive("controller.maxdy", o.maxdy, 20 * T),
    climbdy: positive("controller.climbdy", o.climbdy, 4 * T),
    gravity: positive("controller.gravity", o.gravity, 58.8 * T),
    impulse: positive("controller.impulse", o.impulse, 1200 * T),
    accel: positive("controller.accel", o.accel, 4 * maxdx),
    friction: positive("controller.friction", o.friction, 6 * maxdx),
    surface: positive("controller.surface", o.surface, 0.5 * T),
    ladderEdge: positive("controller.ladderEdge", o.ladderEdge, 0.6),
    fallingJump: count("controller.fallingJump", o.fallingJump, 0, 12),
    stepFrames: count("controller.stepFrames", o.stepFrames, 1, 8),
    hurtFrames: count("controller.hurtFrames", o.hurtFrames, 1, 60),
    coinScore: count("controller.coinScore", o.coinScore, 0, 50),
  };
  if (t.surface > T) throw new HitcoreError("INVALID_OPTION", `controller.surface must be at most tileSize (${T}), got ${t.surface}.`);
  return t;
}

/** The map a TileMapOptions describes, checked before anything is allocated for it. */
export function parseMapOptions(options: TileMapOptions): ParsedTileMap & Partial<TiledMap> {
  const given = [options.ascii !== undefined, options.tiled !== undefined, options.cols !== undefined || options.rows !== undefined].filter(Boolean).length;
  if (given !== 1) throw new HitcoreError("INVALID_OPTION", "give exactly one map: ascii (the seed's rows), tiled (a Tiled JSON map) or cols and rows (an empty map).");
  if (options.ascii !== undefined) return parseAsciiMap(options.ascii);
  if (options.tiled !== undefined) return parseTiledMap(options.tiled, options.tiledOptions);
  const cols = count("cols", options.cols, 1, 0), rows = count("rows", options.rows, 1, 0);
  if (cols * rows > 1 << 26) throw new HitcoreError("INVALID_OPTION", `cols x rows = ${cols * rows} is over the limit of ${1 << 26} cells; split the level.`);
  return { cols, rows, cells: new Uint8Array(cols * rows), monsters: new Int32Array(0) };
}

/** A tile map in a world's memory (world.addTileMap). The map is parsed and checked before anything is laid out. */
export function tileMapIn(kernel: TileKernel, backend: Backend, heap: Heap, ids: WorldTag, options: TileMapOptions): TileMap {
  const map = parseMapOptions(options);
  if (options.wrap !== undefined && typeof options.wrap !== "boolean") throw new HitcoreError("INVALID_OPTION", `wrap must be a boolean, got ${describe(options.wrap)}.`);
  return new TileMap(kernel, backend, heap, ids, map, options);
}
