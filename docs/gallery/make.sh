#!/bin/sh
# Regenerates every picture of docs/gallery.md (run from the repository root
# after `make`). Each line is the exact command shown under its picture.
# OUT=DIR writes DIR/gallery/*.png instead (tests/pictures.sh compares them).
set -e
T=${DUNGEON:-build/bin/dungeon}
P=examples/prefabs
G=${OUT:-docs}/gallery
mkdir -p "$G"
g() { # g NAME ARGS...
    name=$1
    shift
    "$T" "$@" -o "$G/$name.png"
}
g attach --gen attach --seed 42 --width 80 --height 50 --scale 5 --numbers --markers --legend
g attach-linear --gen attach --seed 3 --width 80 --height 50 --scale 5 --param growth=newest
g attach-bushy --gen attach --seed 3 --width 80 --height 50 --scale 5 --param growth=oldest --param dead_ends=prune
g attach-loops --gen attach --seed 3 --width 80 --height 50 --scale 5 --param loop_min_gain=12 --param loop_max=20
g attach-big-rooms --gen attach --seed 9 --width 80 --height 50 --scale 5 --param room_min_w=6 --param room_max_w=14 --param room_min_h=5 --param room_max_h=10 --param doors=none
g chain --gen chain --seed 3 --width 80 --height 50 --scale 5 --numbers --markers
g chain-forbid-loops --gen chain --seed 3 --width 80 --height 50 --scale 5 --param rooms_min=20 --param rooms_max=25 --param overlap=forbid --param loop_chance=600
g chain-branching --gen chain --seed 8 --width 80 --height 50 --scale 5 --param rooms_min=25 --param rooms_max=30 --param branch_chance=400 --param overlap=forbid
g cave --gen cave --seed 3 --width 80 --height 50 --scale 5 --markers
g bsp --gen bsp --seed 3 --width 80 --height 50 --scale 5 --numbers --markers
g maze --gen maze --seed 3 --width 81 --height 51 --scale 5 --markers
g maze-locks --gen maze --seed 3 --width 81 --height 51 --scale 7 --markers --legend --locks 4 --keys dead-end
g walk --gen walk --seed 3 --width 80 --height 50 --scale 5 --markers
g scatter --gen scatter --seed 3 --width 80 --height 50 --scale 5 --numbers --markers
g prefab-mixed-cave --gen prefab-mixed --prefabs $P/vaults.txt --seed 4 --width 80 --height 50 --scale 5 --param base=cave --param count=6 --markers
g prefab-full --gen prefab-full --prefabs $P/shaft.txt --seed 3 --width 56 --height 26 --scale 8 --markers --legend
g prefab-jigsaw --gen prefab-jigsaw --prefabs $P/forest.txt --seed 5 --width 84 --height 50 --scale 5 --grid
g prefab-islands --gen prefab-islands --prefabs $P/factory.txt --seed 7 --width 80 --height 50 --scale 5 --markers --numbers
g prefab-mixed --gen prefab-mixed --prefabs $P/vaults.txt --seed 4 --width 80 --height 50 --scale 5 --param count=6 --markers
g world --gen world --seed 7 --width 81 --height 51 --scale 5
g world-furnished --gen world --prefabs $P/furnish.txt --seed 7 --width 81 --height 51 --scale 5 --param dead_end_fix=1000 --markers --legend
g attach-dense --gen attach --seed 42 --width 80 --height 50 --scale 5 --param dense=1 --param loop_min_gain=0 --param target_floor=300
g attach-grid --gen attach --seed 5 --width 32 --height 20 --scale 16 --grid --numbers --markers
g scatter-autotile --gen scatter --seed 3 --width 80 --height 50 --scale 8 --style autotile
