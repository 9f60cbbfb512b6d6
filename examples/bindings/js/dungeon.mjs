// libdungeon for JavaScript: a thin ES-module layer over the WebAssembly build
// of the C library (dist/, made by `make wasm` or `npm run build`). Same
// recipe, same bytes as the C library on every platform. See docs/ports.md.
import createDungeonModule from './dist/dungeon.js';

const U64_MAX = (1n << 64n) - 1n;
const PARAM_TYPES = ['int', 'bool', 'enum'];
const DG_E_INVALID = -1;
const DG_E_BUFFER = -9;
const DG_E_NOPATH = -8;

// Struct layouts of include/dungeon.h on wasm32 (4-byte pointers and size_t).
const DIAG_SIZE = 268;          // status, line, column, message[256]
const DIAG_MESSAGE = 12;
const GRID_SIZE = 16;           // cells, width, height, stride
const RESULT_SIZE = 240;        // ..., metrics (17 + 8 spare ints) at 56, labels at 156, corridor_edges at 164,
                                // allocator at 172, capacity_[6], spare[8]
const RECIPE_SIZE = 440;        // 248 bytes to inputs, then inputs[3] of 64 (hash, file hint)
const RECIPE_WIDTH = 40;
const RECIPE_HEIGHT = 44;
const GENERATOR_INFO_SIZE = 28;
const PARAM_DESC_SIZE = 36;
const AUTOTILE_PARAMS_SIZE = 300; // kind, self_class, outside_class, classes[256], spare[8]
const WALK_SIZE = 64;           // dg_move: passable, cost, 4 ints, overlay, size, spare[8]
const ROLE_RULE_SIZE = 120;     // dg_role_rule: name[32], 14 ints, spare[8]
const ROLES_MAX = 32;           // DG_ROLES_MAX
const GRAPH_SIZE = 84;           // dg_graph: nodes, node_count, edges, edge_count, 3 options,
                                // prefabs, allocator_ (12), capacity_[2], spare[8]
const GRAPH_NODE_SIZE = 112;    // name[32], role[32], 4 sizes, templates[32]
const GRAPH_EDGE_SIZE = 32;     // a, b, kind, length_min, length_max, lock, key_node, secret
const SITE_SIZE = 120;          // dg_site: reserved, stride, anchor_count, anchors[9], graph, spare[8]
const SITE_GRAPH = 84;
const RECIPE_GRAPH = 0;         // DG_RECIPE_GRAPH
const RECIPE_INPUTS = 248;      // dg_recipe.inputs: { uint64 hash, char file[56] } x 3
const EXPORT_OPTIONS_SIZE = 56; // format, tile_width, tile_height, reserved, tileset_image, recipe, spare[8]
const METRIC_NAMES = ['cells', 'floorCells', 'floorPermille', 'rooms', 'corridors', 'doors',
    'deadEnds', 'loops', 'regions', 'attempts', 'failures', 'stoppedEarly', 'requested',
    'placed', 'overlaps', 'chokepoints', 'diameter'];

/** A library error: message "STATUS NAME: diagnostic", with the status code. */
export class DungeonError extends Error {
    constructor(status, statusName, message, line = 0, column = 0) {
        super(message ? `${statusName}: ${message}` : statusName);
        this.name = 'DungeonError';
        this.status = status;
        this.statusName = statusName;
        this.line = line;
        this.column = column;
    }
}

/** Loads the WebAssembly module; resolves to a Dungeon. */
export async function load(moduleOptions = {}) {
    const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';
    const module = isNode ? await instantiateInNode(moduleOptions)
        : await createDungeonModule(moduleOptions);
    return new Dungeon(module);
}

// emscripten 3.1.6's ES6 loader reads the CommonJS names __dirname and require
// under Node; they are lent to it while it instantiates, then taken back. The
// wasm file is read here, as Node's fetch does not take file: URLs.
async function instantiateInNode(moduleOptions) {
    const { createRequire } = await import('node:module');
    const { fileURLToPath } = await import('node:url');
    const { readFile } = await import('node:fs/promises');
    if (!moduleOptions.wasmBinary)
        moduleOptions = { ...moduleOptions,
            wasmBinary: await readFile(new URL('./dist/dungeon.wasm', import.meta.url)) };
    const saved = { __dirname: globalThis.__dirname, require: globalThis.require };
    globalThis.__dirname = fileURLToPath(new URL('./dist', import.meta.url));
    globalThis.require = createRequire(import.meta.url);
    try {
        return await createDungeonModule(moduleOptions);
    } finally {
        for (const [name, value] of Object.entries(saved)) {
            if (value === undefined)
                delete globalThis[name];
            else
                globalThis[name] = value;
        }
    }
}

