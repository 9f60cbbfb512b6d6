graph 1
# A Zelda-style dungeon: three locks, each key in a side room off the path,
# a loop round the central chamber, a secret treasure room and the boss at
# the end behind the last lock.
level room_distance=1 corridor_width=1

node entry    role=start    size=6..8x5..7
node hall     role=hub      size=9..12x7..9
node west     size=6..8x5..7
node w_key    role=key      size=4..5x4..5
node east     size=6..8x5..7
node e_key    role=key      size=4..5x4..5
node pool     size=5..8x5..7
node north    size=8..10x6..8
node n_key    role=key      size=4..6x4..5
node shrine   role=secret   size=3..4x3..4
node anteroom               size=5..7x4..6
node boss     role=boss     size=10..13x8..10
node reward   role=treasure size=4..6x4..6
node exit     role=exit     size=3..4x3..4

edge entry hall door
edge hall west corridor length=2..5
edge west w_key door
edge hall east corridor length=2..5 lock=1 key=w_key
edge east e_key door
edge hall north corridor length=3..6 lock=2 key=e_key
edge hall pool corridor length=2..4
edge pool west door
edge north n_key corridor length=2..4
edge n_key shrine door secret
edge north anteroom door
edge anteroom boss corridor length=2..4 lock=3 key=n_key
edge boss reward door
edge boss exit door
