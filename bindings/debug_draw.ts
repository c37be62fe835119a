// Debug drawing: every part of a world as a stream of line and shape commands in a Float32Array,
// for any renderer (WebGL, PixiJS Graphics, Phaser Graphics), and onto a Canvas 2D context. One
// walker reads the world through its views and read accessors and writes the stream; the canvas
// target replays that stream (drawStream), so the two cannot disagree. Nothing allocates per
// frame once the stream has grown to the frame's size: styles and scratch live in typed arrays
// (a double stored in an object field or passed through a call V8 does not inline is boxed).
//
// The stream: records one after another in `data[0 .. length)`, `count` of them, each
//   op, layer, colour, alpha, then the op's arguments (world units, y down):
//   DrawOp.Line                 x0, y0, x1, y1
//   DrawOp.Rect, FillRect       x, y, w, h            (top-left, size)
//   DrawOp.Circle, FillCircle   x, y, r               (centre, radius)
//   DrawOp.Polygon, FillPolygon n, x0, y0, ... x(n-1), y(n-1)   (closed)
//   DrawOp.Point                x, y                  (a dot a few pixels wide whatever the zoom)
// colour is 0xRRGGBB (exact in an f32), alpha 0 to 1, layer a DrawLayer. recordLength gives a
// record's length in floats.
import { Part } from "./hit.js";
import type { World } from "./world.js";
import { Sweep } from "./world.js";
import {
  CELL_COIN, CELL_LADDER, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE, CF_X, CF_Y, CI_STATE, CTL_F_FIELDS, CTL_I_FIELDS, HIT_BLOCKED, HIT_COIN, HIT_LADDER,
  HIT_MONSTER, HIT_ONE_WAY, HIT_SPIKE, ST_LIVE,
} from "../layout/tiles.js";
import { CONTACT_FIELDS, CONTACT_HURT, CONTACT_STOMP, CONTACT_PICK_UP, CONTROLLER_BALL, CONTROLLER_CHARACTER } from "../layout/contacts.js";
import { KIND_CIRCLE, KIND_NONE, KIND_POINT, KIND_RECT } from "../layout/grid.js";
import { HitcoreError, describe, MAX_COORD } from "./validate.js";

/** A command of the debug stream (its first float). */
export const DrawOp = { Line: 1, Rect: 2, FillRect: 3, Circle: 4, FillCircle: 5, Polygon: 6, FillPolygon: 7, Point: 8 } as const;

/** What a command shows (its second float); `layers` bits are 1 << DrawLayer.*. Listed in drawing order, back to front. */
export const DrawLayer = {
  /** The bucket grid of the last pair query: its frame and each cell in use. */
  Grid: 0,
  /** The tile map: solid, one-way, ladder, coin and spike cells, and its monsters. */
  Tiles: 1,
  /** The rect level's quadtree nodes that hold instances. */
  Quadtree: 2,
  /** The rect level's prefab rects, placed by their instances. */
  Rects: 3,
  /** The rect level's master boxes (one per instance). */
  MasterBoxes: 4,
  /** Polyhedra, filled. */
  Polyhedra: 5,
  /** The hit regions of a ball of the platforms' maxRadius: each surface's trapezium (or rounded band), each polyhedron's faces moved out. */
  HitRegions: 6,
  /** Surfaces, with a tick on the side they face. */
  Surfaces: 7,
  /** The world's bodies (points, circles, rects), by group colour. */
  Bodies: 8,
  /** The platforms' balls. */
  Balls: 9,
  /** The rect level's four-sensor characters. */
  Characters: 10,
  /** The characters' four sensors. */
  Sensors: 11,
  /** The tile map's controllers. */
  TileControllers: 12,
  /** The tile controllers' collision points. */
  CollisionPoints: 13,
  /** The last single cast (world.hit) and the last castMany's casts: path, shape at the end, hit normal. */
  Casts: 14,
  /** The last controllerContacts: a line from each controller to each body it touches. */
  Contacts: 15,
  /** The rect level's projectiles [0, n) of the last moveProjectiles(n): a circle each (a point at radius 0). */
  Projectiles: 16,
  /** The tile map's points of the last collidePoints(n) (each entity's origin plus the offsets), in the colour of what each hit. */
  PointHits: 17,
} as const;

/** Every layer: the default `layers`. */
export const ALL_LAYERS = 0x3ffff;

/** Floats before a command's arguments: op, layer, colour, alpha. */
export const DRAW_HEADER = 4;

/** The colours (0xRRGGBB) debugDraw uses, by what they show; `options.colours` overrides any of them. */
export interface DebugColours {
  grid: number; gridCell: number;
  solid: number; oneWay: number; ladder: number; coin: number; spike: number; monster: number;
  quadtree: number; rect: number; masterBox: number;
  polyhedron: number; hitRegion: number; surface: number;
  ball: number; player: number; enemy: number;
  sensorTop: number; sensorBottom: number; sensorLeft: number; sensorRight: number;
  tileController: number; collisionPoint: number;
  /** A cast's path and start; its shape where it stopped on each Part (tiles, rects, surfaces, polyhedra) or at its end after a miss; the hit normal. */
  cast: number; hitTiles: number; hitRects: number; hitSurfaces: number; hitPolyhedra: number; castMiss: number; normal: number;
  stomp: number; hurt: number; pickUp: number;
  projectile: number;
  /** A point of collidePoints by what it hit, first match in this order: a monster, a spike, a coin, a solid or one-way cell, a ladder; else pointFree. */
  pointMonster: number; pointSpike: number; pointCoin: number; pointBlocked: number; pointLadder: number; pointFree: number;
}

export const DEFAULT_COLOURS: Readonly<DebugColours> = {
  grid: 0x78ffa0, gridCell: 0x78ffa0,
  solid: 0x5a6478, oneWay: 0xc8a04b, ladder: 0xa0784b, coin: 0xffd700, spike: 0xff5050, monster: 0xff64c8,
  quadtree: 0x5a8cff, rect: 0x4d6b4a, masterBox: 0xffffff,
  polyhedron: 0x2f4f8f, hitRegion: 0xff3c3c, surface: 0x5fd35f,
  ball: 0x6fa8ff, player: 0xf2c14e, enemy: 0xd9534f,
  sensorTop: 0x4dff88, sensorBottom: 0xffe14d, sensorLeft: 0xff4d4d, sensorRight: 0x4d7dff,
  tileController: 0x5cff9d, collisionPoint: 0xff4d4d,
  cast: 0xffffff, hitTiles: 0xc8a04b, hitRects: 0xf2c14e, hitSurfaces: 0x4fd6e8, hitPolyhedra: 0x7fb2ff, castMiss: 0x808080, normal: 0xffe14d,
  stomp: 0x5cff9d, hurt: 0xff4545, pickUp: 0xffd700,
  projectile: 0xffffff,
  pointMonster: 0xff4df0, pointSpike: 0xff8c1a, pointCoin: 0xffe14d, pointBlocked: 0xff4d4d, pointLadder: 0x4dff7a, pointFree: 0xffffff,
};

