// Loading the core: what createWorld says when the core is not where it looks (CORE_NOT_FOUND) or
// the answer is not a core (CORE_NOT_WASM, e.g. a server's HTML fallback page), through the node
// entry over a local http server and from files; tests/browser.test.ts checks the same on a page.
// Needs dist/ (`npm run build`, which `npm test` runs first).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, HitcoreError } from "../dist/bindings/node.js";

const scalarBytes = await readFile(new URL("../dist/hitcore.wasm", import.meta.url));
const FALLBACK = "<!doctype html><html><head><title>My game</title></head><body></body></html>";

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<HitcoreError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(HitcoreError);
    return err as HitcoreError;
  }
  throw new Error("expected a rejection");
}

/** A world on the given core answers a pair query. */
async function pairsOn(wasm: string | URL | Uint8Array): Promise<number> {
  const world = await createWorld({ capacity: 4, wasm });
  world.addCircle(0, 0, 2);
  world.addCircle(3, 0, 2);
  return world.selfPairs();
}

describe("loading the core over http (node entry)", () => {
  let server: Server;
  let origin = "";
  let requests = 0;
  beforeAll(async () => {
    // As a single-page app's server: real files where they are, 404 under /api/, and its
    // index page for every other path.
    server = createServer((req, res) => {
      requests++;
      const path = new URL(req.url ?? "/", "http://local").pathname;
      if (path === "/core.wasm") res.writeHead(200, { "content-type": "application/wasm" }).end(scalarBytes);
      else if (path === "/octet/core.wasm") res.writeHead(200, { "content-type": "application/octet-stream" }).end(scalarBytes);
      else if (path === "/broken.wasm") res.writeHead(200, { "content-type": "application/wasm" }).end(scalarBytes.subarray(0, 1000));
      else if (path.startsWith("/api/")) res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(FALLBACK);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it("compiles a core served as application/wasm (streamed) or as anything else (read)", async () => {
    expect(await pairsOn(`${origin}/core.wasm`)).toBe(1);
    expect(await pairsOn(new URL(`${origin}/octet/core.wasm`))).toBe(1);
  });

  it("CORE_NOT_FOUND on a 404, naming the URL, the status and the wasm option", async () => {
    const err = await rejection(createWorld({ wasm: `${origin}/api/hitcore.wasm` }));
    expect(err.code).toBe("CORE_NOT_FOUND");
    expect(err.message).toContain(`${origin}/api/hitcore.wasm`);
    expect(err.message).toContain("HTTP 404");
    expect(err.message).toContain("options.wasm");
  });

  it("CORE_NOT_WASM on an HTML fallback page, naming its content type, its first bytes and both fixes", async () => {
    const err = await rejection(createWorld({ wasm: `${origin}/assets/hitcore-simd.wasm` }));
    expect(err.code).toBe("CORE_NOT_WASM");
    expect(err.message).toContain(`${origin}/assets/hitcore-simd.wasm is not a WebAssembly module`);
    expect(err.message).toContain('"text/html; charset=utf-8"');
    expect(err.message).toContain(`${FALLBACK.length} bytes starting "<!doctype html><html><head><titl"`);
    expect(err.message).toContain("application/wasm");
    expect(err.message).toContain("options.wasm");
    expect(err.message).not.toMatch(/magic word/);
  });

  it("CORE_NOT_WASM on a truncated module sent as application/wasm, with the compiler's reason", async () => {
    const err = await rejection(createWorld({ wasm: `${origin}/broken.wasm` }));
    expect(err.code).toBe("CORE_NOT_WASM");
    expect(err.message).toMatch(/broken\.wasm does not compile as a hitcore core: the server sent application\/wasm \(CompileError/);
  });

  it("CORE_NOT_FOUND when nothing answers, and tries a failed URL again on the next call", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/core.wasm`;
    await new Promise<void>((done) => closed.close(() => done()));
    expect((await rejection(createWorld({ wasm: url }))).code).toBe("CORE_NOT_FOUND");
    const before = requests;
    expect((await rejection(createWorld({ wasm: `${origin}/api/again.wasm` }))).code).toBe("CORE_NOT_FOUND");
    expect((await rejection(createWorld({ wasm: `${origin}/api/again.wasm` }))).code).toBe("CORE_NOT_FOUND");
    expect(requests - before).toBe(2);
  });
});

describe("loading the core from files and bytes (node entry)", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hitcore-loading-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("CORE_NOT_FOUND for a missing file, naming its path, the reason and the wasm option", async () => {
    const file = pathToFileURL(join(dir, "nowhere.wasm"));
    const err = await rejection(createWorld({ wasm: file }));
    expect(err.code).toBe("CORE_NOT_FOUND");
    expect(err.message).toContain(`${file.href} (ENOENT)`);
    expect(err.message).toContain("options.wasm");
  });

  it("CORE_NOT_WASM for a file or bytes that are not a module, naming the first bytes", async () => {
    const file = pathToFileURL(join(dir, "page.wasm"));
    await writeFile(file, FALLBACK);
    const fromFile = await rejection(createWorld({ wasm: file }));
    expect(fromFile.code).toBe("CORE_NOT_WASM");
    expect(fromFile.message).toContain(`${file.href} is not a WebAssembly module`);
    expect(fromFile.message).toContain('starting "<!doctype html>');
    const fromBytes = await rejection(createWorld({ wasm: new Uint8Array([0x7b, 0x0a, 0x00, 0xff]) }));
    expect(fromBytes.code).toBe("CORE_NOT_WASM");
    expect(fromBytes.message).toContain('options.wasm is not a WebAssembly module: 4 bytes starting "{\\x0a\\x00\\xff"');
  });
});
