/* The smallest embedding: generate an 80x25 dungeon into your own buffer and
 * print it. Uses only the public header. */
#include <dungeon.h>
#include <stdio.h>

int main(void)
{
    static uint8_t cells[80 * 25];
    static char text[81 * 25 + 1];
    dg_grid grid;
    dg_attach_params params;
    dg_diag diag;

    dg_grid_init(&grid, cells, 80, 25, 0);
    dg_attach_defaults(&params);
    dg_status st = dg_attach_generate(&grid, &params, 2026, NULL, NULL, &diag);
    if (st != DG_OK) {
        fprintf(stderr, "attach: %s: %s\n", dg_status_str(st), diag.message);
        return 1;
    }
    dg_render_ascii(&grid, NULL, text, sizeof text, NULL);
    fputs(text, stdout);
    return 0;
}