/** Body colours by the lowest group bit (bit k takes entry k modulo the length): the default `groupColours`. */
export const DEFAULT_GROUP_COLOURS: readonly number[] = [0xff4fa3, 0x4fe3ff, 0x7c5cff, 0x5cff9d, 0xffb14f, 0xf2f24f, 0xff6464, 0xc8c8ff];

/** A world-to-screen camera for the canvas target: screen = (world - (x, y)) * scale. */
export interface DebugCamera {
  x?: number;
  y?: number;
  scale?: number;
}

/** A box in world units. */
export interface DebugView {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DebugDrawOptions {
  /** Which layers to draw: bits 1 << DrawLayer.* (default ALL_LAYERS). */
  layers?: number;
  /** Only what meets this box is drawn (default: the canvas's view through the camera; for a stream, everything). */
  view?: DebugView;
  /** Canvas only: world to screen (default x = y = 0, scale 1). */
  camera?: DebugCamera;
  /** Colours to use instead of DEFAULT_COLOURS. */
  colours?: Partial<DebugColours>;
  /** Body colours by lowest group bit (default DEFAULT_GROUP_COLOURS). */
  groupColours?: ArrayLike<number>;
  /** Bodies drawn: those whose groups meet this mask (default every group). */
  mask?: number;
  /** Radius the hit regions are drawn for (default the platforms' maxRadius). */
  hitRadius?: number;
  /** Layers whose shapes are filled instead of outlined: bits 1 << DrawLayer.* (default 0; lines and points stay as they are). */
  fills?: number;
  /** Length of hit normals and surface ticks, in world units (default 8). */
  normalLength?: number;
  /** Stream only: start the stream empty (default true); false appends to what it holds. */
  clear?: boolean;
}

/** What the canvas target needs: CanvasRenderingContext2D and OffscreenCanvasRenderingContext2D both are one. */
export interface DebugCanvas {
  readonly canvas?: { readonly width: number; readonly height: number };
  strokeStyle: unknown;
  fillStyle: unknown;
  lineWidth: number;
  save(): void;
  restore(): void;
  beginPath(): void;
  closePath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  arc(x: number, y: number, r: number, start: number, end: number): void;
  stroke(): void;
  fill(): void;
}

/** Floats in the record at `at` of a stream's data. */
export function recordLength(data: Float32Array, at: number): number {
  switch (data[at]) {
    case DrawOp.Line: case DrawOp.Rect: case DrawOp.FillRect: return DRAW_HEADER + 4;
    case DrawOp.Circle: case DrawOp.FillCircle: return DRAW_HEADER + 3;
    case DrawOp.Polygon: case DrawOp.FillPolygon: return DRAW_HEADER + 1 + 2 * data[at + DRAW_HEADER];
    case DrawOp.Point: return DRAW_HEADER + 2;
    default: throw new HitcoreError("INVALID_BUFFER", `recordLength: no command starts at ${at} (op ${describe(data[at])}). Walk the stream from 0, record by record.`);
  }
}

/**
 * A command stream: `count` records in `data[0 .. length)` (format above). When full it grows (x2)
 * unless made with `grow: false`, which drops the commands that do not fit and counts them in
 * `dropped`. A stream that has grown to a frame's size allocates nothing in the frames after.
 */
export class DrawStream {
  data: Float32Array;
  /** Floats in use. */
  length = 0;
  /** Records in use. */
  count = 0;
  /** Records that did not fit since the last clear (only without growth): from the first, every later one is dropped too, so the stream holds the frame's first `count`. */
  dropped = 0;
  readonly growable: boolean;
  // layer, colour, alpha of the commands being written; the open polygon's write position (-1:
  // none, or dropped) and the corners it still takes.
  private readonly style = new Float64Array(3);
  private polygonAt = -1;
  private polygonLeft = 0;

  constructor(options: { capacity?: number; grow?: boolean } = {}) {
    const capacity = options.capacity ?? 4096;
    if (!Number.isInteger(capacity) || capacity < 16 || capacity > 1 << 28) {
      throw new HitcoreError("INVALID_OPTION", `DrawStream: capacity must be a whole number of floats from 16 to 2^28, got ${describe(capacity)}.`);
    }
    this.data = new Float32Array(capacity);
    this.growable = options.grow ?? true;
  }

  /** Empties the stream (keeps its room). */
  clear(): void {
    this.polygonLeft = 0;
    this.length = 0;
    this.count = 0;
    this.dropped = 0;
  }

  /** The layer (DrawLayer.*), colour (0xRRGGBB) and alpha of the commands written next. */
  setStyle(layer: number, colour: number, alpha: number): void {
    this.style[0] = layer;
    this.style[1] = colour;
    this.style[2] = alpha;
  }

  /** A line from (x0, y0) to (x1, y1) in the current style. */
  line(x0: number, y0: number, x1: number, y1: number): void {
    const at = this.open(DrawOp.Line, DRAW_HEADER + 4);
    if (at < 0) return;
    const d = this.data;
    d[at + 4] = x0; d[at + 5] = y0; d[at + 6] = x1; d[at + 7] = y1;
  }

  /** A rect (top-left x, y, size w by h), outlined or filled. */
  rect(x: number, y: number, w: number, h: number, fill: boolean): void {
    const at = this.open(fill ? DrawOp.FillRect : DrawOp.Rect, DRAW_HEADER + 4);
    if (at < 0) return;
    const d = this.data;
    d[at + 4] = x; d[at + 5] = y; d[at + 6] = w; d[at + 7] = h;
  }

  /** A circle (centre x, y, radius r), outlined or filled. */
  circle(x: number, y: number, r: number, fill: boolean): void {
    const at = this.open(fill ? DrawOp.FillCircle : DrawOp.Circle, DRAW_HEADER + 3);
    if (at < 0) return;
    const d = this.data;
    d[at + 4] = x; d[at + 5] = y; d[at + 6] = r;
  }

  /** A point: a dot a few pixels wide whatever the zoom. */
  point(x: number, y: number): void {
    const at = this.open(DrawOp.Point, DRAW_HEADER + 2);
    if (at < 0) return;
    this.data[at + 4] = x;
    this.data[at + 5] = y;
  }

  /** Starts a closed polygon of n corners (outlined or filled): exactly n vertex() calls follow. */
  polygon(n: number, fill: boolean): void {
    if (!Number.isInteger(n) || n < 1 || n > 1 << 24) {
      throw new HitcoreError("INVALID_COUNT", `DrawStream.polygon: n must be a whole number of corners from 1 to 2^24, got ${describe(n)}.`);
    }
    const at = this.open(fill ? DrawOp.FillPolygon : DrawOp.Polygon, DRAW_HEADER + 1 + 2 * n);
    this.polygonAt = at < 0 ? -1 : at + DRAW_HEADER + 1;
    this.polygonLeft = n;
    if (at >= 0) this.data[at + DRAW_HEADER] = n;
  }

