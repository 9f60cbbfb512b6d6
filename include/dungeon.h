/* libdungeon: seeded dungeon generators that fill a caller-owned grid.
 *
 * One public header. Every function returns a dg_status (0 = DG_OK, negative =
 * error) unless it is a pure query. The caller owns every grid; generators never
 * allocate it and never write outside its width x height cells. Same (major
 * version, generator, parameters, seed) gives the same bytes everywhere; see
 * docs/determinism.md.  SPDX-License-Identifier: MIT */
#ifndef DUNGEON_H
#define DUNGEON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---------------------------------------------------------- */
#define DG_VERSION_MAJOR 0
#define DG_VERSION_MINOR 1
#define DG_VERSION_PATCH 0
#define DG_VERSION_NUMBER (DG_VERSION_MAJOR * 10000 + DG_VERSION_MINOR * 100 + DG_VERSION_PATCH)

#if defined(_WIN32) && defined(DG_SHARED_BUILD)
#define DG_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define DG_API __attribute__((visibility("default")))
#else
#define DG_API
#endif

/* "MAJOR.MINOR.PATCH" of the library actually linked. */
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

/* Short English name of a status ("ok", "invalid parameter", ...); never NULL. */
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
    DG_TILE_COUNT = 10,      /* number of named library tiles */
    DG_TILE_USER = 64
};

/* Name of a tile ("floor", "wall", ..., "user" for >= DG_TILE_USER, "unknown"). */
DG_API const char *dg_tile_name(uint8_t tile);
/* 1 if a walker may stand on the tile (floor, corridor, door, trap, stairs). */
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
enum { /* dg_ref.kind: what a door joins */
    DG_REF_NONE = 0,
    DG_REF_ROOM = 1,
    DG_REF_CORRIDOR = 2
};
enum { DG_DIR_N = 0, DG_DIR_E = 1, DG_DIR_S = 2, DG_DIR_W = 3 };

typedef struct dg_ref { int32_t kind; int32_t index; } dg_ref;

typedef struct dg_room {
    dg_rect rect;        /* interior (floor) rectangle, walls excluded */
    int32_t kind;        /* DG_ROOM_* */
    int32_t prefab;      /* index of the prefab in its set, or -1 */
    int32_t orientation; /* DG_ORIENT_* of the prefab, or 0 */
    int32_t parent;      /* room it was grown from, or -1 */
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
    DG_MARKER_EXIT = 6
};
typedef struct dg_marker {
    dg_point pos;
    int32_t kind;               /* DG_MARKER_* */
    int32_t room;               /* room index containing it, or -1 */
    char name[DG_NAME_MAX];     /* NUL-terminated, e.g. "goblin" */
} dg_marker;

/* Integer metrics so they are identical on every platform. */
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
} dg_metrics;

/* Everything a generator reports beside tiles. Initialise with dg_result_init,
 * pass to any generator (which replaces its contents), release with
 * dg_result_free. Arrays are owned by the result. */
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
    dg_allocator allocator; /* how the arrays were allocated (set by init) */
    int32_t capacity_[4];   /* private: array capacities */
} dg_result;

/* Empties *result and records the allocator (NULL: malloc/free). */
DG_API void dg_result_init(dg_result *result, const dg_allocator *allocator);
/* Frees the arrays and empties *result; safe to call twice. */
DG_API void dg_result_free(dg_result *result);

/* ---- rendering ----------------------------------------------------------- */
/* ASCII: one char per tile from a 256-entry legend (NULL: the default legend
 * " .,#+^<>&~" for tiles 0..9, '?' for the rest). Rows end with '\n'; the text
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

/* ---- generator: feature attachment (attach) ------------------------------ */
enum { /* dg_attach_params.growth */
    DG_GROWTH_UNIFORM = 0,  /* grow from any feature */
    DG_GROWTH_NEWEST = 1,   /* prefer recent features: long, linear dungeons */
    DG_GROWTH_OLDEST = 2    /* prefer early features: bushy dungeons */
};
enum { /* dg_attach_params.dead_ends */
    DG_DEAD_ENDS_KEEP = 0,
    DG_DEAD_ENDS_PRUNE = 1, /* remove dangling corridors */
    DG_DEAD_ENDS_ROOM = 2   /* try to attach a room at each dead end, prune if none fits */
};
enum { /* dg_attach_params.doors */
    DG_DOORS_ALL = 0,       /* a door tile at every junction */
    DG_DOORS_ROOMS = 1,     /* doors only where a corridor meets a room */
    DG_DOORS_NONE = 2       /* junctions are plain floor */
};

