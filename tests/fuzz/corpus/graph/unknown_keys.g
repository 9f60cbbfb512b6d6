graph 1
level room_distance=0 corridor_width=3 extra_connections=1 colour=red
prefabs x.txt
node a templates=vault