  /** The next corner of the polygon started last. */
  vertex(x: number, y: number): void {
    if (this.polygonLeft === 0) {
      throw new HitcoreError("INVALID_COUNT", "DrawStream.vertex: no polygon takes another corner. Start one with polygon(n, fill) and give it n corners.");
    }
    this.polygonLeft--;
    const at = this.polygonAt;
    if (at < 0) return;
    this.data[at] = x;
    this.data[at + 1] = y;
    this.polygonAt = at + 2;
  }

  /** Reserves a record of n floats with the current style; its start, or -1 when it was dropped. */
  private open(op: number, n: number): number {
    if (this.polygonLeft > 0) {
      throw new HitcoreError("INVALID_COUNT", `DrawStream: the polygon before still takes ${this.polygonLeft} vertex() calls. Give each polygon all its corners.`);
    }
    const at = this.length;
    if (this.dropped > 0 || at + n > this.data.length) {
      if (!this.growable || this.dropped > 0) {
        this.dropped++;
        return -1;
      }
      let cap = this.data.length * 2;
      while (cap < at + n) cap *= 2;
      const next = new Float32Array(cap);
      next.set(this.data.subarray(0, at));
      this.data = next;
    }
    const d = this.data, s = this.style;
    d[at] = op; d[at + 1] = s[0]; d[at + 2] = s[1]; d[at + 3] = s[2];
    this.length = at + n;
    this.count++;
    return at;
  }
}

// ---- the walker ---------------------------------------------------------------------------

// The view box (x0, y0, x1, y1) of the current call, and its clip box for unbounded polyhedra.
const VIEW = new Float64Array(4);
const CLIP = new Float64Array(4);
// The call's numeric options: layers, hit radius (-1: the platforms' maxRadius), normal length, body mask.
const OPTS = new Float64Array(4);
const O_LAYERS = 0, O_RADIUS = 1, O_TICK = 2, O_MASK = 3;
/** How far an unbounded polyhedron is drawn without a view box. */
const FAR = 1e6;
const ALPHA_LINE = 0.9, ALPHA_FILL = 0.35, ALPHA_FAINT = 0.2;
// Scratch: a grid's shape, a rect, sensors, a surface record, a polygon's faces and two clip buffers.
const SHAPE = new Float64Array(10);
const BOX = new Float64Array(4);
const SENSORS = new Float64Array(16);
const SURFACE = new Float64Array(16);
let faces = new Float64Array(3 * 16);
let clipA = new Float64Array(2 * 24);
let clipB = new Float64Array(2 * 24);
/** Segments of each quarter circle of an exact surface region's ends. */
const ARC_STEPS = 6;
const EMPTY_OPTIONS: DebugDrawOptions = {};

function on(layers: number, layer: number): boolean {
  return (layers & (1 << layer)) !== 0;
}

/** The call's `options.fills` (a small integer), and whether the shapes written now are filled instead of outlined: their layer is in it. */
let fillBits = 0;
let fillNow = false;

/** Sets the stream's style for the commands written next, and fillNow for their layer. */
function style(s: DrawStream, layer: number, colour: number, alpha: number): void {
  s.setStyle(layer, colour, alpha);
  fillNow = on(fillBits, layer);
}

function meets(x0: number, y0: number, x1: number, y1: number): boolean {
  return x1 >= VIEW[0] && x0 <= VIEW[2] && y1 >= VIEW[1] && y0 <= VIEW[3];
}

function colourOf(options: DebugDrawOptions, name: keyof DebugColours): number {
  const c = options.colours?.[name];
  return c === undefined ? DEFAULT_COLOURS[name] : c;
}

/** Writes every layer `options.layers` asks for of the world into the stream, VIEW set. */
function walk(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const layers = OPTS[O_LAYERS] | 0;
  if (on(layers, DrawLayer.Grid)) drawGrid(world, s, o);
  if (on(layers, DrawLayer.Tiles)) drawTiles(world, s, o);
  if (on(layers, DrawLayer.Quadtree)) drawQuadtree(world, s, o);
  if (on(layers, DrawLayer.Rects)) drawRects(world, s, o);
  if (on(layers, DrawLayer.MasterBoxes)) drawMasterBoxes(world, s, o);
  if (on(layers, DrawLayer.Polyhedra)) drawPolyhedra(world, s, o, false);
  if (on(layers, DrawLayer.HitRegions)) { drawSurfaceRegions(world, s, o); drawPolyhedra(world, s, o, true); }
  if (on(layers, DrawLayer.Surfaces)) drawSurfaces(world, s, o);
  if (on(layers, DrawLayer.Bodies)) drawBodies(world, s, o);
  if (on(layers, DrawLayer.Balls)) drawBalls(world, s, o);
  if (on(layers, DrawLayer.Characters)) drawCharacters(world, s, o);
  if (on(layers, DrawLayer.Sensors)) drawSensors(world, s, o);
  if (on(layers, DrawLayer.TileControllers) || on(layers, DrawLayer.CollisionPoints)) drawTileControllers(world, s, o, on(layers, DrawLayer.TileControllers), on(layers, DrawLayer.CollisionPoints));
  if (on(layers, DrawLayer.Casts)) drawCasts(world, s, o);
  if (on(layers, DrawLayer.Contacts)) drawContacts(world, s, o);
  if (on(layers, DrawLayer.Projectiles)) drawProjectiles(world, s, o);
  if (on(layers, DrawLayer.PointHits)) drawPointHits(world, s, o);
}

/** The grid's frame, then each cell in use (records in it), as the last pair query left them. */
function drawGrid(world: World, s: DrawStream, o: DebugDrawOptions): void {
  world.gridShapeInto(SHAPE);
  const cols = SHAPE[0], rows = SHAPE[1], cw = SHAPE[2], ch = SHAPE[3], ox = SHAPE[4], oy = SHAPE[5];
  if (cols <= 0 || rows <= 0 || !(cw > 0) || !(ch > 0)) return;
  style(s, DrawLayer.Grid, colourOf(o, "grid"), ALPHA_LINE);
  if (meets(ox, oy, ox + cols * cw, oy + rows * ch)) s.rect(ox, oy, cols * cw, rows * ch, fillNow);
  const cells = world.gridCells, pitch = cols + 1;
  const c0 = Math.max(0, Math.floor((VIEW[0] - ox) / cw)), c1 = Math.min(cols - 1, Math.floor((VIEW[2] - ox) / cw));
  const r0 = Math.max(0, Math.floor((VIEW[1] - oy) / ch)), r1 = Math.min(rows - 1, Math.floor((VIEW[3] - oy) / ch));
  if ((rows + 1) * pitch >= cells.length) return;
  style(s, DrawLayer.Grid, colourOf(o, "gridCell"), ALPHA_FAINT);
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const k = r * pitch + c, start = k === 0 ? 0 : cells[k];
      if (cells[k + 1] > start) s.rect(ox + c * cw, oy + r * ch, cw, ch, true);
    }
  }
}

