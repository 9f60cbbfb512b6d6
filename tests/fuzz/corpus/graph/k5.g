graph 1
node a size=3x3
node b size=3x3
node c size=3x3
node d size=3x3
node e size=3x3
edge a b
edge a c
edge a d
edge a e
edge b c
edge b d
edge b e
edge c d
edge c e
edge d e
