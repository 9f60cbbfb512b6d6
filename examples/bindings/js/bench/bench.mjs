// Time per map at 80x25, 80x50 and 200x200: libdungeon's attach (WebAssembly)
// against rot.js's ROT.Map.Rogue, Digger and Uniform in the same process, each
// rot.js map filling a Uint8Array through its callback. attach runs twice:
// through the wrapper (generate(): cells copied out, recipe printed, result
// read into objects, as a game gets it) and as tiles only (the module's
// dg_recipe_generate with no result, cells copied out): the gap between the
// two is the wrapper's cost. Every round runs a batch of each generator in
// turn (about 25 ms of its maps), starting with a different one each round,
// each map timed alone; a generator's time is the median over all its maps,
// and its ratios to both attach rows are the medians over the rounds of (its
// round median / that attach's round median), so that drift and other jobs
// on the machine hit both sides alike.
//   npm install   (once, with network: rot-js, the peer)
//   node bench/bench.mjs [ROUNDS] [SIZES]      e.g. node bench/bench.mjs 11 80x25,200x200
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { load } from '../dungeon.mjs';

const ROUNDS = Number(process.argv[2] ?? 11);
const SIZES = (process.argv[3] ?? '80x25,80x50,200x200').split(',').map((s) => s.split('x').map(Number));
const BASE = 'attach (wasm, wrapper)';

async function loadRot() {
    try {
        const rot = await import('rot-js');
        return rot.default ?? rot;
    } catch {
        console.log('rot-js is not installed (`npm install` in examples/bindings/js needs the '
            + 'network): timing libdungeon alone');
        return null;
    }
}

function rotVersion() {
    try {
        const pkg = new URL('../node_modules/rot-js/package.json', import.meta.url);
        return JSON.parse(readFileSync(pkg, 'utf8')).version;
    } catch {
        return '?';
    }
}

function rotRunner(ROT, name, width, height) {
    return (seed) => {
        ROT.RNG.setSeed(seed + 1);
        const cells = new Uint8Array(width * height);
        new ROT.Map[name](width, height).create((x, y, wall) => { cells[y * width + x] = wall ? 0 : 1; });
        return cells;
    };
}

// attach's tiles alone through the module's exports: one recipe, grid and
// buffer for the whole run (sizes generous: the wrapper keeps the exact ones).
function tilesRunner(dungeon, width, height) {
    const m = dungeon.m;
    const recipe = m._malloc(4096), grid = m._malloc(64), buf = m._malloc(width * height);
    const name = m._malloc(8);
    dungeon.u8.set(new TextEncoder().encode('attach\0'), name);
    return (seed) => {
        if (m._dg_recipe_init(recipe, name, BigInt(seed), width, height) !== 0
            || m._dg_grid_init(grid, buf, width, height, 0) !== 0
            || m._dg_recipe_generate(recipe, grid, 0, 0, 0, 0) !== 0)
            return null;
        return dungeon.u8.slice(buf, buf + width * height);
    };
}

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[(sorted.length - 1) >> 1];
}

function timeOne(run, seed, cells) {
    const t0 = process.hrtime.bigint();
    const map = run(seed);
    const ns = Number(process.hrtime.bigint() - t0);
    if (!map || map.length !== cells)
        throw new Error('a generator returned no map');
    return ns;
}

// Maps per round for one generator: about 25 ms of them (at least 1, at most
// 40), from the median of its warm-up maps, so that a round keeps each
// generator's share of the machine alike and rot.js's Digger and Uniform,
// which stop at their 1 s time limit at 200x200, keep the run within minutes.
function warmUp(run, cells) {
    const times = [];
    const t0 = Date.now();
    while (times.length < 40 && (times.length < 3 || Date.now() - t0 < 300))
        times.push(timeOne(run, 1000000 + times.length, cells));
    return Math.max(1, Math.min(40, Math.round(25e6 / median(times))));
}

function benchSize(dungeon, ROT, width, height) {
    const cells = width * height;
    const runners = [[BASE, (seed) => dungeon.generate('attach', {}, BigInt(seed), width, height).cells],
        ['attach (wasm, tiles only)', tilesRunner(dungeon, width, height)]];
    if (ROT)
        for (const name of ['Rogue', 'Uniform', 'Digger'])
            runners.push([`rot.js Map.${name}`, rotRunner(ROT, name, width, height)]);
    const per = runners.map(([, run]) => warmUp(run, cells)); // also the JIT's and wasm tiers' warm-up
    const times = runners.map(() => []);
    const roundMedians = runners.map(() => []);
    for (let round = 0; round < ROUNDS; round++)
        for (let j = 0; j < runners.length; j++) {
            const k = (round + j) % runners.length;
            const batch = [];
            for (let i = 0; i < per[k]; i++)
                batch.push(timeOne(runners[k][1], round * per[k] + i, cells));
            times[k].push(...batch);
            roundMedians[k].push(median(batch));
        }
    console.log(`\n${width}x${height}: ${ROUNDS} rounds, load average `
        + `${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`${'generator'.padEnd(28)} ${'maps/round'.padStart(10)} ${'median/map'.padStart(11)} `
        + `${'maps/s'.padStart(8)}  median over rounds (min-max) of the ratio to attach: wrapper | tiles only`);
    const ratio = (k, base) => {
        const ratios = roundMedians[k].map((t, r) => t / roundMedians[base][r]);
        return `${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
    };
    runners.forEach(([name], k) => {
        const ms = median(times[k]) / 1e6;
        console.log(`${name.padEnd(28)} ${String(per[k]).padStart(10)} ${ms.toFixed(3).padStart(8)} ms `
            + `${(1000 / ms).toFixed(0).padStart(8)}  ${ratio(k, 0).padEnd(20)} | ${ratio(k, 1)}`);
    });
}

const dungeon = await load();
const ROT = await loadRot();
const say = console.log;
let rotMessages = 0;
console.log = (...args) => { // rot.js's Rogue logs "-- Unable to connect room." per failure
    if (String(args[0]).startsWith('-- '))
        rotMessages++;
    else
        say(...args);
};
console.log(`node ${process.version}, libdungeon ${dungeon.version}, rot.js ${ROT ? rotVersion() : 'absent'}; `
    + 'time per map (process.hrtime); a ratio above 1: slower than that attach');
for (const [width, height] of SIZES)
    benchSize(dungeon, ROT, width, height);
if (rotMessages)
    say(`\nrot.js printed ${rotMessages} messages (Rogue's "Unable to connect room"), not shown`);