/** Cells by kind (one pass per kind, so a renderer batches each), then the live monsters. */
function drawTiles(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const map = world.tileMap;
  if (!map) return;
  const T = map.tileSize, cols = map.cols, rows = map.rows, cells = map.cells;
  const c0 = Math.max(0, Math.floor(VIEW[0] / T)), c1 = Math.min(cols - 1, Math.floor(VIEW[2] / T));
  const r0 = Math.max(0, Math.floor(VIEW[1] / T)), r1 = Math.min(rows - 1, Math.floor(VIEW[3] / T));
  for (let pass = 0; pass < 5; pass++) {
    const flag = pass === 0 ? CELL_PLATFORM : pass === 1 ? CELL_ONE_WAY : pass === 2 ? CELL_LADDER : pass === 3 ? CELL_SPIKE : CELL_COIN;
    const name = pass === 0 ? "solid" : pass === 1 ? "oneWay" : pass === 2 ? "ladder" : pass === 3 ? "spike" : "coin";
    style(s, DrawLayer.Tiles, colourOf(o, name), ALPHA_LINE);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        if ((cells[r * cols + c] & flag) === 0) continue;
        const x = c * T, y = r * T;
        if (pass === 0) s.rect(x, y, T, T, true);
        else if (pass === 1) s.line(x, y, x + T, y); // a one-way cell blocks from above only: its top edge
        else if (pass === 2) s.rect(x + T / 4, y, T / 2, T, fillNow); // a ladder's rails
        else if (pass === 3) { s.polygon(3, true); s.vertex(x, y + T); s.vertex(x + T / 2, y); s.vertex(x + T, y + T); }
        else s.circle(x + T / 2, y + T / 2, T / 4, true);
      }
    }
  }
  const boxes = map.monsterBoxes, live = map.monsterLive;
  style(s, DrawLayer.Tiles, colourOf(o, "monster"), ALPHA_LINE);
  for (let m = 0, n = map.monsterCount; m < n; m++) {
    const x = boxes[4 * m], y = boxes[4 * m + 1], w = boxes[4 * m + 2], h = boxes[4 * m + 3];
    if (live[m] !== 0 && meets(x, y, x + w, y + h)) s.rect(x, y, w, h, fillNow);
  }
}

/** Quadtree nodes with instances in their subtree. */
function drawQuadtree(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const level = world.rectLevel;
  if (!level || level.instanceCount === 0) return;
  const n = level.nodeCount, boxes = level.nodeBoxes, counts = level.nodeCounts;
  style(s, DrawLayer.Quadtree, colourOf(o, "quadtree"), ALPHA_FILL);
  for (let k = 0; k < n; k++) {
    const x0 = boxes[4 * k], y0 = boxes[4 * k + 1], x1 = boxes[4 * k + 2], y1 = boxes[4 * k + 3];
    if (counts[k] > 0 && meets(x0, y0, x1, y1)) s.rect(x0, y0, x1 - x0, y1 - y0, fillNow);
  }
}

/** The prefab rects of each instance whose master box meets the view. */
function drawRects(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const level = world.rectLevel;
  if (!level) return;
  const boxes = level.instanceBoxes;
  style(s, DrawLayer.Rects, colourOf(o, "rect"), ALPHA_LINE);
  for (let i = 0, n = level.instanceCount; i < n; i++) {
    if (!meets(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3])) continue;
    for (let k = 0, m = level.rectCountAt(i); k < m; k++) {
      level.worldRectAt(i, k, BOX);
      if (meets(BOX[0], BOX[1], BOX[2], BOX[3])) s.rect(BOX[0], BOX[1], BOX[2] - BOX[0], BOX[3] - BOX[1], true);
    }
  }
}

function drawMasterBoxes(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const level = world.rectLevel;
  if (!level) return;
  const boxes = level.instanceBoxes;
  style(s, DrawLayer.MasterBoxes, colourOf(o, "masterBox"), ALPHA_FAINT);
  for (let i = 0, n = level.instanceCount; i < n; i++) {
    const x0 = boxes[4 * i], y0 = boxes[4 * i + 1], x1 = boxes[4 * i + 2], y1 = boxes[4 * i + 3];
    if (meets(x0, y0, x1, y1)) s.rect(x0, y0, x1 - x0, y1 - y0, fillNow);
  }
}

/**
 * Each polyhedron filled (regions false), or the region where a ball centre of radius `hitRadius`
 * touches it, outlined (regions true): its faces moved out by the radius, mitred at the corners,
 * as the polyhedra tutorial tests a point against it. A polyhedron made from a polygon is drawn
 * from its corners; one given as halfspaces is clipped to the view box.
 */
function drawPolyhedra(world: World, s: DrawStream, o: DebugDrawOptions, regions: boolean): void {
  const p = world.platforms;
  if (!p) return;
  const R = !regions ? 0 : OPTS[O_RADIUS] >= 0 ? OPTS[O_RADIUS] : p.maxRadius;
  style(s, regions ? DrawLayer.HitRegions : DrawLayer.Polyhedra, colourOf(o, regions ? "hitRegion" : "polyhedron"), ALPHA_LINE);
  for (let k = 0, n = p.polyhedronCount; k < n; k++) {
    const nf = p.faceCountAt(k);
    if (faces.length < 3 * nf) faces = new Float64Array(3 * nf * 2);
    p.halfspacesAt(k, faces);
    const v = p.verticesAt(k);
    if (v !== null) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i < v.length; i += 2) {
        if (v[i] < x0) x0 = v[i];
        if (v[i] > x1) x1 = v[i];
        if (v[i + 1] < y0) y0 = v[i + 1];
        if (v[i + 1] > y1) y1 = v[i + 1];
      }
      if (!meets(x0 - 2 * R, y0 - 2 * R, x1 + 2 * R, y1 + 2 * R)) continue;
      s.polygon(nf, !regions || fillNow);
      for (let i = 0; i < nf; i++) {
        // Corner i joins faces i - 1 and i, both moved out by R: the mitred corner.
        const a = i === 0 ? nf - 1 : i - 1;
        const ax = faces[3 * a], ay = faces[3 * a + 1], bx = faces[3 * i], by = faces[3 * i + 1];
        const m = R / (1 + ax * bx + ay * by);
        s.vertex(v[2 * i] + m * (ax + bx), v[2 * i + 1] + m * (ay + by));
      }
    } else {
      const m = clipFaces(nf, R);
      if (m < 3) continue;
      s.polygon(m, !regions || fillNow);
      for (let i = 0; i < m; i++) s.vertex(clipA[2 * i], clipA[2 * i + 1]);
    }
  }
}

