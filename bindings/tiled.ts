// Tiled JSON maps (https://doc.mapeditor.org/en/stable/reference/json-map-format/), the level editor
// the tower seed recommends. Pure TS, run once at load time:
//   - tile layers (also inside group layers) become cell flags, OR'd over all tile layers (or only
//     the layers named in `tileLayers`). A tile's meaning comes from its tileset properties: boolean
//     `platform`, `ladder`, `coin`, `oneWay`, `spike`, or an int `monster` (the monster type); or a
//     tile `type`/`class` naming one of those. Tiles without such a property are decoration.
//   - object layers become plain typed data for the other stores: rectangles as a Float32Array of
//     (x, y, w, h) and polygons as Float32Arrays of (x, y) vertices, with names and properties.
// Everything is converted to the tile map's world: y-up with the origin at the map's bottom-left
// corner, in Tiled's pixels (one tile = tilewidth). Polygons are made counter-clockwise in y-up.
// The file may be hostile: every pass is linear in its size, nothing recurses as deep as the file
// nests (group layers are walked with an explicit stack), properties land in objects without a
// prototype, every declared size is checked against the budget before anything is allocated for
// it, and every refusal is a HitcoreError naming the field by its JSON path.
import { MAX_MAP_CELLS, type ParsedTileMap } from "./ascii_map.js";
import { base64Length, decodeBase64Into } from "./base64.js";
import { CELL_COIN, CELL_LADDER, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE } from "../layout/tiles.js";
import { HitcoreError } from "./validate.js";

/** A Tiled object's name, class (`type` before Tiled 1.9), layer and custom properties. */
export interface TiledObjectInfo {
  id: number;
  name: string;
  type: string;
  layer: string;
  /** Custom properties by name, in an object without a prototype (a property may be named `__proto__`). */
  properties: Record<string, unknown>;
}

/** A polygon object: vertices (x0, y0, x1, y1, ...) in world units, y-up, counter-clockwise. */
export interface TiledPolygon extends TiledObjectInfo {
  vertices: Float32Array;
}

export interface TiledMap extends ParsedTileMap {
  tileSize: number;
  /** Rectangle objects as (x, y, w, h) per rectangle: min corner, y-up. */
  rects: Float32Array;
  /** rectInfo[k] describes rectangle k. */
  rectInfo: TiledObjectInfo[];
  polygons: TiledPolygon[];
}

export interface TiledOptions {
  /** Only these tile layers give cells (default: every tile layer). */
  tileLayers?: readonly string[];
  /** The most cells the map may declare (default and upper bound MAX_MAP_CELLS, 2^26). */
  maxCells?: number;
}

const FLIP_MASK = 0x0fffffff; // gid bits 28-31 are flip/rotation flags
const BOOL_FLAGS: Record<string, number> = { platform: CELL_PLATFORM, ladder: CELL_LADDER, coin: CELL_COIN, oneWay: CELL_ONE_WAY, spike: CELL_SPIKE };
/** Monster spawns a map may hold (each is a (col, row, type) triple). */
const MAX_SPAWNS = 1 << 20;

function fail(message: string): never {
  throw new HitcoreError("MALFORMED_MAP", `Tiled map: ${message}`);
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A value as a message shows it: short, whatever the file put there. */
function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null || typeof v !== "object") return String(v);
  return "an object";
}

function positiveInt(o: Json, field: string, where: string): number {
  const v = o[field];
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) fail(`${where}.${field} must be a positive integer, got ${show(v)}.`);
  return v;
}

function finite(o: Json, field: string, where: string, fallback?: number): number {
  const v = o[field] ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v)) fail(`${where}.${field} must be a finite number, got ${show(o[field])}.`);
  return v;
}

/**
 * A JSON value copied with every object made prototype-less, so no key (`__proto__` included)
 * can reach a prototype. An explicit stack: the value may nest as deep as the file likes.
 */
function plainCopy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const root: { v: unknown } = { v: undefined };
  const stack: [unknown, Record<string, unknown> | unknown[], string | number][] = [[value, root as unknown as Record<string, unknown>, "v"]];
  while (stack.length > 0) {
    const [from, into, key] = stack.pop()!;
    if (typeof from !== "object" || from === null) {
      (into as Record<string, unknown>)[key] = from;
      continue;
    }
    if (Array.isArray(from)) {
      const copy: unknown[] = new Array(from.length);
      defineOwn(into, key, copy);
      for (let i = 0; i < from.length; i++) stack.push([from[i], copy, i]);
    } else {
      const copy = Object.create(null) as Record<string, unknown>;
      defineOwn(into, key, copy);
      for (const k of Object.keys(from)) stack.push([(from as Json)[k], copy, k]);
    }
  }
  return root.v;
}

