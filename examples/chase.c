/* Monsters chasing a player, one distance map a turn. The player (@) walks
 * from the start to the exit, re-planning each step with dg_path_find around
 * the monsters; five monsters of different speeds act in the order the
 * dg_sched_* energy loop gives. After each player move one approach map
 * (monsters and player blocked, so the monsters route around each other)
 * and one flee map serve every monster until the player moves again:
 * dg_chase_step moves the chasers down the first and the coward (k) down the
 * second. A step onto the player is an attack.
 *
 *   chase [--seed N] [--turns N] [--every N] [--png DIR]
 *
 * Prints an ASCII frame every N player turns (default 8), or with --png
 * writes DIR/chase-000.png, chase-001.png... one frame per player turn.
 * Uses only the public header; PNG through stb_image_write. */
#include <dungeon.h>
#include <stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 30, SCALE = 10, MONSTERS = 5, COST = 100, ROUTE_MAX = W * H };

typedef struct monster {
    char glyph;
    int32_t speed; /* energy a tick; the player's is 10 */
    int32_t mode;  /* DG_CHASE_APPROACH or DG_CHASE_FLEE */
    uint32_t rgba;
    const char *name;
} monster;

static const monster kinds[MONSTERS] = {
    {'r', 16, DG_CHASE_APPROACH, 0xFF40C0FFu, "rat (fast)"},
    {'g', 10, DG_CHASE_APPROACH, 0x40D040FFu, "goblin"},
    {'o', 8, DG_CHASE_APPROACH, 0xE04040FFu, "orc"},
    {'z', 5, DG_CHASE_APPROACH, 0x9060E0FFu, "zombie (slow)"},
    {'k', 10, DG_CHASE_FLEE, 0x40C0E0FFu, "kobold (flees)"},
};

typedef struct game {
    dg_grid grid;
    uint8_t cells[W * H];
    uint8_t blocked[W * H]; /* the monsters and the player */
    dg_overlay overlay;
    dg_move walk, walk_blocked;
    int32_t approach[W * H], plain[W * H], flee[W * H];
    dg_point player, exit, route[ROUTE_MAX];
    int32_t route_len;
    dg_point at[MONSTERS];
    int32_t hits[MONSTERS];
    int alive[MONSTERS];
    dg_path_workspace *ws;
    int32_t player_turns;
} game;

static uint8_t px[W * SCALE * H * SCALE * 4];

static int fail(const char *what, dg_status st, const dg_diag *diag)
{
    fprintf(stderr, "chase: %s: %s (%s)\n", what, dg_status_str(st), diag ? diag->message : "");
    return 1;
}

static void set_blocked(game *g, dg_point p, uint8_t v)
{
    g->blocked[p.y * W + p.x] = v;
}

/* The approach map from the player around the crowd, and the flee map from
 * the plain distances (how far the player is, not how the crowd routes). */
static dg_status make_maps(game *g, dg_diag *diag)
{
    dg_status st = dg_distance_map(&g->grid, &g->walk_blocked, &g->player, 1, 0, g->approach,
                                   W * H, g->ws, NULL, diag);
    if (st == DG_OK)
        st = dg_distance_map(&g->grid, &g->walk, &g->player, 1, 0, g->plain, W * H, g->ws, NULL,
                             diag);
    if (st == DG_OK)
        st = dg_flee_map(&g->grid, &g->walk_blocked, g->plain, W * H, 120, g->flee, W * H, g->ws,
                         NULL, NULL, diag);
    return st;
}

/* The monster standing on p, or -1. */
static int32_t monster_at(const game *g, dg_point p)
{
    for (int32_t k = 0; k < MONSTERS; k++)
        if (g->alive[k] && g->at[k].x == p.x && g->at[k].y == p.y)
            return k;
    return -1;
}

/* The player re-plans around the monsters and takes one step (path[0] is
 * where it stands, path[1] the next cell). With every way shut by monsters
 * it plans through them and slays the one in its way. Returns the slain
 * monster or -1. */
