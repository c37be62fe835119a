// A snapshot changed in its state (its checksum made to match, as a hostile file would) is either
// taken whole, leaving a world that validates, or refused with a HitcoreError that leaves the world
// byte for byte as it was: whatever fails while it is applied, the world goes back.
import { describe, expect, it } from "vitest";
import { crc32, decodeSnapshot, encodeSnapshot } from "../bindings/snapshot.js";
import { HitcoreError } from "../bindings/node.js";
import { everyPart } from "./support.js";

const PREAMBLE = 24;

describe("a snapshot tampered past its checksum", () => {
  for (const backend of ["wasm-scalar", "js"] as const) {
    it(`is taken whole or refused with the world unchanged (${backend})`, async () => {
      const world = await everyPart(backend);
      const saved = world.snapshot();
      const stateBytes = new DataView(saved.buffer).getUint32(12, true);
      // Every byte of the state would take minutes (each try snapshots the world twice): about
      // 100 bytes spread over it, the first fields' (the heap and the bodies' layout) every one.
      const positions: number[] = [];
      for (let i = PREAMBLE; i < PREAMBLE + 160; i++) positions.push(i);
      const step = Math.max(1, Math.floor(stateBytes / 100));
      for (let i = PREAMBLE + 160; i < PREAMBLE + stateBytes; i += step) positions.push(i);
      let refused = 0, taken = 0;
      for (const i of positions) {
        for (const flip of [1, 0x80]) {
          const bytes = saved.slice();
          bytes[i] ^= flip;
          new DataView(bytes.buffer).setUint32(20, crc32(bytes.subarray(PREAMBLE)), true);
          const before = world.snapshot();
          try {
            world.restore(bytes);
            taken++;
            world.validate();
            world.restore(saved);
          } catch (e) {
            expect(e, `byte ${i} ^ ${flip}`).toBeInstanceOf(HitcoreError);
            expect(Buffer.compare(world.snapshot(), before), `byte ${i} ^ ${flip}: the world changed`).toBe(0);
            refused++;
          }
        }
      }
      expect(refused + taken).toBe(2 * positions.length);
      expect(refused).toBeGreaterThan(0);
    });
  }

  it("with a count of monster slots past the stores is refused before validate loops over it", async () => {
    // Found by npm run fuzz (seed 2050): a changed byte made the tile map's count of monster slots
    // about 2^31, and validate() looped over every one of them before it compared the count.
    const world = await everyPart("js");
    const saved = world.snapshot(), { state, memory } = decodeSnapshot(saved);
    const fields = (state as { tileMap: { fields: { monsterTop: number; caps: { monsters: number } } } }).tileMap.fields;
    for (const top of [fields.caps.monsters + 5, 2 ** 31 - 1, -1, 2.5]) {
      const bytes = encodeSnapshot({ ...(state as object), tileMap: { ...(state as { tileMap: object }).tileMap, fields: { ...fields, monsterTop: top } } }, memory);
      const before = world.snapshot();
      let error: unknown = null;
      try { world.restore(bytes); } catch (e) { error = e; }
      expect(error, `monsterTop ${top}`).toBeInstanceOf(HitcoreError);
      expect((error as HitcoreError).message, `monsterTop ${top}`).toContain("monster slots in use");
      expect(Buffer.compare(world.snapshot(), before)).toBe(0);
    }
  });
});
