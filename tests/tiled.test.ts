// Tiled JSON maps: tile layers to cells (meaning from tile properties), monsters from tiles, object
// layers' rectangles and polygons to plain typed data in Tiled's own y-down pixels, and malformed
// maps rejected with the field named, before anything is allocated from their declared size.
import { readFileSync } from "node:fs";
import { deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { addLevelObjects, TileCell, HitcoreError, parseTiledMap } from "../bindings/node.js";
import { loadTiledMap, loadTiledMapSync } from "../bindings/tiled_load.js";
import { BACKENDS, backendOptions, newTileMap, newPlatforms, refusal } from "./support.js";


/** A 4 x 3 map of 16-pixel tiles: gid 1 platform, 2 ladder, 3 coin, 4 monster type 2, 5 decoration, 6 one-way (by class). */
function smallMap(): Record<string, unknown> {
  return {
    type: "map", orientation: "orthogonal", infinite: false, width: 4, height: 3, tilewidth: 16, tileheight: 16,
    tilesets: [{
      firstgid: 1, name: "tiles", tilecount: 6,
      tiles: [
        { id: 0, properties: [{ name: "platform", type: "bool", value: true }] },
        { id: 1, properties: [{ name: "ladder", type: "bool", value: true }] },
        { id: 2, properties: [{ name: "coin", type: "bool", value: true }] },
        { id: 3, properties: [{ name: "monster", type: "int", value: 2 }] },
        { id: 4, properties: [{ name: "colour", type: "string", value: "red" }] },
        { id: 5, type: "oneWay" },
      ],
    }],
    layers: [
      { type: "tilelayer", name: "ground", width: 4, height: 3, data: [
        0, 3, 0, 4,
        0, 2, 6, 0,
        1, 2, 1, 0x80000005, // a horizontally flipped decoration tile (gid 5)
      ] },
      { type: "group", name: "g", layers: [
        { type: "tilelayer", name: "extra", width: 4, height: 3, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40000001] },
      ] },
      { type: "objectgroup", name: "solids", objects: [
        { id: 7, name: "crate", type: "box", x: 8, y: 4, width: 10, height: 6, properties: [{ name: "weight", type: "float", value: 2.5 }] },
        { id: 8, name: "ramp", x: 0, y: 48, polygon: [{ x: 0, y: 0 }, { x: 32, y: 0 }, { x: 32, y: -16 }] },
        { id: 9, name: "spawn", point: true, x: 5, y: 5 },
      ] },
    ],
  };
}