/** Seeds are uint64: a BigInt, or a non-negative safe integer Number. */
function toSeed(seed) {
    if (typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0)
        return BigInt(seed);
    if (typeof seed === 'bigint' && seed >= 0n && seed <= U64_MAX)
        return seed;
    throw new DungeonError(DG_E_INVALID, 'invalid parameter',
        `seed ${String(seed)} is not an unsigned 64-bit integer (a BigInt or a safe integer)`);
}

export class Dungeon {
    constructor(module) {
        this.m = module;
        this.encoder = new TextEncoder();
        this.decoder = new TextDecoder();
        this.version = this.string(module._dg_version());
    }

    // ---- memory helpers --------------------------------------------------
    get u8() { return this.m.HEAPU8; }
    get i32() { return this.m.HEAP32; }

    /** Runs fn with scratch blocks of the given sizes (zeroed), freed afterwards. */
    scratch(sizes, fn) {
        const ptrs = [];
        try {
            for (const size of sizes) {
                const p = this.m._malloc(Math.max(size, 1));
                if (!p)
                    throw new DungeonError(-3, 'out of memory', `cannot allocate ${size} bytes`);
                ptrs.push(p);
                this.u8.fill(0, p, p + size);
            }
            return fn(...ptrs);
        } finally {
            for (const p of ptrs)
                this.m._free(p);
        }
    }

    int(ptr) { return this.i32[ptr >> 2]; }
    setInt(ptr, value) { this.i32[ptr >> 2] = value; }

    string(ptr) {
        if (!ptr)
            return null;
        const heap = this.u8;
        let end = ptr;
        while (heap[end])
            end++;
        return this.decoder.decode(heap.subarray(ptr, end));
    }

    /** Copies a JS string in (NUL-terminated) for the duration of fn(ptr, byteLength). */
    withString(text, fn) {
        const bytes = this.encoder.encode(text);
        return this.scratch([bytes.length + 1], (p) => {
            this.u8.set(bytes, p);
            return fn(p, bytes.length);
        });
    }

    statusName(status) { return this.string(this.m._dg_status_str(status)); }

    /** Throws a DungeonError for a failed status, with the diag's message. */
    check(status, diag = 0) {
        if (status === 0)
            return;
        const message = diag ? this.string(diag + DIAG_MESSAGE) : '';
        const line = diag ? this.int(diag + 4) : 0;
        const column = diag ? this.int(diag + 8) : 0;
        throw new DungeonError(status, this.statusName(status), message, line, column);
    }

    fail(status, message) {
        throw new DungeonError(status, this.statusName(status), message);
    }

    // ---- the generator registry --------------------------------------------
    /** Every registered generator with its parameters (name, type, range, default),
     *  but those that need a level graph (they run only with options.graph),
     *  unless { withGraph: true }. */
    generators({ withGraph = false } = {}) {
        const count = this.m._dg_generator_count();
        return this.scratch([GENERATOR_INFO_SIZE], (info) => {
            const list = [];
            for (let i = 0; i < count; i++) {
                this.check(this.m._dg_generator_get(i, info));
                const needsGraph = this.int(info + 24) !== 0;
                if (needsGraph && !withGraph)
                    continue;
                list.push({
                    name: this.string(this.int(info)),
                    summary: this.string(this.int(info + 4)),
                    needsPrefabs: this.int(info + 20) !== 0,
                    needsGraph,
                    params: this.paramTable(this.int(info + 8), this.int(info + 12)),
                });
            }
            return list;
        });
    }

    /** The parameters of one generator (as in generators()). */
    params(generator) {
        const found = this.generators({ withGraph: true }).find((g) => g.name === generator);
        if (!found)
            this.fail(-7, `unknown generator '${generator}'`);
        return found.params;
    }

