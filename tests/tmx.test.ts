// TMX, Tiled's XML: maps, tilesets (.tsx) and templates (.tx) read into the same map as JSON, the
// elements' lines kept for messages. In Node through fast-xml-parser; the browser's DOMParser path
// runs on the tiled demo page (tests/tiled_browser.test.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TileCell } from "../bindings/node.js";
import { loadTiledMap, loadTiledMapSync } from "../bindings/tiled_load.js";
import { refusal } from "./support.js";

const FIXTURES = new URL("../fixtures/tiled/", import.meta.url);
function fixture(path: string): string {
  return readFileSync(new URL(path, FIXTURES), "utf8");
}

/** The (1-based) line of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  return text.slice(0, at).split("\n").length;
}

/** Rows of cell flags top first, as characters (for readable expectations). */
function picture(m: { cols: number; rows: number; cells: Uint8Array }): string[] {
  const ch: Record<number, string> = { 0: ".", [TileCell.Platform]: "X", [TileCell.Ladder]: "H", [TileCell.Coin]: "c", [TileCell.OneWay]: "-", [TileCell.Spike]: "^" };
  const out: string[] = [];
  for (let r = 0; r < m.rows; r++) {
    let s = "";
    for (let c = 0; c < m.cols; c++) s += ch[m.cells[r * m.cols + c]] ?? "?";
    out.push(s);
  }
  return out;
}

const TOWER = [
  "....................",
  "....................",
  ".Xccc...........c...", // the decoration group's flipped platform, moved a tile right by the group's offset
  ".XXXXX.......XXXXX..",
  "......H.............",
  "......H.............",
  "XXXXXXXXX..---XXXXXX",
  "........H...........",
  "........H......c....",
  "........H...XXX.....",
  "^^......H...........",
  "XXXXXXXXXXXXXXXXXXXX",
];