function expectMalformed(map: unknown, text: RegExp): void {
  let error: unknown;
  try {
    parseTiledMap(map);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(HitcoreError);
  expect((error as HitcoreError).code).toBe("MALFORMED_MAP");
  expect((error as HitcoreError).message).toMatch(text);
}

describe("Tiled maps", () => {
  it("turns tile layers into cells by tile properties, Tiled's rows as they are (top row first)", () => {
    const m = parseTiledMap(smallMap());
    expect([m.cols, m.rows, m.tileSize]).toEqual([4, 3, 16]);
    // Tiled's first data row is the map's row 0, the top.
    expect(Array.from(m.cells)).toEqual([
      0, TileCell.Coin, 0, 0, // the monster tile is a spawn, not a flag
      0, TileCell.Ladder, TileCell.OneWay, 0,
      TileCell.Platform, TileCell.Ladder, TileCell.Platform, TileCell.Platform, // decoration + the flipped platform from the group layer
    ]);
    expect(Array.from(m.monsters)).toEqual([3, 0, 2]);
  });

  it("hands object layers over as typed data in Tiled's y-down pixels", () => {
    const m = parseTiledMap(JSON.stringify(smallMap()));
    // The crate: Tiled (8, 4) 10 x 6, y down: its min corner is its top-left, (8, 4), as Tiled has it.
    expect(Array.from(m.rects)).toEqual([8, 4, 10, 6]);
    expect(m.rectInfo).toEqual([{ id: 7, name: "crate", type: "box", layer: "solids", properties: { weight: 2.5 } }]);
    expect(m.polygons.length).toBe(1);
    const v = Array.from(m.polygons[0].vertices);
    // Vertices (0, 48), (32, 48), (32, 32), y-down, counter-clockwise as drawn (negative area).
    expect(v.length).toBe(6);
    let area = 0;
    for (let j = 0; j < 3; j++) area += v[2 * j] * v[(2 * j + 3) % 6] - v[(2 * j + 2) % 6] * v[2 * j + 1];
    expect(area).toBeLessThan(0);
    expect(new Set([`${v[0]},${v[1]}`, `${v[2]},${v[3]}`, `${v[4]},${v[5]}`])).toEqual(new Set(["0,48", "32,48", "32,32"]));
    expect(m.polygons[0].name).toBe("ramp");
  });

  it("loads into a tile map on both backends, with monsters and objects", async () => {
    for (const backend of BACKENDS) {
      const tm = await newTileMap({ tiled: smallMap(), ...(await backendOptions(backend)) });
      expect(tm.tileSize).toBe(16);
      expect(tm.cellAt(1, 0)).toBe(TileCell.Coin);
      expect(tm.monsterCount).toBe(1);
      // The monster tile's cell is Tiled's (48, 0) to (64, 16): the monster stands in it, its top-left there.
      expect(Array.from(tm.monsterBoxes.subarray(0, 4))).toEqual([48, 0, 16, 16]);
      expect(tm.monsterTypes[0]).toBe(2);
      expect(Array.from(tm.objects.rects)).toEqual([8, 4, 10, 6]);
      tm.validate();
    }
  });

  it("reads uncompressed base64 layer data and selects layers by name", () => {
    const map = smallMap();
    const ground = (map.layers as Record<string, unknown>[])[0];
    const gids = new Uint32Array(ground.data as number[]);
    ground.data = Buffer.from(gids.buffer).toString("base64");
    ground.encoding = "base64";
    const only = parseTiledMap(map, { tileLayers: ["ground"] });
    expect(Array.from(only.cells.subarray(8))).toEqual([TileCell.Platform, TileCell.Ladder, TileCell.Platform, 0]); // the bottom row
  });

  it("rejects malformed maps, naming the field", () => {
    const edit = (f: (m: Record<string, any>) => void) => { const m = smallMap() as Record<string, any>; f(m); return m; };
    expectMalformed("{not json", /not valid JSON/);
    expectMalformed(edit((m) => { delete m.layers; }), /layers must be an array/);
    expectMalformed(edit((m) => { m.layers[0].data.pop(); }), /layers\[0\]\.data has 11 tiles, but width x height is 12/);
    expectMalformed(edit((m) => { m.layers[0].width = 3; }), /layers\[0\] is 3 x 3 but the map is 4 x 3/);
    expectMalformed(edit((m) => { m.layers[0].data[5] = -1; }), /layers\[0\]\.data\[5\] \(row 1, column 1/);
    expectMalformed(edit((m) => { m.width = "4"; }), /map\.width must be a positive integer/);
    expectMalformed(edit((m) => { m.tileheight = 8; }), /square tiles/);
    expectMalformed(edit((m) => { m.infinite = true; }), /infinite/);
    expectMalformed(edit((m) => { m.tilesets[0].tiles[3].properties[0].value = "big"; }), /tilesets\[0\]\.tiles\[3\]\.properties\[0\] \("monster"\) is an int property but its value is "big"/);
    expectMalformed(edit((m) => { m.layers[2].objects[1].polygon = [{ x: 0, y: 0 }, { x: 1, y: 1 }]; }), /objects\[1\]\.polygon has 2 points/);
    expectMalformed(edit((m) => { m.layers[2].objects[0].width = -3; }), /negative size/);
    expectMalformed(edit((m) => { m.layers[0].compression = "zlib"; m.layers[0].encoding = "base64"; m.layers[0].data = "AAAA"; }), /zlib-compressed/);
    expectMalformed(smallMap() && { ...smallMap(), layers: [{ type: "tilelayer", name: "x", width: 4, height: 3 }] }, /data is missing/);
    expect(() => parseTiledMap(smallMap(), { tileLayers: ["nope"] })).toThrow(/no tile layer named "nope"/);
  });

  it("checks a huge declared size against its data before allocating for it", () => {
    // 40,000 x 40,000 cells would be 1.6 GB of flags: refused from the header alone.
    expectMalformed(edit2(40000, 40000, 12), /over the limit/);
    // 5,000 x 5,000 is within the limit, but the 12 tiles of data do not match: refused before the cells exist.
    const before = process.memoryUsage().arrayBuffers;
    expectMalformed(edit2(5000, 5000, 12), /data has 12 tiles, but width x height is 25000000/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
  });
});



describe("Tiled maps as a hostile file would be", () => {
  const tileLayer = (data: unknown, encoding?: string) => ({ type: "tilelayer", name: "t", width: 4, height: 3, data, ...(encoding ? { encoding } : {}) });
  const withLayers = (layers: unknown[]) => ({ ...smallMap(), layers });

  it("decodes base64 in one pass: 300,000 pad characters are refused at the third, naming the field", () => {
    // The decoder stops at the first character that cannot be there (the quadratic one rescanned the padding).
    const error = refusal(() => parseTiledMap(withLayers([tileLayer("=".repeat(300000) + "A", "base64")])));
    expect(error.code).toBe("MALFORMED_MAP");
    expect(error.message).toMatch(/layers\[0\]\.data.*offset 2\b/);
    // Long valid input decodes whole: 2M tiles of base64 (10.7 MB of text).
    const big = { ...smallMap(), width: 2000, height: 1000, layers: [{ type: "tilelayer", name: "t", width: 2000, height: 1000, encoding: "base64",
      data: Buffer.alloc(8_000_000, 0).toString("base64") }] };
    const map = parseTiledMap(big);
    expect(map.cells.length).toBe(2_000_000);
  });

  it("refuses invalid base64 with a HitcoreError naming the field and the offset, never a DOMException", () => {
    for (const [data, text] of [
      ["AAAAAAAAAAAAAAAAAAAAA$", /layers\[0\]\.data.*base64.*offset 21/],
      ["AAAA=AAAAAAAAAAAAAAAAAAA", /layers\[0\]\.data.*base64.*offset 4/],
      ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", /layers\[0\]\.data.*base64/], // 65 characters: a dangling one
    ] as const) {
      const error = refusal(() => parseTiledMap(withLayers([tileLayer(data, "base64")])));
      expect(error.code).toBe("MALFORMED_MAP");
      expect(error.message).toMatch(text);
    }
  });

  it("walks group layers nested 20,000 deep without recursion", () => {
    let layer: Record<string, unknown> = tileLayer([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    for (let d = 0; d < 20000; d++) layer = { type: "group", name: `g${d}`, layers: [layer] };
    const m = parseTiledMap(withLayers([layer]));
    expect(Array.from(m.cells.subarray(0, 4))).toEqual([TileCell.Platform, TileCell.Platform, TileCell.Platform, TileCell.Platform]);
    // A refusal deep inside names the whole path.
    let bad: Record<string, unknown> = { type: "weird" };
    for (let d = 0; d < 3000; d++) bad = { type: "group", layers: [bad] };
    const error = refusal(() => parseTiledMap(withLayers([tileLayer(new Array(12).fill(0)), bad])));
    expect(error.message).toMatch(/^hitcore: Tiled map: layers\[1\](\.layers\[0\]){3000}\.type "weird"/);
  });

  it("keeps a property named __proto__ as plain data: no prototype is replaced, nothing is polluted", () => {
    const map = JSON.parse(JSON.stringify(smallMap()));
    map.layers[2].objects[0].properties = [
      { name: "__proto__", type: "string", value: "x" },
      { name: "constructor", type: "string", value: "y" },
      { name: "hasOwnProperty", type: "int", value: 3 },
    ];
    map.tilesets[0].tiles[0].properties.push({ name: "__proto__", type: "bool", value: true });
    // As JSON text too: JSON.parse makes __proto__ an own key, which an assignment would turn into a prototype.
    for (const source of [map, JSON.stringify(map).replace('"name":"__proto__","type":"string","value":"x"', '"name":"__proto__","type":"class","value":{"polluted":true}')]) {
      const m = parseTiledMap(source);
      const props = m.rectInfo[0].properties;
      expect(Object.getPrototypeOf(props)).toBe(null);
      expect(Object.hasOwn(props, "__proto__")).toBe(true);
      expect(props.constructor).toBe("y");
      expect(props.hasOwnProperty).toBe(3);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((props as Record<string, unknown>).polluted).toBeUndefined();
      expect(m.cells[2 * m.cols]).toBe(TileCell.Platform);
    }
  });

  it("checks every declared size against the budget before allocating, and refuses options it cannot read", () => {
    // Three layers of 8,000 x 8,000 within the cell limit each, but base64 text of the wrong length: refused from the string length.
    const before = process.memoryUsage().arrayBuffers;
    const layers = Array.from({ length: 3 }, () => ({ type: "tilelayer", name: "t", width: 8000, height: 8000, encoding: "base64", data: "AAAA" }));
    const error = refusal(() => parseTiledMap({ ...smallMap(), width: 8000, height: 8000, layers }));
    expect(error.message).toMatch(/layers\[0\]\.data decodes to 3 bytes, but width x height is 64000000 tiles/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    // A caller's own limit applies the same way.
    expect(refusal(() => parseTiledMap(smallMap(), { maxCells: 10 })).message).toMatch(/12 cells is over the limit of 10/);
    // Ten such layers: over the budget of declared tiles (4 x maxCells) before any data is looked at.
    const ten = Array.from({ length: 10 }, () => layers[0]);
    expect(refusal(() => parseTiledMap({ ...smallMap(), width: 8000, height: 8000, layers: ten })).message).toMatch(/layers\[4\] brings the tile layers' declared tiles to over 268435456/);
    expect(refusal(() => parseTiledMap(smallMap(), { tileLayers: "ground" as unknown as string[] })).code).toBe("INVALID_OPTION");
  });
});

function edit2(width: number, height: number, tiles: number): Record<string, unknown> {
  const m = smallMap();
  m.width = width;
  m.height = height;
  m.layers = [{ type: "tilelayer", name: "ground", width, height, data: new Array(tiles).fill(1) }];
  return m;
}

// ---- Tiled's features, as the editor saves them -------------------------------------------------

const FIXTURES = new URL("../fixtures/tiled/", import.meta.url);
/** The fixture files by path (what a game's resolver would read or fetch). */
function fixture(path: string): string {
  return readFileSync(new URL(path, FIXTURES), "utf8");
}

/** smallMap's ground layer as 48 little-endian bytes. */
function groundBytes(): Uint8Array {
  const ground = (smallMap().layers as Record<string, unknown>[])[0];
  return new Uint8Array(new Uint32Array(ground.data as number[]).buffer);
}

/** smallMap with its ground layer base64-encoded and compressed. */
function compressedMap(compression: string, bytes: Uint8Array): Record<string, unknown> {
  const map = smallMap();
  const ground = (map.layers as Record<string, unknown>[])[0];
  ground.encoding = "base64";
  ground.compression = compression;
  ground.data = Buffer.from(bytes).toString("base64");
  return map;
}

function codeOf(run: () => unknown): [string, string] {
  const e = refusal(run);
  return [e.code, e.message];
}

describe("Tiled features", () => {
  it("reads external tilesets and templates through a sync resolver, paths joined to the map's folder", () => {
    const map = smallMap() as Record<string, any>;
    const embedded = map.tilesets[0];
    map.tilesets = [{ firstgid: 1, source: "../sets/tiles.tsj" }];
    map.layers[2].objects.push({ id: 10, template: "crate.tj", x: 50, y: 20 });
    const asked: string[] = [];
    const files: Record<string, unknown> = {
      "levels/sets/tiles.tsj": JSON.stringify({ ...embedded, firstgid: undefined, type: "tileset" }),
      "levels/one/crate.tj": { type: "template", object: { name: "crate", type: "box", width: 8, height: 4, properties: [{ name: "weight", type: "float", value: 1 }] } },
    };
    const m = parseTiledMap(map, { path: "levels/one/map.tmj", resolve: (p) => { asked.push(p); return files[p] as string; } });
    expect(asked).toEqual(["levels/sets/tiles.tsj", "levels/one/crate.tj"]);
    expect(Array.from(m.cells)).toEqual(Array.from(parseTiledMap(smallMap()).cells));
    // The template gives the size and properties; the instance its place: (50, 20) y-down, 8 x 4.
    expect(Array.from(m.rects.subarray(4))).toEqual([50, 20, 8, 4]);
    expect(m.rectInfo[1]).toMatchObject({ id: 10, name: "crate", type: "box", properties: { weight: 1 } });
    // URLs resolve by URL rules.
    const urls: string[] = [];
    parseTiledMap(map, { path: "https://example.org/maps/a/map.tmj", resolve: (p) => { urls.push(p); return files[p.endsWith("tsj") ? "levels/sets/tiles.tsj" : "levels/one/crate.tj"] as string; } });
    expect(urls).toEqual(["https://example.org/maps/sets/tiles.tsj", "https://example.org/maps/a/crate.tj"]);
    // No resolver, a failing one, an async one: refusals that name the field and the file.
    expect(codeOf(() => parseTiledMap(map))).toEqual(["MISSING_FILE", expect.stringMatching(/tilesets\[0\]\.source names the external file "\.\.\/sets\/tiles\.tsj"; pass options\.resolve/)]);
    expect(codeOf(() => parseTiledMap(map, { resolve: () => { throw new Error("ENOENT"); } }))).toEqual(["MISSING_FILE", expect.stringMatching(/resolver failed: ENOENT/)]);
    expect(codeOf(() => parseTiledMap(map, { resolve: async () => "{}" }) as unknown)[0]).toBe("INVALID_OPTION");
    expect(codeOf(() => parseTiledMap(map, { resolve: () => "<tileset/>" }))[1]).toMatch(/is XML \(TMX\); load it with loadTiledMap/);
    expect(codeOf(() => parseTiledMap(map, { resolve: (p) => (p.endsWith("tsj") ? { type: "template" } : (files["levels/one/crate.tj"] as string)) }))[1]).toMatch(/is a "template" file, not a tileset/);
  });

  it("loads the fixtures with an external tileset and templates, JSON and TMX, sync and async alike", async () => {
    const resolve = (p: string) => fixture(p);
    for (const name of ["arena.tmj", "tower.tmx", "chunks.tmj"]) {
      const sync = loadTiledMapSync(fixture(name), { resolve, path: name });
      const async = await loadTiledMap(fixture(name), { resolve: async (p) => fixture(p), path: name });
      expect(Array.from(async.cells)).toEqual(Array.from(sync.cells));
      expect(Array.from(async.rects)).toEqual(Array.from(sync.rects));
      expect(async.polygons.map((p) => Array.from(p.vertices))).toEqual(sync.polygons.map((p) => Array.from(p.vertices)));
      expect(sync.cells.some((c) => c !== 0)).toBe(true);
    }
    const arena = loadTiledMapSync(fixture("arena.tmj"), { resolve, path: "arena.tmj" });
    expect(arena.properties).toEqual({ title: "Arena", wind: -0.5 });
    expect(arena.rectInfo.map((r) => [r.name, r.properties.weight])).toEqual([["crate", 2.5], ["crate", 5], ["exit", undefined]]);
    expect(arena.rectInfo[2].properties).toEqual({ to: "tower.tmx", key: 1 });
    expect(arena.polygons.map((p) => p.name)).toEqual(["hill", "beam"]);
  });

  it("inflates gzip, zlib and zstd layer data, and refuses a bomb or bad data without allocating for it", async () => {
    const bytes = groundBytes();
    const want = Array.from(parseTiledMap(smallMap()).cells);
    // zstd by the zstd CLI (frame without its content size) of the same 48 bytes.
    const zstd = Buffer.from(fixtureZstd(), "base64");
    for (const [compression, data] of [["gzip", gzipSync(bytes)], ["zlib", deflateSync(bytes)], ["zstd", zstd]] as const) {
      const map = compressedMap(compression, data);
      expect(Array.from(loadTiledMapSync(map).cells), compression).toEqual(want);
      expect(Array.from((await loadTiledMap(map)).cells), compression).toEqual(want);
      expect(codeOf(() => parseTiledMap(map))[1]).toMatch(new RegExp(`layers\\[0\\]\\.data is ${compression}-compressed; load it with loadTiledMap`));
    }
    // 64 MB of zeros squeezed into 64 kB, declared as 12 tiles: stopped at 49 bytes.
    const bomb = compressedMap("zlib", deflateSync(new Uint8Array(64 << 20), { level: 9 }));
    const before = process.memoryUsage().arrayBuffers;
    expect(codeOf(() => loadTiledMapSync(bomb))[1]).toMatch(/layers\[0\]\.data decompresses to more than the 48 bytes its width x height needs/);
    await expect(loadTiledMap(bomb)).rejects.toThrow(/decompresses to more than the 48 bytes/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 << 20);
    // Too little, not compressed at all, an unknown method: refusals naming the field.
    expect(codeOf(() => loadTiledMapSync(compressedMap("gzip", gzipSync(bytes.subarray(0, 40)))))[1]).toMatch(/decompresses to 40 bytes, but width x height is 12 tiles/);
    expect(codeOf(() => loadTiledMapSync(compressedMap("zlib", bytes)))[1]).toMatch(/layers\[0\]\.data is not valid zlib data/);
    await expect(loadTiledMap(compressedMap("gzip", bytes))).rejects.toThrow(/layers\[0\]\.data is not valid gzip data/);
    expect(codeOf(() => loadTiledMapSync(compressedMap("lz4", bytes)))[1]).toMatch(/layers\[0\]\.compression is "lz4"; Tiled compresses with gzip, zlib or zstd/);
  });

  it("reads infinite maps: the cells cover every chunk, and objects keep their place relative to them", () => {
    const m = loadTiledMapSync(fixture("chunks.tmj"), { resolve: fixture });
    // Chunks span x -16..32 and y -16..16 (tiles): 48 x 32 cells whose top-left is Tiled's (-256, -256) px.
    expect([m.cols, m.rows, m.left, m.top]).toEqual([48, 32, -256, -256]);
    const at = (tx: number, ty: number) => m.cells[(ty + 16) * m.cols + (tx + 16)];
    expect(at(-16, 15)).toBe(TileCell.Platform); // the left chunk's bottom row
    expect(at(15, 15)).toBe(TileCell.Platform);
    expect(at(-13, 10)).toBe(TileCell.Ladder);
    expect(at(20, -1)).toBe(TileCell.Coin); // from the zstd chunk
    expect(at(0, 0)).toBe(0);
    // The wall at Tiled (-256, -64), 16 x 320: (0, 192) from the cells' top-left corner, y-down.
    expect(Array.from(m.rects)).toEqual([0, 192, 16, 320]);
    // Only the coins layer: its one chunk.
    const coins = loadTiledMapSync(fixture("chunks.tmj"), { resolve: fixture, tileLayers: ["coins"] });
    expect([coins.cols, coins.rows, coins.left, coins.top]).toEqual([16, 16, 256, -256]);
    // A chunk whose size and data disagree; a chunked map declaring no chunks.
    const bad = JSON.parse(fixture("chunks.tmj"));
    bad.layers[0].chunks[1].data.pop();
    expect(codeOf(() => loadTiledMapSync(bad, { resolve: fixture }))[1]).toMatch(/layers\[0\]\.chunks\[1\]\.data has 255 tiles, but width x height is 256/);
    bad.layers[0].chunks = "none";
    expect(codeOf(() => loadTiledMapSync(bad, { resolve: fixture }))[1]).toMatch(/layers\[0\]\.chunks must be an array: the map is infinite/);
    // Chunks far apart: their box is over the cell limit, refused before any cell exists.
    const far = JSON.parse(fixture("chunks.tmj"));
    far.layers[0].chunks[1].x = 1 << 22;
    expect(codeOf(() => loadTiledMapSync(far, { resolve: fixture }))[1]).toMatch(/covers 4194336 x 32 = 134218752 cells, over the limit of 67108864/);
  });

  it("adds up layer offsets through groups, on object and tile layers", () => {
    const map = smallMap() as Record<string, any>;
    map.layers = [{ type: "group", name: "g", offsetx: 16, offsety: -16, layers: [
      { type: "group", name: "h", offsetx: 4, offsety: 2, layers: [map.layers[2]] },
      { ...map.layers[0], offsetx: -16, offsety: 16 }, // cancels the group: whole tiles
    ] }];
    const m = parseTiledMap(map);
    // The crate at Tiled (8 + 20, 4 - 14), 10 x 6: (28, -10), y-down.
    expect(Array.from(m.rects)).toEqual([28, -10, 10, 6]);
    expect(Array.from(m.cells)).toEqual(Array.from(parseTiledMap(smallMap()).cells).map((c, i) => (i >= 8 ? [TileCell.Platform, TileCell.Ladder, TileCell.Platform, 0][i - 8] : c)));
    // A tile layer moved by half a tile cannot land on the grid.
    map.layers[0].layers[1].offsetx = -8;
    expect(codeOf(() => parseTiledMap(map))).toEqual(["UNSUPPORTED_MAP", expect.stringMatching(/layers\[0\]\.layers\[1\] is offset by \(8, 0\) px, not a whole number of 16-px tiles/)]);
    // Whole tiles off the map: those tiles are dropped, the rest shifts.
    const shifted = smallMap() as Record<string, any>;
    shifted.layers[0].offsetx = 16;
    shifted.layers.splice(1, 1);
    const s = parseTiledMap(shifted);
    expect(Array.from(s.cells.subarray(8))).toEqual([0, TileCell.Platform, TileCell.Ladder, TileCell.Platform]);
  });

  it("loads maps of objects only, and skips rotated tile objects; rotated rectangles become polygons", async () => {
    const map = smallMap() as Record<string, any>;
    map.layers = [map.layers[2]];
    map.layers[0].objects.push(
      { id: 20, name: "spinning coin", gid: 3, x: 30, y: 30, width: 16, height: 16, rotation: 45 },
      { id: 21, name: "beam", x: 10, y: 10, width: 20, height: 10, rotation: 90 },
    );
    const m = parseTiledMap(map);
    expect(Array.from(m.cells)).toEqual(new Array(12).fill(0));
    expect(m.rectInfo.map((r) => r.name)).toEqual(["crate"]);
    expect(m.polygons.map((p) => p.name)).toEqual(["ramp", "beam"]);
    // 90 degrees clockwise on Tiled's screen about (10, 10): corners (10, 10), (10, 30), (0, 30), (0, 10) y-down.
    const beam = Array.from(m.polygons[1].vertices).map((v) => Math.round(v * 1e4) / 1e4 + 0);
    expect(new Set(beam.map((v, i) => (i % 2 ? "" : `${v},${beam[i + 1]}`)).filter(Boolean))).toEqual(new Set(["10,10", "10,30", "0,30", "0,10"]));
    for (const backend of BACKENDS) {
      const tm = await newTileMap({ tiled: m, ...(await backendOptions(backend)) });
      expect(tm.cols).toBe(4);
      const platforms = await newPlatforms({ ...(await backendOptions(backend)) });
      const loaded = addLevelObjects(m, { platforms });
      expect(loaded.polygonParts.length).toBe(2);
      expect(platforms.polyhedraAt(5, 20)).toBeGreaterThan(0); // inside the rotated beam
    }
  });

  it("reads properties of every type, checks each against its type, and names the bad one", () => {
    const map = smallMap() as Record<string, any>;
    const props = [
      { name: "s", type: "string", value: "x" }, { name: "plain", value: "no type: a string" },
      { name: "i", type: "int", value: -3 }, { name: "f", type: "float", value: 0.5 }, { name: "b", type: "bool", value: false },
      { name: "c", type: "color", value: "#ff00aa80" }, { name: "unset", type: "color", value: "" }, { name: "file", type: "file", value: "../a.png" },
      { name: "o", type: "object", value: 7 }, { name: "k", type: "class", propertytype: "Door", value: { locked: true, key: { id: 3 } } },
    ];
    map.properties = props;
    map.layers[2].objects[0].properties = props;
    const m = parseTiledMap(map);
    const want = { s: "x", plain: "no type: a string", i: -3, f: 0.5, b: false, c: "#ff00aa80", unset: "", file: "../a.png", o: 7, k: { locked: true, key: { id: 3 } } };
    expect(m.properties).toEqual(want);
    expect(m.rectInfo[0].properties).toEqual(want);
    expect(Object.getPrototypeOf(m.rectInfo[0].properties.k)).toBe(null);
    for (const [bad, text] of [
      [{ name: "i", type: "int", value: 1.5 }, /\("i"\) is an int property but its value is 1\.5/],
      [{ name: "b", type: "bool", value: "yes" }, /\("b"\) is a bool property but its value is "yes"/],
      [{ name: "c", type: "color", value: "red" }, /\("c"\) is a color property but its value is "red" \(Tiled writes #RRGGBB or #AARRGGBB\)/],
      [{ name: "o", type: "object", value: -1 }, /\("o"\) is an object property/],
      [{ name: "k", type: "class", value: [1] }, /\("k"\) is a class property/],
      [{ name: "e", type: "enum", value: 1 }, /\("e"\) has type "enum"; Tiled's property types are/],
    ] as const) {
      map.layers[2].objects[0].properties = [bad];
      expect(codeOf(() => parseTiledMap(map))).toEqual(["MALFORMED_MAP", expect.stringMatching(new RegExp(`layers\\[2\\]\\.objects\\[0\\]\\.properties\\[0\\] ${text.source}`))]);
    }
  });

  it("refuses old formats saying to re-save with Tiled 1.2 or newer, and other orientations with the reason", () => {
    for (const edit of [
      (m: Record<string, any>) => { m.version = 1.1; },
      (m: Record<string, any>) => { m.version = 1; },
      (m: Record<string, any>) => { m.tiledversion = "1.1.6"; },
      (m: Record<string, any>) => { m.properties = { gravity: 9.8 }; },
      (m: Record<string, any>) => { m.tilesets[0].tileproperties = { 0: { platform: true } }; },
      (m: Record<string, any>) => { m.tilesets[0].tiles = { 0: { type: "platform" } }; },
    ]) {
      const map = smallMap() as Record<string, any>;
      edit(map);
      expect(codeOf(() => parseTiledMap(map))).toEqual(["UNSUPPORTED_MAP", expect.stringMatching(/re-save with Tiled 1\.2 or newer/)]);
    }
    const ok = smallMap() as Record<string, any>;
    ok.version = "1.10";
    ok.tiledversion = "1.11.2";
    expect(parseTiledMap(ok).cols).toBe(4);
    for (const [orientation, why] of [["isometric", /diamonds/], ["staggered", /diamonds/], ["hexagonal", /six sides/], ["oblique", /orientations are orthogonal, isometric/]] as const) {
      const [code, message] = codeOf(() => parseTiledMap({ ...smallMap(), orientation }));
      expect(code).toBe("UNSUPPORTED_MAP");
      expect(message).toMatch(new RegExp(`map\\.orientation is "${orientation}": `));
      expect(message).toMatch(why);
      expect(message).toMatch(/Make the map orthogonal/);
    }
  });
});

/** The 48 bytes of smallMap's ground layer, compressed by the zstd CLI (`zstd -c --no-check`, no content size in the frame). */
function fixtureZstd(): string {
  return "KLUv/QBYHQEAuAAAAAADAAQAAgAAAAYAAQEAAAAFAACABAAzswCjgIEHUAQ=";
}