typedef struct dg_attach_params {
    int32_t room_min_w, room_max_w;   /* room interior width, inclusive (default 3..9) */
    int32_t room_min_h, room_max_h;   /* room interior height, inclusive (default 3..7) */
    int32_t corridor_min, corridor_max; /* corridor length in cells (default 3..8) */
    int32_t max_features;             /* rooms + corridors budget, 0 = by area (default 0) */
    int32_t room_after_corridor;      /* permille chance of a room after a corridor (default 600) */
    int32_t target_floor;             /* stop at this floor permille, 0 = off (default 0) */
    int32_t max_attempts;             /* total placement attempts, 0 = 50 per feature budget */
    int32_t max_failures;             /* consecutive failures before stopping (default 400) */
    int32_t growth;                   /* DG_GROWTH_* (default uniform) */
    int32_t loop_min_gain;            /* loop pass: open a wall if it saves >= N steps, 0 = off (default 0) */
    int32_t loop_max;                 /* at most this many loops (default 8) */
    int32_t dead_ends;                /* DG_DEAD_ENDS_* (default keep) */
    int32_t doors;                    /* DG_DOORS_* (default all) */
} dg_attach_params;

/* Fills the documented defaults. */
DG_API void dg_attach_defaults(dg_attach_params *params);
/* Fills grid (VOID, then FLOOR/CORRIDOR/WALL/DOOR). result, allocator and diag
 * are optional. On error the grid is untouched and diag says why. */
DG_API dg_status dg_attach_generate(dg_grid *grid, const dg_attach_params *params,
                                    uint64_t seed, dg_result *result,
                                    const dg_allocator *allocator, dg_diag *diag);

/* ---- generator: room chain (chain) ---------------------------------------- */
/* (declarations added by the chain generator) */

/* ---- map analysis ---------------------------------------------------------- */
/* (declarations added by the analysis module) */

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

typedef struct dg_prefab_set dg_prefab_set;
/* Called once per error while parsing (all errors are reported in one pass, up
 * to a limit); diag->message is "name:line:col: message". */
typedef void (*dg_diag_fn)(void *user, const dg_diag *diag);

typedef struct dg_prefab_info {
    char name[DG_NAME_MAX];
    int32_t width, height;      /* in the identity orientation */
    int32_t modes;              /* DG_PREFAB_* bits */
    int32_t orientations;       /* allowed orientation bits */
    int32_t distinct;           /* allowed orientation bits left after merging identical results */
    int32_t weight;             /* selection weight (default 10) */
    int32_t door_sides;         /* DG_SIDE_* bits in the identity orientation */
    int32_t door_class;         /* DG_DOORCLASS_* */
} dg_prefab_info;

/* Parses text[0..length) (need not be NUL-terminated). source_name prefixes
 * messages (NULL: "<input>"). On error *set stays NULL, diag holds the first
 * error and on_error (optional) receives every error. */
DG_API dg_status dg_prefab_parse(const char *text, size_t length, const char *source_name,
                                 const dg_allocator *allocator, dg_diag_fn on_error, void *user,
                                 dg_prefab_set **set, dg_diag *diag);
/* Reads and parses a file (a helper; the core API takes buffers). */
DG_API dg_status dg_prefab_load(const char *path, const dg_allocator *allocator,
                                dg_diag_fn on_error, void *user, dg_prefab_set **set,
                                dg_diag *diag);
DG_API void dg_prefab_set_free(dg_prefab_set *set);
DG_API int32_t dg_prefab_count(const dg_prefab_set *set);
/* Index of the prefab with that name, or -1. */
DG_API int32_t dg_prefab_find(const dg_prefab_set *set, const char *name);
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
 * cells outside the grid are clipped (DG_E_INVALID if nothing fits). Markers
 * (actors, markers, traps) are appended to result (optional) in grid
 * coordinates. */
DG_API dg_status dg_prefab_stamp(const dg_prefab_set *set, int32_t index, int32_t orientation,
                                 uint64_t seed, dg_grid *grid, int32_t x, int32_t y,
                                 dg_result *result, dg_diag *diag);
/* (prefab generators: full, jigsaw, islands, mixed, added below) */

/* ---- infinite world -------------------------------------------------------- */
/* (declarations added by the world module) */

#ifdef __cplusplus
}
#endif
#endif /* DUNGEON_H */