/** into[key] = value as an own data property, even for the key "__proto__". */
function defineOwn(into: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(into, key, { value, writable: true, enumerable: true, configurable: true });
}

function propertiesOf(o: Json, where: string): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  const list = o.properties;
  if (list === undefined) return out;
  if (!Array.isArray(list)) fail(`${where}.properties must be an array of {name, type, value}.`);
  for (let k = 0; k < list.length; k++) {
    const p = list[k];
    if (!isObject(p) || typeof p.name !== "string") fail(`${where}.properties[${k}] needs a string name.`);
    defineOwn(out, p.name, plainCopy(p.value));
  }
  return out;
}

/** gid -> CELL_* flags (bits 0-7) and monster type + 1 (bits 8+), from the tilesets. */
function tileMeanings(map: Json): Map<number, number> {
  const meanings = new Map<number, number>();
  const sets = map.tilesets ?? [];
  if (!Array.isArray(sets)) fail("tilesets must be an array.");
  sets.forEach((set, s) => {
    const where = `tilesets[${s}]`;
    if (!isObject(set)) fail(`${where} must be an object.`);
    if (typeof set.source === "string") fail(`${where} is an external tileset (${show(set.source)}); embed it in the map (Tiled: Map > Embed Tileset) or pass the merged JSON.`);
    const firstgid = positiveInt(set, "firstgid", where);
    const tiles = set.tiles ?? [];
    if (!Array.isArray(tiles)) fail(`${where}.tiles must be an array.`);
    tiles.forEach((tile, t) => {
      const tw = `${where}.tiles[${t}]`;
      if (!isObject(tile) || typeof tile.id !== "number" || !Number.isInteger(tile.id) || tile.id < 0) fail(`${tw} needs an integer id >= 0.`);
      const props = propertiesOf(tile, tw);
      let flags = 0;
      let monster = 0;
      const kind = typeof tile.type === "string" ? tile.type : typeof tile.class === "string" ? tile.class : "";
      if (Object.hasOwn(BOOL_FLAGS, kind)) flags |= BOOL_FLAGS[kind];
      if (kind === "monster") monster = 1;
      for (const name of Object.keys(props)) {
        const value = props[name];
        if (Object.hasOwn(BOOL_FLAGS, name)) {
          if (typeof value !== "boolean") fail(`${tw} property ${name} must be a bool, got ${show(value)}.`);
          if (value) flags |= BOOL_FLAGS[name];
        } else if (name === "monster") {
          if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 255) fail(`${tw} property monster must be an int 0-255 (the monster type), got ${show(value)}.`);
          monster = value + 1;
        }
      }
      if (flags !== 0 || monster !== 0) meanings.set(firstgid + tile.id, flags | (monster << 8));
    });
  });
  return meanings;
}

/** A tile layer's gids, checked against its declared size before anything is decoded. */
interface LayerData {
  /** CSV data as a JSON array, or null. */
  array: unknown[] | null;
  /** Base64 text, or "". */
  base64: string;
  where: string;
}

function checkData(layer: Json, count: number, where: string): LayerData {
  const data = layer.data;
  if (Array.isArray(data)) {
    if (data.length !== count) fail(`${where}.data has ${data.length} tiles, but width x height is ${count}; the layer size and its data must match.`);
    return { array: data, base64: "", where: `${where}.data` };
  }
  if (typeof data === "string") {
    if (layer.encoding !== "base64") fail(`${where}.data is a string but encoding is ${show(layer.encoding)}; save the map with CSV or base64 layer data.`);
    if (layer.compression) fail(`${where} is ${typeof layer.compression === "string" ? layer.compression.slice(0, 20) : show(layer.compression)}-compressed; save the map with uncompressed base64 or CSV layer data.`);
    // 4 bytes per tile: the text's length says the size before anything is decoded.
    const bytes = base64Length(data, `Tiled map: ${where}.data`);
    if (bytes !== 4 * count) fail(`${where}.data decodes to ${bytes} bytes, but width x height is ${count} tiles (${4 * count} bytes).`);
    return { array: null, base64: data, where: `${where}.data` };
  }
  fail(`${where}.data is missing; a tile layer needs data (CSV array or base64).`);
}

