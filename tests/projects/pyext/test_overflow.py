import overflow


def test_sum():
    # 0+1+2+3 from the heap and again from the stack.
    assert overflow.sum(4) == 12