static int32_t player_turn(game *g)
{
    g->route_len = 0;
    if (dg_path_find(&g->grid, &g->walk_blocked, g->player, g->exit, g->ws, g->route, ROUTE_MAX,
                     &g->route_len, NULL, NULL) != DG_OK &&
        dg_path_find(&g->grid, &g->walk, g->player, g->exit, g->ws, g->route, ROUTE_MAX,
                     &g->route_len, NULL, NULL) != DG_OK)
        g->route_len = 0;
    g->player_turns++;
    if (g->route_len < 2)
        return -1;
    int32_t k = monster_at(g, g->route[1]);
    if (k >= 0)
    {
        g->alive[k] = 0;
        set_blocked(g, g->at[k], 0);
        return k;
    }
    set_blocked(g, g->player, 0);
    g->player = g->route[1];
    set_blocked(g, g->player, 1);
    return -1;
}

/* Monster k steps down its map; a step onto the player is an attack. The
 * living monsters are the chase's monsters (they hold their cells), k the mover. */
static dg_status monster_turn(game *g, int32_t k, dg_diag *diag)
{
    dg_point live[MONSTERS], steps[MONSTERS];
    int32_t n = 0, id = -1;
    for (int32_t j = 0; j < MONSTERS; j++)
        if (g->alive[j])
        {
            id = j == k ? n : id;
            live[n++] = g->at[j];
        }
    dg_chase c = {kinds[k].mode == DG_CHASE_FLEE ? g->flee : g->approach,
                  W * H,
                  kinds[k].mode,
                  live,
                  n,
                  &id,
                  1};
    dg_status st = dg_chase_step(&g->grid, &g->walk_blocked, &c, g->ws, steps, MONSTERS, diag);
    if (st != DG_OK)
        return st;
    if (steps[id].x == g->player.x && steps[id].y == g->player.y)
        g->hits[k]++;
    else
    {
        set_blocked(g, g->at[k], 0);
        g->at[k] = steps[id];
        set_blocked(g, g->at[k], 1);
    }
    return DG_OK;
}

static void print_frame(const game *g, int64_t tick)
{
    char text[(W + 1) * H + 1];
    dg_render_ascii(&g->grid, NULL, text, sizeof text, NULL);
    for (int32_t k = 0; k < MONSTERS; k++)
        if (g->alive[k])
            text[g->at[k].y * (W + 1) + g->at[k].x] = kinds[k].glyph;
    text[g->exit.y * (W + 1) + g->exit.x] = '>';
    text[g->player.y * (W + 1) + g->player.x] = '@';
    printf("player turn %d, tick %lld, hits", (int)g->player_turns, (long long)tick);
    for (int32_t k = 0; k < MONSTERS; k++)
        printf(" %c:%d", kinds[k].glyph, (int)g->hits[k]);
    printf("\n%s\n", text);
}

static void fill_cell(dg_point c, uint32_t rgba, int32_t inset)
{
    for (int32_t py = inset; py < SCALE - inset; py++)
        for (int32_t qx = inset; qx < SCALE - inset; qx++)
        {
            uint8_t *p = px + ((size_t)(c.y * SCALE + py) * (W * SCALE) + (size_t)(c.x * SCALE + qx)) * 4;
            p[0] = (uint8_t)(rgba >> 24);
            p[1] = (uint8_t)(rgba >> 16);
            p[2] = (uint8_t)(rgba >> 8);
            p[3] = 0xFF;
        }
}

