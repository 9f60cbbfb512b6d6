graph 1
# the Petersen graph: no K5 in it, a K3,3 with rooms on its paths
node o0 size=3x3
node o1 size=3x3
node o2 size=3x3
node o3 size=3x3
node o4 size=3x3
node i0 size=3x3
node i1 size=3x3
node i2 size=3x3
node i3 size=3x3
node i4 size=3x3
edge o0 o1
edge o1 o2
edge o2 o3
edge o3 o4
edge o4 o0
edge o0 i0
edge o1 i1
edge o2 i2
edge o3 i3
edge o4 i4
edge i0 i2
edge i2 i4
edge i4 i1
edge i1 i3
edge i3 i0
