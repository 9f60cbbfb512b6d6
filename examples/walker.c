/* walker: explore the infinite world of libdungeon like a player would.
 *
 *   walker [--seed N] (--moves NNESW... | --steps N [--walk-seed S])
 *          [--loops PERMILLE] [--fix PERMILLE] [--room-size N] [--prefabs FILE]
 *          [--ascii auto|tiles|rooms|none] [-o FILE.png] [--scale N]
 *
 * The player starts in room (0, 0) and either follows a path of moves (one
 * letter N, E, S or W per room; a move into a wall is reported and skipped)
 * or walks at random through the doors. The explored rooms are printed as
 * ASCII (tiles, or one character per room when the map is wide) and written
 * as a PNG in which rooms seen through a door but never entered are dimmed.
 * Uses only the public header; PNG through stb_image_write. */
#include <dungeon.h>
#include <stb_image_write.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PNG_SIDE 4096

typedef struct options {
    uint64_t seed, walk_seed;
    const char *moves;
    int64_t steps;
    int32_t loops, fix, room_size;
    const char *prefabs, *ascii, *png;
    int32_t scale;
} options;

typedef struct box {
    int64_t x0, y0, x1, y1; /* rooms, inclusive */
} box;

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "walker: %s\n", why);
    fprintf(stderr,
            "usage: walker [--seed N] (--moves NNESW... | --steps N [--walk-seed S])\n"
            "              [--loops PERMILLE] [--fix PERMILLE] [--room-size N] [--prefabs FILE]\n"
            "              [--ascii auto|tiles|rooms|none] [-o FILE.png] [--scale N]\n");
    return 2;
}

static int parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->walk_seed = 1;
    o->steps = -1;
    o->loops = 100;
    o->fix = 500;
    o->room_size = 9;
    o->ascii = "auto";
    o->scale = 4;
    for (int i = 1; i < argc; i++)
    {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n = 0;
        if (!v)
            return usage("every option takes a value");
        i++;
        if (!strcmp(a, "--seed") && parse_int(v, 0, INT64_MAX, &n))
            o->seed = (uint64_t)n;
        else if (!strcmp(a, "--walk-seed") && parse_int(v, 0, INT64_MAX, &n))
            o->walk_seed = (uint64_t)n;
        else if (!strcmp(a, "--steps") && parse_int(v, 0, 100000000, &n))
            o->steps = n;
        else if (!strcmp(a, "--moves"))
            o->moves = v;
        else if (!strcmp(a, "--loops") && parse_int(v, 0, 1000, &n))
            o->loops = (int32_t)n;
        else if (!strcmp(a, "--fix") && parse_int(v, 0, 1000, &n))
            o->fix = (int32_t)n;
        else if (!strcmp(a, "--room-size") && parse_int(v, 3, 125, &n))
            o->room_size = (int32_t)n;
        else if (!strcmp(a, "--scale") && parse_int(v, 1, 32, &n))
            o->scale = (int32_t)n;
        else if (!strcmp(a, "--prefabs"))
            o->prefabs = v;
        else if (!strcmp(a, "--ascii"))
            o->ascii = v;
        else if (!strcmp(a, "-o"))
            o->png = v;
        else
        {
            fprintf(stderr, "walker: bad option or value: %s %s\n", a, v);
            return usage(NULL);
        }
    }
    if ((o->moves != NULL) == (o->steps >= 0))
        return usage("give exactly one of --moves and --steps");
    if (strcmp(o->ascii, "auto") && strcmp(o->ascii, "tiles") && strcmp(o->ascii, "rooms") &&
        strcmp(o->ascii, "none"))
        return usage("--ascii takes auto, tiles, rooms or none");
    return 0;
}

/* ---- walking ------------------------------------------------------------------- */