describe("TMX maps", () => {
  it("reads the tower fixture: CSV and zlib layers, a group's offset, an external TSX tileset, TX templates, every property type", async () => {
    const text = fixture("tower.tmx");
    const m = loadTiledMapSync(text, { resolve: fixture, path: "tower.tmx" });
    expect(picture(m)).toEqual(TOWER);
    expect(Array.from(m.monsters)).toEqual([11, 5, 1, 2, 9, 1]); // (col, row, type), row 0 on top
    expect(m.properties).toEqual({ title: "Tower & ladders", gravity: 9.8, lives: 3, hard: false, sky: "#ff203050", music: "tower.ogg", door: 11, spawn: { x: 2, facing: "right" }, notes: "two lines\nof text" });
    // Templates: the crate's size and properties, the instance's place (+ the layer's offset 8, -4) and overrides.
    expect(Array.from(m.rects)).toEqual([48, 156, 16, 16, 80, 156, 24, 16]);
    expect(m.rectInfo.map((r) => [r.id, r.name, r.type, r.layer, r.properties.weight, r.properties.tint])).toEqual([
      [1, "crate", "box", "solids", 2.5, "#ff8040a0"], [2, "heavy crate", "box", "solids", 9, "#ff8040a0"],
    ]);
    // The ramp polygon, the rotated rectangle and the rail polyline; the ellipse, point, text and rotated tile object are skipped.
    expect(m.polygons.map((p) => [p.name, p.vertices.length / 2])).toEqual([["ramp", 3], ["tilted", 4]]);
    expect(m.polylines.map((p) => [p.id, p.name, Array.from(p.points)])).toEqual([[8, "rail", [18, 6, 38, 6]]]); // (10, 10) + (8, -4)
    expect(Array.from(m.polygons[0].vertices)).toEqual([232, 172, 280, 172, 280, 148]); // Tiled (224 + 8, 176 - 4), y-down as Tiled has it
    const a = await loadTiledMap(text, { resolve: async (p) => fixture(p), path: "tower.tmx" });
    expect(picture(a)).toEqual(TOWER);
  });

  it("mixes formats: a JSON map with a TSX tileset and TX templates gives the same map as with TSJ and TJ", () => {
    const json = fixture("arena.tmj");
    const both = loadTiledMapSync(json, { resolve: fixture });
    const xml = loadTiledMapSync(json.replace('"tiles.tsj"', '"tiles.tsx"').replaceAll('"block.tj"', '"block.tx"'), { resolve: fixture });
    expect(Array.from(xml.cells)).toEqual(Array.from(both.cells));
    expect(Array.from(xml.rects)).toEqual(Array.from(both.rects));
    expect(xml.rectInfo.map((r) => r.properties)).toEqual(both.rectInfo.map((r) => r.properties));
  });

  it("reads XML <tile> data and infinite maps' <chunk>s", () => {
    const tmx = `<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" width="3" height="2" tilewidth="8" tileheight="8" infinite="1">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8"><tile id="0" type="platform"/><tile id="1" type="coin"/></tileset>
 <layer name="xml" width="3" height="2"><data><chunk x="-2" y="0" width="2" height="1"><tile gid="1"/><tile/></chunk></data></layer>
 <layer name="csv" width="3" height="2"><data encoding="csv"><chunk x="0" y="-1" width="2" height="2">0,2,
1,1</chunk></data></layer>
</map>`;
    const m = loadTiledMapSync(tmx);
    expect([m.cols, m.rows, m.left, m.top]).toEqual([4, 2, -16, -8]);
    expect(picture(m)).toEqual(["...c", "X.XX"]);
  });

  it("names the element and its line in every refusal", () => {
    const text = fixture("tower.tmx");
    const layerLine = lineOf(text, '<layer id="1"');
    // A bad attribute.
    let e = refusal(() => loadTiledMapSync(text.replace(`<layer id="1" name="ground" width="20"`, `<layer id="1" name="ground" width="wide"`), { resolve: fixture }));
    expect(e.message).toBe(`hitcore: Tiled map: <layer name="ground"> (line ${layerLine}) attribute width must be a positive integer, got "wide".`);
    // A bad gid in CSV: the <data> element's line and the index.
    e = refusal(() => loadTiledMapSync(text.replace("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,\n0,0", "x,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,\n0,0"), { resolve: fixture }));
    expect(e.message).toMatch(new RegExp(`<data> \\(line ${layerLine + 1}\\)\\[0\\] \\(row 0, column 0 from the top\\) is "x", not a tile gid`));
    // A polygon point, an object, a property: each by its element.
    const polygonLine = lineOf(text, "<polygon");
    e = refusal(() => loadTiledMapSync(text.replace('points="0,0 48,0 48,-24"', 'points="0,0 48,zero 48,-24"'), { resolve: fixture }));
    expect(e.message).toMatch(new RegExp(`<polygon> \\(line ${polygonLine}\\) point 1 attribute y must be a finite number, got "zero"`));
    e = refusal(() => loadTiledMapSync(text.replace('name="lives" type="int" value="3"', 'name="lives" type="int" value="three"'), { resolve: fixture }));
    expect(e.message).toMatch(new RegExp(`<property name="lives"> \\(line ${lineOf(text, 'name="lives"')}\\) \\("lives"\\) is an int property but its value is "three"`));
    // In the external tileset: its own file's line.
    const tsx = fixture("tiles.tsx");
    e = refusal(() => loadTiledMapSync(text, { resolve: (p) => (p === "tiles.tsx" ? tsx.replace('<tile id="3">', '<tile id="three">') : fixture(p)) }));
    expect(e.message).toMatch(new RegExp(`<tile> \\(line ${lineOf(tsx, '<tile id="3">')}\\) needs an integer id >= 0`));
    // Comments holding tags do not shift the count.
    e = refusal(() => loadTiledMapSync(text.replace(" <layer id=\"1\"", " <!-- <layer name=\"old\"/> -->\n <layer id=\"1\"").replace(`name="ground" width="20"`, `name="ground" width="-1"`), { resolve: fixture }));
    expect(e.message).toMatch(new RegExp(`<layer name="ground"> \\(line ${layerLine + 1}\\) attribute width`));
  });

  it("refuses malformed XML, entity declarations and deep nesting, with the line", () => {
    const text = fixture("tower.tmx");
    let e = refusal(() => loadTiledMapSync(text.replace("</objectgroup>", ""), { resolve: fixture }));
    expect(e.message).toMatch(/map is not well-formed XML \(line \d+, column \d+\)/);
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<map width="1" height="1" tilewidth="8" tileheight="8"><properties><property name="x" value="&b;"/></properties></map>`;
    e = refusal(() => loadTiledMapSync(laughs));
    expect(e.message).toMatch(/the DOCTYPE at line 2 declares entities; TMX needs none/);
    let deep = "";
    for (let d = 0; d < 300; d++) deep += `<group name="g${d}">\n`;
    e = refusal(() => loadTiledMapSync(`<map width="1" height="1" tilewidth="8" tileheight="8">\n${deep}`));
    expect(e.message).toMatch(/elements nest more than 200 deep at line 201/);
    // 150 groups deep is fine (walked with an explicit stack).
    let ok = "", close = "";
    for (let d = 0; d < 150; d++) { ok += `<group offsetx="8">`; close += "</group>"; }
    const m = loadTiledMapSync(`<map width="1" height="1" tilewidth="8" tileheight="8">${ok}<objectgroup><object x="0" y="0" width="1" height="1"/></objectgroup>${close}</map>`, { maxCells: 1 });
    expect(m.rects[0]).toBe(1200);
    expect(refusal(() => loadTiledMapSync("<tileset/>")).message).toMatch(/is a "tileset" file, not a map/);
    expect(refusal(() => loadTiledMapSync("<svg/>")).message).toMatch(/root element <svg> \(line 1\) is not a Tiled map/);
    expect(refusal(() => loadTiledMapSync(text, { xml: "dom" })).code).toBe("INVALID_OPTION"); // Node has no DOMParser
  });
});
