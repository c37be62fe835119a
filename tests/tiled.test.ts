// Tiled JSON maps: tile layers to cells (meaning from tile properties), monsters from tiles, object
// layers' rectangles and polygons to plain typed data in the tile map's y-up world, and malformed
// maps rejected with the field named, before anything is allocated from their declared size.
import { describe, expect, it } from "vitest";
import { TileCell, createTileMap, HitcoreError, parseTiledMap } from "../bindings/node.js";
import { BACKENDS, backendOptions } from "./support.js";


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
  it("turns tile layers into cells by tile properties, bottom row first", () => {
    const m = parseTiledMap(smallMap());
    expect([m.cols, m.rows, m.tileSize]).toEqual([4, 3, 16]);
    // Tiled's last data row is the map's row 0.
    expect(Array.from(m.cells)).toEqual([
      TileCell.Platform, TileCell.Ladder, TileCell.Platform, TileCell.Platform, // decoration + the flipped platform from the group layer
      0, TileCell.Ladder, TileCell.OneWay, 0,
      0, TileCell.Coin, 0, 0, // the monster tile is a spawn, not a flag
    ]);
    expect(Array.from(m.monsters)).toEqual([3, 2, 2]);
  });

  it("hands object layers over as typed data in the y-up world", () => {
    const m = parseTiledMap(JSON.stringify(smallMap()));
    // The crate: Tiled (8, 4) 10 x 6, y down in a 48-pixel-high map -> min corner (8, 48 - 10).
    expect(Array.from(m.rects)).toEqual([8, 38, 10, 6]);
    expect(m.rectInfo).toEqual([{ id: 7, name: "crate", type: "box", layer: "solids", properties: { weight: 2.5 } }]);
    expect(m.polygons.length).toBe(1);
    const v = Array.from(m.polygons[0].vertices);
    // Vertices (0, 0), (32, 0), (32, 16) in y-up, counter-clockwise (positive area).
    expect(v.length).toBe(6);
    let area = 0;
    for (let j = 0; j < 3; j++) area += v[2 * j] * v[(2 * j + 3) % 6] - v[(2 * j + 2) % 6] * v[2 * j + 1];
    expect(area).toBeGreaterThan(0);
    expect(new Set([`${v[0]},${v[1]}`, `${v[2]},${v[3]}`, `${v[4]},${v[5]}`])).toEqual(new Set(["0,0", "32,0", "32,16"]));
    expect(m.polygons[0].name).toBe("ramp");
  });

  it("loads into a tile map on both backends, with monsters and objects", async () => {
    for (const backend of BACKENDS) {
      const tm = await createTileMap({ tiled: smallMap(), ...(await backendOptions(backend)) });
      expect(tm.tileSize).toBe(16);
      expect(tm.cellAt(1, 2)).toBe(TileCell.Coin);
      expect(tm.monsterCount).toBe(1);
      expect(Array.from(tm.monsterBoxes.subarray(0, 4))).toEqual([48, 32, 16, 16]);
      expect(tm.monsterTypes[0]).toBe(2);
      expect(Array.from(tm.objects.rects)).toEqual([8, 38, 10, 6]);
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
    expect(Array.from(only.cells.subarray(0, 4))).toEqual([TileCell.Platform, TileCell.Ladder, TileCell.Platform, 0]);
  });

  it("rejects malformed maps, naming the field", () => {
    const edit = (f: (m: Record<string, any>) => void) => { const m = smallMap() as Record<string, any>; f(m); return m; };
    expectMalformed("{not json", /not valid JSON/);
    expectMalformed(edit((m) => { m.layers = []; }), /no tile layer/);
    expectMalformed(edit((m) => { delete m.layers; }), /layers must be an array/);
    expectMalformed(edit((m) => { m.layers[0].data.pop(); }), /layers\[0\]\.data has 11 tiles, but width x height is 12/);
    expectMalformed(edit((m) => { m.layers[0].width = 3; }), /layers\[0\] is 3 x 3 but the map is 4 x 3/);
    expectMalformed(edit((m) => { m.layers[0].data[5] = -1; }), /layers\[0\]\.data\[5\] \(row 1, column 1/);
    expectMalformed(edit((m) => { m.width = "4"; }), /map\.width must be a positive integer/);
    expectMalformed(edit((m) => { m.tileheight = 8; }), /square tiles/);
    expectMalformed(edit((m) => { m.infinite = true; }), /infinite/);
    expectMalformed(edit((m) => { m.tilesets[0] = { firstgid: 1, source: "tiles.tsx" }; }), /external tileset/);
    expectMalformed(edit((m) => { m.tilesets[0].tiles[3].properties[0].value = "big"; }), /tilesets\[0\]\.tiles\[3\] property monster/);
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

/** The HitcoreError a call throws (fails the test if it throws anything else, or nothing). */
function refusal(run: () => unknown): HitcoreError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(HitcoreError);
    return e as HitcoreError;
  }
  throw new Error("expected a refusal, the call returned");
}

/** Milliseconds `run` takes. */
function timed(run: () => void): number {
  const t = performance.now();
  run();
  return performance.now() - t;
}

describe("Tiled maps as a hostile file would be", () => {
  const tileLayer = (data: unknown, encoding?: string) => ({ type: "tilelayer", name: "t", width: 4, height: 3, data, ...(encoding ? { encoding } : {}) });
  const withLayers = (layers: unknown[]) => ({ ...smallMap(), layers });

  it("decodes base64 in linear time: 300,000 pad characters are refused at once, naming the field", () => {
    let error: HitcoreError | undefined;
    const ms = timed(() => { error = refusal(() => parseTiledMap(withLayers([tileLayer("=".repeat(300000) + "A", "base64")]))); });
    expect(ms).toBeLessThan(250);
    expect(error!.code).toBe("MALFORMED_MAP");
    expect(error!.message).toMatch(/layers\[0\]\.data/);
    // Long valid input scales linearly too: 2M tiles of base64 (10.7 MB of text) in well under a second.
    const big = { ...smallMap(), width: 2000, height: 1000, layers: [{ type: "tilelayer", name: "t", width: 2000, height: 1000, encoding: "base64",
      data: Buffer.alloc(8_000_000, 0).toString("base64") }] };
    expect(timed(() => parseTiledMap(big))).toBeLessThan(1000);
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
    expect(Array.from(m.cells.subarray(8))).toEqual([TileCell.Platform, TileCell.Platform, TileCell.Platform, TileCell.Platform]);
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
      expect(m.cells[0]).toBe(TileCell.Platform);
    }
  });

  it("checks every declared size against the budget before allocating, and refuses options it cannot read", () => {
    // Ten layers of 8,000 x 8,000 within the cell limit each, but base64 text of the wrong length: refused from the string length.
    const before = process.memoryUsage().arrayBuffers;
    const layers = Array.from({ length: 10 }, () => ({ type: "tilelayer", name: "t", width: 8000, height: 8000, encoding: "base64", data: "AAAA" }));
    const error = refusal(() => parseTiledMap({ ...smallMap(), width: 8000, height: 8000, layers }));
    expect(error.message).toMatch(/layers\[0\]\.data decodes to 3 bytes, but width x height is 64000000 tiles/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    // A caller's own limit applies the same way.
    expect(refusal(() => parseTiledMap(smallMap(), { maxCells: 10 })).message).toMatch(/12 cells is over the limit of 10/);
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