static int side_of_move(char c)
{
    switch (c)
    {
    case 'N': case 'n': return DG_SIDE_N;
    case 'E': case 'e': return DG_SIDE_E;
    case 'S': case 's': return DG_SIDE_S;
    case 'W': case 'w': return DG_SIDE_W;
    default: return 0;
    }
}

static void step(int32_t side, int64_t *x, int64_t *y)
{
    *x += side == DG_SIDE_E ? 1 : side == DG_SIDE_W ? -1 : 0;
    *y += side == DG_SIDE_S ? 1 : side == DG_SIDE_N ? -1 : 0;
}

static void grow_box(box *b, int64_t x, int64_t y)
{
    if (x < b->x0) b->x0 = x;
    if (x > b->x1) b->x1 = x;
    if (y < b->y0) b->y0 = y;
    if (y > b->y1) b->y1 = y;
}

/* Enters (x, y) and widens the box by what the entry reveals. */
static int enter(dg_explorer *e, int64_t x, int64_t y, box *b, int64_t *new_seen)
{
    dg_enter_result r;
    dg_status st = dg_explorer_enter(e, x, y, &r);
    if (st != DG_OK)
    {
        fprintf(stderr, "walker: enter (%" PRId64 ", %" PRId64 "): %s\n", x, y, dg_status_str(st));
        return 0;
    }
    grow_box(b, x, y);
    for (int32_t i = 0; i < r.revealed_count; i++)
    {
        grow_box(b, r.revealed[i].x, r.revealed[i].y);
        *new_seen += r.revealed[i].is_new;
    }
    return 1;
}

/* Follows the moves or walks at random; (x, y) ends on the player's room. */
static int walk(const options *o, const dg_world *w, dg_explorer *e, int64_t *x, int64_t *y,
                box *b, int64_t *new_seen)
{
    *x = *y = 0;
    if (!enter(e, 0, 0, b, new_seen))
        return 0;
    dg_rng rng;
    dg_rng_seed(&rng, o->walk_seed, 0);
    int64_t n = o->moves ? (int64_t)strlen(o->moves) : o->steps;
    for (int64_t i = 0; i < n; i++)
    {
        dg_world_room room;
        dg_world_room_info(w, *x, *y, &room);
        int32_t side;
        if (o->moves)
        {
            side = side_of_move(o->moves[i]);
            if (!side)
            {
                fprintf(stderr, "walker: move %" PRId64 " '%c' is not N, E, S or W\n", i + 1,
                        o->moves[i]);
                return 0;
            }
            if (!(room.doors & side))
            {
                fprintf(stderr, "walker: move %" PRId64 " '%c': no door that way in room (%" PRId64
                                ", %" PRId64 "), skipped\n",
                        i + 1, o->moves[i], *x, *y);
                continue;
            }
        }
        else
        {
            int32_t sides[4], count = 0;
            for (int32_t s = DG_SIDE_N; s <= DG_SIDE_W; s <<= 1)
                if (room.doors & s)
                    sides[count++] = s;
            side = sides[dg_rng_below(&rng, (uint32_t)count)];
        }
        step(side, x, y);
        if (!enter(e, *x, *y, b, new_seen))
            return 0;
    }
    return 1;
}

/* ---- drawing ------------------------------------------------------------------------- */

typedef struct map {
    const dg_world *world;
    const dg_explorer *explorer;
    box rooms;
    int32_t period, width, height; /* tiles of the box, closing walls included */
    uint8_t *tiles;
    dg_world_marker *markers;
    int32_t marker_count;
} map;

static int32_t status_at_tile(const map *m, int32_t tx, int32_t ty)
{
    int64_t rx = m->rooms.x0 + tx / m->period, ry = m->rooms.y0 + ty / m->period;
    int32_t s = dg_explorer_status(m->explorer, rx, ry);
    /* the closing east and south walls belong to the rooms beyond: show them with their room */
    if (tx % m->period == 0 && tx > 0)
        s = s > dg_explorer_status(m->explorer, rx - 1, ry) ? s : dg_explorer_status(m->explorer, rx - 1, ry);
    if (ty % m->period == 0 && ty > 0)
    {
        int32_t up = dg_explorer_status(m->explorer, rx, ry - 1);
        s = s > up ? s : up;
        if (tx % m->period == 0 && tx > 0)
        {
            int32_t diag = dg_explorer_status(m->explorer, rx - 1, ry - 1);
            s = s > diag ? s : diag;
        }
    }
    return s;
}

