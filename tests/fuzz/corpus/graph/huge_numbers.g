graph 1
node a size=3x3
node b size=99999999999x3
edge a b corridor length=4294967296..1
