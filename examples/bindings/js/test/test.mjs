// Tests of the libdungeon package under Node: the WebAssembly build against
// the native C library. Maps of every generator (ASCII and JSON) must equal the
// native tool's files byte for byte, analysis answers must equal the native
// ones, and bad input must throw a DungeonError. No network, no npm install.
//   node test/test.mjs          (make check-wasm runs it with the paths below)
// DUNGEON_TOOL: the native tool (default build/bin/dungeon); DUNGEON_ANALYSIS:
// the native analysis_ref program (default: those tests are skipped as failed);
// DUNGEON_TMP: a scratch directory. Ends "N passed, N failed".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { DungeonError, load } from '../dungeon.mjs';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TOOL = process.env.DUNGEON_TOOL || join(ROOT, 'build/bin/dungeon');
const ANALYSIS = process.env.DUNGEON_ANALYSIS || '';
const TMP = process.env.DUNGEON_TMP || mkdtempSync(join(tmpdir(), 'libdungeon-js-'));
const PREFABS = {
    'prefab-full': 'examples/prefabs/shaft.txt',
    'prefab-jigsaw': 'examples/prefabs/forest.txt',
    'prefab-islands': 'examples/prefabs/factory.txt',
    'prefab-mixed': 'examples/prefabs/vaults.txt',
};

let passed = 0;
let failed = 0;

function test(name, fn) {
    try {
        fn();
        console.log(`   ok: ${name}`);
        passed++;
    } catch (error) {
        console.log(`   FAILED: ${name}: ${error && error.message}`);
        failed++;
    }
}

function assert(condition, message) {
    if (!condition)
        throw new Error(message);
}

/** fn must throw a DungeonError with this status; returns it. */
function throwsStatus(fn, status, pattern) {
    try {
        fn();
    } catch (error) {
        assert(error instanceof DungeonError, `threw ${error}, not a DungeonError`);
        assert(error.status === status, `status ${error.status} (${error.message}), want ${status}`);
        assert(!pattern || pattern.test(error.message), `message '${error.message}' lacks ${pattern}`);
        return error;
    }
    throw new Error('did not throw');
}

// ---- the recipes: every generator, several sizes and seeds -----------------
const BIG_SEED = 18446744073709551557n; // above 2^53: only a BigInt holds it
function recipes() {
    const list = [];
    const plain = ['attach', 'chain', 'cave', 'bsp', 'maze', 'walk', 'scatter', 'world'];
    const sizes = [[80, 50], [41, 29], [120, 64]];
    const seeds = [1n, 7n, BIG_SEED];
    for (const gen of plain)
        for (let i = 0; i < sizes.length; i++)
            for (const seed of i === 0 ? seeds : seeds.slice(0, 2))
                list.push({ line: `${gen} seed=${seed} width=${sizes[i][0]} height=${sizes[i][1]}` });
    const extra = [
        'attach seed=42 width=100 height=60 growth=newest dead_ends=prune doors=all',
        'chain seed=9 width=100 height=60 branch_chance=300 loop_chance=200 overlap=forbid',
        'cave seed=5 width=90 height=60 connect=largest tunnel_width=1',
        'maze seed=3 width=61 height=41 layout=perfect',
        'walk seed=4 width=70 height=40 mode=drunk symmetry=xy',
        'scatter seed=6 width=96 height=64 loop_permille=1000',
        'bsp seed=8 width=90 height=50 loop_chance=1000 doors=none',
    ];
    for (const line of extra)
        list.push({ line });
    const prefab = [
        ['prefab-full seed=3 width=56 height=26', 'prefab-full'],
        ['prefab-full seed=11 width=60 height=30', 'prefab-full'],
        ['prefab-jigsaw seed=5 width=84 height=50', 'prefab-jigsaw'],
        ['prefab-jigsaw seed=2 width=21 height=15', 'prefab-jigsaw'],
        ['prefab-islands seed=7 width=80 height=50', 'prefab-islands'],
        ['prefab-islands seed=12 width=100 height=60', 'prefab-islands'],
        ['prefab-mixed seed=4 width=80 height=50 count=6', 'prefab-mixed'],
        ['prefab-mixed seed=4 width=80 height=50 base=cave', 'prefab-mixed'],
        ['prefab-mixed seed=9 width=90 height=60 base=bsp', 'prefab-mixed'],
    ];
    for (const [line, gen] of prefab)
        list.push({ line, prefabs: PREFABS[gen] });
    list.push({ line: 'world seed=7 width=81 height=51 dead_end_fix=1000', prefabs: 'examples/prefabs/furnish.txt' });
    return list;
}