static int render_map(map *m)
{
    int64_t cols = m->rooms.x1 - m->rooms.x0 + 1, rows = m->rooms.y1 - m->rooms.y0 + 1;
    if (cols * m->period + 1 > 32768 || rows * m->period + 1 > 32768)
    {
        fprintf(stderr, "walker: the explored region is too large to draw\n");
        return 0;
    }
    m->width = (int32_t)(cols * m->period + 1);
    m->height = (int32_t)(rows * m->period + 1);
    m->tiles = malloc((size_t)m->width * (size_t)m->height);
    dg_grid g;
    dg_diag diag;
    int32_t count = 0;
    if (!m->tiles || dg_grid_init(&g, m->tiles, m->width, m->height, 0) != DG_OK)
        return 0;
    int64_t tx = m->rooms.x0 * m->period, ty = m->rooms.y0 * m->period;
    if (dg_world_render(m->world, tx, ty, &g, NULL, 0, &count, &diag) != DG_OK)
    {
        fprintf(stderr, "walker: %s\n", diag.message);
        return 0;
    }
    m->markers = calloc((size_t)count + 1, sizeof *m->markers);
    if (!m->markers || dg_world_render(m->world, tx, ty, &g, m->markers, count, &m->marker_count,
                                       &diag) != DG_OK)
        return 0;
    /* marker tile positions relative to the box */
    for (int32_t i = 0; i < m->marker_count; i++)
    {
        m->markers[i].x -= tx;
        m->markers[i].y -= ty;
    }
    return 1;
}

/* Glyph of a tile, or of the marker standing on it, for the ASCII map. */
static char tile_glyph(const map *m, int32_t x, int32_t y, int64_t px, int64_t py)
{
    int32_t s = status_at_tile(m, x, y);
    if (s == DG_EXPLORE_UNSEEN)
        return ' ';
    int32_t mid = m->period / 2;
    if (x == px * m->period + mid && y == py * m->period + mid)
        return '@';
    int on_walls = x % m->period == 0 || y % m->period == 0;
    if (s == DG_EXPLORE_SEEN && !on_walls)
        return ':'; /* the inside of a room seen through a door is not known yet */
    return dg_tile_glyph(m->tiles[(size_t)y * (size_t)m->width + (size_t)x]);
}

/* Actors by the first letter of their name, items as '$'; traps keep their tile. */
static char marker_glyph(const dg_world_marker *k)
{
    if (k->kind == DG_MARKER_ACTOR && k->name[0])
        return k->name[0];
    return k->kind == DG_MARKER_TRAP ? '^' : k->kind == DG_MARKER_ITEM ? '$' : '*';
}

static void print_tiles(const map *m, int64_t px, int64_t py)
{
    char *line = malloc((size_t)m->width + 2);
    if (!line)
        return;
    int32_t next_marker = 0;
    for (int32_t y = 0; y < m->height; y++)
    {
        for (int32_t x = 0; x < m->width; x++)
            line[x] = tile_glyph(m, x, y, px, py);
        /* markers are sorted by tile: overlay this row's, in explored rooms only */
        for (; next_marker < m->marker_count && m->markers[next_marker].y == y; next_marker++)
        {
            const dg_world_marker *k = &m->markers[next_marker];
            if (status_at_tile(m, (int32_t)k->x, y) == DG_EXPLORE_VISITED && line[k->x] != '@')
                line[k->x] = marker_glyph(k);
        }
        int32_t end = m->width;
        while (end > 0 && line[end - 1] == ' ')
            end--;
        line[end] = '\0';
        puts(line);
    }
    free(line);
}

