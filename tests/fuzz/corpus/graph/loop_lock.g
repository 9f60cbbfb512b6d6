graph 1
# A loop with a lock and its key: from the courtyard two ways run round to
# the well room; the short way ends at a locked door, the long way passes
# the cellar where the key lies. The treasury behind the door closes the loop.
level room_distance=1 corridor_width=1

node courtyard role=start    size=7..10x6..8
node gallery                 size=8..12x4..5
node cellar    role=key      size=5..7x5..6
node well                    size=5..7x5..7
node treasury  role=treasure size=5..7x4..6
node tower     role=exit     size=4..5x4..5

edge courtyard gallery corridor length=2..5
edge gallery cellar door
edge cellar well corridor length=3..6
edge well treasury door
edge treasury courtyard corridor length=2..5 lock=1 key=cellar
edge well tower corridor length=2..4
