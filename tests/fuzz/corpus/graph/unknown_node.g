graph 1
node a size=3..4x5..6
node b size=3x3 role=key
edge a b lock=1 key=b
edge b zz