/** The CLIP box cut by faces[0 .. nf) moved out by R (Sutherland-Hodgman), corners into clipA; returns their number. */
function clipFaces(nf: number, R: number): number {
  if (clipA.length < 2 * (4 + nf)) { clipA = new Float64Array(4 * (4 + nf)); clipB = new Float64Array(4 * (4 + nf)); }
  let a = clipA, b = clipB;
  a[0] = CLIP[0]; a[1] = CLIP[1]; a[2] = CLIP[2]; a[3] = CLIP[1]; a[4] = CLIP[2]; a[5] = CLIP[3]; a[6] = CLIP[0]; a[7] = CLIP[3];
  let n = 4;
  for (let f = 0; f < nf && n > 0; f++) {
    const nx = faces[3 * f], ny = faces[3 * f + 1], off = faces[3 * f + 2] + R;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const px = a[2 * i], py = a[2 * i + 1], qx = a[2 * j], qy = a[2 * j + 1];
      const dp = nx * px + ny * py - off, dq = nx * qx + ny * qy - off;
      if (dp <= 0) { b[2 * m] = px; b[2 * m + 1] = py; m++; }
      if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
        const t = dp / (dp - dq);
        b[2 * m] = px + t * (qx - px); b[2 * m + 1] = py + t * (qy - py); m++;
      }
    }
    const swap = a; a = b; b = swap;
    n = m;
  }
  if (a !== clipA) for (let i = 0; i < 2 * n; i++) clipA[i] = a[i];
  return n;
}

/**
 * Each surface's hit region for a ball of radius `hitRadius` (outlined): the seed's trapezium (the
 * band of that depth in front of the surface, cut at 45 degrees at the ends), or with
 * `platforms.exact` the band with rounded ends (quarter circles in ARC_STEPS segments each).
 */
function drawSurfaceRegions(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const p = world.platforms;
  if (!p) return;
  const R = OPTS[O_RADIUS] >= 0 ? OPTS[O_RADIUS] : p.maxRadius, exact = p.exact;
  style(s, DrawLayer.HitRegions, colourOf(o, "hitRegion"), ALPHA_LINE);
  for (let k = 0, n = p.surfaceCount; k < n; k++) {
    p.surfaceAt(k, SURFACE);
    const nx = SURFACE[0], ny = SURFACE[1], x0 = SURFACE[9], y0 = SURFACE[10], x1 = SURFACE[11], y1 = SURFACE[12];
    if (!meets(Math.min(x0, x1) - R, Math.min(y0, y1) - R, Math.max(x0, x1) + R, Math.max(y0, y1) + R)) continue;
    const len = Math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)), tx = (x1 - x0) / len, ty = (y1 - y0) / len;
    if (!exact) {
      s.polygon(4, fillNow);
      s.vertex(x0 - R * tx, y0 - R * ty);
      s.vertex(x1 + R * tx, y1 + R * ty);
      s.vertex(x1 + R * nx, y1 + R * ny);
      s.vertex(x0 + R * nx, y0 + R * ny);
      continue;
    }
    // p0, p1, then the quarter circle about p1 from t to n, and the one about p0 from n to -t.
    s.polygon(2 * ARC_STEPS + 4, fillNow);
    s.vertex(x0, y0);
    s.vertex(x1, y1);
    for (let i = 0; i <= ARC_STEPS; i++) {
      const a = (i / ARC_STEPS) * (Math.PI / 2), c = Math.cos(a), d = Math.sin(a);
      s.vertex(x1 + R * (c * tx + d * nx), y1 + R * (c * ty + d * ny));
    }
    for (let i = 0; i <= ARC_STEPS; i++) {
      const a = (i / ARC_STEPS) * (Math.PI / 2), c = Math.cos(a), d = Math.sin(a);
      s.vertex(x0 + R * (c * nx - d * tx), y0 + R * (c * ny - d * ty));
    }
  }
}

/** Each surface, and a tick from its middle along its normal (the side it is met from). */
function drawSurfaces(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const p = world.platforms;
  if (!p) return;
  const tick = OPTS[O_TICK];
  style(s, DrawLayer.Surfaces, colourOf(o, "surface"), ALPHA_LINE);
  for (let k = 0, n = p.surfaceCount; k < n; k++) {
    p.surfaceAt(k, SURFACE);
    const nx = SURFACE[0], ny = SURFACE[1], x0 = SURFACE[9], y0 = SURFACE[10], x1 = SURFACE[11], y1 = SURFACE[12];
    if (!meets(Math.min(x0, x1) - tick, Math.min(y0, y1) - tick, Math.max(x0, x1) + tick, Math.max(y0, y1) + tick)) continue;
    const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    s.line(x0, y0, x1, y1);
    s.line(mx, my, mx + tick * nx, my + tick * ny);
  }
}

/** Every live body in `mask`: a point, a circle or a rect, in the colour of its lowest group bit. */
function drawBodies(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const x = world.x, y = world.y, a = world.a, b = world.b, kinds = world.kinds, groups = world.groups;
  const mask = OPTS[O_MASK], palette = o.groupColours ?? DEFAULT_GROUP_COLOURS, np = palette.length;
  let current = -1;
  for (let k = 0, n = world.count; k < n; k++) {
    const kind = kinds[k], g = groups[k] & mask;
    if (kind === KIND_NONE || g === 0) continue;
    const px = x[k], py = y[k];
    let x0 = px, y0 = py, x1 = px, y1 = py;
    if (kind === KIND_CIRCLE) { x0 -= a[k]; y0 -= a[k]; x1 += a[k]; y1 += a[k]; }
    else if (kind === KIND_RECT) { x1 += a[k]; y1 += b[k]; }
    if (!meets(x0, y0, x1, y1)) continue;
    const all = groups[k], bit = 31 - Math.clz32(all & -all);
    if (bit !== current) {
      current = bit;
      style(s, DrawLayer.Bodies, np > 0 ? palette[bit % np] : 0xffffff, ALPHA_LINE);
    }
    if (kind === KIND_POINT) s.point(px, py);
    else if (kind === KIND_CIRCLE) s.circle(px, py, a[k], fillNow);
    else s.rect(px, py, a[k], b[k], fillNow);
  }
}

function drawBalls(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const p = world.platforms;
  if (!p) return;
  const x = p.x, y = p.y, r = p.radius;
  style(s, DrawLayer.Balls, colourOf(o, "ball"), ALPHA_LINE);
  for (let k = 0, n = p.ballCount; k < n; k++) {
    if (meets(x[k] - r[k], y[k] - r[k], x[k] + r[k], y[k] + r[k])) s.circle(x[k], y[k], r[k], fillNow);
  }
}

function drawCharacters(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const level = world.rectLevel;
  if (!level) return;
  const kinds = level.charKind, x = level.charX, y = level.charY, w = level.charW, h = level.charH;
  for (let pass = 1; pass <= 2; pass++) {
    style(s, DrawLayer.Characters, colourOf(o, pass === 1 ? "player" : "enemy"), ALPHA_LINE);
    for (let c = 0, n = level.characterCount; c < n; c++) {
      if (kinds[c] === pass && meets(x[c], y[c], x[c] + w[c], y[c] + h[c])) s.rect(x[c], y[c], w[c], h[c], fillNow);
    }
  }
}

