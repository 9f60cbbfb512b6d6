/* Map analysis pictures: a distance map with the A* path from start to exit
 * and the placement markers, and a field of view, as PNG files.
 *
 *   analysis_demo [SEED [DIR]]   writes DIR/analysis-distance.png and
 *                                DIR/analysis-fov.png (DIR defaults to ".")
 *
 * Uses only the public header; PNG through stb_image_write. */
#include <dungeon.h>
#include <stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 80, H = 50, SCALE = 8, SPAWNS = 12, FOV_RADIUS = 14 };
enum { ZOOM_W = 40, ZOOM_H = 26, ZOOM = 14 }; /* the field of view picture: a close-up */

/* RGBA pixels of `cols` x `rows` cells, `scale` pixels each. */
typedef struct picture {
    int32_t cols, rows, scale;
    uint8_t px[W * SCALE * H * SCALE * 4];
} picture;

static void fill_cell(picture *pic, int32_t x, int32_t y, uint32_t rgba, int32_t inset)
{
    int32_t s = pic->scale, stride = pic->cols * s;
    for (int32_t py = inset; py < s - inset; py++)
        for (int32_t px = inset; px < s - inset; px++)
        {
            size_t at = (size_t)(y * s + py) * (size_t)stride + (size_t)(x * s + px);
            uint8_t *p = pic->px + at * 4;
            p[0] = (uint8_t)(rgba >> 24);
            p[1] = (uint8_t)(rgba >> 16);
            p[2] = (uint8_t)(rgba >> 8);
            p[3] = 0xFF;
        }
}

/* Near is cool blue, far is hot red, through green and yellow (integers only). */
static uint32_t heat(int32_t d, int32_t max)
{
    int32_t t = max > 0 ? d * 1020 / max : 0; /* 0..1020 */
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

/* Halves the brightness of a tile colour: what the player remembers, not sees. */
static uint32_t dim(uint32_t rgba)
{
    return ((rgba >> 1) & 0x7F7F7F00u) | 0xFFu;
}

static int write_png(const char *dir, const char *name, const picture *pic)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int32_t w = pic->cols * pic->scale, h = pic->rows * pic->scale;
    if (!stbi_write_png(path, w, h, 4, pic->px, w * 4))
    {
        fprintf(stderr, "analysis_demo: cannot write %s\n", path);
        return 0;
    }
    printf("wrote %s\n", path);
    return 1;
}

static int fail(const char *what, dg_status st, const dg_diag *diag)
{
    fprintf(stderr, "analysis_demo: %s: %s (%s)\n", what, dg_status_str(st), diag->message);
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 7;
    const char *dir = argc > 2 ? argv[2] : ".";
    static uint8_t cells[W * H];
    static int32_t dist[W * H];
    static uint8_t seen[W * H];
    static dg_point path[W * H];
    static picture pic;
    dg_grid grid;
    dg_diag diag;
    dg_attach_params params;
    dg_attach_defaults(&params);
    params.loop_min_gain = 12; /* a few loops make the distance map interesting */
    params.room_max_w = 15;    /* and a large room shows pillar shadows */
    params.room_max_h = 11;
    dg_status st = dg_grid_init(&grid, cells, W, H, 0);
    dg_result result;
    dg_result_init(&result, NULL);
    if (st == DG_OK)
        st = dg_attach_generate(&grid, &params, seed, &result, NULL, &diag);
    if (st != DG_OK)
        return fail("generate", st, &diag);

    /* Stairs and spawns, then the walking distance from the start. */
    dg_place_params place;
    dg_place_defaults(&place);
    place.spawn_count = SPAWNS;
    dg_placement where;
    dg_point spawns[SPAWNS];
    if ((st = dg_place(&grid, &place, seed, NULL, &where, spawns, SPAWNS, NULL, &diag)) != DG_OK)
        return fail("place", st, &diag);
    dg_distance_info info;
    st = dg_distance_map(&grid, NULL, &where.start, 1, 0, dist, W * H, NULL, &info, &diag);
    if (st != DG_OK)
        return fail("distance map", st, &diag);
    int32_t length = 0;
    st = dg_path_find(&grid, NULL, where.start, where.exit, NULL, path, W * H, &length, NULL,
                      &diag);
    if (st != DG_OK)
        return fail("path", st, &diag);

    pic.cols = W;
    pic.rows = H;
    pic.scale = SCALE;
    dg_render_rgba(&grid, NULL, SCALE, pic.px, sizeof pic.px);
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            if (dist[y * W + x] != DG_UNREACHABLE)
                fill_cell(&pic, x, y, heat(dist[y * W + x], info.max_distance), 0);
    for (int32_t k = 0; k < length; k++)
        fill_cell(&pic, path[k].x, path[k].y, 0xFFFFFFFFu, 3);
    for (int32_t k = 0; k < SPAWNS; k++)
        fill_cell(&pic, spawns[k].x, spawns[k].y, 0x000000FFu, 2);
    fill_cell(&pic, where.start.x, where.start.y, 0xFFFFFFFFu, 1);
    fill_cell(&pic, where.exit.x, where.exit.y, 0xFF00FFFFu, 1);
    if (!write_png(dir, "analysis-distance.png", &pic))
        return 1;
    printf("start (%d,%d) exit (%d,%d): %d steps; %d cells reached, farthest %d steps\n",
           (int)where.start.x, (int)where.start.y, (int)where.exit.x, (int)where.exit.y,
           (int)where.distance, (int)info.reached, (int)info.max_distance);

    /* Field of view from inside the largest room, with pillars added to it so
     * that their shadows show: lit floor in a warm light, lit walls and
     * pillars in their colour, the rest dimmed. */
    dg_rect hall = {0, 0, 0, 0};
    for (int32_t k = 0; k < result.room_count; k++)
        if (result.rooms[k].rect.w * result.rooms[k].rect.h > hall.w * hall.h)
            hall = result.rooms[k].rect;
    for (int32_t y = hall.y + 2; y < hall.y + hall.h - 1; y += 3)
        for (int32_t x = hall.x + 2; x < hall.x + hall.w - 1; x += 3)
            dg_grid_set(&grid, x, y, DG_TILE_OBSTACLE);
    dg_point eye = {hall.x, hall.y + hall.h / 2};
    memset(seen, 0, sizeof seen); /* dg_fov writes only its box */
    if ((st = dg_fov(&grid, NULL, eye, FOV_RADIUS, seen, W * H, NULL, &diag)) != DG_OK)
        return fail("fov", st, &diag);
    int32_t x0 = eye.x - ZOOM_W / 3, y0 = eye.y - ZOOM_H / 2;
    x0 = x0 < 0 ? 0 : x0 + ZOOM_W > W ? W - ZOOM_W : x0;
    y0 = y0 < 0 ? 0 : y0 + ZOOM_H > H ? H - ZOOM_H : y0;
    pic.cols = ZOOM_W;
    pic.rows = ZOOM_H;
    pic.scale = ZOOM;
    for (int32_t y = 0; y < ZOOM_H; y++)
        for (int32_t x = 0; x < ZOOM_W; x++)
        {
            uint8_t t = cells[(y0 + y) * W + x0 + x];
            uint32_t c = dg_tile_color(t);
            if (!seen[(y0 + y) * W + x0 + x])
                c = dim(c);
            else if (dg_tile_transparent(t))
                c = 0xF2DC9CFFu;
            fill_cell(&pic, x, y, c, 0);
        }
    fill_cell(&pic, eye.x - x0, eye.y - y0, 0xD03020FFu, 3);
    dg_result_free(&result);
    return write_png(dir, "analysis-fov.png", &pic) ? 0 : 1;
}
