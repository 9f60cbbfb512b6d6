// Time per 80x50 map: libdungeon's attach (WebAssembly, through the wrapper:
// grid copied out and result read, as a game gets it) against rot.js
// ROT.Map.Digger and ROT.Map.Uniform in the same process, each filling a
// Uint8Array through its callback. Rounds alternate between the generators so
// that drift hits all alike; each map is timed alone, and the median is reported.
//   npm install   (once, with network: rot-js, the peer)
//   node bench/bench.mjs [ROUNDS] [MAPS_PER_ROUND]
import { load } from '../dungeon.mjs';

const WIDTH = 80;
const HEIGHT = 50;
const ROUNDS = Number(process.argv[2] ?? 10);
const PER_ROUND = Number(process.argv[3] ?? 100);

async function loadRot() {
    try {
        return (await import('rot-js')).default ?? (await import('rot-js'));
    } catch {
        console.log('rot-js is not installed (`npm install` in examples/bindings/js needs the '
            + 'network): timing libdungeon alone');
        return null;
    }
}

function rotRunner(ROT, name) {
    return (seed) => {
        ROT.RNG.setSeed(seed + 1);
        const cells = new Uint8Array(WIDTH * HEIGHT);
        new ROT.Map[name](WIDTH, HEIGHT).create((x, y, wall) => { cells[y * WIDTH + x] = wall ? 0 : 1; });
        return cells;
    };
}

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[(sorted.length - 1) >> 1];
}

function timeOne(run, seed) {
    const t0 = process.hrtime.bigint();
    const cells = run(seed);
    const ns = Number(process.hrtime.bigint() - t0);
    if (!cells || cells.length !== WIDTH * HEIGHT)
        throw new Error('a generator returned no map');
    return ns;
}

const dungeon = await load();
const ROT = await loadRot();
const runners = [['libdungeon attach (wasm)', (seed) => dungeon.generate('attach', {}, BigInt(seed), WIDTH, HEIGHT).cells]];
if (ROT)
    runners.push(['rot.js Map.Digger', rotRunner(ROT, 'Digger')], ['rot.js Map.Uniform', rotRunner(ROT, 'Uniform')]);

const times = runners.map(() => []);
for (const [, run] of runners) // warm-up: JIT and wasm tiers
    for (let i = 0; i < PER_ROUND; i++)
        run(1000000 + i);
for (let round = 0; round < ROUNDS; round++)
    runners.forEach(([, run], k) => {
        for (let i = 0; i < PER_ROUND; i++)
            times[k].push(timeOne(run, round * PER_ROUND + i));
    });

console.log(`node ${process.version}, libdungeon ${dungeon.version}, ${WIDTH}x${HEIGHT}, `
    + `${ROUNDS * PER_ROUND} maps each (seeds 0..${ROUNDS * PER_ROUND - 1}), median time per map`);
const base = median(times[0]);
runners.forEach(([name], k) => {
    const ms = median(times[k]) / 1e6;
    const ratio = median(times[k]) / base;
    console.log(`${name.padEnd(28)} ${ms.toFixed(3).padStart(8)} ms  ${(1000 / ms).toFixed(0).padStart(6)} maps/s  ${ratio.toFixed(2)}x libdungeon`);
});
