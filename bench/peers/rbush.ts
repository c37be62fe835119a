// rbush, as PEERS.md found fastest when everything moves: items updated in place, then clear() +
// load() (bulk loading) every frame rather than remove + insert; one search per box.
// Bipartite: the enemies are indexed and every bullet queries.
import RBush from "rbush";
import { PairSink } from "./pairs.js";
import type { Peer, PeerRun } from "./peer.js";
import type { BoxScene } from "../../fixtures/box_scenes.js";

interface Item { minX: number; minY: number; maxX: number; maxY: number; i: number }

export const rbushPeer: Peer = {
  name: "rbush",
  hitcore: false,
  lag: 0,
  how: "rbush: one item object per box updated in place, clear() + load() every frame, one search per box; " +
    "bipartite indexes the enemies and queries with the bullets",
  async create(scene: BoxScene): Promise<PeerRun> {
    const sink = new PairSink();
    const { x, y, w, h, n, nA } = scene;
    const complete = n === nA;
    const items: Item[] = [];
    for (let k = 0; k < n; k++) items.push({ minX: 0, minY: 0, maxX: 0, maxY: 0, i: k });
    const indexed = complete ? items : items.slice(nA);
    const queries = complete ? items : items.slice(0, nA);
    const tree = new RBush<Item>();
    return {
      frame() {
        sink.count = 0;
        for (let k = 0; k < n; k++) {
          const it = items[k];
          it.minX = x[k]; it.minY = y[k]; it.maxX = x[k] + w[k]; it.maxY = y[k] + h[k];
        }
        tree.clear();
        tree.load(indexed);
        for (let q = 0; q < queries.length; q++) {
          const item = queries[q];
          const found = tree.search(item);
          for (let f = 0; f < found.length; f++) {
            const j = found[f].i;
            if (!complete) sink.push(item.i, j);
            else if (j > item.i) sink.push(item.i, j);
          }
        }
        return sink.count;
      },
      pairs: () => sink,
      dispose() { tree.clear(); },
    };
  },
};
