/* Chase: one turn of 100 monsters on a 200x200 attach map, that is one
 * distance map from the player (8-way, straight 2, diagonal 3, the monsters
 * and the player in a blocked overlay) plus dg_chase_step for all 100; and
 * with DG_BENCH_TCOD the same turn done as 100 libtcod A* queries (diagonal
 * cost 1.41) from the same monsters to the same player, timed in alternation
 * with ours, with the ratio of the medians. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DG_BENCH_TCOD
#include <libtcod/fov.h>
#include <libtcod/path.h>
#endif

#define MONSTERS 100
#define TURNS 64 /* distinct (player, monsters) setups, cycled through */

typedef struct chase_bench {
    dg_grid grid;
    uint8_t *cells, *blocked;
    int32_t *map;
    dg_path_workspace *ws;
    dg_overlay overlay;
    dg_move walk;
    dg_point player[TURNS];
    dg_point monsters[TURNS][MONSTERS];
    dg_point steps[MONSTERS];
    int32_t floor_count;
} chase_bench;

/* Picks distinct floor cells for each setup's player and monsters. */
static void place_actors(chase_bench *b, const dg_point *floor, int32_t floor_count)
{
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    uint8_t *taken = calloc(n, 1);
    dg_rng rng;
    dg_rng_seed(&rng, 42, 7);
    for (int t = 0; t < TURNS && taken; t++)
    {
        memset(taken, 0, n);
        for (int k = -1; k < MONSTERS; k++)
        {
            dg_point p;
            do
                p = floor[dg_rng_below(&rng, (uint32_t)floor_count)];
            while (taken[(size_t)p.y * (size_t)b->grid.width + (size_t)p.x]);
            taken[(size_t)p.y * (size_t)b->grid.width + (size_t)p.x] = 1;
            if (k < 0)
                b->player[t] = p;
            else
                b->monsters[t][k] = p;
        }
    }
    free(taken);
}

