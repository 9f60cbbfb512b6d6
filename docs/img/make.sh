#!/bin/sh
# Regenerates the pictures of the generator pages (run from the repository
# root after `make`); each line is the command its page shows.
set -e
B=${BIN:-build/bin}
T=$B/dungeon
P=examples/prefabs
I=docs/img
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
d world-window --gen world --prefabs $P/furnish.txt --seed 7 --width 101 --height 61 --scale 4 --param dead_end_fix=1000
"$B/walker" --seed 7 --steps 400 --prefabs $P/furnish.txt --ascii none -o $I/world-walk.png
"$B/analysis_demo" 7 $I >/dev/null