/** The four sensors of every character (one pass per side, each in its colour). */
function drawSensors(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const level = world.rectLevel;
  if (!level) return;
  const kinds = level.charKind;
  for (let side = 0; side < 4; side++) {
    style(s, DrawLayer.Sensors, colourOf(o, side === 0 ? "sensorTop" : side === 1 ? "sensorBottom" : side === 2 ? "sensorLeft" : "sensorRight"), ALPHA_LINE);
    for (let c = 0, n = level.characterCount; c < n; c++) {
      if (kinds[c] === 0) continue;
      level.sensorsInto(c, SENSORS);
      const x0 = SENSORS[4 * side], y0 = SENSORS[4 * side + 1], x1 = SENSORS[4 * side + 2], y1 = SENSORS[4 * side + 3];
      if (meets(x0, y0, x1, y1)) s.rect(x0, y0, x1 - x0, y1 - y0, fillNow);
    }
  }
}

/** Each live tile controller's box (origin at the middle of its bottom edge) and its collision points. */
function drawTileControllers(world: World, s: DrawStream, o: DebugDrawOptions, boxes: boolean, points: boolean): void {
  const map = world.tileMap;
  if (!map) return;
  const F = map.controllerReals, I = map.controllerInts, w = map.controllerWidth, h = map.controllerHeight;
  const offsets = map.pointOffsets, np = map.pointsPerEntity;
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 0 ? !boxes : !points) continue;
    style(s, pass === 0 ? DrawLayer.TileControllers : DrawLayer.CollisionPoints, colourOf(o, pass === 0 ? "tileController" : "collisionPoint"), ALPHA_LINE);
    for (let c = 0, n = map.controllerCount; c < n; c++) {
      if ((I[CTL_I_FIELDS * c + CI_STATE] & ST_LIVE) === 0) continue;
      const x = F[CTL_F_FIELDS * c + CF_X], y = F[CTL_F_FIELDS * c + CF_Y];
      if (!meets(x - w, y - h - w, x + w, y + w)) continue;
      if (pass === 0) s.rect(x - w / 2, y - h, w, h, fillNow);
      else for (let p = 0; p < np; p++) s.point(x + offsets[2 * p], y + offsets[2 * p + 1]);
    }
  }
}

const PART_LAST = Part.Polyhedra;

/** The colour of a cast's shape where it stopped: by the Part it hit, castMiss for Part.None. */
function hitColour(part: number): keyof DebugColours {
  return part === Part.Tiles ? "hitTiles" : part === Part.Rects ? "hitRects" : part === Part.Surfaces ? "hitSurfaces" : part === Part.Polyhedra ? "hitPolyhedra" : "castMiss";
}

/** The cast's shape (Sweep.*: a point, a circle of radius a, a box of half extents a, b) at (x, y). */
function castShape(s: DrawStream, sweep: number, x: number, y: number, a: number, b: number): void {
  if (sweep === Sweep.Circle) s.circle(x, y, a, fillNow);
  else if (sweep === Sweep.Box) s.rect(x - a, y - b, 2 * a, 2 * b, fillNow);
  else s.point(x, y);
}

/**
 * The last single cast: its path, its shape at the start, and at the contact (or the end) in the
 * hit or miss colour with the hit normal; then each cast of the last castMany the same way.
 */
function drawCasts(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const tick = OPTS[O_TICK], last = world.lastCast, hit = world.hit;
  if (last[0] >= 0) {
    const sweep = last[0], x = last[1], y = last[2], dx = last[3], dy = last[4], a = last[5], b = last[6];
    const t = hit.t, ex = x + t * dx, ey = y + t * dy, hitSomething = hit.part !== Part.None;
    style(s, DrawLayer.Casts, colourOf(o, "cast"), ALPHA_FILL);
    s.line(x, y, x + dx, y + dy);
    castShape(s, sweep, x, y, a, b);
    style(s, DrawLayer.Casts, colourOf(o, hitColour(hit.part)), ALPHA_LINE);
    castShape(s, sweep, ex, ey, a, b);
    if (hitSomething) {
      style(s, DrawLayer.Casts, colourOf(o, "normal"), ALPHA_LINE);
      s.line(ex, ey, ex + tick * hit.nx, ey + tick * hit.ny);
    }
  }
  const n = world.lastCastMany;
  if (n === 0) return;
  const sweep = world.lastCastManySweep, input = world.castInputs, ints = world.castHitInts, reals = world.castHitReals;
  // The paths, then the shapes by what stopped them (pass p: Part p, Part.None the misses), each pass one colour.
  for (let pass = -1; pass <= PART_LAST; pass++) {
    style(s, DrawLayer.Casts, colourOf(o, pass < 0 ? "cast" : hitColour(pass)), pass < 0 ? ALPHA_FAINT : ALPHA_LINE);
    for (let k = 0; k < n; k++) {
      if (pass >= 0 && ints[3 * k] !== pass) continue;
      const x = input[6 * k], y = input[6 * k + 1], dx = input[6 * k + 2], dy = input[6 * k + 3], t = reals[3 * k];
      const ex = x + t * dx, ey = y + t * dy;
      if (!meets(Math.min(x, ex) - input[6 * k + 4], Math.min(y, ey) - input[6 * k + 5], Math.max(x, ex) + input[6 * k + 4], Math.max(y, ey) + input[6 * k + 5])) continue;
      if (pass < 0) s.line(x, y, ex, ey);
      else castShape(s, sweep, ex, ey, input[6 * k + 4], input[6 * k + 5]);
    }
  }
  style(s, DrawLayer.Casts, colourOf(o, "normal"), ALPHA_LINE);
  for (let k = 0; k < n; k++) {
    if (ints[3 * k] === Part.None) continue;
    const t = reals[3 * k], ex = input[6 * k] + t * input[6 * k + 2], ey = input[6 * k + 1] + t * input[6 * k + 3];
    if (meets(ex - tick, ey - tick, ex + tick, ey + tick)) s.line(ex, ey, ex + tick * reals[3 * k + 1], ey + tick * reals[3 * k + 2]);
  }
}

/** A line from each controller's centre to the centre of each body it touched, by ContactType. */
function drawContacts(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const n = world.contactCount;
  if (n === 0) return;
  const rec = world.contacts, x = world.x, y = world.y, a = world.a, b = world.b, kinds = world.kinds;
  for (let pass = 0; pass < 3; pass++) {
    const type = pass === 0 ? CONTACT_STOMP : pass === 1 ? CONTACT_HURT : CONTACT_PICK_UP;
    style(s, DrawLayer.Contacts, colourOf(o, pass === 0 ? "stomp" : pass === 1 ? "hurt" : "pickUp"), ALPHA_LINE);
    for (let k = 0; k < n; k++) {
      const r = CONTACT_FIELDS * k, t = rec[r + 3];
      if (t !== type) continue;
      const kind = rec[r], index = rec[r + 1], slot = rec[r + 2];
      const bx = kinds[slot] === KIND_RECT ? x[slot] + a[slot] / 2 : x[slot], by = kinds[slot] === KIND_RECT ? y[slot] + b[slot] / 2 : y[slot];
      let cx = 0, cy = 0;
      if (kind === CONTROLLER_BALL) {
        const p = world.platforms!;
        cx = p.x[index]; cy = p.y[index];
      } else if (kind === CONTROLLER_CHARACTER) {
        const l = world.rectLevel!;
        cx = l.charX[index] + l.charW[index] / 2; cy = l.charY[index] + l.charH[index] / 2;
      } else {
        const m = world.tileMap!, F = m.controllerReals;
        cx = F[CTL_F_FIELDS * index + CF_X]; cy = F[CTL_F_FIELDS * index + CF_Y] - m.controllerHeight / 2;
      }
      if (meets(Math.min(cx, bx), Math.min(cy, by), Math.max(cx, bx), Math.max(cy, by))) s.line(cx, cy, bx, by);
    }
  }
}