    paramTable(table, count) {
        const params = [];
        for (let i = 0; i < count; i++) {
            const p = table + i * PARAM_DESC_SIZE;
            const choices = this.string(this.int(p + 8));
            params.push({
                name: this.string(this.int(p)),
                help: this.string(this.int(p + 4)),
                type: PARAM_TYPES[this.int(p + 12)] ?? 'int',
                choices: choices ? choices.split('|') : null,
                min: this.int(p + 16),
                max: this.int(p + 20),
                default: this.int(p + 24),
            });
        }
        return params;
    }

    // ---- prefab sets ----------------------------------------------------------
    /** Parses prefab text; name is its file (errors say name:line:col, recipes record it). */
    loadPrefabs(text, name = '<input>') {
        return this.withString(text, (p, length) => this.withString(name, (namePtr) =>
            this.scratch([DIAG_SIZE, 4], (diag, out) => {
                this.check(this.m._dg_prefab_parse(p, length, namePtr, 0, 0, 0, out, diag), diag);
                return new PrefabSet(this, this.int(out), name);
            })));
    }

    // ---- level graphs -----------------------------------------------------------
    /** Parses and checks a level graph's text (docs/graph-format.md); name is its
     *  file (errors say name:line:col, recipes record it). Generator 'graph' lays
     *  it out: generate('graph', {}, seed, w, h, { graph }). free() releases it. */
    loadGraph(text, name = '<input>') {
        const ptr = this.m._malloc(GRAPH_SIZE);
        if (!ptr)
            this.fail(-3, 'out of memory');
        try {
            this.withString(text, (p, length) => this.withString(name, (namePtr) =>
                this.scratch([DIAG_SIZE], (diag) =>
                    this.check(this.m._dg_graph_parse(p, length, namePtr, 0, ptr, diag), diag))));
        } catch (e) {
            this.m._free(ptr);
            throw e;
        }
        return new Graph(this, ptr, name);
    }

    // ---- recipes ----------------------------------------------------------------
    /** Parses a recipe line into { generator, seed, width, height, params, text }. */
    parseRecipe(text) {
        return this.scratch([RECIPE_SIZE], (recipe) => {
            this.parseRecipeInto(text, recipe);
            return this.describeRecipe(recipe);
        });
    }

    /** The canonical recipe line of { generator, seed, width, height, params }. */
    formatRecipe(spec) {
        return this.scratch([RECIPE_SIZE], (recipe) => {
            this.initRecipe(recipe, spec);
            return this.printRecipe(recipe);
        });
    }

    /** Generates the map a recipe line describes (prefabs: a PrefabSet when needed;
     *  graph: a Graph for generator 'graph'). */
    runRecipe(text, options = {}) {
        return this.scratch([RECIPE_SIZE], (recipe) => {
            this.parseRecipeInto(text, recipe);
            return this.generateRecipe(recipe, options.prefabs, options.roles, options.graph);
        });
    }

    /** Generates a map: generate('attach', { growth: 'newest' }, 42n, 80, 50);
     *  generate('graph', {}, 42n, 80, 50, { graph }) lays out a level graph. */
    generate(generator, params = {}, seed = 1n, width = 80, height = 50, options = {}) {
        return this.scratch([RECIPE_SIZE], (recipe) => {
            this.initRecipe(recipe, { generator, params, seed, width, height });
            return this.generateRecipe(recipe, options.prefabs, options.roles, options.graph);
        });
    }

    parseRecipeInto(text, recipe) {
        if (typeof text !== 'string')
            this.fail(-7, 'a recipe is a string');
        this.withString(text, (p, length) => this.scratch([DIAG_SIZE], (diag) =>
            this.check(this.m._dg_recipe_parse(p, length, recipe, diag), diag)));
    }

    initRecipe(recipe, { generator, params = {}, seed = 1n, width = 80, height = 50 }) {
        const seed64 = toSeed(seed);
        if (typeof generator !== 'string' || this.withString(generator,
            (p) => this.m._dg_generator_find(p)) < 0)
            this.fail(-7, `unknown generator '${generator}'`);
        for (const [key, value] of [['width', width], ['height', height]])
            if (!Number.isInteger(value))
                this.fail(DG_E_INVALID, `${key} ${value} is not an integer`);
        this.withString(generator, (p) => this.scratch([DIAG_SIZE], (diag) =>
            this.check(this.m._dg_recipe_init(recipe, p, seed64, 80, 50), diag)));
        this.setRecipeKeys(recipe, { width, height, ...params });
    }

