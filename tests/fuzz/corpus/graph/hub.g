graph 1
# A hub with branches: a great hall joins four wings; each wing ends in
# something worth the walk.
level room_distance=2 corridor_width=1

node gate     role=start    size=5..7x4..6
node hall     role=hub      size=10..14x8..10
node shop     role=shop     size=5..6x4..5
node barracks               size=7..10x5..7
node bunks                  size=4..6x4..6
node library                size=6..9x6..8
node vault    role=treasure size=4..5x4..5
node chapel                 size=6..8x6..9
node sanctum  role=boss     size=8..11x7..9
node descent  role=exit     size=3..4x3..4

edge gate hall corridor length=3..6
edge hall shop door
edge hall barracks corridor length=2..6
edge barracks bunks door
edge hall library corridor length=2..6
edge library vault door secret
edge hall chapel corridor length=3..7
edge chapel sanctum corridor length=2..4
edge sanctum descent door
