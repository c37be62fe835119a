// The package as npm publishes it: the files `npm pack` takes, and its .d.ts files compiled by
// TypeScript in two consumer projects, one for Node without the DOM lib and one for browsers.
// Needs dist/ (`npm run build`, which `npm test` runs first).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(repoRoot, "node_modules", "typescript", "lib", "tsc.js");

describe("npm pack", () => {
  it("packs the cores, the entries and their types, a LICENSE, and no .wat text", async () => {
    // --ignore-scripts: the file list only; prepack's release build is npm test's own first step.
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot });
    const files: string[] = JSON.parse(stdout)[0].files.map((f: { path: string }) => f.path);
    expect(files.filter((f) => f.endsWith(".wat"))).toEqual([]);
    for (const f of ["LICENSE", "package.json", "README.md", "dist/hitcore.wasm", "dist/hitcore-simd.wasm",
      "dist/bindings/node.js", "dist/bindings/node.d.ts", "dist/bindings/browser.js", "dist/bindings/browser.d.ts",
      "dist/bindings/worker.js", "dist/bindings/worker.d.ts", "dist/hitcore.single.js", "dist/bindings/single.d.ts", "dist/hitcore-cores.js"]) {
      expect(files, f).toContain(f);
    }
  }, 60_000);

  it("keeps the game engines of examples/ out: devDependencies only, not packed, imported by no packed module", async () => {
    const pkg = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    for (const engine of ["phaser", "pixi.js"]) {
      expect(pkg.devDependencies, engine).toHaveProperty(engine);
      expect(pkg.dependencies ?? {}, engine).not.toHaveProperty(engine);
    }
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot });
    const files: string[] = JSON.parse(stdout)[0].files.map((f: { path: string }) => f.path);
    expect(files.filter((f) => f.startsWith("examples/"))).toEqual([]);
    const modules = files.filter((f) => /\.(js|ts)$/.test(f));
    expect(modules.length).toBeGreaterThan(10);
    for (const f of modules) {
      expect(await readFile(join(repoRoot, f), "utf8"), f).not.toMatch(/from\s*["'](phaser|pixi\.js)["']|import\(\s*["'](phaser|pixi\.js)["']/);
    }
  }, 60_000);
});

// What a consumer writes: createWorld with each part, a core passed in, the views and a query.
const CONSUMER = `
import { createWorld, type WasmSource, type World } from "hitcore";

export async function demo(core?: WasmSource): Promise<number> {
  const world: World = await createWorld({ capacity: 64, wasm: core, simd: false });
  world.addCircle(0, 0, 2);
  world.x[0] = 1;
  const level = world.addRectLevel();
  const platforms = world.addPlatforms();
  const tiles = world.addTileMap({ ascii: ["X"] });
  return world.selfPairs() + level.memoryBytes + platforms.surfaceCount + tiles.cols;
}
`;

const COMPILER = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false };

describe.skipIf(!existsSync(join(repoRoot, "dist", "bindings", "node.d.ts")))("the published types", () => {
  let dir = "";
  beforeAll(async () => {
    // A project beside no other: hitcore and @types/node linked in as npm would install them.
    dir = await mkdtemp(join(tmpdir(), "hitcore-consumer-"));
    await mkdir(join(dir, "node_modules", "@types"), { recursive: true });
    await symlink(repoRoot, join(dir, "node_modules", "hitcore"), "dir");
    await symlink(join(repoRoot, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"), "dir");
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    await writeFile(join(dir, "consumer.ts"), CONSUMER);
    await writeFile(join(dir, "node.ts"), `import { readFileSync } from "node:fs";\nimport { demo } from "./consumer.js";\nawait demo(readFileSync("core.wasm"));\n`);
    await writeFile(join(dir, "browser.ts"), `import { demo } from "./consumer.js";\nawait demo(await WebAssembly.compileStreaming(fetch("core.wasm")));\nawait demo(new URL("core.wasm", location.href));\n`);
    await writeFile(join(dir, "tsconfig.node.json"), JSON.stringify({ compilerOptions: { ...COMPILER, lib: ["ES2022"], types: ["node"] }, files: ["node.ts"] }));
    // The browser project checks what a page passes in; lib.dom itself needs no checking (a second of CPU).
    await writeFile(join(dir, "tsconfig.browser.json"), JSON.stringify({ compilerOptions: { ...COMPILER, lib: ["ES2022", "DOM"], types: [], skipLibCheck: true }, files: ["browser.ts"] }));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** tsc's diagnostics for one consumer project ("" when it compiles). */
  async function diagnostics(project: string): Promise<string> {
    try {
      await run(process.execPath, [tsc, "-p", join(dir, project)], { cwd: dir });
      return "";
    } catch (err) {
      return String((err as { stdout?: string }).stdout || err);
    }
  }

  it("compile in a Node project without the DOM lib (lib ES2022, types node, skipLibCheck false)", async () => {
    expect(await diagnostics("tsconfig.node.json")).toBe("");
  }, 60_000);

  it("compile in a browser project (lib DOM, no Node types), taking a WebAssembly.Module and a URL", async () => {
    expect(await diagnostics("tsconfig.browser.json")).toBe("");
  }, 60_000);
});
