graph 1
node a_name_that_is_much_longer_than_thirty_one size=3x3
edge a b