    /** Sets KEY=VALUE pairs through dg_recipe_set, so ranges and names are checked there. */
    setRecipeKeys(recipe, pairs) {
        this.scratch([DIAG_SIZE], (diag) => {
            for (const [key, value] of Object.entries(pairs)) {
                const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
                this.withString(key, (k) => this.withString(text, (v) =>
                    this.check(this.m._dg_recipe_set(recipe, k, v, diag), diag)));
            }
        });
    }

    printRecipe(recipe) {
        return this.scratch([4, DIAG_SIZE], (written) => {
            this.check(this.m._dg_recipe_print(recipe, 0, 0, written));
            const size = this.m.HEAPU32[written >> 2] + 1;
            return this.scratch([size], (out) => {
                this.check(this.m._dg_recipe_print(recipe, out, size, 0));
                return this.string(out);
            });
        });
    }

    describeRecipe(recipe) {
        const text = this.printRecipe(recipe);
        const words = text.split(' ');
        const spec = { generator: words[0], seed: 0n, width: 0, height: 0, params: {}, text };
        for (const word of words.slice(1)) {
            const [key, value] = word.split('=');
            if (key === 'seed')
                spec.seed = BigInt(value);
            else if (key === 'width' || key === 'height')
                spec[key] = Number(value);
            else if (key !== 'version' && !/^(prefabs|graph|roles|spawns)(_hash)?$/.test(key))
                spec.params[key] = /^-?\d+$/.test(value) ? Number(value) : value;
        }
        return spec;
    }

    // ---- generation -------------------------------------------------------------
    /** Runs a filled dg_recipe; records the prefab set like the tool does. roles:
     *  true (the built-in role table) or a role table's text (docs/content.md)
     *  gives the rooms roles (dg_roles, seeded with the recipe's seed): see roomLabels. */
    generateRecipe(recipe, prefabs, roles, graph) {
        const width = this.int(recipe + RECIPE_WIDTH);
        const height = this.int(recipe + RECIPE_HEIGHT);
        const set = prefabs ? prefabs.handle() : 0;
        if (set)
            this.recordPrefabs(recipe, prefabs);
        const graphPtr = graph ? graph.handle() : 0;
        if (graphPtr && this.int(recipe + RECIPE_INPUTS) === 0 && this.int(recipe + RECIPE_INPUTS + 4) === 0)
            this.recordGraph(recipe, graph);
        const cells = width * height;
        if (!(cells > 0) || cells > 2 ** 28)
            this.fail(-5, `a ${width}x${height} map is too large`);
        return this.scratch([cells, GRID_SIZE, RESULT_SIZE, DIAG_SIZE, SITE_SIZE],
            (buf, grid, result, diag, site) => {
            this.check(this.m._dg_grid_init(grid, buf, width, height, 0), diag);
            this.m._dg_result_init(result, 0);
            this.m._dg_site_init(site);
            this.setInt(site + SITE_GRAPH, graphPtr);
            try {
                this.check(this.m._dg_recipe_generate_site(recipe, graphPtr ? site : 0, grid, set, result, 0,
                    diag), diag);
                if (roles)
                    this.assignRoles(grid, result, recipe, roles === true ? null : String(roles));
                return {
                    cells: this.u8.slice(buf, buf + cells),
                    width,
                    height,
                    recipe: this.printRecipe(recipe),
                    result: this.readResult(result),
                };
            } finally {
                this.m._dg_result_free(result);
            }
        });
    }