/** The layer's gids, checked one by one. */
function decodeData(data: LayerData, count: number, cols: number): ArrayLike<number> {
  let gids: ArrayLike<unknown>;
  if (data.array !== null) gids = data.array;
  else {
    const bytes = decodeBase64Into(data.base64, new Uint8Array(4 * count));
    gids = new Uint32Array(bytes.buffer, 0, count); // little-endian, as Tiled writes it (and every engine runs)
  }
  for (let k = 0; k < count; k++) {
    const gid = gids[k];
    if (typeof gid !== "number" || !Number.isInteger(gid) || gid < 0 || gid > 0xffffffff) {
      fail(`${data.where}[${k}] (row ${Math.floor(k / cols)}, column ${k % cols} from the top) is ${show(gid)}, not a tile gid.`);
    }
  }
  return gids as ArrayLike<number>;
}

interface Layers {
  tile: { layer: Json; where: string }[];
  objects: { layer: Json; where: string }[];
}

/** Every layer, group layers walked depth-first in file order with an explicit stack. */
function collectLayers(list: unknown, where: string, out: Layers): void {
  const stack: { list: unknown[]; next: number; where: string }[] = [];
  const enter = (l: unknown, w: string) => {
    if (!Array.isArray(l)) fail(`${w} must be an array of layers.`);
    stack.push({ list: l, next: 0, where: w });
  };
  enter(list, where);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next === top.list.length) { stack.pop(); continue; }
    const k = top.next++;
    const layer = top.list[k];
    const lw = `${top.where}[${k}]`;
    if (!isObject(layer)) fail(`${lw} must be an object.`);
    if (layer.type === "tilelayer") out.tile.push({ layer, where: lw });
    else if (layer.type === "objectgroup") out.objects.push({ layer, where: lw });
    else if (layer.type === "group") enter(layer.layers, `${lw}.layers`);
    else if (layer.type !== "imagelayer") fail(`${lw}.type ${show(layer.type)} is not a Tiled layer type.`);
  }
}

function checkOptions(options: TiledOptions): { maxCells: number; tileLayers: readonly string[] | undefined } {
  if (!isObject(options)) throw new HitcoreError("INVALID_OPTION", `parseTiledMap: options must be an object, got ${show(options)}.`);
  const { tileLayers, maxCells = MAX_MAP_CELLS } = options;
  if (tileLayers !== undefined && (!Array.isArray(tileLayers) || !tileLayers.every((n) => typeof n === "string"))) {
    throw new HitcoreError("INVALID_OPTION", `parseTiledMap: tileLayers must be an array of layer names, got ${show(tileLayers)}.`);
  }
  if (typeof maxCells !== "number" || !Number.isInteger(maxCells) || maxCells < 1 || maxCells > MAX_MAP_CELLS) {
    throw new HitcoreError("INVALID_OPTION", `parseTiledMap: maxCells must be an integer in [1, ${MAX_MAP_CELLS}], got ${show(maxCells)}.`);
  }
  return { maxCells, tileLayers };
}

