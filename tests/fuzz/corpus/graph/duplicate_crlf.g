graph 1
﻿node a size=3x3
node a size=3x3