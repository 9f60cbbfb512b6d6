graph 1
node a size=3x3 # comment
	node	b	size=2..9x1..256	#
edge b a door secret
edge