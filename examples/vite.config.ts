// Vite config for the engine examples (examples/pixi, examples/phaser): `npm run examples` serves
// them, `npm run examples:build` bundles them into examples-dist/. Apart from the demo's config so
// that the engines (devDependencies) stay out of the demo bundle, which the browser tests rebuild
// on every run; the examples' own tests build only the page they play.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { isolation, packagedCoreUrls } from "../demo/vite.config.js";

const examplesRoot = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
/** Every example: a folder with an index.html; the root index.html links them. */
export const examplePages: Record<string, string> = {
  index: join(examplesRoot, "index.html"),
  ...Object.fromEntries(readdirSync(examplesRoot, { withFileTypes: true })
    .filter((d) => d.isDirectory() && readdirSync(join(examplesRoot, d.name)).includes("index.html"))
    .map((d) => [d.name, join(examplesRoot, d.name, "index.html")])),
};

export default defineConfig({
  root: examplesRoot,
  plugins: [packagedCoreUrls],
  base: "./",
  server: { fs: { allow: [repoRoot] }, headers: isolation },
  preview: { headers: isolation },
  build: {
    outDir: "../examples-dist",
    emptyOutDir: true,
    rollupOptions: { input: examplePages },
    // Phaser's bundle is about 1.2 MB minified; PixiJS's under 600 kB.
    chunkSizeWarningLimit: 2048,
    assetsInlineLimit: (file) => (file.endsWith(".wasm") ? false : undefined),
  },
});
