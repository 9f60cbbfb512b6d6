/* libdungeon: seeded dungeon generators that fill a caller-owned grid.
 *
 * One public header. Every function returns a dg_status (0 = DG_OK, negative =
 * error) unless it is a pure query. The caller owns every grid; generators never
 * allocate it and never write outside its width x height cells. Same (major
 * version, generator, parameters, seed) gives the same bytes everywhere; see
 * docs/determinism.md.  SPDX-License-Identifier: MIT */
/* ABI (docs/abi.md): while the major version is 0 every minor release has
 * its own soname, libdungeon.so.0.MINOR; from 1.0 on the soname is
 * libdungeon.so.1 and releases only add. The structs a caller allocates and
 * the library reads or fills are growable: each says so in a comment and ends
 * in int32_t spare[DG_SPARE_SLOTS]. A later release of the same soname puts
 * a new field in a spare slot, where 0 means the old behaviour, so their sizes
 * and offsets never change within a series. Input structs (the generators'
 * params, dg_move, dg_place_params, dg_lock_params, dg_site,
 * dg_export_options) must have every spare slot 0, which the _defaults and
 * _init functions and `= {0}` give; a nonzero slot is DG_E_INVALID, so an
 * older library refuses a newer program's new field instead of ignoring it.
 * Output structs (dg_metrics, dg_result, dg_quality, dg_progress,
 * dg_prefab_info, dg_world_room, dg_floor_info) get 0 in their spare slots. Every other struct keeps its layout until the soname changes:
 * elements of arrays (dg_room, dg_corridor, dg_door, dg_marker,
 * dg_sched_actor, dg_prefab_group, dg_param_desc, dg_world_marker, ...),
 * small values (dg_point, dg_rect, dg_grid, dg_rng, dg_diag, ...) and
 * dg_recipe, whose growth is its values[] table. */
#ifndef DUNGEON_H
#define DUNGEON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---------------------------------------------------------- */
#define DG_VERSION_MAJOR 0
#define DG_VERSION_MINOR 18
#define DG_VERSION_PATCH 0
#define DG_VERSION_NUMBER (DG_VERSION_MAJOR * 10000 + DG_VERSION_MINOR * 100 + DG_VERSION_PATCH)
/* The output series: versions with the same one give the same maps. It is the
 * major version, and while that is 0 the minor one too (a 0.x minor version
 * may change outputs, each change listed in docs/determinism.md): MAJOR * 1000
 * + (MAJOR == 0 ? MINOR : 0). Recipes record it, as "0.3" or "1". */
#define DG_OUTPUT_VERSION (DG_VERSION_MAJOR * 1000 + (DG_VERSION_MAJOR == 0 ? DG_VERSION_MINOR : 0))
/* Spare int32_t slots at the end of every growable struct (docs/abi.md). */
#define DG_SPARE_SLOTS 8

/* The export attribute of every public function; define DG_API first (e.g.
 * -DDG_API=) to replace it. Windows programs that link dungeon.dll may define
 * DG_DLL for direct dllimport calls (docs/ports.md). */
#ifndef DG_API
#if defined(_WIN32) && defined(DG_SHARED_BUILD)
#define DG_API __declspec(dllexport)
#elif defined(_WIN32) && defined(DG_DLL)
#define DG_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define DG_API __attribute__((visibility("default")))
#else
#define DG_API
#endif
#endif

/* "MAJOR.MINOR.PATCH" of the library actually linked (a static string). */
DG_API const char *dg_version(void);
/* DG_VERSION_NUMBER of the library actually linked. */
DG_API int32_t dg_version_number(void);

/* ---- status and diagnostics -------------------------------------------- */
/* Values are fixed once released; new codes are only ever appended. */
typedef int32_t dg_status;
enum {
    DG_OK = 0,
    DG_E_INVALID = -1,  /* a parameter is out of range or inconsistent */
    DG_E_NULL = -2,     /* a required pointer is NULL */
    DG_E_NOMEM = -3,    /* an allocation failed (allocator hook returned NULL) */
    DG_E_TOO_SMALL = -4,/* the grid is too small for the parameters */
    DG_E_TOO_LARGE = -5,/* a size exceeds a documented limit */
    DG_E_NOSPACE = -6,  /* not enough free space to place what was required */
    DG_E_PARSE = -7,    /* text input (prefabs, recipes) is malformed */
    DG_E_NOPATH = -8,   /* no path exists between the requested cells */
    DG_E_BUFFER = -9,   /* a caller buffer is too small */
    DG_E_LIMIT = -10    /* a documented work bound was reached */
};

/* Short English name of a status ("ok", "invalid parameter", ...); a static
 * string, never NULL. */
DG_API const char *dg_status_str(dg_status status);

#define DG_DIAG_MESSAGE_MAX 256
/* Optional diagnostic for errors a human must read. line/column are 1-based
 * for text input and 0 otherwise. */
typedef struct dg_diag {
    dg_status status;
    int32_t line;
    int32_t column;
    char message[DG_DIAG_MESSAGE_MAX];
} dg_diag;

/* ---- allocator hooks --------------------------------------------------- */
/* alloc returns NULL on failure; free receives the size given to alloc.
 * Passing a NULL dg_allocator pointer anywhere means malloc/free. */
typedef struct dg_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} dg_allocator;

/* ---- tiles ------------------------------------------------------------- */
/* Values 0..63 belong to the library; DG_TILE_USER (64) .. 255 are the caller's. */
enum {
    DG_TILE_VOID = 0,        /* untouched rock / nothing */
    DG_TILE_FLOOR = 1,       /* room floor */
    DG_TILE_CORRIDOR = 2,    /* corridor floor */
    DG_TILE_WALL = 3,
    DG_TILE_DOOR = 4,
    DG_TILE_TRAP = 5,        /* passable, dangerous */
    DG_TILE_STAIRS_UP = 6,
    DG_TILE_STAIRS_DOWN = 7,
    DG_TILE_OBSTACLE = 8,    /* furniture, pillars: blocks movement, not a wall */
    DG_TILE_WATER = 9,       /* impassable liquid */
    DG_TILE_DOOR_LOCKED = 10, /* a door that opens with its lock's key (dg_lock_place) */
    DG_TILE_DOOR_SECRET = 11, /* a door that looks like wall until found */
    DG_TILE_COUNT = 12,      /* number of named library tiles */
    DG_TILE_USER = 64
};

/* Name of a tile ("floor", "wall", ..., "user" for >= DG_TILE_USER, "unknown"); static. */
DG_API const char *dg_tile_name(uint8_t tile);
/* 1 if a walker may stand on the tile (floor, corridor, doors of every kind,
 * trap, stairs): a locked or secret door is a way through once opened or found;
 * games that keep them shut say so per cell with a dg_overlay. */
DG_API int dg_tile_passable(uint8_t tile);

/* ---- the caller-owned grid --------------------------------------------- */
#define DG_GRID_MAX_DIM 32768                 /* width and height limit */
#define DG_GRID_MAX_CELLS (1LL << 28)         /* width * height limit */

typedef struct dg_grid {
    uint8_t *cells;   /* cell (x, y) is cells[y * stride + x] */
    int32_t width;
    int32_t height;
    int32_t stride;   /* cells per row, >= width */
} dg_grid;

typedef struct dg_point { int32_t x, y; } dg_point;
typedef struct dg_rect { int32_t x, y, w, h; } dg_rect;

/* Fills *grid after checking sizes (1..DG_GRID_MAX_DIM, stride >= width,
 * width*height <= DG_GRID_MAX_CELLS); stride 0 means width. Touches no cell. */
DG_API dg_status dg_grid_init(dg_grid *grid, uint8_t *cells, int32_t width,
                              int32_t height, int32_t stride);
/* DG_OK if the grid is usable by the library, else the reason. */
DG_API dg_status dg_grid_check(const dg_grid *grid);
/* Tile at (x, y), or DG_TILE_VOID outside the grid or for a NULL grid. */
DG_API uint8_t dg_grid_get(const dg_grid *grid, int32_t x, int32_t y);
/* Sets (x, y); DG_E_INVALID outside the grid (nothing written). */
DG_API dg_status dg_grid_set(dg_grid *grid, int32_t x, int32_t y, uint8_t tile);
/* Sets every cell of the grid (never the padding between width and stride). */
DG_API dg_status dg_grid_fill(dg_grid *grid, uint8_t tile);
/* Sets the cells of rect clipped to the grid. */
DG_API dg_status dg_grid_fill_rect(dg_grid *grid, dg_rect rect, uint8_t tile);
/* 64-bit FNV-1a hash of the width x height cells (row by row, padding excluded)
 * and the dimensions: the value the golden tests pin. 0 for an invalid grid. */
DG_API uint64_t dg_grid_hash(const dg_grid *grid);

/* ---- random numbers ----------------------------------------------------- */
/* PCG32 (XSH RR, 64-bit LCG state) seeded through SplitMix64. The same
 * (seed, stream) yields the same sequence on every platform. Streams with
 * different numbers are independent. */
typedef struct dg_rng {
    uint64_t state;
    uint64_t inc;
} dg_rng;

DG_API void dg_rng_seed(dg_rng *rng, uint64_t seed, uint64_t stream);
/* Next 32 uniform bits. */
DG_API uint32_t dg_rng_next(dg_rng *rng);
/* Uniform in [0, bound), unbiased (Lemire's multiply with rejection); 0 if bound is 0. */
DG_API uint32_t dg_rng_below(dg_rng *rng, uint32_t bound);
/* Uniform in [lo, hi] inclusive; returns lo if hi <= lo. */
DG_API int32_t dg_rng_range(dg_rng *rng, int32_t lo, int32_t hi);
/* 1 with probability permille/1000 (clamped to 0..1000), else 0. */
DG_API int dg_rng_chance(dg_rng *rng, int32_t permille);
/* SplitMix64 finalizer: a fast, well-mixed stateless 64-bit hash. */
DG_API uint64_t dg_hash64(uint64_t x);
/* Hash of an ordered pair, for deriving seeds (e.g. per floor, per room). */
DG_API uint64_t dg_hash_combine(uint64_t a, uint64_t b);

/* ---- structured output shared by every generator ------------------------ */
enum { /* dg_room.kind */
    DG_ROOM_NORMAL = 0,
    DG_ROOM_PREFAB = 1,   /* stamped from a prefab */
    DG_ROOM_CAVE = 2,     /* irregular area */
    DG_ROOM_START = 3,    /* a start room placed by a prefab group */
    DG_ROOM_JUNCTION = 4  /* a room made by overlapping rooms */
};
enum { /* dg_room.shape: the floor inside the room's rect (docs/api.md) */
    DG_SHAPE_RECT = 0,    /* the whole rectangle */
    DG_SHAPE_CROSS = 1,   /* two crossing arms */
    DG_SHAPE_CIRCLE = 2,  /* an ellipse through the rect's sides */
    DG_SHAPE_OCTAGON = 3, /* corners cut diagonally */
    DG_SHAPE_CHUNKY = 4,  /* corners cut by rectangles of their own */
    DG_SHAPE_PILLARS = 5, /* a hall with free-standing pillars */
    DG_SHAPE_CAVERN = 6,  /* rough-edged, like a cave */
    DG_SHAPE_PREFAB = 7   /* the floor is what a prefab stamped: read the grid (0.13;
                           * never drawn by a `shapes` mask, whose range ends at 127) */
};
enum { /* dg_ref.kind: what a door joins */
    DG_REF_NONE = 0,
    DG_REF_ROOM = 1,
    DG_REF_CORRIDOR = 2
};
enum { DG_DIR_N = 0, DG_DIR_E = 1, DG_DIR_S = 2, DG_DIR_W = 3 };

typedef struct dg_ref { int32_t kind; int32_t index; } dg_ref;

/* Fixed: an element of a library-allocated array, its layout changes only with the soname. */
typedef struct dg_room {
    dg_rect rect;        /* interior (floor) rectangle, walls excluded */
    int32_t kind;        /* DG_ROOM_* */
    int32_t prefab;      /* index of the prefab in its set, or -1 */
    int32_t orientation; /* DG_ORIENT_* of the prefab, or 0 */
    int32_t parent;      /* room it was grown from, or -1 */
    int32_t cells;       /* cells the room covers: rect.w * rect.h for rectangles,
                          * the open cells of a shaped or irregular room (a cave) */
    int32_t shape;       /* DG_SHAPE_*: its floor always holds the rect's middle
                          * row and column, so every side has floor at its middle
                          * (DG_SHAPE_PREFAB aside: the prefab's own floor) */
} dg_room;

/* A corridor is a path of one or two straight legs: start -> bend -> end
 * (bend == end when straight). length counts its floor cells. */
typedef struct dg_corridor {
    dg_point start;
    dg_point bend;
    dg_point end;
    int32_t length;
    dg_ref from;
    dg_ref to;
} dg_corridor;

typedef struct dg_door {
    dg_point pos;
    dg_ref a;
    dg_ref b;
} dg_door;

#define DG_NAME_MAX 32
enum { /* dg_marker.kind */
    DG_MARKER_GENERIC = 0,
    DG_MARKER_ACTOR = 1,
    DG_MARKER_ITEM = 2,
    DG_MARKER_TRAP = 3,
    DG_MARKER_SPAWN = 4,
    DG_MARKER_START = 5,
    DG_MARKER_EXIT = 6,
    DG_MARKER_KEY = 7,          /* name "key N", number N: opens lock N (dg_lock_place) */
    DG_MARKER_LOCK = 8,         /* name "lock N", number N: on each door of lock N */
    DG_MARKER_STAIRS_UP = 9,    /* name "floor N": stairs up to floor N (dg_floor_generate) */
    DG_MARKER_STAIRS_DOWN = 10  /* name "floor N": stairs down to floor N */
};
typedef struct dg_marker {
    dg_point pos;
    int32_t kind;               /* DG_MARKER_* */
    int32_t room;               /* room index containing it, or -1 */
    char name[DG_NAME_MAX];     /* NUL-terminated, e.g. "goblin" */
    int32_t number;             /* KEY, LOCK: the N of the name ("key N"); a spawn
                                 * (dg_populate): its group, 1.. (a group's members
                                 * share it); else 0 */
    int32_t size;               /* side of the square footprint whose top-left cell
                                 * is pos, 1..DG_CREATURE_SIZE_MAX (a spawn); 0 or 1:
                                 * one cell */
    int32_t cost;               /* a spawn's difficulty cost; else 0 */
    char type[DG_NAME_MAX];     /* a spawn's kind word ("monster", "item", or the
                                 * game's own); else "" */
} dg_marker;

/* What a room is for (docs/content.md): its role, given by dg_roles or by a
 * level graph's node, and the node a level graph laid it out for. */
typedef struct dg_room_label {
    char role[DG_NAME_MAX];     /* "start", "exit", "boss", "treasure", "shop",
                                 * "secret", "hub", "key", the game's own word, or "" */
    char name[DG_NAME_MAX];     /* the level graph node's name, or "" */
    int32_t node;               /* the level graph node's index, or -1 */
} dg_room_label;

/* Integer metrics so they are identical on every platform. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_metrics {
    int32_t cells;             /* width * height */
    int32_t floor_cells;       /* passable cells */
    int32_t floor_permille;    /* floor_cells * 1000 / cells */
    int32_t rooms;
    int32_t corridors;
    int32_t doors;
    int32_t dead_ends;         /* passable cells with exactly one passable 4-neighbour */
    int32_t loops;             /* independent cycles of the room/corridor graph */
    int32_t regions;           /* 4-connected passable regions */
    int32_t attempts;          /* placement attempts made */
    int32_t failures;          /* attempts that did not fit */
    int32_t stopped_early;     /* 1 if a budget or failure limit ended generation */
    int32_t requested;         /* features/rooms asked for (generator specific) */
    int32_t placed;            /* features/rooms placed */
    int32_t overlaps;          /* rooms that overlapped earlier content */
    int32_t chokepoints;       /* passable cells whose removal splits their region (dg_measure) */
    int32_t diameter;          /* longest walk a double BFS finds in the largest region (dg_measure) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_metrics;

/* Everything a generator reports beside tiles. Initialise with dg_result_init,
 * pass to any generator (which replaces its contents), release with
 * dg_result_free. Arrays are owned by the result. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_result {
    dg_room *rooms;         int32_t room_count;
    dg_corridor *corridors; int32_t corridor_count;
    dg_door *doors;         int32_t door_count;
    dg_marker *markers;     int32_t marker_count;
    dg_point start;         /* suggested start cell (-1,-1 if none) */
    dg_point exit;          /* farthest passable cell from start by walking */
    int32_t start_room;     /* room index of start, or -1 */
    int32_t exit_room;      /* room index of exit, or -1 */
    dg_metrics metrics;
    /* labels: NULL or room_count entries (label_count says which), one per
     * room, set by dg_roles and the level-graph generator; a generator that
     * does neither leaves label_count 0. */
    dg_room_label *labels;  int32_t label_count;
    /* corridor_edges: the level-graph edge each corridor realises (-1: none),
     * corridor_edge_count entries (0 or corridor_count). */
    int32_t *corridor_edges; int32_t corridor_edge_count;
    dg_allocator allocator; /* how the arrays were allocated (set by init) */
    int32_t capacity_[6];   /* private: array capacities */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_result;

/* Empties *result and records the allocator (NULL: malloc/free). */
DG_API void dg_result_init(dg_result *result, const dg_allocator *allocator);
/* Frees the arrays and empties *result; safe to call twice. */
DG_API void dg_result_free(dg_result *result);

/* ---- rendering ----------------------------------------------------------- */
/* ASCII: one char per tile from a 256-entry legend (NULL: the default legend
 * " .,#+^<>&~LS" for tiles 0..11, '?' for the rest). Rows end with '\n'; the text
 * is NUL-terminated. Needs (width + 1) * height + 1 bytes; *written (optional)
 * gets the length without the NUL. DG_E_BUFFER if out is too small (nothing written). */
DG_API dg_status dg_render_ascii(const dg_grid *grid, const char *legend, char *out,
                                 size_t out_size, size_t *written);
/* The default ASCII glyph of a tile. */
DG_API char dg_tile_glyph(uint8_t tile);
/* RGBA8 pixels, scale x scale per cell, from a 256-entry palette of 0xRRGGBBAA
 * (NULL: the default palette). Needs width*scale * height*scale * 4 bytes. */
DG_API dg_status dg_render_rgba(const dg_grid *grid, const uint32_t *palette, int32_t scale,
                                uint8_t *out, size_t out_size);
/* The default palette colour (0xRRGGBBAA) of a tile. */
DG_API uint32_t dg_tile_color(uint8_t tile);

/* ---- autotiling (docs/autotile.md) --------------------------------------- */
/* Per cell, which tile of a tileset draws it, from which neighbours share its
 * class. A class table maps each tile value to a class (0..255) of the caller's
 * choosing: walls, water, lava, or the game's own. */
