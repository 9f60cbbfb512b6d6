#!/bin/sh
# abi.sh [--check | --baseline] BUILD: the ABI promise of docs/abi.md.
#
#   sh tests/abi.sh BUILD             the check, then the proofs that it catches
#                                     breaks (what `make check` runs)
#   sh tests/abi.sh --check BUILD     the check alone (make abi-check)
#   sh tests/abi.sh --baseline BUILD  writes abi/SONAME.abi from BUILD's library
#                                     and removes other baselines (make abi-baseline)
#
# The check: the library BUILD/libdungeon.so.VERSION (built with -g) against the
# committed baseline abi/SONAME.abi with libabigail's abidiff. A soname other
# than the baseline's fails (an intended break regenerates the baseline with the
# soname in the same commit); an incompatible change under the same soname fails;
# compatible additions pass, and so does a new field in a growable struct's
# first spare slot. The proofs build variants of the library (a struct that
# grows, two fields swapped, a function removed, a function added, a field in
# a spare slot) and assert what the check says of each, and a probe program
# asserts that nonzero spare slots are refused and that the _defaults
# functions leave them 0.
# Ends with "N passed, N failed".
mode=all
case "$1" in
--check) mode=check; shift ;;
--baseline) mode=baseline; shift ;;
esac
B=${1:-build}
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "   ok: $1"; }
bad() { failed=$((failed + 1)); echo "   FAIL: $1"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?; }

if ! command -v abidiff >/dev/null || ! command -v abidw >/dev/null; then
    sh tests/need.sh abigail-tools abidiff || { bad "abidiff (Debian abigail-tools) is missing"; finish; }
fi

# The soname rule of the Makefile: libdungeon.so.0.MINOR while the major is 0, else .MAJOR.
ver() { sed -n "s/^#define DG_VERSION_$1 \([0-9]*\)/\1/p" include/dungeon.h; }
major=$(ver MAJOR)
minor=$(ver MINOR)
version=$major.$minor.$(ver PATCH)
if [ "$major" = 0 ]; then soname=libdungeon.so.0.$minor; else soname=libdungeon.so.$major; fi
lib=$B/libdungeon.so.$version

# Only types of the public header count; no paths or line numbers, so the
# baseline is the same from any checkout and does not move with comments.
ABIDW_FLAGS="--no-corpus-path --no-comp-dir-path --no-show-locs --drop-private-types"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$lib" ]; then
    bad "$lib is missing: run make lib first"
    finish
fi
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
    bad "$lib has no debug information: the ABI check needs a library built with -g (the default CFLAGS)"
    finish
fi
lib_soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')

if [ "$mode" = baseline ]; then
    mkdir -p abi
    if abidw $ABIDW_FLAGS --headers-dir include --out-file "$tmp/new.abi" "$lib"; then
        for old in abi/*.abi; do [ "$old" = "abi/$lib_soname.abi" ] || rm -f "$old"; done
        mv "$tmp/new.abi" "abi/$lib_soname.abi"
        ok "wrote abi/$lib_soname.abi ($(wc -c <"abi/$lib_soname.abi") bytes); commit it with the soname"
    else
        bad "abidw failed on $lib"
    fi
    finish
fi

set -- abi/*.abi
if [ "$#" != 1 ] || [ ! -f "$1" ]; then
    bad "abi/ must hold exactly one baseline (found: $*): run make abi-baseline"
    finish
fi
baseline=$1
base_soname=$(sed -n "1s/.* soname='\([^']*\)'.*/\1/p" "$baseline")

