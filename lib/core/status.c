/* Version, status names and diagnostics. */
#include "core/core.h"

#include <stdio.h>

const char *dg_version(void)
{
    return DGI_STR(DG_VERSION_MAJOR) "." DGI_STR(DG_VERSION_MINOR) "." DGI_STR(DG_VERSION_PATCH);
}

int32_t dg_version_number(void)
{
    return DG_VERSION_NUMBER;
}

const char *dg_status_str(dg_status status)
{
    switch (status)
    {
    case DG_OK: return "ok";
    case DG_E_INVALID: return "invalid parameter";
    case DG_E_NULL: return "required pointer is NULL";
    case DG_E_NOMEM: return "out of memory";
    case DG_E_TOO_SMALL: return "grid too small";
    case DG_E_TOO_LARGE: return "size over limit";
    case DG_E_NOSPACE: return "not enough space to place";
    case DG_E_PARSE: return "parse error";
    case DG_E_NOPATH: return "no path";
    case DG_E_BUFFER: return "buffer too small";
    case DG_E_LIMIT: return "work limit reached";
    default: return "unknown status";
    }
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(DGI_PRINTF_FORMAT, 5, 0)))
#endif
static void diag_vset(dg_diag *diag, dg_status status, int32_t line, int32_t column,
                      const char *fmt, va_list ap)
{
    diag->status = status;
    diag->line = line;
    diag->column = column;
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
}

dg_status (dgi_fail)(dg_diag *diag, dg_status status, const char *fmt, ...)
{
    if (diag)
    {
        va_list ap;
        va_start(ap, fmt);
        diag_vset(diag, status, 0, 0, fmt, ap);
        va_end(ap);
    }
    return status;
}

dg_status (dgi_fail_at)(dg_diag *diag, dg_status status, int32_t line, int32_t column,
                      const char *fmt, ...)
{
    if (diag)
    {
        va_list ap;
        va_start(ap, fmt);
        diag_vset(diag, status, line, column, fmt, ap);
        va_end(ap);
    }
    return status;
}

void dgi_diag_ok(dg_diag *diag)
{
    if (diag)
    {
        diag->status = DG_OK;
        diag->line = 0;
        diag->column = 0;
        diag->message[0] = '\0';
    }
}

dg_status dgi_spare_check_n(const int32_t *spare, int32_t count, const char *what, dg_diag *diag)
{
    for (int32_t i = 0; i < count; i++)
        if (spare[i] != 0)
            return dgi_fail(diag, DG_E_INVALID,
                            "%s spare[%d] is %d: spare slots must be 0 (a later libdungeon's "
                            "field, or the struct was not filled by its defaults function)",
                            what, i, (int)spare[i]);
    return DG_OK;
}