/** Projectiles [0, n) of the last moveProjectiles(n): a circle, or a point where the radius is 0. */
function drawProjectiles(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const level = world.rectLevel;
  if (!level) return;
  const n = level.lastProjectiles;
  if (n === 0) return;
  const x = level.projX, y = level.projY, r = level.projR;
  style(s, DrawLayer.Projectiles, colourOf(o, "projectile"), ALPHA_LINE);
  for (let k = 0; k < n; k++) {
    if (!meets(x[k] - r[k], y[k] - r[k], x[k] + r[k], y[k] + r[k])) continue;
    if (r[k] > 0) s.circle(x[k], y[k], r[k], fillNow);
    else s.point(x[k], y[k]);
  }
}

/** The TileHit bits that pick each point colour, in the order they win, and the colours (the last: none of them). */
const POINT_HITS = [HIT_MONSTER, HIT_SPIKE, HIT_COIN, HIT_BLOCKED | HIT_ONE_WAY, HIT_LADDER, 0];
const POINT_COLOURS = ["pointMonster", "pointSpike", "pointCoin", "pointBlocked", "pointLadder", "pointFree"] as const;

/**
 * The points of the last collidePoints(n): entity e's origin plus each offset, in the colour of
 * the first of POINT_HITS its hits hold (pointFree for none). One pass per colour.
 */
function drawPointHits(world: World, s: DrawStream, o: DebugDrawOptions): void {
  const map = world.tileMap;
  if (!map) return;
  const n = map.lastCollidePoints, np = map.pointsPerEntity;
  if (n === 0 || np === 0) return;
  const xs = map.entityX, ys = map.entityY, offsets = map.pointOffsets, hits = map.pointHits;
  for (let pass = 0; pass < POINT_HITS.length; pass++) {
    style(s, DrawLayer.PointHits, colourOf(o, POINT_COLOURS[pass]), ALPHA_LINE);
    for (let e = 0; e < n; e++) {
      for (let p = 0; p < np; p++) {
        const h = hits[e * np + p];
        let first = POINT_HITS.length - 1;
        for (let k = 0; k < POINT_HITS.length - 1; k++) if ((h & POINT_HITS[k]) !== 0) { first = k; break; }
        if (first !== pass) continue;
        const x = xs[e] + offsets[2 * p], y = ys[e] + offsets[2 * p + 1];
        if (meets(x, y, x, y)) s.point(x, y);
      }
    }
  }
}

// ---- the targets ---------------------------------------------------------------------------

/** The stream the canvas target walks into, one per context. */
const canvasStreams = new WeakMap<object, DrawStream>();

/**
 * Draws every part of the world (every layer `options.layers` asks for) into a DrawStream, which
 * it empties first unless `options.clear` is false, or onto a Canvas 2D context through
 * `options.camera`. Culls to `options.view` (for a canvas, by default what the camera shows).
 * Returns the commands drawn. Allocates nothing once the stream has grown to the frame's size.
 */
export function debugDraw(world: World, target: DrawStream | DebugCanvas, options: DebugDrawOptions = EMPTY_OPTIONS): number {
  checkOptions(target, options);
  const view = options.view;
  if (view !== undefined) {
    VIEW[0] = view.x; VIEW[1] = view.y; VIEW[2] = view.x + view.width; VIEW[3] = view.y + view.height;
  } else if (!(target instanceof DrawStream) && target.canvas !== undefined) {
    const cam = options.camera;
    VIEW[0] = cam === undefined || cam.x === undefined ? 0 : cam.x;
    VIEW[1] = cam === undefined || cam.y === undefined ? 0 : cam.y;
    VIEW[2] = cam === undefined || cam.scale === undefined ? 1 : cam.scale; // the scale, until the next two lines
    VIEW[3] = VIEW[1] + target.canvas.height / VIEW[2];
    VIEW[2] = VIEW[0] + target.canvas.width / VIEW[2];
  } else {
    VIEW[0] = -Infinity; VIEW[1] = -Infinity; VIEW[2] = Infinity; VIEW[3] = Infinity;
  }
  // Numbers of the options, each stored straight into a Float64Array (a phi of a double and a constant is boxed).
  OPTS[O_LAYERS] = options.layers === undefined ? ALL_LAYERS : options.layers;
  OPTS[O_RADIUS] = options.hitRadius === undefined ? -1 : options.hitRadius;
  OPTS[O_TICK] = options.normalLength === undefined ? 8 : options.normalLength;
  OPTS[O_MASK] = options.mask === undefined ? 0xffffffff : options.mask;
  fillBits = options.fills === undefined ? 0 : options.fills | 0;
  CLIP[0] = Math.max(VIEW[0], -FAR); CLIP[1] = Math.max(VIEW[1], -FAR); CLIP[2] = Math.min(VIEW[2], FAR); CLIP[3] = Math.min(VIEW[3], FAR);
  if (target instanceof DrawStream) {
    const before = target.count;
    if (options.clear !== false) target.clear();
    walk(world, target, options);
    return options.clear !== false ? target.count : target.count - before;
  }
  let stream = canvasStreams.get(target);
  if (stream === undefined) canvasStreams.set(target, (stream = new DrawStream({ capacity: 1 << 14 })));
  stream.clear();
  walk(world, stream, options);
  drawStream(stream, target, options.camera);
  return stream.count;
}