enum { /* dg_autotile_params.kind: what is written per cell */
    DG_AUTOTILE_CARDINAL = 0, /* 4-bit mask of the sides: N=1 E=2 S=4 W=8 (0..15) */
    DG_AUTOTILE_BLOB = 1,     /* 47-tile blob index 0..46: dg_autotile_blob_mask order */
    DG_AUTOTILE_CORNER = 2    /* Wang corner index on the corner grid, (width+1) x (height+1):
                               * entry (x,y) has cells (x-1,y-1) NW=8, (x,y-1) NE=1,
                               * (x,y) SE=2, (x-1,y) SW=4 as its corners (0..15) */
};
#define DG_AUTOTILE_OWN_CLASS (-1) /* self_class: each cell matches cells of its own class */
#define DG_AUTOTILE_BLOB_TILES 47
typedef struct dg_autotile_params {
    int32_t kind;          /* DG_AUTOTILE_*; default BLOB */
    int32_t self_class;    /* the class whose shape is drawn (a bit is set where a neighbour
                            * is in it), or DG_AUTOTILE_OWN_CLASS (not for CORNER); default 1 */
    int32_t outside_class; /* the class cells outside the grid read as; default 0 */
    uint8_t classes[256];  /* tile value -> class; default wall and secret door 1,
                            * water 2, everything else 0 */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 */
} dg_autotile_params;

/* Fills *params with the defaults above (walls as a blob). */
DG_API void dg_autotile_defaults(dg_autotile_params *params);
/* Writes one byte per cell of params->kind into out: row y at out[y * out_stride]
 * (out_stride 0: the row length; CORNER rows are width + 1 long, and there are
 * height + 1). out_size is the bytes out holds. DG_E_NULL, or DG_E_INVALID (a
 * field out of range, no tile in self_class, a stride shorter than a row), or
 * DG_E_BUFFER (out too short), or DG_E_NOMEM, with diag saying why; out is then
 * untouched. Never writes between a row's end and the stride. */
DG_API dg_status dg_autotile(const dg_grid *grid, const dg_autotile_params *params, uint8_t *out,
                             size_t out_size, int32_t out_stride, const dg_allocator *allocator,
                             dg_diag *diag);
/* The 8-bit neighbour mask (N=1 NE=2 E=4 SE=8 S=16 SW=32 W=64 NW=128) of blob
 * tile index 0..46, or -1 for another index. Indexes follow the masks in
 * increasing order (cr31's blob numbering); a corner bit is set only with both
 * sides next to it. */
DG_API int32_t dg_autotile_blob_mask(int32_t index);
#define DG_AUTOTILE_TILESET_COLUMNS 8 /* tile i of a tileset at column i % 8, row i / 8 */
/* RGBA8 pixels of the library's own tileset for a kind: 16 tiles (CARDINAL,
 * CORNER) or 47 (BLOB) of tile_size (1..256) pixels square, in index order, 8
 * per row; the shape in fill with an outline in edge (0xRRGGBBAA), the rest
 * transparent. Needs 8*tile_size * rows*tile_size * 4 bytes (rows 2 or 6). */
DG_API dg_status dg_autotile_tileset_rgba(int32_t kind, uint32_t fill, uint32_t edge,
                                          int32_t tile_size, uint8_t *out, size_t out_size,
                                          dg_diag *diag);
/* The art tileset's layout: its size in tiles and where each group starts. */
#define DG_ART_COLUMNS 8
#define DG_ART_ROWS 15
#define DG_ART_TILES (DG_ART_COLUMNS * DG_ART_ROWS)
#define DG_ART_WALL 0
#define DG_ART_WATER 48
#define DG_ART_DOOR 96
#define DG_ART_LOCKED 99
#define DG_ART_ROCK 102
#define DG_ART_CORNER 104
/* The art tileset the autotile style and the Tiled terrain export draw with:
 * 8 x 15 tiles from the palette (NULL: default): walls as a blob at index
 * DG_ART_WALL + blob index, water at DG_ART_WATER + blob index, doors in
 * their frames at DG_ART_DOOR (+0 frame west-east, +1 north-south, +2 none)
 * and locked doors at DG_ART_LOCKED; DG_ART_ROCK is a square of void's colour
 * (the ground under walls, so a map needs no background colour); walls as
 * Wang corner tiles at DG_ART_CORNER + corner index. Needs 8*tile_size *
 * 15*tile_size * 4 bytes. */
DG_API dg_status dg_art_tileset_rgba(const uint32_t *palette, int32_t tile_size, uint8_t *out,
                                     size_t out_size, dg_diag *diag);
/* A map drawn like a game (dungeon --style autotile): the ground (rock under
 * walls, floor under water and doors) then the art tileset's walls, water and
 * doors, scale (1..64) pixels per cell; the size dg_render_rgba needs. */
DG_API dg_status dg_render_art_rgba(const dg_grid *grid, const uint32_t *palette, int32_t scale,
                                    uint8_t *out, size_t out_size, const dg_allocator *allocator,
                                    dg_diag *diag);

/* ---- generator: feature attachment (attach) ------------------------------ */
/* A room near the centre, then rooms and corridors attached one at a time to
 * the walls of what is already carved, each on untouched rock with its walls
 * and, unless dense, rock around them (docs/attach.md). Every passable cell is
 * reachable from every other; the exit is a farthest room cell by walking.
 * Sizes are interior sizes (walls excluded), ranges inclusive; a maximum larger
 * than the map is capped, a minimum never is. Corridors are straight. */