    // dg_roles on a generated result, with the built-in table (text null) or a parsed one.
    assignRoles(grid, result, recipe, text) {
        this.scratch([ROLES_MAX * ROLE_RULE_SIZE, 4, DIAG_SIZE], (rules, count, diag) => {
            if (text === null)
                this.check(this.m._dg_roles_builtin(rules, ROLES_MAX, count));
            else
                this.withString(text, (p, length) => this.withString('<roles>', (name) =>
                    this.check(this.m._dg_roles_parse(p, length, name, rules, ROLES_MAX, count, diag), diag)));
            const seed = BigInt(this.m.HEAPU32[(recipe + 32) >> 2]) |
                (BigInt(this.m.HEAPU32[(recipe + 36) >> 2]) << 32n);
            this.check(this.m._dg_roles(grid, rules, this.int(count), seed, result, 0, 0, diag), diag);
        });
    }

    /** One { room, role, name, node } per room of a map generated with the roles
     *  option (name, node: the level graph node, "" and -1 without one); [] if
     *  nothing labelled its rooms. */
    roomLabels(map) {
        return (map?.result?.labels ?? []).map((l, room) => ({ room, ...l }));
    }

    // The graph's hash into the recipe (graph_hash=), its name as the hint if a recipe can hold it.
    recordGraph(recipe, graph) {
        const hint = /^[A-Za-z0-9./_+-]{1,55}$/.test(graph.name) ? graph.name : '';
        this.withString(hint, (h) => this.scratch([DIAG_SIZE], (diag) =>
            this.check(this.m._dg_recipe_set_input(recipe, RECIPE_GRAPH, graph.hash, h, diag), diag)));
    }

    recordPrefabs(recipe, prefabs) {
        const hint = /^[A-Za-z0-9./_+-]{1,55}$/.test(prefabs.name) ? prefabs.name : '';
        this.withString(hint, (h) => this.scratch([DIAG_SIZE], (diag) =>
            this.check(this.m._dg_recipe_set_prefabs(recipe, prefabs.handle(), h, diag), diag)));
    }

    // A dg_point argument crosses the wasm C ABI by pointer to a copy.
    setPoint(p, point) {
        if (!point || !Number.isInteger(point.x) || !Number.isInteger(point.y))
            this.fail(DG_E_INVALID, `${JSON.stringify(point)} is not a cell {x, y}`);
        this.setInt(p, point.x);
        this.setInt(p + 4, point.y);
    }

    point(p) { return { x: this.int(p), y: this.int(p + 4) }; }
    ref(p) { return { kind: ['none', 'room', 'corridor'][this.int(p)] ?? 'none', index: this.int(p + 4) }; }

    /** dg_result as plain objects (room kinds and refs by name). */
    readResult(r) {
        const list = (at, size, read) => {
            const base = this.int(r + at), n = this.int(r + at + 4), out = [];
            for (let i = 0; i < n; i++)
                out.push(read(base + i * size));
            return out;
        };
        const metrics = {};
        METRIC_NAMES.forEach((name, i) => { metrics[name] = this.int(r + 56 + 4 * i); });
        return {
            rooms: list(0, 40, (p) => ({
                x: this.int(p), y: this.int(p + 4), w: this.int(p + 8), h: this.int(p + 12),
                kind: this.int(p + 16), prefab: this.int(p + 20), orientation: this.int(p + 24),
                parent: this.int(p + 28), cells: this.int(p + 32), shape: this.int(p + 36),
            })),
            corridors: list(8, 44, (p) => ({
                start: this.point(p), bend: this.point(p + 8), end: this.point(p + 16),
                length: this.int(p + 24), from: this.ref(p + 28), to: this.ref(p + 36),
            })),
            doors: list(16, 24, (p) => ({ pos: this.point(p), a: this.ref(p + 8), b: this.ref(p + 16) })),
            markers: list(24, 92, (p) => ({
                pos: this.point(p), kind: this.int(p + 8), room: this.int(p + 12),
                name: this.string(p + 16), number: this.int(p + 48), size: this.int(p + 52),
                cost: this.int(p + 56), type: this.string(p + 60),
            })),
            labels: this.int(r + 160) === this.int(r + 4) ? list(156, 68, (p) => ({
                role: this.string(p), name: this.string(p + 32), node: this.int(p + 64),
            })) : [],
            corridorEdges: this.int(r + 168) === this.int(r + 12) ? list(164, 4, (p) => this.int(p)) : [],
            start: this.point(r + 32),
            exit: this.point(r + 40),
            startRoom: this.int(r + 48),
            exitRoom: this.int(r + 52),
            metrics,
        };
    }

