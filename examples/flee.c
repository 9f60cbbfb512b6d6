/* A fleeing monster, Brogue-style: the approach map from the player, then a
 * safety map (dg_flee_map: every reached cell a source, starting at
 * K - d * 6 / 5, rescanned); the monster steps to its lowest neighbour
 * (dg_chase_step, DG_CHASE_FLEE) until none is lower. Writes the safety map in heat colours (blue safe, red near the
 * player) with the player, the monster and its route as a PNG.
 *
 *   flee [SEED [DIR]]   writes DIR/analysis-flee.png (DIR defaults to ".")
 *
 * Uses only the public header; PNG through stb_image_write. */
#include <dungeon.h>
#include <stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>

enum { W = 80, H = 50, SCALE = 8, MONSTER_STEPS = 10, MAX_ROUTE = 200 };

static uint8_t px[W * SCALE * H * SCALE * 4];

static void fill_cell(int32_t x, int32_t y, uint32_t rgba, int32_t inset)
{
    for (int32_t py = inset; py < SCALE - inset; py++)
        for (int32_t qx = inset; qx < SCALE - inset; qx++)
        {
            uint8_t *p = px + ((size_t)(y * SCALE + py) * (W * SCALE) + (size_t)(x * SCALE + qx)) * 4;
            p[0] = (uint8_t)(rgba >> 24);
            p[1] = (uint8_t)(rgba >> 16);
            p[2] = (uint8_t)(rgba >> 8);
            p[3] = 0xFF;
        }
}

/* Low is cool blue, high is hot red, through green and yellow (integers only). */
static uint32_t heat(int32_t d, int32_t max)
{
    int32_t t = max > 0 ? d * 1020 / max : 0;
    int32_t r, g, b;
    if (t < 255)
        r = 0, g = t, b = 255;
    else if (t < 510)
        r = 0, g = 255, b = 510 - t;
    else if (t < 765)
        r = t - 510, g = 255, b = 0;
    else
        r = 255, g = 1020 - t, b = 0;
    return ((uint32_t)r << 24) | ((uint32_t)g << 16) | ((uint32_t)b << 8) | 0xFFu;
}

static int fail(const char *what, dg_status st, const dg_diag *diag)
{
    fprintf(stderr, "flee: %s: %s (%s)\n", what, dg_status_str(st), diag->message);
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 7;
    const char *dir = argc > 2 ? argv[2] : ".";
    static uint8_t cells[W * H];
    static int32_t approach[W * H], flee[W * H];
    static dg_point route[MAX_ROUTE];
    dg_grid grid;
    dg_diag diag;
    dg_attach_params params;
    dg_attach_defaults(&params);
    params.loop_min_gain = 12; /* loops give the monster somewhere to run around */
    dg_status st = dg_grid_init(&grid, cells, W, H, 0);
    if (st == DG_OK)
        st = dg_attach_generate(&grid, &params, seed, NULL, NULL, &diag);
    dg_placement where;
    dg_place_params place;
    dg_place_defaults(&place);
    if (st == DG_OK)
        st = dg_place(&grid, &place, seed, NULL, &where, NULL, 0, NULL, &diag);
    if (st != DG_OK)
        return fail("generate", st, &diag);

    /* The approach map: 8-way, straight 2 and diagonal 3. */
    dg_move walk;
    dg_move_defaults(&walk);
    walk.neighbours = 8;
    walk.straight_weight = 2;
    walk.diagonal_weight = 3;
    dg_point player = where.start;
    dg_path_workspace *ws = NULL;
    if ((st = dg_path_workspace_create(W, H, NULL, &ws)) != DG_OK)
        return fail("workspace", st, &diag);
    st = dg_distance_map(&grid, &walk, &player, 1, 0, approach, W * H, ws, NULL, &diag);
    if (st != DG_OK)
        return fail("approach map", st, &diag);

    /* The safety map (dg_flee_map): every reached cell starts at K - d * 6 / 5
     * (K keeps every cost >= 0), rescanned; the rescan lets a cell far along a
     * loop beat a dead end that is merely far. The monster starts at the
     * farthest cell within 2 * MONSTER_STEPS of the player. */
    dg_point monster = player;
    for (int32_t i = 0; i < W * H; i++)
        if (approach[i] >= 0 && approach[i] <= 2 * MONSTER_STEPS &&
            approach[i] > approach[monster.y * W + monster.x])
            monster = (dg_point){i % W, i / W};
    dg_distance_info info;
    st = dg_flee_map(&grid, &walk, approach, W * H, 120, flee, W * H, ws, NULL, &info, &diag);
    if (st != DG_OK)
    {
        dg_path_workspace_free(ws);
        return fail("flee map", st, &diag);
    }

    /* The monster steps to its lowest neighbour until none is lower. */
    int32_t steps = 0;
    route[steps++] = monster;
    for (dg_point next; steps < MAX_ROUTE; steps++)
    {
        dg_chase chase = {flee, W * H, DG_CHASE_FLEE, &route[steps - 1], 1, NULL, 0};
        if ((st = dg_chase_step(&grid, &walk, &chase, ws, &next, 1, &diag)) != DG_OK)
            return fail("chase step", st, &diag);
        if (next.x == route[steps - 1].x && next.y == route[steps - 1].y)
            break;
        route[steps] = next;
    }
    dg_path_workspace_free(ws);

    dg_render_rgba(&grid, NULL, SCALE, px, sizeof px);
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            if (flee[y * W + x] >= 0)
                fill_cell(x, y, heat(flee[y * W + x], info.max_distance), 0);
    for (int32_t s = 1; s < steps; s++)
        fill_cell(route[s].x, route[s].y, 0xFFFFFFFFu, 3);
    fill_cell(player.x, player.y, 0xFFFFFFFFu, 0);
    fill_cell(player.x, player.y, 0x000000FFu, 2);
    fill_cell(monster.x, monster.y, 0xFF00FFFFu, 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/analysis-flee.png", dir);
    if (!stbi_write_png(path, W * SCALE, H * SCALE, 4, px, W * SCALE * 4))
    {
        fprintf(stderr, "flee: cannot write %s\n", path);
        return 1;
    }
    printf("wrote %s\nplayer (%d,%d), monster (%d,%d) flees %d steps to (%d,%d)\n", path,
           (int)player.x, (int)player.y, (int)monster.x, (int)monster.y, (int)(steps - 1),
           (int)route[steps - 1].x, (int)route[steps - 1].y);
    return 0;
}