/* The map, the player's planned route as dots, the exit, the actors. */
static int write_frame(const game *g, const char *dir, int32_t frame)
{
    dg_render_rgba(&g->grid, NULL, SCALE, px, sizeof px);
    for (int32_t s = 2; s < g->route_len; s++)
        fill_cell(g->route[s], 0xFFFFFFFFu, 3);
    fill_cell(g->exit, 0xFFD700FFu, 1);
    for (int32_t k = 0; k < MONSTERS; k++)
        if (g->alive[k])
            fill_cell(g->at[k], kinds[k].rgba, 0);
    fill_cell(g->player, 0xFFFFFFFFu, 0);
    fill_cell(g->player, 0x000000FFu, 2);
    char path[1024];
    snprintf(path, sizeof path, "%s/chase-%03d.png", dir, (int)frame);
    if (!stbi_write_png(path, W * SCALE, H * SCALE, 4, px, W * SCALE * 4))
    {
        fprintf(stderr, "chase: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

static int setup(game *g, uint64_t seed, dg_diag *diag)
{
    memset(g, 0, sizeof *g);
    dg_attach_params params;
    dg_attach_defaults(&params);
    params.loop_min_gain = 12; /* loops give the crowd ways around each other */
    dg_place_params place;
    dg_place_defaults(&place);
    place.spawn_count = MONSTERS;
    place.spawn_min_distance = 10;
    dg_placement where;
    dg_status st = dg_grid_init(&g->grid, g->cells, W, H, 0);
    if (st == DG_OK)
        st = dg_attach_generate(&g->grid, &params, seed, NULL, NULL, diag);
    if (st == DG_OK)
        st = dg_place(&g->grid, &place, seed, NULL, &where, g->at, MONSTERS, NULL, diag);
    if (st == DG_OK)
        st = dg_path_workspace_create(W, H, NULL, &g->ws);
    if (st != DG_OK)
        return fail("setup", st, diag), 0;
    g->player = where.start;
    g->exit = where.exit;
    dg_move_defaults(&g->walk);
    g->walk.neighbours = 8;
    g->walk.straight_weight = 2;
    g->walk.diagonal_weight = 3;
    g->overlay = (dg_overlay){DG_OVERLAY_BLOCKED, 0, W * H, g->blocked, NULL, NULL};
    g->walk_blocked = g->walk;
    g->walk_blocked.overlay = &g->overlay;
    set_blocked(g, g->player, 1);
    for (int32_t k = 0; k < MONSTERS; k++)
    {
        g->alive[k] = 1;
        set_blocked(g, g->at[k], 1);
    }
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t seed = 3;
    int32_t turns = 48, every = 8;
    const char *png_dir = NULL;
    for (int i = 1; i + 1 < argc; i += 2)
    {
        if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--turns"))
            turns = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--every"))
            every = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 1;
        else if (!strcmp(argv[i], "--png"))
            png_dir = argv[i + 1];
        else
            return fprintf(stderr, "usage: chase [--seed N] [--turns N] [--every N] [--png DIR]\n"), 2;
    }
    static game g;
    dg_diag diag;
    if (!setup(&g, seed, &diag))
        return 1;
    /* actor 0 is the player (speed 10), actor k + 1 monster k */
    dg_sched_actor slots[MONSTERS + 1];
    dg_sched sched;
    dg_sched_init(&sched, slots, MONSTERS + 1);
    dg_sched_add(&sched, 0, 10, COST, 0);
    for (int32_t k = 0; k < MONSTERS; k++)
        dg_sched_add(&sched, k + 1, kinds[k].speed, COST, 0);
    dg_status st = make_maps(&g, &diag);
    int32_t frames = 0;
    if (st == DG_OK && !png_dir)
        print_frame(&g, 0);
    else if (st == DG_OK && !write_frame(&g, png_dir, frames++))
        return 1;
    while (st == DG_OK && g.player_turns < turns && (g.player.x != g.exit.x || g.player.y != g.exit.y))
    {
        int32_t id;
        dg_sched_next(&sched, &id);
        dg_sched_spend(&sched, id, COST);
        if (id > 0)
        {
            st = monster_turn(&g, id - 1, &diag);
            continue;
        }
        int32_t slain = player_turn(&g);
        if (slain >= 0)
        {
            dg_sched_remove(&sched, slain + 1);
            if (!png_dir)
                printf("player turn %d: the player slays the %s in its way\n",
                       (int)g.player_turns, kinds[slain].name);
        }
        st = make_maps(&g, &diag); /* one map pair a turn serves every monster */
        if (st != DG_OK)
            continue;
        if (png_dir && !write_frame(&g, png_dir, frames++))
            return 1;
        if (!png_dir && g.player_turns % every == 0)
            print_frame(&g, sched.now);
    }
    if (st != DG_OK)
        return fail("turn", st, &diag);
    if (png_dir)
        printf("wrote %d frames to %s/chase-000.png ...\n", (int)frames, png_dir);
    printf("%d player turns, tick %lld; monsters:", (int)g.player_turns, (long long)sched.now);
    for (int32_t k = 0; k < MONSTERS; k++)
        printf(" %s%s hit %d,", kinds[k].name, g.alive[k] ? "" : " (slain)", (int)g.hits[k]);
    printf("\n");
    dg_path_workspace_free(g.ws);
    return 0;
}