    // ---- maps back into the library -------------------------------------------
    /** Runs fn(grid) with a copy of map.cells in a dg_grid. */
    withGrid(map, fn) {
        const { cells, width, height } = map ?? {};
        if (!(cells instanceof Uint8Array) || !Number.isInteger(width) || !Number.isInteger(height))
            this.fail(-2, 'a map is { cells: Uint8Array, width, height }');
        if (width < 1 || height < 1 || cells.length !== width * height)
            this.fail(DG_E_INVALID, `cells has ${cells.length} entries, a ${width}x${height} map needs ${width * height}`);
        return this.scratch([cells.length, GRID_SIZE, DIAG_SIZE], (buf, grid, diag) => {
            this.u8.set(cells, buf);
            this.check(this.m._dg_grid_init(grid, buf, width, height, 0), diag);
            return fn(grid);
        });
    }

    /** The map as ASCII text (the tool's --format ascii). */
    ascii(map) {
        return this.withGrid(map, (grid) => {
            const size = (map.width + 1) * map.height + 1;
            return this.scratch([size], (out) => {
                this.check(this.m._dg_render_ascii(grid, 0, out, size, 0));
                return this.string(out);
            });
        });
    }

    /** The map as libdungeon JSON (the tool's --format json), recipe included. */
    exportJSON(map) {
        return this.scratch([RECIPE_SIZE, EXPORT_OPTIONS_SIZE, 4, DIAG_SIZE, RESULT_SIZE],
            (recipe, options, written, diag, result) => {
                this.m._dg_export_defaults(options);
                if (map.recipe) {
                    this.parseRecipeInto(map.recipe, recipe);
                    this.setInt(options + 20, recipe);
                }
                const arrays = this.writeResult(result, map.result);
                try {
                    return this.withGrid(map, (grid) => this.exportBuffer(grid, result, options, diag));
                } finally {
                    arrays.forEach((p) => this.m._free(p));
                }
            });
    }

    exportBuffer(grid, result, options, diag) {
        return this.scratch([4], (written) => {
            this.check(this.m._dg_export_buffer(grid, result, options, 0, 0, written, diag), diag);
            const size = this.m.HEAPU32[written >> 2] + 1;
            return this.scratch([size], (out) => {
                this.check(this.m._dg_export_buffer(grid, result, options, out, size, 0, diag), diag);
                return this.string(out);
            });
        });
    }

    // ---- analysis ---------------------------------------------------------------
    /** dg_move: options.neighbours (4 or 8), cornerCutting, straightWeight, diagonalWeight,
     *  size (a walker's footprint side, 1..4). */
    withWalk(options, fn) {
        return this.scratch([WALK_SIZE], (walk) => {
            this.m._dg_move_defaults(walk);
            const fields = [['neighbours', 8], ['cornerCutting', 12], ['straightWeight', 16],
                ['diagonalWeight', 20], ['size', 28]];
            for (const [name, at] of fields)
                if (options[name] !== undefined)
                    this.setInt(walk + at, Number(options[name]) | 0);
            return fn(walk);
        });
    }

    /** Cheapest path by A*: { path: [{x, y}...], cost }, or null if there is none. */
    pathFind(map, from, to, options = {}) {
        return this.withGrid(map, (grid) => this.withWalk(options, (walk) => {
            const cap = map.width * map.height;
            return this.scratch([cap * 8, 4, 4, DIAG_SIZE, 8, 8], (path, length, cost, diag, a, b) => {
                this.setPoint(a, from);
                this.setPoint(b, to);
                const status = this.m._dg_path_find(grid, walk, a, b, 0, path, cap, length, cost, diag);
                if (status === DG_E_NOPATH)
                    return null;
                this.check(status, diag);
                const cells = [];
                for (let i = 0; i < this.int(length); i++)
                    cells.push(this.point(path + 8 * i));
                return { path: cells, cost: this.int(cost) };
            });
        }));
    }

