graph 1
node a role=start size=3x3
node b size=3x3
node c size=3x3
edge a b lock=1 key=c
edge b c
edge a c secret
edge c a