function nativeMap(recipe, format, n) {
    const out = join(TMP, `native-${n}.${format}`);
    const args = ['--recipe', recipe.line, '--format', format, '-o', out];
    if (recipe.prefabs)
        args.push('--prefabs', recipe.prefabs);
    execFileSync(TOOL, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    return readFileSync(out, 'utf8');
}

// ---- tests -------------------------------------------------------------------
const d = await load();
const sets = new Map();
function prefabSet(file) {
    if (!sets.has(file))
        sets.set(file, d.loadPrefabs(readFileSync(join(ROOT, file), 'utf8'), file));
    return sets.get(file);
}

function testRegistry() {
    test('the registry lists the native tool\'s generators and parameter defaults', () => {
        // (the package runs every generator but those that need a level graph)
        const names = execFileSync(TOOL, ['--list'], { encoding: 'utf8' })
            .split('\n').filter((l) => l && !l.includes('(needs --graph)'))
            .map((l) => l.trim().split(/\s+/)[0]);
        const gens = d.generators();
        assert(isDeepStrictEqual(gens.map((g) => g.name), names), `${gens.map((g) => g.name)} vs ${names}`);
        for (const g of gens) {
            const rows = execFileSync(TOOL, ['--list-params', g.name], { encoding: 'utf8' })
                .split('\n').slice(1).filter(Boolean).map((l) => l.split(/\s+/));
            const mine = g.params.map((p) => [p.name,
                p.type === 'enum' ? p.choices[p.default] : String(p.default)]);
            assert(isDeepStrictEqual(mine, rows.map((r) => [r[0], r[2]])), `${g.name} parameters differ`);
        }
    });
}

function testMaps() {
    const list = recipes();
    assert(list.length >= 50, 'at least 50 recipes');
    list.forEach((recipe, n) => {
        const options = recipe.prefabs ? { prefabs: prefabSet(recipe.prefabs) } : {};
        let map = null;
        test(`ascii = native: ${recipe.line}`, () => {
            map = d.runRecipe(recipe.line, options);
            assert(d.ascii(map) === nativeMap(recipe, 'ascii', n), 'ASCII differs');
        });
        test(`json = native: ${recipe.line}`, () => {
            assert(map, 'no map');
            assert(d.exportJSON(map) === nativeMap(recipe, 'json', n), 'JSON differs');
        });
    });
}

function testSeedsAndResult() {
    test('a Number seed and a BigInt seed give the same map; generate() = runRecipe()', () => {
        const a = d.generate('scatter', { gap: 3 }, 77, 60, 40);
        const b = d.generate('scatter', { gap: 3 }, 77n, 60, 40);
        const c = d.runRecipe('scatter seed=77 width=60 height=40 gap=3');
        assert(isDeepStrictEqual(a.cells, b.cells) && isDeepStrictEqual(a.cells, c.cells), 'cells differ');
        assert(a.recipe === c.recipe, 'recipes differ');
    });
    test('seeds above 2^53 survive the round trip through the recipe', () => {
        const spec = d.parseRecipe(d.formatRecipe({ generator: 'attach', seed: BIG_SEED, width: 40, height: 30 }));
        assert(spec.seed === BIG_SEED && spec.width === 40 && spec.height === 30, JSON.stringify(spec.text));
        assert(spec.params.growth === 'uniform', 'enum parameters come back by name');
    });
    test('the result matches the JSON export (rooms, doors, start, exit)', () => {
        const map = d.generate('bsp', {}, 5n, 80, 50);
        const json = JSON.parse(d.exportJSON(map));
        const r = map.result;
        assert(r.rooms.length === json.rooms.length && r.rooms.length > 0, 'room count');
        assert(r.doors.length === json.doors.length, 'door count');
        assert(r.start.x >= 0 && map.cells[r.start.y * map.width + r.start.x] !== 0, 'start on floor');
        assert(r.metrics.rooms === r.rooms.length, 'metrics.rooms');
    });
}

function testRoomLabels() {
    const builtin = new Set(['', 'start', 'exit', 'key', 'boss', 'secret', 'treasure', 'shop', 'hub']);
    for (const line of ['attach seed=42 width=80 height=50', 'bsp seed=3 width=70 height=44']) {
        test(`room labels from the built-in roles: ${line}`, () => {
            assert(d.roomLabels(d.runRecipe(line)).length === 0, 'a plain recipe labels nothing');
            const map = d.runRecipe(line, { roles: true });
            const labels = d.roomLabels(map), r = map.result;
            assert(labels.length === r.rooms.length && labels.length > 0, 'one label per room');
            assert(labels.every((l, i) => l.room === i && builtin.has(l.role) && l.name === '' && l.node === -1),
                JSON.stringify(labels));
            const rooms = (role) => labels.filter((l) => l.role === role).map((l) => l.room);
            assert(isDeepStrictEqual(rooms('start'), [r.startRoom]), 'start role on the start room');
            assert(isDeepStrictEqual(rooms('exit'), [r.exitRoom]), 'exit role on the exit room');
            assert(isDeepStrictEqual(d.roomLabels(d.runRecipe(line, { roles: true })), labels), 'deterministic');
        });
    }
    test('room labels from an own role table; a bad table throws', () => {
        const map = d.generate('attach', {}, 42n, 80, 50, { roles: 'boss rank=700..1000\ntreasure count=2..2\n' });
        const roles = d.roomLabels(map).map((l) => l.role);
        assert(roles.filter((x) => x === 'boss').length === 1, 'one boss');
        assert(roles.filter((x) => x === 'treasure').length === 2, 'two treasure rooms');
        assert(roles.every((x) => ['', 'boss', 'treasure'].includes(x)), roles.join());
        throwsStatus(() => d.runRecipe('attach seed=1 width=60 height=40', { roles: 'boss bogus=1\n' }), -1,
            /<roles>:1/);
    });
}

function testAnalysis() {
    const cases = [
        { line: 'attach seed=1 width=80 height=50' },
        { line: 'cave seed=5 width=70 height=45' },
        { line: 'maze seed=3 width=61 height=41' },
        { line: 'prefab-islands seed=7 width=80 height=50', prefabs: PREFABS['prefab-islands'] },
    ];
    const eight = { neighbours: 8, straightWeight: 2, diagonalWeight: 3 };
    for (const c of cases) {
        test(`analysis = native (paths, distances, fov): ${c.line}`, () => {
            assert(ANALYSIS && existsSync(ANALYSIS), 'DUNGEON_ANALYSIS (the native analysis_ref) is not built');
            const args = c.prefabs ? [c.line, c.prefabs] : [c.line];
            const want = JSON.parse(execFileSync(ANALYSIS, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 }));
            const map = d.runRecipe(c.line, c.prefabs ? { prefabs: prefabSet(c.prefabs) } : {});
            const { start, exit } = map.result;
            assert(isDeepStrictEqual(d.pathFind(map, start, exit), want.path4), 'path4');
            assert(isDeepStrictEqual(d.pathFind(map, start, exit, eight), want.path8), 'path8');
            const dist = d.distanceMap(map, [start]);
            assert(isDeepStrictEqual({ ...dist, distances: Array.from(dist.distances) }, want.distance), 'distance');
            assert(isDeepStrictEqual(Array.from(d.fov(map, start, 8)), want.fov8), 'fov radius 8');
            assert(isDeepStrictEqual(Array.from(d.fov(map, start, 0)), want.fov0), 'fov radius 0');
        });
    }
}

