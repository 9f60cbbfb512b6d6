#!/bin/sh
# make demo: write preview PNGs of every generator to build/demo/ and print an
# ASCII map. Each line is a command a level designer can copy.
set -e
B=${1:-build}
D="$B/demo"
T="$B/bin/dungeon"
mkdir -p "$D"

png() { # png NAME ARGS...: one preview
    name=$1
    shift
    "$T" "$@" --format png --scale 6 -o "$D/$name.png"
    echo "wrote $D/$name.png  (dungeon $*)"
}

png attach-80x50 --gen attach --seed 1 --width 80 --height 50
png attach-200x120 --gen attach --seed 7 --width 200 --height 120
png attach-linear --gen attach --seed 3 --width 100 --height 60 --param growth=1
png attach-loops --gen attach --seed 3 --width 100 --height 60 --param loop_min_gain=12
png chain-80x50 --gen chain --seed 3 --width 80 --height 50
png chain-loops --gen chain --seed 3 --width 80 --height 50 --param rooms_min=20 --param rooms_max=25 --param overlap=1 --param loop_chance=600
png cave-80x50 --gen cave --seed 1 --width 80 --height 50
png bsp-80x50 --gen bsp --seed 1 --width 80 --height 50
png maze-80x50 --gen maze --seed 1 --width 81 --height 51
png walk-80x50 --gen walk --seed 1 --width 80 --height 50
png scatter-80x50 --gen scatter --seed 1 --width 80 --height 50
png bsp-locks --gen bsp --seed 2 --width 80 --height 50 --locks 3 --secrets 300 --markers
# a level with a purpose: locks and keys, rooms given roles (boss, treasure,
# shop, hub, ...), monsters and items placed on a budget that grows with the
# distance from the start and the depth (docs/content.md, docs/spawn-format.md)
# a level graph laid out exactly: rooms with names and roles, doors, corridors,
# three locks with their keys and a secret door (docs/graph.md)
png graph-zelda --gen graph --graph examples/graphs/zelda.txt --markers
png level-roles-spawns --gen attach --seed 3 --width 80 --height 50 --locks 2 --roles default --spawns examples/spawns/dungeon.txt --depth 4 --markers --legend
P=examples/prefabs
png prefab-mixed-cave --gen prefab-mixed --prefabs $P/vaults.txt --seed 4 --width 80 --height 50 --param base=cave
png prefab-full-shaft --gen prefab-full --prefabs $P/shaft.txt --seed 3 --width 56 --height 26
png prefab-jigsaw-forest --gen prefab-jigsaw --prefabs $P/forest.txt --seed 5 --width 21 --height 15
png prefab-jigsaw-84x50 --gen prefab-jigsaw --prefabs $P/forest.txt --seed 5 --width 84 --height 50
png prefab-islands-factory --gen prefab-islands --prefabs $P/factory.txt --seed 7 --width 80 --height 50
png prefab-mixed-vaults --gen prefab-mixed --prefabs $P/vaults.txt --seed 4 --width 80 --height 50 --param count=6
png world-furnished --gen world --prefabs $P/furnish.txt --seed 7 --width 121 --height 81 --param dead_end_fix=1000

# the same kind of map for Tiled (with its swatch tileset beside it) and as
# JSON, both carrying the recipe that regenerates them
echo "dungeon --gen attach --seed 1 --width 80 --height 50 -o $D/attach-80x50.tmx (and .json)"
"$T" --gen attach --seed 1 --width 80 --height 50 -o "$D/attach-80x50.tmx"
"$T" --gen attach --seed 1 --width 80 --height 50 -o "$D/attach-80x50.json"

# a monster fleeing the player down a Dijkstra safety map (docs/analysis.md)
echo "flee 7 $D  (writes $D/analysis-flee.png)"
"$B/bin/flee" 7 "$D"

# monsters of different speeds chasing the player, one distance map a turn
# (docs/scheduler.md, "Chase"): PNG frames, then a few ASCII frames
echo "chase --seed 2 --png $D/chase  (writes $D/chase/chase-000.png ...)"
mkdir -p "$D/chase"
"$B/bin/chase" --seed 2 --png "$D/chase"
echo
echo "chase --seed 2 --turns 24 --every 12"
"$B/bin/chase" --seed 2 --turns 24 --every 12

# the infinite world explored by a random walk: entered rooms bright, rooms seen
# through a door dimmed
W="$B/bin/walker"
echo "walker --seed 7 --steps 400 --prefabs $P/furnish.txt --ascii none -o $D/world-walk-400.png"
"$W" --seed 7 --steps 400 --prefabs $P/furnish.txt --ascii none -o "$D/world-walk-400.png"
echo
echo "walker --seed 7 --steps 12 --prefabs $P/furnish.txt"
"$W" --seed 7 --steps 12 --prefabs $P/furnish.txt

echo
echo "dungeon --gen attach --seed 1 --width 80 --height 25 --stats"
"$T" --gen attach --seed 1 --width 80 --height 25 --stats