# 0 if every change in abidiff's report is a growable struct's new int32_t
# field taking its first spare slot (docs/abi.md): the member inserted where
# spare began, spare one shorter, the size unchanged. Any other line (a size
# change, a moved or retyped member, a deletion) makes it 1.
spare_slots_only() {
    awk '
    { sub(/^ +/, "") }
    /^$/ || /^(Functions|Variables) changes summary: 0 Removed,/ { next }
    /^[0-9]+ functions? with some indirect sub-type changes?:$/ { next }
    /^[0-9]+ Added (functions?|variables?):$/ || /^\[A\] .(function|variable) .*.$/ { next }
    /^\[C\] .function .* has some indirect sub-type changes:$/ { next }
    /^parameter [0-9]+ of type .* has sub-type changes:$/ { next }
    /^in pointed to type .*:$/ || /^underlying type .struct dg_[a-z_]+. changed:$/ { next }
    /^in unqualified underlying type .typedef dg_[a-z_]+.:$/ { next } # through a const pointer
    /^type size hasn.t changed$/ || /^[0-9]+ data member (insertion|change)s?:$/ { next }
    /^.int32_t [a-z_0-9]+., at offset [0-9]+ \(in bits\)$/ { inserted++; next }
    /^type of .dg_[a-z_]+ [a-z_]+. changed:$/ { next }
    /^type of .int32_t spare\[[0-9]+\]. changed:$/ { next }
    /^type name changed from .int32_t\[[0-9]+\]. to .int32_t\[[0-9]+\].$/ { next }
    /^array type size changed from [0-9]+ to [0-9]+$/ { next }
    /^array type subrange 1 changed length from [0-9]+ to [0-9]+$/ { next }
    /^and offset changed from [0-9]+ to [0-9]+ \(in bits\) \(by \+[0-9]+ bits\)$/ { next }
    /^.int32_t spare\[[0-9]+\]. offset changed from [0-9]+ to [0-9]+ \(in bits\) \(by \+[0-9]+ bits\), size changed from [0-9]+ to [0-9]+ \(in bits\) \(by -[0-9]+ bits\)$/ { next }
    { other = 1; print "not a spare slot: " $0 }
    END { exit other || !inserted }' "$1"
}

# compare LIB NAME [HEADERS]: 0 compatible (same soname, no incompatible change), 1 an
# incompatible change, 2 another soname, 3 abidiff could not compare. The report
# is left in $tmp/NAME.txt.
compare() {
    s=$(readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    if [ "$s" != "$base_soname" ]; then
        echo "soname $s differs from the baseline's $base_soname" >"$tmp/$2.txt"
        return 2
    fi
    abidw $ABIDW_FLAGS --headers-dir "${3:-include}" --out-file "$tmp/$2.abi" "$1" 2>"$tmp/$2.txt" || return 3
    abidiff --no-show-locs "$baseline" "$tmp/$2.abi" >"$tmp/$2.txt" 2>&1
    rc=$?
    [ $((rc & 3)) = 0 ] || return 3
    [ $((rc & 8)) = 0 ] || return 1
    # abidiff calls only removals incompatible (8); a changed type (a struct
    # that grew, a field that moved, a changed signature or enum value) is a
    # change (4) like an addition. The promise allows additions only: any
    # function or variable removed or changed is a break.
    if [ $((rc & 4)) != 0 ] && ! awk '/changes summary:/ {
            if ($0 !~ /: 0 Removed,/ || ($0 ~ /Changed/ && $0 !~ /, 0 Changed/)) bad = 1 }
            END { exit bad }' "$tmp/$2.txt" && ! spare_slots_only "$tmp/$2.txt" >"$tmp/$2.why"; then
        return 1
    fi
    return 0
}

echo "-- $lib ($lib_soname) against $baseline"
compare "$lib" built
case $? in
0)
    if [ -s "$tmp/built.txt" ] && grep -q 'changes\|added' "$tmp/built.txt"; then
        ok "compatible with $baseline (additions since it was made: regenerate it at release with make abi-baseline)"
        sed -n '1,20s/^/      /p' "$tmp/built.txt"
    else
        ok "the same ABI as $baseline"
    fi ;;
