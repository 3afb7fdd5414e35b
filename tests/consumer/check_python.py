"""The python component of an installed ufx: consumer_python's ufunc, imported and called (run_consumer.cmake)."""
import numpy as np

import consumer_python as c

assert isinstance(c.twice, np.ufunc), c.twice
assert c.twice.types == ["d->d"], c.twice.types
x = np.arange(12.0).reshape(3, 4)[:, ::2]
np.testing.assert_array_equal(c.twice(x), 2 * x)
print("consumer_python.twice:", c.twice, c.twice.types)