static int chase_setup(chase_bench *b, int32_t w, int32_t h)
{
    memset(b, 0, sizeof *b);
    size_t n = (size_t)w * (size_t)h;
    b->cells = malloc(n);
    b->blocked = calloc(n, 1);
    b->map = malloc(n * sizeof *b->map);
    dg_point *floor = malloc(n * sizeof *floor);
    dg_attach_params params;
    dg_attach_defaults(&params);
    int ok = b->cells && b->blocked && b->map && floor &&
             dg_grid_init(&b->grid, b->cells, w, h, 0) == DG_OK &&
             dg_attach_generate(&b->grid, &params, 42, NULL, NULL, NULL) == DG_OK &&
             dg_path_workspace_create(w, h, NULL, &b->ws) == DG_OK;
    for (int32_t y = 0; ok && y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (dg_tile_passable(dg_grid_get(&b->grid, x, y)))
                floor[b->floor_count++] = (dg_point){x, y};
    ok = ok && b->floor_count > 2 * MONSTERS;
    if (ok)
        place_actors(b, floor, b->floor_count);
    free(floor);
    dg_move_defaults(&b->walk);
    b->walk.neighbours = 8;
    b->walk.straight_weight = 2;
    b->walk.diagonal_weight = 3;
    b->overlay = (dg_overlay){DG_OVERLAY_BLOCKED, 0, n, b->blocked, NULL, NULL};
    return ok;
}

static void chase_teardown(chase_bench *b)
{
    dg_path_workspace_free(b->ws);
    free(b->cells);
    free(b->blocked);
    free(b->map);
}

/* Marks setup t's monsters and player in the blocked mask (or clears them). */
static void mark_setup(chase_bench *b, int t, uint8_t v)
{
    size_t w = (size_t)b->grid.width;
    b->blocked[(size_t)b->player[t].y * w + (size_t)b->player[t].x] = v;
    for (int k = 0; k < MONSTERS; k++)
        b->blocked[(size_t)b->monsters[t][k].y * w + (size_t)b->monsters[t][k].x] = v;
}

/* One turn: the map toward the player, then every monster's step. */
static void op_turn(void *ctx, int64_t i)
{
    chase_bench *b = ctx;
    int t = (int)(i % TURNS);
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    mark_setup(b, t, 1);
    dg_distance_map(&b->grid, &b->walk, &b->player[t], 1, 0, b->map, n, b->ws, NULL, NULL);
    dg_chase c = {b->map, n, DG_CHASE_APPROACH, b->monsters[t], MONSTERS, NULL, 0};
    dg_chase_step(&b->grid, &b->walk, &c, b->ws, b->steps, MONSTERS, NULL);
    mark_setup(b, t, 0);
}

/* The 100 steps alone, on the map of the last turn. */
static void op_steps(void *ctx, int64_t i)
{
    chase_bench *b = ctx;
    (void)i;
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    dg_chase c = {b->map, n, DG_CHASE_APPROACH, b->monsters[TURNS - 1], MONSTERS, NULL, 0};
    dg_chase_step(&b->grid, &b->walk, &c, b->ws, b->steps, MONSTERS, NULL);
}

#ifdef DG_BENCH_TCOD
static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* 100 A* queries, monster to player, each asked for its first step. */
static void tcod_turn(TCOD_path_t path, const chase_bench *b, int t, int *sink)
{
    for (int k = 0; k < MONSTERS; k++)
    {
        int x = b->monsters[t][k].x, y = b->monsters[t][k].y;
        if (TCOD_path_compute(path, x, y, b->player[t].x, b->player[t].y) &&
            TCOD_path_size(path) > 0)
            TCOD_path_get(path, 0, &x, &y);
        *sink += x + y;
    }
}

/* Our turn and libtcod's 100 queries in alternation; medians and their ratio. */
static void tcod_compare(chase_bench *b, const char *size, int reps)
{
    TCOD_Map *map = TCOD_map_new(b->grid.width, b->grid.height);
    for (int32_t y = 0; y < b->grid.height; y++)
        for (int32_t x = 0; x < b->grid.width; x++)
        {
            int open = dg_tile_passable(dg_grid_get(&b->grid, x, y));
            TCOD_map_set_properties(map, x, y, open, open);
        }
    TCOD_path_t path = TCOD_path_new_using_map(map, 1.41f);
    int64_t *ours = malloc((size_t)reps * sizeof *ours), *theirs = malloc((size_t)reps * sizeof *theirs);
    int sink = 0;
    for (int r = -1; ours && theirs && r < reps; r++) /* r = -1 warms up */
    {
        int t = (r + 1) % TURNS;
        int64_t t0 = bench_now_ns();
        op_turn(b, t);
        int64_t t1 = bench_now_ns();
        tcod_turn(path, b, t, &sink);
        int64_t t2 = bench_now_ns();
        if (r >= 0)
        {
            ours[r] = t1 - t0;
            theirs[r] = t2 - t1;
        }
    }
    if (ours && theirs)
    {
        qsort(ours, (size_t)reps, sizeof *ours, cmp_ns);
        qsort(theirs, (size_t)reps, sizeof *theirs, cmp_ns);
        printf("%-28s %-10s %9.1f us libtcod %9.1f us  ratio %.3f (%d)\n",
               "chase turn vs 100 tcod A*", size, (double)ours[reps / 2] / 1000.0,
               (double)theirs[reps / 2] / 1000.0, (double)ours[reps / 2] / (double)theirs[reps / 2],
               sink & 1);
        fflush(stdout);
    }
    free(ours);
    free(theirs);
    TCOD_path_delete(path);
    TCOD_map_delete(map);
}
#endif

BENCH(bench_chase)
{
    static chase_bench b;
    if (!chase_setup(&b, 200, 200))
    {
        printf("%-28s %-10s setup failed\n", "chase", "200x200");
        chase_teardown(&b);
        return;
    }
    printf("%-28s %-10s %d floor cells, %d monsters\n", "chase map", "200x200",
           (int)b.floor_count, MONSTERS);
    bench_run("chase turn 100 monsters", "200x200", 200 * 200, 101, 1, op_turn, &b, NULL);
    bench_run("chase 100 steps only", "200x200", 200 * 200, 301, 20, op_steps, &b, NULL);
#ifdef DG_BENCH_TCOD
    tcod_compare(&b, "200x200", 41);
#endif
    chase_teardown(&b);
}
