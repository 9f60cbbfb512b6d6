graph 1
level max_attempts=1
node a size=3x3
node b size=3x3
edge a b
