# --- legacy np.random.seed(1)
import numpy as np

x = np.random.seed(1)
# --- legacy np.random.rand(3)
import numpy as np

x = np.random.rand(3)
# --- legacy np.random.randn(3)
import numpy as np

x = np.random.randn(3)
# --- legacy np.random.randint(0, 3)
import numpy as np

x = np.random.randint(0, 3)
# --- legacy np.random.random()
import numpy as np

x = np.random.random()
# --- legacy np.random.choice([1, 2])
import numpy as np

x = np.random.choice([1, 2])
# --- legacy np.random.shuffle([1])
import numpy as np

x = np.random.shuffle([1])
# --- legacy np.random.permutation(3)
import numpy as np

x = np.random.permutation(3)
# --- legacy np.random.normal()
import numpy as np

x = np.random.normal()
# --- legacy np.random.uniform()
import numpy as np

x = np.random.uniform()
# --- legacy np.random.binomial(1, 0.5)
import numpy as np

x = np.random.binomial(1, 0.5)
# --- legacy np.random.poisson()
import numpy as np

x = np.random.poisson()
# --- legacy np.random.beta(1, 2)
import numpy as np

x = np.random.beta(1, 2)
# --- legacy np.random.random_sample()
import numpy as np

x = np.random.random_sample()
# --- legacy np.random.get_state()
import numpy as np

x = np.random.get_state()
# --- from numpy import random
from numpy import random

x = random.rand(3)
# --- import numpy
import numpy

numpy.random.seed(0)
# --- default_rng passes
import numpy as np

rng = np.random.default_rng(1)
x = rng.random()
# --- Generator passes
import numpy as np

g = np.random.Generator(np.random.PCG64())
# --- stdlib random passes
import random

random.seed(1)
x = random.random()
