// Vite config for the bullet-hell demo: `npm start` serves it, `npm run demo:build` bundles it.
// The demo imports the library's TS sources and the wasm core that `npm run build` writes to dist/.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const demoRoot = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// Every page of the demo: each part of the library adds its own HTML page next to index.html.
const pages = Object.fromEntries(readdirSync(demoRoot).filter((f) => f.endsWith(".html")).map((f) => [f.slice(0, -5), join(demoRoot, f)]));

// Cross-origin isolation buys finer timers: Chromium coarsens performance.now() to 100 us
// otherwise, about the cost of the whole collision step at a few thousand bullets. It also gives
// the page SharedArrayBuffer, which "run in worker" shares its frames through (without it they are
// transferred). Static hosts serving demo-dist/ need the same two headers for both.
export const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

// The facade finds its packaged cores with new URL("../hitcore.wasm", import.meta.url), relative to
// dist/bindings/ where it is published (so that bundlers copy them); the demo compiles the facade
// from bindings/, where that file does not exist, and passes every page its core explicitly. Vite's
// warning about it says nothing about the demo; every other warning still shows.
export const packagedCoreUrls: Plugin = {
  name: "hitcore:packaged-core-urls",
  configResolved({ logger }) {
    const warnOnce = logger.warnOnce.bind(logger);
    logger.warnOnce = (message, options) => {
      if (/new URL\("\.\.\/hitcore(-simd)?\.wasm", import\.meta\.url\) doesn't exist at build time/.test(message)) return;
      warnOnce(message, options);
    };
  },
};

export default defineConfig({
  root: demoRoot,
  plugins: [packagedCoreUrls],
  // Relative asset URLs, so demo-dist/ works from any path (a static host's subfolder, a test server).
  base: "./",
  server: {
    // `../dist/hitcore.wasm?url`, bindings/, fixtures/ and bench/ live outside the demo root.
    fs: { allow: [repoRoot] },
    headers: isolation,
  },
  preview: { headers: isolation },
  // The game's worker (demo/bullet_worker.ts) is a module worker: it imports the facade, whose js
  // backend is a separate chunk loaded on demand.
  worker: { format: "es" },
  build: {
    outDir: "../demo-dist",
    emptyOutDir: true,
    rollupOptions: {
      input: pages,
      onwarn(warning, warn) {
        // box-intersect's bit-twiddle opens with "use restrict", a directive no engine has: dropping it changes nothing.
        if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes('"use restrict"')) return;
        warn(warning);
      },
    },
    // The peers page bundles rapier2d, whose wasm is inlined (1.8 MB); every other page is under 130 kB.
    chunkSizeWarningLimit: 2048,
    // Keep the core a separate file even if it shrinks below the inline limit: a real
    // application/wasm response lets the browser compile it while it downloads.
    assetsInlineLimit: (file) => (file.endsWith(".wasm") ? false : undefined),
  },
});