/** Refuses a target that is neither a DrawStream nor a 2D context, and options debugDraw cannot use (reads each field once, in place: nothing allocated). */
function checkOptions(target: DrawStream | DebugCanvas, o: DebugDrawOptions): void {
  if (!(target instanceof DrawStream) && (target === null || typeof target !== "object" || typeof (target as DebugCanvas).beginPath !== "function")) {
    throw new HitcoreError("INVALID_ARGUMENT", `debugDraw: target must be a DrawStream or a Canvas 2D context (canvas.getContext("2d")), got ${describe(target)}.`);
  }
  if (o === null || typeof o !== "object") throw new HitcoreError("INVALID_OPTION", `debugDraw: options must be an object, got ${describe(o)}.`);
  const layers = o.layers, fills = o.fills, mask = o.mask, radius = o.hitRadius, tick = o.normalLength;
  if (layers !== undefined && !(Number.isInteger(layers) && layers >= 0 && layers <= ALL_LAYERS)) {
    throw new HitcoreError("INVALID_OPTION", `debugDraw: layers must be bits 1 << DrawLayer.* (0 to ALL_LAYERS), got ${describe(layers)}.`);
  }
  if (fills !== undefined && !(Number.isInteger(fills) && fills >= 0 && fills <= ALL_LAYERS)) {
    throw new HitcoreError("INVALID_OPTION", `debugDraw: fills must be bits 1 << DrawLayer.* (0 to ALL_LAYERS), got ${describe(fills)}.`);
  }
  if (mask !== undefined && !(Number.isInteger(mask) && mask >= 0 && mask <= 0xffffffff)) {
    throw new HitcoreError("INVALID_OPTION", `debugDraw: mask must be group bits below 2^32, got ${describe(mask)}.`);
  }
  if (radius !== undefined && !(radius >= 0 && radius <= MAX_COORD)) throw new HitcoreError("INVALID_OPTION", `debugDraw: hitRadius must be a number from 0 to ${MAX_COORD}, got ${describe(radius)}.`);
  if (tick !== undefined && !(tick >= 0 && tick <= MAX_COORD)) throw new HitcoreError("INVALID_OPTION", `debugDraw: normalLength must be a number from 0 to ${MAX_COORD}, got ${describe(tick)}.`);
  const cam = o.camera, view = o.view;
  if (cam !== undefined) {
    const x = cam.x, y = cam.y, scale = cam.scale;
    if ((x !== undefined && !(Math.abs(x) <= MAX_COORD)) || (y !== undefined && !(Math.abs(y) <= MAX_COORD)) || (scale !== undefined && !(scale > 0 && scale <= MAX_COORD))) {
      throw new HitcoreError("INVALID_OPTION", `debugDraw: camera must be { x, y, scale } with finite x and y and a scale above 0, got x ${describe(x)}, y ${describe(y)}, scale ${describe(scale)}.`);
    }
  }
  if (view !== undefined) {
    const x = view.x, y = view.y, w = view.width, h = view.height;
    if (!(Math.abs(x) <= MAX_COORD) || !(Math.abs(y) <= MAX_COORD) || !(w >= 0 && w <= MAX_COORD) || !(h >= 0 && h <= MAX_COORD)) {
      throw new HitcoreError("INVALID_OPTION", `debugDraw: view must be { x, y, width, height } of finite numbers, sizes >= 0, got x ${describe(x)}, y ${describe(y)}, width ${describe(w)}, height ${describe(h)}.`);
    }
  }
}

// CSS colours made once each: style k is 0xRRGGBB << 8 | alpha in 1/255ths (an i32) in
// cssKeys[k], its string in cssStrings[k]; the last found is tried first.
let cssKeys = new Int32Array(64);
const cssStrings: string[] = [];
let cssLast = 0;

/** The CSS colour of 0xRRGGBB `rgb` at alpha a / 255 (integers: a double passed to a call V8 does not inline is boxed). */
function css(rgb: number, a: number): string {
  const key = (rgb << 8) | a, n = cssStrings.length;
  if (cssLast < n && cssKeys[cssLast] === key) return cssStrings[cssLast];
  let k = 0;
  while (k < n && cssKeys[k] !== key) k++;
  if (k === n) {
    if (n === cssKeys.length) {
      const grown = new Int32Array(2 * n);
      grown.set(cssKeys);
      cssKeys = grown;
    }
    cssKeys[n] = key;
    cssStrings.push(`rgba(${(rgb >> 16) & 255}, ${(rgb >> 8) & 255}, ${rgb & 255}, ${(a / 255).toFixed(3)})`);
  }
  cssLast = k;
  return cssStrings[k];
}

/**
 * Replays a stream onto a Canvas 2D context through a camera (screen = (world - (x, y)) * scale):
 * each run of commands of one colour and alpha as one path, stroked 1 pixel wide (Line, Rect,
 * Circle, Polygon) or filled (FillRect, FillCircle, FillPolygon, and Point as a 3-pixel square).
 * Restores the context's state after.
 */
export function drawStream(stream: DrawStream, ctx: DebugCanvas, camera?: DebugCamera): void {
  const d = stream.data, end = stream.length;
  // Read as numbers on every path: a phi of a field's double and a constant would be boxed.
  let ox = 0, oy = 0, k = 1;
  if (camera !== undefined) {
    if (camera.x !== undefined) ox = +camera.x;
    if (camera.y !== undefined) oy = +camera.y;
    if (camera.scale !== undefined) k = +camera.scale;
  }
  let whole = 0;
  while (whole < end) whole += recordLength(d, whole); // checks every record before drawing any
  if (whole !== end) {
    throw new HitcoreError("INVALID_BUFFER", `drawStream: the last record runs past the stream's length (${end}). Pass a stream debugDraw or the DrawStream methods wrote.`);
  }
  ctx.save();
  ctx.lineWidth = 1;
  // The open path: 0 none, 1 stroked, 2 filled; its colour and alpha. One call site per context
  // method keeps them all inlinable (a double passed to a call V8 does not inline is boxed).
  let open = 0, colour = -1, alpha = -1;
  for (let at = 0; at < end;) {
    const op = d[at], fill = op === DrawOp.FillRect || op === DrawOp.FillCircle || op === DrawOp.FillPolygon || op === DrawOp.Point ? 2 : 1;
    const restyle = fill !== open || d[at + 2] !== colour || d[at + 3] !== alpha;
    if (restyle) {
      if (open === 1) ctx.stroke();
      else if (open === 2) ctx.fill();
      open = fill;
      colour = d[at + 2];
      alpha = d[at + 3];
      const rgb = colour & 0xffffff, a = alpha >= 1 ? 255 : alpha > 0 ? (alpha * 255 + 0.5) | 0 : 0;
      if (fill === 1) ctx.strokeStyle = css(rgb, a);
      else ctx.fillStyle = css(rgb, a);
      ctx.beginPath();
    }
    const p = at + DRAW_HEADER;
    if (op === DrawOp.Rect || op === DrawOp.FillRect || op === DrawOp.Point) {
      const point = op === DrawOp.Point;
      ctx.rect((d[p] - ox) * k - (point ? 1.5 : 0), (d[p + 1] - oy) * k - (point ? 1.5 : 0), point ? 3 : d[p + 2] * k, point ? 3 : d[p + 3] * k);
      at = p + (point ? 2 : 4);
      continue;
    }
    // A line, a circle or a polygon: a moveTo, then an arc or lineTos.
    const circle = op === DrawOp.Circle || op === DrawOp.FillCircle, polygon = op === DrawOp.Polygon || op === DrawOp.FillPolygon;
    const n = polygon ? d[p] : 2, q = polygon ? p + 1 : p;
    const x = (d[q] - ox) * k, y = (d[q + 1] - oy) * k, r = circle ? d[p + 2] * k : 0;
    ctx.moveTo(x + r, y); // a circle's start on its rim keeps the circles of one path apart
    if (circle) {
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      at = p + 3;
      continue;
    }
    for (let i = 1; i < n; i++) ctx.lineTo((d[q + 2 * i] - ox) * k, (d[q + 2 * i + 1] - oy) * k);
    if (polygon) ctx.closePath();
    at = q + 2 * n;
  }
  if (open === 1) ctx.stroke();
  else if (open === 2) ctx.fill();
  ctx.restore();
}