/** Parses a Tiled JSON map (an object or its JSON text) into cells, monster spawns and objects. */
export function parseTiledMap(source: unknown, options: TiledOptions = {}): TiledMap {
  const { maxCells, tileLayers: wanted } = checkOptions(options);
  let map: unknown = source;
  if (typeof source === "string") {
    try {
      map = JSON.parse(source);
    } catch (e) {
      fail(`not valid JSON (${(e as Error).message}).`);
    }
  }
  if (!isObject(map)) fail("expected a JSON object with width, height, tilewidth, tileheight, layers.");
  if (map.infinite === true) fail("infinite maps are not supported; turn off Map > Map Properties > Infinite.");
  if (map.orientation !== undefined && map.orientation !== "orthogonal") fail(`orientation ${show(map.orientation)} is not supported; use an orthogonal map.`);
  const cols = positiveInt(map, "width", "map");
  const rows = positiveInt(map, "height", "map");
  const tileSize = positiveInt(map, "tilewidth", "map");
  const tileHeight = positiveInt(map, "tileheight", "map");
  if (tileHeight !== tileSize) fail(`tileheight (${tileHeight}) differs from tilewidth (${tileSize}); the tile map needs square tiles.`);
  if (cols * rows > maxCells) fail(`width x height = ${cols * rows} cells is over the limit of ${maxCells}; split the level.`);

  const layers: Layers = { tile: [], objects: [] };
  collectLayers(map.layers, "layers", layers);
  let tileLayers = layers.tile;
  if (wanted) {
    const names = new Set(tileLayers.map((l) => l.layer.name));
    for (const name of wanted) if (!names.has(name)) fail(`no tile layer named ${show(name)}; the map's tile layers are ${tileLayers.map((l) => show(l.layer.name)).join(", ")}.`);
    const keep = new Set(wanted);
    tileLayers = tileLayers.filter((l) => keep.has(l.layer.name as string));
  }
  if (tileLayers.length === 0) fail("no tile layer (type \"tilelayer\"); the map needs at least one for its cells.");

  // Check every layer's size and data length before decoding any or allocating the cells.
  const count = cols * rows;
  const checked: LayerData[] = [];
  for (const { layer, where } of tileLayers) {
    const w = positiveInt(layer, "width", where), h = positiveInt(layer, "height", where);
    if (w !== cols || h !== rows) fail(`${where} is ${w} x ${h} but the map is ${cols} x ${rows}; resize the layer to the map.`);
    checked.push(checkData(layer, count, where));
  }
  const meanings = tileMeanings(map);

  const cells = new Uint8Array(count);
  let spawns = new Int32Array(48), spawned = 0;
  for (const layer of checked) {
    const data = decodeData(layer, count, cols);
    for (let k = 0; k < count; k++) {
      const gid = data[k] & FLIP_MASK;
      if (gid === 0) continue;
      const meaning = meanings.get(gid);
      if (meaning === undefined) continue;
      const col = k % cols, row = rows - 1 - Math.floor(k / cols); // Tiled rows run down
      cells[row * cols + col] |= meaning & 0xff;
      if (meaning >> 8) {
        if (spawned === 3 * MAX_SPAWNS) fail(`${layer.where} holds more than ${MAX_SPAWNS} monster tiles; place fewer monsters.`);
        if (spawned === spawns.length) { const grown = new Int32Array(2 * spawns.length); grown.set(spawns); spawns = grown; }
        spawns[spawned++] = col; spawns[spawned++] = row; spawns[spawned++] = (meaning >> 8) - 1;
      }
    }
  }

  // Objects, flipped to y-up.
  const heightPx = rows * tileSize;
  const rects: number[] = [];
  const rectInfo: TiledObjectInfo[] = [];
  const polygons: TiledPolygon[] = [];
  for (const { layer, where } of layers.objects) {
    const objects = layer.objects ?? [];
    if (!Array.isArray(objects)) fail(`${where}.objects must be an array.`);
    objects.forEach((o, k) => {
      const ow = `${where}.objects[${k}]`;
      if (!isObject(o)) fail(`${ow} must be an object.`);
      const info: TiledObjectInfo = {
        id: typeof o.id === "number" ? o.id : k,
        name: typeof o.name === "string" ? o.name : "",
        type: typeof o.type === "string" ? o.type : typeof o.class === "string" ? o.class : "",
        layer: typeof layer.name === "string" ? layer.name : "",
        properties: propertiesOf(o, ow),
      };
      const x = finite(o, "x", ow), y = finite(o, "y", ow);
      if (o.rotation !== undefined && o.rotation !== 0) fail(`${ow} is rotated (${show(o.rotation)} degrees); rotated objects are not supported, draw it unrotated or as a polygon.`);
      if (Array.isArray(o.polygon)) {
        const pts = o.polygon;
        if (pts.length < 3) fail(`${ow}.polygon has ${pts.length} points; a polygon needs at least 3.`);
        const v = new Float32Array(2 * pts.length);
        pts.forEach((p, j) => {
          if (!isObject(p)) fail(`${ow}.polygon[${j}] must be {x, y}.`);
          v[2 * j] = x + finite(p, "x", `${ow}.polygon[${j}]`);
          v[2 * j + 1] = heightPx - (y + finite(p, "y", `${ow}.polygon[${j}]`));
        });
        let area = 0;
        for (let j = 0, n = pts.length; j < n; j++) {
          const a = 2 * j, b = 2 * ((j + 1) % n);
          area += v[a] * v[b + 1] - v[b] * v[a + 1];
        }
        if (area === 0) fail(`${ow}.polygon has zero area; remove it or give it a real shape.`);
        if (area < 0) {
          for (let i = 0, j = pts.length - 1; i < j; i++, j--) {
            const tx = v[2 * i], ty = v[2 * i + 1];
            v[2 * i] = v[2 * j]; v[2 * i + 1] = v[2 * j + 1];
            v[2 * j] = tx; v[2 * j + 1] = ty;
          }
        }
        polygons.push({ ...info, vertices: v });
      } else if (o.point || o.ellipse || o.polyline || o.text || o.gid !== undefined) {
        // Points, ellipses, polylines, text and tile objects carry no shape the stores take: skipped.
      } else {
        const w = finite(o, "width", ow, 0), h = finite(o, "height", ow, 0);
        if (w < 0 || h < 0) fail(`${ow} has a negative size (${w} x ${h}).`);
        rects.push(x, heightPx - (y + h), w, h);
        rectInfo.push(info);
      }
    });
  }
  return { cols, rows, tileSize, cells, monsters: spawns.slice(0, spawned), rects: Float32Array.from(rects), rectInfo, polygons };
}
