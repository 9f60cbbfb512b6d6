graph 1
# A linear dungeon: the entrance, three rooms in a row, the boss, the way out.
level room_distance=1 corridor_width=1

node entrance role=start size=5..7x4..6
node guardroom           size=6..9x5..7
node armoury  role=treasure size=4..6x4..5
node crypt               size=6..10x5..8
node throne   role=boss  size=9..12x7..9
node stairs   role=exit  size=3..4x3..4

edge entrance guardroom corridor length=3..6
edge guardroom armoury door
edge armoury crypt corridor length=2..5
edge crypt throne corridor length=3..8
edge throne stairs door
