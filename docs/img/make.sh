#!/bin/sh
# Regenerates the pictures of the generator pages (run from the repository
# root after `make`); each line is the command its page shows. OUT=DIR
# writes DIR/img/*.png instead (tests/pictures.sh compares them).
set -e
B=${BIN:-build/bin}
T=$B/dungeon
P=examples/prefabs
I=${OUT:-docs}/img
mkdir -p "$I"
d() { # d NAME ARGS...
    name=$1
    shift
    "$T" "$@" -o "$I/$name.png"
}
A="--gen attach --seed 3 --width 100 --height 60 --scale 6"
d attach-default $A
d attach-classic $A --param dead_ends=keep --param doors=all
d attach-growth-uniform $A --param growth=uniform --param target_floor=150
d attach-growth-newest $A --param growth=newest --param target_floor=150
d attach-growth-oldest $A --param growth=oldest --param target_floor=150
d attach-loops $A --param growth=newest --param target_floor=250 --param loop_min_gain=20 --param loop_max=12
d attach-dead-keep $A --param target_floor=250 --param dead_ends=keep
d attach-dead-prune $A --param target_floor=250 --param dead_ends=prune
d attach-dead-room $A --param target_floor=250 --param dead_ends=room
d site-attach $A --reserve 38,20,24,16 --reserve 0,42,28,18 --markers
C="--gen chain --seed 3 --width 80 --height 50 --scale 6"
d chain-default $C
d chain-overlap-allow $C --param rooms_min=20 --param rooms_max=25
d chain-overlap-forbid $C --param rooms_min=20 --param rooms_max=25 --param overlap=1
d chain-branch $C --param rooms_min=20 --param rooms_max=25 --param overlap=1 --param branch_chance=400
d chain-loops $C --param rooms_min=20 --param rooms_max=25 --param overlap=1 --param loop_chance=600
d chain-stuck-stop $C --param rooms_min=2 --param rooms_max=40 --param overlap=1 --param on_stuck=0
d chain-stuck-branch $C --param rooms_min=2 --param rooms_max=40 --param overlap=1 --param on_stuck=1
d chain-no-border $C --param rooms_min=20 --param rooms_max=25 --param border=0
d chain-source --gen chain --seed 2 --width 100 --height 100 --scale 5 --param rooms_min=15 --param rooms_max=20 --param room_min_w=3 --param room_min_h=3 --param room_max_h=10 --param corridor_min=6 --param corridor_max=10
d prefab-full --gen prefab-full --prefabs $P/shaft.txt --seed 3 --width 52 --height 24 --scale 8 --markers --legend
d prefab-jigsaw-forest --gen prefab-jigsaw --prefabs $P/forest.txt --seed 5 --width 21 --height 15 --scale 16 --markers --grid
d prefab-jigsaw-84x50 --gen prefab-jigsaw --prefabs $P/forest.txt --seed 11 --width 84 --height 50 --scale 5
d prefab-islands --gen prefab-islands --prefabs $P/factory.txt --seed 7 --width 80 --height 50 --scale 6 --markers --numbers
d prefab-mixed --gen prefab-mixed --prefabs $P/vaults.txt --seed 4 --width 80 --height 50 --scale 6 --param count=8 --markers
d cave-default --gen cave --seed 3 --width 80 --height 50 --scale 6
d cave-classic --gen cave --seed 3 --width 80 --height 50 --scale 6 --param fill_permille=450
d cave-tunnels --gen cave --seed 3 --width 80 --height 50 --scale 6 --param min_region=4 --param tunnel_width=1
d cave-largest --gen cave --seed 3 --width 80 --height 50 --scale 6 --param connect=largest
d cave-rough --gen cave --seed 3 --width 80 --height 50 --scale 6 --param iterations=2 --param smoothing=0
d bsp-default --gen bsp --seed 3 --width 80 --height 50 --scale 6
d bsp-loops --gen bsp --seed 3 --width 80 --height 50 --scale 6 --param loop_chance=1000
d bsp-small-leaves --gen bsp --seed 3 --width 80 --height 50 --scale 6 --param leaf_min_w=6 --param leaf_min_h=6 --param room_min_w=2 --param room_min_h=2 --param room_fill=0
d bsp-capped --gen bsp --seed 3 --width 80 --height 50 --scale 6 --param max_leaves=8 --param margin=3 --param room_fill=80 --param leaf_min_w=12 --param leaf_min_h=12
d maze-default --gen maze --seed 3 --width 80 --height 50 --scale 5 --markers
d maze-perfect --gen maze --seed 3 --width 80 --height 50 --scale 5 --param layout=perfect --markers
d maze-prim --gen maze --seed 3 --width 80 --height 50 --scale 5 --param layout=perfect --param newest=0
d maze-division --gen maze --seed 3 --width 80 --height 50 --scale 5 --param layout=perfect --param algorithm=division
d maze-braid-wide --gen maze --seed 3 --width 80 --height 50 --scale 5 --param layout=perfect --param braid=1000 --param corridor_width=2
d maze-dead-ends-kept --gen maze --seed 3 --width 80 --height 50 --scale 5 --param dead_ends=0
d maze-rooms-wide --gen maze --seed 3 --width 80 --height 50 --scale 5 --param corridor_width=2 --param room_min_w=5 --param room_min_h=5 --param room_max_w=14 --param room_max_h=11 --param straight=900
d walk-default --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers
d walk-drunk --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers --param mode=0 --param target_floor=400 --param room_chance=10
d walk-mirror-x --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers --param symmetry=1
d walk-fourfold-drunk --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers --param symmetry=3 --param mode=0 --param room_chance=0 --param target_floor=350
d walk-long-runs --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers --param step_min=8 --param step_max=20 --param turn_chance=700 --param room_chance=600 --param room_min=4 --param room_max=9 --param target_floor=250
d walk-capped --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers --param max_steps=250
d scatter-default --gen scatter --seed 3 --width 80 --height 50 --scale 6
d scatter-loops --gen scatter --seed 3 --width 80 --height 50 --param loop_permille=1000 --scale 6
d scatter-small --gen scatter --seed 3 --width 80 --height 50 --param rooms_min=60 --param rooms_max=80 --param room_min_w=2 --param room_max_w=5 --param room_min_h=2 --param room_max_h=4 --param gap=1 --scale 6
d scatter-large --gen scatter --seed 3 --width 80 --height 50 --param rooms_min=6 --param rooms_max=8 --param room_min_w=8 --param room_max_w=16 --param room_min_h=5 --param room_max_h=9 --param gap=4 --scale 6
d world-window --gen world --prefabs $P/furnish.txt --seed 7 --width 101 --height 61 --scale 4 --param dead_end_fix=1000
# docs/progression.md
d progression-attach --gen attach --seed 3 --width 80 --height 50 --locks 3 --secrets 400 --markers --legend --scale 6
d progression-cave --gen cave --seed 4 --width 80 --height 50 --locks 3 --markers --scale 6
d progression-bsp --gen bsp --seed 2 --width 80 --height 50 --locks 3 --keys dead-end --secrets 1000 --markers --scale 6
rm -rf "$I/floors.tmp"
"$T" --gen attach --seed 12 --width 60 --height 40 --floors 3 --stairs 2 --markers --scale 5 -o "$I/floors.tmp"
for n in 0 1 2; do mv "$I/floors.tmp/floor-$n.png" "$I/progression-floor-$n.png"; done
rmdir "$I/floors.tmp"
# docs/content.md: a level with roles and spawns, as make demo shows it
d content-level --gen attach --seed 3 --width 80 --height 50 --locks 2 --roles default --spawns examples/spawns/dungeon.txt --depth 4 --markers --legend --scale 8
d content-factory --gen bsp --seed 5 --width 80 --height 50 --roles default --spawns examples/spawns/factory.txt --depth 6 --markers --legend --scale 8
# sites: docs/bsp.md, docs/cave.md, docs/world.md
d site-bsp --gen bsp --seed 3 --reserve 30,15,20,12 --reserve 8,38,40,3 --scale 6
d site-cave --gen cave --seed 3 --width 80 --height 50 --reserve 30,15,20,12 --reserve 8,38,14,6 --scale 6
d site-world --gen world --width 81 --height 51 --seed 3 --reserve 30,15,20,12 --reserve 60,5,3,30 --scale 6 --markers
# docs/graph.md: each example level graph laid out (big.txt needs more room)
for g in linear hub loop_lock zelda templates; do
    d graph-$g --gen graph --graph examples/graphs/$g.txt --markers --scale 8
done
d graph-big --gen graph --graph examples/graphs/big.txt --width 120 --height 80 --markers --scale 8
# docs/scheduler.md: frames 12, 36 and 60 of the chase
rm -rf "$I/chase.tmp"
mkdir "$I/chase.tmp"
"$B/chase" --seed 2 --turns 60 --png "$I/chase.tmp" >/dev/null
for n in 012 036 060; do mv "$I/chase.tmp/chase-$n.png" "$I/chase-$n.png"; done
rm -rf "$I/chase.tmp"
"$B/walker" --seed 7 --steps 400 --prefabs $P/furnish.txt --ascii none -o $I/world-walk.png
"$B/analysis_demo" 7 $I >/dev/null
"$B/flee" 7 $I >/dev/null