enum { /* dg_attach_params.growth: which feature the next one grows from */
    DG_GROWTH_UNIFORM = 0,  /* any feature with free wall, uniformly */
    DG_GROWTH_NEWEST = 1,   /* the newest ones: long, linear dungeons */
    DG_GROWTH_OLDEST = 2    /* the oldest ones: bushy dungeons around the first room */
};
enum { /* dg_attach_params.dead_ends */
    DG_DEAD_ENDS_KEEP = 0,
    DG_DEAD_ENDS_PRUNE = 1, /* cut dangling corridors back to their last junction */
    DG_DEAD_ENDS_ROOM = 2   /* try a room at the end of each dangling corridor, prune if none fits */
};
enum { /* dg_attach_params.doors */
    DG_DOORS_ALL = 0,       /* a door tile at every junction */
    DG_DOORS_ROOMS = 1,     /* doors only where a room meets a corridor or another room */
    DG_DOORS_NONE = 2       /* junctions are corridor (or room floor between two rooms) */
};

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_attach_params {
    int32_t room_min_w, room_max_w;   /* room interior width, >= 1 (default 3..9) */
    int32_t room_min_h, room_max_h;   /* room interior height, >= 1 (default 3..7) */
    int32_t corridor_min, corridor_max; /* corridor length in cells, >= 1 (default 3..8);
                                         * a corridor is shortened to the free space but
                                         * never below corridor_min */
    int32_t max_features;             /* rooms + corridors budget; 0 = width*height/16 (default 0) */
    int32_t room_after_corridor;      /* permille chance of a room, not a corridor, after a
                                       * corridor; after a room always a corridor (default 700) */
    int32_t target_floor;             /* stop once this permille of the map is passable, 0 = grow
                                       * until nothing fits (default 270) */
    int32_t max_attempts;             /* placement attempts in all; 0 = 50 per budgeted feature
                                       * (default 0); metrics.attempts never exceeds it */
    int32_t max_failures;             /* stop after this many failed attempts in a row, 0 = no
                                       * limit (default 400) */
    int32_t growth;                   /* DG_GROWTH_* (default uniform) */
    int32_t loop_min_gain;            /* loop pass: open a wall between two features where that
                                       * shortens the walk between its sides by >= this many
                                       * steps; 0 = no loops, a tree (default 16) */
    int32_t loop_max;                 /* at most this many loop openings, 0 = one per 4 rooms
                                       * (default 0); the
                                       * pass also stops after 4 search steps per junction and
                                       * candidate, which only very long gains on big maps reach */
    int32_t dead_ends;                /* DG_DEAD_ENDS_* (default room) */
    int32_t doors;                    /* DG_DOORS_* (default rooms) */
    int32_t dense;                    /* 1 = pieces may share walls (packed, corridors side by
                                       * side); 0 = rock between pieces except at joins (default 0) */
    int32_t shape_share;              /* permille of rooms drawn with a shape other than a
                                       * rectangle, where their doors allow it (default 1000) */
    int32_t shapes;                   /* the kinds they draw from, bit 1 << DG_SHAPE_* (default 126: all) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_attach_params;

/* Fills the documented defaults. */
DG_API void dg_attach_defaults(dg_attach_params *params);
/* Fills grid with VOID, FLOOR (rooms), CORRIDOR, WALL and DOOR tiles. result
 * (optional) gets rooms (parent = the room its corridor leads from), straight
 * corridors (from/to: the features at their ends), door tiles, start (centre of
 * the first room), exit (a farthest room cell by walking) and metrics (loops = loop
 * openings; requested = the feature budget; stopped_early = a limit ended growth
 * while free walls remained). allocator and diag are optional. Scratch memory:
 * (width+2)*(height+2) bytes plus a few dozen bytes per feature. Errors:
 * DG_E_NULL, DG_E_INVALID (a parameter), DG_E_TOO_SMALL (the grid cannot hold the
 * smallest room and its walls), DG_E_NOMEM; on any error the grid and result
 * are left as they were and diag says why. */
DG_API dg_status dg_attach_generate(dg_grid *grid, const dg_attach_params *params,
                                    uint64_t seed, dg_result *result,
                                    const dg_allocator *allocator, dg_diag *diag);

/* ---- generator: room chain (chain) ---------------------------------------- */
/* A chain of rooms joined by straight corridors (docs/chain.md): each corridor
 * leaves a room in a direction that never doubles back and the next room sits at
 * its end. Sizes are interior sizes (walls excluded), every range is inclusive,
 * a maximum larger than the space left is capped, a minimum never is. */
#define DG_CHAIN_MAX_ROOMS 1000000
enum { /* dg_chain_params.overlap */
    DG_CHAIN_OVERLAP_ALLOW = 0,  /* rooms and corridors may cut into earlier ones */
    DG_CHAIN_OVERLAP_FORBID = 1  /* every room and corridor lands on untouched rock */
};
enum { /* dg_chain_params.on_stuck: no direction from the current room fits */
    DG_CHAIN_STUCK_STOP = 0,     /* stop there (metrics.placed < metrics.requested) */
    DG_CHAIN_STUCK_BRANCH = 1    /* continue from random earlier rooms (max_tries of them) */
};
enum { /* dg_chain_params.start */
    DG_CHAIN_START_MIDDLE = 0,   /* the room placed halfway along the chain */
    DG_CHAIN_START_FIRST = 1     /* the first room, near the centre */
};

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_chain_params {
    int32_t rooms_min, rooms_max;       /* rooms asked for, 1..DG_CHAIN_MAX_ROOMS; rooms_min 0 = by area
                                           (docs/chain.md), at most rooms_max; rooms_max at the limit is
                                           none given: rooms_min alone draws up to the area's count
                                           (never below rooms_min), and one the area cannot hold is
                                           refused (default 0, 1000000) */
    int32_t room_min_w, room_max_w;     /* room interior width (default 4..10) */
    int32_t room_min_h, room_max_h;     /* room interior height (default 3..6) */
    int32_t corridor_min, corridor_max; /* corridor cells between the two doors (default 2..6) */
    int32_t overlap;                    /* DG_CHAIN_OVERLAP_* (default allow) */
    int32_t max_tries;                  /* draws per room when forbidding overlap, rooms tried when stuck, 1..1000 (default 20) */
    int32_t on_stuck;                   /* DG_CHAIN_STUCK_* (default branch) */
    int32_t branch_chance;              /* permille: a corridor leaves a random earlier room instead of the last (default 0) */
    int32_t loop_chance;                /* permille per room: an L corridor to a nearby earlier room (default 350) */
    int32_t loop_reach;                 /* longest loop corridor, >= corridor_min; 0 = 2 * corridor_max (default 0) */
    int32_t start;                      /* DG_CHAIN_START_* (default middle) */
    int32_t border;                     /* 1 = a wall frame around the board, 0 = rooms may touch the edge (default 1) */
    int32_t shapes;                     /* permille of rooms drawn with a shape (DG_SHAPE_*) where one
                                         * fits and no other room touches it, 0..1000 (default 0) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_chain_params;

/* Fills the documented defaults. */
DG_API void dg_chain_defaults(dg_chain_params *params);
/* Fills grid (VOID, then FLOOR/CORRIDOR/WALL/DOOR). result (rooms, corridors,
 * doors, start, exit = farthest room, metrics), allocator and diag are optional.
 * On a parameter error the grid and result are untouched and diag says why;
 * DG_E_NOMEM also leaves the grid as it was (a copy is kept while generating). */
DG_API dg_status dg_chain_generate(dg_grid *grid, const dg_chain_params *params,
                                   uint64_t seed, dg_result *result,
                                   const dg_allocator *allocator, dg_diag *diag);

/* ---- generator: cellular-automaton caves (cave) ---------------------------- */
/* Caves grown by a cellular automaton (docs/cave.md): the area inside the
 * border starts as random rock (fill_permille), then each iteration counts
 * every cell's rock neighbours n (0..8, cells outside the area count as rock):
 * an open cell turns to rock when bit n of birth is set, a rock cell stays rock
 * when bit n of survival is set. Smoothing passes then shave one-cell bumps
 * and notches. Open regions (4-connected) smaller than min_region are filled;
 * every other region becomes a cave room (DG_ROOM_CAVE, rect = its bounding
 * box, cells = its open cells) and is joined to the others by straight
 * tunnels of floor chosen as a minimum spanning tree over the nearest pairs of
 * caves (one multi-source search over the rock: linear time), so every map is
 * one connected cave system. No door tiles: tunnels are floor, like the caves. */
enum { /* dg_cave_params.connect */
    DG_CAVE_CONNECT_TUNNELS = 0, /* every kept cave is joined to the others by tunnels */
    DG_CAVE_CONNECT_LARGEST = 1  /* only the largest cave is kept, the others are filled */
};
#define DG_CAVE_RULE_BIRTH 0x1E0    /* bits 5..8: an open cell with >= 5 rock neighbours turns to rock */
#define DG_CAVE_RULE_SURVIVAL 0x1F0 /* bits 4..8: a rock cell with >= 4 rock neighbours stays rock */

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_cave_params {
    int32_t fill_permille;        /* permille chance that a cell starts as rock, 0..1000 (default 470) */
    int32_t birth;                /* bit n set: an open cell with n rock neighbours turns to rock,
                                   * 0..511 (default DG_CAVE_RULE_BIRTH, the 4-5 rule) */
    int32_t survival;             /* bit n set: a rock cell with n rock neighbours stays rock,
                                   * 0..511 (default DG_CAVE_RULE_SURVIVAL) */
    int32_t iterations;           /* automaton steps, 0..100 (default 4) */
    int32_t smoothing;            /* passes that open rock cells with 3+ open sides and fill open
                                   * cells with 3+ rock sides, 0..16 (default 1) */
    int32_t min_region;           /* open regions with fewer cells are filled, 1..2^28; when
                                   * none is this large the largest is kept (default 12) */
    int32_t connect;              /* DG_CAVE_CONNECT_* (default tunnels) */
    int32_t tunnel_width;         /* tunnel width in cells, 1..3 (default 2) */
    int32_t target_open_permille; /* 0 = off; else fill_permille is searched (at most 10
                                   * automaton runs) so that about this permille of the
                                   * grid is open cave, 1..1000 (default 0) */
    int32_t border;               /* 1 = the grid's outer ring is closed rock, 0 = caves may
                                   * reach the edge (default 1) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_cave_params;

/* Fills the documented defaults. */
DG_API void dg_cave_defaults(dg_cave_params *params);
/* Fills grid with FLOOR (caves and tunnels), WALL (rock touching an open cell,
 * 8-way) and VOID (the rest of the rock). result (optional) gets one
 * DG_ROOM_CAVE room per chamber (the caves cut at their narrow places into
 * rooms of 30..300 cells whose rects never overlap, docs/cave.md), one
 * corridor per tunnel (start and end: the cave cells it joins, bend == end;
 * from/to: the chambers holding them), no doors, start (the cell of the largest cave nearest its
 * rectangle's centre), exit (a farthest cave cell by walking) and metrics
 * (requested = open regions the automaton left, placed = caves kept,
 * attempts = 0). allocator and diag are optional; scratch memory at the
 * defaults is 7.7 bytes per cell at 80x25 down to 2.3 at 2048x2048 without a
 * result, and up to 8.7 with one (docs/cave.md, Cost).
 * If no cave of two cells survives four fresh draws, a 3x3 cave is opened at
 * the centre. Errors: DG_E_NULL, DG_E_INVALID (a parameter), DG_E_TOO_SMALL
 * (less than 3x3 cells inside the border), DG_E_NOMEM; on any error the grid
 * and result are left as they were and diag says why. */
DG_API dg_status dg_cave_generate(dg_grid *grid, const dg_cave_params *params, uint64_t seed,
                                  dg_result *result, const dg_allocator *allocator,
                                  dg_diag *diag);

/* ---- generator: binary space partition (bsp) ------------------------------ */
/* The board is split in two again and again (docs/bsp.md): a node is cut
 * across its longer side at a random position that leaves both halves at
 * least a leaf's minimum size and, where it can, no thinner than max_ratio
 * allows, until no cut fits (or a depth or leaf cap is reached). Each leaf holds one room with
 * walls, drawn inside the leaf with `margin` cells of rock to spare. Then,
 * bottom-up, the two halves of every cut are joined by one corridor between a
 * room of each half, chosen near the cut line so corridors are short:
 * straight where the rooms face each other, else bent once (L), and a
 * corridor never crosses or runs along a room or another corridor; when no
 * such pair is found, the two rooms nearest the cut are joined through the
 * free band along it (two legs, reported as two corridors). Optional extra
 * links between rooms across a cut make loops. Every passable cell is
 * reachable; a door stands where each corridor enters a room. Sizes are
 * interior sizes (walls excluded), ranges inclusive. Work is iterative and
 * grows with the leaves: no recursion, no retry loops. */
enum { /* dg_bsp_params.doors */
    DG_BSP_DOORS_ROOMS = 0, /* a door tile where a corridor enters a room */
    DG_BSP_DOORS_NONE = 1   /* the wall cell is left open as corridor */
};

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_bsp_params {
    int32_t leaf_min_w;    /* smallest leaf width in cells, walls and margins included;
                            * >= room_min_w + 2 * margin + 2, <= 32768 (default 10) */
    int32_t leaf_min_h;    /* smallest leaf height, >= room_min_h + 2 * margin + 2 (default 7) */
    int32_t max_ratio;     /* percent: a cut leaves no part longer along it than max_ratio/100
                            * times its breadth across it, where a cut off the middle
                            * allows that at all, 100..10000 (default 200) */
    int32_t max_depth;     /* cuts along any branch, 0 = no limit, 0..1000000 (default 0) */
    int32_t max_leaves;    /* leaves (rooms) at most, 0 = no limit; cuts are made
                            * breadth-first so a cap keeps leaves even (default 0) */
    int32_t room_min_w, room_max_w; /* room interior width, 1..32768 (default 3..24) */
    int32_t room_min_h, room_max_h; /* room interior height, 1..32768 (default 3..16) */
    int32_t room_fill;     /* percent of its leaf's free space a room spans at least
                            * (never below the minimum), 0..100 (default 50) */
    int32_t margin;        /* rock cells between a room's wall and its leaf's edge,
                            * 1..1000 (default 1) */
    int32_t loop_chance;   /* permille per cut: a second corridor across it between other
                            * rooms, for loops, 0..1000 (default 500) */
    int32_t doors;         /* DG_BSP_DOORS_* (default rooms) */
    int32_t shapes;        /* permille of rooms drawn with a shape (DG_SHAPE_*: cross, circle,
                            * octagon, chunky, pillars, cavern) where one fits, 0..1000 (default 0) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_bsp_params;

/* Fills the documented defaults. */
DG_API void dg_bsp_defaults(dg_bsp_params *params);
/* Fills grid with VOID (rock), FLOOR (rooms), WALL (around rooms and
 * corridors), CORRIDOR and DOOR tiles; the outer ring is always rock. result
 * (optional) gets the rooms in leaf order (parent: the next room toward the
 * start room along the joining corridors, -1 for the start room), the
 * corridors (from/to: the rooms they join; a corridor routed through the band
 * along a cut is two corridors referring to each other), the doors (a: the
 * room, b: the corridor), start (centre of a room whose leaf lies against the
 * board's edge),
 * exit (a farthest room cell by walking) and metrics (requested = placed =
 * leaves; stopped_early = max_depth or max_leaves stopped a cut that fitted).
 * allocator and diag are optional. Errors: DG_E_NULL, DG_E_INVALID (a
 * parameter; the message names it), DG_E_NOSPACE (the grid cannot be cut into
 * two leaves; the message gives the smallest sizes), DG_E_NOMEM; on any error
 * the grid and the result are left as they were. */
DG_API dg_status dg_bsp_generate(dg_grid *grid, const dg_bsp_params *params, uint64_t seed,
                                 dg_result *result, const dg_allocator *allocator,
                                 dg_diag *diag);

/* ---- generator: maze (maze) ------------------------------------------------ */
/* Mazes on a lattice of square cells corridor_width tiles across with one-tile
 * walls between them (docs/maze.md). Two layouts: "rooms and mazes" (the
 * default: rooms placed first on the lattice, a maze filling the rest, each
 * room joined to the maze by a door through a spanning tree of the regions,
 * a few extra doors for loops, then dead ends pruned) and a pure perfect maze.
 * The maze is grown by a growing tree (cell selection newest / random / mixed,
 * and a chance to carry straight on) or by recursive division (an explicit
 * stack, linear time); braid opens a share of the dead ends into loops. Room
 * sizes are interior sizes in tiles, rounded to the lattice (k cells make
 * k * (corridor_width + 1) - 1 tiles; a minimum rounds up, a maximum down and
 * is capped to the lattice). Every passable cell is reachable from every
 * other; the outer ring is never open. */
enum { /* dg_maze_params.layout */
    DG_MAZE_LAYOUT_ROOMS = 0,   /* rooms and mazes: rooms, a maze around them, doors, pruning */
    DG_MAZE_LAYOUT_PERFECT = 1  /* a maze over the whole lattice, no rooms */
};
enum { /* dg_maze_params.algorithm */
    DG_MAZE_GROWING_TREE = 0,   /* growing tree: newest and straight shape it */
    DG_MAZE_DIVISION = 1        /* recursive division: long straight walls, each with one gap */
};
enum { /* dg_maze_params.start (perfect layout) */
    DG_MAZE_START_CORNER = 0,   /* the top-left lattice cell */
    DG_MAZE_START_CENTRE = 1    /* the middle lattice cell */
};
#define DG_MAZE_MAX_WIDTH 1000        /* corridor_width limit */
#define DG_MAZE_MAX_ROOM_TRIES 1000000 /* room_tries limit */

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_maze_params {
    int32_t layout;         /* DG_MAZE_LAYOUT_* (default rooms) */
    int32_t algorithm;      /* DG_MAZE_GROWING_TREE or DG_MAZE_DIVISION (default growing tree) */
    int32_t newest;         /* growing tree: permille of steps taken from the newest cell, the
                             * rest from a random one; 1000 = backtracker, 0 = Prim-like, 0..1000
                             * (default 1000) */
    int32_t straight;       /* growing tree: permille chance to carry on in the direction a cell
                             * was entered when that is free, 0..1000 (default 500) */
    int32_t braid;          /* permille of dead ends opened into a neighbouring passage (loops),
                             * 0..1000 (default 0) */
    int32_t corridor_width; /* passage width in tiles, 1..DG_MAZE_MAX_WIDTH (default 1) */
    int32_t room_tries;     /* rooms layout: room placement tries, 0 = by area (one per 6 lattice
                             * cells), 0..DG_MAZE_MAX_ROOM_TRIES (default 0) */
    int32_t room_min_w, room_max_w; /* room interior width in tiles, 1..32768 (default 3..11) */
    int32_t room_min_h, room_max_h; /* room interior height in tiles, 1..32768 (default 3..7) */
    int32_t extra_doors;    /* rooms layout: permille chance of a door at each join the spanning
                             * tree did not need, 0..1000 (default 100) */
    int32_t dead_ends;      /* rooms layout: permille of the maze's dead ends pruned back to a
                             * junction, room or door; 0 = keep, 1000 = remove all, 0..1000
                             * (default 1000) */
    int32_t start;          /* perfect layout: DG_MAZE_START_* (default corner) */
    int32_t room_grow;      /* rooms layout: 1 = rooms grow into the free cells beside them up to
                             * the largest size and extra doors join room to room (few, short
                             * corridors); 0 = drawn sizes, winding corridors (default 1) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_maze_params;

/* Fills the documented defaults. */
DG_API void dg_maze_defaults(dg_maze_params *params);
/* Fills grid with VOID (rock away from every passage), WALL, CORRIDOR (maze
 * passages), FLOOR (rooms) and DOOR (where the maze or a room meets a room).
 * result (optional) gets the rooms (lattice aligned, no overlap), the door tiles
 * (a = the room, b = the other room or DG_REF_NONE for the maze), no corridors
 * (the maze is a lattice, not segments), start and exit (rooms layout: the
 * start in a room at one end of the map, the exit a farthest room cell by
 * walking; perfect layout: the start cell asked for, the exit a farthest cell)
 * and metrics (requested/attempts = room tries, placed = rooms, failures =
 * tries that did not fit, stopped_early = the documented check budget ended
 * placement). allocator and diag are optional. Errors: DG_E_NULL,
 * DG_E_INVALID (a parameter), DG_E_NOSPACE (the lattice cannot hold two rooms
 * of the minimum size, or two cells for a perfect maze), DG_E_NOMEM; on any
 * error the grid is left as it was and diag says why. */
DG_API dg_status dg_maze_generate(dg_grid *grid, const dg_maze_params *params, uint64_t seed,
                                  dg_result *result, const dg_allocator *allocator,
                                  dg_diag *diag);

/* ---- generator: drunkard's walk and tunnelers (walk) ----------------------- */
/* Walkers carve floor out of rock until a floor target is reached
 * (docs/walk.md). The first walker starts at the centre of the grid; every
 * other walker, and every walker that wandered over carved floor for 32 steps
 * in a row, starts again from a carved cell next to rock, so everything carved
 * is connected by construction and the target is always reached (the work is
 * bounded by a count of steps). A drunk walker picks a random direction every
 * step (caves); a tunneler runs straight for step_min..step_max cells, then
 * turns or goes on (winding tunnels). Rectangular rooms may be dropped where
 * a walker turns. Symmetry carves the mirror image of every cell too. The
 * outer ring of the grid is never carved. Every carved cell is DG_TILE_FLOOR
 * (rooms and tunnels alike, so no door is needed), rock next to floor is
 * DG_TILE_WALL and the rest DG_TILE_VOID. */
enum { /* dg_walk_params.mode */
    DG_WALK_DRUNK = 0,     /* a random direction every step: rounded caves */
    DG_WALK_TUNNELER = 1   /* straight runs of step_min..step_max cells, then a turn */
};
enum { /* dg_walk_params.symmetry */
    DG_WALK_SYM_NONE = 0,
    DG_WALK_SYM_X = 1,     /* mirrored left-right (x -> width - 1 - x) */
    DG_WALK_SYM_Y = 2,     /* mirrored top-bottom (y -> height - 1 - y) */
    DG_WALK_SYM_XY = 3     /* both: four-fold */
};
#define DG_WALK_MAX_WALKERS 1000
#define DG_WALK_MAX_STEP 1000
#define DG_WALK_MAX_ROOM 50

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_walk_params {
    int32_t mode;         /* DG_WALK_* (default tunneler) */
    int32_t target_floor; /* stop once this permille of the grid's cells is floor, 1..1000;
                           * at least 2 cells, at most every cell inside the ring (default 300) */
    int32_t walkers;      /* walkers taking steps in turn, 1..DG_WALK_MAX_WALKERS (default 3) */
    int32_t step_min, step_max; /* tunneler: straight run in cells,
                                 * 1..DG_WALK_MAX_STEP (default 3..9) */
    int32_t turn_chance;  /* tunneler: permille chance to turn left or right at the end of a run,
                           * else it runs on straight, 0..1000 (default 500) */
    int32_t room_chance;  /* permille chance to drop a room where a walker turns, 0..1000
                           * (default 200) */
    int32_t room_min, room_max; /* room side in cells, each side drawn alone,
                                 * 2..DG_WALK_MAX_ROOM (default 3..7) */
    int32_t symmetry;     /* DG_WALK_SYM_* (default none) */
    int32_t max_steps;    /* walker steps in all, 0 = the automatic bound (docs/walk.md),
                           * which always reaches the target (default 0) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_walk_params;

/* Fills the documented defaults. */
DG_API void dg_walk_defaults(dg_walk_params *params);
/* Fills grid with VOID, WALL and FLOOR. result (optional) gets room 0, the
 * carved area (DG_ROOM_CAVE: rect = its bounding box, cells = its floor
 * cells), then the dropped rooms (DG_ROOM_NORMAL, parent 0, mirror images
 * included), no corridors or doors, start = the first walker's origin (the
 * centre), exit = a farthest cell by walking, and metrics (attempts = walker
 * steps, requested = the floor cells aimed at, placed = floor cells carved,
 * stopped_early = max_steps ended the walk first). allocator and diag are
 * optional. Errors: DG_E_NULL, DG_E_INVALID (a parameter), DG_E_NOSPACE (fewer
 * than two cells inside the ring: the smallest grids are 4x3 and 3x4),
 * DG_E_NOMEM; on any error the grid and result are left as they were. */
DG_API dg_status dg_walk_generate(dg_grid *grid, const dg_walk_params *params,
                                      uint64_t seed, dg_result *result,
                                      const dg_allocator *allocator, dg_diag *diag);

/* ---- generator: scattered rooms (scatter) ------------------------------------ */
/* Rooms (rectangles, or shapes inside them: dg_room.shape) dropped at random
 * free spots, never overlapping and always at least `gap` cells of rock apart
 * (walls excluded), holes filled by a lattice pass, then joined by a minimum
 * spanning tree over the room centres plus a share of extra edges for loops
 * (docs/scatter.md). Candidate edges are each room's `neighbours` nearest rooms,
 * found through a bucket grid, so the work grows with the rooms, not with their
 * square; the loop edges are the candidates of the relative neighbourhood graph
 * that the tree left out. Corridors are straight, L-shaped or (around an
 * obstacle) three-legged, never run through or along a room, and enter rooms
 * through door tiles. Sizes are interior sizes (walls excluded), ranges
 * inclusive; a maximum larger than the board is capped, a minimum never is. */
#define DG_SCATTER_MAX_ROOMS 1000000

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_scatter_params {
    int32_t rooms_min, rooms_max;   /* rooms asked for, 1..DG_SCATTER_MAX_ROOMS; rooms_min 0 = by area
                                       (6..8 per 1000 cells inside the border, at least 2), at most
                                       rooms_max; rooms_max at the limit is none given: rooms_min alone
                                       draws up to the area's count (never below rooms_min), and one
                                       the area cannot hold is refused (default 0, 1000000) */
    int32_t room_min_w, room_max_w; /* room interior width, >= 1 (default 4..10) */
    int32_t room_min_h, room_max_h; /* room interior height, >= 1 (default 4..7) */
    int32_t gap;                    /* rock cells between two rooms' walls, 1..32 (default 2) */
    int32_t max_tries;              /* positions drawn per room before it is given up, 1..1000
                                       (default 30); placing stops after 16 rooms in a row fail */
    int32_t neighbours;             /* candidate edges per room: its k nearest rooms, 1..16 (default 4) */
    int32_t loop_permille;          /* permille of the candidate loop edges (relative neighbourhood
                                       edges outside the tree) that get a corridor, 0..1000 (default 250);
                                       any but 0 also joins the shortest up to 16 per 100 rooms */
    int32_t border;                 /* 1 = nothing open on the grid's outer ring, 0 = rooms and
                                       corridors may reach the edge (default 1) */
    int32_t shape_permille;         /* permille of the rooms drawn with a shape (DG_SHAPE_*: cross,
                                       circle, octagon, chunky, pillared hall, cavern) among those
                                       that fit the room's size, 0..1000 (default 1000) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_scatter_params;

/* Fills the documented defaults. */
DG_API void dg_scatter_defaults(dg_scatter_params *params);
/* Fills grid with VOID, FLOOR (rooms), CORRIDOR, WALL and DOOR tiles. result
 * (optional) gets the rooms (kind normal, parent -1), the corridors (from/to:
 * the rooms they join; a three-legged route is two corridors, joined to each
 * other), door tiles (a = room, b = corridor), start (centre of a room at one end
 * of the tree), exit (a farthest room cell by walking) and metrics (requested,
 * placed, stopped_early = fewer rooms placed than requested, attempts = room
 * positions drawn, at most requested * max_tries; failures = positions that did
 * not fit; loops). allocator and diag are optional. Errors: DG_E_NULL,
 * DG_E_INVALID (a parameter), DG_E_TOO_SMALL (the smallest room cannot fit with
 * a free row and column beside it), DG_E_NOSPACE (two rooms of the smallest size
 * and their gap do not fit: a map needs two), DG_E_NOMEM; on any error the grid
 * and result are left as they were and diag says why. */
DG_API dg_status dg_scatter_generate(dg_grid *grid, const dg_scatter_params *params, uint64_t seed,
                                     dg_result *result, const dg_allocator *allocator,
                                     dg_diag *diag);

/* ---- map analysis ---------------------------------------------------------- */
/* Questions a game asks a map: regions, distances, paths, field of view,
 * metrics, placement (docs/analysis.md). They work on any caller grid and never
 * write it. Per-cell buffers are row-major with `width` entries per row (no
 * stride): cell (x, y) is buf[y * width + x]; their sizes are element counts
 * checked before anything is written (DG_E_BUFFER). On any error the caller's
 * buffers are untouched and diag (optional) says why. */

#define DG_UNREACHABLE (-1) /* distance of a cell that no source reaches */

/* Per-cell overlays: what changes cell by cell and turn by turn (monsters that
 * block, doors that open and close, terrain that costs more), laid over the
 * per-tile tables without copying the grid. Each mask is caller-owned, one byte
 * per cell, cell (x, y) at mask[y * stride + x], with at least
 * (height - 1) * stride + width entries. `flags` says which masks are present;
 * a flagged mask must not be NULL and an unflagged one is ignored. An absent
 * overlay costs nothing. Bad overlays: DG_E_INVALID (unknown flag, a flagged
 * NULL mask, stride below width), DG_E_BUFFER (too few cells); nothing is written. */
#define DG_OVERLAY_BLOCKED 1u /* blocked: nonzero = nobody may stand on the cell */
#define DG_OVERLAY_COST 2u    /* extra_cost: added to the cost of stepping onto the cell */
#define DG_OVERLAY_SIGHT 4u   /* sight: DG_SIGHT_* per cell, for dg_fov_overlay */
#define DG_SIGHT_TILE 0       /* light crosses as the tile's transparency says */
#define DG_SIGHT_OPAQUE 1     /* blocks light (a closed door, smoke) */
#define DG_SIGHT_CLEAR 2      /* lets light through (glass); any value >= 2 does */
typedef struct dg_overlay {
    uint32_t flags;             /* DG_OVERLAY_* bits of the masks present */
    int32_t stride;             /* entries per mask row, >= width (0: the grid's stride) */
    size_t cells;               /* entries in each mask */
    const uint8_t *blocked;     /* with DG_OVERLAY_BLOCKED */
    const uint8_t *extra_cost;  /* with DG_OVERLAY_COST: 0..255 added to the tile cost */
    const uint8_t *sight;       /* with DG_OVERLAY_SIGHT */
} dg_overlay;

/* How a walker moves; fill with dg_move_defaults. A NULL dg_move means the defaults. */
/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_move {
    const uint8_t *passable;  /* 256 entries, nonzero = may stand on the tile
                                 (NULL: dg_tile_passable) */
    const uint16_t *cost;     /* 256 entries: cost of stepping onto a tile, >= 1 where
                                 passable (NULL: 1) */
    int32_t neighbours;       /* 4 or 8 (default 4) */
    int32_t corner_cutting;   /* 8-way: 1 lets a diagonal step pass a blocked orthogonal
                                 cell (default 0) */
    int32_t straight_weight;  /* orthogonal step costs cost * straight_weight (1..1000,
                                 default 1) */
    int32_t diagonal_weight;  /* diagonal step costs cost * diagonal_weight (straight..1000,
                                 default 1; straight 2 and diagonal 3 approximate Euclid) */
    const dg_overlay *overlay; /* per-cell blocked and extra-cost masks (NULL: none). A
                                  blocked cell is impassable, except the ends of a
                                  search: the sources of a distance map and the from
                                  and to of a path (the actor and its target stand
                                  there). A step onto a cell costs (tile cost + extra)
                                  * weight. dg_regions honours blocked. */
    int32_t size;             /* the walker's footprint side, 1..DG_CREATURE_SIZE_MAX (0 or 1:
                                 one cell; default 1): a size-n walker at (x, y) covers
                                 the n x n square from (x, y) to (x + n - 1, y + n - 1),
                                 every cell of it passable and not blocked (the search
                                 ends excepted, as for blocked cells); dg_regions takes 1 */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_move;
#define DG_CREATURE_SIZE_MAX 4

/* Fills the documented defaults: library passable tiles, unit costs, 4-way, size 1. */
DG_API void dg_move_defaults(dg_move *move);

/* The clearance map: for each cell, the side of the largest square of cells
 * that are passable and not blocked (by move's tiles and overlay; its size is
 * ignored) with that cell as its top-left corner, 0 on an impassable cell,
 * capped at 255. clearance gets width*height bytes, row-major. A walker of
 * size n fits at (x, y) exactly where clearance >= n. */
DG_API dg_status dg_clearance(const dg_grid *grid, const dg_move *move, uint8_t *clearance,
                              size_t clearance_count, dg_diag *diag);

/* Labels the connected regions of passable cells (connected as walk moves)
 * 0..n-1 in the order of their first cell (row-major) and -1 elsewhere, into
 * labels. sizes (optional) gets the cell counts of the first sizes_cap regions;
 * count and largest (optional) get n and the label of the largest region
 * (the first on ties, -1 if none). Uses no scratch memory. */
DG_API dg_status dg_regions(const dg_grid *grid, const dg_move *move, int32_t *labels,
                            size_t labels_count, int32_t *sizes, int32_t sizes_cap,
                            int32_t *count, int32_t *largest, dg_diag *diag);

/* Scratch memory for searches, reused across calls so that a query costs what it
 * visits, not the whole map. Fits any grid of at most width * height cells. One
 * workspace must not be used by two threads at once. */
typedef struct dg_path_workspace dg_path_workspace;
DG_API dg_status dg_path_workspace_create(int32_t width, int32_t height,
                                          const dg_allocator *allocator,
                                          dg_path_workspace **workspace);
/* Releases a workspace (NULL is fine). */
DG_API void dg_path_workspace_free(dg_path_workspace *workspace);

typedef struct dg_distance_info {
    int32_t reached;      /* cells given a distance, sources included */
    int32_t max_distance; /* the largest distance written */
    dg_point farthest;    /* the last cell settled, at max_distance */
} dg_distance_info;

/* Walking distance from the nearest source to every cell into dist:
 * breadth-first with unit costs, Dijkstra with walk->cost or weights. Cells that
 * are impassable, unreached, or farther than max_distance (0: no limit) get
 * DG_UNREACHABLE. Sources must be passable cells inside the grid (DG_E_INVALID).
 * DG_E_TOO_LARGE if costs could overflow int32: the smaller of (cells - 1) *
 * largest step and max_distance, plus one step, above 2^31 - 1. workspace
 * optional (NULL: one is allocated with malloc for the call); info optional. */
DG_API dg_status dg_distance_map(const dg_grid *grid, const dg_move *move,
                                 const dg_point *sources, int32_t source_count,
                                 int32_t max_distance, int32_t *dist, size_t dist_count,
                                 dg_path_workspace *workspace, dg_distance_info *info,
                                 dg_diag *diag);

/* Dijkstra map: dg_distance_map where each source starts at its own cost
 * (start_costs[i] >= 0, NULL: all 0): a cell gets the least start cost plus
 * walking cost over all sources, DG_UNREACHABLE beyond max_distance (0: no
 * limit). Approach maps start every goal at 0; safety (flee) maps start every
 * cell at a cost that falls as the threat's distance grows (docs/analysis.md).
 * A source may repeat (the least cost counts); one whose start cost is over
 * max_distance takes no part (nor is it an open end of a blocked overlay).
 * With nothing reached, info->reached is 0 and info->max_distance
 * DG_UNREACHABLE. DG_E_INVALID for a negative start cost, DG_E_TOO_LARGE if a
 * value could overflow int32. */
DG_API dg_status dg_dijkstra_map(const dg_grid *grid, const dg_move *move,
                                 const dg_point *sources, const int32_t *start_costs,
                                 int32_t source_count, int32_t max_distance, int32_t *dist,
                                 size_t dist_count, dg_path_workspace *workspace,
                                 dg_distance_info *info, dg_diag *diag);

/* Cheapest path from `from` to `to` by A* (no corner cutting unless walk allows
 * it). path gets the cells from `from` to `to`, both included (path[0] is
 * `from`, path[*length - 1] is `to`: a neighbour gives length 2, `from` itself
 * 1), *length their number and *cost (optional) the summed step costs; with
 * path NULL and path_cap 0 only length and cost are computed. DG_E_BUFFER (and *length = cells needed) if
 * path_cap is too small, DG_E_NOPATH if `to` is impassable or unreachable,
 * DG_E_INVALID if an end is outside the grid or `from` is impassable.
 * workspace optional (NULL: a temporary one, which costs the whole map). */
DG_API dg_status dg_path_find(const dg_grid *grid, const dg_move *move, dg_point from,
                              dg_point to, dg_path_workspace *workspace, dg_point *path,
                              int32_t path_cap, int32_t *length, int32_t *cost, dg_diag *diag);

/* 1 if light crosses the tile: passable tiles and water. */
DG_API int dg_tile_transparent(uint8_t tile);
/* The cells dg_fov writes for this origin and radius: the square origin +-
 * radius clipped to the grid (the whole grid for radius 0); empty if invalid. */
DG_API dg_rect dg_fov_bounds(const dg_grid *grid, dg_point origin, int32_t radius);
/* Field of view by symmetric shadowcasting: visible[] gets 1 for every cell seen
 * from origin and 0 for the other cells of dg_fov_bounds; no other cell is
 * written, so the cost follows the radius, not the map. A cell is in range if
 * dx*dx + dy*dy <= radius * (radius + 1); radius 0 means unlimited. Transparent
 * cells see each other symmetrically; opaque cells are seen when lit.
 * transparent: 256 entries (NULL: dg_tile_transparent). Allocates (through
 * allocator, NULL: malloc) only when the scan is deeper than 128 rows. */
DG_API dg_status dg_fov(const dg_grid *grid, const uint8_t *transparent, dg_point origin,
                        int32_t radius, uint8_t *visible, size_t visible_count,
                        const dg_allocator *allocator, dg_diag *diag);
/* dg_fov with a per-cell sight mask (overlay->sight, DG_OVERLAY_SIGHT) over the
 * tile table: doors that close, smoke, glass. Other masks are ignored; a NULL
 * overlay is dg_fov. */
DG_API dg_status dg_fov_overlay(const dg_grid *grid, const uint8_t *transparent,
                                const dg_overlay *overlay, dg_point origin, int32_t radius,
                                uint8_t *visible, size_t visible_count,
                                const dg_allocator *allocator, dg_diag *diag);

/* Scores any grid with 4-neighbour steps on passable tiles (256 entries, NULL:
 * dg_tile_passable): fills cells, floor_cells, floor_permille, doors (door
 * tiles), dead_ends, loops, regions, chokepoints and diameter, and zeroes the
 * fields only a generator knows. loops counts cycles around obstacles: E - V + C
 * of the passable cell graph minus its 2x2 open squares. */
DG_API dg_status dg_measure(const dg_grid *grid, const uint8_t *passable, dg_metrics *metrics,
                            const dg_allocator *allocator, dg_diag *diag);
/* mask gets 1 on each chokepoint (a passable cell whose removal splits its
 * 4-connected region: an articulation cell) and 0 elsewhere; count optional. */
DG_API dg_status dg_chokepoints(const dg_grid *grid, const uint8_t *passable, uint8_t *mask,
                                size_t mask_count, int32_t *count,
                                const dg_allocator *allocator, dg_diag *diag);

/* How shippable a map is: what `dungeon --survey` tabulates and the quality
 * tests check (docs/quality.md). Every figure is a pure function of the grid
 * and the result's rooms, start and exit. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_quality {
    int32_t floor_permille;    /* passable cells * 1000 / cells */
    int32_t rooms, corridors;  /* the result's counts */
    int32_t doors;             /* door tiles */
    int32_t dead_ends;         /* passable cells with exactly one passable 4-neighbour */
    int32_t loops;             /* independent cycles around walls (dg_measure's loops) */
    int32_t regions;           /* 4-connected passable regions */
    int32_t border_open;       /* passable cells on the outer ring of the grid */
    int32_t unreachable;       /* passable cells no 4-way walk from the start reaches
                                * (all of them when there is no start) */
    int32_t route;             /* walking steps from start to exit, -1 if none */
    int32_t route_permille;    /* route * 1000 / the map's diagonal (rounded down) */
    int32_t start_in_room;     /* 1 if the start lies in a room's rect (1 when there are no rooms) */
    int32_t exit_in_room;      /* 1 if the exit lies in a room's rect (1 when there are no rooms) */
    int32_t start_is_exit;     /* 1 if start and exit are the same cell */
    int32_t exit_rank_permille;/* reachable cells strictly farther than the exit, per
                                * mille of the reachable cells: 0 = the exit is a
                                * farthest cell; the contract is <= 100 */
    int32_t doorless_joins;    /* corridor tiles outside every room's rect that touch
                                * (4-way) a passable, non-door cell inside one */
    int32_t dead_doors;        /* door tiles on the outer ring or without passable
                                * cells on two opposite sides (doors leading nowhere) */
    int32_t parallel_cells;    /* corridor cells that run beside another corridor,
                                * separated by 1 or 2 impassable cells, for 3 or more
                                * cells in a row */
    /* Layout figures (docs/quality.md); "rooms" are the result's room rects,
     * and a figure about rooms is 0 when the result has none. */
    int32_t loops_per_room_permille;   /* loops * 1000 / rooms */
    int32_t single_entrance_permille;  /* rooms with exactly one entrance (a run of
                                        * passable cells outside the rect, 4-adjacent
                                        * to its passable cells, along one side), per
                                        * mille of the rooms */
    int32_t shaped_room_permille;      /* rooms whose rect holds an impassable cell,
                                        * per mille of the rooms */
    int32_t empty_square_permille;     /* area of the largest square without a passable
                                        * cell, per mille of the map */
    int32_t straight_max;              /* longest straight run of one-wide passable cells
                                        * (impassable on both sides across) outside
                                        * every room rect but caves' (bounding boxes) */
    int32_t parallel_permille;         /* one-wide passable cells beside another passage
                                        * 1-2 impassable cells across, 3+ in a row, per
                                        * mille of the one-wide cells */
    int32_t corridor_per_room_permille;/* passable cells outside every room rect
                                        * (a cave's too) * 1000 / rooms */
    int32_t dead_end_max;              /* longest dead-end passage: cells from a dead
                                        * end to the first cell with 3+ passable
                                        * neighbours or inside a room rect (not a cave's) */
    int32_t diameter;                  /* walking diameter of the start's region: a
                                        * lower bound by two breadth-first sweeps
                                        * (-1 without a start) */
    int32_t route_diameter_permille;   /* route * 1000 / diameter (-1 if no route) */
    int32_t locks_placed;              /* distinct lock numbers on DG_MARKER_LOCK markers */
    int32_t key_start_min;             /* fewest walking steps from the start to a key
                                        * (-1: no reachable key) */
    int32_t key_lock_min;              /* fewest steps from a key to a door of its own
                                        * lock, over the keys (-1: none) */
    int32_t void_open;                 /* passable cells beside (4-way) a DG_TILE_VOID
                                        * cell: the map is not walled in there (0.16) */
    int32_t spare[DG_SPARE_SLOTS - 1]; /* 0 (room for later fields, docs/abi.md) */
} dg_quality;

/* Measures one map: grid plus the result a generator filled for it (rooms,
 * start, exit, key and lock markers; NULL: no rooms, no start). Allocates
 * two int32 and about one byte per cell, three int32 per column (allocator
 * optional); two walks, plus one per key (at most DG_LOCKS_MAX). */
DG_API dg_status dg_survey_map(const dg_grid *grid, const dg_result *result, dg_quality *quality,
                               const dg_allocator *allocator, dg_diag *diag);

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_place_params {
    const uint8_t *passable;    /* 256 entries (NULL: dg_tile_passable) */
    const uint8_t *room_tiles;  /* 256 entries: room floor, where stairs and spawns go
                                   (NULL: DG_TILE_FLOOR) */
    dg_point arrival;           /* where the player arrives from the floor above;
                                   (-1, -1): none (default) */
    int32_t spawn_count;        /* spawn points wanted (default 0) */
    int32_t spawn_min_distance; /* walking steps from the start, at least (default 6) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_place_params;

typedef struct dg_placement {
    dg_point start;       /* up stairs: the passable cell nearest to arrival, else one
                             end of a farthest pair */
    dg_point exit;        /* down stairs: the room cell farthest from start by walking */
    int32_t distance;     /* steps from start to exit */
    int32_t spawn_count;  /* spawn points placed */
} dg_placement;

/* Fills the documented defaults. */
DG_API void dg_place_defaults(dg_place_params *params);
/* Suggests start and exit (4-way walking) and spawn_count spawn points on room
 * cells reachable from start, at least spawn_min_distance steps away, never on a
 * chokepoint, door, start or exit; the spawns are a pure function of (grid,
 * params, seed). spawns (optional) needs spawns_cap >= spawn_count. result
 * (optional) gets START, EXIT and SPAWN markers; without arrival, a start (and
 * exit) already in result is kept and used (DG_E_INVALID if unusable), else
 * result gets the new start/exit. DG_E_NOSPACE if the grid has no passable
 * cell or too few cells qualify for spawns. */
DG_API dg_status dg_place(const dg_grid *grid, const dg_place_params *params, uint64_t seed,
                          dg_result *result, dg_placement *placement, dg_point *spawns,
                          int32_t spawns_cap, const dg_allocator *allocator, dg_diag *diag);
/* Seed of floor k of a multi-floor dungeon: dg_hash_combine(master, k), so any
 * floor can be regenerated alone. Pass the previous floor's exit as arrival. */
DG_API uint64_t dg_floor_seed(uint64_t master, int32_t floor);


/* ---- progression: locks, keys and secret doors ------------------------------ */
/* dg_lock_place turns doors of any generated map into locked doors and puts
 * their keys where a player who starts at result->start can always fetch each
 * key before its lock (docs/progression.md). A lock is a gate: the doors (one
 * or a few) that every way from the start to the exit crosses at the same
 * depth; locks follow one another from the start toward the exit, so lock N's
 * key lies behind locks 1..N-1 and before lock N. Maps without door tiles
 * (caves, mazes, walks) gate at narrow passages instead, which become locked
 * doors; maps of loops at the fewest cells (at most gate_max) that part the
 * exit from the start, and the first locks may close pockets off the way
 * (lock N's pocket then holds key N + 1). Secret doors are doors on loops: turning them secret keeps every cell
 * reachable under every set of keys, so a secret never gates progress.
 * Each key is a DG_MARKER_KEY named "key N" and each locked door carries a
 * DG_MARKER_LOCK named "lock N" (N = 1..placed, also in the marker's number);
 * JSON and Tiled exports list them like any marker, the number as a field. dg_solve plays the map to prove it. */
#define DG_LOCKS_MAX 16
enum { /* dg_lock_params.key_place: where a key goes, between its lock and the one before */
    DG_KEYS_ON_PATH = 0,  /* on the way from the start to the lock */
    DG_KEYS_BRANCH = 1,   /* as far off that way as the region allows (a side branch) */
    DG_KEYS_DEAD_END = 2  /* at the dead end farthest off the way (else as BRANCH) */
};
/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_lock_params {
    int32_t locks;           /* locks wanted, 0..DG_LOCKS_MAX (default 2) */
    int32_t require_all;     /* 1: DG_E_NOSPACE unless all fit; 0: place what fits (default 0) */
    int32_t key_place;       /* DG_KEYS_* (default DG_KEYS_BRANCH) */
    int32_t kinds;           /* key kinds (colours) 1..8: lock N is kind (N - 1) % kinds (default 3) */
    int32_t gate_max;        /* most doors one lock may close, 1..8 (default 2) */
    int32_t secret_permille; /* share of loop doors made secret (and 1/4 of it of dead-end rooms hidden), 0..1000 (default 0) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_lock_params;

/* What dg_lock_place did and what dg_solve found. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_progress {
    int32_t requested;       /* locks asked for */
    int32_t placed;          /* locks placed */
    int32_t locked_doors;    /* DG_TILE_DOOR_LOCKED cells written */
    int32_t secret_doors;    /* DG_TILE_DOOR_SECRET cells written */
    int32_t kinds[DG_LOCKS_MAX];   /* kind of lock N at [N - 1] */
    int32_t solvable;        /* dg_solve: 1 if the exit can be reached */
    int32_t keys_reached;    /* dg_solve: keys the player can collect */
    int32_t order_count;     /* dg_solve: keys needed to reach the exit */
    int32_t order[DG_LOCKS_MAX];   /* dg_solve: their lock numbers, in an order that works */
    int32_t steps;           /* dg_solve: cells the player can reach with every key it can get */
    int32_t shortfall;       /* why placed < requested: DG_LOCKS_SHORT_* (0 when all fit) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_progress;
enum { /* dg_progress.shortfall */
    DG_LOCKS_SHORT_NONE = 0, /* every lock asked for was placed */
    DG_LOCKS_SHORT_OPEN = 1, /* no gate of at most gate_max doors parts the start from the exit */
    DG_LOCKS_SHORT_FEW = 2   /* fewer such gates (and pockets) than asked, each with room for a key */
};

/* Fills the documented defaults. */
DG_API void dg_lock_defaults(dg_lock_params *params);
/* Locks doors of a generated map (grid and result from the same generator
 * call) and adds key and lock markers to result. progress (optional) gets the
 * counts and dg_solve's verdict, which is always solvable. Fewer locks fit
 * than asked when the way from start to exit has too few gates (a map without
 * branches, or too open): progress->placed says how many and
 * progress->shortfall why, diag gets a message with status DG_OK, and the call
 * fails with DG_E_NOSPACE only with require_all. DG_E_INVALID if the result has no
 * start and exit on passable cells; on any error grid and result are untouched. */
DG_API dg_status dg_lock_place(dg_grid *grid, const dg_lock_params *params, uint64_t seed,
                               dg_result *result, dg_progress *progress,
                               const dg_allocator *allocator, dg_diag *diag);
/* Plays the map: from result->start, walking 4-way over passable tiles, picking
 * up every key it reaches (every DG_MARKER_KEY "key N", N 1..16: several may
 * share a cell, a number may lie in several places); a locked door opens once
 * the keys of all its "lock N" markers are held (one without such a marker
 * never opens), and a secret door counts as wall, so a map that solves never
 * needs a secret. Keys open only their own lock and are not used up, so
 * collecting keys never hurts and one search settles every key set (the
 * breadth-first search over position and keys collapses to one pass).
 * DG_E_INVALID for a start or exit off the grid or impassable, or a start on a
 * locked or secret door. Writes solvable, keys_reached, steps and order (the
 * keys the exit depends on, each after the keys its own way depends on) into
 * progress; leaves the rest, and all of it on error. */
DG_API dg_status dg_solve(const dg_grid *grid, const dg_result *result, dg_progress *progress,
                          const dg_allocator *allocator, dg_diag *diag);

/* ---- prefabs ----------------------------------------------------------------- */
/* Text prefabs (docs/prefab-format.md). A parsed set is immutable: it may be
 * shared between threads and is released with dg_prefab_set_free. */
enum { /* orientations: how a prefab's cell (x, y) of a W x H prefab is moved */
    DG_ORIENT_IDENTITY = 0,
    DG_ORIENT_ROT90 = 1,       /* clockwise; width and height swap */
    DG_ORIENT_ROT180 = 2,
    DG_ORIENT_ROT270 = 3,
    DG_ORIENT_MIRROR_X = 4,    /* x -> W-1-x */
    DG_ORIENT_MIRROR_Y = 5,    /* y -> H-1-y */
    DG_ORIENT_TRANSPOSE = 6,   /* main diagonal: (x, y) -> (y, x) */
    DG_ORIENT_ANTI = 7,        /* anti-diagonal: (x, y) -> (H-1-y, W-1-x) */
    DG_ORIENT_COUNT = 8
};
#define DG_ORIENT_MASK_ALL 0xFF /* bit (1 << DG_ORIENT_*) per allowed orientation */

enum { /* prefab mode bits */
    DG_PREFAB_FULL = 1,
    DG_PREFAB_JIGSAW = 2,
    DG_PREFAB_ISLAND = 4,
    DG_PREFAB_FURNISH = 8
};
enum { /* door side bits, as used by prefabs and the world */
    DG_SIDE_N = 1, DG_SIDE_E = 2, DG_SIDE_S = 4, DG_SIDE_W = 8
};
enum { /* door class of a side mask */
    DG_DOORCLASS_NONE = 0,
    DG_DOORCLASS_ONE = 1,
    DG_DOORCLASS_STRAIGHT = 2, /* two opposite sides */
    DG_DOORCLASS_CORNER = 3,   /* two adjacent sides */
    DG_DOORCLASS_THREE = 4,
    DG_DOORCLASS_FOUR = 5
};

#define DG_PREFAB_MAX_SIDE 1024  /* largest prefab width or height in cells */
#define DG_PREFAB_MAX_ERRORS 64  /* a parse reports at most this many errors */

typedef struct dg_prefab_set dg_prefab_set;
/* Called once per error while parsing (all errors are reported in one pass, up
 * to a limit); diag->message is "name:line:col: message". */
typedef void (*dg_diag_fn)(void *user, const dg_diag *diag);

/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_prefab_info {
    char name[DG_NAME_MAX];
    int32_t width, height;      /* in the identity orientation */
    int32_t modes;              /* DG_PREFAB_* bits */
    int32_t orientations;       /* allowed orientation bits */
    int32_t distinct;           /* allowed orientation bits left after merging identical results */
    int32_t weight;             /* selection weight (default 10) */
    int32_t door_sides;         /* DG_SIDE_* bits in the identity orientation */
    int32_t door_class;         /* DG_DOORCLASS_* */
    int32_t tag_count;          /* tags, read with dg_prefab_tag */
    int32_t margin;             /* island spacing (default 1) */
    int32_t unique;             /* 1: at most once per generated map */
    int32_t line;               /* line of its `prefab NAME` in the source */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_prefab_info;

/* Parses text[0..length) (need not be NUL-terminated). source_name prefixes
 * messages (NULL: "<input>"). On error *set stays NULL, diag holds the first
 * error and on_error (optional) receives every error. */
DG_API dg_status dg_prefab_parse(const char *text, size_t length, const char *source_name,
                                 const dg_allocator *allocator, dg_diag_fn on_error, void *user,
                                 dg_prefab_set **set, dg_diag *diag);
/* Reads and parses a file (a helper; the core API takes buffers); a
 * `prefabs FILE` line loads that set (relative to path) as graph->prefabs,
 * which dg_graph_free then releases. */
DG_API dg_status dg_prefab_load(const char *path, const dg_allocator *allocator,
                                dg_diag_fn on_error, void *user, dg_prefab_set **set,
                                dg_diag *diag);
/* Releases a set (NULL is fine). */
DG_API void dg_prefab_set_free(dg_prefab_set *set);
/* A 64-bit hash of the parsed set's content (prefabs, legends, substitutions,
 * requires, tags, groups), never 0: the same for the same prefabs whatever the
 * file's comments, blank lines or allocator; stable within an output series.
 * 0 for NULL. Recipes record it (prefabs_hash). */
DG_API uint64_t dg_prefab_set_hash(const dg_prefab_set *set);
/* Number of prefabs in the set (0 for NULL). */
DG_API int32_t dg_prefab_count(const dg_prefab_set *set);
/* Index of the prefab with that name, or -1. */
DG_API int32_t dg_prefab_find(const dg_prefab_set *set, const char *name);
/* Fills *info for prefab index; DG_E_INVALID if there is no such prefab. */
DG_API dg_status dg_prefab_get_info(const dg_prefab_set *set, int32_t index, dg_prefab_info *info);
/* Door side bits after applying an orientation to a side mask. */
DG_API int32_t dg_orient_sides(int32_t sides, int32_t orientation);
/* Door class of a side mask. */
DG_API int32_t dg_door_class(int32_t sides);
/* Picks, from the prefabs with mode bit `mode` (e.g. DG_PREFAB_FURNISH), one
 * whose door sides can be oriented to exactly `sides`, weighted, and a uniform
 * orientation among the distinct allowed ones that give those sides. Pure
 * function of (set, sides, mode, hash). DG_E_NOSPACE if none fits. */
DG_API dg_status dg_prefab_pick(const dg_prefab_set *set, int32_t mode, int32_t sides,
                                uint64_t hash, int32_t *index, int32_t *orientation);
/* Stamps prefab `index` in `orientation` with its top-left at (x, y) of grid,
 * resolving its randomised glyphs from seed. Void cells are left as they are;
 * cells outside the grid are clipped (DG_E_INVALID if nothing fits, or if the
 * orientation is not one the prefab allows). Markers (actors, markers, traps)
 * are appended to result (optional) in grid coordinates, with the index of the
 * result's room that contains them. DG_E_LIMIT if no re-roll of the random
 * glyphs meets its `require` counts. Nothing is written on error. */
DG_API dg_status dg_prefab_stamp(const dg_prefab_set *set, int32_t index, int32_t orientation,
                                 uint64_t seed, dg_grid *grid, int32_t x, int32_t y,
                                 dg_result *result, dg_diag *diag);
/* Like dg_prefab_pick, but only orientations whose size is at most max_w x
 * max_h count (a prefab with none of them is skipped). */
DG_API dg_status dg_prefab_pick_fit(const dg_prefab_set *set, int32_t mode, int32_t sides,
                                    int32_t max_w, int32_t max_h, uint64_t hash,
                                    int32_t *index, int32_t *orientation);
/* Tag k (0 .. tag_count-1) of a prefab, or NULL. */
DG_API const char *dg_prefab_tag(const dg_prefab_set *set, int32_t index, int32_t k);
/* 1 if the prefab has the tag (NULL or "" matches every prefab), else 0. */
DG_API int dg_prefab_has_tag(const dg_prefab_set *set, int32_t index, const char *tag);
/* Edge signature of one side (a DG_SIDE_* bit) in an orientation: bit i is 1
 * if the i-th border cell (west to east, or north to south) is passable for
 * every outcome of the randomised glyphs. Sides over 64 cells give a hash.
 * length (optional) gets the side's length in cells. */
DG_API dg_status dg_prefab_edge(const dg_prefab_set *set, int32_t index, int32_t orientation,
                                int32_t side, uint64_t *signature, int32_t *length);
/* Where cell p of a w x h grid lands in orientation (a grid of h x w when it
 * swaps the sides). */
DG_API dg_point dg_orient_point(int32_t orientation, int32_t w, int32_t h, dg_point p);
/* The orientation equal to applying `first`, then `second` (-1 if invalid). */
DG_API int32_t dg_orient_compose(int32_t first, int32_t second);
/* The orientation that undoes o (-1 if invalid). */
DG_API int32_t dg_orient_inverse(int32_t orientation);

/* Prefab generators (full, jigsaw, islands, mixed). */
/* Every prefab generator returns, beside the tiles, one dg_room per placed
 * prefab (rect = its stamped box, walls included; kind DG_ROOM_PREFAB or
 * DG_ROOM_START; prefab = its index; orientation), one dg_door per door cell
 * on a prefab's border, and the markers of its actor, marker and trap glyphs.
 * The result's start is the first `start`-kind marker if there is one (else
 * the start room's centre), its exit the first `exit`-kind marker (else the
 * farthest cell). On any error the grid and result are left as they were. */
enum { /* dg_prefab_jigsaw_params.seams */
    DG_SEAM_MATCH = 0, /* equal edge signatures where the candidates allow it, else a
                        * shared open cell, else any neighbour */
    DG_SEAM_OPEN = 1,  /* at least one shared open cell where possible, else any */
    DG_SEAM_ANY = 2    /* no seam matching (connectivity is still checked) */
};

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_prefab_full_params {
    const char *name;     /* the prefab to use, or NULL: a weighted pick among the
                           * `mode full` prefabs (default NULL) */
    const char *tag;      /* NULL, or only prefabs with this tag (default NULL) */
    int32_t orientations; /* allowed DG_ORIENT_* bits, ANDed with the prefab's
                           * (default DG_ORIENT_MASK_ALL: all) */
    int32_t keep;         /* 0: fill the grid with `fill` first; 1: keep the grid's cells
                           * outside the prefab and under void glyphs (mixed) (default 0) */
    int32_t fill;         /* tile outside the prefab and under void when keep is 0
                           * (default DG_TILE_VOID) */
    int32_t border;       /* 1: open cells on the grid's outer ring become wall, and doors
                           * left leading nowhere are mended (default 1; 0: open edges) */
    int32_t cover;        /* with keep 0, the least share of the grid the prefab must cover,
                           * permille; else DG_E_NOSPACE names the largest that fits (default 500) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_prefab_full_params;

/* Fills the documented defaults. */
DG_API void dg_prefab_full_defaults(dg_prefab_full_params *params);
/* One prefab is the map: picked, oriented uniformly among its distinct allowed
 * orientations that fit, centred when smaller, its random glyphs resolved from
 * seed. DG_E_NOSPACE if no candidate fits the grid. */
DG_API dg_status dg_prefab_full_generate(dg_grid *grid, const dg_prefab_set *set,
                                         const dg_prefab_full_params *params, uint64_t seed,
                                         dg_result *result, const dg_allocator *allocator,
                                         dg_diag *diag);

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_prefab_jigsaw_params {
    const char *tag;          /* NULL, or only candidates with this tag (default NULL) */
    int32_t block_w, block_h; /* block size; 0 x 0: the size of the first candidate (default 0) */
    int32_t orientations;     /* allowed DG_ORIENT_* bits (default DG_ORIENT_MASK_ALL: all) */
    int32_t unique;           /* 1: each prefab at most once per map (default 0; a
                               * prefab's own `unique` key always holds) */
    int32_t seams;            /* DG_SEAM_* (default DG_SEAM_MATCH) */
    int32_t connected;        /* 1: every passable cell must be connected (default 1) */
    int32_t max_tries;        /* maps tried, each from a seed derived from the last, 1..1000
                               * (default 32) */
    int32_t fill;             /* tile for cells outside the whole blocks (default DG_TILE_VOID) */
    int32_t border;           /* 1: open cells on the outer edge of the blocks (and on the
                               * grid's ring) become wall, doors left leading nowhere are
                               * mended (default 1; 0: open edges, for stitching) */
    int32_t actor_cells;      /* at most one actor marker per this many passable cells, a
                               * seeded choice (default 40; 0: every actor the blocks hold) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_prefab_jigsaw_params;

/* Fills the documented defaults. */
DG_API void dg_prefab_jigsaw_defaults(dg_prefab_jigsaw_params *params);
/* Splits the grid into equal blocks (centred; the remainder gets `fill`) and
 * puts one `mode jigsaw` prefab in each, in an orientation that keeps the
 * block's size, matching seams by edge signature. With `connected`, a map whose
 * passable cells are not all connected is redone from a derived seed, and
 * DG_E_LIMIT is returned after max_tries. DG_E_NOSPACE if a block has no
 * candidate (for example when `unique` runs out of prefabs). */
DG_API dg_status dg_prefab_jigsaw_generate(dg_grid *grid, const dg_prefab_set *set,
                                           const dg_prefab_jigsaw_params *params, uint64_t seed,
                                           dg_result *result, const dg_allocator *allocator,
                                           dg_diag *diag);

/* A group of island prefabs and how many of them to place. */
typedef struct dg_prefab_group {
    const char *tag;  /* prefabs with this tag (and mode island) form the group */
    int32_t min, max; /* place min..max of them; max < 0: at least min, then as many as fit */
    int32_t start;    /* 1: its rooms are start rooms (DG_ROOM_START) */
} dg_prefab_group;

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_prefab_islands_params {
    const dg_prefab_group *groups; /* placed in this order; NULL: the set's `group` lines,
                                    * or if it has none every island prefab, as many as fit */
    int32_t group_count;
    int32_t orientations;  /* allowed DG_ORIENT_* bits (default DG_ORIENT_MASK_ALL: all) */
    int32_t margin;        /* free cells between buildings, 0..64; -1: the larger of the two
                            * prefabs' own `margin` (default -1) */
    int32_t positions;     /* positions tried per building, 1..10000 (default 30): 4 drawn
                            * anywhere it would lie in the map with its doors on it, the rest
                            * only among those the others' margins leave free */
    int32_t max_failures;  /* buildings in a row that find no place before a group gives
                            * up, 1..10000 (default 20) */
    int32_t keep;          /* 0: fill the grid with `fill` first (pure); 1: keep the cells
                            * around the buildings for another generator (mixed) (default 0) */
    int32_t fill;          /* ground tile when keep is 0 (default DG_TILE_FLOOR) */
    int32_t connected;     /* 1 (pure mode only): every passable cell must be connected (default 1) */
    int32_t max_tries;     /* maps tried from derived seeds before DG_E_NOSPACE or DG_E_LIMIT,
                            * 1..1000 (default 16) */
    int32_t border;        /* 1 (pure mode only): a wall on the grid's outer ring, buildings three
                            * cells inside it (a ground path two wide between; one wide, two
                            * cells in, under 25 cells a side) (default 1; 0: open edges) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_prefab_islands_params;

/* Fills the documented defaults. */
DG_API void dg_prefab_islands_defaults(dg_prefab_islands_params *params);
/* Drops island prefabs at random free positions, rotated or flipped, at least
 * `margin` cells from any other building, every door opening onto a cell of
 * the map that no building covers (ground in pure mode). A map that misses a
 * group's minimum is redone from a derived seed; DG_E_NOSPACE after max_tries
 * (DG_E_LIMIT if only connectivity failed). The start is the start room's
 * `start` marker (else a cell of the first building), the exit the farthest
 * building cell by walking (unless an `exit` marker fixes it); a map whose
 * exit falls outside the farthest tenth is redone while max_tries allow.
 * metrics.requested sums the groups' drawn counts, an "as many as fit" group
 * counting what it placed (at least its min), so placed <= requested. */
DG_API dg_status dg_prefab_islands_generate(dg_grid *grid, const dg_prefab_set *set,
                                            const dg_prefab_islands_params *params,
                                            uint64_t seed, dg_result *result,
                                            const dg_allocator *allocator, dg_diag *diag);

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_prefab_mixed_params {
    const char *tag;       /* NULL, or only prefabs with this tag (default NULL) */
    int32_t mode;          /* the DG_PREFAB_* mode bit vaults must have (default island) */
    int32_t count;         /* vaults to place; fewer only if no more fit anywhere, then
                            * metrics.stopped_early = 1 (default 3) */
    int32_t orientations;  /* allowed DG_ORIENT_* bits (default DG_ORIENT_MASK_ALL: all) */
    int32_t positions;     /* random positions tried per vault before every position is,
                            * 1..100000 (default 32) */
    int32_t in_rooms;      /* 1: only inside the interiors of the rooms already in result
                            * (when it has any) (default 1) */
    int32_t unique;        /* 1: each prefab at most once; 0: a prefab repeats only once
                            * every other one was placed (default 0) */
    int32_t base;          /* DG_MIXED_BASE_*: the generator the registry (tool, recipes) runs
                            * first, with its defaults and the same seed; this function itself
                            * stamps into whatever grid it is given (default attach) */
    int32_t floor_per_vault; /* at least one vault per this many passable cells of the host
                              * map, when more than `count` (default 2000; 0: count only) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_prefab_mixed_params;
enum { /* dg_prefab_mixed_params.base */
    DG_MIXED_BASE_ATTACH = 0, DG_MIXED_BASE_CHAIN = 1, DG_MIXED_BASE_CAVE = 2,
    DG_MIXED_BASE_BSP = 3, DG_MIXED_BASE_MAZE = 4, DG_MIXED_BASE_WALK = 5,
    DG_MIXED_BASE_SCATTER = 6
};

/* Fills the documented defaults. */
DG_API void dg_prefab_mixed_defaults(dg_prefab_mixed_params *params);
/* Stamps vaults into a grid another generator already filled (its result, if
 * given, is kept and extended). A vault goes only where every non-void cell
 * lands on open floor (passable, not a door, not the start), each of its border
 * doors opens onto open floor outside it, no wall of it blocks another door,
 * meets a map wall only at a corner or adds a dead end, and the passable cells
 * stay as connected as they were. Void glyphs leave the generated content.
 * Every vault that fits somewhere lands; metrics.requested/placed/stopped_early
 * say how many. The start is kept; the exit is chosen again (docs/prefabs.md). */
DG_API dg_status dg_prefab_mixed_generate(dg_grid *grid, const dg_prefab_set *set,
                                          const dg_prefab_mixed_params *params, uint64_t seed,
                                          dg_result *result, const dg_allocator *allocator,
                                          dg_diag *diag);

/* ---- level graphs (docs/graph.md, docs/graph-format.md) ---------------------- */
/* A level graph states the structure of a level: nodes are rooms (with a
 * role, and a size range or room templates from a prefab set), edges are the
 * connections between them (a door between touching rooms or a corridor),
 * optionally locked (with the key in a named node) or secret.
 * dg_graph_generate lays it out exactly: every edge becomes a door or a
 * corridor between its two rooms, no other room touches or opens into
 * another, cycles become loops. The arrays are the caller's; dg_graph_parse
 * makes them from text, and dg_graph_free releases what it made. */
#define DG_GRAPH_NODES_MAX 64
#define DG_GRAPH_EDGES_MAX 256
#define DG_GRAPH_DEGREE_MAX 8
enum { /* dg_graph_edge.kind */
    DG_EDGE_DOOR = 0,     /* the two rooms share a wall with a door in it */
    DG_EDGE_CORRIDOR = 1  /* a corridor of length_min..length_max cells joins them */
};
typedef struct dg_graph_node {
    char name[DG_NAME_MAX];     /* unique, NUL-terminated */
    char role[DG_NAME_MAX];     /* "start", "exit", "boss", ..., the game's own word, or "" */
    int32_t width_min, width_max;   /* interior size range of a rectangular room */
    int32_t height_min, height_max;
    char templates[DG_NAME_MAX];    /* "": a rectangle of the size range; else the
                                     * prefabs of dg_graph.prefabs with this name or
                                     * tag, in any orientation they allow */
} dg_graph_node;
typedef struct dg_graph_edge {
    int32_t a, b;               /* node indices */
    int32_t kind;               /* DG_EDGE_* */
    int32_t length_min, length_max; /* DG_EDGE_CORRIDOR: corridor cells */
    int32_t lock;               /* 0: open; N >= 1: locked door of lock N */
    int32_t key_node;           /* lock: the node that holds key N; else -1 */
    int32_t secret;             /* 1: a secret door (never locked) */
} dg_graph_edge;
/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_graph {
    dg_graph_node *nodes;       int32_t node_count;  /* 1..DG_GRAPH_NODES_MAX */
    dg_graph_edge *edges;       int32_t edge_count;  /* 0..DG_GRAPH_EDGES_MAX */
    int32_t room_distance;      /* minimum cells of rock between unconnected rooms, 0..4
                                 * (default 1) */
    int32_t corridor_width;     /* 1..3 (default 1) */
    int32_t extra_connections;  /* 1: short corridors beyond the edges between facing rooms (default 0) */
    const dg_prefab_set *prefabs; /* room templates, or NULL */
    dg_allocator allocator_;    /* private: set by dg_graph_parse */
    int32_t capacity_[2];       /* private: nodes and edges of the block dg_graph_parse
                                 * made (0: the arrays are the caller's) */
    int32_t max_attempts;       /* whole layouts tried before DG_E_NOSPACE, 1..4096
                                 * (0: 256); the search also stops after a fixed
                                 * count of places tested (docs/graph.md, Limits) */
    int32_t spare[DG_SPARE_SLOTS - 1]; /* 0 (room for later fields, docs/abi.md) */
} dg_graph;

/* An empty graph with the defaults above. */
DG_API void dg_graph_init(dg_graph *graph);
/* Parses the text format (docs/graph-format.md) into *graph, whose arrays it
 * allocates (release with dg_graph_free), then applies dg_graph_check's rules
 * (templates stay unresolved: set graph->prefabs and check again). On the
 * first error (DG_E_PARSE, or DG_E_INVALID for a rule) *graph is left empty
 * and diag has "name:line:col: message" naming the token, node or edge. */
DG_API dg_status dg_graph_parse(const char *text, size_t length, const char *source_name,
                                const dg_allocator *allocator, dg_graph *graph, dg_diag *diag);
/* Reads and parses a file (a helper; the core API takes buffers); a
 * `prefabs FILE` line loads that set (relative to path) as graph->prefabs,
 * which dg_graph_free then releases. */
DG_API dg_status dg_graph_load(const char *path, const dg_allocator *allocator, dg_graph *graph,
                               dg_diag *diag);
/* Releases the arrays dg_graph_parse made and empties *graph; a graph whose
 * arrays are the caller's is only emptied. */
DG_API void dg_graph_free(dg_graph *graph);
/* Checks a graph without laying it out: DG_E_INVALID with a message naming
 * the node or edge (a duplicate name, an edge to itself or to no node, a
 * disconnected graph, a graph that is not planar, a node of degree above
 * DG_GRAPH_DEGREE_MAX, a key in a node that cannot hold it, a size range
 * min > max, ...). */
DG_API dg_status dg_graph_check(const dg_graph *graph, dg_diag *diag);
/* A 64-bit hash of the graph's content (never 0; 0 for NULL): recipes record it. */
DG_API uint64_t dg_graph_hash(const dg_graph *graph);
/* Lays out the graph on the grid. Rooms get labels (node, name, role),
 * corridors their edge; locks and keys go where the graph says (DG_MARKER_KEY
 * in the key node, DG_MARKER_LOCK on the locked door). DG_E_INVALID for a
 * graph dg_graph_check refuses, DG_E_NOSPACE (message naming the node or edge)
 * when no layout was found within the work bound; the grid is then untouched. */
DG_API dg_status dg_graph_generate(dg_grid *grid, const dg_graph *graph, uint64_t seed,
                                   dg_result *result, const dg_allocator *allocator,
                                   dg_diag *diag);

/* ---- room roles (docs/content.md) ------------------------------------------- */
/* dg_roles gives rooms of any generated map a role ("boss", "shop", the
 * game's own word) under constraints, writing result->labels[i].role. Rules
 * are placed in table order, each first up to its count_min, then extra rooms
 * up to count_max go to rules drawn by weight; a room holds one role. Roles a
 * level graph (or an earlier call) already set are kept and count toward the
 * rule of that name. Rooms are judged on facts measured on the map: walking
 * distance from result->start (as a rank among the reachable rooms), the
 * start-exit route, entrances (distinct openings on the room's boundary),
 * area, and whether a locked or secret door stands between it and the start
 * (docs/content.md; the text format of a table is there too). */
#define DG_ROLES_MAX 32        /* rules in one table */
#define DG_ROLE_RANK_MAX 1000  /* ranks are permille: 0 nearest room, 1000 farthest */
enum { /* dg_role_rule.route and .dead_end */
    DG_ROLE_ANY = 0, /* either */
    DG_ROLE_YES = 1, /* route: on a shortest start-exit walk; dead_end: one entrance */
    DG_ROLE_NO = 2   /* route: on none; dead_end: two entrances or more */
};
enum { /* dg_role_rule.behind: what stands between the start and the room */
    DG_BEHIND_ANY = 0,
    DG_BEHIND_OPEN = 1,   /* reachable with every locked and secret door shut */
    DG_BEHIND_LOCK = 2,   /* every walk from the start crosses a locked door */
    DG_BEHIND_SECRET = 3  /* every walk from the start crosses a secret door */
};
enum { /* dg_role_rule.holds: what the room must hold */
    DG_HOLDS_ANY = 0,
    DG_HOLDS_START = 1,   /* result->start */
    DG_HOLDS_EXIT = 2,    /* result->exit */
    DG_HOLDS_KEY = 3      /* a DG_MARKER_KEY marker */
};
/* One role of a table: an element of the caller's array (fixed layout; spare must be 0). */
typedef struct dg_role_rule {
    char name[DG_NAME_MAX];          /* the role written into labels: letters, digits, _ - . */
    int32_t count_min, count_max;    /* rooms to give it, 0 <= min <= max (init: 1..1) */
    int32_t weight;                  /* share of the extra rooms beyond count_min, 0..1000000 (1) */
    int32_t rank_min, rank_max;      /* distance rank range, permille 0..1000 (0..1000) */
    int32_t route;                   /* DG_ROLE_*: on the start-exit route (any) */
    int32_t dead_end;                /* DG_ROLE_*: exactly one entrance (any) */
    int32_t behind;                  /* DG_BEHIND_* (any) */
    int32_t area_min, area_max;      /* open cells of the room (1..INT32_MAX) */
    int32_t entrances_min, entrances_max; /* openings (0..INT32_MAX) */
    int32_t holds;                   /* DG_HOLDS_* (any) */
    int32_t require;                 /* 1: fewer than count_min is DG_E_NOSPACE (0) */
    int32_t spare[DG_SPARE_SLOTS];   /* 0 */
} dg_role_rule;
enum { /* dg_role_report.shortfall: the first constraint no room met (checked in this order) */
    DG_ROLE_SHORT_NONE = 0,      /* placed as many as count_min (and one at least if max > 0) */
    DG_ROLE_SHORT_ROOMS = 1,     /* no room reachable from the start */
    DG_ROLE_SHORT_HOLDS = 2,     /* no room holds what `holds` asks */
    DG_ROLE_SHORT_RANK = 3,      /* none in the rank range */
    DG_ROLE_SHORT_ROUTE = 4,     /* none on (off) the route */
    DG_ROLE_SHORT_DEAD_END = 5,  /* none with (without) a single entrance */
    DG_ROLE_SHORT_BEHIND = 6,    /* none behind what `behind` asks */
    DG_ROLE_SHORT_AREA = 7,      /* none of that area */
    DG_ROLE_SHORT_ENTRANCES = 8, /* none with that many entrances */
    DG_ROLE_SHORT_TAKEN = 9,     /* every room that qualifies has another role */
    DG_ROLE_SHORT_FEW = 10       /* fewer rooms qualify than count_min */
};
/* What dg_roles did. Growable (docs/abi.md): the library writes 0 in spare. */
typedef struct dg_role_report {
    int32_t rules;                       /* rules in the table */
    int32_t placed[DG_ROLES_MAX];        /* rooms holding rule i's role (kept ones included) */
    int32_t kept[DG_ROLES_MAX];          /* of those, roles that were set before the call */
    int32_t qualified[DG_ROLES_MAX];     /* rooms meeting every constraint of rule i */
    int32_t shortfall[DG_ROLES_MAX];     /* DG_ROLE_SHORT_* of rule i */
    int32_t short_count;                 /* rules with a shortfall */
    int32_t rooms;                       /* rooms judged (room_count) */
    int32_t reachable;                   /* of those, reachable from the start */
    int32_t spare[DG_SPARE_SLOTS];
} dg_role_report;
/* A DG_ROLE_SHORT_* value as the word dg_roles' message uses ("rank",
 * "dead_end", ...; "none" for DG_ROLE_SHORT_NONE, "unknown" for any other value; never NULL). */
DG_API const char *dg_role_short_str(int32_t reason);

/* Fills *rule with "any room": count 1..1, weight 1, every range open, name
 * copied (truncated to DG_NAME_MAX - 1). */
DG_API void dg_role_rule_init(dg_role_rule *rule, const char *name);
/* The built-in table (start, exit, key, boss, secret, treasure, shop, hub;
 * docs/content.md) into rules[0..cap); *count gets its length (8).
 * DG_E_BUFFER (nothing written) if cap is smaller. */
DG_API dg_status dg_roles_builtin(dg_role_rule *rules, int32_t cap, int32_t *count);
/* Parses a role table (docs/content.md: one rule per line, "name key=value
 * ...") into rules[0..cap); *count gets the rules read. Errors name
 * "source:line:col": DG_E_PARSE for malformed text, DG_E_INVALID for an
 * unknown key or word, a value out of range or a duplicate name, DG_E_BUFFER
 * for more than cap rules; rules and *count are untouched on error. */
DG_API dg_status dg_roles_parse(const char *text, size_t length, const char *source_name,
                                dg_role_rule *rules, int32_t cap, int32_t *count,
                                dg_diag *diag);
/* Reads and parses a file (a helper; the core API takes buffers). */
DG_API dg_status dg_roles_load(const char *path, dg_role_rule *rules, int32_t cap,
                               int32_t *count, dg_diag *diag);
/* A 64-bit hash of a table's content (names and every field, in order),
 * never 0; 0 for NULL or a count outside 0..DG_ROLES_MAX. Recipes record it
 * (roles_hash). */
DG_API uint64_t dg_roles_hash(const dg_role_rule *rules, int32_t count);
/* Checks a table without a map: DG_E_INVALID naming the rule and field. */
DG_API dg_status dg_roles_check(const dg_role_rule *rules, int32_t count, dg_diag *diag);
/* Assigns roles to the rooms of a generated map (grid and result of one
 * generator call, with locks or secrets added or not); grid is only read.
 * Deterministic in (map, rules, seed); every constraint of a rule holds on
 * every room given its role. report (optional) gets per rule what was placed
 * and why a rule fell short; a shortfall also gets a diag message with status
 * DG_OK naming the role, and is DG_E_NOSPACE only for a rule with require.
 * DG_E_INVALID for a bad table, a result whose labels or arrays do not match
 * its counts, or a start off the grid or impassable; on any error the result
 * is untouched. */
DG_API dg_status dg_roles(const dg_grid *grid, const dg_role_rule *rules, int32_t count,
                          uint64_t seed, dg_result *result, dg_role_report *report,
                          const dg_allocator *allocator, dg_diag *diag);

/* ---- spawn tables and population (docs/content.md, docs/spawn-format.md) ------ */
/* A spawn table (docs/spawn-format.md) lists what may appear on a level: each
 * entry a name, a kind word ("monster", "item" or the game's own), a weight, a
 * difficulty cost, a depth range, the room roles or kinds it may appear in, a
 * group size range and a square footprint. A parsed table is immutable: it may
 * be shared between threads and is released with dg_spawn_table_free. */
#define DG_SPAWN_ENTRIES_MAX 4096  /* entries of one table */
#define DG_SPAWN_ROOMS_MAX 8       /* room words of one entry */
#define DG_SPAWN_MAX_ERRORS 64     /* a parse reports at most this many errors */
#define DG_SPAWN_COST_MAX 100000   /* largest cost */
#define DG_SPAWN_GROUP_MAX 64      /* largest group */
#define DG_SPAWN_DEPTH_MAX 100000  /* largest depth in a table or in dg_populate_params */
typedef struct dg_spawn_table dg_spawn_table;

/* One entry of a table, as dg_spawn_get gives it. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_spawn_entry {
    char name[DG_NAME_MAX];     /* unique within the table */
    char kind[DG_NAME_MAX];     /* "monster", "item", or the game's own word */
    int32_t weight;             /* 1..1000000 (default 10) */
    int32_t cost;               /* difficulty cost per member, 0..DG_SPAWN_COST_MAX (default 1) */
    int32_t depth_min, depth_max; /* depths it appears at (default 0 and -1: any) */
    int32_t group_min, group_max; /* members per group, 1..DG_SPAWN_GROUP_MAX (default 1 1) */
    int32_t size;               /* footprint side, 1..DG_CREATURE_SIZE_MAX (default 1) */
    int32_t room_count;         /* words in rooms; 0 means "any" */
    char rooms[DG_SPAWN_ROOMS_MAX][DG_NAME_MAX]; /* roles ("boss", ...) or room kinds
                                 * ("normal", "cave", ...) it may appear in */
    int32_t line;               /* its line in the source */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_spawn_entry;

/* Parses text[0..length) (need not be NUL-terminated). source_name prefixes
 * messages (NULL: "<input>"). On error *table stays NULL, diag holds the first
 * error ("name:line:col: message") and on_error (optional) receives every
 * error, up to DG_SPAWN_MAX_ERRORS. */
DG_API dg_status dg_spawn_parse(const char *text, size_t length, const char *source_name,
                                const dg_allocator *allocator, dg_diag_fn on_error, void *user,
                                dg_spawn_table **table, dg_diag *diag);
/* Reads and parses a file (a helper; the core API takes buffers). */
DG_API dg_status dg_spawn_load(const char *path, const dg_allocator *allocator,
                               dg_diag_fn on_error, void *user, dg_spawn_table **table,
                               dg_diag *diag);
/* Releases a table (NULL is fine). */
DG_API void dg_spawn_table_free(dg_spawn_table *table);
/* A 64-bit hash of the table's entries, never 0 (0 for NULL): the same
 * whatever the file's comments, spacing or allocator. Recipes record it. */
DG_API uint64_t dg_spawn_table_hash(const dg_spawn_table *table);
/* Number of entries (0 for NULL). */
DG_API int32_t dg_spawn_count(const dg_spawn_table *table);
/* Index of the entry with that name, or -1. */
DG_API int32_t dg_spawn_find(const dg_spawn_table *table, const char *name);
/* Fills *entry for entry index; DG_E_INVALID if there is no such entry. */
DG_API dg_status dg_spawn_get(const dg_spawn_table *table, int32_t index, dg_spawn_entry *entry);

#define DG_POPULATE_CURVE_MAX 8  /* points of the depth curve */
/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_populate_params {
    int32_t depth;              /* the floor's depth, 0..DG_SPAWN_DEPTH_MAX (default 1) */
    /* The budget of a room at the start, by depth: piecewise linear through
     * curve_points points (depths strictly increasing, budgets never falling),
     * flat outside them. Default: 2 points, (1, 1) and (31, 16). */
    int32_t curve_points;
    int32_t curve_depth[DG_POPULATE_CURVE_MAX];
    int32_t curve_budget[DG_POPULATE_CURVE_MAX]; /* 0..1000000 */
    int32_t distance_permille;  /* the farthest room's budget is the curve's times
                                 * (1000 + distance_permille) / 1000, rooms between
                                 * in proportion to their walking distance,
                                 * 0..100000 (default 2000) */
    int32_t cells_per_spawn;    /* a room holds at most its free cells / this
                                 * many spawns (at least 1), 1..1000 (default 8) */
    int32_t view_radius;        /* the start's view kept empty: radius of dg_fov from
                                 * result->start, 0 = unlimited (default 0) */
    const uint8_t *passable;    /* 256 entries (NULL: dg_tile_passable) */
    const uint8_t *room_tiles;  /* 256 entries: where spawns stand (NULL: DG_TILE_FLOOR) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_populate_params;

/* What dg_populate did. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_populate_stats {
    int32_t spawns;             /* markers added (group members each count) */
    int32_t groups;             /* groups placed; markers' number runs 1..groups */
    int32_t budget;             /* summed budgets of the rooms populated */
    int32_t spent;              /* summed cost of the markers added */
    int32_t rooms_populated;    /* rooms that got at least one spawn */
    int32_t skipped_start;      /* the start room and rooms whose role is "start" */
    int32_t skipped_no_cell;    /* rooms without a free cell: all in view of the
                                 * start, unreachable, or doors and chokepoints */
    int32_t skipped_no_entry;   /* rooms no entry fits (role, kind, depth, budget, room) */
    int32_t boss_missing;       /* boss rooms where no boss entry fitted */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_populate_stats;

/* Fills the documented defaults. */
DG_API void dg_populate_defaults(dg_populate_params *params);
/* Places entries of table room by room (docs/spawn-format.md) as markers (DG_MARKER_ACTOR for kind
 * "monster", DG_MARKER_ITEM for "item", DG_MARKER_SPAWN for other words;
 * name, type = kind, size, cost, number = group) on a budget per room that
 * grows with depth (the curve) and walking distance from result->start. A
 * boss room (label role "boss") first gets one entry that lists "boss";
 * a treasure room only items. Never on a door, chokepoint, existing marker
 * (start, exit, key) or a cell in view of the start; footprints fit on room
 * floor and never overlap. A pure function of (grid, table, params, seed,
 * result). DG_E_INVALID for bad params, a result without a start, or a boss
 * or treasure room the table has no entry for; the result is then untouched.
 * stats optional. */
DG_API dg_status dg_populate(const dg_grid *grid, const dg_spawn_table *table,
                             const dg_populate_params *params, uint64_t seed, dg_result *result,
                             dg_populate_stats *stats, const dg_allocator *allocator,
                             dg_diag *diag);
/* dg_roles, then (if it returned DG_OK) dg_populate with the same seed: the
 * same output, in less time, as the map is measured once for both. An error
 * of the population step leaves the roles written, as the two calls would. */
DG_API dg_status dg_roles_populate(const dg_grid *grid, const dg_role_rule *rules, int32_t count,
                                   const dg_spawn_table *table, const dg_populate_params *params,
                                   uint64_t seed, dg_result *result, dg_role_report *report,
                                   dg_populate_stats *stats, const dg_allocator *allocator,
                                   dg_diag *diag);

/* ---- turn scheduler (energy loop) ------------------------------------------- */
/* Who moves next (docs/scheduler.md). Each actor has an id, a speed (energy
 * gained per tick) and a threshold (energy needed to act). Time is an integer
 * tick count, `now`, that starts at 0. dg_sched_next advances `now` to the
 * first tick at which some actor's energy reaches its threshold and returns
 * that actor; when several reach it at the same tick, the lowest id goes first.
 * The actor then acts and pays with dg_sched_spend (energy may go negative: it
 * waits longer); until it pays, next returns it again. Integer arithmetic only,
 * so a loop is the same on every platform and after a save and load.
 *
 * Storage is the caller's: an array of `capacity` dg_sched_actor slots, and
 * ids are its indexes, 0..capacity-1 (an id at or over capacity is
 * DG_E_BUFFER). The same slots also hold a radix queue of ready ticks (lists
 * by tick digit, a bitset of the actors ready now), so next plus spend costs
 * O(1) amortised whatever the number of actors, and no call allocates. One
 * scheduler must not be used by two threads at once.
 * Every failing call changes nothing. Errors: DG_E_NULL for a NULL pointer,
 * DG_E_INVALID for a negative, unknown (not added) or duplicate id, a speed,
 * threshold or capacity below 1, a negative cost or amount; DG_E_LIMIT if an
 * energy would leave +-DG_SCHED_ENERGY_MAX or `now` pass DG_SCHED_TIME_MAX. */
#define DG_SCHED_ENERGY_MAX (1LL << 40) /* energies stay within +-this */
#define DG_SCHED_TIME_MAX (1LL << 62)   /* `now` never passes this */

/* One slot of the caller's storage; the fields are the library's (the slot of
 * index i holds actor i and word i of the queue). */
typedef struct dg_sched_actor {
    int64_t ready;      /* the tick the actor reaches its threshold */
    int32_t next;       /* its neighbours in a queue list, id + 1 (0: none) */
    int32_t prev;
    int64_t energy;     /* its energy at tick `ready` */
    int64_t word;       /* the queue's word i (any slot, actor or not) */
    int32_t speed;      /* 0: no actor with this id */
    int32_t threshold;
} dg_sched_actor;

typedef struct dg_sched {
    dg_sched_actor *slots; /* the caller's storage */
    int32_t capacity;      /* slots, and the id limit */
    int32_t count;         /* actors present */
    int64_t now;           /* the current tick */
} dg_sched;

/* Empties storage (capacity slots, capacity >= 1) and makes *s a scheduler
 * over it with no actors at tick 0. */
DG_API dg_status dg_sched_init(dg_sched *s, dg_sched_actor *storage, int32_t capacity);
/* Adds actor id (0..capacity-1, not present) with speed >= 1 and threshold >= 1
 * and `energy` (|energy| <= DG_SCHED_ENERGY_MAX; 0 for a fresh actor) at `now`. */
DG_API dg_status dg_sched_add(dg_sched *s, int32_t id, int32_t speed, int32_t threshold,
                              int64_t energy);
/* Removes actor id; the others keep their energy and order. */
DG_API dg_status dg_sched_remove(dg_sched *s, int32_t id);
/* *id gets the actor whose turn it is: the one that reaches its threshold at
 * the earliest tick, lowest id on ties; `now` advances to that tick. DG_E_INVALID
 * with no actor (nothing written). */
DG_API dg_status dg_sched_next(dg_sched *s, int32_t *id);
/* Takes cost (>= 0) from actor id's energy: what its action cost. */
DG_API dg_status dg_sched_spend(dg_sched *s, int32_t id, int32_t cost);
/* Gives amount (>= 0) to actor id's energy: a rest that regains energy. */
DG_API dg_status dg_sched_rest(dg_sched *s, int32_t id, int32_t amount);
/* Changes actor id's speed (>= 1) from `now` on (haste, slow); its energy so far is kept. */
DG_API dg_status dg_sched_set_speed(dg_sched *s, int32_t id, int32_t speed);
/* *energy gets actor id's energy at `now`. */
DG_API dg_status dg_sched_energy(const dg_sched *s, int32_t id, int64_t *energy);
/* Writes the loop as plain data: "DGSC", version 1 (u32), now (i64), count
 * (i32), then per actor by rising id: id, speed, threshold (i32) and energy at
 * now (i64), all little-endian: 20 + 20 * count bytes. *size gets that; with
 * data NULL only *size is set. DG_E_BUFFER if cap is smaller (nothing written). */
DG_API dg_status dg_sched_save(const dg_sched *s, void *data, size_t cap, size_t *size);
/* Makes *s a scheduler over storage (as dg_sched_init) holding what dg_sched_save
 * wrote: the same turn order follows. DG_E_PARSE for truncated, trailing or
 * corrupt data, DG_E_BUFFER if an id is not below capacity; on error *s and
 * storage are untouched and diag (optional) says why. */
DG_API dg_status dg_sched_load(dg_sched *s, dg_sched_actor *storage, int32_t capacity,
                               const void *data, size_t size, dg_diag *diag);

/* ---- chase: many monsters, one map ------------------------------------------ */
/* Every monster's next step from one distance map (docs/scheduler.md, "Chase").
 * A turn computes one map toward the targets (dg_distance_map or
 * dg_dijkstra_map; with the monsters in the walk's blocked overlay they route
 * around each other, and the target's own cell stays open as a source), and
 * dg_chase_step moves any number of monsters down it. For fleeing,
 * dg_flee_map turns an approach map into a safety map first. */
enum { /* dg_chase.mode */
    DG_CHASE_APPROACH = 0, /* map cells at 0 are targets: a monster may step onto one
                            * (to attack or arrive) whoever stands there */
    DG_CHASE_FLEE = 1      /* no targets: every cell is entered by one monster at most */
};

typedef struct dg_chase {
    const int32_t *map;       /* distances, row-major with `width` entries a row (as
                                 dg_distance_map writes them); DG_UNREACHABLE: never entered */
    size_t map_count;         /* entries in map, >= width * height */
    int32_t mode;             /* DG_CHASE_APPROACH or DG_CHASE_FLEE */
    const dg_point *monsters; /* every monster's cell, distinct, passable; id = index */
    int32_t count;            /* monsters (0 is fine) */
    const int32_t *movers;    /* ids that move, in this order (NULL: all, by rising id) */
    int32_t mover_count;      /* entries in movers (ignored when movers is NULL) */
} dg_chase;

/* Moves each mover in turn to the neighbour (as walk allows, corner rule
 * included) with the least map value, ties to the first in the order N, E, S,
 * W, NE, SE, SW, NW, if that value is below the map value of its own cell (a
 * cell the map leaves unreached, such as its own blocked cell, counts as above
 * every value). Never onto a blocked cell, an unreached one, or a cell a
 * monster holds at that moment (a mover that left frees its cell, one that
 * arrived holds its new one), except onto targets. steps (steps_cap >= count)
 * gets every monster's cell after the call, by id: its own when it stays or
 * is not a mover. DG_E_INVALID for an unknown mode, a monster outside the grid,
 * on an impassable tile or sharing a cell, an unknown (negative, >= count) or
 * repeated mover id; DG_E_BUFFER for a short map or steps_cap < count.
 * workspace optional (NULL: a temporary one, which costs the whole map); on
 * error steps is untouched. */
DG_API dg_status dg_chase_step(const dg_grid *grid, const dg_move *move, const dg_chase *chase,
                               dg_path_workspace *workspace, dg_point *steps, int32_t steps_cap,
                               dg_diag *diag);

/* Brogue's safety map from an approach map (both row-major, width * height):
 * every reached cell becomes a source that starts at K - d * scale_percent / 100
 * (d its approach distance, K the largest such product), rescanned with
 * dg_dijkstra_map under walk. Minimised with DG_CHASE_FLEE, it leads away from
 * the targets and past them around loops rather than into dead ends;
 * scale_percent 120 is Brogue's 1.2 and must be 101..1000. DG_E_INVALID for a
 * map value below DG_UNREACHABLE or on an impassable tile, or a scale out of
 * range; DG_E_TOO_LARGE if K could overflow the map; DG_E_NOMEM (two source
 * list of 12 bytes a reached cell, through allocator, NULL: malloc). */
DG_API dg_status dg_flee_map(const dg_grid *grid, const dg_move *move, const int32_t *approach,
                             size_t approach_count, int32_t scale_percent, int32_t *flee,
                             size_t flee_count, dg_path_workspace *workspace,
                             const dg_allocator *allocator, dg_distance_info *info,
                             dg_diag *diag);

/* ---- infinite world -------------------------------------------------------- */
/* An endless lattice of square cells, one room each, at 64-bit room
 * coordinates (x, y), x growing east and y growing south; the player starts in
 * room (0, 0). Every room is a pure function of (seed, x, y): each room but the
 * origin has a parent door to a neighbour one step closer to the origin (a hash
 * picks one when there are two), so every room reaches the origin and the
 * shortest door path from (0, 0) to (x, y) is exactly |x| + |y| rooms. Extra
 * doors come from a hash of the edge (loops) and from the dead-end fix, both
 * computed the same from either side, so doors are always symmetric. A query
 * costs O(1) hashes, needs no memory and does not depend on what was asked
 * before. See docs/world.md.
 *
 * Range: rooms exist for |x|, |y| <= DG_WORLD_COORD_MAX (2^40), so tile
 * coordinates stay below 2^47 in magnitude; queries outside give DG_E_INVALID.
 *
 * Tile layout: cell (x, y) owns the P x P tiles [x*P, x*P + P) x [y*P, y*P + P),
 * P the period. Varied rooms (room_min < room_size, the default): P =
 * room_size + 2; the room is a rectangle of room_min..room_size interior tiles
 * a side (dg_world_room.inner_*) with its own walls inside the cell, covering
 * the cell's middle row and column; a side with a door has a DOOR tile in the
 * room's wall on that middle line and a walled corridor from it to the cell's
 * edge, where it meets the neighbour's corridor or door. Full rooms (room_min =
 * room_size): P = room_size + 1, every room fills its cell and neighbours share
 * walls, the door being the middle tile of the shared wall: (x*P, y*P + 1 +
 * room_size/2) for west, (x*P + 1 + room_size/2, y*P) for north.
 *
 * Furnishing: prefabs with mode furnish, drawn as whole rooms walls included,
 * (room_size + 2) square (11 x 11 for the default 9 x 9 interior), with a door
 * glyph in the middle of each door side. The world draws walls and doors
 * itself and uses only the prefab's interior; a furnished room always has the
 * full room_size x room_size interior. A room picks a prefab by its door sides
 * with dg_prefab_pick and stamps one of `variants` precomputed randomisations;
 * a stamp that would block a door or the way between doors (checked by flood
 * fill when the world is created) is never used: the room tries another pick,
 * then stays bare. */
#define DG_WORLD_COORD_MAX (1LL << 40) /* largest |x| or |y| of a room */
#define DG_WORLD_ROOM_MIN 3            /* room_size limits (odd sizes only) */
#define DG_WORLD_ROOM_MAX 125
#define DG_WORLD_CURVE_MAX 8           /* points of the difficulty curve */
#define DG_WORLD_VARIANTS_MAX 64

typedef struct dg_world dg_world;

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_world_params {
    int32_t room_size;        /* largest room interior side in tiles, odd, 3..125 (default 9) */
    int32_t room_min;         /* smallest room interior side, 3..room_size; room_size = every
                               * room fills its cell, walls shared (default 3) */
    int32_t border;           /* world generator window: 1 = closed border, cut-off parts
                               * removed; 0 = the raw window, for stitching (default 1) */
    int32_t loop_permille;    /* chance that an edge outside the tree is a door (default 350) */
    int32_t dead_end_fix;     /* permille chance that a room with one door opens a second;
                               * 1000 = no dead ends at all (default 500) */
    const dg_prefab_set *furnishing; /* furnish prefabs, or NULL for bare rooms (default NULL);
                               * must outlive the world */
    int32_t furnish_permille; /* chance that a room is furnished at all; furnished rooms are
                               * full-sized (default 400) */
    int32_t variants;         /* randomisations stamped per prefab and orientation, 1..64 (default 8) */
    /* Difficulty: piecewise linear in the distance |x| + |y| through curve_points points
     * (distance strictly increasing from 0, <= INT32_MAX), flat after the last one.
     * Default: 2 points, (0, 1) and (500, 100). */
    int32_t curve_points;
    int64_t curve_distance[DG_WORLD_CURVE_MAX];
    int32_t curve_level[DG_WORLD_CURVE_MAX];
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_world_params;

/* What the world says about one room. */
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_world_room {
    int64_t x, y;
    int64_t distance;    /* |x| + |y|: length of the shortest door path from (0, 0) */
    uint64_t seed;       /* per-room seed for the game's own use */
    int32_t doors;       /* DG_SIDE_* bits */
    int32_t door_class;  /* DG_DOORCLASS_* of doors */
    int32_t parent;      /* DG_SIDE_* bit of the door toward the origin, 0 for the origin */
    int32_t difficulty;  /* the curve at distance */
    int32_t prefab;      /* furnishing prefab index, or -1 for a bare room */
    int32_t orientation; /* DG_ORIENT_* of the furnishing (0 when bare) */
    int32_t variant;     /* which precomputed randomisation (0 when bare) */
    int32_t marker_count;/* markers the furnishing puts in the room */
    int32_t inner_x, inner_y; /* the room's interior: from tile (x*P + inner_x, y*P + inner_y), */
    int32_t inner_w, inner_h; /* inner_w x inner_h tiles (P = dg_world_period) */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_world_room;

/* A marker (actor, item, trap...) of a furnishing, in world tile coordinates. */
typedef struct dg_world_marker {
    int64_t x, y;               /* world tile */
    int64_t room_x, room_y;     /* room containing it */
    int32_t kind;               /* DG_MARKER_* */
    int32_t difficulty;         /* the room's difficulty */
    char name[DG_NAME_MAX];
} dg_world_marker;

/* Fills the documented defaults. */
DG_API void dg_world_defaults(dg_world_params *params);
/* Validates params (NULL: defaults), precomputes the furnishing stamps and
 * returns an immutable world that any number of threads may query at once. */
DG_API dg_status dg_world_create(const dg_world_params *params, uint64_t seed,
                                 const dg_allocator *allocator, dg_world **world, dg_diag *diag);
/* Releases a world (NULL is fine). */
DG_API void dg_world_free(dg_world *world);
/* Everything about room (x, y). DG_E_INVALID outside the range (room untouched). */
DG_API dg_status dg_world_room_info(const dg_world *world, int64_t x, int64_t y,
                                    dg_world_room *room);
/* Tiles from one cell's west edge to the next one's: room_size + 2 for varied
 * rooms, room_size + 1 for full rooms (0 for NULL). */
DG_API int32_t dg_world_period(const dg_world *world);
/* The cell that owns tile (tx, ty), flooring toward minus infinity (the tile
 * may lie outside the room's interior: see dg_world_room.inner_*). */
DG_API dg_status dg_world_room_of_tile(const dg_world *world, int64_t tx, int64_t ty,
                                       int64_t *x, int64_t *y);
/* Renders the grid->width x grid->height tiles whose top-left is world tile
 * (tx, ty): walls, doors, floor and furnishing. The window must lie in the
 * rooms of the range. Markers inside the window go to markers[0..capacity)
 * sorted by tile (y, then x; one marker per tile at most); *marker_count
 * (optional) gets how many there are. markers may be NULL to only count; if
 * it is too small the call fails with DG_E_BUFFER before writing anything.
 * The same window always gives the same tiles, whole or in pieces. */
DG_API dg_status dg_world_render(const dg_world *world, int64_t tx, int64_t ty, dg_grid *grid,
                                 dg_world_marker *markers, int32_t capacity,
                                 int32_t *marker_count, dg_diag *diag);

/* Lazy expansion as games use it. An explorer records the rooms the player
 * has entered (memory grows only with them) and tells which neighbours each
 * entry reveals. A room is "seen" when it is explored or behind a door of an
 * explored room; that is derived, not stored, so the result is the same in
 * whatever order rooms are entered. One explorer must not be used by two
 * threads at once; it keeps a pointer to its world, which must outlive it. */
typedef struct dg_explorer dg_explorer;
typedef struct dg_world_pos { int64_t x, y; } dg_world_pos;

enum { /* dg_explorer_status */
    DG_EXPLORE_UNSEEN = 0,
    DG_EXPLORE_SEEN = 1,     /* behind a door of an explored room, not entered */
    DG_EXPLORE_VISITED = 2   /* entered */
};

typedef struct dg_reveal {
    int64_t x, y;     /* the neighbour room */
    int32_t side;     /* DG_SIDE_* of the door it is seen through */
    int32_t is_new;   /* 1 if this entry made it seen for the first time */
} dg_reveal;

typedef struct dg_enter_result {
    dg_reveal revealed[4];  /* the neighbours behind the room's doors, N E S W order */
    int32_t revealed_count;
    int32_t first_visit;    /* 1 if the room had not been entered before */
    int64_t explored;       /* rooms entered so far, this one included */
} dg_enter_result;

/* An empty explorer of world. */
DG_API dg_status dg_explorer_create(const dg_world *world, const dg_allocator *allocator,
                                    dg_explorer **explorer);
DG_API void dg_explorer_free(dg_explorer *explorer);
/* Enters room (x, y) (any room of the range, not only a neighbour) and fills
 * *out (optional). DG_E_INVALID outside the range, DG_E_NOMEM (nothing
 * recorded) if the table cannot grow. */
DG_API dg_status dg_explorer_enter(dg_explorer *explorer, int64_t x, int64_t y,
                                   dg_enter_result *out);
/* Rooms entered so far. */
DG_API int64_t dg_explorer_count(const dg_explorer *explorer);
/* DG_EXPLORE_* of room (x, y) (UNSEEN outside the range or for NULL). */
DG_API int32_t dg_explorer_status(const dg_explorer *explorer, int64_t x, int64_t y);
/* The game's own value for an entered room (0 after entering); DG_E_INVALID
 * if the room was not entered. */
DG_API dg_status dg_explorer_get_state(const dg_explorer *explorer, int64_t x, int64_t y,
                                       uint64_t *state);
DG_API dg_status dg_explorer_set_state(dg_explorer *explorer, int64_t x, int64_t y,
                                       uint64_t state);
/* Writes the entered rooms sorted by (y, x), and their states if states is
 * not NULL, into capacity entries; *count gets the number of rooms. rooms
 * may be NULL (capacity 0) to ask for the count; DG_E_BUFFER if too small. */
DG_API dg_status dg_explorer_save(const dg_explorer *explorer, dg_world_pos *rooms,
                                  uint64_t *states, int64_t capacity, int64_t *count);
/* Replaces the explorer's rooms with a saved list (states NULL: all 0).
 * Rejects out-of-range and repeated rooms; on error the explorer is unchanged. */
DG_API dg_status dg_explorer_restore(dg_explorer *explorer, const dg_world_pos *rooms,
                                     const uint64_t *states, int64_t count, dg_diag *diag);

/* ---- parameters, recipes and the generator registry ------------------------ */
/* Every generator is registered by name with a table describing each int32_t
 * field of its params struct. Tools, recipes and bindings use the table, so a
 * new parameter appears everywhere at once (docs/recipes.md). */
enum { /* dg_param_desc.type */
    DG_PARAM_INT = 0,   /* any integer in [min, max] */
    DG_PARAM_BOOL = 1,  /* 0 or 1; recipes also accept true/false */
    DG_PARAM_ENUM = 2   /* 0..max, named by dg_param_desc.choices */
};

/* One parameter. Strings are static: owned by the library, valid forever. */
typedef struct dg_param_desc {
    const char *name;    /* recipe key, e.g. "room_min_w" */
    const char *help;    /* one line of help */
    const char *choices; /* DG_PARAM_ENUM: value names separated by '|', value 0 first; else NULL */
    int32_t type;        /* DG_PARAM_* */
    int32_t min, max;    /* inclusive range */
    int32_t def;         /* default, as filled by the generator's _defaults function */
    int32_t offset;      /* byte offset of the int32_t field in the params struct */
    int32_t reserved;    /* 0 (explicit padding) */
} dg_param_desc;

/* A registered generator. Strings and the table are static. */
typedef struct dg_generator_info {
    const char *name;              /* "attach", ... */
    const char *summary;           /* one line */
    const dg_param_desc *params;   /* param_count entries */
    int32_t param_count;
    int32_t params_size;           /* sizeof its params struct */
    int32_t needs_prefabs;         /* 1 if dg_recipe_generate needs a prefab set */
    int32_t needs_graph;           /* 1 if it needs a level graph (dg_site.graph) (0.9) */
} dg_generator_info;

/* Number of registered generators; indexes are 0..count-1 in a fixed order. */
DG_API int32_t dg_generator_count(void);
/* Fills *info for generator `index`; DG_E_INVALID if out of range. */
DG_API dg_status dg_generator_get(int32_t index, dg_generator_info *info);
/* Index of the generator called name, or -1. */
DG_API int32_t dg_generator_find(const char *name);
/* The parameter table of a generator (static), *count (optional) its length;
 * NULL and *count = 0 for an unknown name. */
DG_API const dg_param_desc *dg_generator_params(const char *generator, int32_t *count);
/* Fills *params (params_size bytes, at least the struct's size) with the
 * generator's defaults. */
DG_API dg_status dg_params_defaults(const char *generator, void *params, size_t params_size);
/* Parses value as parameter key of a generator and stores it in *params.
 * DG_E_PARSE (unknown key, not a number, unknown name) or DG_E_INVALID (out of
 * range) with diag saying why; *params is untouched then. */
DG_API dg_status dg_params_set(const char *generator, void *params, size_t params_size,
                               const char *key, const char *value, dg_diag *diag);

#define DG_RECIPE_MAX_PARAMS 32
#define DG_RECIPE_PREFABS_MAX 56 /* bytes of the prefab file hint, NUL included */
#define DG_RECIPE_INPUTS 3
enum { /* dg_recipe.inputs[]: what else a level was made with, beside a prefab set */
    DG_RECIPE_GRAPH = 0,  /* the level graph (dg_graph_hash); recipe keys graph=, graph_hash= */
    DG_RECIPE_ROLES = 1,  /* the role table dg_roles used; roles=, roles_hash= */
    DG_RECIPE_SPAWNS = 2  /* the spawn table dg_populate used; spawns=, spawns_hash= */
};
typedef struct dg_recipe_input {
    uint64_t hash;                        /* its identity; 0: none recorded */
    char file[DG_RECIPE_PREFABS_MAX];     /* its file as a hint ("" none), as prefabs */
} dg_recipe_input;
/* Everything that determines a map: the library's output series
 * (DG_OUTPUT_VERSION), generator, seed, size, every parameter value (in
 * the order of the generator's table), the prefab set's identity and the
 * identities of the level graph, role and spawn tables (0.9). */
typedef struct dg_recipe {
    char generator[DG_NAME_MAX];          /* NUL-terminated registered name */
    uint64_t seed;
    int32_t width, height;                /* grid size in cells */
    int32_t version;                      /* DG_OUTPUT_VERSION it was made for */
    int32_t param_count;                  /* entries used in values */
    int32_t values[DG_RECIPE_MAX_PARAMS]; /* values[i] belongs to params table entry i */
    uint64_t prefabs_hash;                /* dg_prefab_set_hash of the set it needs; 0: none recorded */
    char prefabs[DG_RECIPE_PREFABS_MAX];  /* the set's file as a hint ("" none): letters, digits, ./_-+ */
    dg_recipe_input inputs[DG_RECIPE_INPUTS]; /* the level graph, role and spawn tables it was made with */
} dg_recipe;

/* Recipe for a generator with its default parameters. */
DG_API dg_status dg_recipe_init(dg_recipe *recipe, const char *generator, uint64_t seed,
                                int32_t width, int32_t height);
/* Sets one key: "seed", "width", "height", "version" or a parameter name, as in
 * dg_params_set. On error the recipe is untouched. */
DG_API dg_status dg_recipe_set(dg_recipe *recipe, const char *key, const char *value,
                               dg_diag *diag);
/* Value of a parameter (not seed/width/height) into *value. DG_E_INVALID if unknown. */
DG_API dg_status dg_recipe_get(const dg_recipe *recipe, const char *key, int32_t *value);
/* Prints the recipe as one line, "attach seed=42 width=80 height=50 room_min_w=3
 * ... version=0.3", NUL-terminated, no newline. *written (optional) gets the
 * length without the NUL; with out NULL (or too small: DG_E_BUFFER, nothing
 * written) it gets the length needed. */
DG_API dg_status dg_recipe_print(const dg_recipe *recipe, char *out, size_t out_size,
                                 size_t *written);
/* Parses a recipe line from text[0..length) (need not be NUL-terminated):
 * the generator name, then KEY=VALUE words separated by blanks; keys left out
 * keep their defaults (seed 1, 80 x 50). Errors: DG_E_PARSE for an unknown
 * generator or key, a repeated key or a malformed value; DG_E_INVALID for a
 * value out of range or another output series (a 0.1 or 0.2 recipe's
 * "version=0" included); diag has line 1 and the
 * column. On error *recipe is untouched. */
DG_API dg_status dg_recipe_parse(const char *text, size_t length, dg_recipe *recipe,
                                 dg_diag *diag);
/* Fills *params (the generator's struct, params_size >= its size) from the recipe. */
DG_API dg_status dg_recipe_params(const dg_recipe *recipe, void *params, size_t params_size);
/* Recipe from a filled params struct (the inverse of dg_recipe_params). Fields
 * out of their documented range give DG_E_INVALID. */
DG_API dg_status dg_recipe_from_params(dg_recipe *recipe, const char *generator,
                                       const void *params, size_t params_size, uint64_t seed,
                                       int32_t width, int32_t height, dg_diag *diag);
/* Records the set's identity in the recipe: prefabs_hash = dg_prefab_set_hash
 * (set), prefabs = file (optional hint, "" or NULL for none). DG_E_INVALID if
 * the hint is too long or holds other characters; the recipe is untouched. */
DG_API dg_status dg_recipe_set_prefabs(dg_recipe *recipe, const dg_prefab_set *set,
                                       const char *file, dg_diag *diag);
/* Records an input's identity (which: DG_RECIPE_*; hash not 0; file an
 * optional hint, as dg_recipe_set_prefabs). Recipes print them as NAME=FILE
 * NAME_hash=0x... after the prefab set. DG_E_INVALID for another which, hash
 * 0 or a hint a recipe cannot hold; the recipe is untouched. */
DG_API dg_status dg_recipe_set_input(dg_recipe *recipe, int32_t which, uint64_t hash,
                                     const char *file, dg_diag *diag);
/* Runs the recipe's generator on grid, which must be recipe->width x
 * recipe->height. prefabs is needed by generators whose info says so (else
 * ignored; borrowed for the call). A recipe with a prefabs_hash runs only with
 * that set (DG_E_INVALID for another set or none, so it never gives another
 * map). result, allocator and diag are optional, as for each generator's own
 * function, which this calls. */
DG_API dg_status dg_recipe_generate(const dg_recipe *recipe, dg_grid *grid,
                                    const dg_prefab_set *prefabs, dg_result *result,
                                    const dg_allocator *allocator, dg_diag *diag);

/* ---- anchors and stacked floors --------------------------------------------- */
/* dg_anchor_place makes cells of any generated map open and joined to its
 * start: an anchor in rock gets a small room (up to 3x3, walled, carved only
 * where the room and its walls were rock) and a corridor through rock to the
 * nearest open cell of the start's region, with a door where it meets room
 * floor; an anchor already open stays as it is (an open pocket cut off from
 * the start is joined the same way). The first anchor becomes the start, in
 * the start room: the room holding it, the new room, or the room whose wall it
 * opens as an alcove (-1 for an anchor on a corridor or in a cave without
 * rooms). The exit moves to the room cell farthest from it. docs/progression.md. */
#define DG_ANCHORS_MAX 9
/* Opens and joins count (0..DG_ANCHORS_MAX) anchors in order; an obstacle or
 * water on an anchor gives way to floor. result (optional) gets the new rooms,
 * start, exit and metrics. DG_E_INVALID for an anchor outside the grid,
 * DG_E_NOSPACE when an anchor lies on a tile the library does not know (a
 * caller's tile stays) or no corridor through rock can reach it; on any error
 * grid and result are untouched. */
DG_API dg_status dg_anchor_place(dg_grid *grid, const dg_point *anchors, int32_t count,
                                 dg_result *result, const dg_allocator *allocator, dg_diag *diag);

/* A site: what a generator must work around. Reserved cells are the caller's
 * own (a hand-made vault, a town, a river): the generator leaves them exactly
 * as they are, carves and walls only the other cells, and keeps its open cells
 * from touching a reserved cell, even diagonally, so a wall always lies
 * between (join them to your area yourself, e.g. with a door). Anchors are
 * opened and joined after generation as by dg_anchor_place, neither carving,
 * passing nor touching reserved cells (an anchor on or beside one is refused);
 * locks the recipe asks for leave reserved cells as they are too. The level
 * graph is an input, not a constraint: generator 'graph' needs it (and the
 * recipe's graph_hash, if recorded, must match it); others ignore it.
 * docs/progression.md#sites. */
/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_site {
    const uint8_t *reserved;           /* nonzero at reserved[y * reserved_stride + x]:
                                        * a cell the generator must not write; NULL: none */
    int32_t reserved_stride;           /* cells per row of reserved, >= width; 0 = width */
    int32_t anchor_count;              /* 0..DG_ANCHORS_MAX */
    dg_point anchors[DG_ANCHORS_MAX];  /* anchors[0] becomes the start */
    const dg_graph *graph;             /* the level graph generator 'graph' lays out
                                        * (0.9); NULL: none. Takes no reserved cells */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_site;

/* Empties *site: no reserved cells, no anchors. */
DG_API void dg_site_init(dg_site *site);
/* dg_recipe_generate around a site (NULL: none), for every generator.
 * DG_E_INVALID for a stride under the width, an anchor outside the grid or on
 * or beside a reserved cell; DG_E_NOSPACE when every cell is reserved, when the
 * generator cannot fit its smallest map in the cells left (its own error
 * otherwise, as with a small grid) or an anchor cannot be joined. On any
 * error grid and result are untouched. */
DG_API dg_status dg_recipe_generate_site(const dg_recipe *recipe, const dg_site *site,
                                         dg_grid *grid, const dg_prefab_set *prefabs,
                                         dg_result *result, const dg_allocator *allocator,
                                         dg_diag *diag);

/* Stacked floors: floor n of a dungeon is generated alone from the recipe
 * (recipe->seed is the dungeon's master seed; the generator runs with
 * dg_floor_seed(master, n)), and its stairs sit on cells that depend only on
 * (master, n, width, height): the down stairs of floor n are the up stairs of
 * floor n + 1, cell for cell. The stairs are anchors, so each is open and
 * reachable from its floor's start, which is the (first) up stairs. Floors may
 * use different recipes (generators, parameters) as long as they share the
 * master seed and size. */
#define DG_FLOORS_MAX 65536
#define DG_STAIRS_MAX 4
/* Growable (docs/abi.md): later fields take spare slots; the library writes 0 there. */
typedef struct dg_floor_info {
    int32_t floor;                 /* depth: 0 is the top floor */
    int32_t floors;                /* floors in the dungeon */
    uint64_t seed;                 /* the generator's seed, dg_floor_seed(master, floor) */
    int32_t up_count;              /* stairs up to floor - 1 (0 on the top floor) */
    int32_t down_count;            /* stairs down to floor + 1 (0 on the bottom floor) */
    dg_point up[DG_STAIRS_MAX];    /* DG_TILE_STAIRS_UP cells; up[0] is the start */
    dg_point down[DG_STAIRS_MAX];  /* DG_TILE_STAIRS_DOWN cells; down[0] is the exit */
    int32_t spare[DG_SPARE_SLOTS]; /* 0 (room for later fields, docs/abi.md) */
} dg_floor_info;

/* The count (1..DG_STAIRS_MAX) stair cells linking floor link and link + 1
 * (link 0..DG_FLOORS_MAX-2) of width x height floors (each side >= 14):
 * in two opposite quarters of the grid that alternate with the link's parity,
 * so a floor's stairs up and down never meet, on odd coordinates, two cells in
 * from the edges. */
DG_API dg_status dg_floor_stairs(uint64_t master, int32_t link, int32_t width, int32_t height,
                                 int32_t count, dg_point *stairs, dg_diag *diag);
/* Generates floor `floor` (0..floors-1, floors 1..DG_FLOORS_MAX) of a dungeon
 * of `floors` floors into grid (recipe->width x recipe->height), with
 * `stairs` (1..DG_STAIRS_MAX) pairs of stairs between neighbouring floors.
 * result (optional) gets the map's result with the stairs as
 * DG_MARKER_STAIRS_UP/DOWN markers named "floor N" (the floor they lead to);
 * info (optional) the stairs and depth. Costs one generation plus one
 * dg_anchor_place. Errors as dg_recipe_generate and dg_anchor_place, plus
 * DG_E_TOO_SMALL for sides under 14; on any error grid and result are untouched. */
DG_API dg_status dg_floor_generate(const dg_recipe *recipe, int32_t floor, int32_t floors,
                                   int32_t stairs, dg_grid *grid, const dg_prefab_set *prefabs,
                                   dg_result *result, dg_floor_info *info,
                                   const dg_allocator *allocator, dg_diag *diag);

/* ---- export: JSON, Tiled .tmj and .tmx ---------------------------------------- */
/* Output goes through a callback, called synchronously during the export call,
 * in order, with chunks of at most a few KiB (data is only valid during the
 * call). See docs/export.md for the formats. */
typedef void (*dg_write_fn)(void *user, const char *data, size_t len);

enum { /* dg_export_options.format */
    DG_EXPORT_JSON = 0,   /* libdungeon's own JSON schema */
    DG_EXPORT_TMJ = 1,    /* Tiled JSON map */
    DG_EXPORT_TMX = 2     /* Tiled XML map, CSV layer data */
};
#define DG_TILESET_COLUMNS 16 /* the swatch tileset is 16 x 16 tiles: tile value v at index v-1 */

/* Growable (docs/abi.md): later fields take spare slots; spare must be 0. */
typedef struct dg_export_options {
    int32_t format;              /* DG_EXPORT_* (default JSON) */
    int32_t tile_width;          /* Tiled: pixels per cell (default 16, 1..256) */
    int32_t tile_height;         /* Tiled: pixels per cell (default 16, 1..256) */
    int32_t reserved;            /* 0 */
    const char *tileset_image;   /* Tiled: swatch PNG path relative to the map
                                    (default "dungeon-tiles.png"); borrowed */
    const dg_recipe *recipe;     /* optional recipe to embed; borrowed */
    int32_t terrain;             /* Tiled: 1 = the tile layer hidden, a "ground" and an "art"
                                    layer drawn through the art tileset (dg_art_tileset_rgba),
                                    whose walls and water are Wang sets of type "mixed"; its
                                    image is tileset_image with "-art" before the extension
                                    (docs/autotile.md); default 0 */
    int32_t spare[DG_SPARE_SLOTS - 1]; /* 0 (room for later fields, docs/abi.md) */
} dg_export_options;

/* Fills the defaults above. */
DG_API void dg_export_defaults(dg_export_options *options);
/* Writes grid and result (optional: tiles only) in options->format (NULL:
 * defaults) through write. Everything is validated before the first write. */
DG_API dg_status dg_export(const dg_grid *grid, const dg_result *result,
                           const dg_export_options *options, dg_write_fn write, void *user,
                           dg_diag *diag);
/* The same into out[0..out_size), NUL-terminated; *written (optional) gets the
 * length without the NUL, or the size needed (with out NULL, or DG_E_BUFFER
 * when too small: nothing written). */
DG_API dg_status dg_export_buffer(const dg_grid *grid, const dg_result *result,
                                  const dg_export_options *options, char *out, size_t out_size,
                                  size_t *written, dg_diag *diag);
/* A stacked dungeon (dg_floor_generate) as one Tiled map (options->format
 * DG_EXPORT_TMJ or DG_EXPORT_TMX; NULL: TMX defaults): per floor a tile layer
 * "floor N" and an object layer "floor N objects", each with an int property
 * floor = N, only floor 0 visible; object ids run on across the floors.
 * grids holds count floors (1..DG_FLOORS_MAX) of one size; results is NULL
 * (tiles only) or holds count results; options->recipe (optional) goes into
 * the map's properties. Everything is validated before the first write. */
DG_API dg_status dg_export_floors(const dg_grid *grids, const dg_result *results, int32_t count,
                                  const dg_export_options *options, dg_write_fn write, void *user,
                                  dg_diag *diag);
/* RGBA8 pixels of the swatch tileset the Tiled exports reference: 16 x 16 tiles
 * of tile_width x tile_height, tile value v (1..255) at index v-1 in its
 * palette colour (NULL: default palette), index 255 transparent. Needs
 * 16*tile_width * 16*tile_height * 4 bytes. */
DG_API dg_status dg_export_tileset_rgba(const uint32_t *palette, int32_t tile_width,
                                        int32_t tile_height, uint8_t *out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif /* DUNGEON_H */