/* 1 if the door on `side` of room (x, y) is known: it exists and either room
 * it joins was entered. */
static int known_door(const map *m, int64_t x, int64_t y, int32_t side)
{
    dg_world_room r;
    if (dg_world_room_info(m->world, x, y, &r) != DG_OK || !(r.doors & side))
        return 0;
    int64_t nx = x, ny = y;
    step(side, &nx, &ny);
    return dg_explorer_status(m->explorer, x, y) == DG_EXPLORE_VISITED ||
           dg_explorer_status(m->explorer, nx, ny) == DG_EXPLORE_VISITED;
}

/* One character per room: O origin, @ player, # explored, + seen; '-' and
 * '|' for known doors between them. */
static void print_rooms(const map *m, int64_t px, int64_t py)
{
    int64_t cols = m->rooms.x1 - m->rooms.x0 + 1, rows = m->rooms.y1 - m->rooms.y0 + 1;
    char *line = malloc((size_t)(2 * cols + 1));
    if (!line)
        return;
    for (int64_t j = 0; j < rows; j++)
        for (int half = 0; half < 2; half++)
        {
            memset(line, ' ', (size_t)(2 * cols));
            for (int64_t i = 0; i < cols; i++)
            {
                int64_t x = m->rooms.x0 + i, y = m->rooms.y0 + j;
                int32_t s = dg_explorer_status(m->explorer, x, y);
                if (half == 1)
                    line[2 * i] = known_door(m, x, y, DG_SIDE_S) ? '|' : ' ';
                else if (s != DG_EXPLORE_UNSEEN)
                {
                    line[2 * i] = (i == px && j == py)  ? '@'
                                  : (x == 0 && y == 0)  ? 'O'
                                  : s == DG_EXPLORE_VISITED ? '#' : '+';
                    line[2 * i + 1] = known_door(m, x, y, DG_SIDE_E) ? '-' : ' ';
                }
            }
            int64_t end = 2 * cols;
            while (end > 0 && line[end - 1] == ' ')
                end--;
            line[end] = '\0';
            if (end > 0 || half == 0)
                puts(line);
        }
    free(line);
}

/* Colour of a tile: the library palette, dimmed in rooms only seen. */
static uint32_t pixel_color(const map *m, int32_t x, int32_t y, int64_t px, int64_t py)
{
    int32_t s = status_at_tile(m, x, y);
    if (s == DG_EXPLORE_UNSEEN)
        return 0x000000FFu;
    int32_t mid = m->period / 2;
    if (s == DG_EXPLORE_VISITED && x == px * m->period + mid && y == py * m->period + mid)
        return 0xFFFFFFFFu;
    uint32_t c = dg_tile_color(m->tiles[(size_t)y * (size_t)m->width + (size_t)x]);
    if (s == DG_EXPLORE_SEEN)
    {
        uint32_t r = (c >> 24) * 2 / 7, g = ((c >> 16) & 0xFF) * 2 / 7, b = ((c >> 8) & 0xFF) * 2 / 7;
        c = r << 24 | g << 16 | b << 8 | 0xFFu;
    }
    return c;
}

static void put_pixel(uint8_t *rgba, int32_t stride, int32_t scale, int32_t x, int32_t y,
                      uint32_t c)
{
    for (int32_t dy = 0; dy < scale; dy++)
        for (int32_t dx = 0; dx < scale; dx++)
        {
            uint8_t *p = rgba + (size_t)(y * scale + dy) * (size_t)stride + (size_t)(x * scale + dx) * 4;
            p[0] = (uint8_t)(c >> 24);
            p[1] = (uint8_t)(c >> 16);
            p[2] = (uint8_t)(c >> 8);
            p[3] = (uint8_t)c;
        }
}