1)
    bad "an incompatible ABI change under the soname $lib_soname (docs/abi.md): keep the old layout, or make it an intended break (the next soname and make abi-baseline in the same commit)"
    sed -n '1,60s/^/      /p' "$tmp/built.txt" ;;
2)
    bad "the library's soname $lib_soname is not the baseline's $base_soname: an intended break regenerates the baseline with that soname (make abi-baseline) in the same commit" ;;
*)
    bad "abidw/abidiff could not compare $lib with $baseline"
    sed -n '1,20s/^/      /p' "$tmp/built.txt" ;;
esac
[ "$mode" = check ] && finish
[ "$lib_soname" = "$base_soname" ] || finish

# ---- proofs: the check catches breaks and lets additions through ------------------------
# Variants are linked with the baseline's soname. The removed and the added
# function reuse the library's own objects; each struct variant compiles the
# library once more from a copy of the sources (-O0 -g: a few seconds of CPU).
objs=$(find "$B/obj" -name '*.o' | sort)
if [ -z "$objs" ]; then
    bad "no objects under $B/obj to build the variants from"
    finish
fi
link() { # OUT EXTRA-FLAGS OBJECTS...
    out=$1
    shift
    flags=$1
    shift
    # shellcheck disable=SC2086
    ${CC:-cc} -shared -Wl,-soname,"$base_soname" $flags -o "$out" "$@"
}
expect() { # NAME WANTED-STATUS WHAT [HEADERS]
    compare "$tmp/$1.so" "$1" "$4"
    got=$?
    if [ "$got" = "$2" ]; then
        ok "$3"
    else
        bad "$3 (compare said $got, wanted $2)"
        sed -n '1,30s/^/      /p' "$tmp/$1.txt"
    fi
}

# a removed function: dg_orient_inverse no longer exported
printf '{ global: *; local: dg_orient_inverse; };\n' >"$tmp/removed.map"
# shellcheck disable=SC2086
if link "$tmp/removed.so" "-Wl,--version-script,$tmp/removed.map" $objs; then
    expect removed 1 "a removed function (dg_orient_inverse) is an incompatible change"
    grep -q 'dg_orient_inverse' "$tmp/removed.txt" || bad "the report of the removed function does not name it"
else
    bad "cannot link the removed-function variant"
fi

# an added function: compatible
printf '#include "dungeon.h"\nDG_API int32_t dg_abi_probe_added(void);\nint32_t dg_abi_probe_added(void) { return 7; }\n' >"$tmp/added.c"
# shellcheck disable=SC2086
if ${CC:-cc} -std=c11 -O0 -g -fPIC -fvisibility=hidden -Iinclude -c "$tmp/added.c" -o "$tmp/added.o" &&
    link "$tmp/added.so" "" $objs "$tmp/added.o"; then
    expect added 0 "an added function (dg_abi_probe_added) is a compatible change"
    grep -q 'dg_abi_probe_added' "$tmp/added.txt" || bad "the report of the added function does not name it"
else
    bad "cannot build the added-function variant"
fi