    /** Walking distances from the sources: { distances: Int32Array (-1 unreachable), reached, maxDistance, farthest }. */
    distanceMap(map, sources, options = {}) {
        if (!Array.isArray(sources))
            this.fail(-2, 'sources is an array of {x, y}');
        return this.withGrid(map, (grid) => this.withWalk(options, (walk) => {
            const n = map.width * map.height;
            return this.scratch([sources.length * 8, n * 4, 16, DIAG_SIZE], (src, dist, info, diag) => {
                sources.forEach((s, i) => this.setPoint(src + 8 * i, s));
                this.check(this.m._dg_distance_map(grid, walk, src, sources.length,
                    options.maxDistance | 0, dist, n, 0, info, diag), diag);
                return {
                    distances: this.i32.slice(dist >> 2, (dist >> 2) + n),
                    reached: this.int(info),
                    maxDistance: this.int(info + 4),
                    farthest: this.point(info + 8),
                };
            });
        }));
    }

    /** Field of view (symmetric shadowcasting): a Uint8Array, 1 = seen. radius 0 = unlimited. */
    fov(map, origin, radius = 0) {
        return this.withGrid(map, (grid) => {
            const n = map.width * map.height;
            return this.scratch([n, DIAG_SIZE, 8], (visible, diag, at) => {
                this.setPoint(at, origin);
                this.check(this.m._dg_fov(grid, 0, at, radius | 0, visible, n, 0, diag), diag);
                return this.u8.slice(visible, visible + n);
            });
        });
    }

    /** Autotile indices (docs/autotile.md): a Uint8Array of kind 'cardinal' (0..15),
     *  'blob' (0..46) or 'corner' (0..15 on the (width + 1) x (height + 1) corner grid).
     *  selfClass null matches each cell against its own class; classes (tile -> class,
     *  an object or array) replaces the defaults (walls and secret doors 1, water 2). */
    autotile(map, kind = 'blob', { selfClass = 1, classes = null, outsideClass = 0 } = {}) {
        const kinds = { cardinal: 0, blob: 1, corner: 2 };
        if (!(kind in kinds))
            this.fail(DG_E_INVALID, `kind must be cardinal, blob or corner, not ${kind}`);
        return this.withGrid(map, (grid) => {
            const extra = kind === 'corner' ? 1 : 0;
            const n = (map.width + extra) * (map.height + extra);
            return this.scratch([AUTOTILE_PARAMS_SIZE, n, DIAG_SIZE], (p, out, diag) => {
                this.m._dg_autotile_defaults(p);
                this.setInt(p, kinds[kind]);
                this.setInt(p + 4, selfClass === null ? -1 : selfClass | 0);
                this.setInt(p + 8, outsideClass | 0);
                if (classes)
                    for (let t = 0; t < 256; t++)
                        this.u8[p + 12 + t] = classes[t] | 0;
                this.check(this.m._dg_autotile(grid, p, out, n, 0, 0, diag), diag);
                return this.u8.slice(out, out + n);
            });
        });
    }

    /** The 8-bit neighbour mask of blob tile index 0..46 (-1 for another index). */
    blobMask(index) { return this.m._dg_autotile_blob_mask(index | 0); }