function testAutotile() {
    test('autotile blob = the definition on every cell', () => {
        const map = d.generate('attach', {}, 99n, 60, 30);
        const { cells, width: w, height: h } = map;
        const got = d.autotile(map, 'blob');
        const wall = (x, y) => (x >= 0 && y >= 0 && x < w && y < h && (cells[y * w + x] === 3 || cells[y * w + x] === 11)) ? 1 : 0;
        let bad = 0;
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
                const n = wall(x, y - 1), e = wall(x + 1, y), s = wall(x, y + 1), ww = wall(x - 1, y);
                const mask = n | (n & e & wall(x + 1, y - 1)) << 1 | e << 2 | (s & e & wall(x + 1, y + 1)) << 3 |
                    s << 4 | (s & ww & wall(x - 1, y + 1)) << 5 | ww << 6 | (n & ww & wall(x - 1, y - 1)) << 7;
                if (d.blobMask(got[y * w + x]) !== mask)
                    bad++;
            }
        assert(bad === 0, `${bad} cells differ`);
        assert(d.autotile(map, 'corner').length === (w + 1) * (h + 1), 'the corner grid');
        let threw = false;
        try { d.autotile(map, 'blob', { selfClass: 7 }); } catch (e) { threw = e.status === -1; }
        assert(threw, 'no tile in the self class is DG_E_INVALID');
    });
}