# struct variants: a copy of include/ and lib/ with one edit of the header
variant() { # NAME SED-SCRIPT WHAT [WANTED-STATUS, default 1: incompatible]
    mkdir -p "$tmp/$1/include" "$tmp/$1/obj"
    cp -R lib "$tmp/$1/lib"
    sed "$2" include/dungeon.h >"$tmp/$1/include/dungeon.h"
    if cmp -s include/dungeon.h "$tmp/$1/include/dungeon.h"; then
        bad "$3: the edit did not apply to the header"
        return
    fi
    # relative paths from the copy's root, as the real build's
    if ! (cd "$tmp/$1" && for c in lib/*/*.c; do
        o="obj/$(basename "$(dirname "$c")")_$(basename "$c" .c).o"
        ${CC:-cc} -std=c11 -O0 -g -fPIC -fvisibility=hidden -DDG_SHARED_BUILD -Iinclude -Ilib \
            -c "$c" -o "$o" || exit 1
    done); then
        bad "$3: the variant does not build"
        return
    fi
    link "$tmp/$1.so" "" "$tmp/$1"/obj/*.o || { bad "$3: cannot link"; return; }
    if [ "${4:-1}" = 1 ]; then
        expect "$1" 1 "$3 is an incompatible change" "$tmp/$1/include"
    else
        expect "$1" "$4" "$3 is a compatible change" "$tmp/$1/include"
    fi
}
variant grown '/^} dg_room;/i\
    int32_t abi_probe_grown;' "dg_room grown by a field (36 -> 40 bytes)"
# the swap also takes a spare slot, so the slot rule cannot let the swap through
variant swapped '/^typedef struct dg_attach_params {/,/^} dg_attach_params;/{
s/^    int32_t growth;/    int32_t SWAP_A;/
s/^    int32_t dead_ends;/    int32_t growth;/
s/^    int32_t SWAP_A;/    int32_t dead_ends;/
s/^    int32_t spare\[DG_SPARE_SLOTS\];/    int32_t abi_probe_slot; int32_t spare[DG_SPARE_SLOTS - 1];/
}' "dg_attach_params with growth and dead_ends swapped (and a spare slot used)"
# dg_metrics sits by value in dg_result: the slot is reported through both
variant slot '/^typedef struct dg_metrics {/,/^} dg_metrics;/{
s/^    int32_t spare\[DG_SPARE_SLOTS\];/    int32_t abi_probe_slot; int32_t spare[DG_SPARE_SLOTS - 1];/
}' "dg_metrics with a new field in its first spare slot" 0
grep -q 'dg_room' "$tmp/grown.txt" 2>/dev/null || bad "the report of the grown struct does not name dg_room"
grep -q 'growth\|dead_ends' "$tmp/swapped.txt" 2>/dev/null || bad "the report of the swapped fields does not name them"

# ---- spare slots: refused when nonzero, zeroed by the defaults --------------------------
cat >"$tmp/spare.c" <<'C'
#include "dungeon.h"
#include <stdio.h>
#include <string.h>
static int failed;
#define EXPECT(cond, what) do { if (!(cond)) { failed++; printf("spare: %s\n", what); } } while (0)
/* every slot of a spare array 0 (a struct whose later field took a slot has fewer) */
static int zero_n(const int32_t *s, size_t n) { for (size_t i = 0; i < n; i++) if (s[i]) return 0; return 1; }
#define zero(s) zero_n((s), sizeof (s) / sizeof (s)[0])
/* NAME: a params struct filled with 0xA5 then its defaults, then spare[k] = 1 */
#define GEN(name) do { \
    dg_##name##_params p; memset(&p, 0xA5, sizeof p); dg_##name##_defaults(&p); \
    EXPECT(zero(p.spare), #name " defaults leave spare nonzero"); \
    dg_result r; dg_result_init(&r, NULL); \
    EXPECT(dg_##name##_generate(&g, &p, 1, &r, NULL, NULL) == DG_OK, #name " with defaults"); \
    p.spare[DG_SPARE_SLOTS - 1] = 1; \
    EXPECT(dg_##name##_generate(&g, &p, 1, &r, NULL, &d) == DG_E_INVALID, #name " spare not refused"); \
    EXPECT(strstr(d.message, "spare") != NULL, #name " message does not say spare"); \
    dg_recipe rc; EXPECT(dg_recipe_from_params(&rc, #name, &p, sizeof p, 1, 60, 40, NULL) == DG_E_INVALID, \
                         #name " recipe_from_params spare not refused"); \
    dg_result_free(&r); } while (0)
int main(void)
{
    static uint8_t cells[60 * 40];
    dg_grid g;
    dg_diag d;
    dg_grid_init(&g, cells, 60, 40, 0);
    GEN(attach); GEN(chain); GEN(cave); GEN(bsp); GEN(maze); GEN(walk); GEN(scatter);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_bsp_params bp;
    dg_bsp_defaults(&bp);
    EXPECT(dg_bsp_generate(&g, &bp, 3, &r, NULL, NULL) == DG_OK, "bsp map");
    EXPECT(zero(r.spare) && zero(r.metrics.spare), "result spare nonzero");
    dg_move mv; memset(&mv, 0xA5, sizeof mv); dg_move_defaults(&mv);
    EXPECT(zero(mv.spare), "move defaults");
    static int32_t dist[60 * 40];
    EXPECT(dg_distance_map(&g, &mv, &r.start, 1, 0, dist, 60 * 40, NULL, NULL, NULL) == DG_OK, "move ok");
    mv.spare[0] = 1;
    EXPECT(dg_distance_map(&g, &mv, &r.start, 1, 0, dist, 60 * 40, NULL, NULL, NULL) == DG_E_INVALID, "move spare");
    dg_place_params pp; memset(&pp, 0xA5, sizeof pp); dg_place_defaults(&pp);
    EXPECT(zero(pp.spare), "place defaults");
    dg_placement pl; memset(&pl, 0xA5, sizeof pl);
    EXPECT(dg_place(&g, &pp, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_OK, "place ok");
    pp.spare[3] = -1;
    EXPECT(dg_place(&g, &pp, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_E_INVALID, "place spare");
    dg_quality q; memset(&q, 0xA5, sizeof q);
    EXPECT(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK && zero(q.spare), "quality spare");
    dg_metrics m; memset(&m, 0xA5, sizeof m);
    EXPECT(dg_measure(&g, NULL, &m, NULL, NULL) == DG_OK && zero(m.spare), "measure spare");
    dg_lock_params lp; memset(&lp, 0xA5, sizeof lp); dg_lock_defaults(&lp);
    EXPECT(zero(lp.spare), "lock defaults");
    lp.spare[1] = 1;
    dg_progress pr;
    EXPECT(dg_lock_place(&g, &lp, 1, &r, &pr, NULL, NULL) == DG_E_INVALID, "lock spare");
    dg_export_options eo; memset(&eo, 0xA5, sizeof eo); dg_export_defaults(&eo);
    EXPECT(zero(eo.spare), "export defaults");
    size_t need = 0;
    EXPECT(dg_export_buffer(&g, &r, &eo, NULL, 0, &need, NULL) == DG_OK, "export ok");
    eo.spare[0] = 1;
    EXPECT(dg_export_buffer(&g, &r, &eo, NULL, 0, &need, NULL) == DG_E_INVALID, "export spare");
    dg_site st; memset(&st, 0xA5, sizeof st); dg_site_init(&st);
    EXPECT(zero(st.spare), "site init");
    dg_recipe rc;
    EXPECT(dg_recipe_init(&rc, "bsp", 1, 60, 40) == DG_OK, "recipe");
    st.spare[2] = 1;
    EXPECT(dg_recipe_generate_site(&rc, &st, &g, NULL, NULL, NULL, NULL) == DG_E_INVALID, "site spare");
    dg_world_params wp; memset(&wp, 0xA5, sizeof wp); dg_world_defaults(&wp);
    EXPECT(zero(wp.spare), "world defaults");
    dg_world *w = NULL;
    wp.spare[0] = 1;
    EXPECT(dg_world_create(&wp, 1, NULL, &w, NULL) == DG_E_INVALID && !w, "world spare");
    wp.spare[0] = 0;
    EXPECT(dg_world_create(&wp, 1, NULL, &w, NULL) == DG_OK, "world ok");
    dg_world_room wr; memset(&wr, 0xA5, sizeof wr);
    EXPECT(dg_world_room_info(w, 3, -2, &wr) == DG_OK && zero(wr.spare), "world room spare");
    dg_world_free(w);
    dg_prefab_full_params fp; memset(&fp, 0xA5, sizeof fp); dg_prefab_full_defaults(&fp);
    dg_prefab_jigsaw_params jp; memset(&jp, 0xA5, sizeof jp); dg_prefab_jigsaw_defaults(&jp);
    dg_prefab_islands_params ip; memset(&ip, 0xA5, sizeof ip); dg_prefab_islands_defaults(&ip);
    dg_prefab_mixed_params xp; memset(&xp, 0xA5, sizeof xp); dg_prefab_mixed_defaults(&xp);
    EXPECT(zero(fp.spare) && zero(jp.spare) && zero(ip.spare) && zero(xp.spare), "prefab defaults");
    const char *text = "prefabs 1\nprefab box\n  mode full island jigsaw\nmap\n#####\n#...#\n#...#\n#####\nend\n";
    dg_prefab_set *set = NULL;
    EXPECT(dg_prefab_parse(text, strlen(text), "box", NULL, NULL, NULL, &set, NULL) == DG_OK, "prefab parse");
    fp.spare[0] = jp.spare[0] = ip.spare[0] = xp.spare[0] = 1;
    EXPECT(dg_prefab_full_generate(&g, set, &fp, 1, NULL, NULL, NULL) == DG_E_INVALID, "full spare");
    EXPECT(dg_prefab_jigsaw_generate(&g, set, &jp, 1, NULL, NULL, NULL) == DG_E_INVALID, "jigsaw spare");
    EXPECT(dg_prefab_islands_generate(&g, set, &ip, 1, NULL, NULL, NULL) == DG_E_INVALID, "islands spare");
    EXPECT(dg_prefab_mixed_generate(&g, set, &xp, 1, &r, NULL, NULL) == DG_E_INVALID, "mixed spare");
    dg_prefab_info pi; memset(&pi, 0xA5, sizeof pi);
    EXPECT(dg_prefab_get_info(set, 0, &pi) == DG_OK && zero(pi.spare), "prefab info spare");
    dg_prefab_set_free(set);
    dg_result_free(&r);
    printf("spare: %d failed\n", failed);
    return failed != 0;
}
C
if ${CC:-cc} -std=c11 -Wall -Wextra -Iinclude "$tmp/spare.c" -o "$tmp/spare" "$B/libdungeon.a" -lm; then
    if "$tmp/spare" >"$tmp/spare.txt" 2>&1; then
        ok "spare slots: nonzero refused (DG_E_INVALID) by every reader, 0 from every defaults and writer"
    else
        bad "spare slots"
        sed 's/^/      /' "$tmp/spare.txt"
    fi
else
    bad "the spare-slot probe does not build"
fi

# The readers count a struct's slots with DGI_SPARE_CHECK, which must refuse a
# pointer (its sizeof would count 2 or 1 slots) at compile time.
cat >"$tmp/slots.c" <<'C'
#include "core/core.h"
struct probe { int32_t spare[6]; };
int probe_array(struct probe *p, dg_diag *d);
int probe_array(struct probe *p, dg_diag *d) { return DGI_SPARE_CHECK(p->spare, "probe", d); }
#ifdef GIVE_POINTER
int probe_pointer(int32_t *q, dg_diag *d);
int probe_pointer(int32_t *q, dg_diag *d) { return DGI_SPARE_CHECK(q, "probe", d); }
#endif
C
slots() { ${CC:-cc} -std=c11 -Iinclude -Ilib "$@" -c "$tmp/slots.c" -o "$tmp/slots.o" 2>"$tmp/slots.err"; }
if slots && ! slots -DGIVE_POINTER; then
    ok "DGI_SPARE_CHECK takes a spare array and refuses a pointer at compile time"
else
    bad "DGI_SPARE_CHECK: an array must compile and a pointer must not"
    sed 's/^/      /' "$tmp/slots.err"
fi
finish