    // ---- results back into the library -------------------------------------------
    /** Fills a zeroed dg_result from readResult's objects (for the export); returns
     *  the arrays it allocated, which the caller frees (never dg_result_free). */
    writeResult(r, result) {
        const arrays = [];
        if (!result)
            return arrays;
        // The export reads rooms, corridors, doors, markers, labels, corridor edges, start, exit and metrics.
        const put = (at, items, size, write) => {
            if (!items || !items.length)
                return;
            const base = this.m._malloc(items.length * size);
            if (!base)
                this.fail(-3, 'out of memory');
            arrays.push(base);
            this.u8.fill(0, base, base + items.length * size);
            items.forEach((item, i) => write(base + i * size, item));
            this.setInt(r + at, base);
            this.setInt(r + at + 4, items.length);
        };
        const setPoint = (p, pt) => this.setPoint(p, pt);
        const refKinds = { none: 0, room: 1, corridor: 2 };
        const setRef = (p, ref) => { this.setInt(p, refKinds[ref.kind] ?? 0); this.setInt(p + 4, ref.index); };
        put(0, result.rooms, 40, (p, room) => [room.x, room.y, room.w, room.h, room.kind, room.prefab,
            room.orientation, room.parent, room.cells, room.shape | 0].forEach((v, i) => this.setInt(p + 4 * i, v)));
        put(8, result.corridors, 44, (p, c) => {
            setPoint(p, c.start); setPoint(p + 8, c.bend); setPoint(p + 16, c.end);
            this.setInt(p + 24, c.length); setRef(p + 28, c.from); setRef(p + 36, c.to);
        });
        put(16, result.doors, 24, (p, d) => { setPoint(p, d.pos); setRef(p + 8, d.a); setRef(p + 16, d.b); });
        put(24, result.markers, 92, (p, mk) => {
            setPoint(p, mk.pos); this.setInt(p + 8, mk.kind); this.setInt(p + 12, mk.room);
            this.u8.set(this.encoder.encode(mk.name).subarray(0, 31), p + 16);
            this.setInt(p + 48, mk.number | 0); this.setInt(p + 52, mk.size | 0);
            this.setInt(p + 56, mk.cost | 0);
            this.u8.set(this.encoder.encode(mk.type ?? '').subarray(0, 31), p + 60);
        });
        if (result.labels && result.labels.length === (result.rooms ?? []).length) {
            put(156, result.labels, 68, (p, l) => {
                this.u8.set(this.encoder.encode(l.role ?? '').subarray(0, 31), p);
                this.u8.set(this.encoder.encode(l.name ?? '').subarray(0, 31), p + 32);
                this.setInt(p + 64, l.node ?? -1);
            });
        }
        if (result.corridorEdges && result.corridorEdges.length === (result.corridors ?? []).length)
            put(164, result.corridorEdges, 4, (p, e) => this.setInt(p, e));
        setPoint(r + 32, result.start);
        setPoint(r + 40, result.exit);
        this.setInt(r + 48, result.startRoom);
        this.setInt(r + 52, result.exitRoom);
        METRIC_NAMES.forEach((name, i) => this.setInt(r + 56 + 4 * i, result.metrics[name] | 0));
        return arrays;
    }
}

/** Something the module parsed and owns (a pointer into its memory). */
class ModuleObject {
    constructor(dungeon, ptr, name, what) {
        this.dungeon = dungeon;
        this.ptr = ptr;
        this.name = name;
        this.what = what;
    }

    handle() {
        if (!this.ptr)
            this.dungeon.fail(-2, `the ${this.what} was freed`);
        return this.ptr;
    }
}

/** A parsed prefab set living in the module's memory; free() releases it. */
export class PrefabSet extends ModuleObject {
    constructor(dungeon, ptr, name) { super(dungeon, ptr, name, 'prefab set'); }

    get count() { return this.dungeon.m._dg_prefab_count(this.handle()); }

    free() {
        this.dungeon.m._dg_prefab_set_free(this.ptr);
        this.ptr = 0;
    }
}

/** A parsed level graph living in the module's memory; free() releases it. */
export class Graph extends ModuleObject {
    constructor(dungeon, ptr, name) { super(dungeon, ptr, name, 'graph'); }

    /** Its identity (dg_graph_hash, a BigInt), as recipes record it. */
    get hash() { return BigInt.asUintN(64, this.dungeon.m._dg_graph_hash(this.handle())); }

    /** [{ name, role }] per node, in the file's order (a room label's node index). */
    get nodes() {
        const d = this.dungeon, g = this.handle(), base = d.int(g), out = [];
        for (let i = 0; i < d.int(g + 4); i++)
            out.push({ name: d.string(base + i * GRAPH_NODE_SIZE),
                role: d.string(base + i * GRAPH_NODE_SIZE + 32) });
        return out;
    }

    /** [[a, b]] node indices per edge, in the file's order. */
    get edges() {
        const d = this.dungeon, g = this.handle(), base = d.int(g + 8), out = [];
        for (let i = 0; i < d.int(g + 12); i++)
            out.push([d.int(base + i * GRAPH_EDGE_SIZE), d.int(base + i * GRAPH_EDGE_SIZE + 4)]);
        return out;
    }

    free() {
        if (this.ptr) {
            this.dungeon.m._dg_graph_free(this.ptr);
            this.dungeon.m._free(this.ptr);
        }
        this.ptr = 0;
    }
}
