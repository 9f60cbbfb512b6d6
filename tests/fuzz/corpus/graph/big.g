graph 1
# Forty rooms with four cycles: a main loop through the town level, a ring
# of catacombs, a loop in the mines and a small circuit round the lake,
# joined by a tree of side rooms. Two locks, keys in side rooms.
level room_distance=1 corridor_width=1

# the town ring (cycle 1)
node well      role=start size=6..8x5..7
node square    role=hub   size=9..12x7..9
node tavern    role=shop  size=6..8x5..7
node smithy    role=shop  size=5..7x5..6
node market               size=8..10x6..8
node chapel               size=6..8x6..8
node alley                size=4..10x3..4
node cellar    role=key   size=4..6x4..5
node granary              size=5..7x4..6
node stable               size=6..8x4..6

# the catacombs ring (cycle 2)
node stair_down           size=3..4x3..4
node ossuary              size=6..9x5..7
node tombs_w              size=5..7x5..7
node tombs_e              size=5..7x5..7
node crypt                size=7..9x6..8
node reliquary role=treasure size=4..5x4..5
node bone_pit             size=5..6x5..6
node priest    role=key   size=4..5x4..5

# the mines loop (cycle 3)
node adit                 size=4..6x3..5
node shaft                size=3..4x5..8
node gallery_a            size=8..11x4..5
node gallery_b            size=8..11x4..5
node ore_vein             size=5..7x4..6
node cart_yard            size=6..8x5..7
node foreman   role=treasure size=4..5x4..5
node flooded              size=5..7x5..7
node collapse  role=secret size=3..4x3..4

# the lake circuit (cycle 4)
node shore                size=6..8x4..6
node jetty                size=3..5x3..4
node island               size=5..6x5..6
node boathouse            size=5..7x4..6
node grotto    role=secret size=4..5x4..5

# the way to the boss
node bridge               size=7..10x3..4
node gatehouse            size=6..8x5..7
node barracks             size=7..9x5..7
node armoury   role=treasure size=4..6x4..5
node keep      role=hub   size=8..10x7..9
node throne    role=boss  size=10..13x8..10
node hoard     role=treasure size=5..6x4..6
node portal    role=exit  size=3..4x3..4

# town ring
edge well square door
edge square tavern door
edge square market corridor length=2..5
edge market smithy door
edge market chapel corridor length=2..4
edge chapel alley door
edge alley square corridor length=2..5
edge alley cellar door secret
edge square granary corridor length=2..4
edge granary stable door

# catacombs ring
edge chapel stair_down door
edge stair_down ossuary corridor length=3..6
edge ossuary tombs_w corridor length=2..4
edge ossuary tombs_e corridor length=2..4
edge tombs_w crypt corridor length=2..5
edge tombs_e crypt corridor length=2..5
edge crypt reliquary door lock=1 key=cellar
edge tombs_w bone_pit door
edge tombs_e priest door

# mines loop
edge stable adit corridor length=3..6
edge adit shaft door
edge shaft gallery_a corridor length=2..4
edge gallery_a ore_vein door
edge ore_vein gallery_b corridor length=2..4
edge gallery_b shaft corridor length=3..6
edge gallery_b cart_yard door
edge cart_yard foreman door
edge gallery_a flooded corridor length=2..5
edge flooded collapse door secret

# lake circuit
edge cart_yard shore corridor length=3..7
edge shore jetty door
edge jetty island corridor length=3..6
edge island boathouse corridor length=3..6
edge boathouse shore door
edge island grotto door secret

# to the boss
edge shore bridge corridor length=2..5
edge bridge gatehouse door
edge gatehouse barracks door
edge barracks armoury door
edge gatehouse keep corridor length=3..6 lock=2 key=priest
edge keep throne corridor length=2..4
edge throne hoard door
edge throne portal door