function testBadInput() {
    const map = d.generate('attach', {}, 1n, 40, 30);
    const wall = map.cells.indexOf(3);
    const wallCell = { x: wall % map.width, y: Math.floor(wall / map.width) };
    const bad = [
        ['unknown generator', () => d.generate('nope'), -7, /unknown generator/],
        ['parameter out of range', () => d.generate('attach', { room_min_w: 0 }), -1, /room_min_w/],
        ['unknown parameter', () => d.generate('attach', { bogus: 1 }), -7, /bogus/],
        ['enum value unknown', () => d.generate('attach', { growth: 'sideways' }), -7, /sideways/],
        ['negative seed', () => d.generate('attach', {}, -1), -1, /seed/],
        ['seed above 2^64-1', () => d.generate('attach', {}, 1n << 64n), -1, /seed/],
        ['fractional seed', () => d.generate('attach', {}, 1.5), -1, /seed/],
        ['zero width', () => d.generate('attach', {}, 1n, 0, 10), -1, /width/],
        ['width over the limit', () => d.generate('attach', {}, 1n, 40000, 10), -1, /width/],
        ['malformed recipe', () => d.parseRecipe('attach seed=x'), -7, /seed/],
        ['recipe of another series', () => d.parseRecipe('attach version=0.1'), -1, /libdungeon/],
        ['prefab generator without prefabs', () => d.runRecipe('prefab-full seed=1'), -2, /prefab set/],
        ['malformed prefab text', () => d.loadPrefabs('prefab x\nmap\n#x#\n', 'bad.txt'), -7, /bad\.txt:/],
        ['path from outside the grid', () => d.pathFind(map, { x: -1, y: 0 }, map.result.exit), -1, null],
        ['distance map from a wall', () => d.distanceMap(map, [wallCell]), -1, null],
        ['fov from outside the grid', () => d.fov(map, { x: 99, y: 99 }, 4), -1, null],
        ['cells of the wrong size', () => d.ascii({ cells: new Uint8Array(5), width: 3, height: 3 }), -1, /cells/],
        ['not a map', () => d.fov(null, { x: 1, y: 1 }), -2, null],
    ];
    for (const [name, fn, status, pattern] of bad)
        test(`bad input throws: ${name}`, () => throwsStatus(fn, status, pattern));
    test('a path to a wall is null (no path), not an error', () => {
        assert(d.pathFind(map, map.result.start, wallCell) === null, 'expected null');
    });
    test('the module still gives the same map after every error', () => {
        const again = d.generate('attach', {}, 1n, 40, 30);
        assert(isDeepStrictEqual(again.cells, map.cells), 'cells differ');
    });
}

// ---- level graphs: generator 'graph' with a Graph ------------------------------
function testGraphs() {
    for (const file of ['linear.txt', 'loop_lock.txt', 'zelda.txt']) {
        test(`graph ${file}: json = native, every node a room`, () => {
            const path = `examples/graphs/${file}`;
            const graph = d.loadGraph(readFileSync(join(ROOT, path), 'utf8'), path);
            try {
                const map = d.generate('graph', {}, 5n, 80, 50, { graph });
                assert(map.recipe.includes(`graph=${path} graph_hash=0x${graph.hash.toString(16)}`), map.recipe);
                const out = join(TMP, `graph-${file}.json`);
                execFileSync(TOOL, ['--recipe', 'graph seed=5 width=80 height=50', '--graph', path,
                    '--format', 'json', '-o', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
                assert(d.exportJSON(map) === readFileSync(out, 'utf8'), 'JSON differs');
                const names = d.roomLabels(map).filter((l) => l.node >= 0).map((l) => l.name).sort();
                assert(isDeepStrictEqual(names, graph.nodes.map((n) => n.name).sort()), names.join());
                assert(isDeepStrictEqual(d.runRecipe(map.recipe, { graph }).cells, map.cells), 'replay differs');
            } finally {
                graph.free();
            }
        });
    }
    test('graph: needs a Graph, stays out of generators(), bad graphs throw with the place', () => {
        assert(!d.generators().some((g) => g.name === 'graph'), 'graph in the default list');
        assert(d.generators({ withGraph: true }).find((g) => g.name === 'graph')?.needsGraph, 'graph listed');
        throwsStatus(() => d.generate('graph', {}, 1n, 80, 50), -2, /level graph/);
        throwsStatus(() => d.loadGraph('graph 1\nnode a size=3x3\nedge a b\n', 't.txt'), -7, /t\.txt:3:8:/);
        const petersen = ['graph 1', ...[...Array(10).keys()].map((i) => `node n${i} size=3x3`),
            ...[...Array(5).keys()].flatMap((i) => [`edge n${i} n${(i + 1) % 5}`, `edge n${i} n${5 + i}`,
                `edge n${5 + i} n${5 + (i + 2) % 5}`])].join('\n');
        throwsStatus(() => d.loadGraph(petersen, 'p.txt'), -1, /not planar.*\(a K3,3\)/);
        const graph = d.loadGraph(readFileSync(join(ROOT, 'examples/graphs/hub.txt'), 'utf8'), 'hub.txt');
        assert(graph.nodes.length === 10 && graph.edges.length === 9, 'hub.txt: 10 nodes, 9 edges');
        graph.free();
        throwsStatus(() => d.generate('graph', {}, 1n, 80, 50, { graph }), -2, /freed/);
    });
}

testRegistry();
testGraphs();
testSeedsAndResult();
testRoomLabels();
testMaps();
testAnalysis();
testAutotile();
testBadInput();
for (const set of sets.values())
    set.free();
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