static int write_png(const map *m, const char *path, int32_t scale, int64_t px, int64_t py)
{
    while (scale > 1 && ((int64_t)m->width * scale > MAX_PNG_SIDE ||
                         (int64_t)m->height * scale > MAX_PNG_SIDE))
        scale--;
    int32_t w = m->width * scale, h = m->height * scale, stride = w * 4;
    uint8_t *rgba = malloc((size_t)stride * (size_t)h);
    if (!rgba)
        return 0;
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            put_pixel(rgba, stride, scale, x, y, pixel_color(m, x, y, px, py));
    for (int32_t i = 0; i < m->marker_count; i++)
    {
        const dg_world_marker *k = &m->markers[i];
        if (k->kind != DG_MARKER_TRAP &&
            status_at_tile(m, (int32_t)k->x, (int32_t)k->y) == DG_EXPLORE_VISITED)
            put_pixel(rgba, stride, scale, (int32_t)k->x, (int32_t)k->y,
                      k->kind == DG_MARKER_ACTOR ? 0xE03030FFu : 0xF0C020FFu);
    }
    int ok = stbi_write_png(path, w, h, 4, rgba, stride) != 0;
    free(rgba);
    if (!ok)
        fprintf(stderr, "walker: cannot write %s\n", path);
    return ok;
}

/* ---- main ------------------------------------------------------------------------------ */

static int explore(const options *o, const dg_world *w)
{
    dg_explorer *e = NULL;
    if (dg_explorer_create(w, NULL, &e) != DG_OK)
        return 1;
    box b = {0, 0, 0, 0};
    int64_t x, y, new_seen = 0;
    map m;
    memset(&m, 0, sizeof m);
    int ok = walk(o, w, e, &x, &y, &b, &new_seen);
    if (ok)
    {
        dg_world_room here;
        dg_world_room_info(w, x, y, &here);
        printf("explored %" PRId64 " rooms, %" PRId64 " seen; player in room (%" PRId64
               ", %" PRId64 "), %" PRId64 " rooms from the start, difficulty %d\n",
               dg_explorer_count(e), new_seen + 1, x, y, here.distance, (int)here.difficulty);
        m.world = w;
        m.explorer = e;
        m.rooms = b;
        m.period = dg_world_period(w);
        ok = render_map(&m);
    }
    if (ok)
    {
        int wide = m.width > 160;
        if (!strcmp(o->ascii, "tiles") || (!strcmp(o->ascii, "auto") && !wide))
            print_tiles(&m, x - b.x0, y - b.y0);
        else if (strcmp(o->ascii, "none"))
            print_rooms(&m, x - b.x0, y - b.y0);
        if (o->png && write_png(&m, o->png, o->scale, x - b.x0, y - b.y0))
            printf("wrote %s\n", o->png);
        else if (o->png)
            ok = 0;
    }
    free(m.tiles);
    free(m.markers);
    dg_explorer_free(e);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    options o;
    int bad = parse_options(argc, argv, &o);
    if (bad)
        return bad;
    dg_diag diag;
    dg_prefab_set *set = NULL;
    if (o.prefabs && dg_prefab_load(o.prefabs, NULL, NULL, NULL, &set, &diag) != DG_OK)
    {
        fprintf(stderr, "walker: %s\n", diag.message);
        return 1;
    }
    dg_world_params p;
    dg_world_defaults(&p);
    p.room_size = o.room_size;
    p.room_min = o.room_size; /* full rooms: the box drawing below assumes shared walls */
    p.loop_permille = o.loops;
    p.dead_end_fix = o.fix;
    p.furnishing = set;
    dg_world *w = NULL;
    int rc = 1;
    if (dg_world_create(&p, o.seed, NULL, &w, &diag) != DG_OK)
        fprintf(stderr, "walker: %s\n", diag.message);
    else
        rc = explore(&o, w);
    dg_world_free(w);
    dg_prefab_set_free(set);
    return rc;
}
